//! The 45 rule: innies and outies of rows, columns, boxes and unions of neighbouring
//! ones make known sums.

use super::matching::{taken_in, within};
use super::{puzzle_derived, snapshot};
use crate::grid::{cell_names, Cages, Geometry};
use crate::rate::board::{digits, Board};
use crate::rate::techniques::step::Step;
use crate::rate::techniques::Technique;
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

/// Score of the 45 rule over one unit; each further unit in the region adds
/// [`UNION_STEP`].
pub(super) const INNIES_BASE: f64 = 2.5;
pub(super) const UNION_STEP: f64 = 0.5;

/// Most open innies or outies the 45 rule reasons about at once.
pub(super) const MOST_CELLS: usize = 4;

/// The 45 rule over a puzzle's regions, built once per puzzle: every side in one list and
/// their cells in another (a few allocations instead of several per region).
pub(super) struct Rule45 {
    pub(super) regions: Vec<Region>,
    /// Every region's sides, region after region; a side's place here is its place in
    /// [`PuzzleDerived::quiet`].
    pub(super) sides: Vec<Side>,
    /// The cells of every side.
    pub(super) cells: Vec<usize>,
}

impl Rule45 {
    /// Adds a side: its `plus` cells are the last ones from that place on, its `minus`
    /// cells are moved after them.
    fn push_side(&mut self, name: &'static str, plus: usize, minus: &mut Vec<usize>, sum: i64) {
        let at = self.cells.len();
        self.cells.append(minus);
        self.sides.push(Side {
            name,
            plus: plus..at,
            minus: at..self.cells.len(),
            sum,
            plus_differ: false,
        });
    }

    /// The cells of `side` whose digits count, and those whose digits are taken away.
    fn plus_minus(&self, side: &Side) -> (&[usize], &[usize]) {
        (
            &self.cells[side.plus.clone()],
            &self.cells[side.minus.clone()],
        )
    }
}

/// A region of whole units (each holding every digit once), for the 45 rule, with its
/// sides: what the cages fix of it.
pub(super) struct Region {
    pub(super) name: Rc<str>,
    pub(super) units: usize,
    /// Its sides in [`Rule45::sides`].
    pub(super) sides: Range<usize>,
}

/// One side of the 45 rule over a region: the digits of `plus` less those of `minus`
/// (ranges of [`Rule45::cells`]) make `sum`.
pub(super) struct Side {
    /// `innies`, `outies` or `innies − outies`.
    pub(super) name: &'static str,
    pub(super) plus: Range<usize>,
    pub(super) minus: Range<usize>,
    pub(super) sum: i64,
    /// Whether every two cells of `plus` see each other or share a cage (so their
    /// digits differ, as those of one unit's innies do).
    pub(super) plus_differ: bool,
}

/// The regions of the 45 rule, fewest units first: single rows, columns and boxes; then
/// two neighbouring rows, columns or boxes; then three rows or columns (9×9).
pub(super) fn regions(b: &Board) -> Rc<Vec<RegionShape>> {
    thread_local! {
        /// The regions of each grid shape met so far (killer grids come in three).
        static BUILT: RefCell<Vec<(Geometry, Rc<Vec<RegionShape>>)>> =
            const { RefCell::new(Vec::new()) };
    }
    let shape = b.geometry();
    BUILT.with_borrow_mut(|built| {
        if let Some((_, regions)) = built.iter().find(|(s, _)| *s == shape) {
            return Rc::clone(regions);
        }
        let regions = Rc::new(build_regions(b));
        built.push((shape, Rc::clone(&regions)));
        regions
    })
}

/// A region of the 45 rule as the grid's shape alone makes it: its name, its number of
/// units and its cells.
pub(super) type RegionShape = (Rc<str>, usize, Vec<usize>);

