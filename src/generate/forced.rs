//! Removals that need no search: a removed clue whose digit the other clues force back
//! into its cell (a naked or hidden single). Most removals of a dig's first half are
//! settled this way, so the test reads masks kept as clues go and come back rather than
//! the cells of the grid.

use crate::grid::{Geometry, Grid, Layout};

/// The digits the clues hold in each unit of the layout (diagonals included where the
/// variant has them), kept up to date by the digger as it removes and restores clues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClueUnits {
    /// Per unit: the digits of its clues (bit `d` for digit `d`).
    digits: Vec<u32>,
    /// Per digit: the units holding a clue of it (bit `u`, as in `Layout::cell_units`).
    units: Vec<u64>,
}

impl ClueUnits {
    /// The masks of `puzzle`'s clues.
    pub fn of(puzzle: &Grid) -> ClueUnits {
        let g = puzzle.geometry();
        let layout = puzzle.layout();
        let mut clues = ClueUnits {
            digits: vec![0; layout.unit_count()],
            units: vec![0; g.n() + 1],
        };
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 {
                clues.restore(layout, cell, digit);
            }
        }
        clues
    }

    /// The masks of a full grid of geometry `g`: every unit holds every digit.
    pub fn full(g: Geometry) -> ClueUnits {
        let units = g.layout().unit_count();
        let every_unit = if units == 64 {
            u64::MAX
        } else {
            (1 << units) - 1
        };
        let mut all = ClueUnits {
            digits: vec![((1u32 << g.n()) - 1) << 1; units],
            units: vec![every_unit; g.n() + 1],
        };
        all.units[0] = 0;
        all
    }

    /// Takes out clue `digit` at `cell`: a unit holds a digit once, so its units no
    /// longer hold it.
    pub fn remove(&mut self, layout: &Layout, cell: usize, digit: u8) {
        self.units[digit as usize] &= !layout.cell_units[cell];
        for u in layout.all_units_of(cell) {
            self.digits[u] &= !(1 << digit);
        }
    }

    /// Puts back clue `digit` at `cell`.
    pub fn restore(&mut self, layout: &Layout, cell: usize, digit: u8) {
        self.units[digit as usize] |= layout.cell_units[cell];
        for u in layout.all_units_of(cell) {
            self.digits[u] |= 1 << digit;
        }
    }
}

/// Whether the clues of `puzzle` (held in `clues`) force `digit` into its open `cell`:
/// the clues of its units hold every other digit (naked single), or no other open cell of
/// one of its units may take `digit`, each lying in a unit with a clue `digit` (hidden
/// single). Then no solution puts another digit there, and no search is needed.
pub fn forced(puzzle: &Grid, clues: &ClueUnits, cell: usize, digit: u8) -> bool {
    let layout = puzzle.layout();
    let seen = layout
        .all_units_of(cell)
        .fold(0u32, |m, u| m | clues.digits[u]);
    let others = (((1u32 << puzzle.geometry().n()) - 1) << 1) & !(1 << digit);
    if seen & others == others {
        return true;
    }
    let blocked = clues.units[digit as usize];
    let can_take = |other: usize| {
        other != cell && puzzle.get(other) == 0 && layout.cell_units[other] & blocked == 0
    };
    layout
        .all_units_of(cell)
        .any(|u| !layout.unit(u).iter().any(|&o| can_take(o as usize)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{pattern_grid, Route};
    use crate::grid::Variant;
    use crate::rng::Rand;
    use crate::solver::Solver;

    /// Kept masks equal masks built afresh; a forced removal never has another solution
    /// there, and both kinds of single occur. Random digs of classic and diagonal grids
    /// of every size.
    #[test]
    fn forced_removals_keep_the_digit_and_masks_follow_the_clues() {
        let solver = Solver::new();
        let (mut forced_count, mut naked, mut hidden) = (0, 0, 0);
        for (size, variant) in [(4, Variant::Classic), (6, Variant::Diagonal)]
            .into_iter()
            .chain([9, 12, 16].map(|n| (n, Variant::Classic)))
            .chain([(9, Variant::Diagonal)])
        {
            let g = Geometry::for_size(size).unwrap().with_variant(variant);
            let layout = g.layout();
            let mut rng = Rand::new(size as u64);
            let solution = match variant {
                Variant::Classic => pattern_grid(g),
                _ => crate::generate::base::test_grid_from(g, Route::Backtrack, &mut rng),
            };
            let mut puzzle = solution.clone();
            let mut clues = ClueUnits::of(&puzzle);
            assert_eq!(clues, ClueUnits::full(g));
            let mut cells: Vec<usize> = (0..g.cells()).collect();
            rng.shuffle(&mut cells);
            for cell in cells.into_iter().take(g.cells() * 2 / 3) {
                let digit = puzzle.get(cell);
                puzzle.set(cell, 0);
                clues.remove(layout, cell, digit);
                assert_eq!(clues, ClueUnits::of(&puzzle));
                if forced(&puzzle, &clues, cell, digit) {
                    forced_count += 1;
                    let seen: u32 = layout
                        .peers(cell)
                        .iter()
                        .fold(0, |m, &p| m | 1 << puzzle.get(p as usize));
                    if seen | 1 << digit | 1 == (1 << (size + 1)) - 1 {
                        naked += 1;
                    } else {
                        hidden += 1;
                    }
                    assert!(
                        !solver.has_solution_avoiding(&puzzle, cell, digit).unwrap(),
                        "{size} {variant:?}: {} forced yet free",
                        crate::grid::cell_name(size, cell)
                    );
                } else if solver.has_solution_avoiding(&puzzle, cell, digit).unwrap() {
                    // Keep the puzzle unique, as digging does.
                    puzzle.set(cell, digit);
                    clues.restore(layout, cell, digit);
                    assert_eq!(clues, ClueUnits::of(&puzzle));
                }
            }
        }
        assert!(
            naked > 0 && hidden > 0,
            "{forced_count} forced: {naked} naked, {hidden} hidden"
        );
    }
}
