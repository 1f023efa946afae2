-- sudoku-bank schema, version 9: any variant name.

-- Versions 7 and 8 listed the variants in CHECK constraints, so every new rule set would
-- need a migration (and a row of a new variant was silently refused by INSERT OR IGNORE).
-- The program checks the name against its rule sets when it reads a row; the tables are
-- rebuilt without those CHECKs (SQLite cannot drop a CHECK in place), keeping every row,
-- id and index. As SQLite's procedure for such changes says, foreign keys are off while
-- the migrations run and checked (`PRAGMA foreign_key_check`) before they commit.

CREATE TABLE base_grids_v9 (
    id          TEXT    PRIMARY KEY,                 -- blake3 of size, box shape and cells (hex, 32)
    size        INTEGER NOT NULL,
    box_rows    INTEGER NOT NULL,
    box_cols    INTEGER NOT NULL,
    route       TEXT    NOT NULL CHECK (route IN ('transform', 'backtrack', 'enumerate')),
    grid        TEXT    NOT NULL,
    seed        TEXT    NOT NULL,                    -- seed of the route's random stream
    mother_seed TEXT,
    variant     TEXT    NOT NULL DEFAULT 'classic'
);
INSERT INTO base_grids_v9 SELECT * FROM base_grids;
DROP TABLE base_grids;
ALTER TABLE base_grids_v9 RENAME TO base_grids;

CREATE TABLE puzzles_v9 (
    id                INTEGER PRIMARY KEY,
    run_id            INTEGER NOT NULL REFERENCES runs(id),
    source            TEXT    NOT NULL DEFAULT 'generated' CHECK (source IN ('generated', 'import')),
    base_grid_id      TEXT    REFERENCES base_grids(id),  -- NULL for imported puzzles
    size              INTEGER NOT NULL,
    box_rows          INTEGER NOT NULL,
    box_cols          INTEGER NOT NULL,
    puzzle            TEXT    NOT NULL,
    solution          TEXT    NOT NULL,
    clues             INTEGER NOT NULL,
    tier              TEXT    NOT NULL,
    backtracks        INTEGER NOT NULL,
    guesses           INTEGER NOT NULL,
    seed              TEXT,                          -- seed of the digging stream (NULL: imported)
    dig_strategy      TEXT,                          -- NULL for imported puzzles
    target_clues      INTEGER,                       -- NULL when dug to minimal
    generator_version INTEGER NOT NULL,
    fingerprint       TEXT    NOT NULL UNIQUE,       -- blake3 of the canonical form (hex, 64)
    generation_us     INTEGER NOT NULL,              -- time of the successful attempt (import: rating time)
    created_at        TEXT    NOT NULL,
    served_at         TEXT,                          -- set by the apps when a puzzle is handed out
    score             REAL,
    hardest_technique TEXT,
    rater_completed   INTEGER,
    techniques        TEXT,
    served_to         TEXT,
    origin            TEXT,
    solution_class    TEXT,
    full_fingerprint  TEXT,
    variant           TEXT    NOT NULL DEFAULT 'classic',
    cages             TEXT
);
INSERT INTO puzzles_v9 SELECT * FROM puzzles;
DROP TABLE puzzles;
ALTER TABLE puzzles_v9 RENAME TO puzzles;
CREATE INDEX puzzles_by_tier ON puzzles (size, tier, served_at);
CREATE INDEX puzzles_by_run ON puzzles (run_id);
CREATE INDEX puzzles_by_score ON puzzles (size, tier, score);
CREATE INDEX puzzles_by_served ON puzzles (served_at) WHERE served_at IS NOT NULL;
CREATE INDEX puzzles_by_class ON puzzles (solution_class);
CREATE UNIQUE INDEX puzzles_by_full_fingerprint ON puzzles (full_fingerprint)
    WHERE full_fingerprint IS NOT NULL;
CREATE INDEX puzzles_by_variant ON puzzles (size, variant, tier, served_at);

CREATE TABLE alarms_v9 (
    id                 INTEGER PRIMARY KEY,
    run_id             INTEGER NOT NULL REFERENCES runs(id),
    at                 TEXT    NOT NULL,
    size               INTEGER NOT NULL,
    tier               TEXT    NOT NULL,
    window_size        INTEGER NOT NULL,
    timeouts_in_window INTEGER NOT NULL,
    old_target         INTEGER NOT NULL,
    new_target         INTEGER,                       -- NULL when the target could not move
    variant            TEXT    NOT NULL DEFAULT 'classic'
);
INSERT INTO alarms_v9 SELECT * FROM alarms;
DROP TABLE alarms;
ALTER TABLE alarms_v9 RENAME TO alarms;
CREATE INDEX alarms_by_run ON alarms (run_id);

CREATE TABLE daily_v9 (
    day       TEXT    NOT NULL,                      -- YYYY-MM-DD
    size      INTEGER NOT NULL,
    variant   TEXT    NOT NULL DEFAULT 'classic',
    tier      TEXT    NOT NULL,
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id),
    PRIMARY KEY (day, size, variant, tier)
);
INSERT INTO daily_v9 SELECT * FROM daily;
DROP TABLE daily;
ALTER TABLE daily_v9 RENAME TO daily;
