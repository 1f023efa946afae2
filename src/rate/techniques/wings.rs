//! XY-Wing and XYZ-Wing, and the larger wings of Sukaku Explainer's scale (WXYZ, VWXYZ,
//! UVWXYZ):
//! a bivalue cell against an almost locked set.

use super::common::{first_covering, UnitVec};
use super::Technique;
use crate::grid::{CellSet, Layout};
use crate::rate::board::{digits, two_bits, Board};
use crate::rate::memo::{Carried, UnitDerived, UnitSearch};
use crate::rate::techniques::step::Step;

/// Removes `digit` from open cells that see every cell of `pattern`.
fn seen_by_all(b: &Board, pattern: &[usize], digit: u8) -> Vec<(usize, u8)> {
    let bit = 1u16 << (digit - 1);
    let seen = pattern
        .iter()
        .fold(b.peer_set(pattern[0]), |s, &p| s.and(b.peer_set(p)));
    seen.iter()
        .filter(|&c| b.is_open(c) && b.cand(c) & bit != 0)
        .map(|c| (c, digit))
        .collect()
}

/// Open cells with two candidates.
fn bivalue(b: &Board) -> CellSet {
    let mut set = CellSet::default();
    (0..b.cells())
        .filter(|&c| b.is_open(c) && two_bits(b.cand(c)))
        .for_each(|c| set.insert(c));
    set
}

/// Pivot {a,b}, pincers {a,c} and {b,c} seeing it: c leaves cells seeing both pincers.
pub fn xy_wing(b: &Board) -> Option<Step> {
    let cells = bivalue(b);
    for pivot in cells.iter() {
        let pm = b.cand(pivot);
        let near = cells.and(b.peer_set(pivot));
        for x in near.iter() {
            let xm = b.cand(x);
            if (xm & pm).count_ones() != 1 {
                continue;
            }
            let c = xm & !pm;
            for y in near.iter().filter(|&y| y != x) {
                let ym = b.cand(y);
                if ym == (pm & !xm) | c {
                    let digit = c.trailing_zeros() as u8 + 1;
                    let elims = seen_by_all(b, &[x, y], digit);
                    if !elims.is_empty() {
                        return Some(
                            Step::new(Technique::XyWing, vec![pivot, x, y]).eliminating(elims),
                        );
                    }
                }
            }
        }
    }
    None
}

/// Pivot {a,b,c}, pincers {a,c} and {b,c} seeing it: c leaves cells seeing all three.
pub fn xyz_wing(b: &Board) -> Option<Step> {
    let pairs = bivalue(b);
    for pivot in (0..b.cells()).filter(|&c| b.is_open(c) && b.cand(c).count_ones() == 3) {
        let pm = b.cand(pivot);
        let wings: Vec<usize> = pairs
            .and(b.peer_set(pivot))
            .iter()
            .filter(|&w| b.cand(w) & !pm == 0)
            .collect();
        for (i, &x) in wings.iter().enumerate() {
            for &y in &wings[i + 1..] {
                let common = b.cand(x) & b.cand(y);
                if b.cand(x) == b.cand(y) || common.count_ones() != 1 {
                    continue;
                }
                for digit in digits(common) {
                    let elims = seen_by_all(b, &[pivot, x, y], digit);
                    if !elims.is_empty() {
                        return Some(
                            Step::new(Technique::XyzWing, vec![pivot, x, y]).eliminating(elims),
                        );
                    }
                }
            }
        }
    }
    None
}

