//! Unique loops: the unique rectangle's deadly pattern on six cells or more. A loop of
//! cells holding the same two digits, each unit it passes through met by two of its
//! cells of opposite parity along it, could take the digits either way round; so the
//! cells holding more (the rescue cells) must keep one of their other digits. Found as
//! Sukaku Explainer's `UniqueLoops` finds them (lkSudoku's search, on by default there),
//! types 1, 2, 3 (naked sets) and 4; rectangles (loops of four) are
//! [`super::uniqueness`]'s.

use super::common::{completed_set_eliminations, first_covering, open_cells};
use super::uniqueness::{hidden_set, restricted, HIDDEN_DEGREES};
use super::Technique;
use crate::grid::CellSet;
use crate::rate::board::{digits, Board};
use crate::rate::techniques::step::Step;
use std::rc::Rc;

/// A loop of six cells or more, in the order walked, all holding `pair`.
struct Loop {
    cells: Vec<usize>,
    pair: u16,
}

impl Loop {
    /// The reference's score of a loop of this length: 4.6 for six cells, 4.7 for eight,
    /// 5.0 for ten or more (a rectangle, four cells, is 4.5).
    fn score(&self) -> f64 {
        match self.cells.len() {
            ..=6 => 4.6,
            7 | 8 => 4.7,
            _ => 5.0,
        }
    }

    /// The cells holding more than the pair.
    fn rescue(&self, b: &Board) -> Vec<usize> {
        let pair = self.pair;
        self.cells
            .iter()
            .copied()
            .filter(|&c| b.cand(c) != pair)
            .collect()
    }
}

/// The board's loops, kept in its memo: the four finders ask one after another.
fn loops(b: &Board) -> Rc<Vec<Loop>> {
    b.derived(|| find_loops(b))
}

/// Every deadly loop of six cells or more, each once: walked from each cell holding just
/// a pair, from unit to unit of another kind (box, row, column), through cells holding
/// both digits, with at most two rescue cells unless every rescue cell adds the same one
/// digit (type 2); kept when each unit it meets holds two of its cells of opposite parity
/// and no nearby cell holds a digit the rule set bars beside the pair.
///
/// The walks are the reference's, cut where they cannot close into a deadly loop: a cell
/// whose unit already holds two cells of the walk, or one on the same side; and a walk
/// passes by the cells an earlier walk started from (it found their loops first).
fn find_loops(b: &Board) -> Vec<Loop> {
    let mut found: Vec<Loop> = Vec::new();
    let mut seen: Vec<CellSet> = Vec::new();
    // The open cells holding each digit.
    let mut holding = vec![CellSet::default(); b.n() + 1];
    for c in (0..b.cells()).filter(|&c| b.is_open(c)) {
        for d in digits(b.cand(c)) {
            holding[d as usize].insert(c);
        }
    }
    // Per pair: the cells that could be in its loops (see [`paired`]), and the starts
    // walked from so far.
    let mut pairs: Vec<(u16, CellSet, CellSet)> = Vec::new();
    let mut walk = Walk {
        b,
        pair: 0,
        holders: CellSet::default(),
        path: Vec::new(),
        sides: [CellSet::default(); 2],
        met: [vec![0; b.unit_count()], vec![0; b.unit_count()]],
        closed: Vec::new(),
    };
    for start in (0..b.cells()).filter(|&c| b.is_open(c) && b.cand(c).count_ones() == 2) {
        let pair = b.cand(start);
        let at = match pairs.iter().position(|(p, _, _)| *p == pair) {
            Some(at) => at,
            None => {
                let both = digits(pair).fold(None, |s: Option<CellSet>, d| {
                    Some(s.map_or(holding[d as usize], |s| s.and(holding[d as usize])))
                });
                let cells = both.expect("a pair has two digits");
                pairs.push((pair, paired(b, cells), CellSet::default()));
                pairs.len() - 1
            }
        };
        let (_, holders, earlier) = &mut pairs[at];
        let walked_from = *earlier;
        earlier.insert(start);
        if !holders.contains(start) {
            continue;
        }
        walk.pair = pair;
        walk.holders = holders.minus(walked_from);
        walk.path.clear();
        walk.path.push(start);
        walk.sides = [CellSet::default().with(start), CellSet::default()];
        walk.meet(start, 0, 1);
        walk.extend(start, 2, 0, None);
        walk.meet(start, 0, -1);
        for cells in walk.closed.drain(..) {
            let set = cells.iter().fold(CellSet::default(), |s, &c| s.with(c));
            if cells.len() < 6 || seen.contains(&set) || !deadly(b, &cells) {
                continue;
            }
            if cells.iter().any(|&c| restricted(b, c, pair)) {
                continue;
            }
            seen.push(set);
            found.push(Loop { cells, pair });
        }
    }
    found
}

