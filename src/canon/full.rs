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
//! order, the other bands each sorted and ordered by their first rows.
//!
//! Before any search, every pair (top row, row 1) is ranked from its σ alone by a prefix
//! of the least row 1 it can reach ([`pair_rank`]), and only the pairs of the best rank are
//! searched, each from the first columns that can start that prefix. On 9×9 this leaves
//! about a third of the 36 pairs and a fifth of the search nodes.

use crate::grid::{Cell, Geometry, Grid, Symmetries};

/// The full-group minlex form of a full grid (`None` for a grid with empty cells).
pub fn minlex_solution(grid: &Grid) -> Option<Grid> {
    if !grid.is_full() {
        return None;
    }
    let g = grid.geometry();
    if g.variant().rules().symmetries != Symmetries::Sudoku {
        // Only the transformations that keep the rule relate two such grids.
        return Some(super::kept::minlex_kept(grid));
    }
    let n = g.n();
    let br = g.box_rows();
    let transposes: &[bool] = if g.square_boxes() {
        &[false, true]
    } else {
        &[false]
    };
    let lines = Lines::of(grid);
    // The other rows of r0's band, in order.
    let band_mates = |r0: usize| (r0 / br * br..(r0 / br + 1) * br).filter(move |&k| k != r0);
    // Pass 1: rank every (transposition, top row r0, second row k1) by its σ row.
    // ranks[t·n + r0][i]: k1 is the i-th of r0's band mates; positions[t·n + r0]: r0's.
    let mut ranks = [[Rank::NONE; 4]; 32];
    let mut positions = [[0u8; 17]; 32];
    for &t in transposes {
        for r0 in 0..n {
            let at = usize::from(t) * n + r0;
            positions[at] = lines.positions(t, r0);
            for (i, k1) in band_mates(r0).enumerate() {
                ranks[at][i] = pair_rank(g, &lines.sigma_row(t, &positions[at], k1));
            }
        }
    }
    // Pass 2: only the pairs of the best rank can give the least row 1; search them.
    let least = ranks
        .iter()
        .flatten()
        .map(|r| r.rank)
        .min()
        .unwrap_or(u8::MAX);
    let mut best: Option<Rows> = None;
    let mut sigma = [[0u8; 16]; 16];
    for &t in transposes {
        for r0 in 0..n {
            let at = usize::from(t) * n + r0;
            if !ranks[at].iter().any(|r| r.rank == least) {
                continue;
            }
            for (k, row) in sigma.iter_mut().enumerate().take(n) {
                *row = lines.sigma_row(t, &positions[at], k);
            }
            for (i, k1) in band_mates(r0).enumerate() {
                if ranks[at][i].rank == least {
                    Search::new(g, &sigma[..n], r0, k1, ranks[at][i].starts, &mut best)
                        .column(0, true);
                }
            }
        }
    }
    best.map(|rows| {
        Grid::from_cells(
            g,
            rows[..n]
                .iter()
                .flat_map(|r| r[..n].iter().copied())
                .collect(),
        )
    })
}

/// A full grid's rows, and its columns as rows, in fixed arrays: the tables are built
/// from them hundreds of times a grid.
struct Lines {
    n: usize,
    /// lines[0][r][c] = cell (r, c); lines[1][c][r] = the same cell.
    lines: [[[u8; 16]; 16]; 2],
}

impl Lines {
    fn of(grid: &Grid) -> Self {
        let n = grid.geometry().n();
        let mut lines = [[[0u8; 16]; 16]; 2];
        for (i, &v) in grid.cells().iter().enumerate() {
            let Cell { row, col } = Cell::at(i, n);
            lines[0][row][col] = v;
            lines[1][col][row] = v;
        }
        Lines { n, lines }
    }

    /// Digit → its column in row `r0` (of the transposed grid when `t`).
    fn positions(&self, t: bool, r0: usize) -> [u8; 17] {
        let mut pos0 = [0u8; 17];
        for (x, &v) in self.lines[usize::from(t)][r0][..self.n].iter().enumerate() {
            pos0[v as usize] = x as u8;
        }
        pos0
    }

    /// σ of row `k` against the top row whose [`Self::positions`] are `pos0`:
    /// σ[x] = the column of the top row holding the digit of cell (k, x).
    fn sigma_row(&self, t: bool, pos0: &[u8; 17], k: usize) -> [u8; 16] {
        let mut row = [0u8; 16];
        for (v, &d) in row.iter_mut().zip(&self.lines[usize::from(t)][k][..self.n]) {
            *v = pos0[d as usize];
        }
        row
    }
}

/// A pair's rank (lower gives a smaller row 1) and the source columns that may start a
/// least row 1 (bit per column).
#[derive(Clone, Copy)]
struct Rank {
    rank: u8,
    starts: u16,
}