/// The wings past XYZ on Sukaku Explainer's extended scale (WXYZ with `k` = 3, VWXYZ with
/// 4, UVWXYZ with 5): a bivalue cell {x, z} and an almost locked set of `k` cells that
/// see each other (every cell with two candidates or more, `k + 1` digits between them, x
/// and z among them), where x is restricted (each set cell holding x sees the bivalue
/// cell). One of the two ends holds z, so z leaves cells seeing the bivalue cell and every
/// set cell holding z. When z is restricted too (doubly linked), the set's other digits
/// are locked in it and leave cells seeing all their places in it, and x leaves cells
/// seeing all its places, as z does.
///
/// The sets come from units, and where the rule set lets cells see each other without
/// sharing a unit (a knight's move, a diagonal beside a row), from such groups too, as
/// the reference builds its sets from cells that see each other.
///
/// Scored as Sukaku Explainer does, by the set's largest cell `l`: the base plus a tenth
/// for each step `l` is from the ends of its range, up to the middle (see
/// [`als_wing_score`]). The lowest-scoring wing below `below` is returned. A unit whose
/// sets made none is passed over until it changes or the board gains a bivalue cell whose
/// two digits are among one of its sets'.
pub fn als_wing(b: &Board, k: usize, below: f64) -> Option<Step> {
    let technique = match k {
        3 => Technique::WxyzWing,
        4 => Technique::VwxyzWing,
        5 => Technique::UvwxyzWing,
        _ => unreachable!("ALS wings are registered for sets of 3, 4 and 5 cells"),
    };
    let lowest = (2..=k as u32 + 1)
        .map(|l| als_wing_score(technique, k, l))
        .fold(f64::INFINITY, f64::min);
    if lowest >= below - 1e-9 {
        return None;
    }
    let search = WingSearch::new(b, technique, k, below);
    let mut best: Option<Step> = None;
    let memo = UnitSearch::AlsWing(k);
    let sets_of = |u: usize| {
        b.unit_derived(UnitDerived::AlmostLockedSets(k), u, || {
            almost_locked_sets(b, u, k)
        })
    };
    for u in 0..b.unit_count() {
        // A new bivalue cell can end a wing of the unit's sets only when its two digits
        // are among one set's.
        let ends_a_set = |pairs: &[u16]| {
            let sets = sets_of(u);
            pairs
                .iter()
                .any(|&pair| sets.iter().any(|als| pair & !als.union == 0))
        };
        if b.als_found_nothing_since(memo, u, ends_a_set) {
            continue;
        }
        // Whether every set of the unit was looked at (none passed over for its score)
        // and none made a wing: then the unit shows none until it or the bivalue cells
        // change.
        let mut whole = true;
        for als in sets_of(u).iter() {
            match search.look_at(b, als, &mut best) {
                Looked::Nothing => {}
                Looked::PassedOver => whole = false,
                Looked::Wing if best.as_ref().is_some_and(|s| s.score <= lowest + 1e-9) => {
                    // Nothing scores lower: stop looking.
                    return best;
                }
                Looked::Wing => whole = false,
            }
        }
        if whole {
            b.found_nothing(memo, u);
        }
    }
    if b.geometry().variant().rules().peers_span_units() {
        for als in spanning_sets(b, k).sets.iter() {
            if search.look_at(b, als, &mut best) == Looked::Wing
                && best.as_ref().is_some_and(|s| s.score <= lowest + 1e-9)
            {
                return best;
            }
        }
    }
    best
}

/// What looking at one almost locked set came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Looked {
    /// It cannot beat the best wing so far (or `below`): not looked at.
    PassedOver,
    /// It makes no wing.
    Nothing,
    /// It makes a wing, now the best.
    Wing,
}

/// The bivalue cells an ALS wing can end in, read once per search.
struct WingSearch {
    technique: Technique,
    k: usize,
    below: f64,
    /// Open cells with two candidates.
    ends: CellSet,
    /// Per digit (1 to 16: candidate masks are `u16`): the bivalue cells holding it.
    holding: [CellSet; 17],
    /// Per digit: the digits it shares a bivalue cell with (an ALS holding no bivalue
    /// cell's pair is passed over at once).
    partners: [u16; 17],
}

impl WingSearch {
    fn new(b: &Board, technique: Technique, k: usize, below: f64) -> WingSearch {
        let ends = bivalue(b);
        let mut holding = [CellSet::default(); 17];
        let mut partners = [0u16; 17];
        for end in ends.iter() {
            let pair = b.cand(end);
            for d in digits(pair) {
                holding[d as usize].insert(end);
                partners[d as usize] |= pair & !(1 << (d - 1));
            }
        }
        WingSearch {
            technique,
            k,
            below,
            ends,
            holding,
            partners,
        }
    }

