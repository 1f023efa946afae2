//! The full-group minlex form by trying every element of the group: the slow, obvious
//! reference the searches in `full.rs` and `puzzle.rs` are tested against (small sizes and
//! a few 9x9 cases only). Relabelling is by first appearance, empty cells 0; on a full
//! grid that is the same as numbering the top row 1..N.

use super::puzzle::arrangements;
use crate::grid::{cells_of, Cell, Geometry, Grid};

/// Asserts that `form`, a search for the minlex form, finds [`minlex`] of every grid
/// `make(g, seed)` of the 4x4 and 6x6 geometries, seeds `0..seeds`.
pub(super) fn agrees_on_small_sizes(
    seeds: u64,
    make: impl Fn(Geometry, u64) -> Grid,
    form: impl Fn(&Grid) -> Option<Grid>,
) {
    for n in [4, 6] {
        let g = Geometry::for_size(n).unwrap();
        let grids: Vec<Grid> = (0..seeds).map(|seed| make(g, seed)).collect();
        agrees_on(&grids, &form);
    }
}

/// Asserts that `form` finds [`minlex`] of each of `grids`.
pub(super) fn agrees_on(grids: &[Grid], form: impl Fn(&Grid) -> Option<Grid>) {
    for (i, grid) in grids.iter().enumerate() {
        let found = form(grid).expect("a form");
        assert_eq!(
            found.cells(),
            &minlex(grid)[..],
            "{} grid {i}",
            grid.geometry().n()
        );
    }
}

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