/// Of `cells` (the open cells holding a pair), those that could be in a deadly loop:
/// each of a loop's cells shares its row, its column and its box with another of its
/// cells, so a cell alone in one of them is dropped, until none is.
fn paired(b: &Board, mut cells: CellSet) -> CellSet {
    let layout = b.layout();
    loop {
        let units = layout.rows().chain(layout.columns()).chain(layout.boxes());
        let alone = units
            .map(|u| layout.unit_set(u).and(cells))
            .filter(|s| s.len() == 1)
            .fold(CellSet::default(), CellSet::or);
        if alone.is_empty() {
            return cells;
        }
        cells = cells.minus(alone);
    }
}

/// A depth-first walk for loops through cells holding `pair`.
struct Walk<'b> {
    b: &'b Board,
    pair: u16,
    /// The cells it may pass through (see [`paired`]).
    holders: CellSet,
    path: Vec<usize>,
    /// The path's cells at even and at odd places.
    sides: [CellSet; 2],
    /// Per side, how many of them each unit holds.
    met: [Vec<u8>; 2],
    /// The loops closed so far, as walked.
    closed: Vec<Vec<usize>>,
}

impl Walk<'_> {
    /// Goes on from `cell` (the path's last) through a unit of another kind than `last`,
    /// `allowed` rescue cells left and `extra` the rescue cells' digits so far.
    fn extend(&mut self, cell: usize, allowed: u32, extra: u16, last: Option<usize>) {
        let b = self.b;
        let layout = b.layout();
        let [row, col, bx] = b.units_of(cell);
        let side = self.path.len() % 2;
        for (kind, u) in [bx, row, col].into_iter().enumerate() {
            if Some(kind) == last {
                continue;
            }
            let unit = layout.unit_set(u);
            // Closed back at the start, from the odd side (a loop of odd length meets
            // some unit twice on one side).
            if side == 0 && self.path.len() >= 4 && unit.contains(self.path[0]) {
                self.closed.push(self.path.clone());
            }
            let walked = self.sides[0].or(self.sides[1]);
            for next in unit.and(self.holders).minus(walked).iter() {
                if !self.may_join(next, side) {
                    continue;
                }
                let cand = b.cand(next);
                let more = extra | cand & !self.pair;
                let wide = cand.count_ones() > 2;
                if !wide || more.count_ones() == 1 || allowed > 0 {
                    self.path.push(next);
                    self.sides[side].insert(next);
                    self.meet(next, side, 1);
                    self.extend(
                        next,
                        allowed - u32::from(wide && allowed > 0),
                        more,
                        Some(kind),
                    );
                    self.meet(next, side, -1);
                    self.sides[side].remove(next);
                    self.path.pop();
                }
            }
        }
    }

    /// Whether `next`, joining the walk on `side`, leaves each of its units with at most
    /// two cells of the walk, of opposite sides.
    fn may_join(&self, next: usize, side: usize) -> bool {
        self.b
            .units_of(next)
            .into_iter()
            .all(|u| self.met[side][u] == 0 && self.met[1 - side][u] < 2)
    }

    /// Counts `cell`'s units as met once more (`by` 1) or once less (-1) on `side`.
    fn meet(&mut self, cell: usize, side: usize, by: i8) {
        for u in self.b.units_of(cell) {
            self.met[side][u] = self.met[side][u].wrapping_add_signed(by);
        }
    }
}

