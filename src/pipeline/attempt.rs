//! One attempt: base grid, dig to the tier's target, rate, fingerprint. A pure function
//! of its inputs; the deadline can only abort it.

use crate::bank::{BaseGridRow, NewPuzzle, RatingRow};
use crate::canon::fingerprint;
use crate::config::Tier;
use crate::generate::{
    dig_grid, solution_grid, DigError, Route, Spec, Stop, Strategy, GENERATOR_VERSION,
};
use crate::grid::{Geometry, Grid};
use crate::rate::{rate_until, search_effort};
use crate::rng::{derive_seed, Rand};
use crate::solver::Solver;
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

/// Digs the attempt's puzzle from its solution grid (shared with `reproduce`).
pub fn dig(
    input: &AttemptInput,
    solution: &Grid,
    deadline: Option<Instant>,
) -> Result<Grid, DigError> {
    let spec = Spec {
        geometry: input.geometry,
        route: input.route,
        strategy: input.strategy,
        stop: Stop::Clues(input.target),
        failure_budget: None,
    };
    dig_grid(&spec, solution, input.dig_seed, deadline)
}

/// Runs one attempt for `tier`.
pub fn run(input: &AttemptInput, tier: &Tier, deadline: Option<Instant>) -> AttemptOutcome {
    let started = Instant::now();
    let result = (|| {
        let solution = base_grid(input, deadline)?;
        let puzzle = dig(input, &solution, deadline)?;
        let effort = search_effort(&puzzle, &Solver::with_deadline(deadline))?;
        let rating = rate_until(&puzzle, deadline)?;
        Ok::<_, DigError>((solution, puzzle, effort, rating))
    })();
    let (solution, puzzle, effort, rating) = match result {
        Ok(r) => r,
        Err(DigError::Aborted) => return AttemptOutcome::TimedOut,
        Err(DigError::TargetMissed { .. }) => return AttemptOutcome::Rejected,
    };
    if !tier.accepts(rating.score) {
        return AttemptOutcome::Rejected;
    }
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
