-- sudoku-bank schema, version 11, as one script for a new bank: the tables and indexes
-- the numbered migrations leave, in their text as SQLite keeps it, so the test in
-- `src/bank/sqlite/schema.rs` holds the two to the letter. A bank made before is brought
-- up to date by the migrations; a new one takes this file (replaying the table rebuilds
-- of version 9 cost a new bank most of its opening). A new migration changes this file
-- too: the test prints the text it expects.

CREATE TABLE runs (
    id                INTEGER PRIMARY KEY,
    started_at        TEXT    NOT NULL,              -- UTC, RFC 3339
    finished_at       TEXT,
    status            TEXT    NOT NULL
                      CHECK (status IN ('running', 'completed', 'interrupted', 'failed')),
    run_seed          TEXT    NOT NULL,
    config_json       TEXT    NOT NULL,              -- the effective configuration
    generator_version INTEGER NOT NULL,
    attempts          INTEGER NOT NULL DEFAULT 0,
    accepted          INTEGER NOT NULL DEFAULT 0,
    duplicates        INTEGER NOT NULL DEFAULT 0,
    rejected          INTEGER NOT NULL DEFAULT 0,    -- rated outside the tier's band, or target missed
    timeouts          INTEGER NOT NULL DEFAULT 0,
    retries           INTEGER NOT NULL DEFAULT 0,
    alarms            INTEGER NOT NULL DEFAULT 0,
    message           TEXT,                          -- why a run failed or stopped
    pid               INTEGER,                       -- process that ran it (to tell a crash from a live run)
    host              TEXT
, origin TEXT, heartbeat_at TEXT, tiers TEXT);

CREATE TABLE retired_fingerprints (
    fingerprint TEXT    PRIMARY KEY,                 -- as puzzles.fingerprint
    size        INTEGER NOT NULL,
    tier        TEXT    NOT NULL,
    served_at   TEXT,
    retired_at  TEXT    NOT NULL
) WITHOUT ROWID;

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

CREATE TABLE "base_grids" (
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

CREATE TABLE "puzzles" (
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
, regions TEXT);

CREATE INDEX puzzles_by_tier ON puzzles (size, tier, served_at);

CREATE INDEX puzzles_by_run ON puzzles (run_id);

CREATE INDEX puzzles_by_score ON puzzles (size, tier, score);

CREATE INDEX puzzles_by_served ON puzzles (served_at) WHERE served_at IS NOT NULL;

CREATE INDEX puzzles_by_class ON puzzles (solution_class);

CREATE UNIQUE INDEX puzzles_by_full_fingerprint ON puzzles (full_fingerprint)
    WHERE full_fingerprint IS NOT NULL;

CREATE INDEX puzzles_by_variant ON puzzles (size, variant, tier, served_at);

CREATE TABLE "alarms" (
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

CREATE INDEX alarms_by_run ON alarms (run_id);

CREATE TABLE "daily" (
    day       TEXT    NOT NULL,                      -- YYYY-MM-DD
    size      INTEGER NOT NULL,
    variant   TEXT    NOT NULL DEFAULT 'classic',
    tier      TEXT    NOT NULL,
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id),
    PRIMARY KEY (day, size, variant, tier)
);
