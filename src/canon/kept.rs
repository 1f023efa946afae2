//! The form of a grid under a rule set's own group ([`Symmetries::Mirrored`] or
//! [`Symmetries::Lines`]): the least image under every transformation that keeps the
//! sudoku rules *and* the extra units — the line maps of
//! [`Geometry::for_each_line_map`], transposition when the group holds it, and
//! relabelling in order of first appearance (empty cells 0; under
//! [`Relabelling::Reversal`], the digits as they are and reversed). Used for puzzles and
//! solution grids alike: 96 images on diagonal 9×9, 18,432 on diagonal 16×16, 2,592 on
//! disjoint groups 9×9, each cut off at its first cell above the best.
//!
//! [`Geometry::for_each_line_map`]: crate::grid::Geometry::for_each_line_map
//! [`Symmetries::Mirrored`]: crate::grid::Symmetries::Mirrored
//! [`Symmetries::Lines`]: crate::grid::Symmetries::Lines

use crate::grid::{Cell, Grid, Regions, Relabelling, Symmetries};
use std::sync::Arc;

/// How an image's digits are renamed.
#[derive(Clone, Copy)]
enum DigitMap {
    /// 1, 2, 3… in order of first appearance: the least of every relabelling.
    FirstAppearance,
    /// As they are.
    Identity,
    /// `d ↦ n + 1 − d`.
    Reversal,
}

