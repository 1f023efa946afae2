-- sudoku-bank schema for PostgreSQL, version 5: as ../0005_workers.sql.

ALTER TABLE runs ADD COLUMN heartbeat_at TEXT;
