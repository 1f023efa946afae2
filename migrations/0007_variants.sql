-- sudoku-bank schema, version 7: variants.

-- The rules a puzzle follows: 'classic', 'diagonal' (both main diagonals hold every digit
-- once) or 'killer' (cages with sums; reserved for the killer variant). Rows stored
-- before version 7 are classic. A base grid follows its puzzles' rules.
ALTER TABLE puzzles ADD COLUMN variant TEXT NOT NULL DEFAULT 'classic'
    CHECK (variant IN ('classic', 'diagonal', 'killer'));
ALTER TABLE base_grids ADD COLUMN variant TEXT NOT NULL DEFAULT 'classic'
    CHECK (variant IN ('classic', 'diagonal', 'killer'));

-- Killer cages (JSON), NULL for the other variants.
ALTER TABLE puzzles ADD COLUMN cages TEXT;

-- Quotas, `take` and stats look puzzles up by size, variant and tier.
CREATE INDEX puzzles_by_variant ON puzzles (size, variant, tier, served_at);
