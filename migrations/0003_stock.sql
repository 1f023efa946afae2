-- sudoku-bank schema, version 3: the bank as a stock that apps draw from.

-- Who a puzzle was handed to (`bank take --client`, or `daily YYYY-MM-DD`), beside served_at.
ALTER TABLE puzzles ADD COLUMN served_to TEXT;
-- Where a puzzle came from when it was not made here: `bank merge` and `bank import`
-- write the other bank or file and the puzzle's id there. NULL for puzzles made here.
ALTER TABLE puzzles ADD COLUMN origin TEXT;
-- Where a run came from when `bank merge` copied it from another bank.
ALTER TABLE runs ADD COLUMN origin TEXT;

CREATE INDEX puzzles_by_served ON puzzles (served_at) WHERE served_at IS NOT NULL;

-- Fingerprints of puzzles that `bank prune` deleted: the fill and import consult them,
-- so a pruned puzzle is never made or stored again.
CREATE TABLE retired_fingerprints (
    fingerprint TEXT    PRIMARY KEY,                 -- as puzzles.fingerprint
    size        INTEGER NOT NULL,
    tier        TEXT    NOT NULL,
    served_at   TEXT,
    retired_at  TEXT    NOT NULL
) WITHOUT ROWID;

-- The puzzle of the day per date, size and tier, chosen once and kept (`bank daily`).
-- `bank prune` never deletes a puzzle that is some day's puzzle.
CREATE TABLE daily (
    day       TEXT    NOT NULL,                      -- YYYY-MM-DD
    size      INTEGER NOT NULL,
    tier      TEXT    NOT NULL,
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id),
    PRIMARY KEY (day, size, tier)
);
