//! Locked candidates: pointing (box → line) and claiming (line → box).

use super::common::{cells_at, locked_into};
use super::Technique;
use crate::rate::board::{digits, Board};
use crate::rate::memo::DigitSearch;
use crate::rate::step::Step;

/// Open cells of unit `target` holding `digit`, outside unit `locked`, as eliminations.
fn outside(
    b: &Board,
    target: usize,
    locked: usize,
    digit: u8,
) -> impl Iterator<Item = (usize, u8)> + '_ {
    let cells = b.unit(target);
    digits(b.positions(target, digit))
        .map(|i| cells[i as usize - 1] as usize)
        .filter(move |&c| !b.units_of(c).contains(&locked))
        .map(move |c| (c, digit))
}

fn first_lock(b: &Board, technique: Technique, from: std::ops::Range<usize>) -> Option<Step> {
    let n = b.n();
    for u in from {
        let missing = !b.placed_in(u) & (((1u32 << n) - 1) as u16);
        let search = if technique == Technique::Pointing {
            DigitSearch::Pointing
        } else {
            DigitSearch::Claiming
        };
        for d in digits(missing) {
            let key = u * n + d as usize - 1;
            if b.digit_found_nothing_since(search, key, d) {
                continue;
            }
            let places = b.positions(u, d);
            if places.count_ones() < 2 {
                continue;
            }
            if let Some(target) = locked_into(b, u, places) {
                if outside(b, target, u, d).next().is_some() {
                    let elims = outside(b, target, u, d).collect();
                    let cells = cells_at(b, u, places).collect();
                    return Some(Step::new(technique, cells).eliminating(elims));
                }
            }
            b.digit_found_nothing(search, key, d);
        }
    }
    None
}

/// A digit whose places in a box all lie on one line: it leaves the rest of that line.
pub fn pointing(b: &Board) -> Option<Step> {
    first_lock(b, Technique::Pointing, b.layout().boxes())
}

/// A digit whose places in a line all lie in one box: it leaves the rest of that box.
pub fn claiming(b: &Board) -> Option<Step> {
    first_lock(b, Technique::Claiming, b.layout().lines())
}
