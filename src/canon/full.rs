//! The full-group minlex form of a solution grid: the lexicographically least image under
//! every validity-preserving transformation — rows within bands, bands, columns within
//! stacks, stacks, transposition when boxes are square, and relabelling. Two solution
//! grids are the same grid in disguise exactly when their forms are equal; the bank's
//! `solution_class` is the hash of this form.
//!
//! The search. Relabelling makes the first row `1 2 … N` whatever the columns, so a
//! candidate is (transposition, source row `r0` on top, column permutation `π`, order of
//! the other rows). Writing each row `k` as the permutation `σ_k(x)` = the column of
//! `r0` that holds the digit of cell (k, x), the relabelled row `k` reads
//! `π⁻¹(σ_k(π(c)))` at column `c`. Row 1 is one of `r0`'s band-mates: for each choice,
//! a depth-first search builds `π` column by column, giving each value the least result
//! column still free (which fixes columns ahead), branching only where a column or a
//! stack is really free, and cutting every branch whose row 1 is already above the best.
//! Each `π` that ties the best row 1 is finished: the rest of the band in ascending
//! order, the other bands each sorted and ordered by their first rows. With three stacks
//! or fewer, a band whose rows are aligned (see [`band_is_aligned`]) is the only kind that
//! reaches the least conceivable row 1, so when the grid has one, the others are skipped.

use crate::grid::{Geometry, Grid};

/// The full-group minlex form of a full grid (`None` for a grid with empty cells).
pub fn minlex_solution(grid: &Grid) -> Option<Grid> {
    if !grid.is_full() {
        return None;
    }
    let g = grid.geometry();
    if g.variant().has_diagonals() {
        // Only the transformations that keep the diagonals relate two such grids.
        return Some(super::diagonal::minlex_diagonal(grid));
    }
    let n = g.n();
    let mut best: Option<Vec<u8>> = None;
    let transposes: &[bool] = if g.square_boxes() {
        &[false, true]
    } else {
        &[false]
    };
    // Band-first bound: with at most three stacks, the least conceivable row 1 is reached
    // exactly from a band whose rows are "aligned" (each mini-row of one row holds the
    // digits of a single stack of the other), so when some band is aligned, no other band
    // can start the least grid and its search is skipped.
    let only_aligned = n / g.box_cols() <= 3
        && transposes
            .iter()
            .any(|&t| (0..n / g.box_rows()).any(|b| band_is_aligned(grid, t, b)));
    for &t in transposes {
        let cell = |r: usize, c: usize| {
            if t {
                grid.get(c * n + r)
            } else {
                grid.get(r * n + c)
            }
        };
        for r0 in 0..n {
            let band = r0 / g.box_rows();
            if only_aligned && !band_is_aligned(grid, t, band) {
                continue;
            }
            // pos0[d] = column of digit d in row r0; sigma[k][x] = pos0[cell(k, x)].
            let mut pos0 = [0u8; 17];
            for x in 0..n {
                pos0[cell(r0, x) as usize] = x as u8;
            }
            let sigma: Vec<[u8; 16]> = (0..n)
                .map(|k| {
                    let mut s = [0u8; 16];
                    for (x, v) in s.iter_mut().enumerate().take(n) {
                        *v = pos0[cell(k, x) as usize];
                    }
                    s
                })
                .collect();
            for k1 in (band * g.box_rows()..(band + 1) * g.box_rows()).filter(|&k| k != r0) {
                Search::new(g, &sigma, r0, k1, &mut best).column(0, true);
            }
        }
    }
    best.map(|cells| Grid::from_cells(g, cells))
}

/// Whether band `band` (of rows, or of columns when `transposed`) is aligned: each
/// mini-row of its second row holds the digits of one stack of its first row. In a band of
/// three rows or fewer this holds for every pair of its rows when it holds for one.
fn band_is_aligned(grid: &Grid, transposed: bool, band: usize) -> bool {
    let g = grid.geometry();
    let (n, bc) = (g.n(), g.box_cols());
    let cell = |r: usize, c: usize| {
        if transposed {
            grid.get(c * n + r)
        } else {
            grid.get(r * n + c)
        }
    };
    let (first, second) = (band * g.box_rows(), band * g.box_rows() + 1);
    let mut stack_of_digit = [0u8; 17];
    for x in 0..n {
        stack_of_digit[cell(first, x) as usize] = (x / bc) as u8;
    }
    (0..n / bc).all(|s| {
        let home = stack_of_digit[cell(second, s * bc) as usize];
        (s * bc + 1..(s + 1) * bc).all(|x| stack_of_digit[cell(second, x) as usize] == home)
    })
}

/// Unset entry of a partial permutation.
const NONE: u8 = u8::MAX;

