//! Unique rectangles: deductions that rely on the puzzle having one solution (the BUG
//! patterns are in [`super::bug`]).

use super::common::{first_covering, naked_eliminations, open_cells, UnitVec};
use super::Technique;
use crate::grid::{Cell, CellSet};
use crate::rate::board::{digits, two_bits, Board};
use crate::rate::techniques::step::Step;
use std::rc::Rc;

/// Four open cells on two rows, two columns and exactly two boxes, all holding `pair`, two
/// of them nothing else (every type below needs that).
struct Rectangle {
    corners: [usize; 4],
    pair: u16,
}

/// Every rectangle of the board, as [`find_rectangles`] lists them, kept in the board's
/// memo: the four unique-rectangle finders ask one after another on the same board.
fn rectangles(b: &Board) -> Rc<Vec<Rectangle>> {
    b.derived(|| find_rectangles(b))
}

/// Every rectangle, ordered by rows then columns. Each has two corners holding just its
/// pair, so the search starts from pairs of such cells.
fn find_rectangles(b: &Board) -> Vec<Rectangle> {
    let n = b.n();
    let layout = b.layout();
    let bivalue: Vec<usize> = (0..b.cells())
        .filter(|&c| b.is_open(c) && two_bits(b.cand(c)))
        .collect();
    // Rectangles as (r1, r2, c1, c2).
    let mut found: Vec<[usize; 4]> = Vec::new();
    // Only lines whose two cells both hold the pair can close a rectangle (a placed cell
    // holds one digit, so this also keeps the corners open).
    let holds = |cell: usize, pair: u16| b.cand(cell) & pair == pair;
    let sorted = |a: usize, z: usize| (a.min(z), a.max(z));
    for (i, &p) in bivalue.iter().enumerate() {
        let pair = b.cand(p);
        for &q in bivalue[i + 1..].iter().filter(|&&q| b.cand(q) == pair) {
            let (Cell { row: pr, col: pc }, Cell { row: qr, col: qc }) =
                (Cell::at(p, n), Cell::at(q, n));
            if pr == qr || pc == qc {
                // On one line: the far side is any parallel line holding the pair at the
                // same two crossing positions.
                let on_row = pr == qr;
                let (line, (x1, x2)) = if on_row {
                    (pr, sorted(pc, qc))
                } else {
                    (pc, sorted(pr, qr))
                };
                let cell = |l: usize, x: usize| {
                    let at = Cell::new(l, x);
                    if on_row { at } else { at.transposed() }.index(n)
                };
                found.extend(
                    (0..n)
                        .filter(|&l| {
                            l != line && holds(cell(l, x1), pair) && holds(cell(l, x2), pair)
                        })
                        .map(|l| {
                            let (l1, l2) = sorted(l, line);
                            if on_row {
                                [l1, l2, x1, x2]
                            } else {
                                [x1, x2, l1, l2]
                            }
                        }),
                );
            } else {
                let ((r1, r2), (c1, c2)) = (sorted(pr, qr), sorted(pc, qc));
                found.push([r1, r2, c1, c2]);
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    found
        .into_iter()
        .filter_map(|[r1, r2, c1, c2]| {
            let corners =
                [(r1, c1), (r1, c2), (r2, c1), (r2, c2)].map(|(r, c)| Cell::new(r, c).index(n));
            // Two boxes (regions), each holding one side of the rectangle.
            let [a, b1, c, d] = corners.map(|cell| layout.places[cell].bx);
            let two_boxes = (a == c && b1 == d && a != b1) || (a == b1 && c == d && a != c);
            if !two_boxes {
                return None;
            }
            if !corners.iter().all(|&c| b.is_open(c)) {
                return None;
            }
            if !keeps_extra_units(b, &corners) {
                return None;
            }
            // Two corners hold just the pair, so the corners share exactly two digits.
            let pair = corners.iter().fold(u16::MAX, |m, &c| m & b.cand(c));
            let free = corners.iter().all(|&c| !restricted(b, c, pair));
            (two_bits(pair) && free).then_some(Rectangle { corners, pair })
        })
        .collect()
}

/// Whether every extra unit meets the corners (row-major: two on the first row, two on
/// the second) in none or in one side's two, so that swapping the pair around the
/// rectangle keeps each unit whole.
fn keeps_extra_units(b: &Board, corners: &[usize; 4]) -> bool {
    let layout = b.layout();
    let mut met: UnitVec<(usize, u8)> = UnitVec::new();
    for (i, &c) in corners.iter().enumerate() {
        for place in layout.extra_places_of(c) {
            match met.iter_mut().find(|(u, _)| *u == place.unit) {
                Some((_, mask)) => *mask |= 1 << i,
                None => met.push((place.unit, 1 << i)),
            }
        }
    }
    met.iter()
        .all(|&(_, mask)| matches!(mask, 0b0011 | 0b1100 | 0b0101 | 0b1010))
}

/// Whether an open cell near `cell` holds a digit the rule set bars there beside a digit
/// of `pattern`: one the move keeps apart holding a digit of it, one touching it holding a
/// digit consecutive to one of it (non-consecutive). Swapping the pattern's digits could
/// then break that rule, so the pattern is not deadly (as the reference's `isRestricted`
/// rules out such loops and BUGs).
pub(super) fn restricted(b: &Board, cell: usize, pattern: u16) -> bool {
    let layout = b.layout();
    let held =
        |cells: CellSet, mask: u16| cells.iter().any(|o| b.is_open(o) && b.cand(o) & mask != 0);
    let touching = layout.neighbour_sets[cell];
    held(layout.apart_sets[cell], pattern)
        || (!touching.is_empty()
            && held(
                touching,
                digits(pattern).fold(0, |m, d| m | b.barred_beside(d)),
            ))
}

fn step(technique: Technique, corners: &[usize; 4], elims: Vec<(usize, u8)>) -> Option<Step> {
    (!elims.is_empty()).then(|| {
        let mut s = Step::new(technique, corners.to_vec());
        s.eliminations = elims;
        s
    })
}

/// The corners holding more than the pair.
fn with_extras(b: &Board, r: &Rectangle) -> Vec<usize> {
    r.corners
        .iter()
        .copied()
        .filter(|&c| b.cand(c) != r.pair)
        .collect()
}

/// The units holding both cells.
fn shared_units(b: &Board, x: usize, y: usize) -> impl Iterator<Item = usize> + '_ {
    (0..b.unit_count()).filter(move |&u| {
        let cells = b.unit(u);
        cells.contains(&(x as u16)) && cells.contains(&(y as u16))
    })
}

/// Type 1: three corners hold just the pair; the pair leaves the fourth.
pub fn unique_rectangle_1(b: &Board) -> Option<Step> {
    rectangles(b).iter().find_map(|r| {
        let extra = with_extras(b, r);
        if extra.len() != 1 {
            return None;
        }
        let elims = digits(r.pair).map(|d| (extra[0], d)).collect();
        step(Technique::UniqueRectangle1, &r.corners, elims)
    })
}

/// The two corners with extra candidates (the roof), when the other two hold just the pair
/// and the roof corners share a row or column.
fn roof(b: &Board, r: &Rectangle) -> Option<(usize, usize)> {
    let n = b.n();
    match with_extras(b, r)[..] {
        [x, y] if Cell::at(x, n).shares_a_line(Cell::at(y, n)) => Some((x, y)),
        _ => None,
    }
}

/// Type 2: both roof corners hold the pair plus the same one digit: it leaves cells seeing both.
pub fn unique_rectangle_2(b: &Board) -> Option<Step> {
    rectangles(b).iter().find_map(|r| {
        let (x, y) = roof(b, r)?;
        let extra = b.cand(x) & !r.pair;
        if extra.count_ones() != 1 || b.cand(y) & !r.pair != extra {
            return None;
        }
        let elims = (0..b.cells())
            .filter(|&c| {
                b.is_open(c)
                    && b.cand(c) & extra != 0
                    && c != x
                    && c != y
                    && b.sees(c, x)
                    && b.sees(c, y)
            })
            .map(|c| (c, extra.trailing_zeros() as u8 + 1))
            .collect();
        step(Technique::UniqueRectangle2, &r.corners, elims)
    })
}

/// Type 3: the roof's extra candidates act as one cell that must hold one of them; with
/// one to three other cells of a unit the roof shares it forms a naked subset (pair,
/// triple or quad: 4.6, 4.7, 4.8), whose digits leave the rest of the unit. Or the pair
/// and other digits form a hidden set with one roof corner ([`hidden_set`]: 4.5 for the
/// pair alone, a tenth more per other digit). The lowest score wins; of equal scores the
/// naked subset, as the reference collects them (by size, the naked set of a size before
/// the hidden one).
pub fn unique_rectangle_3(b: &Board) -> Option<Step> {
    let rects = rectangles(b);
    (0..=HIDDEN_DEGREES.end() - 2).find_map(|tenths: usize| {
        rects.iter().find_map(|r| {
            let (x, y) = roof(b, r)?;
            let extra = (b.cand(x) | b.cand(y)) & !r.pair;
            if extra.count_ones() < 2 {
                return None;
            }
            let naked = (1..=3)
                .contains(&tenths)
                .then(|| naked_subset(b, r, x, y, extra, tenths))
                .flatten();
            naked.or_else(|| {
                shared_units(b, x, y).find_map(|u| {
                    let set = hidden_set(b, r.pair, x, y, u, tenths + 2)?;
                    let mut s = Step::new(Technique::UniqueRectangle3, r.corners.to_vec());
                    s.score = RECTANGLE + 0.1 * tenths as f64;
                    s.cells.extend_from_slice(&set.cells);
                    s.eliminations = set.eliminations;
                    Some(s)
                })
            })
        })
    })
}

/// A rectangle's score, on which type 3 adds a tenth per digit of its set past one
/// (naked) or two (hidden).
const RECTANGLE: f64 = 4.5;

/// The sizes of hidden set the reference looks for (the pair and up to five others).
pub(super) const HIDDEN_DEGREES: std::ops::RangeInclusive<usize> = 2..=7;

/// Type 3's naked subset of the roof's `extra` digits with `others` cells of a unit the
/// roof shares.
fn naked_subset(
    b: &Board,
    r: &Rectangle,
    x: usize,
    y: usize,
    extra: u16,
    others: usize,
) -> Option<Step> {
    let digits_in_subset = others + 1;
    if extra.count_ones() as usize > digits_in_subset {
        return None;
    }
    shared_units(b, x, y).find_map(|u| {
        let open: UnitVec<usize> = open_cells(b, u)
            .into_iter()
            .filter(|&c| c != x && c != y)
            .collect();
        let small: UnitVec<(usize, u16)> = open
            .iter()
            .map(|&c| (c, b.cand(c)))
            .filter(|&(_, m)| m.count_ones() as usize <= digits_in_subset)
            .collect();
        let bits = digits_in_subset as u32;
        first_covering(
            &small,
            others,
            extra,
            bits,
            &mut |cells: &[usize], union| {
                let elims = naked_eliminations(b, &open, cells, union);
                (!elims.is_empty()).then(|| {
                    let mut s = Step::new(Technique::UniqueRectangle3, r.corners.to_vec());
                    s.score = RECTANGLE + 0.1 * others as f64;
                    s.cells.extend_from_slice(cells);
                    s.eliminations = elims;
                    s
                })
            },
        )
    })
}

/// A type 3 hidden set: its cells but the rescue cell, and what leaves them.
pub(super) struct HiddenSet {
    pub cells: UnitVec<usize>,
    pub eliminations: Vec<(usize, u8)>,
}

/// Type 3's hidden set (the reference's `UniqueLoopType3HiddenHint`), for a deadly
/// pattern on `pair` whose two rescue cells `x` and `y` share unit `u`: `degree` digits,
/// the pair and others that neither rescue cell holds, whose places in the unit but `y`
/// are `degree` cells, `x` among them. One rescue cell holds a digit beyond the pair and
/// none of these, so these digits fill those cells or the same cells with `y` for `x`:
/// either way the set's other cells keep only them: those cells and what leaves them,
/// when anything does. The unit must have more than twice `degree` open cells.
pub(super) fn hidden_set(
    b: &Board,
    pair: u16,
    x: usize,
    y: usize,
    u: usize,
    degree: usize,
) -> Option<HiddenSet> {
    if degree * 2 >= open_cells(b, u).len() {
        return None;
    }
    let unit = b.unit(u);
    let at = |cell: usize| unit.iter().position(|&c| c as usize == cell);
    let (x_bit, y_bit) = (1u16 << at(x)?, 1u16 << at(y)?);
    let places = |d: u8| b.positions(u, d) & !y_bit;
    let extra = (b.cand(x) | b.cand(y)) & !pair;
    let all = ((1u32 << b.n()) - 1) as u16;
    // Each other digit with its places but `y` (one without any makes no set).
    let others: UnitVec<(u8, u16)> = digits(all & !pair & !extra)
        .map(|d| (d, places(d)))
        .filter(|&(_, m)| m != 0)
        .collect();
    let base = digits(pair).fold(0, |m, d| m | places(d));
    first_covering(
        &others,
        degree - 2,
        base,
        degree as u32,
        &mut |chosen, union| {
            let kept = chosen.iter().fold(pair, |m, &d| m | 1 << (d - 1));
            let cells: UnitVec<usize> = digits(union & !x_bit)
                .map(|i| unit[i as usize - 1] as usize)
                .collect();
            let elims: Vec<(usize, u8)> = cells
                .iter()
                .flat_map(|&c| digits(b.cand(c) & !kept).map(move |d| (c, d)))
                .collect();
            (!elims.is_empty()).then(|| HiddenSet {
                cells: cells.clone(),
                eliminations: elims,
            })
        },
    )
}

/// Type 4: one pair digit is confined to the roof within a unit they share: the other
/// pair digit leaves the roof.
pub fn unique_rectangle_4(b: &Board) -> Option<Step> {
    rectangles(b).iter().find_map(|r| {
        let (x, y) = roof(b, r)?;
        let pair: Vec<u8> = digits(r.pair).collect();
        for u in shared_units(b, x, y) {
            for (i, &locked) in pair.iter().enumerate() {
                if two_bits(b.positions(u, locked)) {
                    let other = pair[1 - i];
                    let elims = vec![(x, other), (y, other)];
                    return step(Technique::UniqueRectangle4, &r.corners, elims);
                }
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Geometry, Grid};

    // Corners of the rectangle used below: rows 1-2, columns 1 and 4 (boxes 1 and 2).
    const A: usize = 0;
    const B: usize = 3;
    const C: usize = 9;
    const D: usize = 12;

    /// An empty 9x9 board where the listed cells keep only the listed digits.
    fn board(cells: &[(usize, &[u8])]) -> Board {
        let mut b = Board::new(&Grid::empty(Geometry::CLASSIC));
        for &(cell, keep) in cells {
            for d in 1..=9u8 {
                if !keep.contains(&d) {
                    b.eliminate(cell, d);
                }
            }
        }
        b
    }

    fn eliminations(step: Step) -> Vec<(usize, u8)> {
        let mut e = step.eliminations;
        e.sort_unstable();
        e
    }

    #[test]
    fn type_1_clears_the_pair_from_the_fourth_corner() {
        let b = board(&[(A, &[1, 2]), (B, &[1, 2]), (C, &[1, 2]), (D, &[1, 2, 5])]);
        let s = unique_rectangle_1(&b).unwrap();
        assert_eq!(s.cells, vec![A, B, C, D]);
        assert_eq!(eliminations(s), vec![(D, 1), (D, 2)]);
    }

    /// Row `r`'s cell (from 0) in column 4.
    fn column_4(r: usize) -> usize {
        Cell::new(r, 3).index(9)
    }

    /// The cells of a type 3 rectangle, floor A C on the pair 1 2, roof B D with the
    /// extras 5 and 6, then `more`.
    fn type_3_rectangle<'a>(more: &[(usize, &'a [u8])]) -> Vec<(usize, &'a [u8])> {
        let mut cells: Vec<(usize, &[u8])> =
            vec![(A, &[1, 2]), (C, &[1, 2]), (B, &[1, 2, 5]), (D, &[1, 2, 6])];
        cells.extend_from_slice(more);
        cells
    }

    #[test]
    fn type_2_clears_the_extra_digit_from_cells_seeing_the_roof() {
        let b = board(&[(A, &[1, 2]), (C, &[1, 2]), (B, &[1, 2, 5]), (D, &[1, 2, 5])]);
        let s = unique_rectangle_2(&b).unwrap();
        // Column 4 below the roof, and the rest of box 2.
        let mut expected: Vec<(usize, u8)> = (2..9).map(|r| (column_4(r), 5)).collect();
        expected.extend([4, 5, 13, 14, 22, 23].map(|c| (c, 5)));
        expected.sort_unstable();
        assert_eq!(eliminations(s), expected);
    }

    #[test]
    fn type_3_makes_a_naked_pair_with_the_roof() {
        let z = column_4(5); // row 6, column 4
        let b = board(&type_3_rectangle(&[(z, &[5, 6])]));
        let s = unique_rectangle_3(&b).unwrap();
        assert_eq!(s.cells, vec![A, B, C, D, z]);
        let expected: Vec<(usize, u8)> = [2, 3, 4, 6, 7, 8]
            .iter()
            .flat_map(|&r| [(column_4(r), 5), (column_4(r), 6)])
            .collect();
        assert_eq!(eliminations(s), expected);
    }

    /// Roof extras {5, 6} with two cells holding {5, 7} and {6, 7}: a naked triple on
    /// 5, 6, 7 in column 4, scored 4.7.
    #[test]
    fn type_3_makes_a_naked_triple_with_the_roof() {
        let (y, z) = (column_4(5), column_4(7)); // rows 6 and 8, column 4
        let b = board(&type_3_rectangle(&[(y, &[5, 7]), (z, &[6, 7])]));
        let s = unique_rectangle_3(&b).unwrap();
        assert!((s.score - 4.7).abs() < 1e-9, "{}", s.score);
        assert_eq!(s.cells, vec![A, B, C, D, y, z]);
        let expected: Vec<(usize, u8)> = [2, 3, 4, 6, 8]
            .iter()
            .flat_map(|&r| [(column_4(r), 5), (column_4(r), 6), (column_4(r), 7)])
            .collect();
        assert_eq!(eliminations(s), expected);
    }

    /// Digits 1 and 2 in column 4 only on the roof and in row 6: whichever roof corner
    /// holds its extra digit, the other and row 6 take 1 and 2 (a hidden pair with a
    /// roof corner, the reference's 4.5), so row 6 keeps only them.
    #[test]
    fn type_3_makes_a_hidden_pair_with_a_roof_corner() {
        let z = column_4(5);
        let mut cells = type_3_rectangle(&[(z, &[1, 2, 3, 4])]);
        let rest: &[u8] = &[3, 4, 5, 6, 7, 8, 9];
        cells.extend([2, 3, 4, 6, 7, 8].map(|r| (column_4(r), rest)));
        let s = unique_rectangle_3(&board(&cells)).unwrap();
        assert!((s.score - 4.5).abs() < 1e-9, "{}", s.score);
        assert_eq!(s.cells, vec![A, B, C, D, z]);
        assert_eq!(eliminations(s), vec![(z, 3), (z, 4)]);
    }

    #[test]
    fn type_4_clears_the_other_pair_digit_from_the_roof() {
        let mut cells: Vec<(usize, &[u8])> =
            vec![(A, &[1, 2]), (C, &[1, 2]), (B, &[1, 2, 5]), (D, &[1, 2, 7])];
        // Digit 1 has no other place in column 4 than the roof.
        let rest: &[u8] = &[2, 3, 4, 5, 6, 7, 8, 9];
        cells.extend((2..9).map(|r| (column_4(r), rest)));
        let b = board(&cells);
        let s = unique_rectangle_4(&b).unwrap();
        assert_eq!(eliminations(s), vec![(B, 2), (D, 2)]);
    }

    #[test]
    fn no_rectangle_within_one_box_or_across_four() {
        // Corners in one box (rows 1-2, columns 1-2) or in four (rows 1 and 4, columns
        // 1 and 4) are not unique rectangles.
        for corners in [[0, 1, 9, 10], [0, 3, 27, 30]] {
            let cells: Vec<(usize, &[u8])> = corners
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    (
                        c,
                        if i == 3 {
                            &[1u8, 2, 5][..]
                        } else {
                            &[1u8, 2][..]
                        },
                    )
                })
                .collect();
            assert!(unique_rectangle_1(&board(&cells)).is_none(), "{corners:?}");
        }
    }
}
