//! Killer cages for the band search: each cage's cells as band words, and the digit
//! combinations a cage of each size and sum can hold, precomputed once per grid side.

use crate::grid::{Cages, Combinations};

/// One cage as the search sees it.
pub(super) struct CageWords {
    /// The cage's cells in each band (as the band words address them).
    pub(super) cells: [u64; 4],
    pub(super) sum: u32,
}

/// A puzzle's cages, built once per search call (a few hundred nanoseconds).
pub(super) struct CageTable {
    pub(super) cages: Vec<CageWords>,
    pub(super) combos: &'static Combinations,
}

impl CageTable {
    /// The table of `cages` on a grid whose bands hold `band_cells` cells each.
    pub(super) fn new(cages: &Cages, band_cells: usize) -> CageTable {
        let cages_out = (0..cages.count())
            .map(|k| {
                let mut cells = [0u64; 4];
                for &c in cages.cells(k) {
                    let c = c as usize;
                    cells[c / band_cells] |= 1 << (c % band_cells);
                }
                CageWords {
                    cells,
                    sum: cages.sum(k),
                }
            })
            .collect();
        CageTable {
            cages: cages_out,
            combos: Combinations::of(cages.n()),
        }
    }
}