impl Rank {
    const NONE: Rank = Rank {
        rank: u8::MAX,
        starts: 0,
    };
}

/// Ranks the pair (top row, second row) given as σ by a prefix of the least row 1 it can
/// give: a pair of a lower rank gives a smaller row 1 than any pair of a higher rank, and
/// pairs of one rank may still differ further on.
///
/// A pair is *aligned* when each stack of the second row holds the digits of one stack of
/// the top row; with at most three stacks only aligned pairs reach the least conceivable
/// row 1 (`N/b+1 …`). For 9×9 the rank goes further:
/// - aligned: row 1 is `456 789 xyz`, where `xyz` is the least relabelling of σ³ on a
///   stack: `123` (identity) < `132` (a transposition) < `231` (a 3-cycle);
/// - otherwise each stack sends two columns ("doubles") to one stack and one (the
///   "single") to another, and row 1 is `457 v…`: starting from a double `x` whose image
///   is a single, `v` is 1, 2 or 3 as σ²(x) is `x`, the other double or the single of
///   `x`'s stack; with no such `x`, `v` is 8.
fn pair_rank(g: Geometry, sigma: &[u8; 16]) -> Rank {
    let (n, bc) = (g.n(), g.box_cols());
    let every = ((1u32 << n) - 1) as u16;
    let stacks = n / bc;
    if stacks > 3 {
        return Rank {
            rank: 0,
            starts: every,
        };
    }
    // image[x]: the stack column x is sent to.
    let mut image = [0u8; 16];
    for (i, &x) in image.iter_mut().zip(&sigma[..n]) {
        *i = x / bc as u8;
    }
    let aligned = (0..stacks).all(|s| {
        image[s * bc + 1..(s + 1) * bc]
            .iter()
            .all(|&i| i == image[s * bc])
    });
    if n != 9 {
        return Rank {
            rank: u8::from(!aligned),
            starts: every,
        };
    }
    let mask =
        |keep: &dyn Fn(usize) -> bool| (0..9).filter(|&x| keep(x)).fold(0u16, |m, x| m | 1 << x);
    if aligned {
        let cube = |x: usize| sigma[sigma[sigma[x] as usize] as usize] as usize;
        return match (0..3).filter(|&x| cube(x) == x).count() {
            3 => Rank {
                rank: 0,
                starts: every,
            },
            // A transposition: `132` needs a fixed point of σ³ first.
            1 => Rank {
                rank: 1,
                starts: mask(&|x| cube(x) == x),
            },
            _ => Rank {
                rank: 2,
                starts: every,
            },
        };
    }
    // double[x]: another column of x's stack maps into the stack x maps into.
    let mut double = [false; 9];
    for s in 0..3 {
        let [a, b, c] = [image[3 * s], image[3 * s + 1], image[3 * s + 2]];
        double[3 * s..3 * s + 3].copy_from_slice(&[
            a == b || a == c,
            a == b || b == c,
            a == c || b == c,
        ]);
    }
    // v of a start x (row 1 is `457 v…` when the first column is x).
    let v = |x: usize| {
        let y = sigma[x] as usize;
        if double[y] {
            return 8;
        }
        let z = sigma[y] as usize;
        if z == x {
            1
        } else if double[z] {
            2
        } else {
            3
        }
    };
    let least = (0..9).filter(|&x| double[x]).map(v).min().unwrap_or(8);
    Rank {
        rank: 3 + least,
        starts: mask(&|x| double[x] && v(x) == least),
    }
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
    /// The source columns result column 0 may take (see [`pair_rank`]).
    starts: u16,
    /// The least whole grid found so far, over every search.
    best: &'a mut Option<Rows>,
}

