//! Helpers that several technique families share.

use crate::grid::{CellSet, UnitKind};
use crate::rate::board::{digits, Board};
use crate::rate::memo::UnitSearch;
use crate::rate::techniques::step::Step;
use arrayvec::ArrayVec;

/// Items of one unit (at most 16 cells or digits), kept on the stack: these searches run
/// on every rating step, mostly finding nothing.
pub type UnitVec<T> = ArrayVec<T, 16>;

/// The open cells of unit `u`, in unit order.
pub fn open_cells(b: &Board, u: usize) -> UnitVec<usize> {
    b.unit(u)
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| b.is_open(c))
        .collect()
}

/// Calls `f(chosen, union)` on each choice of `k` of `items`, in lexicographic order,
/// whose masks together with `base` cover exactly `bits` bits (`union`), until it returns
/// `Some`. A partial choice already covering more bits is cut short: subsets, fish and
/// unique rectangles all look for `k` things spread over exactly `bits` places or digits.
pub fn first_covering<T: Copy, R>(
    items: &[(T, u16)],
    k: usize,
    base: u16,
    bits: u32,
    f: &mut impl FnMut(&[T], u16) -> Option<R>,
) -> Option<R> {
    fn go<T: Copy, R>(
        items: &[(T, u16)],
        k: usize,
        start: usize,
        union: u16,
        bits: u32,
        chosen: &mut UnitVec<T>,
        f: &mut impl FnMut(&[T], u16) -> Option<R>,
    ) -> Option<R> {
        if chosen.len() == k {
            return if union.count_ones() == bits {
                f(chosen, union)
            } else {
                None
            };
        }
        for i in start..items.len() {
            if items.len() - i < k - chosen.len() {
                break;
            }
            let (item, mask) = items[i];
            let wider = union | mask;
            if wider.count_ones() > bits {
                continue;
            }
            chosen.push(item);
            if let Some(r) = go(items, k, i + 1, wider, bits, chosen, f) {
                return Some(r);
            }
            chosen.pop();
        }
        None
    }
    go(items, k, 0, base, bits, &mut UnitVec::new(), f)
}

/// What a naked subset on `cells` (digits `union`) removes from the unit's other `open`
/// cells.
pub fn naked_eliminations(
    b: &Board,
    open: &[usize],
    cells: &[usize],
    union: u16,
) -> Vec<(usize, u8)> {
    open.iter()
        .filter(|c| !cells.contains(c))
        .flat_map(|&c| digits(b.cand(c) & union).map(move |d| (c, d)))
        .collect()
}

/// What a generalized naked set on `cells` (digits `union`) removes: each digit from the
/// cells that see every cell of the set holding it (no such cell is its own peer, so the
/// set's cells holding it are not among them). (Other cells only lose candidates
/// later, so a unit that found nothing finds nothing until it changes.) The BUG and
/// unique-loop naked sets of type 3 count their BUG or rescue cells among `cells`.
pub fn seen_eliminations(b: &Board, cells: &[usize], union: u16) -> Vec<(usize, u8)> {
    let mut elims = Vec::new();
    for d in digits(union) {
        let seen = cells
            .iter()
            .filter(|&&c| b.cand(c) & 1 << (d - 1) != 0)
            .map(|&c| b.peer_set(c))
            .reduce(CellSet::and)
            .unwrap_or_default();
        elims.extend(
            seen.iter()
                .filter(|&c| b.cand(c) & 1 << (d - 1) != 0)
                .map(|c| (c, d)),
        );
    }
    elims
}

/// What a naked set that a deadly pattern's cells complete removes (BUG and unique-loop
/// type 3): `set`, cells of a unit, with the pattern's cells `pattern` acting as one more
/// cell, holds the digits `union`; they leave `others` (the unit's other open cells with
/// their candidates, the set's among them) or, `generalized`, every cell seeing each cell
/// of the set and of the pattern that holds the digit.
pub fn completed_set_eliminations(
    b: &Board,
    others: &[(usize, u16)],
    set: &[usize],
    pattern: &[usize],
    union: u16,
    generalized: bool,
) -> Vec<(usize, u8)> {
    if generalized {
        let cells: Vec<usize> = set.iter().chain(pattern).copied().collect();
        return seen_eliminations(b, &cells, union);
    }
    others
        .iter()
        .filter(|(c, _)| !set.contains(c))
        .flat_map(|&(c, cand)| digits(cand & union).map(move |d| (c, d)))
        .collect()
}

/// The first hidden set `f` makes a step of: over the units (skipping those where `search`
/// found nothing since they last changed), `k` of a unit's missing digits whose places
/// number `k` in all. `f(u, missing, keep, places)` gets the unit, its missing digits, the
/// set's digits and their places (bits of positions in the unit).
pub fn first_hidden_set(
    b: &Board,
    k: usize,
    search: UnitSearch,
    f: &mut impl FnMut(usize, u16, u16, u16) -> Option<Step>,
) -> Option<Step> {
    let n = b.n();
    for u in 0..b.unit_count() {
        if b.found_nothing_since(search, u) {
            continue;
        }
        let missing = !b.placed_in(u) & (((1u32 << n) - 1) as u16);
        if (missing.count_ones() as usize) <= k {
            continue;
        }
        let candidates: UnitVec<(u8, u16)> = digits(missing)
            .map(|d| (d, b.positions(u, d)))
            .filter(|&(_, p)| (2..=k).contains(&(p.count_ones() as usize)))
            .collect();
        let found = first_covering(&candidates, k, 0, k as u32, &mut |chosen: &[u8], places| {
            let keep = chosen.iter().fold(0u16, |m, &d| m | 1 << (d - 1));
            f(u, missing, keep, places)
        });
        if found.is_some() {
            return found;
        }
        b.found_nothing(search, u);
    }
    None
}