/// One depth-first search: fixed transposition, top row `r0` and second row `k1`.
struct Search<'a> {
    g: Geometry,
    n: usize,
    bc: usize,
    /// Column → its stack (a table: the search runs hot and `/` by a runtime width is slow).
    stack_of: [u8; 16],
    sigma: &'a [[u8; 16]],
    /// `sigma[k1]`, the row being minimised.
    row: [u8; 16],
    r0: usize,
    /// Result column → source column (partial).
    pi: [u8; 16],
    /// Source column → result column (partial).
    inv: [u8; 16],
    /// Source stack → result stack (partial), and back.
    slot_of_stack: [u8; 4],
    stack_of_slot: [u8; 4],
    /// Result stacks given a source stack: always the first `slots` (they fill in order).
    slots: usize,
    /// Result columns not yet given a source column (bit per column).
    free_columns: u16,
    /// The least whole grid found so far, over every search.
    best: &'a mut Option<Vec<u8>>,
}

impl<'a> Search<'a> {
    fn new(
        g: Geometry,
        sigma: &'a [[u8; 16]],
        r0: usize,
        k1: usize,
        best: &'a mut Option<Vec<u8>>,
    ) -> Self {
        let (n, bc) = (g.n(), g.box_cols());
        let mut stack_of = [0u8; 16];
        for (x, s) in stack_of.iter_mut().enumerate().take(n) {
            *s = (x / bc) as u8;
        }
        Search {
            g,
            n,
            bc,
            stack_of,
            sigma,
            row: sigma[k1],
            r0,
            pi: [NONE; 16],
            inv: [NONE; 16],
            slot_of_stack: [NONE; 4],
            stack_of_slot: [NONE; 4],
            slots: 0,
            free_columns: ((1u32 << n) - 1) as u16,
            best,
        }
    }

    /// Decides result column `c` of row 1 (and what it fixes ahead), then goes on.
    /// `tight`: row 1 so far equals the best grid's (only then can a value cut).
    fn column(&mut self, c: usize, tight: bool) {
        if c == self.n {
            self.finish();
            return;
        }
        if self.pi[c] != NONE {
            self.value(c, tight);
            return;
        }
        // π(c) is free: any unplaced column of the stack that result stack c/bc holds,
        // or, when no stack holds it yet (then it is the next slot), of any stack not yet
        // placed.
        let bc = self.bc;
        let slot = self.stack_of[c] as usize;
        let held = self.stack_of_slot[slot];
        for s in 0..self.n / bc {
            let fresh = held == NONE;
            let open = if fresh {
                self.slot_of_stack[s] == NONE
            } else {
                s == held as usize
            };
            if !open {
                continue;
            }
            if fresh {
                self.place_stack(s);
            }
            for x in s * bc..(s + 1) * bc {
                if self.inv[x] == NONE {
                    self.place_column(c, x);
                    self.value(c, tight);
                    self.free_column(c, x);
                }
            }
            if fresh {
                self.free_stack(s);
            }
        }
    }

    /// Gives source stack `stack` the next result slot.
    fn place_stack(&mut self, stack: usize) {
        self.slot_of_stack[stack] = self.slots as u8;
        self.stack_of_slot[self.slots] = stack as u8;
        self.slots += 1;
    }

    /// Takes back the last [`Self::place_stack`], which gave `stack` its slot.
    fn free_stack(&mut self, stack: usize) {
        self.slots -= 1;
        self.slot_of_stack[stack] = NONE;
        self.stack_of_slot[self.slots] = NONE;
    }

    fn place_column(&mut self, result: usize, source: usize) {
        self.pi[result] = source as u8;
        self.inv[source] = result as u8;
        self.free_columns &= !(1 << result);
    }

    fn free_column(&mut self, result: usize, source: usize) {
        self.pi[result] = NONE;
        self.inv[source] = NONE;
        self.free_columns |= 1 << result;
    }

    /// With π(c) set: row 1's value at `c` is π⁻¹(σ(π(c))); when that column is not placed
    /// yet it takes the least free result column, which is what a least row 1 needs.
    fn value(&mut self, c: usize, tight: bool) {
        let bc = self.bc;
        let y = self.row[self.pi[c] as usize] as usize;
        let mut new_stack = None;
        let placed = self.inv[y] == NONE;
        if placed {
            let stack = self.stack_of[y] as usize;
            if self.slot_of_stack[stack] == NONE {
                self.place_stack(stack);
                new_stack = Some(stack);
            }
            let slot = self.slot_of_stack[stack] as usize;
            let in_slot = (self.free_columns >> (slot * bc)) & ((1 << bc) - 1);
            debug_assert!(in_slot != 0, "a free column in the stack's slot");
            self.place_column(slot * bc + in_slot.trailing_zeros() as usize, y);
        }
        let v = self.inv[y] + 1;
        // Against the best so far: larger at the first difference is cut; smaller frees
        // the rest of this branch from comparing. With no best yet, the first one found
        // comes from below here and shares this row 1 so far: still tight.
        let (cut, tight) = match self.best.as_deref() {
            Some(best) if tight => {
                let b = best[self.n + c];
                (v > b, v == b)
            }
            Some(_) => (false, false),
            None => (false, true),
        };
        if !cut {
            self.column(c + 1, tight);
        }
        if placed {
            self.free_column(v as usize - 1, y);
        }
        if let Some(stack) = new_stack {
            self.free_stack(stack);
        }
    }