impl<'a> Search<'a> {
    fn new(
        g: Geometry,
        sigma: &'a [[u8; 16]],
        r0: usize,
        k1: usize,
        starts: u16,
        best: &'a mut Option<Rows>,
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
            starts,
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
                if self.inv[x] == NONE && (c != 0 || self.starts >> x & 1 == 1) {
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
        let (cut, tight) = match self.best.as_ref() {
            Some(best) if tight => {
                let b = best[1][c];
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
        let mut rows: Rows = [[0u8; 16]; 16];
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
        // Most grids that tie row 1 lose on the top band: stop before the other bands.
        if let Some(best) = self.best.as_ref() {
            if rows[..br] > best[..br] {
                return;
            }
        }
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
        if self.best.as_ref().is_none_or(|best| rows < *best) {
            *self.best = Some(rows);
        }
    }
}

/// A grid as fixed rows (unused tails zero), so sorting and comparing allocate nothing;
/// rows compare as the cells they hold, in reading order.
type Rows = [[u8; 16]; 16];

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
    use crate::grid::{ORDERS_OF_THREE, SUPPORTED_SIZES};
    use crate::rng::Rand;

    #[test]
    fn matches_brute_force_on_small_sizes() {
        brute::agrees_on_small_sizes(
            12,
            |g, seed| mother_grid(g, seed, None).unwrap(),
            minlex_solution,
        );
    }

    #[test]
    #[ignore = "brute force over the 9x9 group: about a second"]
    fn matches_brute_force_on_9x9() {
        let g = Geometry::CLASSIC;
        let grids = [
            crate::generate::pattern_grid(g),
            mother_grid(g, 3, None).unwrap(),
        ];
        brute::agrees_on(&grids, minlex_solution);
    }

    #[test]
    fn one_form_per_orbit_and_different_forms_apart() {
        for n in SUPPORTED_SIZES {
            let g = Geometry::for_size(n).unwrap();
            let mut forms = Vec::new();
            for mother in 0..3u64 {
                let form = minlex_solution(&mother_grid(g, mother, None).unwrap()).unwrap();
                for s in 0..4 {
                    let image = solution_grid(
                        g,
                        Route::Transform,
                        &mut Rand::new(s),
                        Some(mother),
                        None,
                        crate::generate::GENERATOR_VERSION,
                    )
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

    /// The least row 1 of a 9×9 pair by trying all 1,296 column permutations, and the
    /// source columns that start it.
    fn least_row_one(sigma: &[u8; 16]) -> ([u8; 9], u16) {
        let mut least = ([u8::MAX; 9], 0u16);
        for stacks in ORDERS_OF_THREE {
            for a in ORDERS_OF_THREE {
                for b in ORDERS_OF_THREE {
                    for c in ORDERS_OF_THREE {
                        let within = [a, b, c];
                        // pi[result column] = source column.
                        let pi: Vec<usize> = (0..9)
                            .map(|r| 3 * stacks[r / 3] + within[r / 3][r % 3])
                            .collect();
                        let mut inv = [0usize; 9];
                        for (r, &x) in pi.iter().enumerate() {
                            inv[x] = r;
                        }
                        let mut row = [0u8; 9];
                        for (c, v) in row.iter_mut().enumerate() {
                            *v = inv[sigma[pi[c]] as usize] as u8 + 1;
                        }
                        if row < least.0 {
                            least = (row, 0);
                        }
                        if row == least.0 {
                            least.1 |= 1 << pi[0];
                        }
                    }
                }
            }
        }
        least
    }

    #[test]
    fn pair_ranks_order_pairs_as_their_least_row_one() {
        let g = Geometry::CLASSIC;
        let mut seen: Vec<(u8, [u8; 9])> = Vec::new();
        let grids = (0..40u64).map(|seed| mother_grid(g, seed, None).unwrap());
        for grid in grids.chain([crate::generate::pattern_grid(g)]) {
            let lines = Lines::of(&grid);
            for t in [false, true] {
                for r0 in 0..9 {
                    let pos0 = lines.positions(t, r0);
                    for k1 in (r0 / 3 * 3..r0 / 3 * 3 + 3).filter(|&k| k != r0) {
                        let sigma = lines.sigma_row(t, &pos0, k1);
                        let rank = pair_rank(g, &sigma);
                        let (row, starts) = least_row_one(&sigma);
                        // The prefix the rank stands for.
                        let prefix: &[u8] = match rank.rank {
                            0 => &[4, 5, 6, 7, 8, 9, 1, 2, 3],
                            1 => &[4, 5, 6, 7, 8, 9, 1, 3, 2],
                            2 => &[4, 5, 6, 7, 8, 9, 2, 3, 1],
                            r => &[4, 5, 7, r - 3],
                        };
                        assert_eq!(&row[..prefix.len()], prefix, "rank {}", rank.rank);
                        assert_eq!(starts & !rank.starts, 0, "a least start left out");
                        seen.push((rank.rank, row));
                    }
                }
            }
        }
        for (ra, rowa) in &seen {
            for (rb, rowb) in &seen {
                if ra < rb {
                    assert!(rowa < rowb, "rank {ra} {rowa:?} against rank {rb} {rowb:?}");
                }
            }
        }
        let ranks: std::collections::BTreeSet<u8> = seen.iter().map(|s| s.0).collect();
        // Every kind of pair occurs among these grids, so every claim above was checked.
        assert_eq!(
            ranks.into_iter().collect::<Vec<_>>(),
            [0, 1, 2, 4, 5, 6, 11]
        );
    }

    #[test]
    fn puzzles_have_no_solution_class() {
        let g = Geometry::CLASSIC;
        assert!(minlex_solution(&Grid::empty(g)).is_none());
        assert!(solution_class(&Grid::empty(g)).is_none());
    }
}
