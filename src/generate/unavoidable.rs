//! Unavoidable sets of a solution grid, for digging.
//!
//! An unavoidable set is a set of cells whose digits can be rearranged into another valid
//! grid: a puzzle with no clue in it has a second solution. Digging uses this as a cheap
//! refusal before the solver: removing clues that empty one of the grid's known sets loses
//! uniqueness, with no search.
//!
//! The sets found up front are the two-digit ones. Take digits `a` and `b`: every row, column
//! and box holds one cell of each. Swapping `a` and `b` on a set of these cells keeps the
//! grid valid exactly when, for every unit, the set holds both of the unit's two cells or
//! neither. The smallest such sets are the connected components of the graph that links the
//! two cells of every unit; the unavoidable rectangles (four cells, two boxes) are among
//! them. Each extra unit of the rule set (a diagonal, …) is one more unit that joins rows.
//!
//! Digging learns more as it goes ([`Unavoidable::learn`]): each second solution its
//! searches find differs from the grid on an unavoidable set, and the small ones refuse
//! later removals in the other digs of the same grid.

use crate::grid::CellSet;
use crate::grid::Grid;
use std::cell::RefCell;

/// The two-digit unavoidable sets of one solution grid, indexed by cell, and the small
/// ones its digs found when it learns them.
pub struct Unavoidable {
    sets: Vec<CellSet>,
    /// Indexes into `sets` of the sets holding each cell, `n - 1` slots per cell (one per
    /// other digit, [`NONE`] when that pair's set through the cell spans both digits).
    through: Vec<u16>,
    /// Slots per cell in `through`.
    slots: usize,
    /// Sets digging met ([`Unavoidable::learn`]), when the grid learns them.
    learned: Option<RefCell<Learned>>,
}

/// The small unavoidable sets digging met, at most 64, with a word per cell naming the
/// sets that hold it.
struct Learned {
    sets: Vec<CellSet>,
    /// Per cell: bit `i` when `sets[i]` holds the cell.
    through: Vec<u64>,
}

/// The most cells of a set worth learning. Measured on a classic expert fill of 300
/// (one worker, 135 grids): of the 4,064 removals learned sets of any size refused, sets
/// of at most 12 cells refused 3,932, and a check then reads 2.8 sets on average against
/// 29.6. The second solutions digging finds differ from the grid on 21 cells on average.
const LEARNED_MOST_CELLS: usize = 12;

/// The most sets learned per grid (one bit each in [`Learned::through`]).
const LEARNED_MOST_SETS: usize = 64;

/// An empty slot of `through`.
const NONE: u16 = u16::MAX;

/// A component whose swap breaks a rule beyond units: no set.
const BROKEN: u16 = u16::MAX - 1;

