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

/// The first pointing (`from`: the boxes) or claiming (the lines) that removes
/// something. What it finds for a digit depends on that digit's places alone, so digits
/// that found nothing are passed over until they change.
fn first_lock(b: &Board, technique: Technique, from: std::ops::Range<usize>) -> Option<Step> {
    let search = if technique == Technique::Pointing {
        DigitSearch::Pointing
    } else {
        DigitSearch::Claiming
    };
    let open = !b.digits_found_nothing_since(search) & (((1u32 << b.n()) - 1) as u16);
    for u in from {
        for d in digits(!b.placed_in(u) & open) {
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
        }
    }
    b.digits_found_nothing(search, open);
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
