//! Single-digit patterns that are not plain chains: the empty rectangle.

use super::Technique;
use crate::grid::Cell;
use crate::rate::board::{two_bits, Board};
use crate::rate::memo::DigitSearch;
use crate::rate::techniques::step::Step;

/// Empty rectangle: in a box, digit `d` lies only on one row `r` and one column `c` of
/// the box, on at least two rows and two columns of it (else it is pointing). With a
/// strong link on `d` in a column outside the box from (r, c2) to (r2, c2), `d` leaves
/// (r2, c): if (r2, c2) is not `d`, (r, c2) is, so the box's `d` is on column `c`, which
/// sees (r2, c); if it is, (r2, c) sees it along row r2. The same with rows and columns
/// swapped. The first pattern found, in digit, box and cross order; a digit that showed
/// none is passed over until it changes. Works on the unit position masks the board keeps
/// (a row's positions are columns, a column's rows, a box's row-major). Boxes only: a
/// jigsaw region's cells need not lie in a rectangle of rows and columns.
pub fn empty_rectangle(b: &Board) -> Option<Step> {
    if b.regions().is_some() {
        return None;
    }
    let g = b.geometry();
    let layout = b.layout();
    let (n, br, bc) = (g.n(), g.box_rows(), g.box_cols());
    let row_bits = (1u16 << bc) - 1;
    let col_bits = (0..br).fold(0u16, |m, i| m | 1 << (i * bc));
    for d in 1..=n as u8 {
        // What the search reads is the digit's places alone.
        let key = d as usize - 1;
        if b.digit_found_nothing_since(DigitSearch::EmptyRectangle, key, d) {
            continue;
        }
        for bx in 0..n {
            let m = b.positions(layout.box_unit(bx), d);
            if m.count_ones() < 2 {
                continue;
            }
            let (top, left) = g.box_origin(bx);
            for i in 0..br {
                for j in 0..bc {
                    let (row, col) = (row_bits << (i * bc), col_bits << j);
                    let corner = 1u16 << (i * bc + j);
                    if m & !(row | col) != 0 || m & row & !corner == 0 || m & col & !corner == 0 {
                        continue;
                    }
                    if let Some(step) = linked(b, d, bx, m, Cell::new(top + i, left + j)) {
                        return Some(step);
                    }
                }
            }
        }
        b.digit_found_nothing(DigitSearch::EmptyRectangle, key, d);
    }
    None
}

/// The elimination of an empty rectangle of box `bx` (its places `m`) crossing at cell
/// `cross`, if a strong link outside the box makes one.
fn linked(b: &Board, d: u8, bx: usize, m: u16, cross: Cell) -> Option<Step> {
    let g = b.geometry();
    let layout = b.layout();
    let (n, br, bc) = (g.n(), g.box_rows(), g.box_cols());
    let (top, left) = g.box_origin(bx);
    let bit = 1u16 << (d - 1);
    let holds = |at: Cell| b.cand(at.index(n)) & bit != 0 && b.is_open(at.index(n));
    let other = |mask: u16, known: usize| (mask & !(1 << known)).trailing_zeros() as usize;
    let step = |link: [Cell; 2], target: Cell| {
        let box_cells = layout.unit(layout.box_unit(bx));
        let mut cells: Vec<usize> = (0..n)
            .filter(|&k| m & 1 << k != 0)
            .map(|k| box_cells[k] as usize)
            .collect();
        cells.extend(link.iter().map(|at| at.index(n)));
        Step::new(Technique::EmptyRectangle, cells).eliminating(vec![(target.index(n), d)])
    };
    // A column c2 outside the box whose `d` is only at rows r and r2; then the same
    // transposed: a row outside the box whose `d` is only at columns c and another.
    for across in [false, true] {
        let at = |row, col| Cell::new(row, col).transposed_if(across);
        let Cell { row: r, col: c } = cross.transposed_if(across);
        let ((top, height), (left, width)) = if across {
            ((left, bc), (top, br))
        } else {
            ((top, br), (left, bc))
        };
        for c2 in (0..n).filter(|&c2| !(left..left + width).contains(&c2)) {
            let line = if across {
                layout.row(c2)
            } else {
                layout.column(c2)
            };
            let places = b.positions(line, d);
            if two_bits(places) && places & 1 << r != 0 {
                let r2 = other(places, r);
                if !(top..top + height).contains(&r2) && holds(at(r2, c)) {
                    return Some(step([at(r, c2), at(r2, c2)], at(r2, c)));
                }
            }
        }
    }
    None
}