impl Unavoidable {
    /// The two-digit unavoidable sets of `solution`, smaller than the whole of two digits'
    /// cells (swapping two digits everywhere is a relabelling: no clue set misses it).
    /// None for a killer grid.
    pub fn two_digit(solution: &Grid) -> Unavoidable {
        let g = solution.geometry();
        let n = g.n();
        // For each digit, its cell in each row, and the row of its cell in each column and box.
        let mut cell_in_row = vec![[0usize; 16]; n + 1];
        let mut row_in_col = vec![[0usize; 16]; n + 1];
        let mut row_in_box = vec![[0usize; 16]; n + 1];
        // The same for the extra units of the rule set.
        let layout = solution.layout();
        let extra = layout.extra_units();
        let mut row_in_extra = vec![0usize; (n + 1) * extra.len()];
        for (cell, &d) in solution.cells().iter().enumerate() {
            let (place, d) = (layout.places[cell], d as usize);
            let r = place.row as usize;
            cell_in_row[d][r] = cell;
            row_in_col[d][place.col as usize] = r;
            row_in_box[d][place.bx as usize] = r;
            for &u in layout.extra_units_of(cell) {
                row_in_extra[d * extra.len() + u as usize - extra.start] = r;
            }
        }
        let mut found = Unavoidable {
            sets: Vec::new(),
            through: vec![NONE; g.cells() * (n - 1)],
            slots: n - 1,
            learned: None,
        };
        if solution.cages().is_some() {
            // Swapping two digits changes cage sums, so under cages no set is unavoidable.
            return found;
        }
        // Under a rule beyond units (a move, touching digits) a swap that keeps every unit
        // may still break it: such a set is kept only when its swap makes a valid grid.
        let rules = g.variant().rules();
        let beyond_units = rules.apart.any() || rules.neighbours.any();
        // Union-find over the rows: a row's two cells (digit a's and digit b's) always go
        // together, so a component is a set of rows; columns and boxes join rows.
        let mut parent = [0usize; 16];
        for a in 1..=n {
            for b in a + 1..=n {
                for (i, p) in parent.iter_mut().enumerate() {
                    *p = i;
                }
                for u in 0..n {
                    union(&mut parent, row_in_col[a][u], row_in_col[b][u]);
                    union(&mut parent, row_in_box[a][u], row_in_box[b][u]);
                }
                let e = extra.len();
                let (on_a, on_b) = (&row_in_extra[a * e..][..e], &row_in_extra[b * e..][..e]);
                for (&ra, &rb) in on_a.iter().zip(on_b) {
                    union(&mut parent, ra, rb);
                }
                let mut roots = [0usize; 16];
                for (r, root) in roots.iter_mut().enumerate().take(n) {
                    *root = find(&mut parent, r);
                }
                if roots[..n].iter().all(|&root| root == roots[0]) {
                    continue; // one component: the relabelling of the two digits
                }
                // Under a rule beyond units, each root's component, to check its swap.
                let mut components = [CellSet::default(); 16];
                if beyond_units {
                    for (r, &root) in roots[..n].iter().enumerate() {
                        components[root].insert(cell_in_row[a][r]);
                        components[root].insert(cell_in_row[b][r]);
                    }
                }
                // Index in `sets` of each root's component, once it has one.
                let mut index_of = [NONE; 16];
                for (r, &root) in roots[..n].iter().enumerate() {
                    if index_of[root] == NONE {
                        index_of[root] =
                            if beyond_units && !swap_keeps_rules(solution, components[root]) {
                                BROKEN
                            } else {
                                found.sets.push(CellSet::default());
                                (found.sets.len() - 1) as u16
                            };
                    }
                    let k = index_of[root];
                    if k == BROKEN {
                        continue;
                    }
                    // Slots of the other digit: digits above the cell's own shift down one.
                    for (cell, slot) in [(cell_in_row[a][r], b - 2), (cell_in_row[b][r], a - 1)] {
                        found.sets[k as usize].insert(cell);
                        found.through[cell * found.slots + slot] = k;
                    }
                }
            }
        }
        found
    }

    /// Whether one of the sets through the cells `cleared` has no cell in `clues`: then the
    /// puzzle with those clues has another solution.
    pub fn emptied_by(&self, clues: &CellSet, cleared: &[usize]) -> bool {
        let learned = self.learned.as_ref().map(RefCell::borrow);
        cleared.iter().any(|&cell| {
            let two_digit = self.through[cell * self.slots..(cell + 1) * self.slots]
                .iter()
                .any(|&k| k != NONE && self.sets[k as usize].and(*clues).is_empty());
            two_digit
                || learned
                    .as_ref()
                    .is_some_and(|l| l.emptied_through(cell, clues))
        })
    }

    /// The same sets, learning more as digs find them ([`Unavoidable::learn`]): for a
    /// grid that many digs share, as the fill's are. A grid dug once would only pay for
    /// the copies of the solutions its searches find (+4.4 % instructions digging 300
    /// fresh grids).
    pub fn learning(mut self) -> Unavoidable {
        let cells = self.through.len() / self.slots;
        self.learned = Some(RefCell::new(Learned {
            sets: Vec::new(),
            through: vec![0; cells],
        }));
        self
    }

    /// Whether [`Unavoidable::learn`] keeps what it is given.
    pub fn learns(&self) -> bool {
        self.learned.is_some()
    }

