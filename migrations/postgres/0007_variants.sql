-- sudoku-bank schema for PostgreSQL, version 7: as ../0007_variants.sql.

ALTER TABLE puzzles ADD COLUMN variant TEXT NOT NULL DEFAULT 'classic'
    CHECK (variant IN ('classic', 'diagonal', 'killer'));
ALTER TABLE base_grids ADD COLUMN variant TEXT NOT NULL DEFAULT 'classic'
    CHECK (variant IN ('classic', 'diagonal', 'killer'));
ALTER TABLE puzzles ADD COLUMN cages TEXT;
CREATE INDEX puzzles_by_variant ON puzzles (size, variant, tier, served_at);
