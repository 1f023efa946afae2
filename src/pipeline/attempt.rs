//! One attempt: base grid, dig to the tier's target, rate, fingerprint. A pure function
//! of its inputs; the deadline can only abort it.

use super::kept::{Kept, SharedKept};
use crate::bank::{BaseGridRecord, PuzzleRecord, RatingRecord, Source, StoredCages};
use crate::canon::{fingerprint, grid_id};
use crate::config::Tier;
use crate::generate::{
    grow_cages, mother_batch_of, mother_grid_of, same_class_as_mother, solution_grid,
    transformed_from, BaseGrid, CageSizes, DigError, DigStop, Digger, MotherBatch, MotherSeed,
    Route, Strategy, CAGE_LOCKING_SINCE,
};
use crate::grid::{Geometry, Grid};
use crate::rate::settle::solved_below;
use crate::rate::{score_within, Rating};
use crate::rng::{derive_seed, Rand};
use crate::solver::{solves_below, SearchStats, Solver};
use std::cell::RefCell;
use std::convert::Infallible;
use std::rc::Rc;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// Everything that decides an attempt's puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttemptInput {
    /// Grid geometry.
    pub geometry: Geometry,
    /// Route of the base grid.
    pub route: Route,
    /// Seed of the base grid's stream.
    pub grid_seed: u64,
    /// Seed of the mother grid of a transform-route base grid (`None` for the others).
    pub mother_seed: Option<u64>,
    /// Digging strategy.
    pub strategy: Strategy,
    /// Clue target.
    pub target: usize,
    /// Seed of the digging stream.
    pub dig_seed: u64,
    /// Whether to compute the full-group fingerprint of an accepted puzzle.
    pub full_fingerprint: bool,
    /// The cage sizes of a killer attempt (`None` for the other variants).
    pub cage_sizes: Option<CageSizes>,
    /// The generator version whose engine digs: today's
    /// ([`crate::generate::GENERATOR_VERSION`]) for a fill, the stored one for `reproduce`.
    pub generator_version: u32,
}

/// What an attempt produced.
#[derive(Debug)]
pub enum AttemptOutcome {
    /// A puzzle in the tier's band.
    Accepted(Box<PuzzleRecord>),
    /// The puzzle fell outside the band, or the target was not reachable.
    Rejected,
    /// The deadline passed.
    TimedOut,
}

/// Builds the solution grid of an attempt (shared with `reproduce`).
pub fn base_grid(input: &AttemptInput, deadline: Option<Instant>) -> Result<Grid, DigError> {
    let rng = &mut Rand::new(input.grid_seed);
    let version = input.generator_version;
    if let (Route::Transform, Some(seed)) = (input.route, input.mother_seed) {
        let mother = kept_mother(input.geometry, seed, deadline, version)?;
        return Ok(transformed_from(&mother, rng, deadline, version)?);
    }
    Ok(solution_grid(
        input.geometry,
        input.route,
        rng,
        input.mother_seed,
        deadline,
        version,
    )?)
}

/// Mother grids the workers keep for the transform route's grids made from them
/// (`mother_grid_uses` each, some hundreds of jobs apart; as many as [`KEPT_GRIDS`], since
/// the tiers of a quota run each have their own).
const KEPT_MOTHERS: usize = KEPT_GRIDS;

/// The mother grid of `seed`, from those any worker built lately, or built and kept. A
/// search from an empty grid costs microseconds on classic but milliseconds where it
/// restarts (non-consecutive: most of a fill's time when every base grid built its
/// mother again).
fn kept_mother(
    g: Geometry,
    seed: u64,
    deadline: Option<Instant>,
    version: u32,
) -> Result<Arc<Grid>, DigError> {
    type Key = (Geometry, u64, u32);
    static MOTHERS: SharedKept<Key, Arc<Grid>> = SharedKept::new(KEPT_MOTHERS);
    static BATCHES: SharedKept<Key, Arc<MotherBatch>> = SharedKept::new(KEPT_MOTHERS);
    match MotherSeed::of(g, seed, version) {
        MotherSeed::One(seed) => MOTHERS.get_or_build((g, seed, version), || {
            Ok(Arc::new(mother_grid_of(g, seed, deadline, version)?))
        }),
        MotherSeed::Batch { search, index } => {
            let batch = BATCHES.get_or_build((g, search, version), || {
                Ok::<_, DigError>(Arc::new(mother_batch_of(g, search, deadline, version)?))
            })?;
            Ok(Arc::new(batch.grid(index).clone()))
        }
    }
}