    /// Takes in `other`, another valid grid of the same rules (a second solution a dig
    /// found): the cells where it differs from `solution` are an unavoidable set, kept
    /// when it has at most [`LEARNED_MOST_CELLS`] cells and fewer than
    /// [`LEARNED_MOST_SETS`] are kept. Nothing is learned of a killer grid (its digs
    /// change the cages, and with them what is unavoidable), nor unless
    /// [`Unavoidable::learning`]. A set already kept is never found again: a removal that
    /// empties it is refused ([`Unavoidable::emptied_by`]) before any search.
    pub fn learn(&self, solution: &Grid, other: &Grid) {
        let Some(learned) = &self.learned else {
            return;
        };
        if solution.cages().is_some() {
            return;
        }
        let mut differ = CellSet::default();
        for (cell, (a, b)) in solution.cells().iter().zip(other.cells()).enumerate() {
            if a != b {
                differ.insert(cell);
            }
        }
        let mut learned = learned.borrow_mut();
        if differ.len() > LEARNED_MOST_CELLS || learned.sets.len() == LEARNED_MOST_SETS {
            return;
        }
        let bit = 1u64 << learned.sets.len();
        for cell in differ.iter() {
            learned.through[cell] |= bit;
        }
        learned.sets.push(differ);
    }

    /// The sets, each as a set of cells.
    #[cfg(test)]
    fn sets(&self) -> &[CellSet] {
        &self.sets
    }

    /// The sets learned so far.
    #[cfg(test)]
    pub(super) fn learned(&self) -> Vec<CellSet> {
        self.learned
            .as_ref()
            .map_or(Vec::new(), |l| l.borrow().sets.clone())
    }
}

impl Learned {
    /// Whether a learned set through `cell` has no cell in `clues`.
    fn emptied_through(&self, cell: usize, clues: &CellSet) -> bool {
        let mut through = self.through[cell];
        while through != 0 {
            let i = through.trailing_zeros() as usize;
            if self.sets[i].and(*clues).is_empty() {
                return true;
            }
            through &= through - 1;
        }
        false
    }
}

