-- sudoku-bank schema for PostgreSQL, version 9: as ../0009_open_variants.sql (the
-- variant CHECKs dropped; the program checks names against its rule sets).

ALTER TABLE puzzles DROP CONSTRAINT puzzles_variant_check;
ALTER TABLE base_grids DROP CONSTRAINT base_grids_variant_check;
ALTER TABLE daily DROP CONSTRAINT daily_variant_check;
ALTER TABLE alarms DROP CONSTRAINT alarms_variant_check;
