//! Locked candidates: pointing (box → line) and claiming (line → box).

use crate::rate::board::{digits, Board};
use crate::rate::step::{Step, Technique};

/// Where the cells of a unit holding `digit` lie.
fn holders(b: &Board, u: usize, digit: u8) -> Vec<usize> {
    let bit = 1u16 << (digit - 1);
    b.unit(u)
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| b.is_open(c) && b.cand(c) & bit != 0)
        .collect()
}

/// Eliminations of `digit` from the open cells of unit `target` that are not in `keep`.
fn outside(b: &Board, target: usize, keep: &[usize], digit: u8) -> Vec<(usize, u8)> {
    holders(b, target, digit)
        .into_iter()
        .filter(|c| !keep.contains(c))
        .map(|c| (c, digit))
        .collect()
}

fn first_lock(b: &Board, technique: Technique, from: std::ops::Range<usize>) -> Option<Step> {
    let n = b.n();
    let g = b.geometry();
    for u in from {
        let missing = !b.placed_in(u) & (((1u32 << n) - 1) as u16);
        for d in digits(missing) {
            let cells = holders(b, u, d);
            if cells.len() < 2 {
                continue;
            }
            let (r0, c0) = (cells[0] / n, cells[0] % n);
            let target = if technique == Technique::Pointing {
                if cells.iter().all(|&c| c / n == r0) {
                    Some(r0)
                } else if cells.iter().all(|&c| c % n == c0) {
                    Some(n + c0)
                } else {
                    None
                }
            } else {
                let bx = g.box_of(r0, c0);
                cells
                    .iter()
                    .all(|&c| g.box_of(c / n, c % n) == bx)
                    .then_some(2 * n + bx)
            };
            if let Some(target) = target {
                let elims = outside(b, target, &cells, d);
                if !elims.is_empty() {
                    let mut step = Step::new(technique, cells);
                    step.eliminations = elims;
                    return Some(step);
                }
            }
        }
    }
    None
}

/// A digit whose places in a box all lie on one line: it leaves the rest of that line.
pub fn pointing(b: &Board) -> Option<Step> {
    let n = b.n();
    first_lock(b, Technique::Pointing, 2 * n..3 * n)
}

/// A digit whose places in a line all lie in one box: it leaves the rest of that box.
pub fn claiming(b: &Board) -> Option<Step> {
    let n = b.n();
    first_lock(b, Technique::Claiming, 0..2 * n)
}
