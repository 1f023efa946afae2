//! The non-consecutive steps, as the reference rater (Sukaku Explainer, `--isNC=1`) takes
//! them: a cell whose candidates lie within one of a digit bars that digit beside it
//! ("NC forcing cell", 2.4), and a digit's places in a unit that all touch a cell bar the
//! digit's consecutive ones there ("locked NC", 2.5).

use super::Technique;
use crate::grid::CellSet;
use crate::rate::board::{digits, Board};
use crate::rate::memo::DigitSearch;
use crate::rate::techniques::step::Step;

/// Open cells of `cells` holding a digit of `mask`, as eliminations.
fn holding(b: &Board, cells: CellSet, mask: u16) -> Vec<(usize, u8)> {
    cells
        .iter()
        .filter(|&c| b.is_open(c))
        .flat_map(|c| digits(b.cand(c) & mask).map(move |d| (c, d)))
        .collect()
}

/// NC forcing cell: an open cell with two or three candidates, all within one of a digit
/// `v` (`{v-1, v, v+1}` holds them), keeps `v` out of every cell touching it: there `v`
/// would leave the cell only digits equal (the two share a line) or consecutive to it.
/// Cells are tried in order, as the reference does.
pub fn forcing_cell(b: &Board) -> Option<Step> {
    for cell in (0..b.cells()).filter(|&c| b.is_open(c)) {
        let cand = b.cand(cell);
        if !(2..=3).contains(&cand.count_ones()) {
            continue;
        }
        let (lo, hi) = (cand.trailing_zeros(), 15 - cand.leading_zeros());
        if hi - lo > 2 {
            continue;
        }
        // The digits v (bit v-1) with lo and hi both within one of v: bits hi-1 ..= lo+1.
        let from = hi.saturating_sub(1);
        let barred = ((1u32 << (lo + 2)) - (1u32 << from)) as u16;
        let elims = holding(b, b.neighbour_set(cell), barred);
        if !elims.is_empty() {
            let mut step = Step::new(Technique::NcForcingCell, vec![cell]).eliminating(elims);
            step.describe(b, || {
                let cand: Vec<String> = digits(cand).map(|d| d.to_string()).collect();
                format!(
                    "{{{}}} here: no touching cell can hold the digit between",
                    cand.join(",")
                )
            });
            return Some(step);
        }
    }
    None
}

/// Locked NC: the places of a digit in a row, column or box that all touch one cell (or
/// are it) keep the digit's consecutive ones out of that cell. Digits are tried in order,
/// each in the columns, then the rows, then the boxes, as the reference does.
pub fn locked(b: &Board) -> Option<Step> {
    let layout = b.layout();
    let n = b.n();
    for d in 1..=n as u8 {
        let barred = b.barred_beside(d);
        let key = d as usize - 1;
        if b.digit_found_nothing_since(DigitSearch::LockedNc, key, d) {
            continue;
        }
        let units = layout.columns().chain(layout.rows()).chain(layout.boxes());
        for u in units {
            let places = b.positions(u, d);
            if places == 0 || places.count_ones() > 5 {
                continue;
            }
            // A cell touching or being every place has them all within one row and one
            // column of it: most units have their places further apart.
            let unit = b.unit(u);
            if !within_three_lines(b, unit, places) {
                continue;
            }
            // Those cells, worth a step only where one of them holds a barred digit.
            let (mut victims, mut rest) = (CellSet::default(), places);
            let mut first = true;
            while rest != 0 {
                let c = unit[rest.trailing_zeros() as usize] as usize;
                rest &= rest - 1;
                let around = b.neighbour_set(c).with(c);
                victims = if first { around } else { victims.and(around) };
                first = false;
                if victims.is_empty() {
                    break;
                }
            }
            if !victims
                .iter()
                .any(|c| b.is_open(c) && b.cand(c) & barred != 0)
            {
                continue;
            }
            let cells: Vec<usize> = digits(places)
                .map(|i| unit[i as usize - 1] as usize)
                .collect();
            let elims = holding(b, victims, barred);
            let mut step = Step::new(Technique::LockedNc, cells).eliminating(elims);
            step.describe(b, || {
                format!("{d} goes in one of these cells, each touching or being the cells cleared")
            });
            return Some(step);
        }
        b.digit_found_nothing(DigitSearch::LockedNc, key, d);
    }
    None
}

/// Whether the cells of `unit` at the positions of `places` lie within three rows and
/// three columns.
fn within_three_lines(b: &Board, unit: &[u16], places: u16) -> bool {
    let (mut rows, mut cols) = (0u32, 0u32);
    let mut rest = places;
    while rest != 0 {
        let at = b.layout().places[unit[rest.trailing_zeros() as usize] as usize];
        rest &= rest - 1;
        rows |= 1 << at.row;
        cols |= 1 << at.col;
    }
    let span = |lines: u32| 31 - lines.leading_zeros() - lines.trailing_zeros();
    span(rows) <= 2 && span(cols) <= 2
}
