-- sudoku-bank schema for PostgreSQL, version 4: as ../0004_variety.sql (the route
-- column keeps SQLite's meaning: 'transform' without a mother seed is the pattern route,
-- so both backends hold the same rows).

ALTER TABLE base_grids ADD COLUMN mother_seed TEXT;

ALTER TABLE puzzles ADD COLUMN solution_class TEXT;
CREATE INDEX puzzles_by_class ON puzzles (solution_class);

ALTER TABLE puzzles ADD COLUMN full_fingerprint TEXT;
CREATE UNIQUE INDEX puzzles_by_full_fingerprint ON puzzles (full_fingerprint)
    WHERE full_fingerprint IS NOT NULL;
