-- sudoku-bank schema, version 10: a jigsaw puzzle's regions.

-- A jigsaw puzzle's regions replace the boxes and belong to the puzzle, like a killer
-- puzzle's cages: one region symbol (1-9, then A-G) per cell, row by row, regions
-- numbered by first appearance. NULL for the other variants.
ALTER TABLE puzzles ADD COLUMN regions TEXT;
