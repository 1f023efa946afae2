//! Puzzle generation: a solution grid by one of three routes, then digging.
//!
//! A puzzle is a pure function of (geometry, route, strategy, stop, seed): the seed
//! splits into one stream for the solution grid and one for digging.

pub mod base;
pub mod dig;
pub mod forced;
pub mod killer;
pub mod unavoidable;

#[cfg(test)]
pub(crate) use base::random_relabelling;
pub use base::{
    mother_batch_of, mother_grid, mother_grid_of, pattern_grid, same_class_as_mother,
    solution_grid, transformed_from, MotherBatch, MotherSeed, Route,
};
pub use dig::{dig, is_minimal, BaseGrid, DigError, DigStop, Digger, Strategy};
pub use killer::{grow_cages, CageSizes};

use crate::grid::{Geometry, Grid};
use crate::rng::{derive_seed, Rand};
use crate::solver::Solver;
use std::time::Instant;

/// The item of `all` whose `name` is `text`, or an error listing the names, e.g.
/// "unknown route 'x' (use transform, backtrack or enumerate)".
fn parse_named<T: Copy>(
    all: &[T],
    name: fn(T) -> &'static str,
    text: &str,
    what: &str,
) -> Result<T, String> {
    all.iter()
        .copied()
        .find(|&x| name(x) == text)
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|&x| name(x)).collect();
            let (last, rest) = names.split_last().expect("a list of names");
            format!(
                "unknown {what} '{text}' (use {} or {last})",
                rest.join(", ")
            )
        })
}

/// Bumped whenever a change to the engine could change the puzzle made from a seed.
/// Version 3: the transform route transforms a random mother grid; version 2's transform
/// is the pattern route, which `reproduce` replays for version 2 rows. Version 4: killer
/// searches lock a cage's digits in units ([`CAGE_LOCKING_SINCE`]); `reproduce` replays
/// older killer rows without. Version 5: diagonal grids are rated by the reference's
/// variant rules (generalized intersections and naked sets), so a diagonal fill digs a
/// seed's attempt to other levels; `reproduce` digs to the stored clue count as before.
/// Version 6: the rater takes UVWXYZ-wings (6.6) and strong links in extra units into
/// grouped X-chains, so fills of every variant may dig a seed's attempt to other levels;
/// `reproduce` again digs to the stored clue count. Version 7: under anti-knight and
/// anti-king an unavoidable set is one whose swap keeps the move's rule (version 6 could
/// refuse a removal that kept the puzzle unique, so its digs of those variants kept more
/// clues), and their chains follow the move's links, so their ratings moved; rows of other
/// variants are made as in version 6. `verify` reports the drift of version 6 rows of
/// those two variants. Version 8: a jigsaw grid is made under the boxes and its regions
/// drawn around its digits (`base::REGIONS_AROUND_GRIDS_SINCE`), so jigsaw fills make
/// other puzzles; `reproduce` makes version 7 jigsaw rows layout first, as they were;
/// rows of other variants are made as in version 7. Version 9: randomized backtracking
/// starts over when it runs long (`base::BACKTRACK_RESTARTS_SINCE`), so backtrack-route
/// grids of 12x12, 16x16 and of some variants differ from version 8's; `reproduce` fills
/// older rows without restarts. Version 10: a 16x16 jigsaw grid keeps its digits while
/// its regions are reshaped (`base::LARGE_GRIDS_KEPT_SINCE`), so 16x16 jigsaw fills make
/// other puzzles; `reproduce` refills older rows' grids between rounds as before; rows of
/// other variants and sizes are made as in version 9. Version 11: the search for a
/// non-consecutive grid (mother and enumeration-route grids) restarts at a steady budget
/// with support under the rule (`base::STEADY_GRID_SEARCH_SINCE`), so non-consecutive
/// fills make other puzzles; `reproduce` searches older rows' grids as before; rows of
/// other variants are made as in version 10. Version 12: a non-consecutive mother search
/// makes a batch of grids, each transform-route grid one of them
/// (`base::MOTHER_BATCHES_SINCE`), so non-consecutive fills make other puzzles;
/// `reproduce` makes older rows' mothers one a search; rows of other variants are made as
/// in version 11. Version 13: jobs on batched grids share a grid 64 job numbers apart
/// rather than 128 (`BATCHED_SPREAD` in `pipeline/tier_fill.rs`), so non-consecutive fills
/// make other puzzles (a row stores its own seeds, so `reproduce` makes every version's
/// alike); and the refills that draw a jigsaw's regions point from them
/// (`base::REFILLS_POINT_SINCE`), so jigsaw fills make other grids; `reproduce` refills
/// older rows' grids as before; rows of other variants are made as in version 12.
pub const GENERATOR_VERSION: u32 = 13;

