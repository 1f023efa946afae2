-- sudoku-bank schema, version 1.
-- Seeds are u64 values stored as decimal TEXT so that every value round-trips exactly.

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
);

CREATE TABLE base_grids (
    id        TEXT    PRIMARY KEY,                   -- blake3 of size, box shape and cells (hex, 32)
    size      INTEGER NOT NULL,
    box_rows  INTEGER NOT NULL,
    box_cols  INTEGER NOT NULL,
    route     TEXT    NOT NULL CHECK (route IN ('transform', 'backtrack', 'enumerate')),
    grid      TEXT    NOT NULL,
    seed      TEXT    NOT NULL                       -- seed of the route's random stream
);

CREATE TABLE puzzles (
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
    served_at         TEXT                           -- set by the apps when a puzzle is handed out
);

CREATE INDEX puzzles_by_tier ON puzzles (size, tier, served_at);
CREATE INDEX puzzles_by_run ON puzzles (run_id);

CREATE TABLE alarms (
    id                 INTEGER PRIMARY KEY,
    run_id             INTEGER NOT NULL REFERENCES runs(id),
    at                 TEXT    NOT NULL,
    size               INTEGER NOT NULL,
    tier               TEXT    NOT NULL,
    window_size        INTEGER NOT NULL,
    timeouts_in_window INTEGER NOT NULL,
    old_target         INTEGER NOT NULL,
    new_target         INTEGER                        -- NULL when the target could not move
);

CREATE INDEX alarms_by_run ON alarms (run_id);
