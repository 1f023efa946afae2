//! The minirow rule of a 9×9 grid with boxes, for the fastest search tree (see
//! [`super::Search::with_configuration_branching`]).
//!
//! A minirow (three cells of a row in one box) holds three digits, and so does a
//! minicolumn. Per band, a digit's places are read as a rows × boxes pattern of
//! minirows (per stack, bands × columns of minicolumns); then, for every minirow and
//! minicolumn at once, by bit-sliced counts over the nine digits:
//! - three digits left that may go there: each of them goes there, so it leaves the rest
//!   of the minirow's row and box (a naked triple of the minirow);
//! - three digits that must go there (the only minirow of their row or box): no other
//!   digit goes there (a hidden triple);
//! - fewer than three that may, or more than three that must: a contradiction.
//!
//! This is tdoku's triad clause over our band words. The per-digit permutation step
//! already knows each digit's minirows; only this rule ties the digits of a minirow
//! together below a naked single.

use super::Board;

/// Each digit's places, minirows and minicolumns in one word: the minirow of row `r`, band
/// `k`, box `j` at bit `9r + 3k + j`, the minicolumn of band `k`, stack `s`, column `c`
/// at bit `32 + 9k + 3s + c`. Both halves so read alike: the places a digit may take
/// once are the three of a triple (step 1) and the same place of the three groups of
/// nine (step 9), so one set of shifts serves both.
pub(super) type Places = [u64; 9];
/// One digit's places (see [`Places`]).
type Word = u64;

/// Bit 0 of every triple, in both halves.
const FIRST: Word = 0o111_111_111 * (1 | 1 << 32);
/// Bits 0 and 1 of every triple.
const NOT_LAST: Word = 0o333_333_333 * (1 | 1 << 32);
/// The first two groups of nine, and the first one.
const LOW_TWO: Word = 0o777_777 * (1 | 1 << 32);
const LOW_ONE: Word = 0o777 * (1 | 1 << 32);
/// Every place.
const ALL: Word = 0o777_777_777 * (1 | 1 << 32);

/// The places sharing a triple with each set bit (`.0`), and those at the same place in
/// the other groups (`.1`).
#[inline(always)]
fn others(x: Word) -> (Word, Word) {
    let rotate = |x: Word| ((x >> 1) & NOT_LAST) | ((x & FIRST) << 2);
    let across = |x: Word| ((x >> 9) & LOW_TWO) | ((x & LOW_ONE) << 18);
    let (r1, a1) = (rotate(x), across(x));
    (r1 | rotate(r1), a1 | across(a1))
}

/// Per place, whether exactly three of `words` have it (`.0`), fewer than three
/// (`.1`), more than three (`.2`).
#[inline(always)]
fn counts(words: &Places) -> (Word, Word, Word) {
    let (mut once, mut twice, mut thrice, mut four) = (0, 0, 0, 0);
    for &m in words {
        four |= thrice & m;
        thrice |= twice & m;
        twice |= once & m;
        once |= m;
    }
    (thrice & !four, !thrice, four)
}

/// Applies the rule to the digits' places (`possible[d]` for digit `d + 1`): the digits
/// whose places changed (bit `d`), or `None` on a contradiction.
#[inline(always)]
fn narrow_places(possible: &mut Places) -> Option<u32> {
    let (three_may, too_few, _) = counts(possible);
    let forced: Places = std::array::from_fn(|d| {
        let (along, across) = others(possible[d]);
        possible[d] & (!along | !across)
    });
    let (three_must, _, too_many) = counts(&forced);
    if (too_few | too_many) & ALL != 0 {
        return None;
    }
    if (three_may | three_must) & ALL == 0 {
        return Some(0);
    }
    let mut changed = 0u32;
    for (d, (p, &f)) in possible.iter_mut().zip(forced.iter()).enumerate() {
        let old = *p;
        let (along, across) = others(old & three_may);
        *p = old & !(along | across) & !(three_must & !f);
        changed |= ((*p != old) as u32) << d;
    }
    Some(changed)
}

/// One cell in each row of a band (as [`super::Shape::SPREAD`]).
const EVERY_ROW: u64 = 1 | 1 << 9 | 1 << 18;

