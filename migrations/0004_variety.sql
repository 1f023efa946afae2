-- sudoku-bank schema, version 4: variety.

-- The transform route now transforms a random mother grid shared by a few base grids;
-- its seed is kept here. A row with route 'transform' and no mother_seed is the pattern
-- route (the textbook pattern grid transformed, as every 'transform' row before version 4
-- was): the route column's CHECK predates the name 'pattern', and SQLite cannot change a
-- CHECK without rebuilding a table that puzzles reference.
ALTER TABLE base_grids ADD COLUMN mother_seed TEXT;

-- The solution class: blake3 of the full-group minlex form of the solution grid (rows
-- within bands, bands, columns within stacks, stacks, transposition for square boxes,
-- relabelling). Puzzles of one class are one solution grid in disguise. Rows stored
-- before version 4 get it when the migration runs (computed by the program).
ALTER TABLE puzzles ADD COLUMN solution_class TEXT;
CREATE INDEX puzzles_by_class ON puzzles (solution_class);

-- Under `generation.dedup = "full"`: blake3 of the puzzle's full-group minlex form (the
-- whole sudoku group on the puzzle, not only the 8 symmetries of the fingerprint).
ALTER TABLE puzzles ADD COLUMN full_fingerprint TEXT;
CREATE UNIQUE INDEX puzzles_by_full_fingerprint ON puzzles (full_fingerprint)
    WHERE full_fingerprint IS NOT NULL;
