-- sudoku-bank schema for PostgreSQL, version 2: as ../0002_rating.sql.

ALTER TABLE puzzles ADD COLUMN score DOUBLE PRECISION;
ALTER TABLE puzzles ADD COLUMN hardest_technique TEXT;
ALTER TABLE puzzles ADD COLUMN rater_completed BOOLEAN;
ALTER TABLE puzzles ADD COLUMN techniques TEXT;

CREATE INDEX puzzles_by_score ON puzzles (size, tier, score);