/// Applies the rule to every minirow and minicolumn of `b` once: the digits' places it
/// found (before it narrowed them) and the digit-band words it changed (bit `d * 3 + k`),
/// or `None` on a contradiction.
pub(super) fn settle<const DB: usize, const BANDS: usize>(
    b: &mut Board<DB, BANDS>,
) -> Option<(Places, u64)> {
    debug_assert!(DB == 27 && BANDS == 3, "9×9 boards only");
    // Band word -> its minirows, bit 9r + j; and back to their cells.
    let minirows = |a: u64| {
        let t = a | a >> 1 | a >> 2;
        (t & 0o001_001_001) | ((t >> 2) & 0o002_002_002) | ((t >> 4) & 0o004_004_004)
    };
    let minirow_cells =
        |m: u64| ((m & 0o001_001_001) | (m & 0o002_002_002) << 2 | (m & 0o004_004_004) << 4) * 7;
    let columns = |a: u64| (a | a >> 9 | a >> 18) & 0o777;
    let found: Places = std::array::from_fn(|d| {
        (0..3).fold(0, |m, k| {
            let a = b.cand[d * BANDS + k];
            m | minirows(a) << (3 * k) | columns(a) << (32 + 9 * k)
        })
    });
    let mut places = found;
    let mut digits = narrow_places(&mut places)?;
    let mut changed = 0u64;
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        for k in 0..3 {
            let i = d * BANDS + k;
            let p = places[d];
            let in_minirows = minirow_cells((p >> (3 * k)) & 0o007_007_007);
            let in_columns = ((p >> (32 + 9 * k)) & 0o777) * EVERY_ROW;
            let kept = in_minirows & in_columns;
            let new = b.cand[i] & kept;
            changed |= ((new != b.cand[i]) as u64) << i;
            b.cand[i] = new;
        }
    }
    Some((found, changed))
}

#[cfg(test)]
mod tests {
    use super::super::{Ascending, Search};
    use crate::grid::Geometry;
    use crate::rng::Rand;
    use crate::solver::band_tables::band_tables;

    /// The rule never takes out a digit a solution puts there: random grids dug to 18-33
    /// random clues and propagated, settled by the rule until it finds no more (with
    /// propagation between, as the search does), keep every digit of the grid they were
    /// dug from. And it does find something on such boards.
    #[test]
    fn the_rule_keeps_every_solution() {
        let g = Geometry::CLASSIC;
        let mut rng = Rand::new(3);
        let mut narrowed = 0;
        for trial in 0..400 {
            let (solution, clues) = super::super::random_clues(g, &mut rng, 18 + trial % 16);
            let mut s = Search::<_, false>::new(band_tables(g), Ascending, 2, None);
            let mut b = s.board::<9, 3, 27, 3>(&clues).unwrap();
            assert!(s.propagate::<9, 3, 27, 3>(&mut b), "{clues:?}");
            let before = b.cand;
            let places = s.settle_triads::<9, 3, 27, 3>(&mut b);
            assert!(places.is_some(), "a contradiction in {clues:?}");
            narrowed += usize::from(b.cand != before);
            for cell in 0..81 {
                let d = solution.get(cell) as usize - 1;
                assert_ne!(b.cand[d * 3 + cell / 27] & 1 << (cell % 27), 0, "{clues:?}");
            }
        }
        assert!(narrowed > 40, "the rule narrowed {narrowed} of 400 boards");
    }

    /// A minirow left with two digits that may go there, or four that must, is a
    /// contradiction; three that may go there leave the rest of its row and box.
    #[test]
    fn minirows_hold_three_digits() {
        let g = Geometry::CLASSIC;
        let mut s = Search::<_, false>::new(band_tables(g), Ascending, 2, None);
        let empty = s.board::<9, 3, 27, 3>(&[0; 81]).unwrap();
        // Row 0, box 0 (cells 0, 1, 2): only digits 1, 2, 3 may go there.
        let mut b = empty;
        for d in 3..9 {
            b.cand[d * 3] &= !0b111;
        }
        let (_, changed) = super::settle(&mut b).unwrap();
        for d in 0..3 {
            // Digit d + 1 leaves the rest of row 0 and of box 0.
            assert_ne!(changed & 1 << (d * 3), 0);
            let rest = 0o777 & !0b111 | 0b111 << 9 | 0b111 << 18;
            assert_eq!(b.cand[d * 3] & rest, 0, "digit {}", d + 1);
        }
        // Only 1 and 2: a contradiction.
        let mut b = empty;
        for d in 2..9 {
            b.cand[d * 3] &= !0b111;
        }
        assert!(super::settle(&mut b).is_none());
        // Digits 1-3 each with box 0 their only place in row 0: no other digit goes there.
        let mut b = empty;
        for d in 0..3 {
            b.cand[d * 3] &= !(0o777 & !0b111);
        }
        super::settle(&mut b).unwrap();
        for d in 3..9 {
            assert_eq!(b.cand[d * 3] & 0b111, 0, "digit {}", d + 1);
        }
        // Four such digits: a contradiction.
        let mut b = empty;
        for d in 0..4 {
            b.cand[d * 3] &= !(0o777 & !0b111);
        }
        assert!(super::settle(&mut b).is_none());
    }
}
