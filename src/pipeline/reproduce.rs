//! Recomputing a stored puzzle from its metadata, without a deadline.

use super::attempt::{self, AttemptInput};
use crate::bank::StoredPuzzle;
use crate::generate::{Route, Strategy, GENERATOR_VERSION};
use crate::grid::{parse_line_with, Geometry, Grid};
use anyhow::{bail, Context, Result};

/// The recomputed base grid and puzzle beside the stored ones.
#[derive(Debug)]
pub struct Reproduction {
    /// The base grid rebuilt from its route and seed.
    pub base_grid: Grid,
    /// The puzzle dug again.
    pub puzzle: Grid,
    /// Whether both equal what is stored.
    pub identical: bool,
}

/// Rebuilds `stored` from (generator version, base grid, strategy, target clues, seed).
pub fn reproduce(stored: &StoredPuzzle) -> Result<Reproduction> {
    let generated = |field: Option<&String>| {
        field.cloned().with_context(|| {
            format!(
                "puzzle {} was imported, not generated: there is nothing to reproduce",
                stored.id
            )
        })
    };
    let (route, grid_seed, stored_grid, strategy, seed) = (
        generated(stored.route.as_ref())?,
        generated(stored.grid_seed.as_ref())?,
        generated(stored.base_grid.as_ref())?,
        generated(stored.dig_strategy.as_ref())?,
        generated(stored.seed.as_ref())?,
    );
    if stored.generator_version != GENERATOR_VERSION {
        bail!(
            "puzzle {} was made by generator version {}, this binary is version {}: \
             reproduce it with a `bank` of version {}",
            stored.id,
            stored.generator_version,
            GENERATOR_VERSION,
            stored.generator_version
        );
    }
    let geometry = Geometry::for_size(stored.size)
        .filter(|g| g.box_rows() == stored.box_rows && g.box_cols() == stored.box_cols)
        .with_context(|| {
            format!(
                "puzzle {}: unsupported geometry {}x{}",
                stored.id, stored.size, stored.size
            )
        })?;
    let target = stored
        .target_clues
        .with_context(|| format!("puzzle {} has no target clue count", stored.id))?;
    let input = AttemptInput {
        geometry,
        route: route.parse::<Route>().map_err(anyhow::Error::msg)?,
        grid_seed: parse_seed(&grid_seed, "base grid seed")?,
        strategy: strategy.parse::<Strategy>().map_err(anyhow::Error::msg)?,
        target,
        dig_seed: parse_seed(&seed, "seed")?,
    };
    let base_grid = attempt::base_grid(&input, None).expect("no deadline");
    let stored_base = parse_line_with(&stored_grid, geometry)
        .with_context(|| format!("puzzle {}: stored base grid is malformed", stored.id))?;
    let puzzle = attempt::dig(&input, &stored_base, stored.clues, None)
        .map_err(|e| anyhow::anyhow!("puzzle {}: digging again failed: {e}", stored.id))?;
    let identical = base_grid == stored_base && puzzle.to_line() == stored.puzzle;
    Ok(Reproduction {
        base_grid,
        puzzle,
        identical,
    })
}

fn parse_seed(text: &str, what: &str) -> Result<u64> {
    text.parse()
        .with_context(|| format!("stored {what} '{text}' is not a u64"))
}