/// The grid a killer attempt digs: `solution` with cages grown from the attempt's own
/// stream (derived from its digging seed, so grids shared by several attempts get other
/// cages each time). `solution` itself for the other variants; `None` when the cages
/// cannot be grown (too many of them).
pub fn caged(input: &AttemptInput, solution: &Grid) -> Option<Grid> {
    let Some(sizes) = input.cage_sizes else {
        return Some(solution.clone());
    };
    let mut rng = Rand::new(derive_seed(&[input.dig_seed, 2]));
    let cages = grow_cages(solution, sizes, &mut rng)?;
    Some(solution.without_cages().with_cages(cages))
}

/// What decides an attempt's base grid ([`base_grid`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct GridKey {
    /// The whole geometry, variant included: a quota run fills classic and diagonal
    /// tiers of one size with the same seeds, and a classic grid breaks the diagonals.
    geometry: Geometry,
    route: Route,
    grid_seed: u64,
    mother_seed: Option<u64>,
    /// `verify` reproduces puzzles of several generator versions in one process.
    version: u32,
}

impl AttemptInput {
    fn grid_key(&self) -> GridKey {
        GridKey {
            geometry: self.geometry,
            route: self.route,
            grid_seed: self.grid_seed,
            mother_seed: self.mother_seed,
            version: self.generator_version,
        }
    }
}

/// Base grids a worker keeps: a grid serves several jobs and the retries of each. Jobs of
/// one grid are 128 job numbers apart per tier, with every tier's jobs between them, so
/// the worker sees some hundreds of other grids between two uses. With 32 kept, a
/// 20,000 fill rebuilt most grids (and their classes): 8-20 % more CPU; with 1,024,
/// 3-4 % (about 10 MB more memory).
const KEPT_GRIDS: usize = 1024;

/// The attempt's base grid with what digging knows of it, from this worker's recent
/// grids when it built the same one lately (a pure function of the input, so keeping it
/// changes nothing but time).
fn shared_base(input: &AttemptInput, deadline: Option<Instant>) -> Result<Rc<BaseGrid>, DigError> {
    thread_local! {
        static KEPT: RefCell<Kept<GridKey, Rc<BaseGrid>>> = RefCell::new(Kept::new(KEPT_GRIDS));
    }
    let key = input.grid_key();
    if let Some(base) = KEPT.with_borrow_mut(|kept| kept.get(&key).cloned()) {
        return Ok(base);
    }
    let base = BaseGrid::shared(built_grid(input, key, deadline)?).in_class(mother_class(input));
    let base = Rc::new(base);
    KEPT.with_borrow_mut(|kept| kept.insert(key, Rc::clone(&base)));
    Ok(base)
}

/// Grids the workers together keep: the jobs of one grid go to whichever worker is free,
/// so without it most grids were built once per worker (a jigsaw grid, whose regions
/// take ten reshaping rounds, cost two workers the time of one). Room for the grids of
/// twice [`KEPT_GRIDS`] jobs, as every worker's grids pass through it.
const SHARED_GRIDS: usize = 2 * KEPT_GRIDS;

/// The attempt's solution grid, from the grids any worker built lately, or built (and
/// kept for the others).
fn built_grid(
    input: &AttemptInput,
    key: GridKey,
    deadline: Option<Instant>,
) -> Result<Grid, DigError> {
    static BUILT: SharedKept<GridKey, Grid> = SharedKept::new(SHARED_GRIDS);
    BUILT.get_or_build(key, || base_grid(input, deadline))
}

/// Mother grids whose solution class the workers keep for the grids made from them
/// (`mother_grid_uses` each, some hundreds of jobs apart, like [`KEPT_GRIDS`]).
const KEPT_CLASSES: usize = 256;