/// Whether each box, row and column the loop meets holds two of its cells, one at an odd
/// place along it and one at an even place.
fn deadly(b: &Board, cells: &[usize]) -> bool {
    let (mut odd, mut even) = (Vec::new(), Vec::new());
    for (i, &c) in cells.iter().enumerate() {
        let side = if i % 2 == 1 { &mut odd } else { &mut even };
        for u in b.units_of(c) {
            if side.contains(&u) {
                return false;
            }
            side.push(u);
        }
    }
    odd.sort_unstable();
    even.sort_unstable();
    odd == even
}

/// A loop step on the loop's cells (then `more`), when it eliminates anything.
fn step(
    technique: Technique,
    l: &Loop,
    score: f64,
    more: &[usize],
    elims: Vec<(usize, u8)>,
) -> Option<Step> {
    (!elims.is_empty()).then(|| {
        let mut s = Step::new(technique, l.cells.iter().chain(more).copied().collect());
        s.score = score;
        s.eliminations = elims;
        s
    })
}

/// The lowest-scoring step `f` makes of a loop (the first found among equals).
fn lowest(b: &Board, f: impl Fn(&Loop) -> Option<Step>) -> Option<Step> {
    loops(b)
        .iter()
        .filter_map(f)
        .fold(None, |best: Option<Step>, s| match best {
            Some(b) if b.score <= s.score => Some(b),
            _ => Some(s),
        })
}

/// Type 1: one rescue cell; the pair leaves it.
pub fn unique_loop_1(b: &Board) -> Option<Step> {
    lowest(b, |l| {
        let [cell] = l.rescue(b)[..] else {
            return None;
        };
        let elims = digits(l.pair).map(|d| (cell, d)).collect();
        step(Technique::UniqueLoop1, l, l.score(), &[], elims)
    })
}

/// Type 2: the rescue cells add the same one digit: it leaves the cells seeing them all.
pub fn unique_loop_2(b: &Board) -> Option<Step> {
    lowest(b, |l| {
        let rescue = l.rescue(b);
        let extra = rescue.iter().fold(0, |m, &c| m | b.cand(c)) & !l.pair;
        if rescue.len() < 2 || extra.count_ones() != 1 {
            return None;
        }
        let seeing = rescue.iter().fold(None, |s: Option<CellSet>, &c| {
            Some(s.map_or(b.peer_set(c), |s| s.and(b.peer_set(c))))
        })?;
        let d = extra.trailing_zeros() as u8 + 1;
        let elims = seeing
            .iter()
            .filter(|&c| b.is_open(c) && b.cand(c) & extra != 0 && !rescue.contains(&c))
            .map(|c| (c, d))
            .collect();
        step(Technique::UniqueLoop2, l, l.score(), &[], elims)
    })
}

/// The two rescue cells and the boxes, rows and columns (in that order) holding both.
fn two_rescue(b: &Board, l: &Loop) -> Option<(usize, usize, Vec<usize>)> {
    let [x, y] = l.rescue(b)[..] else {
        return None;
    };
    let (ux, uy) = (b.units_of(x), b.units_of(y));
    let shared = [2, 0, 1]
        .into_iter()
        .filter(|&k| ux[k] == uy[k])
        .map(|k| ux[k])
        .collect();
    Some((x, y, shared))
}

