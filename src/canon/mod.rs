//! Canonical form and fingerprint: puzzles equal up to a symmetry of the square (those
//! that keep the box shape) and a relabelling of digits share one fingerprint.

#[cfg(test)]
mod brute;
mod full;
mod kept;
mod puzzle;
pub use full::{minlex_solution, solution_class, solution_class_of_form};
pub use puzzle::{full_fingerprint, full_fingerprint_of_form, minlex_puzzle};

use crate::grid::{Cages, Grid, Relabelling, Symmetry};
use std::sync::Arc;

/// The canonical form: over every box-keeping symmetry, the image with digits relabelled
/// in order of first appearance (row by row), lexicographically least (empty = 0 first).
/// Under a rule set that keeps digits in order, the relabellings are the identity and
/// the reversal ([`Relabelling::Reversal`]).
///
/// A killer puzzle's form is the least image of (givens, cages, sums) under the symmetries
/// alone: relabelling digits changes the sums, so it makes another puzzle.
pub fn canonical(puzzle: &Grid) -> Grid {
    if let Some(cages) = puzzle.cages() {
        return killer_canonical(puzzle, cages);
    }
    if puzzle.regions().is_some() {
        // The square's 8 symmetries are the whole of a jigsaw puzzle's group.
        return kept::minlex_kept(puzzle);
    }
    let g = puzzle.geometry();
    let n = g.n();
    let mut best: Option<Vec<u8>> = None;
    let mut image = vec![0u8; g.cells()];
    for s in Symmetry::group(g) {
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            image[s.map_cell(n, cell)] = v;
        }
        match g.variant().rules().relabelling {
            Relabelling::Any => relabel(&mut image, n),
            Relabelling::Reversal => {
                let reversed: Vec<u8> = image.iter().map(|&v| reversed(v, n)).collect();
                if reversed < image {
                    image = reversed;
                }
            }
        }
        if best.as_ref().is_none_or(|b| image < *b) {
            best = Some(image.clone());
        }
    }
    Grid::from_cells(g, best.expect("the group has the identity"))
}

/// What orders killer images: givens, cage of each cell, sums.
type KillerKey = (Vec<u8>, Vec<usize>, Vec<u32>);

/// [`canonical`] for a killer puzzle: the image whose givens, then cage map (cages
/// numbered by first appearance), then sums are least.
fn killer_canonical(puzzle: &Grid, cages: &Cages) -> Grid {
    let g = puzzle.geometry();
    let n = g.n();
    let key = |grid: &Grid, cages: &Cages| {
        let map: Vec<usize> = (0..g.cells()).map(|c| cages.cage_of(c)).collect();
        let sums: Vec<u32> = (0..cages.count()).map(|k| cages.sum(k)).collect();
        (grid.cells().to_vec(), map, sums)
    };
    let mut best: Option<(Grid, KillerKey)> = None;
    for s in Symmetry::group(g) {
        let mut cells = vec![0u8; g.cells()];
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            cells[s.map_cell(n, cell)] = v;
        }
        let moved = cages.mapped(|cell| s.map_cell(n, cell));
        let image = Grid::from_cells(g, cells).with_cages(Arc::new(moved));
        let k = key(&image, image.cages().expect("caged"));
        if best.as_ref().is_none_or(|(_, b)| k < *b) {
            best = Some((image, k));
        }
    }
    best.expect("the group has the identity").0
}

/// Digit `v` reversed (`d ↦ n + 1 − d`), empty cells kept.
fn reversed(v: u8, n: usize) -> u8 {
    if v == 0 {
        0
    } else {
        n as u8 + 1 - v
    }
}

/// Renames digits 1, 2, 3… in order of first appearance.
fn relabel(cells: &mut [u8], n: usize) {
    let next = relabel_from(cells, 1);
    debug_assert!(next as usize <= n + 1);
}

/// Renames the labels of `cells` `first`, `first + 1`… in order of first appearance,
/// leaving 0 alone when `first` is 1 (an empty cell); returns the next free label.
fn relabel_from(cells: &mut [u8], first: u8) -> u8 {
    let mut map = [u8::MAX; 17];
    let mut next = first;
    for v in cells.iter_mut() {
        if *v != 0 || first == 0 {
            let slot = &mut map[*v as usize];
            if *slot == u8::MAX {
                *slot = next;
                next += 1;
            }
            *v = *slot;
        }
    }
    next
}

/// The fingerprint of a puzzle: blake3 of its size, box shape and canonical cells, as hex.
pub fn fingerprint(puzzle: &Grid) -> String {
    fingerprint_of_canonical(&canonical(puzzle))
}

/// The fingerprint of a grid already in canonical form.
pub fn fingerprint_of_canonical(canonical: &Grid) -> String {
    hash_form(b"", canonical)
}

