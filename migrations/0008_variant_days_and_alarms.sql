-- sudoku-bank schema, version 8: a puzzle of the day per variant; alarms name theirs.

-- The day's puzzle is chosen per date, size, variant and tier. A row stored before
-- version 8 keeps its puzzle, keyed by that puzzle's own variant (before this version
-- `daily` did not look at the variant, so a day's classic puzzle could be of another).
CREATE TABLE daily_v8 (
    day       TEXT    NOT NULL,                      -- YYYY-MM-DD
    size      INTEGER NOT NULL,
    variant   TEXT    NOT NULL DEFAULT 'classic'
        CHECK (variant IN ('classic', 'diagonal', 'killer')),
    tier      TEXT    NOT NULL,
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id),
    PRIMARY KEY (day, size, variant, tier)
);
INSERT OR IGNORE INTO daily_v8 (day, size, variant, tier, puzzle_id)
    SELECT d.day, d.size, COALESCE(p.variant, 'classic'), d.tier, d.puzzle_id
    FROM daily d LEFT JOIN puzzles p ON p.id = d.puzzle_id;
DROP TABLE daily;
ALTER TABLE daily_v8 RENAME TO daily;

-- An alarm names the variant of the tier it moved; alarms raised before version 8 were
-- classic or of a variant nothing recorded: they read 'classic'.
ALTER TABLE alarms ADD COLUMN variant TEXT NOT NULL DEFAULT 'classic'
    CHECK (variant IN ('classic', 'diagonal', 'killer'));
