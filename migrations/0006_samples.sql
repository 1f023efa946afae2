-- sudoku-bank schema, version 6: what a run did over time, for `bank report`.

-- A row every second or so while a run works: its counters so far (as in `runs`) and a
-- histogram of how long the attempts since the previous row took. Histograms add up, so
-- a report over many runs or a period merges them before it reads quantiles.
CREATE TABLE run_samples (
    run_id        INTEGER NOT NULL REFERENCES runs(id),
    at            TEXT    NOT NULL,     -- UTC, RFC 3339
    elapsed_ms    INTEGER NOT NULL,     -- since the run started
    attempts      INTEGER NOT NULL,
    accepted      INTEGER NOT NULL,
    duplicates    INTEGER NOT NULL,
    rejected      INTEGER NOT NULL,
    timeouts      INTEGER NOT NULL,
    retries       INTEGER NOT NULL,
    alarms        INTEGER NOT NULL,
    attempt_times TEXT    NOT NULL,     -- JSON array: attempts per bucket, bucket k
                                        -- from 2^(k/4) µs to 2^((k+1)/4) µs
    PRIMARY KEY (run_id, elapsed_ms)
);
