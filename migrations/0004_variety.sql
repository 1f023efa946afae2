-- sudoku-bank schema, version 4: variety.

-- The transform route now transforms a random mother grid shared by a few base grids;
-- its seed is kept here. A row with route 'transform' and no mother_seed is the pattern
-- route (the textbook pattern grid transformed, as every 'transform' row before version 4
-- was): the route column's CHECK predates the name 'pattern', and SQLite cannot change a
-- CHECK without rebuilding a table that puzzles reference.
ALTER TABLE base_grids ADD COLUMN mother_seed TEXT;