/// The least image of `grid` (full or not) under its rule set's group.
pub fn minlex_kept(grid: &Grid) -> Grid {
    if let Some(regions) = grid.regions() {
        return minlex_jigsaw(grid, regions);
    }
    let g = grid.geometry();
    debug_assert_ne!(g.variant().rules().symmetries, Symmetries::Sudoku);
    let n = g.n();
    let mut best = vec![u8::MAX; g.cells()];
    let transposes: &[bool] = if g.group_transposes() {
        &[false, true]
    } else {
        &[false]
    };
    let mut image = vec![0u8; g.cells()];
    let maps: &[DigitMap] = match g.variant().rules().relabelling {
        Relabelling::Any => &[DigitMap::FirstAppearance],
        Relabelling::Reversal => &[DigitMap::Identity, DigitMap::Reversal],
    };
    g.for_each_line_map(|rows, cols| {
        for &transpose in transposes {
            for &map in maps {
                // Relabelled cell by cell; stops at the first cell above the best.
                let (mut labels, mut next) = ([0u8; 17], 1u8);
                let mut below = false;
                let mut cut = false;
                for (i, slot) in image.iter_mut().enumerate() {
                    let v = grid.get(preimage(rows, cols, transpose, i, n));
                    let v = match map {
                        _ if v == 0 => 0,
                        DigitMap::Identity => v,
                        DigitMap::Reversal => n as u8 + 1 - v,
                        DigitMap::FirstAppearance => {
                            if labels[v as usize] == 0 {
                                labels[v as usize] = next;
                                next += 1;
                            }
                            labels[v as usize]
                        }
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
    });
    Grid::from_cells(g, best)
}

/// The cell whose value goes to cell `i` of the image under line maps `rows`, `cols`.
#[inline]
fn preimage(rows: &[u8], cols: &[u8], transpose: bool, i: usize, n: usize) -> usize {
    // Transposed first, then the lines mapped.
    let at = Cell::at(i, n).transposed_if(transpose);
    at.through_lines(rows, cols).index(n)
}

/// [`minlex_kept`] of a jigsaw grid: over the square's 8 symmetries, the image whose
/// region map (regions numbered by first appearance), then cells (relabelled by first
/// appearance) are least. The regions move with the cells.
fn minlex_jigsaw(grid: &Grid, regions: &Regions) -> Grid {
    let g = grid.geometry();
    let n = g.n();
    let mut best: Option<(Vec<u8>, Vec<u8>)> = None;
    g.for_each_line_map(|rows, cols| {
        for transpose in [false, true] {
            let from = |i: usize| preimage(rows, cols, transpose, i, n);
            let mut map: Vec<u8> = (0..g.cells())
                .map(|i| regions.region_of(from(i)) as u8)
                .collect();
            let mut cells: Vec<u8> = (0..g.cells()).map(|i| grid.get(from(i))).collect();
            super::relabel_from(&mut map, 0);
            super::relabel(&mut cells, n);
            let key = (map, cells);
            if best.as_ref().is_none_or(|b| key < *b) {
                best = Some(key);
            }
        }
    });
    let (map, cells) = best.expect("the group has the identity");
    let regions = Regions::new(g, &map).expect("a symmetry keeps regions whole");
    Grid::from_cells(g, cells).with_regions(Arc::new(regions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Route;
    use crate::grid::{Geometry, Symmetry, Variant, SUPPORTED_SIZES};
    use crate::rng::Rand;

    /// Images under random group elements share the form; other grids differ.
    #[test]
    fn orbit_shares_one_form() {
        for v in Variant::ALL {
            // Jigsaw grids carry their regions: `jigsaw_images_share_one_form` below.
            if v.rules().symmetries == Symmetries::Sudoku || v.rules().regions_per_puzzle() {
                continue;
            }
            for n in SUPPORTED_SIZES
                .into_iter()
                .filter(|&n| v.rules().made_in(n))
            {
                let g = Geometry::for_size(n).unwrap().with_variant(v);
                let mut forms = Vec::new();
                for seed in 0..3 {
                    let grid = crate::generate::base::test_grid(g, Route::Backtrack, seed);
                    let form = minlex_kept(&grid);
                    assert!(form.find_conflict().is_none(), "{v} {n}");
                    for t in 0..3 {
                        let image = solution_grid_image(&grid, &mut Rand::new(seed * 10 + t));
                        assert!(image.find_conflict().is_none(), "{v} {n}");
                        assert_eq!(minlex_kept(&image), form, "{v} {n}");
                    }
                    for s in Symmetry::group(g) {
                        let mut cells = vec![0; g.cells()];
                        for (cell, &d) in grid.cells().iter().enumerate() {
                            cells[s.map_cell(n, cell)] = d;
                        }
                        assert_eq!(minlex_kept(&Grid::from_cells(g, cells)), form, "{v} {n}");
                    }
                    forms.push(form);
                }
                forms.sort_by(|a, b| a.cells().cmp(b.cells()));
                forms.dedup();
                // (4x4 diagonal grids are few, and may all be one grid in disguise; 6x6
                // anti-knight has 11,520 grids, at least 4 forms of 2,880 images each.)
                let few = n == 4 || (n == 6 && v.rules().apart.any());
                assert!(few || forms.len() > 1, "{v} {n}: random grids all one form");
            }
        }
    }

    /// `grid` under a random element of its group and a random relabelling.
    /// A jigsaw grid moved by each symmetry of the square (its regions with it) and
    /// relabelled has the grid's form; other grids, other forms.
    #[test]
    fn jigsaw_images_share_one_form() {
        let g = Geometry::CLASSIC.with_variant(Variant::Jigsaw);
        let mut forms = Vec::new();
        for seed in 0..3 {
            let grid = crate::generate::base::test_grid(g, Route::Enumerate, seed);
            let regions = grid.regions().unwrap();
            let form = minlex_kept(&grid);
            assert!(form.regions().is_some() && form.find_conflict().is_none());
            for s in Symmetry::ALL {
                let mut cells = vec![0; 81];
                for (cell, &d) in grid.cells().iter().enumerate() {
                    cells[s.map_cell(9, cell)] = 10 - d;
                }
                let moved = Arc::new(regions.mapped(g, s));
                let image = Grid::from_cells(g, cells).with_regions(moved);
                assert_eq!(minlex_kept(&image), form, "{s:?}");
            }
            forms.push(form);
        }
        forms.dedup();
        assert_eq!(forms.len(), 3);
    }

    fn solution_grid_image(grid: &Grid, rng: &mut Rand) -> Grid {
        let g = grid.geometry();
        let n = g.n();
        let mut maps = Vec::new();
        g.for_each_line_map(|rows, cols| maps.push((rows.to_vec(), cols.to_vec())));
        let (rows, cols) = &maps[rng.below(maps.len() as u32) as usize];
        let transpose = g.group_transposes() && rng.below(2) == 1;
        let digits = crate::generate::random_relabelling(g, rng);
        let cells = (0..g.cells())
            .map(|i| digits[grid.get(super::preimage(rows, cols, transpose, i, n)) as usize - 1])
            .collect();
        Grid::from_cells(g, cells)
    }
}