/// The first generator version whose killer searches lock cages
/// ([`Solver::with_cage_locking`]).
pub const CAGE_LOCKING_SINCE: u32 = 4;

/// The oldest generator version whose stored puzzles this binary reproduces.
pub const OLDEST_REPRODUCIBLE: u32 = 2;

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spec {
    /// Grid geometry.
    pub geometry: Geometry,
    /// How the solution grid is built.
    pub route: Route,
    /// Which cells are removed together.
    pub strategy: Strategy,
    /// When digging stops.
    pub stop: DigStop,
    /// Failed removals allowed before a clue target is given up (`None`: every orbit once).
    pub failure_budget: Option<u32>,
    /// Killer cage sizes (used only for the killer variant).
    pub cage_sizes: CageSizes,
}

/// A generated puzzle with its solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle (exactly one solution).
    pub puzzle: Grid,
    /// Its solution (the grid it was dug from).
    pub solution: Grid,
}

/// Seed of the solution-grid stream for a puzzle seed.
pub fn grid_seed(seed: u64) -> u64 {
    derive_seed(&[seed, 0])
}

/// Seed of the digging stream for a puzzle seed.
pub fn dig_seed(seed: u64) -> u64 {
    derive_seed(&[seed, 1])
}

/// Generates one puzzle from `seed`. The deadline may abort, never change, the result.
pub fn generate(spec: &Spec, seed: u64, deadline: Option<Instant>) -> Result<Generated, DigError> {
    let stream = derive_seed(&[grid_seed(seed), spec.route.stream()]);
    let solution = solution_grid(
        spec.geometry,
        spec.route,
        &mut Rand::new(stream),
        None,
        deadline,
        GENERATOR_VERSION,
    )?;
    let solution = if spec.geometry.variant().has_cages() {
        let mut rng = Rand::new(derive_seed(&[dig_seed(seed), 2]));
        let cages =
            grow_cages(&solution, spec.cage_sizes, &mut rng).ok_or(DigError::TooManyCages)?;
        solution.with_cages(cages)
    } else {
        solution
    };
    let puzzle = dig_grid(spec, &solution, dig_seed(seed), deadline)?;
    Ok(Generated { puzzle, solution })
}

/// Digs a given solution grid by `spec` with the digging stream `dig_seed`.
pub fn dig_grid(
    spec: &Spec,
    solution: &Grid,
    dig_seed: u64,
    deadline: Option<Instant>,
) -> Result<Grid, DigError> {
    dig(
        solution,
        spec.strategy,
        spec.stop,
        spec.failure_budget,
        &mut Rand::new(dig_seed),
        &Solver::with_deadline(deadline),
    )
}

/// Seed of attempt `attempt` of job `job` in a run or batch seeded with `run_seed`.
pub fn attempt_seed(run_seed: u64, job: u64, attempt: u32) -> u64 {
    derive_seed(&[run_seed, job, u64::from(attempt)])
}

/// Generates job `job` of a batch: attempts `0..max_attempts` in turn, each with its own
/// seed and (when `deadline_per_attempt` is set) its own deadline, until one succeeds.
/// Returns the puzzle and the seed that made it, or the last failure.
pub fn generate_job(
    spec: &Spec,
    batch_seed: u64,
    job: u64,
    max_attempts: u32,
    deadline_per_attempt: Option<std::time::Duration>,
) -> Result<(Generated, u64), DigError> {
    let mut last = DigError::Aborted;
    for attempt in 0..max_attempts.max(1) {
        let seed = attempt_seed(batch_seed, job, attempt);
        let deadline = deadline_per_attempt.map(|d| Instant::now() + d);
        match generate(spec, seed, deadline) {
            Ok(made) => return Ok((made, seed)),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Puzzles of `geometry` dug at random to `clues` clues from grids of `route`, one per
/// seed `0..seeds` that makes one (default cage sizes on killer grids): a fixed sample for
/// the unit tests and the integration tests alike.
pub fn random_digs(geometry: Geometry, route: Route, clues: usize, seeds: u64) -> Vec<Grid> {
    let spec = Spec {
        geometry,
        route,
        strategy: Strategy::Random,
        stop: DigStop::Clues(clues),
        failure_budget: None,
        cage_sizes: CageSizes::DEFAULT,
    };
    (0..seeds)
        .filter_map(|seed| generate(&spec, seed, None).ok())
        .map(|made| made.puzzle)
        .collect()
}
