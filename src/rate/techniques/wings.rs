//! XY-Wing and XYZ-Wing.

use super::Technique;
use crate::grid::CellSet;
use crate::rate::board::{digits, Board};
use crate::rate::step::Step;

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
        .filter(|&c| b.is_open(c) && b.cand(c).count_ones() == 2)
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
