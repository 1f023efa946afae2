//! The full-group minlex form of a puzzle (clues and empty cells): the least image under
//! rows within bands, bands, columns within stacks, stacks, transposition (square boxes)
//! and relabelling in order of first appearance, empty cells 0. Two puzzles have one form
//! exactly when one is the other in disguise.
//!
//! Every column arrangement (transposition and the stack-preserving column permutations)
//! is tried; for each, the rows are chosen greedily from the top, the least relabelled
//! row first, branching on ties, and a branch stops as soon as a row is above the best
//! grid's. The column arrangements grow as (box_cols!)^(stacks) · stacks!: 2,592 with
//! transposition on 9×9, 82,944 on 12×12, about 8·10^6 on 16×16, which is refused.

use crate::grid::{Cell, Grid, Symmetries};

/// The full-group minlex form of a grid; `None` for classic 16×16 (too many column
/// arrangements) and for killer puzzles (their cages would have to follow every row and
/// column permutation; they deduplicate by the dihedral fingerprint). A grid with extra
/// units has its form over the group that keeps them.
pub fn minlex_puzzle(grid: &Grid) -> Option<Grid> {
    let g = grid.geometry();
    let n = g.n();
    if grid.cages().is_some() {
        return None;
    }
    if g.variant().rules().symmetries != Symmetries::Sudoku {
        // A rule set's own group is small enough for every size.
        return Some(super::kept::minlex_kept(grid));
    }
    if n > 12 {
        return None;
    }
    let columns = arrangements(g.box_cols(), n / g.box_cols());
    let mut best: Vec<u8> = vec![u8::MAX; g.cells()];
    let transposes: &[bool] = if g.square_boxes() {
        &[false, true]
    } else {
        &[false]
    };
    let mut rows = vec![[0u8; 12]; n];
    for &t in transposes {
        for pi in &columns {
            for (r, row) in rows.iter_mut().enumerate() {
                for (c, &x) in pi.iter().enumerate() {
                    let from = Cell::new(r, x);
                    row[c] = grid.at(from.transposed_if(t));
                }
            }
            let mut search = RowSearch {
                n,
                br: g.box_rows(),
                rows: &rows,
                used: [false; 12],
                out: vec![0; g.cells()],
                labels: [0; 17],
                next_label: 1,
                best: &mut best,
            };
            search.row(0, 0);
        }
    }
    Some(Grid::from_cells(g, best))
}

/// The full fingerprint: blake3 of (size, box shape, full-group minlex cells), hex;
/// `None` for 16x16.
pub fn full_fingerprint(grid: &Grid) -> Option<String> {
    Some(full_fingerprint_of_form(&minlex_puzzle(grid)?))
}

/// The full fingerprint of a form [`minlex_puzzle`] returned.
pub fn full_fingerprint_of_form(form: &Grid) -> String {
    super::hash_form(b"full-fingerprint", form)
}

/// Every line order that keeps groups of `per` lines (stacks of columns, bands of rows):
/// group order, then order inside each group.
pub(super) fn arrangements(per: usize, groups: usize) -> Vec<Vec<usize>> {
    fn perms(k: usize) -> Vec<Vec<usize>> {
        if k == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in perms(k - 1) {
            for i in 0..=p.len() {
                let mut q = p.clone();
                q.insert(i, k - 1);
                out.push(q);
            }
        }
        out
    }
    let inner = perms(per);
    let mut out = Vec::new();
    for outer in perms(groups) {
        let mut choice = vec![0usize; groups];
        loop {
            out.push(
                outer
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &grp)| inner[choice[i]].iter().map(move |&l| grp * per + l))
                    .collect(),
            );
            let Some(i) = (0..groups).find(|&i| choice[i] + 1 < inner.len()) else {
                break;
            };
            choice[i] += 1;
            choice[..i].fill(0);
        }
    }
    out
}

/// Greedy row choice under one column arrangement.
struct RowSearch<'a> {
    n: usize,
    br: usize,
    /// The source rows with the columns arranged.
    rows: &'a [[u8; 12]],
    used: [bool; 12],
    /// The image so far.
    out: Vec<u8>,
    /// Source digit → label (0: not yet seen).
    labels: [u8; 17],
    next_label: u8,
    best: &'a mut Vec<u8>,
}

