//! Support under the non-consecutive rule, for the random search for a solution grid (see
//! [`super::Search::with_neighbour_support`]).
//!
//! A digit `x` may stay in a cell only while every touching cell keeps a digit that may
//! sit beside it: one not within one of `x` (`x` itself is out too, the two cells
//! sharing a row or a column). So a cell whose digits all lie within one of `x` keeps `x`
//! out of the cells touching it: a placed 4 bars 3 and 5 (what placing does already),
//! {3, 5} bars 4, {3, 4} bars 3 and 4, {3, 4, 5} bars 4. For every digit at once, over
//! the band words: per digit `x`, the cells left with no digit below `x - 1` or above
//! `x + 1`, moved one cell up, down, left and right (across bands too), leave `x`.
//!
//! Placement alone finds the contradiction such a cell meets a move later; an empty grid's
//! random search then spends more of its nodes below a choice already lost (9×9, at a
//! steady budget of 192 nodes: 3.4 ms a grid without support, 2.3 ms with it; see the
//! design notes, "Grid searches that restart").

use super::{Board, Shape};

/// Takes out of every cell the digits that a touching cell leaves no room beside; returns
/// the digit-band words it changed (bit `d * BANDS + k`). One pass: what it takes out may
/// narrow other cells in turn, which the next pass after propagation finds.
pub(super) fn settle<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
    b: &mut Board<DB, BANDS>,
) -> u64 {
    let row = Shape::<N, BR, DB>::ROW;
    let band = Shape::<N, BR, DB>::BAND;
    let first_column = Shape::<N, BR, DB>::SPREAD;
    let last_column = first_column << (N - 1);
    let bottom_row = (BR - 1) * N;
    // `above[x][k]`: the cells of band `k` that keep a digit from `x` (from 0) up.
    let mut above = [[0u64; 4]; 17];
    for d in (0..N).rev() {
        let (this, next) = above.split_at_mut(d + 1);
        for (k, cells) in this[d].iter_mut().enumerate().take(BANDS) {
            *cells = next[0][k] | b.cand[d * BANDS + k];
        }
    }
    // The cells that keep a digit below `x - 1`.
    let mut below = [0u64; 4];
    let mut changed = 0u64;
    for x in 0..N {
        // The cells whose digits all lie within one of `x`.
        let mut within = [0u64; 4];
        let from = &above[(x + 2).min(N)];
        for k in 0..BANDS {
            within[k] = band & !(below[k] | from[k]);
        }
        for k in 0..BANDS {
            let w = within[k];
            let mut touching =
                ((w << 1) & !first_column) | ((w >> 1) & !last_column) | (w << N) | (w >> N);
            if k > 0 {
                touching |= (within[k - 1] >> bottom_row) & row;
            }
            if k + 1 < BANDS {
                touching |= (within[k + 1] & row) << bottom_row;
            }
            let i = x * BANDS + k;
            let old = b.cand[i];
            let new = old & !touching;
            b.cand[i] = new;
            changed |= ((old != new) as u64) << i;
        }
        if x >= 1 {
            for (k, cells) in below.iter_mut().enumerate().take(BANDS) {
                *cells |= b.cand[(x - 1) * BANDS + k];
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::super::{Ascending, Search};
    use crate::grid::{Geometry, Variant};
    use crate::rng::Rand;
    use crate::solver::band_tables::band_tables;

    fn nc() -> Geometry {
        Geometry::CLASSIC.with_variant(Variant::NonConsecutive)
    }

    /// The digits cell `cell` keeps on board `b` (9×9).
    fn digits(b: &super::Board<27, 3>, cell: usize) -> Vec<usize> {
        (0..9)
            .filter(|d| b.cand[d * 3 + cell / 27] & 1 << (cell % 27) != 0)
            .map(|d| d + 1)
            .collect()
    }

    /// By hand: {3, 5} in cell 40 (the centre) bars 4 from its four neighbours and nowhere
    /// else; {3, 4} bars 3 and 4; a cell of the next band is reached across the border.
    #[test]
    fn cells_within_one_of_a_digit_bar_it_beside_them() {
        let mut s = Search::<_, false>::new(band_tables(nc()), Ascending, 2, None);
        let empty = s.board::<9, 3, 27, 3>(&[0; 81]).unwrap();
        let keep_only = |b: &mut super::Board<27, 3>, cell: usize, keep: &[usize]| {
            for d in (0..9).filter(|d| !keep.contains(&(d + 1))) {
                b.cand[d * 3 + cell / 27] &= !(1 << (cell % 27));
            }
        };
        let mut b = empty;
        keep_only(&mut b, 40, &[3, 5]);
        let changed = super::settle::<9, 3, 27, 3>(&mut b);
        for cell in [31, 39, 41, 49] {
            assert_eq!(digits(&b, cell), [1, 2, 3, 5, 6, 7, 8, 9], "cell {cell}");
        }
        assert_eq!(digits(&b, 30), (1..=9).collect::<Vec<_>>());
        assert_eq!(changed, 1 << (3 * 3 + 1), "only digit 4's middle band word");
        // Cell 26 (band 0, bottom row) with {3, 4}: cell 35 below it, in band 1.
        let mut b = empty;
        keep_only(&mut b, 26, &[3, 4]);
        super::settle::<9, 3, 27, 3>(&mut b);
        for cell in [17, 25, 35] {
            assert_eq!(digits(&b, cell), [1, 2, 5, 6, 7, 8, 9], "cell {cell}");
        }
        // Digits further apart bar nothing.
        let mut b = empty;
        keep_only(&mut b, 40, &[3, 6]);
        assert_eq!(super::settle::<9, 3, 27, 3>(&mut b), 0);
    }

    /// Support never takes out a digit a solution puts there: random non-consecutive
    /// grids dug to 12-40 clues, propagated by a search with support (which settles it
    /// with the other passes until none finds more), keep every digit of the grid they
    /// were dug from; and support narrows such boards beyond propagation without it.
    #[test]
    fn support_keeps_every_solution() {
        let mut rng = Rand::new(5);
        let mut narrowed = 0;
        for trial in 0..200 {
            let (solution, clues) = super::super::random_clues(nc(), &mut rng, 12 + trial % 29);
            let propagated = |support: bool| {
                let mut s = Search::<_, false>::new(band_tables(nc()), Ascending, 2, None)
                    .with_neighbour_support(support);
                let mut b = s.board::<9, 3, 27, 3>(&clues).unwrap();
                assert!(s.propagate::<9, 3, 27, 3>(&mut b), "{clues:?}");
                b
            };
            let b = propagated(true);
            narrowed += usize::from(b.cand != propagated(false).cand);
            for cell in 0..81 {
                let d = solution.get(cell) as usize;
                assert!(digits(&b, cell).contains(&d), "cell {cell} in {clues:?}");
            }
        }
        assert!(narrowed > 20, "support narrowed {narrowed} of 200 boards");
    }
}