    /// π is whole: the least grid with these top two rows, kept when it beats the best.
    fn finish(&mut self) {
        let n = self.n;
        let br = self.g.box_rows();
        let relabelled = |k: usize| -> [u8; 16] {
            let mut row = [0u8; 16];
            for (c, v) in row.iter_mut().enumerate().take(n) {
                *v = self.inv[self.sigma[k][self.pi[c] as usize] as usize] + 1;
            }
            row
        };
        // Rows as fixed arrays (unused tail zero), so sorting and comparing allocate nothing.
        let mut rows = [[0u8; 16]; 16];
        for (c, v) in rows[0].iter_mut().enumerate().take(n) {
            *v = c as u8 + 1;
        }
        let top = self.r0 / br;
        let mut at = 1;
        for k in (top * br..(top + 1) * br).filter(|&k| k != self.r0) {
            rows[at] = relabelled(k);
            at += 1;
        }
        rows[1..br].sort_unstable();
        let mut bands = [[[0u8; 16]; 4]; 4];
        let mut count = 0;
        for b in (0..n / br).filter(|&b| b != top) {
            for (i, k) in (b * br..(b + 1) * br).enumerate() {
                bands[count][i] = relabelled(k);
            }
            bands[count][..br].sort_unstable();
            count += 1;
        }
        bands[..count].sort_unstable();
        for band in &bands[..count] {
            rows[at..at + br].copy_from_slice(&band[..br]);
            at += br;
        }
        let better = match self.best.as_ref() {
            None => true,
            Some(best) => rows[..n]
                .iter()
                .flat_map(|r| &r[..n])
                .cmp(best.iter())
                .is_lt(),
        };
        if better {
            *self.best = Some(
                rows[..n]
                    .iter()
                    .flat_map(|r| r[..n].iter().copied())
                    .collect(),
            );
        }
    }
}

/// The solution class: blake3 of (size, box shape, full-group minlex cells), hex.
pub fn solution_class(grid: &Grid) -> Option<String> {
    Some(solution_class_of_form(&minlex_solution(grid)?))
}

/// The solution class of a form [`minlex_solution`] returned.
pub fn solution_class_of_form(form: &Grid) -> String {
    super::hash_form(b"solution-class", form)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::brute;
    use crate::generate::{mother_grid, solution_grid, Route};
    use crate::grid::SUPPORTED_SIZES;
    use crate::rng::Rand;

    #[test]
    fn matches_brute_force_on_small_sizes() {
        for n in [4, 6] {
            let g = Geometry::for_size(n).unwrap();
            for seed in 0..12 {
                let grid = mother_grid(g, seed, None).unwrap();
                let form = minlex_solution(&grid).unwrap();
                assert_eq!(
                    form.cells(),
                    &brute::minlex(&grid)[..],
                    "{n}x{n} seed {seed}"
                );
            }
        }
    }

    #[test]
    #[ignore = "brute force over the 9x9 group: about a second"]
    fn matches_brute_force_on_9x9() {
        let g = Geometry::CLASSIC;
        for grid in [
            crate::generate::pattern_grid(g),
            mother_grid(g, 3, None).unwrap(),
        ] {
            assert_eq!(
                minlex_solution(&grid).unwrap().cells(),
                &brute::minlex(&grid)[..]
            );
        }
    }

    #[test]
    fn one_form_per_orbit_and_different_forms_apart() {
        for n in SUPPORTED_SIZES {
            let g = Geometry::for_size(n).unwrap();
            let mut forms = Vec::new();
            for mother in 0..3u64 {
                let form = minlex_solution(&mother_grid(g, mother, None).unwrap()).unwrap();
                for s in 0..4 {
                    let image =
                        solution_grid(g, Route::Transform, &mut Rand::new(s), Some(mother), None)
                            .unwrap();
                    assert_eq!(
                        minlex_solution(&image).unwrap(),
                        form,
                        "{n}x{n} mother {mother}"
                    );
                }
                forms.push(form);
            }
            let pattern = minlex_solution(&crate::generate::pattern_grid(g)).unwrap();
            forms.push(pattern);
            for i in 0..forms.len() {
                for j in i + 1..forms.len() {
                    // 4x4 and 6x6 have few classes: two random grids may well share one.
                    if n >= 9 {
                        assert_ne!(forms[i], forms[j], "{n}x{n}: {i} and {j}");
                    }
                }
            }
        }
    }

    #[test]
    fn puzzles_have_no_solution_class() {
        let g = Geometry::CLASSIC;
        assert!(minlex_solution(&Grid::empty(g)).is_none());
        assert!(solution_class(&Grid::empty(g)).is_none());
    }
}
