//! Rating. For now the search-effort rating: how many guesses and backtracks the solver
//! needs to prove the puzzle has one solution. Tiers are bands of guesses (see config).

use crate::grid::Grid;
use crate::solver::{Aborted, SearchStats, Solver};

/// The solver's effort to prove `puzzle` unique (a count to two).
pub fn search_effort(puzzle: &Grid, solver: &Solver) -> Result<SearchStats, Aborted> {
    Ok(solver.count(puzzle, 2)?.stats)
}
