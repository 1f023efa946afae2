//! The full-group minlex form by trying every element of the group: the slow, obvious
//! reference the searches in `full.rs` and `puzzle.rs` are tested against (small sizes and
//! a few 9x9 cases only). Relabelling is by first appearance, empty cells 0; on a full
//! grid that is the same as numbering the top row 1..N.

use super::puzzle::arrangements;
use crate::grid::{cells_of, Cell, Grid};

/// The least image of `grid` over every row order, column order, transposition (square
/// boxes) and relabelling.
pub(super) fn minlex(grid: &Grid) -> Vec<u8> {
    let g = grid.geometry();
    let n = g.n();
    let rows = arrangements(g.box_rows(), n / g.box_rows());
    let cols = arrangements(g.box_cols(), n / g.box_cols());
    let mut best = vec![u8::MAX; g.cells()];
    let transposes: &[bool] = if g.square_boxes() {
        &[false, true]
    } else {
        &[false]
    };
    for &t in transposes {
        for r in &rows {
            for c in &cols {
                let mut labels = [0u8; 17];
                let mut next = 1;
                let image: Vec<u8> = cells_of(n)
                    .map(|(_, at)| {
                        let from = Cell::new(r[at.row], c[at.col]);
                        let d = grid.at(from.transposed_if(t)) as usize;
                        if d == 0 {
                            return 0;
                        }
                        if labels[d] == 0 {
                            labels[d] = next;
                            next += 1;
                        }
                        labels[d]
                    })
                    .collect();
                if image < best {
                    best = image;
                }
            }
        }
    }
    best
}