/// The base-grid id: blake3 of size, box shape, variant (unless classic), cells and any
/// regions, 32 hex digits. Cages are left out: a killer's solution grid is the same grid
/// whatever cages are drawn on it.
pub fn grid_id(grid: &Grid) -> String {
    key_hasher(b"", grid).finalize().to_hex()[..32].to_string()
}

/// blake3 of `tag`, the size and box shape, and the cells of a canonical form, as hex:
/// the one way every form here becomes a key (the tag keeps the kinds of keys apart).
fn hash_form(tag: &[u8], form: &Grid) -> String {
    let mut hasher = key_hasher(tag, form);
    if let Some(cages) = form.cages() {
        hasher.update(cages.to_text().as_bytes());
    }
    hasher.finalize().to_hex().to_string()
}

/// A hasher fed `tag`, the geometry, the cells and any regions of `grid`.
fn key_hasher(tag: &[u8], grid: &Grid) -> blake3::Hasher {
    let g = grid.geometry();
    let mut hasher = blake3::Hasher::new();
    hasher.update(tag);
    hasher.update(&[g.n() as u8, g.box_rows() as u8, g.box_cols() as u8]);
    // Classic keys stay what they were; a variant's keys never meet another's.
    if !g.variant().rules().is_plain() {
        hasher.update(g.variant().name().as_bytes());
    }
    hasher.update(grid.cells());
    if let Some(regions) = grid.regions() {
        hasher.update(regions.to_text().as_bytes());
    }
    hasher
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_line;

    use crate::grid::samples::HARD as P;

    #[test]
    fn relabels_in_order_of_appearance() {
        let mut cells = vec![5, 0, 5, 3, 9];
        relabel(&mut cells, 9);
        assert_eq!(cells, vec![1, 0, 1, 2, 3]);
    }

    #[test]
    fn transformed_copies_share_the_fingerprint() {
        let p = parse_line(P).unwrap();
        let f = fingerprint(&p);
        for s in Symmetry::ALL {
            let mut cells = vec![0u8; 81];
            for (c, &v) in p.cells().iter().enumerate() {
                cells[s.map_cell(9, c)] = if v == 0 { 0 } else { 10 - v };
            }
            let copy = Grid::from_cells(p.geometry(), cells);
            assert_eq!(fingerprint(&copy), f, "{s:?}");
        }
    }

    /// A killer puzzle's 8 images share its fingerprint; relabelling it (which changes
    /// its sums) makes another puzzle; so does another cage layout of the same grid.
    #[test]
    fn killer_fingerprint_keeps_symmetries_not_relabelling() {
        use crate::generate::{grow_cages, pattern_grid, CageSizes};
        use crate::rng::Rand;
        let g = crate::grid::Geometry::CLASSIC;
        let solution = pattern_grid(g);
        let cages = grow_cages(&solution, CageSizes::DEFAULT, &mut Rand::new(3)).unwrap();
        let mut puzzle = Grid::empty(g).with_cages(cages.clone());
        puzzle.set(10, solution.get(10));
        let f = fingerprint(&puzzle);
        for s in Symmetry::ALL {
            let mut cells = vec![0u8; 81];
            for (c, &v) in puzzle.cells().iter().enumerate() {
                cells[s.map_cell(9, c)] = v;
            }
            let moved = Arc::new(cages.mapped(|c| s.map_cell(9, c)));
            let image = Grid::from_cells(g, cells).with_cages(moved);
            assert_eq!(fingerprint(&image), f, "{s:?}");
        }
        // Relabel d -> 10 - d: every cage of k cells now sums to 10k - sum.
        let relabelled: Vec<usize> = (0..81).map(|c| cages.cage_of(c)).collect();
        let sums: Vec<u32> = (0..cages.count())
            .map(|k| 10 * cages.cells(k).len() as u32 - cages.sum(k))
            .collect();
        let mut cells = vec![0u8; 81];
        cells[10] = 10 - solution.get(10);
        let other = Cages::new(g, &relabelled, &sums).unwrap();
        let relabelled = Grid::from_cells(g, cells).with_cages(Arc::new(other));
        assert_ne!(fingerprint(&relabelled), f);
        let regrown = grow_cages(&solution, CageSizes::DEFAULT, &mut Rand::new(4)).unwrap();
        let mut another = Grid::empty(g).with_cages(regrown);
        another.set(10, solution.get(10));
        assert_ne!(fingerprint(&another), f);
        assert_ne!(fingerprint(&puzzle.without_cages()), f);
    }

    #[test]
    fn a_different_puzzle_differs() {
        let p = parse_line(P).unwrap();
        let mut q = p.clone();
        q.set(0, 0);
        assert_ne!(fingerprint(&p), fingerprint(&q));
    }
}
