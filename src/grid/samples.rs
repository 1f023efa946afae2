//! Puzzles the unit tests share, so that each is typed once.

/// A hard classic puzzle with one solution, [`HARD_SOLUTION`].
pub const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// The solution of [`HARD`].
pub const HARD_SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
