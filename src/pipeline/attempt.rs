//! One attempt: base grid, dig to the tier's target, rate, fingerprint. A pure function
//! of its inputs; the deadline can only abort it.

use crate::bank::{BaseGridRow, NewPuzzle, RatingRow};
use crate::canon::fingerprint;
use crate::config::Tier;
use crate::generate::{
    solution_grid, BaseGrid, DigError, Digger, Route, Stop, Strategy, GENERATOR_VERSION,
};
use crate::grid::{Geometry, Grid};
use crate::rate::{rate_within, search_effort, Rating};
use crate::rng::{derive_seed, Rand};
use crate::solver::{solves_by_singles, Solver};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::Instant;

/// Everything that decides an attempt's puzzle.
#[derive(Clone, Copy, Debug)]
pub struct AttemptInput {
    /// Grid geometry.
    pub geometry: Geometry,
    /// Route of the base grid.
    pub route: Route,
    /// Seed of the base grid's stream.
    pub grid_seed: u64,
    /// Digging strategy.
    pub strategy: Strategy,
    /// Clue target.
    pub target: usize,
    /// Seed of the digging stream.
    pub dig_seed: u64,
}

/// What an attempt produced.
#[derive(Debug)]
pub enum AttemptOutcome {
    /// A puzzle in the tier's band.
    Accepted(Box<NewPuzzle>),
    /// The puzzle fell outside the band, or the target was not reachable.
    Rejected,
    /// The deadline passed.
    TimedOut,
}

/// Builds the solution grid of an attempt (shared with `reproduce`).
pub fn base_grid(input: &AttemptInput, deadline: Option<Instant>) -> Result<Grid, DigError> {
    Ok(solution_grid(
        input.geometry,
        input.route,
        &mut Rand::new(input.grid_seed),
        deadline,
    )?)
}

/// Base grids a worker keeps: a grid serves several jobs and the retries of each, which
/// mostly run on one worker close together.
const KEPT_GRIDS: usize = 32;