/// Type 3: two rescue cells in one unit, whose extra digits act as one cell of a naked set
/// with other cells of the unit; the set's digits leave the unit's other cells (or, under
/// a rule keeping cells apart across units, every cell seeing the set's cells holding a
/// digit). A tenth per digit of the set past one. Or a hidden set of the pair and other
/// digits with one rescue cell ([`hidden_set`]), a tenth per digit past two. A loop's
/// lowest score wins; of equal scores the naked set, as the reference collects them (by
/// size, the naked set of a size before the hidden one).
pub fn unique_loop_3(b: &Board) -> Option<Step> {
    let generalized = b.geometry().variant().rules().generalized_rating;
    lowest(b, |l| {
        let (x, y, shared) = two_rescue(b, l)?;
        let extra = (b.cand(x) | b.cand(y)) & !l.pair;
        if extra.count_ones() < 2 {
            return None;
        }
        // The extra digits of one rescue cell alone must come from the other cells.
        let both = extra & b.cand(x) & b.cand(y);
        let naked = |degree: usize| {
            shared.iter().find_map(|&u| {
                let open = open_cells(b, u);
                if degree * 2 > open.len() || degree < extra.count_ones() as usize {
                    return None;
                }
                let others: Vec<(usize, u16)> = open
                    .iter()
                    .filter(|&&c| c != x && c != y)
                    .map(|&c| (c, b.cand(c)))
                    .collect();
                first_covering(
                    &others,
                    degree - 1,
                    extra,
                    degree as u32,
                    &mut |set, union| {
                        let covered = set.iter().fold(both, |m, &c| m | b.cand(c));
                        if covered != union || set.iter().any(|&c| b.cand(c).count_ones() < 2) {
                            return None;
                        }
                        let elims = completed_set_eliminations(
                            b,
                            &others,
                            set,
                            &[x, y],
                            union,
                            generalized,
                        );
                        let score = l.score() + 0.1 * (degree - 1) as f64;
                        step(Technique::UniqueLoop3, l, score, set, elims)
                    },
                )
            })
        };
        let hidden = |degree: usize| {
            shared.iter().find_map(|&u| {
                let set = hidden_set(b, l.pair, x, y, u, degree)?;
                let score = l.score() + 0.1 * (degree - 2) as f64;
                step(
                    Technique::UniqueLoop3,
                    l,
                    score,
                    &set.cells,
                    set.eliminations,
                )
            })
        };
        // Naked sets of two to seven cells, hidden ones of two to seven digits.
        (0..=6).find_map(|tenths| {
            let naked = (tenths >= 1).then(|| naked(tenths + 1)).flatten();
            naked.or_else(|| {
                HIDDEN_DEGREES
                    .contains(&(tenths + 2))
                    .then(|| hidden(tenths + 2))
                    .flatten()
            })
        })
    })
}

