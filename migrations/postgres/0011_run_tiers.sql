-- sudoku-bank schema, version 11: what a run made of each tier, and how long it took.

-- A JSON array, one object per size, variant and tier the run filled: wanted, accepted,
-- the tier's own counters (attempts, duplicates, rejected, timeouts, retries, alarms),
-- worker_ms (the time its attempts took, summed over the workers) and workers (the run's
-- worker threads). Written when the run ends; NULL for runs of older binaries and for
-- runs that died.
ALTER TABLE runs ADD COLUMN tiers TEXT;