    /// Looks for a wing of `als` scoring below `best` (or `below`), and keeps it there.
    fn look_at(&self, b: &Board, als: &AlmostLockedSet, best: &mut Option<Step>) -> Looked {
        let score = als_wing_score(self.technique, self.k, als.largest);
        let beaten = best.as_ref().map_or(self.below, |s| s.score);
        if score >= beaten - 1e-9 {
            return Looked::PassedOver;
        }
        let holds_a_pair = digits(als.union).any(|d| self.partners[d as usize] & als.union != 0);
        if !holds_a_pair {
            return Looked::Nothing;
        }
        let set = &als.cells[..];
        // The bivalue cells off the set whose two digits are the set's.
        let all = ((1u32 << b.n()) - 1) as u16;
        let outside = digits(all & !als.union)
            .fold(CellSet::default(), |s, d| s.or(self.holding[d as usize]));
        let mut inside = self.ends.minus(outside);
        set.iter().for_each(|&c| inside.remove(c));
        let cell_units = &b.layout().cell_units;
        let shared = set.iter().fold(!0u64, |m, &c| m & cell_units[c]);
        for end in inside.iter() {
            // An end in a unit with the whole set makes a naked set of k + 1 cells there:
            // the naked subsets and locked candidates, tried before, find whatever it
            // removes.
            if cell_units[end] & shared != 0 {
                continue;
            }
            let peers = b.peer_set(end);
            if let Some(elims) = als_wing_eliminations(b, set, als.union, end, peers) {
                *best = Some(Step {
                    score,
                    ..Step::new(self.technique, [set, &[end]].concat()).eliminating(elims)
                });
                return Looked::Wing;
            }
        }
        Looked::Nothing
    }
}

/// The almost locked sets of `k` cells that leave every unit, and the candidates they
/// were read from (0 for a placed cell).
struct SpanningSets {
    candidates: Vec<u16>,
    sets: Vec<AlmostLockedSet>,
}

/// The almost locked sets of `k` cells that see each other but share no one unit (each
/// cell with 2 to `k + 1` candidates, `k + 1` digits between them), in ascending order of
/// their cells. Only rule sets whose peers span units have them.
///
/// A set depends on its cells' candidates alone, so the sets of the last call are carried
/// over: those of cells whose candidates changed since go, and only sets holding such a
/// cell are looked for again (a step changes a few cells; rebuilding them all at every
/// call cost more than half again as much).
fn spanning_sets(b: &Board, k: usize) -> std::rc::Rc<SpanningSets> {
    let candidates: Vec<u16> = (0..b.cells())
        .map(|c| if b.is_open(c) { b.cand(c) } else { 0 })
        .collect();
    b.carried(
        Carried::SpanningSets(k),
        |last: Option<std::rc::Rc<SpanningSets>>| {
            let mut pool = CellSet::default();
            (0..b.cells())
                .filter(|&c| (2..=k as u32 + 1).contains(&candidates[c].count_ones()))
                .for_each(|c| pool.insert(c));
            let search = GrowSets::new(b, k, pool);
            let Some(last) = last else {
                let mut sets = Vec::new();
                search.grow(pool, &mut UnitVec::new(), 0, !0, &mut sets);
                return std::rc::Rc::new(SpanningSets { candidates, sets });
            };
            if last.candidates == candidates {
                return last;
            }
            let mut changed = CellSet::default();
            (0..b.cells())
                .filter(|&c| last.candidates[c] != candidates[c])
                .for_each(|c| changed.insert(c));
            let mut sets: Vec<AlmostLockedSet> = last
                .sets
                .iter()
                .filter(|s| s.cells.iter().all(|&c| !changed.contains(c)))
                .cloned()
                .collect();
            // The sets holding a changed cell, each from its first changed cell.
            let mut earlier = CellSet::default();
            for c in changed.and(pool).iter() {
                let others = pool.minus(earlier).and(b.peer_set(c));
                let mut chosen = UnitVec::new();
                chosen.push(c);
                let shared = b.layout().cell_units[c];
                search.grow(others, &mut chosen, candidates[c], shared, &mut sets);
                earlier.insert(c);
            }
            sets.sort_by(|x, y| x.cells.cmp(&y.cells));
            std::rc::Rc::new(SpanningSets { candidates, sets })
        },
    )
}