/// Type 4: a pair digit confined to the two rescue cells within a unit they share: the
/// other pair digit leaves both.
pub fn unique_loop_4(b: &Board) -> Option<Step> {
    lowest(b, |l| {
        let (x, y, shared) = two_rescue(b, l)?;
        let pair: Vec<u8> = digits(l.pair).collect();
        // The reference keeps the last unit that locks each digit, and takes the first
        // digit's.
        let locks = |d: u8| shared.iter().any(|&u| b.positions(u, d).count_ones() == 2);
        let gone = if locks(pair[0]) {
            pair[1]
        } else if locks(pair[1]) {
            pair[0]
        } else {
            return None;
        };
        step(
            Technique::UniqueLoop4,
            l,
            l.score(),
            &[],
            vec![(x, gone), (y, gone)],
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{parse_line, Cell};
    use crate::rate::rate;

    /// Loops of six, eight, ten and twelve cells on calibration puzzles (type 3: on a
    /// 17-clue puzzle; no calibration puzzle takes one): the step, its score and its loop
    /// as the reference names them (`Unique Loop 6 type 1: Cells
    /// r5c4,r5c5,r8c5,r8c9,r9c9,r9c4 on 6, 9`, …; type 3 then the naked set's other
    /// cell), and the puzzle's rating.
    #[test]
    fn loops_are_the_references_cell_for_cell() {
        let cases = [
            (
                "002410000008009000006820371010000604205000107609000050964071800000300700000048500",
                Technique::UniqueLoop1,
                4.6,
                "r5c4 r5c5 r8c5 r8c9 r9c9 r9c4",
                4.6,
            ),
            (
                "340002070071006900009400000010760050700000004030051080000007200007100830020600097",
                Technique::UniqueLoop2,
                4.6,
                "r2c5 r2c4 r5c4 r5c6 r9c6 r9c5",
                4.6,
            ),
            (
                "060000050070906040080301020000702000700030002003000600096080210100000007020010060",
                Technique::UniqueLoop2,
                4.7,
                "r3c3 r3c1 r7c1 r7c4 r9c4 r9c7 r8c7 r8c3",
                4.7,
            ),
            (
                "310000056400000007000902000800643001009801500000000000000060000500000009908030105",
                Technique::UniqueLoop1,
                5.0,
                "r3c7 r3c9 r5c9 r5c2 r6c2 r6c8 r8c8 r8c3 r7c3 r7c7",
                5.0,
            ),
            (
                "700000004054003060600480000000100030008607900030004000000012007040300850500000009",
                Technique::UniqueLoop1,
                5.0,
                "r2c7 r2c9 r8c9 r9c8 r5c8 r5c2 r3c2 r3c3 r9c3 r8c1 r6c1 r6c7",
                5.0,
            ),
            (
                "................12..3.45.........4.....6......7.1.2......7...6...4.8.3..8.5......",
                Technique::UniqueLoop3,
                4.7,
                "r4c5 r5c5 r5c9 r9c9 r9c8 r4c8 r5c7",
                5.5,
            ),
        ];
        let name = |c: usize| {
            let at = Cell::at(c, 9);
            format!("r{}c{}", at.row + 1, at.col + 1)
        };
        for (line, technique, score, cells, rating) in cases {
            let r = rate(&parse_line(line).unwrap());
            let s = r.steps.iter().find(|s| s.technique == technique).unwrap();
            let named: Vec<String> = s.cells.iter().map(|&c| name(c)).collect();
            assert_eq!(named.join(" "), cells, "{line}");
            assert!((s.score - score).abs() < 1e-9, "{line}: {}", s.score);
            assert!((r.score - rating).abs() < 1e-9, "{line}: rated {}", r.score);
        }
    }

    /// The loop r5c4 r5c5 r8c5 r8c9 r9c9 r9c4 on 1 and 2, rescued by r8c9 (5) and r9c9
    /// (6) in column 9, where 1 and 2 lie elsewhere only in r2c9: a hidden pair with a
    /// rescue cell (the loop's 4.6, nothing added), so r2c9 keeps only 1 and 2.
    #[test]
    fn type_3_makes_a_hidden_pair_with_a_rescue_cell() {
        let mut b = Board::new(&crate::grid::Grid::empty(crate::grid::Geometry::CLASSIC));
        let at = |r: usize, c: usize| Cell::new(r, c).index(9);
        let z = at(1, 8);
        let mut keep: Vec<(usize, Vec<u8>)> = [at(4, 3), at(4, 4), at(7, 4), at(8, 3)]
            .map(|c| (c, vec![1, 2]))
            .to_vec();
        keep.extend([(at(7, 8), vec![1, 2, 5]), (at(8, 8), vec![1, 2, 6])]);
        keep.push((z, vec![1, 2, 3, 4]));
        keep.extend([0, 2, 3, 4, 5, 6].map(|r| (at(r, 8), (3..=9).collect())));
        for (cell, digits) in &keep {
            for d in (1..=9).filter(|d| !digits.contains(d)) {
                b.eliminate(*cell, d);
            }
        }
        let s = unique_loop_3(&b).unwrap();
        assert!((s.score - 4.6).abs() < 1e-9, "{}", s.score);
        let mut elims = s.eliminations.clone();
        elims.sort_unstable();
        assert_eq!(elims, vec![(z, 3), (z, 4)]);
    }

    /// A walk is a deadly pattern only when each unit it meets holds one cell of each
    /// side: not when six boxes hold one cell each, nor when a row holds two of one side.
    #[test]
    fn a_loop_meets_each_unit_once_on_each_side() {
        let b = Board::new(&crate::grid::Grid::empty(crate::grid::Geometry::CLASSIC));
        let at = |r: usize, c: usize| Cell::new(r, c).index(9);
        // r5c4 r5c5 r8c5 r8c9 r9c9 r9c4: rows, columns and boxes met once each way.
        let good = [at(4, 3), at(4, 4), at(7, 4), at(7, 8), at(8, 8), at(8, 3)];
        assert!(deadly(&b, &good));
        // r1c1 r1c4 r5c4 r5c7 r9c7 r9c1: boxes 1, 5, 9 on one side, 2, 6, 7 on the other.
        let spread = [at(0, 0), at(0, 3), at(4, 3), at(4, 6), at(8, 6), at(8, 0)];
        assert!(!deadly(&b, &spread));
        // r1c1 r1c4 r1c7 ...: row 1 twice on the even side.
        let bad = [at(0, 0), at(0, 3), at(0, 6), at(4, 6), at(4, 0), at(8, 0)];
        assert!(!deadly(&b, &bad));
    }
}
