//! Branching on a digit's configuration in a band or a stack of a 9×9 grid with boxes,
//! for searches whose effort is not the bank's measure (see
//! [`super::Search::with_configuration_branching`]).
//!
//! In a solution a digit takes one cell in each row of a band and one in each of its
//! boxes, so its places in the band follow one of the six orders of three (row `r` in
//! box `p[r]`); in a stack, one of the six orders of its bands over its columns. A cell
//! branch decides one cell; a branch on these orders decides three rows (or columns) of
//! one digit at once. Measured on `forum_hardest_1905_11plus`: median 199 nodes to prove a
//! puzzle unique with cell branches, 137 so (the design of tdoku, which branches on band
//! configurations, suggested it). The alternatives of one branch split the solutions:
//! every solution follows exactly one of the orders still open.

use super::triads::Places;
use super::Board;
use crate::grid::ORDERS_OF_THREE;

/// The cells of a 9×9 band word in one column, shifted to column 0.
const COLUMN: u64 = 1 | 1 << 9 | 1 << 18;
/// The columns of stack 0 in a stack word (bit `9k + c`: band `k`, column `c`).
const STACK_0: u64 = 0o7 * COLUMN;
/// Every cell of a 9×9 band word.
const BAND: u64 = (1 << 27) - 1;

/// The orders still open for one digit in one band or stack: per order, the cells it
/// takes the digit out of (one word per band).
pub(super) struct Configurations {
    pub(super) digit: usize,
    pub(super) clears: [[u64; 4]; 6],
    pub(super) count: usize,
}

impl Configurations {
    /// The digit and band or stack to branch on: of the bands and stacks where some digit
    /// is not yet settled to one order, the one whose digits have the fewest places left
    /// (minirows in a band, minicolumns in a stack) in all; there, the digit with the
    /// fewest (more than three). `None` when every digit follows one order everywhere.
    /// `band_box` is the cells of each box of a band ([`super::BandTables::band_box`]);
    /// `places` each digit's minirows and minicolumns on `b` (see [`Places`]).
    pub(super) fn to_branch_on<const DB: usize, const BANDS: usize>(
        b: &Board<DB, BANDS>,
        band_box: &[u64; 4],
        places: &Places,
    ) -> Option<Configurations> {
        debug_assert!(DB == 27 && BANDS == 3, "9×9 boards only");
        // A band's minirows and a stack's minicolumns in a digit's places: the same
        // three places of every group of nine, in the two halves.
        let unit = |vertical: bool, u: usize| (0o007_007_007 << (3 * u)) << (32 * vertical as u32);
        let in_unit =
            |d: usize, vertical: bool, u: usize| (places[d] & unit(vertical, u)).count_ones();
        // The unit with the fewest places in all that still has a choice (27 = settled:
        // three places a digit).
        let mut best: Option<(u32, bool, usize)> = None;
        for vertical in [false, true] {
            for u in 0..3 {
                let total = (0..9).map(|d| in_unit(d, vertical, u)).sum::<u32>();
                if total > 27 && best.is_none_or(|(t, _, _)| total < t) {
                    best = Some((total, vertical, u));
                }
            }
        }
        let (_, vertical, unit) = best?;
        let places = |d: usize| in_unit(d, vertical, unit);
        let d = (0..9)
            .map(|d| (places(d), d))
            .filter(|&(p, _)| p > 3)
            .min()?
            .1;
        let mut out = Configurations {
            digit: d,
            clears: [[0; 4]; 6],
            count: 0,
        };
        if vertical {
            let stack = STACK_0 << (3 * unit);
            let holds = |k: usize, c: usize| b.cand[d * BANDS + k] & COLUMN << (3 * unit + c) != 0;
            for order in ORDERS_OF_THREE
                .iter()
                .filter(|p| (0..3).all(|k| holds(k, p[k])))
            {
                for (k, clear) in out.clears[out.count].iter_mut().take(3).enumerate() {
                    *clear = stack & !(COLUMN << (3 * unit + order[k]));
                }
                out.count += 1;
            }
        } else {
            let row = |r: usize| 0x1FFu64 << (9 * r);
            let a = b.cand[d * BANDS + unit];
            let holds = |r: usize, j: usize| a & row(r) & band_box[j] != 0;
            for order in ORDERS_OF_THREE
                .iter()
                .filter(|p| (0..3).all(|r| holds(r, p[r])))
            {
                let kept = (0..3).fold(0, |m, r| m | row(r) & band_box[order[r]]);
                out.clears[out.count][unit] = BAND & !kept;
                out.count += 1;
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use crate::grid::{Geometry, Grid, Variant};
    use crate::rng::Rand;
    use crate::solver::Solver;

    /// Random clue sets of random grids, counted to the end both ways: the orders of a
    /// branch split the solutions (an order missed would lose some, two orders holding one
    /// would count it twice), on classic and on a rule set with extra units.
    #[test]
    fn configuration_branches_count_every_solution_once() {
        let solver = Solver::new();
        let mut rng = Rand::new(7);
        let mut several = 0;
        for variant in [Variant::Classic, Variant::Diagonal] {
            let g = Geometry::CLASSIC.with_variant(variant);
            for trial in 0..150 {
                let empty = Grid::empty(g);
                let solution = solver.random_solution(&empty, &mut rng).unwrap().unwrap();
                let mut puzzle = solution.clone();
                let keep = 18 + trial % 12;
                for c in 0..81 {
                    if rng.below(81) >= keep {
                        puzzle.set(c, 0);
                    }
                }
                let measured = solver.count(&puzzle, 5_000).unwrap();
                let fastest = solver.count_fast(&puzzle, 5_000).unwrap();
                assert_eq!(fastest.count, measured.count, "{variant:?} {puzzle}");
                several += usize::from(measured.count > 1);
            }
        }
        assert!(several > 100, "{several} puzzles with several solutions");
    }

    /// Sparse grids, where configuration branches wandered (they fix digits band by band
    /// and found four of them sent to one minirow only deep below), are counted within a
    /// few hundred nodes of the configuration tree now that the minirow rule sees that,
    /// and by the fastest count.
    #[test]
    fn sparse_grids_are_counted_all_the_same() {
        use crate::solver::Tree;
        let row = "123456789";
        for givens in ["", "1", row] {
            let line = format!("{givens:.<81}");
            let p = crate::grid::parse_line(&line).unwrap();
            let found = Solver::new().count_fast(&p, 2).unwrap();
            assert_eq!(found.count, 2, "{line}");
            let within = Solver::new().count_in(&p, 2, Tree::Fastest, 300).unwrap();
            assert_eq!(within.map(|c| c.count), Some(2), "{line}");
        }
    }
}