/// The search for almost locked sets across units: the board, its layout, the set size.
struct GrowSets<'a> {
    b: &'a Board,
    layout: &'a Layout,
    k: usize,
    /// Per digit (1 to 16): the pool's cells holding it.
    holding: [CellSet; 17],
}

impl<'a> GrowSets<'a> {
    fn new(b: &'a Board, k: usize, pool: CellSet) -> GrowSets<'a> {
        let mut holding = [CellSet::default(); 17];
        for c in pool.iter() {
            digits(b.cand(c)).for_each(|d| holding[d as usize].insert(c));
        }
        GrowSets {
            b,
            layout: b.layout(),
            k,
            holding,
        }
    }

    /// Grows `chosen` (digits `union`, units all share `shared`) by cells of `pool`,
    /// each a peer of those chosen before it, in ascending order.
    fn grow(
        &self,
        pool: CellSet,
        chosen: &mut UnitVec<usize>,
        union: u16,
        shared: u64,
        sets: &mut Vec<AlmostLockedSet>,
    ) {
        let k = self.k;
        if chosen.len() == k {
            if union.count_ones() as usize == k + 1 && shared == 0 {
                let mut cells = chosen.clone();
                cells.sort_unstable();
                sets.push(AlmostLockedSet::of(self.b, &cells, union));
            }
            return;
        }
        // With all k + 1 digits chosen, only cells holding none other can join.
        let pool = if union.count_ones() as usize == k + 1 {
            let all = ((1u32 << self.b.n()) - 1) as u16;
            digits(all & !union).fold(pool, |p, d| p.minus(self.holding[d as usize]))
        } else {
            pool
        };
        if pool.len() < k - chosen.len() {
            return;
        }
        // Cells that all lie in a unit the chosen share keep the set in that unit: the
        // unit's own sets hold whatever grows from here. (Under rows, columns and boxes
        // this cuts nearly every branch at its second or third cell.)
        let mut units = shared;
        while units != 0 && chosen.len() >= 2 {
            let u = units.trailing_zeros() as usize;
            units &= units - 1;
            if pool.minus(self.layout.unit_set(u)).is_empty() {
                return;
            }
        }
        let mut rest = pool;
        for c in pool.iter() {
            rest.remove(c);
            let wider = union | self.b.cand(c);
            if wider.count_ones() as usize > k + 1 {
                continue;
            }
            chosen.push(c);
            let peers = rest.and(self.layout.peer_sets[c]);
            let shared = shared & self.layout.cell_units[c];
            self.grow(peers, chosen, wider, shared, sets);
            chosen.pop();
        }
    }
}

/// An almost locked set: its cells, their digits, its largest cell's count.
#[derive(Clone)]
struct AlmostLockedSet {
    cells: UnitVec<usize>,
    union: u16,
    largest: u32,
}

impl AlmostLockedSet {
    fn of(b: &Board, cells: &[usize], union: u16) -> AlmostLockedSet {
        AlmostLockedSet {
            cells: cells.iter().copied().collect(),
            union,
            largest: cells
                .iter()
                .map(|&c| b.cand(c).count_ones())
                .max()
                .unwrap_or(0),
        }
    }
}

/// Every almost locked set of `k` cells of unit `u` (each cell with 2 to `k + 1`
/// candidates, `k + 1` digits between them). It depends on the unit alone, so the board
/// keeps it until the unit changes.
fn almost_locked_sets(b: &Board, u: usize, k: usize) -> Vec<AlmostLockedSet> {
    let items: UnitVec<(usize, u16)> = b
        .unit(u)
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| b.is_open(c) && (2..=k as u32 + 1).contains(&b.cand(c).count_ones()))
        .map(|c| (c, b.cand(c)))
        .collect();
    let mut sets = Vec::new();
    first_covering::<usize, ()>(&items, k, 0, k as u32 + 1, &mut |cells, union| {
        sets.push(AlmostLockedSet::of(b, cells, union));
        None
    });
    sets
}

