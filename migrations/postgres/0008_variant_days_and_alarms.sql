-- sudoku-bank schema for PostgreSQL, version 8: as ../0008_variant_days_and_alarms.sql.

ALTER TABLE daily ADD COLUMN variant TEXT NOT NULL DEFAULT 'classic'
    CHECK (variant IN ('classic', 'diagonal', 'killer'));
UPDATE daily d SET variant = p.variant FROM puzzles p WHERE p.id = d.puzzle_id;
ALTER TABLE daily DROP CONSTRAINT daily_pkey;
ALTER TABLE daily ADD PRIMARY KEY (day, size, variant, tier);
ALTER TABLE alarms ADD COLUMN variant TEXT NOT NULL DEFAULT 'classic'
    CHECK (variant IN ('classic', 'diagonal', 'killer'));
