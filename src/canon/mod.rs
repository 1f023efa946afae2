//! Canonical form and fingerprint: puzzles equal up to a symmetry of the square (those
//! that keep the box shape) and a relabelling of digits share one fingerprint.

#[cfg(test)]
mod brute;
mod diagonal;
mod full;
mod puzzle;
pub use full::{minlex_solution, solution_class, solution_class_of_form};
pub use puzzle::{full_fingerprint, full_fingerprint_of_form, minlex_puzzle};

use crate::grid::{Grid, Symmetry, Variant};

/// The canonical form: over every box-keeping symmetry, the image with digits relabelled
/// in order of first appearance (row by row), lexicographically least (empty = 0 first).
pub fn canonical(puzzle: &Grid) -> Grid {
    let g = puzzle.geometry();
    let n = g.n();
    let mut best: Option<Vec<u8>> = None;
    let mut image = vec![0u8; g.cells()];
    for s in Symmetry::group(g) {
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            image[s.map_cell(n, cell)] = v;
        }
        relabel(&mut image, n);
        if best.as_ref().is_none_or(|b| image < *b) {
            best = Some(image.clone());
        }
    }
    Grid::from_cells(g, best.expect("the group has the identity"))
}

/// Renames digits 1, 2, 3… in order of first appearance.
fn relabel(cells: &mut [u8], n: usize) {
    let mut map = [0u8; 17];
    let mut next = 1u8;
    for v in cells.iter_mut() {
        if *v != 0 {
            let slot = &mut map[*v as usize];
            if *slot == 0 {
                *slot = next;
                next += 1;
            }
            *v = *slot;
        }
    }
    debug_assert!(next as usize <= n + 1);
}

/// The fingerprint of a puzzle: blake3 of its size, box shape and canonical cells, as hex.
pub fn fingerprint(puzzle: &Grid) -> String {
    fingerprint_of_canonical(&canonical(puzzle))
}

/// The fingerprint of a grid already in canonical form.
pub fn fingerprint_of_canonical(canonical: &Grid) -> String {
    hash_form(b"", canonical)
}

/// blake3 of `tag`, the size and box shape, and the cells of a canonical form, as hex:
/// the one way every form here becomes a key (the tag keeps the kinds of keys apart).
fn hash_form(tag: &[u8], form: &Grid) -> String {
    let g = form.geometry();
    let mut hasher = blake3::Hasher::new();
    hasher.update(tag);
    hasher.update(&[g.n() as u8, g.box_rows() as u8, g.box_cols() as u8]);
    // Classic keys stay what they were; a variant's keys never meet another's.
    if g.variant() != Variant::Classic {
        hasher.update(g.variant().name().as_bytes());
    }
    hasher.update(form.cells());
    hasher.finalize().to_hex().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_line;

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

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

    #[test]
    fn a_different_puzzle_differs() {
        let p = parse_line(P).unwrap();
        let mut q = p.clone();
        q.set(0, 0);
        assert_ne!(fingerprint(&p), fingerprint(&q));
    }
}
