-- sudoku-bank schema, version 5: many workers on one bank.

-- When a running run last wrote (its counters, with each batch). A run left `running`
-- whose heartbeat is older than the lease (60 s) belongs to a worker that died, on
-- whatever host: the next worker to start or finish marks it `interrupted`.
ALTER TABLE runs ADD COLUMN heartbeat_at TEXT;
