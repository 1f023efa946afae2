//! XY-Wing and XYZ-Wing, and the larger wings of Sukaku Explainer's scale (WXYZ, VWXYZ,
//! UVWXYZ):
//! a bivalue cell against an almost locked set.

use super::common::{first_covering, UnitVec};
use super::Technique;
use crate::grid::CellSet;
use crate::rate::board::{digits, two_bits, Board};
use crate::rate::memo::{UnitDerived, UnitSearch};
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
/// 4, UVWXYZ with 5): a bivalue cell {x, z} and an almost locked set of `k` cells of one unit (every cell
/// with two candidates or more, `k + 1` digits between them, x and z among them), where x
/// is restricted (each set cell holding x sees the bivalue cell). One of the two ends holds
/// z, so z leaves cells seeing the bivalue cell and every set cell holding z. When z is
/// restricted too (doubly linked), the set's other digits are locked in it and leave cells
/// seeing all their places in it, and x leaves cells seeing all its places, as z does.
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
    // Per digit: the bivalue cells holding it, and the digits it shares one with (an ALS
    // holding no bivalue cell's pair is passed over at once).
    let ends = bivalue(b);
    // Digits 1 to 16 (candidate masks are `u16`), on the stack.
    let mut holding = [CellSet::default(); 17];
    let mut partners = [0u16; 17];
    for end in ends.iter() {
        let pair = b.cand(end);
        for d in digits(pair) {
            holding[d as usize].insert(end);
            partners[d as usize] |= pair & !(1 << (d - 1));
        }
    }
    let all = ((1u32 << b.n()) - 1) as u16;
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
        let sets = sets_of(u);
        // Whether every set of the unit was looked at (none passed over for its score)
        // and none made a wing: then the unit shows none until it or the bivalue cells
        // change.
        let mut whole = true;
        for als in sets.iter() {
            let score = als_wing_score(technique, k, als.largest);
            let beaten = best.as_ref().map_or(below, |s| s.score);
            if score >= beaten - 1e-9 {
                whole = false;
                continue;
            }
            let holds_a_pair = digits(als.union).any(|d| partners[d as usize] & als.union != 0);
            if !holds_a_pair {
                continue;
            }
            let set = &als.cells[..];
            // The bivalue cells off the set whose two digits are the set's.
            let outside =
                digits(all & !als.union).fold(CellSet::default(), |s, d| s.or(holding[d as usize]));
            let mut inside = ends.minus(outside);
            set.iter().for_each(|&c| inside.remove(c));
            for end in inside.iter() {
                // An end seeing the whole set makes a naked set of k + 1 cells in one unit:
                // the naked subsets and locked candidates, tried before, find whatever it
                // removes.
                let peers = b.peer_set(end);
                if set.iter().all(|&c| peers.contains(c)) {
                    continue;
                }
                if let Some(elims) = als_wing_eliminations(b, set, als.union, end, peers) {
                    best = Some(Step {
                        score,
                        ..Step::new(technique, [set, &[end]].concat()).eliminating(elims)
                    });
                    if score <= lowest + 1e-9 {
                        // Nothing scores lower: stop looking.
                        return best;
                    }
                    whole = false;
                    break;
                }
            }
        }
        if whole {
            b.found_nothing(memo, u);
        }
    }
    best
}

/// An almost locked set of one unit: its cells, their digits, its largest cell's count.
struct AlmostLockedSet {
    cells: UnitVec<usize>,
    union: u16,
    largest: u32,
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
        sets.push(AlmostLockedSet {
            cells: cells.iter().copied().collect(),
            union,
            largest: cells
                .iter()
                .map(|&c| b.cand(c).count_ones())
                .max()
                .unwrap_or(0),
        });
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
    use crate::rate::{apply, calibration_puzzles, next_step};

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