/// Whether swapping the two digits of `cells` in `solution` leaves a valid grid.
fn swap_keeps_rules(solution: &Grid, cells: CellSet) -> bool {
    let mut digits = cells.iter().map(|c| solution.get(c));
    let a = digits.next().unwrap_or(0);
    let b = digits.find(|&d| d != a).unwrap_or(a);
    let mut swapped = solution.clone();
    for cell in cells.iter() {
        swapped.set(cell, if solution.get(cell) == a { b } else { a });
    }
    swapped.find_conflict().is_none()
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

fn union(parent: &mut [usize], x: usize, y: usize) {
    let (rx, ry) = (find(parent, x), find(parent, y));
    parent[rx] = ry;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::base::{pattern_grid, test_grid, Route};
    use crate::grid::{parse_line, Cell, Geometry, Variant};
    use crate::rng::Rand;
    use crate::solver::count_solutions;

    use crate::grid::samples::HARD_SOLUTION as SOLUTION;

    /// A puzzle holding every clue of `solution` but `set` has a second solution.
    fn assert_unavoidable(solution: &Grid, set: &CellSet) {
        let mut puzzle = solution.clone();
        for cell in set.iter() {
            puzzle.set(cell, 0);
        }
        assert_eq!(count_solutions(&puzzle, 2).count, 2, "{puzzle}");
    }

    #[test]
    fn every_set_found_is_unavoidable() {
        for n in crate::grid::SUPPORTED_SIZES {
            let grid = pattern_grid(Geometry::for_size(n).unwrap());
            let ua = Unavoidable::two_digit(&grid);
            assert!(!ua.sets().is_empty(), "size {n}");
            for set in ua.sets() {
                assert_unavoidable(&grid, set);
            }
        }
        let grid = parse_line(SOLUTION).unwrap();
        let ua = Unavoidable::two_digit(&grid);
        for set in ua.sets() {
            assert_unavoidable(&grid, set);
        }
        // Under the diagonal rule (counted by the diagonal-aware solver), on every size.
        let mut found = 0;
        for n in crate::grid::SUPPORTED_SIZES {
            let g = Geometry::for_size(n)
                .unwrap()
                .with_variant(Variant::Diagonal);
            for seed in 0..6 {
                let grid = test_grid(g, Route::Enumerate, seed);
                let ua = Unavoidable::two_digit(&grid);
                for set in ua.sets() {
                    assert_unavoidable(&grid, set);
                    found += 1;
                }
            }
        }
        assert!(found > 0, "no diagonal grid had a two-digit set to check");
    }

    #[test]
    fn finds_every_unavoidable_rectangle() {
        // Two rows, two columns, two digits placed crosswise, in two boxes: the smallest
        // unavoidable sets. Found by brute force on random grids, all must be among the sets.
        let g = Geometry::CLASSIC;
        let mut rectangles = 0;
        for seed in 0..40 {
            let grid = test_grid(g, Route::Backtrack, seed);
            let ua = Unavoidable::two_digit(&grid);
            let at = |r: usize, c: usize| grid.at(Cell::new(r, c));
            for (r1, r2) in (0..9).flat_map(|a| (a + 1..9).map(move |b| (a, b))) {
                for (c1, c2) in (0..9).flat_map(|a| (a + 1..9).map(move |b| (a, b))) {
                    let crosswise = at(r1, c1) == at(r2, c2) && at(r1, c2) == at(r2, c1);
                    let two_boxes = (r1 / 3 == r2 / 3) != (c1 / 3 == c2 / 3);
                    if crosswise && two_boxes {
                        let set: CellSet = [(r1, c1), (r1, c2), (r2, c1), (r2, c2)]
                            .map(|(r, c)| Cell::new(r, c).index(9))
                            .into_iter()
                            .collect();
                        assert!(ua.sets().contains(&set), "seed {seed}: {set:?}");
                        rectangles += 1;
                    }
                }
            }
        }
        assert!(rectangles > 0, "the grids held no rectangle to check");
    }

    /// Digs of classic and diagonal grids under every strategy teach their grid's sets:
    /// each is unavoidable (checked by a count), small, learned once (a removal emptying
    /// a kept set is refused before any search) and refuses the removal that empties it.
    /// They only spare searches: a dig of the taught grid gives the same puzzle as a dig
    /// of a fresh copy.
    #[test]
    fn learned_sets_are_small_unavoidable_and_change_no_dig() {
        use crate::generate::dig::{BaseGrid, DigStop, Digger, Strategy};
        use crate::solver::Solver;
        let solver = Solver::new();
        let mut learned = 0;
        for variant in [Variant::Classic, Variant::Diagonal] {
            let g = Geometry::CLASSIC.with_variant(variant);
            for seed in 0..4 {
                let grid = test_grid(g, Route::Backtrack, seed);
                let taught = BaseGrid::shared(grid.clone());
                for (i, strategy) in Strategy::ALL.into_iter().cycle().take(12).enumerate() {
                    let stop = match i % 3 {
                        0 => DigStop::Minimal,
                        k => DigStop::Clues(22 + 2 * k),
                    };
                    let dig = |base: &BaseGrid| {
                        let mut rng = Rand::new(i as u64);
                        let mut d = Digger::new(base, strategy, Some(40), &mut rng, &solver);
                        d.dig_to(stop).cloned()
                    };
                    let fresh = BaseGrid::new(grid.clone());
                    assert_eq!(dig(&taught), dig(&fresh), "{variant:?} seed {seed} dig {i}");
                }
                let sets = taught.unavoidable().learned();
                for (i, set) in sets.iter().enumerate() {
                    assert!(set.len() <= LEARNED_MOST_CELLS, "{set:?}");
                    assert!(!sets[..i].contains(set), "learned twice: {set:?}");
                    assert_unavoidable(&grid, set);
                    let cell = set.iter().next().unwrap();
                    let clues = (0..81).collect::<CellSet>().minus(*set);
                    assert!(taught.unavoidable().emptied_by(&clues, &[cell]));
                }
                learned += sets.len();
            }
        }
        assert!(learned >= 20, "only {learned} sets learned");
    }

    #[test]
    fn emptied_by_sees_a_set_with_no_clue_left() {
        let grid = parse_line(SOLUTION).unwrap();
        let ua = Unavoidable::two_digit(&grid);
        let set = ua.sets()[0];
        let clues: CellSet = (0..81).collect();
        let cells: Vec<usize> = set.iter().collect();
        // Clear all but one cell of the set: not yet emptied.
        let mut partial = clues;
        for &c in &cells[1..] {
            partial.remove(c);
        }
        assert!(!ua.emptied_by(&partial, &cells[1..]));
        partial.remove(cells[0]);
        assert!(ua.emptied_by(&partial, &cells[..1]));
    }
}
