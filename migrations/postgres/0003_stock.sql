-- sudoku-bank schema for PostgreSQL, version 3: as ../0003_stock.sql.

ALTER TABLE puzzles ADD COLUMN served_to TEXT;
ALTER TABLE puzzles ADD COLUMN origin TEXT;
ALTER TABLE runs ADD COLUMN origin TEXT;

CREATE INDEX puzzles_by_served ON puzzles (served_at) WHERE served_at IS NOT NULL;

CREATE TABLE retired_fingerprints (
    fingerprint TEXT    PRIMARY KEY,
    size        BIGINT  NOT NULL,
    tier        TEXT    NOT NULL,
    served_at   TEXT,
    retired_at  TEXT    NOT NULL
);

CREATE TABLE daily (
    day       TEXT    NOT NULL,
    size      BIGINT  NOT NULL,
    tier      TEXT    NOT NULL,
    puzzle_id BIGINT  NOT NULL REFERENCES puzzles(id),
    PRIMARY KEY (day, size, tier)
);