/// The attempt's base grid with what digging knows of it, from this worker's recent
/// grids when it built the same one lately (a pure function of the input, so keeping it
/// changes nothing but time).
fn shared_base(input: &AttemptInput, deadline: Option<Instant>) -> Result<Rc<BaseGrid>, DigError> {
    type Key = (usize, Route, u64);
    thread_local! {
        static KEPT: RefCell<VecDeque<(Key, Rc<BaseGrid>)>> = const { RefCell::new(VecDeque::new()) };
    }
    let key = (input.geometry.n(), input.route, input.grid_seed);
    if let Some(base) = KEPT.with_borrow(|kept| {
        kept.iter()
            .find(|(k, _)| *k == key)
            .map(|(_, b)| Rc::clone(b))
    }) {
        return Ok(base);
    }
    let base = Rc::new(BaseGrid::new(base_grid(input, deadline)?));
    KEPT.with_borrow_mut(|kept| {
        if kept.len() == KEPT_GRIDS {
            kept.pop_front();
        }
        kept.push_back((key, Rc::clone(&base)));
    });
    Ok(base)
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

/// Digs the attempt's puzzle again (for `reproduce`): to the target, then on one clue level
/// at a time down to `clues`, as the attempt did while its puzzle rated too easy; a level
/// out of reach ends the dig where it stands, as in the attempt.
pub fn dig(
    input: &AttemptInput,
    solution: &Grid,
    clues: usize,
    deadline: Option<Instant>,
) -> Result<Grid, DigError> {
    let solver = Solver::with_deadline(deadline);
    let base = BaseGrid::new(solution.clone());
    let mut digger = digger(input, &base, &solver);
    let mut level = input.target;
    loop {
        let (reached, exhausted) = dig_level(&mut digger, level)?;
        if exhausted || reached <= clues {
            return Ok(digger.puzzle().clone());
        }
        level = reached - 1;
    }
}

/// Digs on to `level`: the clues reached, and whether the level was out of reach (no orbit
/// left that keeps the puzzle unique).
fn dig_level(digger: &mut Digger, level: usize) -> Result<(usize, bool), DigError> {
    match digger.dig_to(Stop::Clues(level)) {
        Ok(p) => Ok((p.clue_count(), false)),
        Err(DigError::TargetMissed { reached, .. }) => Ok((reached, true)),
        Err(e) => Err(e),
    }
}

/// The highest score of a puzzle that singles alone solve (naked single, SE 2.3).
const SINGLES_SCORE: f64 = 2.3;

/// Digs to the target and rates; while the puzzle rates below the tier's band, digs one
/// clue level further and rates again (a harder puzzle from the same work). A level out of
/// reach leaves the puzzle where digging stopped, rated as it is.
fn dig_toward_tier(
    input: &AttemptInput,
    base: &BaseGrid,
    tier: &Tier,
    deadline: Option<Instant>,
) -> Result<Option<(Grid, Rating)>, DigError> {
    let solver = Solver::with_deadline(deadline);
    let mut digger = digger(input, base, &solver);
    let mut level = input.target;
    loop {
        let (reached, exhausted) = dig_level(&mut digger, level)?;
        let puzzle = digger.puzzle().clone();
        // Whether singles alone solve it takes a microsecond or two instead of a rating,
        // and such a puzzle is below any tier above singles.
        if tier.score[0] > SINGLES_SCORE && solves_by_singles(&puzzle) {
            if exhausted || reached == 0 {
                return Ok(None);
            }
            level = reached - 1;
            continue;
        }
        let Some(rating) = rate_within(&puzzle, tier.score[1], deadline)? else {
            return Ok(None); // too hard for the tier
        };
        if tier.accepts(rating.score) {
            return Ok(Some((puzzle, rating)));
        }
        if exhausted || reached == 0 {
            return Ok(None);
        }
        level = reached - 1;
    }
}

/// Runs one attempt for `tier`.
pub fn run(input: &AttemptInput, tier: &Tier, deadline: Option<Instant>) -> AttemptOutcome {
    let started = Instant::now();
    let result = (|| {
        let base = shared_base(input, deadline)?;
        let Some((puzzle, rating)) = dig_toward_tier(input, &base, tier, deadline)? else {
            return Ok(None);
        };
        let solution = base.grid().clone();
        let effort = search_effort(&puzzle, &Solver::with_deadline(deadline))?;
        Ok::<_, DigError>(Some((solution, puzzle, effort, rating)))
    })();
    let (solution, puzzle, effort, rating) = match result {
        Ok(Some(r)) => r,
        Ok(None) | Err(DigError::TargetMissed { .. }) => return AttemptOutcome::Rejected,
        Err(DigError::Aborted) => return AttemptOutcome::TimedOut,
    };
    let g = input.geometry;
    let grid_line = solution.to_line();
    AttemptOutcome::Accepted(Box::new(NewPuzzle {
        base: Some(BaseGridRow {
            id: grid_id(&solution),
            size: g.n(),
            box_rows: g.box_rows(),
            box_cols: g.box_cols(),
            route: input.route.name().into(),
            grid: grid_line.clone(),
            seed: input.grid_seed,
        }),
        size: g.n(),
        box_rows: g.box_rows(),
        box_cols: g.box_cols(),
        puzzle: puzzle.to_line(),
        solution: grid_line,
        clues: puzzle.clue_count(),
        tier: tier.name.clone(),
        rating: RatingRow::from_rating(&rating),
        backtracks: effort.backtracks,
        guesses: effort.guesses,
        seed: Some(input.dig_seed),
        dig_strategy: Some(input.strategy.name().into()),
        target_clues: Some(input.target),
        generator_version: GENERATOR_VERSION,
        fingerprint: fingerprint(&puzzle),
        generation_us: started.elapsed().as_micros() as u64,
    }))
}

/// The base-grid id: blake3 of size, box shape and cells, 32 hex digits.
pub fn grid_id(grid: &Grid) -> String {
    let g = grid.geometry();
    let mut h = blake3::Hasher::new();
    h.update(&[g.n() as u8, g.box_rows() as u8, g.box_cols() as u8]);
    h.update(grid.cells());
    h.finalize().to_hex()[..32].to_string()
}

/// Picks an item by weight with a draw from `seed` (weights not all zero).
pub fn pick_weighted<T: Copy>(items: &[(T, u32)], seed: u64) -> T {
    let total: u32 = items.iter().map(|(_, w)| w).sum();
    let mut r = Rand::new(derive_seed(&[seed, 0x5e1ec7])).below(total);
    for &(item, w) in items {
        if r < w {
            return item;
        }
        r -= w;
    }
    unreachable!("weights sum to total")
}