/// The solution class that the attempt's base grid shares with the other grids of its
/// mother grid, when the route keeps the class ([`same_class_as_mother`]): computing it
/// takes 40 ms on a windoku 16x16 grid, two thirds of that fill's time when each grid
/// computed its own. A fresh cell for the other routes.
fn mother_class(input: &AttemptInput) -> Arc<OnceLock<String>> {
    type Key = (Geometry, u64, u32);
    static CLASSES: SharedKept<Key, Arc<OnceLock<String>>> = SharedKept::new(KEPT_CLASSES);
    let Some(mother) = input
        .mother_seed
        .filter(|_| same_class_as_mother(input.geometry))
    else {
        return Arc::default();
    };
    let key = (input.geometry, mother, input.generator_version);
    let Ok(class) = CLASSES.get_or_build(key, || Ok::<_, Infallible>(Arc::default()));
    class
}

/// The digger of an attempt, fresh from its seed.
fn digger<'a>(input: &AttemptInput, base: &'a BaseGrid, solver: &'a Solver) -> Digger<'a> {
    Digger::new(
        base,
        input.strategy,
        None,
        &mut Rand::new(input.dig_seed),
        solver,
    )
}

/// What the dig-level loop does after a level.
enum Level<T> {
    /// Stop here with this result.
    Done(T),
    /// Dig one clue level further, if a level remains.
    Deeper,
    /// Stop here with nothing.
    GiveUp,
}

/// Merges of cages a killer attempt makes, one at a time, while its puzzle rates below
/// the tier's band.
const MOST_MERGES: u32 = 6;

/// Digs to the attempt's target, then on one clue level at a time while `judge` asks for
/// it. A level out of reach (no orbit left that keeps the puzzle unique) ends the dig where
/// it stands: `judge` sees that puzzle (unless it saw it at the level before, when no clue
/// could go), and if it still asks to go deeper, the result is `None`. A killer dig (its
/// givens already minimal) goes deeper by merging two cages instead
/// ([`Digger::merge_cages`], up to [`MOST_MERGES`] times, cages of at most `merge_up_to`
/// cells). The fill and `reproduce` both dig through here, so they cannot drift apart.
fn dig_levels<T>(
    digger: &mut Digger,
    target: usize,
    merge_up_to: Option<usize>,
    mut judge: impl FnMut(&Grid) -> Result<Level<T>, DigError>,
) -> Result<Option<T>, DigError> {
    let mut level = target;
    let mut merges = 0;
    // The clue count `judge` last saw, while no merge has changed the puzzle since.
    let mut judged = None;
    loop {
        let (reached, exhausted) = match digger.dig_to(DigStop::Clues(level)) {
            Ok(p) => (p.clue_count(), false),
            Err(DigError::TargetMissed { reached, .. }) => (reached, true),
            Err(e) => return Err(e),
        };
        // Digging only removes clues: the same count is the same puzzle, which `judge`
        // already sent deeper.
        if judged == Some(reached) {
            return Ok(None);
        }
        judged = Some(reached);
        match (judge(digger.puzzle())?, merge_up_to) {
            (Level::Done(t), _) => return Ok(Some(t)),
            (Level::GiveUp, _) => return Ok(None),
            (Level::Deeper, Some(most)) => {
                if merges == MOST_MERGES || !digger.merge_cages(most, merges)? {
                    return Ok(None);
                }
                merges += 1;
                judged = None;
            }
            (Level::Deeper, None) if exhausted || reached == 0 => return Ok(None),
            (Level::Deeper, None) => level = reached - 1,
        }
    }
}

/// Digs the attempt's puzzle again (for `reproduce`): the levels the attempt dug, down to
/// `clues`, where the stored puzzle ended; for a killer puzzle, the merges it made, down to
/// `cages` cages.
pub fn dig(
    input: &AttemptInput,
    solution: &Grid,
    clues: usize,
    cages: Option<usize>,
    deadline: Option<Instant>,
) -> Result<Grid, DigError> {
    let solver = solver(input, deadline);
    let base = BaseGrid::new(solution.clone());
    let mut digger = digger(input, &base, &solver);
    let count = |p: &Grid| p.cages().map(|c| c.count());
    // A level out of reach before `clues` stopped the attempt where it stood, as here.
    // Without the fill's settle test the dig counts where the fill may not, to the same
    // puzzles (see `Digger::with_settle_test`).
    dig_levels(&mut digger, input.target, merge_up_to(input), |p| {
        Ok(if p.clue_count() <= clues && count(p) <= cages {
            Level::Done(())
        } else {
            Level::Deeper
        })
    })?;
    Ok(digger.puzzle().clone())
}

