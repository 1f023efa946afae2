//! The form of a grid under [`Symmetries::Mirrored`] (the diagonal rule set's group):
//! the least image under every transformation that keeps the sudoku rules *and* both
//! diagonals — the line
//! permutations applied to rows and columns alike that keep the diagonals
//! ([`Geometry::mirrored_permutations`]), the column mirror (which swaps the two
//! diagonals), transposition when boxes are square, and relabelling in order of first
//! appearance (empty cells 0). Used for puzzles and solution grids alike: 96 images on
//! 9×9, 18,432 on 16×16, each cut off at its first cell above the best.
//!
//! [`Geometry::mirrored_permutations`]: crate::grid::Geometry::mirrored_permutations
//! [`Symmetries::Mirrored`]: crate::grid::Symmetries::Mirrored

use crate::grid::{Grid, Symmetries};

/// The least image of `grid` (full or not) under the mirrored group.
pub fn minlex_mirrored(grid: &Grid) -> Grid {
    let g = grid.geometry();
    debug_assert_eq!(g.variant().rules().symmetries, Symmetries::Mirrored);
    let n = g.n();
    let mut best = vec![u8::MAX; n * n];
    let transposes: &[bool] = if g.square_boxes() {
        &[false, true]
    } else {
        &[false]
    };
    let mut image = vec![0u8; n * n];
    for pi in g.mirrored_permutations() {
        for mirror in [false, true] {
            for &transpose in transposes {
                let source = |r: usize, c: usize| {
                    let (r, c) = if transpose { (c, r) } else { (r, c) };
                    let (r, c) = (pi[r] as usize, pi[c] as usize);
                    let c = if mirror { n - 1 - c } else { c };
                    grid.get(r * n + c)
                };
                // Relabelled cell by cell; stops at the first cell above the best.
                let (mut labels, mut next) = ([0u8; 17], 1u8);
                let mut below = false;
                let mut cut = false;
                for (i, slot) in image.iter_mut().enumerate() {
                    let v = source(i / n, i % n);
                    let v = if v == 0 {
                        0
                    } else {
                        if labels[v as usize] == 0 {
                            labels[v as usize] = next;
                            next += 1;
                        }
                        labels[v as usize]
                    };
                    *slot = v;
                    if !below {
                        if v > best[i] {
                            cut = true;
                            break;
                        }
                        below = v < best[i];
                    }
                }
                if !cut && below {
                    best.copy_from_slice(&image);
                }
            }
        }
    }
    Grid::from_cells(g, best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{solution_grid, Route};
    use crate::grid::{Geometry, Symmetry, Variant, SUPPORTED_SIZES};
    use crate::rng::Rand;

    /// Images under random group elements share the form; other grids differ.
    #[test]
    fn orbit_shares_one_form() {
        for n in SUPPORTED_SIZES {
            let g = Geometry::for_size(n)
                .unwrap()
                .with_variant(Variant::Diagonal);
            let mut forms = Vec::new();
            for seed in 0..4 {
                let grid =
                    solution_grid(g, Route::Backtrack, &mut Rand::new(seed), None, None).unwrap();
                let form = minlex_mirrored(&grid);
                assert!(form.find_conflict().is_none(), "size {n}");
                for t in 0..3 {
                    let image = solution_grid_image(&grid, &mut Rand::new(seed * 10 + t));
                    assert!(image.find_conflict().is_none());
                    assert_eq!(minlex_mirrored(&image), form, "size {n}");
                }
                for s in Symmetry::group(g) {
                    let mut cells = vec![0; g.cells()];
                    for (cell, &v) in grid.cells().iter().enumerate() {
                        cells[s.map_cell(n, cell)] = v;
                    }
                    assert_eq!(minlex_mirrored(&Grid::from_cells(g, cells)), form);
                }
                forms.push(form);
            }
            forms.sort_by(|a, b| a.cells().cmp(b.cells()));
            forms.dedup();
            // (4x4 diagonal grids are few, and may all be one grid in disguise.)
            assert!(
                n == 4 || forms.len() > 1,
                "size {n}: random grids all one form"
            );
        }
    }

    /// `grid` under a random diagonal-keeping transformation and relabelling.
    fn solution_grid_image(grid: &Grid, rng: &mut Rand) -> Grid {
        let g = grid.geometry();
        let n = g.n();
        let all = g.mirrored_permutations();
        let pi = &all[rng.below(all.len() as u32) as usize];
        let mirror = rng.below(2) == 1;
        let mut digits: Vec<u8> = (1..=n as u8).collect();
        rng.shuffle(&mut digits);
        let cells = (0..n * n)
            .map(|i| {
                let (r, c) = (pi[i / n] as usize, pi[i % n] as usize);
                let c = if mirror { n - 1 - c } else { c };
                digits[grid.get(r * n + c) as usize - 1]
            })
            .collect();
        Grid::from_cells(g, cells)
    }
}