/// The cells of unit `u` at the positions `places` (a bit per position in the unit).
pub fn cells_at(b: &Board, u: usize, places: u16) -> impl Iterator<Item = usize> + '_ {
    let unit = b.unit(u);
    digits(places).map(move |i| unit[i as usize - 1] as usize)
}

/// The unit that `places` (positions in unit `u`) all lie in besides `u`: the row or
/// column of a box, the box of a line; `None` when they are spread. Masks over the
/// positions, as this runs on every digit of every unit at most steps: the places lie in
/// one row (column, box) only if they lie in that of their first place, so only that one
/// is tried (no places count as lying in the first).
pub fn locked_into(b: &Board, u: usize, places: u16) -> Option<usize> {
    if b.regions().is_some() {
        return locked_into_region(b, u, places);
    }
    let g = b.geometry();
    let (br, bc) = (g.box_rows(), g.box_cols());
    let layout = b.layout();
    let inside = |mask: u16| places & !mask == 0;
    // The first place's position (0 when there is none).
    let first = places.trailing_zeros() as usize % 16;
    match layout.kind_of(u) {
        (UnitKind::Box, bx) => {
            // A box: positions row by row.
            let (r0, c0) = g.box_origin(bx);
            let row_mask = ((1u32 << bc) - 1) as u16;
            let (r, c) = (first / bc, first % bc);
            if inside(row_mask << (r * bc)) {
                return Some(layout.row(r0 + r));
            }
            let column_mask = (0..br).fold(0u16, |m, r| m | 1 << (r * bc + c));
            inside(column_mask).then(|| layout.column(c0 + c))
        }
        (UnitKind::Column, c) => {
            // A column: positions are rows.
            let band_mask = ((1u32 << br) - 1) as u16;
            let t = first / br;
            inside(band_mask << (t * br)).then(|| layout.box_unit(g.box_of(t * br, c)))
        }
        (UnitKind::Row, r) => {
            // A row: positions are columns.
            let stack_mask = ((1u32 << bc) - 1) as u16;
            let s = first / bc;
            inside(stack_mask << (s * bc)).then(|| layout.box_unit(g.box_of(r, s * bc)))
        }
        (UnitKind::Extra, _) => {
            debug_assert!(false, "rows, columns and boxes only, not extra units");
            None
        }
    }
}

/// [`locked_into`] where the boxes are a jigsaw puzzle's regions: the unit of the
/// first place (its row, then its column, for a region; its region for a line) that
/// holds every place.
fn locked_into_region(b: &Board, u: usize, places: u16) -> Option<usize> {
    let layout = b.layout();
    let first = layout.unit(u)[places.trailing_zeros() as usize % 16] as usize;
    let [row, column, region] = layout.units_of(first);
    let candidates: &[usize] = if layout.kind_of(u).0 == UnitKind::Box {
        &[row, column]
    } else {
        &[region]
    };
    let cells = layout.unit_set(u);
    let at = cells_at(b, u, places).collect::<CellSet>();
    debug_assert!(at.minus(cells).is_empty());
    candidates
        .iter()
        .copied()
        .find(|&v| at.minus(layout.unit_set(v)).is_empty())
}

/// The open cells holding each digit (`[d]`; `[0]` is empty).
pub fn holding_each_digit(b: &Board) -> Vec<CellSet> {
    let mut holding = vec![CellSet::default(); b.n() + 1];
    for c in (0..b.cells()).filter(|&c| b.is_open(c)) {
        digits(b.cand(c)).for_each(|d| holding[d as usize].insert(c));
    }
    holding
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Geometry, Grid};

    /// `locked_into` names the unit a brute force finds: the first row, then the first
    /// column, of a box (the first box of a line) holding every cell at `places`, on every
    /// size and for sets of positions of every kind (none and one included).
    #[test]
    fn locked_into_is_the_first_unit_holding_every_place() {
        for size in [4, 6, 9, 12, 16] {
            let g = Geometry::for_size(size).expect("a supported size");
            let b = Board::new(&Grid::empty(g));
            let layout = b.layout();
            let mut rng = crate::rng::Rand::new(size as u64);
            for u in 0..3 * size {
                // Units of a cell: row, column, box.
                let kinds: &[usize] = if u >= 2 * size { &[0, 1] } else { &[2] };
                for round in 0..400 {
                    let places = match round {
                        0 => 0,
                        r if r <= size => 1 << (r - 1),
                        _ => rng.below(1 << size) as u16,
                    };
                    let cells: Vec<usize> = cells_at(&b, u, places).collect();
                    let expected = kinds.iter().find_map(|&kind| {
                        b.unit(u)
                            .iter()
                            .map(|&c| layout.units_of(c as usize)[kind])
                            .find(|&t| cells.iter().all(|&c| b.unit(t).contains(&(c as u16))))
                    });
                    assert_eq!(
                        locked_into(&b, u, places),
                        expected,
                        "size {size}, unit {u}, places {places:#b}"
                    );
                }
            }
        }
    }
}