/// The solver an attempt digs with: the engine of the attempt's generator version. Region
/// pointing changes which other solution a failed check finds, never whether it finds one,
/// so it digs every version's puzzles alike.
fn solver(input: &AttemptInput, deadline: Option<Instant>) -> Solver {
    Solver::with_deadline(deadline)
        .with_cage_locking(input.generator_version >= CAGE_LOCKING_SINCE)
        .with_region_pointing(true)
}

/// The largest cage a killer attempt's merges may make: its cage sizes' largest.
fn merge_up_to(input: &AttemptInput) -> Option<usize> {
    input.cage_sizes.map(|s| usize::from(s.max))
}

/// Whether a tier starting at `min` asks [`solved_below`] of `puzzle` before it rates
/// it: from the rule set's [`RuleSet::settle_first_from`], where most puzzles it digs
/// rate below the tier and a rating costs most, so that the test saves more than it
/// costs. Measured (CPU side by side, one worker): killer medium −15.7 %, hard −13.6 %,
/// expert −8.9 %; diagonal expert −2.7 % (−4.5 % instructions). Not for classic: its
/// ratings are cheaper, and the puzzles a tier keeps pay for the test too (classic expert
/// +4.5 % instructions, classic hard +4 % CPU).
///
/// [`RuleSet::settle_first_from`]: crate::grid::RuleSet::settle_first_from
fn settles_first(puzzle: &Grid, min: f64) -> bool {
    let rules = puzzle.geometry().variant().rules();
    rules.settle_first_from.is_some_and(|from| min >= from)
}

/// Digs to the target and rates; while the puzzle rates below the tier's band, digs one
/// clue level further and rates again (a harder puzzle from the same work). A level out of
/// reach leaves the puzzle where digging stopped, rated as it is. The puzzle comes with
/// its rating and the solver's effort to prove it unique.
fn dig_toward_tier(
    input: &AttemptInput,
    base: &BaseGrid,
    tier: &Tier,
    deadline: Option<Instant>,
) -> Result<Option<(Grid, Rating, SearchStats)>, DigError> {
    let solver = solver(input, deadline);
    let min = tier.band.min;
    // Whether propagation alone solves it takes a microsecond or two instead of a rating,
    // and such a puzzle rates below tiers above singles (or above pointing and claiming);
    // the rater's easier techniques in batches take a fraction of a rating, and settle
    // most puzzles that rate below a hard tier. The last answer is kept: a cage merge asks
    // first (a puzzle that settles needs no full count), then the judge of that puzzle.
    let last: RefCell<Option<(Grid, bool)>> = RefCell::new(None);
    let settles_below = |puzzle: &Grid| {
        if let Some((seen, answer)) = &*last.borrow() {
            if seen == puzzle {
                return *answer;
            }
        }
        let answer =
            solves_below(puzzle, min) || (settles_first(puzzle, min) && solved_below(puzzle, min));
        *last.borrow_mut() = Some((puzzle.clone(), answer));
        answer
    };
    let mut digger = digger(input, base, &solver).with_settle_test(&settles_below);
    let found = dig_levels(&mut digger, input.target, merge_up_to(input), |puzzle| {
        if settles_below(puzzle) {
            return Ok(Level::Deeper);
        }
        let Some(rating) = score_within(puzzle, tier.band.max, deadline)? else {
            return Ok(Level::GiveUp); // too hard for the tier
        };
        Ok(if tier.accepts(rating.score) {
            Level::Done((puzzle.clone(), rating))
        } else {
            Level::Deeper
        })
    })?;
    match found {
        Some((puzzle, rating)) => Ok(Some((puzzle, rating, digger.search_effort()?))),
        None => Ok(None),
    }
}