/// An ALS wing's score: `base + ((d - m) - |m - largest|) / 10` with `d = k + 1` digits
/// and `m = (d + 2) / 2`, Sukaku Explainer's rule (WXYZ 5.5-5.6, VWXYZ 6.2-6.4); UVWXYZ
/// is its base alone (6.6), as the reference fixes it.
fn als_wing_score(technique: Technique, k: usize, largest: u32) -> f64 {
    if technique == Technique::UvwxyzWing {
        return technique.base_score();
    }
    let d = k as i32 + 1;
    let m = (d + 2) / 2;
    let tenths = (d - m) - (m - largest as i32).abs();
    (technique.base_score() * 10.0 + tenths as f64).round() / 10.0
}

/// What the wing of almost locked set `set` (digits `union`) and bivalue cell `end` (its
/// peers `peers`) removes, or `None` when neither of `end`'s digits is restricted or
/// nothing goes.
fn als_wing_eliminations(
    b: &Board,
    set: &[usize],
    union: u16,
    end: usize,
    peers: CellSet,
) -> Option<Vec<(usize, u8)>> {
    let holders = |d: u8| -> UnitVec<usize> {
        set.iter()
            .copied()
            .filter(|&c| b.cand(c) & (1 << (d - 1)) != 0)
            .collect()
    };
    let restricted = |d: u8| {
        set.iter()
            .all(|&c| b.cand(c) & (1 << (d - 1)) == 0 || peers.contains(c))
    };
    let ends = b.cand(end);
    let x = ends.trailing_zeros() as u8 + 1;
    let z = (ends & (ends - 1)).trailing_zeros() as u8 + 1;
    let elims = match (restricted(x), restricted(z)) {
        (false, false) => return None,
        (true, true) => {
            let mut elims = Vec::new();
            for d in digits(union) {
                let mut pattern = holders(d);
                if d == x || d == z {
                    pattern.push(end);
                }
                elims.extend(seen_by_all(b, &pattern, d));
            }
            elims
        }
        (restricted_x, _) => {
            // One end restricted: the other end's digit goes.
            let z = if restricted_x { z } else { x };
            let mut pattern = holders(z);
            pattern.push(end);
            seen_by_all(b, &pattern, z)
        }
    };
    (!elims.is_empty()).then_some(elims)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Geometry, Grid, Variant};
    use crate::rate::{apply, calibration_puzzles, next_step, reference_rated};

    /// Every choice of `k` cells of `pool`, ascending, to `visit`.
    fn each_choice(
        pool: &[usize],
        k: usize,
        chosen: &mut Vec<usize>,
        visit: &mut impl FnMut(&[usize]),
    ) {
        if chosen.len() == k {
            return visit(chosen);
        }
        let start = pool.partition_point(|&c| chosen.last().is_some_and(|&l| c <= l));
        for &c in &pool[start..] {
            chosen.push(c);
            each_choice(pool, k, chosen, visit);
            chosen.pop();
        }
    }

    /// The sets the wings take beyond units are every almost locked set whose cells see
    /// each other and share no unit: compared with every choice of `k` cells on boards
    /// along the rating of puzzles the reference rated under rules that add peers beyond
    /// units (a knight's move, windows) and under the classic rules (none there).
    #[test]
    fn spanning_sets_are_every_set_that_sees_itself_and_leaves_each_unit() {
        let (mut boards, mut found) = (0, 0);
        for variant in [Variant::AntiKnight, Variant::Windoku, Variant::Classic] {
            let puzzles: Vec<Grid> = match variant {
                Variant::Classic => calibration_puzzles(6.0, 4),
                _ => reference_rated(variant)
                    .into_iter()
                    .skip(150)
                    .step_by(10)
                    .map(|(_, p)| p)
                    .collect(),
            };
            for p in puzzles {
                let mut b = Board::new(&p);
                let mut steps = 0;
                while let Some(step) = next_step(&b, f64::INFINITY) {
                    if steps % 2 == 0 {
                        boards += 1;
                        for k in 3..=4 {
                            let pool: Vec<usize> = (0..b.cells())
                                .filter(|&c| {
                                    b.is_open(c)
                                        && (2..=k as u32 + 1).contains(&b.cand(c).count_ones())
                                })
                                .collect();
                            let mut expected = Vec::new();
                            each_choice(&pool, k, &mut Vec::new(), &mut |cells| {
                                let union = cells.iter().fold(0, |u, &c| u | b.cand(c));
                                let shared = cells
                                    .iter()
                                    .fold(!0u64, |s, &c| s & b.layout().cell_units[c]);
                                let sees = cells
                                    .iter()
                                    .all(|&x| cells.iter().all(|&y| x == y || b.sees(x, y)));
                                if sees && shared == 0 && union.count_ones() as usize == k + 1 {
                                    expected.push(cells.to_vec());
                                }
                            });
                            let sets: Vec<Vec<usize>> = spanning_sets(&b, k)
                                .sets
                                .iter()
                                .map(|s| s.cells.to_vec())
                                .collect();
                            assert_eq!(sets, expected, "{variant:?} k {k}: {p}");
                            found += sets.len();
                        }
                    }
                    steps += 1;
                    apply(&mut b, &step);
                }
            }
        }
        assert!(
            boards > 30 && found > 100,
            "{found} sets on {boards} boards"
        );
    }

    /// An end that sees the whole set by a knight's move makes a wing, as the reference
    /// finds it (a naked set is only an end in a unit with the whole set): this
    /// anti-knight puzzle, 6.3 for the reference, rated 8.4 when such ends were passed
    /// over.
    #[test]
    fn an_end_seeing_the_set_across_units_makes_a_wing() {
        let g = Geometry::CLASSIC.with_variant(Variant::AntiKnight);
        let p = crate::grid::parse_line_with(
            "......6........278......3..8..57......5.....7.........5.8..21...2.....9..9.......",
            g,
        )
        .unwrap();
        let r = crate::rate::rate(&p);
        assert_eq!(r.score, 6.3, "{:?}", r.hardest);
        assert_eq!(r.hardest, Some(Technique::VwxyzWing));
    }

    /// A unit the ALS wings found nothing in is passed over while the bivalue cells born
    /// since have no pair among its sets' digits: the search finds what it finds with a
    /// board that remembers nothing. Checked at every step of rating wing- and chain-level
    /// calibration puzzles, for both set sizes.
    #[test]
    fn als_wings_pass_over_units_no_new_bivalue_cell_can_end() {
        let (mut steps, mut found) = (0, 0);
        for p in calibration_puzzles(5.5, 40) {
            let mut b = Board::new(&p);
            while let Some(step) = next_step(&b, f64::INFINITY) {
                for k in [3, 4] {
                    let remembering = als_wing(&b, k, f64::INFINITY);
                    let forgetting = als_wing(&b.forgetting_searches(), k, f64::INFINITY);
                    assert_eq!(format!("{remembering:?}"), format!("{forgetting:?}"), "{p}");
                    found += usize::from(remembering.is_some());
                }
                steps += 1;
                apply(&mut b, &step);
            }
        }
        assert!(found > 10 && steps > 500, "{found} wings in {steps} steps");
    }

    #[test]
    fn als_wing_scores_follow_the_largest_cell() {
        let wxyz: Vec<f64> = (2..=4)
            .map(|l| als_wing_score(Technique::WxyzWing, 3, l))
            .collect();
        assert_eq!(wxyz, [5.5, 5.6, 5.5]);
        let vwxyz: Vec<f64> = (2..=5)
            .map(|l| als_wing_score(Technique::VwxyzWing, 4, l))
            .collect();
        assert_eq!(vwxyz, [6.3, 6.4, 6.3, 6.2]);
    }
}
