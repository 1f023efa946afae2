-- sudoku-bank schema for PostgreSQL, version 6: as ../0006_samples.sql.

CREATE TABLE run_samples (
    run_id        BIGINT  NOT NULL REFERENCES runs(id),
    at            TEXT    NOT NULL,
    elapsed_ms    BIGINT  NOT NULL,
    attempts      BIGINT  NOT NULL,
    accepted      BIGINT  NOT NULL,
    duplicates    BIGINT  NOT NULL,
    rejected      BIGINT  NOT NULL,
    timeouts      BIGINT  NOT NULL,
    retries       BIGINT  NOT NULL,
    alarms        BIGINT  NOT NULL,
    attempt_times TEXT    NOT NULL,
    PRIMARY KEY (run_id, elapsed_ms)
);