/// Runs one attempt for `tier`.
pub fn run(input: &AttemptInput, tier: &Tier, deadline: Option<Instant>) -> AttemptOutcome {
    let started = Instant::now();
    let result = (|| {
        let shared = shared_base(input, deadline)?;
        let killer;
        let base = match input.cage_sizes {
            None => &*shared,
            Some(_) => {
                let Some(grid) = caged(input, shared.grid()) else {
                    return Ok(None);
                };
                killer = BaseGrid::new(grid);
                &killer
            }
        };
        let Some((puzzle, rating, effort)) = dig_toward_tier(input, base, tier, deadline)? else {
            return Ok(None);
        };
        let solution = base.grid().clone();
        let class = base.solution_class().to_string();
        let full = if input.full_fingerprint {
            crate::canon::full_fingerprint(&puzzle)
        } else {
            None
        };
        Ok::<_, DigError>(Some((solution, puzzle, effort, rating, class, full)))
    })();
    let (solution, puzzle, effort, rating, class, full_fingerprint) = match result {
        Ok(Some(r)) => r,
        Ok(None) | Err(DigError::TargetMissed { .. } | DigError::TooManyCages) => {
            return AttemptOutcome::Rejected
        }
        Err(DigError::Aborted) => return AttemptOutcome::TimedOut,
    };
    let grid_line = solution.to_line();
    let cages = puzzle.cages().map(|c| StoredCages {
        cages: c.clone(),
        grown: input.cage_sizes,
    });
    AttemptOutcome::Accepted(Box::new(PuzzleRecord {
        source: Source::Generated,
        base: Some(BaseGridRecord {
            id: grid_id(&solution),
            route: input.route,
            seed: input.grid_seed,
            mother_seed: input.mother_seed,
            grid: grid_line.clone(),
        }),
        geometry: input.geometry,
        puzzle: puzzle.to_line(),
        solution: grid_line,
        clues: puzzle.clue_count(),
        tier: tier.name.clone(),
        rating: Some(RatingRecord::from_rating(&rating)),
        backtracks: effort.backtracks,
        guesses: effort.guesses,
        seed: Some(input.dig_seed),
        dig_strategy: Some(input.strategy),
        target_clues: Some(input.target),
        generator_version: input.generator_version,
        fingerprint: fingerprint(&puzzle),
        generation_us: started.elapsed().as_micros() as u64,
        solution_class: Some(class),
        full_fingerprint,
        served_at: None,
        served_to: None,
        origin: None,
        cages,
        regions: puzzle.regions().cloned(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::GENERATOR_VERSION;
    use crate::grid::Variant;

    /// A transform-route base grid from a kept mother is the grid the route builds from
    /// scratch, the first time (mother built) and the next (mother kept), on classic, on
    /// non-consecutive (whose mothers restart) and on jigsaw before and after regions
    /// were drawn around the grid (generator versions 7 and 10).
    #[test]
    fn kept_mothers_build_the_routes_grids() {
        let cases = [
            (Variant::Classic, GENERATOR_VERSION),
            (Variant::NonConsecutive, GENERATOR_VERSION),
            (Variant::NonConsecutive, 11),
            (Variant::NonConsecutive, 10),
            (Variant::Jigsaw, GENERATOR_VERSION),
            (Variant::Jigsaw, 7),
        ];
        for (variant, version) in cases {
            let geometry = Geometry::CLASSIC.with_variant(variant);
            for (grid_seed, mother) in [(1, 40), (2, 40), (3, 41), (1, 40)] {
                let input = AttemptInput {
                    geometry,
                    route: Route::Transform,
                    grid_seed,
                    mother_seed: Some(mother),
                    strategy: Strategy::Random,
                    target: 30,
                    dig_seed: 0,
                    full_fingerprint: false,
                    cage_sizes: None,
                    generator_version: version,
                };
                let rng = &mut Rand::new(grid_seed);
                let built =
                    solution_grid(geometry, Route::Transform, rng, Some(mother), None, version);
                assert_eq!(
                    base_grid(&input, None).ok(),
                    built.ok(),
                    "{variant:?} {version}"
                );
            }
        }
    }
}