impl RowSearch<'_> {
    /// Fills result row `i`; `band` is the source band of the current result band.
    fn row(&mut self, i: usize, band: usize) {
        let (n, br) = (self.n, self.br);
        if i == n {
            if self.out < *self.best {
                self.best.clone_from(&self.out);
            }
            return;
        }
        let candidates: Vec<usize> = if i.is_multiple_of(br) {
            (0..n).filter(|&r| !self.used[r]).collect()
        } else {
            (band * br..(band + 1) * br)
                .filter(|&r| !self.used[r])
                .collect()
        };
        // The least relabelled row among the candidates, and every candidate tying it.
        let mut least: Option<[u8; 12]> = None;
        let mut ties = Vec::new();
        for &r in &candidates {
            let image = self.relabelled(r);
            match least.map(|l| image[..n].cmp(&l[..n])) {
                None | Some(std::cmp::Ordering::Less) => {
                    least = Some(image);
                    ties.clear();
                    ties.push(r);
                }
                Some(std::cmp::Ordering::Equal) => ties.push(r),
                Some(std::cmp::Ordering::Greater) => {}
            }
        }
        let Some(least) = least else { return };
        let at = i * n;
        // Stop when the image so far, this row included, is above the best grid's.
        let against_best = self.out[..at]
            .cmp(&self.best[..at])
            .then_with(|| least[..n].cmp(&self.best[at..at + n]));
        if against_best.is_gt() {
            return;
        }
        for r in ties {
            let saved = (self.labels, self.next_label);
            for c in 0..n {
                let d = self.rows[r][c] as usize;
                if d != 0 && self.labels[d] == 0 {
                    self.labels[d] = self.next_label;
                    self.next_label += 1;
                }
                self.out[at + c] = if d == 0 { 0 } else { self.labels[d] };
            }
            self.used[r] = true;
            self.row(i + 1, if i.is_multiple_of(br) { r / br } else { band });
            self.used[r] = false;
            (self.labels, self.next_label) = saved;
        }
    }

    /// Source row `r` with the labels so far, new digits numbered on in order.
    fn relabelled(&self, r: usize) -> [u8; 12] {
        let mut labels = self.labels;
        let mut next = self.next_label;
        let mut image = [0u8; 12];
        for (slot, &d) in image.iter_mut().zip(&self.rows[r][..self.n]) {
            let d = d as usize;
            if d != 0 {
                if labels[d] == 0 {
                    labels[d] = next;
                    next += 1;
                }
                *slot = labels[d];
            }
        }
        image
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::brute;
    use crate::generate::mother_grid;
    use crate::grid::Geometry;
    use crate::rng::Rand;

    /// A grid with about `keep` of every 10 cells kept.
    fn holes(grid: &Grid, keep: u32, seed: u64) -> Grid {
        let mut rng = Rand::new(seed);
        let cells = grid
            .cells()
            .iter()
            .map(|&d| if rng.below(10) < keep { d } else { 0 })
            .collect();
        Grid::from_cells(grid.geometry(), cells)
    }

    #[test]
    fn matches_brute_force_on_small_sizes() {
        let make = |g, seed| holes(&mother_grid(g, seed, None).unwrap(), 5, seed);
        brute::agrees_on_small_sizes(20, make, minlex_puzzle);
    }

    #[test]
    #[ignore = "brute force over the 9x9 group: a few seconds"]
    fn matches_brute_force_on_9x9() {
        let g = Geometry::CLASSIC;
        let puzzles: Vec<Grid> = (0..2)
            .map(|seed| holes(&mother_grid(g, seed, None).unwrap(), 3, seed))
            .collect();
        brute::agrees_on(&puzzles, minlex_puzzle);
    }

    #[test]
    fn arrangements_are_every_order_once() {
        for (per, groups, count) in [
            (2, 2, 8),
            (3, 2, 72),
            (2, 3, 48),
            (3, 3, 1296),
            (4, 3, 82_944),
        ] {
            let all = arrangements(per, groups);
            assert_eq!(all.len(), count, "{per} x {groups}");
            let distinct: std::collections::HashSet<&Vec<usize>> = all.iter().collect();
            assert_eq!(distinct.len(), count);
            for order in &all {
                for (i, &line) in order.iter().enumerate() {
                    assert_eq!(line / per, order[i / per * per] / per, "groups stay whole");
                }
            }
        }
    }

    #[test]
    fn sixteen_is_refused() {
        assert!(minlex_puzzle(&Grid::empty(Geometry::for_size(16).unwrap())).is_none());
    }
}
