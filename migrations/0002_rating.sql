-- sudoku-bank schema, version 2: the human-technique rating beside the search effort.

ALTER TABLE puzzles ADD COLUMN score REAL;                  -- Sudoku Explainer scale; a lower bound when rater_completed = 0
ALTER TABLE puzzles ADD COLUMN hardest_technique TEXT;
ALTER TABLE puzzles ADD COLUMN rater_completed INTEGER;     -- 1 when the techniques solved the whole grid
ALTER TABLE puzzles ADD COLUMN techniques TEXT;             -- JSON: steps per technique, e.g. {"x-wing": 1, "naked single": 30}

CREATE INDEX puzzles_by_score ON puzzles (size, tier, score);