/// [`regions`], built.
pub(super) fn build_regions(b: &Board) -> Vec<RegionShape> {
    let n = b.n();
    let g = b.geometry();
    let layout = b.layout();
    let cells_of = |u: usize| layout.unit(u).iter().map(|&c| c as usize);
    let most = (n / 3).max(2);
    let mut out = Vec::new();
    for k in 1..=most {
        for first in 0..=n - k {
            let lines = first..first + k;
            let span = if k == 1 {
                format!("{}", first + 1)
            } else {
                format!("{}–{}", first + 1, first + k)
            };
            let plural = if k == 1 { "" } else { "s" };
            out.push((
                format!("row{plural} {span}").into(),
                k,
                lines
                    .clone()
                    .flat_map(|r| cells_of(layout.row(r)))
                    .collect(),
            ));
            out.push((
                format!("column{plural} {span}").into(),
                k,
                lines.flat_map(|c| cells_of(layout.column(c))).collect(),
            ));
        }
        for bx in 0..n {
            let box_cells = |bx: usize| cells_of(layout.box_unit(bx));
            match k {
                1 => out.push((format!("box {}", bx + 1).into(), 1, box_cells(bx).collect())),
                2 => {
                    for other in g.boxes_right_and_below(bx).into_iter().flatten() {
                        out.push((
                            format!("boxes {}+{}", bx + 1, other + 1).into(),
                            2,
                            box_cells(bx).chain(box_cells(other)).collect(),
                        ));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Every region's sides, from the cages alone.
pub(super) fn rule45(b: &Board, cages: &Cages) -> Rule45 {
    let n = b.n();
    let unit_sum = (n * (n + 1) / 2) as i64;
    let shapes = regions(b);
    let mut out = Rule45 {
        regions: Vec::with_capacity(shapes.len()),
        sides: Vec::with_capacity(3 * shapes.len()),
        cells: Vec::new(),
    };
    let mut inside = vec![false; b.cells()];
    // Per cage: whether the region met it yet, and how many of its cells lie inside.
    let (mut seen, mut inside_count) = (vec![false; cages.count()], vec![0; cages.count()]);
    // Cells of a side's second list while its first goes in.
    let mut later = Vec::new();
    for (name, units, cells) in shapes.iter() {
        let units = *units;
        inside.fill(false);
        seen.fill(false);
        inside_count.fill(0);
        for &c in cells {
            inside[c] = true;
            inside_count[cages.cage_of(c)] += 1;
        }
        let crossing = |k: usize| (1..cages.cells(k).len()).contains(&inside_count[k]);
        let first_side = out.sides.len();
        // Innies and outies: the cells in and out of the cages that cross the region's
        // edge, cage by cage as the region's cells meet them.
        let (mut whole, mut partial) = (0i64, 0i64);
        let innies = out.cells.len();
        for &c in cells {
            let k = cages.cage_of(c);
            if std::mem::replace(&mut seen[k], true) {
                continue;
            }
            if !crossing(k) {
                whole += i64::from(cages.sum(k));
                continue;
            }
            partial += i64::from(cages.sum(k));
            for &m in cages.cells(k) {
                let m = m as usize;
                if inside[m] {
                    &mut out.cells
                } else {
                    &mut later
                }
                .push(m);
            }
        }
        let innie_sum = unit_sum * units as i64 - whole;
        out.push_side("innies", innies, &mut Vec::new(), innie_sum);
        let outies = out.cells.len();
        out.cells.append(&mut later);
        out.push_side("outies", outies, &mut Vec::new(), partial - innie_sum);
        // Innies minus outies: the crossing cages mostly inside count whole, so their
        // cells outside are subtracted and the other crossing cages' cells inside added.
        let mut mixed_sum = innie_sum;
        let plus = out.cells.len();
        for k in (0..cages.count()).filter(|&k| crossing(k)) {
            let members = cages.cells(k).iter().map(|&m| m as usize);
            if 2 * inside_count[k] > cages.cells(k).len() {
                mixed_sum -= i64::from(cages.sum(k));
                later.extend(members.filter(|&m| !inside[m]));
            } else {
                out.cells.extend(members.filter(|&m| inside[m]));
            }
        }
        if out.cells.len() > plus && !later.is_empty() {
            out.push_side("innies − outies", plus, &mut later, mixed_sum);
        } else {
            out.cells.truncate(plus);
            later.clear();
        }
        for side in &mut out.sides[first_side..] {
            let plus = &out.cells[side.plus.clone()];
            side.plus_differ = plus
                .iter()
                .enumerate()
                .all(|(i, &a)| plus[..i].iter().all(|&c| differ(b, cages, a, c)));
        }
        out.regions.push(Region {
            name: Rc::clone(name),
            units,
            sides: first_side..out.sides.len(),
        });
    }
    out
}

/// The 45 rule: the cells of a region's cages that stick in (innies) or out (outies) make
/// a known sum; when they are few, their candidates keep only what makes it. Scores
/// [`INNIES_BASE`] for one unit, [`UNION_STEP`] more per further unit; regions are tried
/// fewest units first, so the first step found scores least.
pub fn innies_outies(b: &Board, below: f64) -> Option<Step> {
    rule45_steps(b, below)?.next()
}

/// Every step [`innies_outies`] could take below `below` on the board as it stands, in
/// its order.
pub fn every_innies_outies(b: &Board, below: f64) -> Vec<Step> {
    rule45_steps(b, below).map_or_else(Vec::new, Iterator::collect)
}

/// [`innies_outies`]' steps, found as they are asked for.
pub(super) fn rule45_steps(b: &Board, below: f64) -> Option<impl Iterator<Item = Step> + '_> {
    let cages = b.cages()?;
    let n = b.n();
    let derived = puzzle_derived(b, cages);
    // A side's innies and outies are distinct cells: one allocation for every snapshot,
    // and one for every side's open cells.
    let mut now = Vec::with_capacity(b.cells());
    let mut open = Vec::with_capacity(b.cells());
    // Every region scoring below `below` (fewest units first), then each of its sides.
    let (scored, counted) = (Rc::clone(&derived), Rc::clone(&derived));
    let sides = (0..derived.rule45.regions.len())
        .take_while(move |&r| region_score(&scored.rule45.regions[r]) < below - 1e-9)
        .flat_map(move |r| counted.rule45.regions[r].sides.clone().map(move |i| (r, i)));
    Some(sides.filter_map(move |(r, i)| {
        let rule45 = &derived.rule45;
        let (region, side) = (&rule45.regions[r], &rule45.sides[i]);
        let (plus, minus) = rule45.plus_minus(side);
        let mut quiet = derived.quiet.borrow_mut();
        snapshot(b, plus.iter().chain(minus).copied(), &mut now);
        if quiet[i].as_ref() == Some(&now) {
            return None;
        }
        let Some((mut step, rest)) =
            restrict(b, plus, minus, side.sum, side.plus_differ, &mut open)
        else {
            // The side's last snapshot's room, reused.
            let kept = quiet[i].get_or_insert_with(Vec::new);
            kept.clear();
            kept.extend_from_slice(&now);
            return None;
        };
        step.score = region_score(region);
        step.describe(b, || {
            let names =
                |list: &[usize]| cell_names(n, list.iter().copied().filter(|&c| b.is_open(c)));
            let expr = if minus.iter().any(|&c| b.is_open(c)) {
                format!("{} − ({})", names(plus), names(minus))
            } else {
                names(plus)
            };
            format!("{} of {}: {expr} = {rest}", side.name, region.name)
        });
        Some(step)
    }))
}

/// The 45 rule's score over `region`.
pub(super) fn region_score(region: &Region) -> f64 {
    INNIES_BASE + UNION_STEP * (region.units - 1) as f64
}

/// Keeps, in the open cells of `plus` and `minus`, only the candidates of some assignment
/// with `sum(plus) - sum(minus) = sum` (cells that see each other, or share a cage,
/// differ); a lone open cell is placed. Returns the step and what the open cells make;
/// `None` when nothing changes, or no cell is open, or the cells are too many: any number
/// of cells with distinct digits (the innies of one unit) goes by digit combinations,
/// others up to [`MOST_CELLS`] by trying every assignment.
///
/// `plus_differ`: whether every two cells of `plus` differ (see [`Side::plus_differ`]);
/// `open`: room for the open cells.
pub(super) fn restrict(
    b: &Board,
    plus: &[usize],
    minus: &[usize],
    sum: i64,
    plus_differ: bool,
    open: &mut Vec<usize>,
) -> Option<(Step, i64)> {
    let placed = |list: &[usize]| list.iter().map(|&c| i64::from(b.value(c))).sum::<i64>();
    let target = sum - placed(plus) + placed(minus);
    // The open cells of `plus`, then those of `minus`, in the caller's room (this runs for
    // every side that changed, at most steps of a killer rating).
    open.clear();
    open.extend(plus.iter().copied().filter(|&c| b.is_open(c)));
    let open_plus = open.len();
    open.extend(minus.iter().copied().filter(|&c| b.is_open(c)));
    let open_minus = &open[open_plus..];
    let cages = b.cages()?;
    let must_differ = |a: usize, c: usize| differ(b, cages, a, c);
    if open.is_empty() {
        return None;
    }
    let distinct = open_minus.is_empty()
        && (plus_differ
            || open
                .iter()
                .enumerate()
                .all(|(i, &a)| open[..i].iter().all(|&c| must_differ(a, c))));
    let allowed: Vec<u16> = if distinct {
        let held = open.iter().fold(0u16, |m, &c| m | b.cand(c));
        let target = u32::try_from(target).ok()?;
        // `taken_in` passes over the sets that do not fit: no need to test them first.
        taken_in(b, open, within(b, open.len(), target, held))
    } else if open.len() <= MOST_CELLS {
        Assignments::new(b, open, open_minus, &must_differ).allowed(target)
    } else {
        return None;
    };
    if open.len() == 1 {
        let m = allowed[0] & b.cand(open[0]);
        if m.count_ones() != 1 || b.cand(open[0]).count_ones() == 1 {
            return None;
        }
        let mut step = Step::new(Technique::Innies45, open.clone());
        step.placements = vec![(open[0], m.trailing_zeros() as u8 + 1)];
        return Some((step, target));
    }
    let eliminations: Vec<(usize, u8)> = open
        .iter()
        .zip(&allowed)
        .flat_map(|(&c, &keep)| digits(b.cand(c) & !keep).map(move |d| (c, d)))
        .collect();
    (!eliminations.is_empty()).then(|| {
        let step = Step::new(Technique::Innies45, open.clone()).eliminating(eliminations);
        (step, target)
    })
}

/// Whether cells `a` and `c` must hold different digits: they see each other or share a
/// cage.
pub(super) fn differ(b: &Board, cages: &Cages, a: usize, c: usize) -> bool {
    b.sees(a, c) || cages.cage_of(a) == cages.cage_of(c)
}

/// The assignments of digits to at most [`MOST_CELLS`] open cells, each weighed +1 or
/// −1, whose weighed sum is a target; cells that see each other or share a cage differ.
pub(super) struct Assignments {
    cand: [u16; MOST_CELLS],
    sign: [i64; MOST_CELLS],
    /// Per cell, the earlier cells it must differ from (bit j: cell j).
    differs: [u8; MOST_CELLS],
    /// `low[i]..=high[i]`: what cells `i..` can add up to, distinctness aside.
    low: [i64; MOST_CELLS + 1],
    high: [i64; MOST_CELLS + 1],
    count: usize,
}

impl Assignments {
    fn new(
        b: &Board,
        open: &[usize],
        minus: &[usize],
        differ: &dyn Fn(usize, usize) -> bool,
    ) -> Assignments {
        let (mut cand, mut sign, mut differs) = ([0; MOST_CELLS], [1; MOST_CELLS], [0; MOST_CELLS]);
        for (i, &c) in open.iter().enumerate() {
            cand[i] = b.cand(c);
            sign[i] = if minus.contains(&c) { -1 } else { 1 };
            for (j, &e) in open[..i].iter().enumerate() {
                differs[i] |= u8::from(differ(c, e)) << j;
            }
        }
        Assignments::of(&cand[..open.len()], &sign, &differs)
    }

    /// The assignments to cells of candidates `cand`, weighed by `sign`, each differing
    /// from the earlier cells `differs` marks.
    fn of(cand: &[u16], sign: &[i64; MOST_CELLS], differs: &[u8; MOST_CELLS]) -> Assignments {
        let mut a = Assignments {
            cand: [0; MOST_CELLS],
            sign: *sign,
            differs: *differs,
            low: [0; MOST_CELLS + 1],
            high: [0; MOST_CELLS + 1],
            count: cand.len(),
        };
        a.cand[..cand.len()].copy_from_slice(cand);
        for i in (0..a.count).rev() {
            let least = i64::from(a.cand[i].trailing_zeros() as u8 + 1);
            let most = i64::from(16 - a.cand[i].leading_zeros() as u8);
            let (lo, hi) = if a.sign[i] > 0 {
                (least, most)
            } else {
                (-most, -least)
            };
            a.low[i] = a.low[i + 1] + lo;
            a.high[i] = a.high[i + 1] + hi;
        }
        a
    }

    /// Each cell's digits in some assignment making `target` (all candidates once every
    /// candidate is known to take part, which is all the caller needs).
    fn allowed(&self, target: i64) -> Vec<u16> {
        let mut allowed = [0u16; MOST_CELLS];
        let mut chosen = [0u8; MOST_CELLS];
        self.extend(0, target, &mut chosen, &mut allowed);
        allowed[..self.count].to_vec()
    }

    /// Tries every digit of cell `i` (and on) that can still make `left`, marking the
    /// digits of each full assignment; `true` once every candidate is marked.
    fn extend(
        &self,
        i: usize,
        left: i64,
        chosen: &mut [u8; MOST_CELLS],
        allowed: &mut [u16; MOST_CELLS],
    ) -> bool {
        if i == self.count {
            if left != 0 {
                return false;
            }
            for (a, &d) in allowed.iter_mut().zip(&chosen[..self.count]) {
                *a |= 1 << (d - 1);
            }
            return allowed[..self.count] == self.cand[..self.count];
        }
        if left < self.low[i] || left > self.high[i] {
            return false;
        }
        // Nothing new below: every digit chosen so far is marked already, and so is every
        // candidate of the cells still to choose. (Most branches, once a few assignments
        // have marked most candidates: the search then looks for the rest alone.)
        let chosen_marked = (0..i).all(|j| allowed[j] & 1 << (chosen[j] - 1) != 0);
        if chosen_marked && (i..self.count).all(|j| allowed[j] == self.cand[j]) {
            return false;
        }
        let tries = if i + 1 < self.count {
            self.cand[i]
        } else {
            // The last cell can only take the digit that makes `left`.
            match left * self.sign[i] {
                d @ 1..=16 => self.cand[i] & 1 << (d - 1),
                _ => 0,
            }
        };
        for d in digits(tries) {
            if (0..i).any(|j| self.differs[i] >> j & 1 == 1 && chosen[j] == d) {
                continue;
            }
            chosen[i] = d;
            if self.extend(i + 1, left - self.sign[i] * i64::from(d), chosen, allowed) {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rand;

    #[test]
    fn assignments_match_trying_every_one() {
        let mut rng = Rand::new(5);
        for _ in 0..5000 {
            let count = 1 + rng.below(MOST_CELLS as u32) as usize;
            let cand: Vec<u16> = (0..count).map(|_| 1 + rng.below(511) as u16).collect();
            let mut sign = [1i64; MOST_CELLS];
            let mut differs = [0u8; MOST_CELLS];
            for i in 0..count {
                sign[i] = if rng.below(3) == 0 { -1 } else { 1 };
                differs[i] = (rng.below(16) as u8) & ((1 << i) - 1);
            }
            let target = rng.below(30) as i64 - 8;
            let mut expected = vec![0u16; count];
            for code in 0..9usize.pow(count as u32) {
                let ds: Vec<u8> = (0..count)
                    .map(|i| (code / 9usize.pow(i as u32) % 9) as u8 + 1)
                    .collect();
                let ok = (0..count).all(|i| {
                    cand[i] >> (ds[i] - 1) & 1 == 1
                        && (0..i).all(|j| differs[i] >> j & 1 == 0 || ds[i] != ds[j])
                }) && (0..count).map(|i| sign[i] * i64::from(ds[i])).sum::<i64>()
                    == target;
                if ok {
                    for i in 0..count {
                        expected[i] |= 1 << (ds[i] - 1);
                    }
                }
            }
            let allowed = Assignments::of(&cand, &sign, &differs).allowed(target);
            // Once every candidate takes part the search stops early: the same either way
            // for what the 45 rule removes (the candidates outside `allowed`).
            let removed: Vec<u16> = allowed.iter().zip(&cand).map(|(&a, &c)| c & !a).collect();
            let truly: Vec<u16> = expected.iter().zip(&cand).map(|(&a, &c)| c & !a).collect();
            assert_eq!(removed, truly, "{cand:?} {sign:?} {differs:?} = {target}");
        }
    }
}
