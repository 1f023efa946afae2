//! Killer cages for the band search: each cage's cells as band words, and the digit
//! combinations a cage of each size and sum can hold, precomputed once per grid side.

use crate::grid::{Cages, Combinations, Geometry};

/// One cage as the search sees it.
pub(super) struct CageWords {
    /// The cage's cells in each band (as the band words address them).
    pub(super) cells: [u64; 4],
    /// The one band holding all its cells, if there is one (most cages).
    pub(super) band: Option<usize>,
    pub(super) sum: u32,
    /// A cage of the puzzle (not a row, column or box's virtual one): matched cell by
    /// cell when few of its cells are open.
    pub(super) real: bool,
}

/// A puzzle's cages, built once per search call (a few hundred nanoseconds).
pub(super) struct CageTable {
    pub(super) cages: Vec<CageWords>,
    pub(super) combos: &'static Combinations,
}

impl CageTable {
    /// The table of `cages` on a grid of geometry `g` (a band holds `g`'s box rows of
    /// cells). Besides the cages, each row, column and box gives a virtual cage (the 45
    /// rule): its cells outside the cages it wholly holds, which have distinct digits
    /// making the rest of the unit's sum. They cut the search to a fraction.
    pub(super) fn new(g: Geometry, cages: &Cages) -> CageTable {
        let band_cells = g.box_rows() * g.n();
        let words = |cells: &mut dyn Iterator<Item = usize>, sum: u32, real: bool| {
            let mut words = [0u64; 4];
            for c in cells {
                words[c / band_cells] |= 1 << (c % band_cells);
            }
            let mut bands = (0..4).filter(|&k| words[k] != 0);
            let band = match (bands.next(), bands.next()) {
                (Some(k), None) => Some(k),
                _ => None,
            };
            CageWords {
                cells: words,
                band,
                sum,
                real,
            }
        };
        let mut cages_out: Vec<CageWords> = (0..cages.count())
            .map(|k| {
                words(
                    &mut cages.cells(k).iter().map(|&c| c as usize),
                    cages.sum(k),
                    true,
                )
            })
            .collect();
        let layout = g.layout();
        let n = g.n();
        let unit_sum = (n * (n + 1) / 2) as u32;
        // Per cage: how many of its cells the unit at hand holds (all of them when the cage
        // lies within it), counted once per unit rather than cell by cell for each of its
        // cells: this table is built for every count.
        let mut held = vec![0usize; cages.count()];
        let mut rest = Vec::with_capacity(n);
        for u in layout.lines().chain(layout.boxes()) {
            let unit = layout.unit(u);
            for &c in unit {
                held[cages.cage_of(c as usize)] += 1;
            }
            let mut whole = 0u32;
            for &c in unit {
                let k = cages.cage_of(c as usize);
                if held[k] == cages.cells(k).len() {
                    if cages.cells(k)[0] == c {
                        whole += cages.sum(k);
                    }
                } else {
                    rest.push(c as usize);
                }
            }
            for &c in unit {
                held[cages.cage_of(c as usize)] = 0;
            }
            if !rest.is_empty() && rest.len() < n {
                cages_out.push(words(&mut rest.iter().copied(), unit_sum - whole, false));
            }
            rest.clear();
        }
        CageTable {
            cages: cages_out,
            combos: Combinations::of(cages.n()),
        }
    }
}
