//! Recomputing a stored puzzle from its metadata, without a deadline.

use super::attempt::{self, AttemptInput};
use crate::bank::StoredPuzzle;
use crate::generate::{GENERATOR_VERSION, OLDEST_REPRODUCIBLE};
use crate::grid::{parse_cells_with, Grid};
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
    let imported = || {
        format!(
            "puzzle {} was imported, not generated: there is nothing to reproduce",
            stored.id
        )
    };
    let base = stored.base.as_ref().with_context(imported)?;
    let (Some(strategy), Some(dig_seed)) = (stored.dig_strategy, stored.seed) else {
        bail!(imported());
    };
    if !(OLDEST_REPRODUCIBLE..=GENERATOR_VERSION).contains(&stored.generator_version) {
        bail!(
            "puzzle {} was made by generator version {}, this binary is version {}: \
             reproduce it with a `bank` of version {}",
            stored.id,
            stored.generator_version,
            GENERATOR_VERSION,
            stored.generator_version
        );
    }
    let target = stored
        .target_clues
        .with_context(|| format!("puzzle {} has no target clue count", stored.id))?;
    let cage_sizes = match (&stored.cages, stored.geometry.variant().has_cages()) {
        (_, false) => None,
        (Some(c), true) => Some(c.grown.with_context(|| {
            format!(
                "puzzle {}: its cages were not grown here (no cage sizes stored)",
                stored.id
            )
        })?),
        (None, true) => bail!("puzzle {}: a killer puzzle without cages", stored.id),
    };
    let input = AttemptInput {
        cage_sizes,
        geometry: stored.geometry,
        route: base.route,
        grid_seed: base.seed,
        mother_seed: base.mother_seed,
        full_fingerprint: false,
        strategy,
        target,
        dig_seed,
        generator_version: stored.generator_version,
    };
    let base_grid = attempt::base_grid(&input, None).expect("no deadline");
    // The base grid is stored as cells only, also for a killer puzzle.
    let stored_base = parse_cells_with(&base.grid, stored.geometry)
        .with_context(|| format!("puzzle {}: stored base grid is malformed", stored.id))?;
    // A jigsaw puzzle's regions are stored with the puzzle; its base grid has them too.
    let stored_base = match &stored.regions {
        Some(regions) => stored_base.with_regions(regions.clone()),
        None => stored_base,
    };
    // A killer puzzle's cages are grown again from its seed, then dug as the fill dug them.
    let caged = attempt::caged(&input, &stored_base)
        .with_context(|| format!("puzzle {}: its cages cannot be grown again", stored.id))?;
    let cages = stored.cages.as_ref().map(|c| c.cages.count());
    let puzzle = attempt::dig(&input, &caged, stored.clues, cages, None)
        .map_err(|e| anyhow::anyhow!("puzzle {}: digging again failed: {e}", stored.id))?;
    let same_cages = puzzle.cages() == stored.cages.as_ref().map(|c| &c.cages);
    let identical = base_grid == stored_base && puzzle.to_line() == stored.puzzle && same_cages;
    Ok(Reproduction {
        base_grid,
        puzzle,
        identical,
    })
}
