//! Locked candidates: pointing (box → line) and claiming (line → box), and on grids with
//! more units their generalization: a digit's places in any unit all see a cell.

use super::common::{cells_at, holding_each_digit, locked_into};
use super::Technique;
use crate::grid::CellSet;
use crate::rate::board::{digits, Board};
use crate::rate::memo::DigitSearch;
use crate::rate::techniques::step::Step;

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

/// Generalized intersection (Sukaku Explainer's "generalized intersections", 2.9): a
/// digit with two to six places in a unit leaves every other cell that sees all of them.
/// It takes the place of pointing and claiming on grids with units beyond rows, columns
/// and boxes, where a diagonal's places can all see a cell of no shared line or box.
/// Units are tried boxes first, then lines, then the extra units, as the reference does.
pub fn generalized(b: &Board) -> Option<Step> {
    let layout = b.layout();
    let open =
        !b.digits_found_nothing_since(DigitSearch::Intersection) & (((1u32 << b.n()) - 1) as u16);
    let units = layout
        .boxes()
        .chain(layout.lines())
        .chain(layout.extra_units());
    // The open cells holding each digit, built on the first unit that needs them.
    let mut holding: Option<Vec<CellSet>> = None;
    for u in units {
        for d in digits(!b.placed_in(u) & open) {
            let places = b.positions(u, d);
            if !(2..=6).contains(&places.count_ones()) {
                continue;
            }
            // The peers of every place (no place is its own peer, so none of them),
            // holding the digit.
            let mut cells = cells_at(b, u, places);
            let first = cells.next().expect("two places");
            let mut seen = b.peer_set(first);
            for c in cells {
                seen = seen.and(b.peer_set(c));
                if seen.is_empty() {
                    break;
                }
            }
            let holding = holding.get_or_insert_with(|| holding_each_digit(b));
            let targets = seen.and(holding[d as usize]);
            if !targets.is_empty() {
                let elims = targets.iter().map(|c| (c, d)).collect();
                let cells = cells_at(b, u, places).collect();
                return Some(
                    Step::new(Technique::GeneralizedIntersection, cells).eliminating(elims),
                );
            }
        }
    }
    b.digits_found_nothing(DigitSearch::Intersection, open);
    None
}
