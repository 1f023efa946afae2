//! Bitmask solver: solution counts up to a limit, the first solution, search statistics.
//!
//! This is the hot path of generation (every dig step asks it) and of `bank solve`.
//! See `search.rs` for the algorithm.

mod band_tables;
mod cages;
mod search;
pub mod trace;

use crate::grid::{Geometry, Grid};
use crate::rng::Rand;
use band_tables::{band_tables, region_words};
use cages::CageTable;
use search::{Ascending, BranchOrder, Found, Search};
use std::time::Instant;
use thiserror::Error;

/// Effort a search spent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Search states examined (the root plus one per branch taken).
    pub nodes: u64,
    /// Branches taken: each candidate tried at a branching cell.
    pub guesses: u64,
    /// Dead ends: states that propagation proved contradictory.
    pub backtracks: u64,
}

/// The deadline passed before the search finished; no result is given.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
#[error("deadline passed")]
pub struct Aborted;

/// Result of counting solutions.
#[derive(Clone, Debug)]
pub struct Counted {
    /// Solutions found, at most the limit asked for.
    pub count: u64,
    /// The first solution found, if any.
    pub first: Option<Grid>,
    /// The second solution found, if any (when the limit allowed two).
    pub second: Option<Grid>,
    /// Effort spent.
    pub stats: SearchStats,
}

impl Counted {
    /// The solution when there is exactly one.
    pub fn unique(&self) -> Option<&Grid> {
        if self.count == 1 {
            self.first.as_ref()
        } else {
            None
        }
    }
}

/// A solver, optionally bounded by a wall-clock deadline. A deadline can abort a search,
/// never change its result.
#[derive(Clone, Copy, Debug)]
pub struct Solver {
    deadline: Option<Instant>,
    /// Whether a killer search locks a digit a cage must hold in the units its places
    /// there share (see [`Solver::with_cage_locking`]).
    cage_locking: bool,
    /// The tree its searches walk: the measured one but in [`Solver::count_fast`].
    tree: Tree,
    /// Whether its counts keep the solutions they find (all but [`Solver::count_fast`]).
    keep_solutions: bool,
    /// Whether its searches propagate support under a neighbours rule (see
    /// [`Solver::with_neighbour_support`]).
    neighbour_support: bool,
    /// Whether its searches keep every solution, going on for this many nodes past the
    /// first (only [`Solver::random_solutions_restarting`]'s).
    keep_all: Option<u64>,
    /// Whether its searches point from a jigsaw puzzle's regions (see
    /// [`Solver::with_region_pointing`]).
    region_pointing: bool,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

/// Calls `$f::<N, BR, DB, BANDS>(args)` for the grid side of geometry `$g`: `N` digits,
/// `BR` rows per band, `DB = N * BANDS` digit-band words.
macro_rules! by_size {
    ($g:expr, $f:ident($($arg:expr),*)) => {
        match $g.n() {
            4 => $f::<4, 2, 8, 2>($($arg),*),
            6 => $f::<6, 2, 18, 3>($($arg),*),
            9 => $f::<9, 3, 27, 3>($($arg),*),
            12 => $f::<12, 3, 48, 4>($($arg),*),
            16 => $f::<16, 4, 64, 4>($($arg),*),
            n => unreachable!("unsupported grid side {n}"),
        }
    };
}

impl Solver {
    /// A solver with no deadline.
    pub fn new() -> Solver {
        Solver::with_deadline(None)
    }

    /// A solver that gives up at `deadline`.
    pub fn with_deadline(deadline: Option<Instant>) -> Solver {
        Solver {
            deadline,
            cage_locking: true,
            tree: Tree::Measured,
            keep_solutions: true,
            neighbour_support: false,
            keep_all: None,
            region_pointing: false,
        }
    }

    /// The same solver with cage locking on (the default) or off. Killer searches lock a
    /// digit every combination of a cage holds in the row, column or box its places in
    /// the cage share; generator versions before
    /// `generate::CAGE_LOCKING_SINCE` did not. Counts agree either way, but the
    /// second solution a count finds, and so what a killer dig makes, need not: `reproduce`
    /// turns it off for puzzles of those versions.
    pub fn with_cage_locking(mut self, on: bool) -> Solver {
        self.cage_locking = on;
        self
    }

    /// The same solver with pointing from a jigsaw puzzle's regions on or off (off by
    /// default): a digit whose places in a region share a row or column leaves the rest of
    /// that line, as pointing from a box does in every search. A jigsaw dig's uniqueness
    /// checks take 4 times fewer instructions so (docs/benchmarks.md); the same counts,
    /// but another tree, so [`Solver::search_effort`], the stored effort, searches without
    /// it, and a search that picks solutions (a grid) uses it from the generator version
    /// that says so (the jigsaw refills from 13). Not from the rule sets' extra units: a
    /// windoku dig gained nothing.
    pub fn with_region_pointing(mut self, on: bool) -> Solver {
        self.region_pointing = on;
        self
    }

    /// The same solver with support under a neighbours rule on or off (the default): a
    /// digit leaves the cells beside a cell whose digits all lie within one of it
    /// (non-consecutive). Counts agree either way, but the trees differ, and so the
    /// stored effort, the order in which solutions are found and the grid a random search
    /// finds: only the grid search turns it on, from generator version 11
    /// (`STEADY_GRID_SEARCH_SINCE` in `generate/base.rs`).
    pub fn with_neighbour_support(mut self, on: bool) -> Solver {
        self.neighbour_support = on;
        self
    }

    /// The effort to prove `puzzle` unique (a count to two): the bank's stored effort,
    /// by the tree without region pointing whatever this solver's.
    pub fn search_effort(&self, puzzle: &Grid) -> Result<SearchStats, Aborted> {
        let measured = self.with_region_pointing(false);
        Ok(measured.count(puzzle, 2)?.stats)
    }

    /// Counts solutions of `grid`, stopping at `limit` (use 2 for a uniqueness check).
    pub fn count(&self, grid: &Grid, limit: u64) -> Result<Counted, Aborted> {
        let counted = self.count_within(grid, limit, u64::MAX)?;
        Ok(counted.expect("a count without a node budget runs to its end"))
    }

    /// [`Self::count`] by the fastest search, for questions whose answer is the count
    /// alone (a uniqueness check): the same count, without the solutions (`first` and
    /// `second` are `None`: keeping them costs time, design notes "Two search trees"),
    /// and the statistics are another search's (on 9×9 grids with boxes it branches on
    /// configurations, see `search/configurations.rs`; past [`FASTEST_NODES`] nodes it
    /// starts again as `count`). The bank's stored effort is `count`'s.
    pub fn count_fast(&self, grid: &Grid, limit: u64) -> Result<Counted, Aborted> {
        let counting = Solver {
            keep_solutions: false,
            ..*self
        };
        match counting.count_in(grid, limit, Tree::Fastest, FASTEST_NODES)? {
            Some(counted) => Ok(counted),
            None => counting.count(grid, limit),
        }
    }

    /// [`Self::count`], unless the search needs more than `nodes` nodes: `None` then.
    /// A count that often ends within a few nodes can try this first.
    pub fn count_within(
        &self,
        grid: &Grid,
        limit: u64,
        nodes: u64,
    ) -> Result<Option<Counted>, Aborted> {
        self.count_in(grid, limit, Tree::Measured, nodes)
    }

    /// A count to `limit` walking `tree`, `None` past `nodes` nodes.
    fn count_in(
        &self,
        grid: &Grid,
        limit: u64,
        tree: Tree,
        nodes: u64,
    ) -> Result<Option<Counted>, Aborted> {
        let g = grid.geometry();
        let solver = Solver { tree, ..*self };
        let found = by_size!(
            g,
            explore_within(grid, None, limit, solver, Ascending, nodes)
        )?;
        Ok(found.map(|s| Counted {
            count: s.count,
            first: s.first.map(|cells| solution_of(grid, cells)),
            second: s.second.map(|cells| solution_of(grid, cells)),
            stats: s.stats,
        }))
    }

    /// Whether `grid` has a solution with some digit other than `digit` at open `cell`.
    ///
    /// Digging asks this after removing clue `digit` from `cell`: when the answer is no,
    /// the puzzle still has exactly one solution. It is one search for any solution, not
    /// a count to two.
    pub fn has_solution_avoiding(
        &self,
        grid: &Grid,
        cell: usize,
        digit: u8,
    ) -> Result<bool, Aborted> {
        Ok(self.search_avoiding(grid, cell, digit, false)?.count > 0)
    }

    /// [`Self::has_solution_avoiding`], with the solution it finds: where that solution
    /// differs from the puzzle's is a set of cells the puzzle needs a clue in.
    pub fn solution_avoiding(
        &self,
        grid: &Grid,
        cell: usize,
        digit: u8,
    ) -> Result<Option<Grid>, Aborted> {
        let found = self.search_avoiding(grid, cell, digit, true)?;
        Ok(found.first.map(|cells| solution_of(grid, cells)))
    }

    /// One search for a solution of `grid` without `digit` at `cell`, keeping the
    /// solution's values when `keep`.
    fn search_avoiding(
        &self,
        grid: &Grid,
        cell: usize,
        digit: u8,
        keep: bool,
    ) -> Result<Found, Aborted> {
        let avoid = Avoid { cell, digit, keep };
        let g = grid.geometry();
        by_size!(g, explore(grid, Some(avoid), 1, *self, Ascending))
    }

    /// A full grid found by searching from `start` with candidates tried in random order
    /// (the solver-enumeration route). `None` when `start` has no solution.
    pub fn random_solution(&self, start: &Grid, rng: &mut Rand) -> Result<Option<Grid>, Aborted> {
        let g = start.geometry();
        let s = by_size!(g, explore(start, None, 1, *self, RandomOrder(rng)))?;
        Ok(s.first.map(|cells| solution_of(start, cells)))
    }

    /// [`Self::random_solution`], restarted on the same stream whenever a search runs past
    /// its node budget, as `restarts` sets it: a random search whose length is
    /// heavy-tailed finishes sooner so (non-consecutive grids: 0 to 80 ms from an empty
    /// grid without restarts). `None` when `start` has no solution, or under
    /// [`Restarts::Doubling`] with a cap, when the cap is reached first.
    pub fn random_solution_restarting(
        &self,
        start: &Grid,
        rng: &mut Rand,
        restarts: Restarts,
    ) -> Result<Option<Grid>, Aborted> {
        let g = start.geometry();
        let mut nodes = match restarts {
            Restarts::Doubling { from, .. } => from,
            Restarts::Steady(nodes) => nodes,
        };
        loop {
            let order = RandomOrder(&mut *rng);
            if let Some(s) = by_size!(g, explore_within(start, None, 1, *self, order, nodes))? {
                return Ok(s.first.map(|cells| solution_of(start, cells)));
            }
            if let Restarts::Doubling { most, .. } = restarts {
                if most.is_some_and(|most| nodes >= most) {
                    return Ok(None);
                }
                nodes = nodes.saturating_mul(2);
            }
        }
    }

    /// `most` distinct solutions of `start`, fewer only where it has fewer: searches with
    /// candidates in random order of `nodes` nodes each, restarted on the same stream;
    /// one that finds a solution goes on past it for a quarter of `nodes` per solution
    /// still wanted, and every solution it meets counts. A search's next solutions cost
    /// far less than its first: non-consecutive 9×9, 32 grids a batch, 0.26 ms a grid
    /// going on for a quarter, 0.28-0.36 ms for a half to four times `nodes`, 2.4 ms
    /// taking each search's first alone. The searches stop after [`STALE_SEARCHES`] in a
    /// row add nothing (a grid with few solutions).
    pub fn random_solutions_restarting(
        &self,
        start: &Grid,
        rng: &mut Rand,
        nodes: u64,
        most: u64,
    ) -> Result<Vec<Grid>, Aborted> {
        let g = start.geometry();
        let mut grids: Vec<Grid> = Vec::new();
        let mut stale = 0;
        while (grids.len() as u64) < most && stale < STALE_SEARCHES {
            let wanted = most - grids.len() as u64;
            let solver = Solver {
                keep_all: Some(wanted.saturating_mul((nodes / 4).max(1))),
                ..*self
            };
            let order = RandomOrder(&mut *rng);
            let found = by_size!(g, explore_within(start, None, wanted, solver, order, nodes))?;
            let before = grids.len();
            for cells in found.map(|s| s.all).unwrap_or_default() {
                let grid = solution_of(start, cells);
                if !grids.contains(&grid) {
                    grids.push(grid);
                }
            }
            stale = if grids.len() > before { 0 } else { stale + 1 };
        }
        Ok(grids)
    }
}

/// Searches in a row that find no new solution before
/// [`Solver::random_solutions_restarting`] stops: far more than a grid with many solutions
/// takes to find one (non-consecutive 9×9: about 12 restarts).
const STALE_SEARCHES: u32 = 256;

/// How [`Solver::random_solution_restarting`] budgets its searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restarts {
    /// From `from` nodes, doubling at each restart. With `most`, a search that would run
    /// past `most` nodes gives up instead (a jigsaw layout that admits no grid can take
    /// minutes to prove so; another layout is drawn then).
    Doubling { from: u64, most: Option<u64> },
    /// The same budget at every restart: the cheaper where searches within a small budget
    /// succeed often enough (non-consecutive grids; see the design notes, "Grid searches
    /// that restart"). For a start with solutions: it gives up only at the deadline.
    Steady(u64),
}

/// Whether singles alone (full house, hidden and naked singles) solve `grid`: the
/// puzzles a person solves without any candidate elimination (SE 2.3 at most). A killer
/// grid's cages are not read.
pub fn solves_by_singles(grid: &Grid) -> bool {
    let g = grid.geometry();
    by_size!(g, settles(g, grid, true))
}

/// The highest SE score of a puzzle that singles solve.
const SINGLES_SCORE: f64 = 2.3;

/// The highest SE score of a puzzle that singles with pointing and claiming solve (and on
/// the killer scale, with cage combinations, 2.0, and the 45 rule on one unit, 2.5).
const LOCKED_SCORE: f64 = 2.8;

/// The score of a generalized intersection, which takes the place of pointing and
/// claiming on grids rated the generalized way.
const GENERALIZED_LOCKED_SCORE: f64 = 2.9;

/// Whether propagation below `score` on `g` may use pointing and claiming as well as
/// singles: `score` above them, and bands of at most three rows (up to 9x9, where the
/// band reduction is exactly pointing and claiming).
fn locked_below(g: Geometry, score: f64) -> bool {
    // A grid rated the generalized way prices locked candidates as generalized
    // intersections.
    let locked = if g.variant().rules().generalized_rating {
        GENERALIZED_LOCKED_SCORE
    } else {
        LOCKED_SCORE
    };
    score > locked && g.n() <= 9
}

/// Whether the search's propagation alone solves `grid` by steps that each score below
/// `score`, so that a rating must come out below it: singles (2.3), or singles with
/// pointing and claiming (2.8) on sizes up to 9x9, and on killer grids cage combinations
/// and the 45 rule on one row, column or box as well. A person's rating takes the easiest
/// step at each point. These steps only ever remove more with fewer candidates, so once
/// they solve the puzzle, one of them is there at every point of the rating, and no
/// rating step scores more than they do.
///
/// The propagation reduces each digit's places in a band (and a stack) to the union of
/// its placements there. Up to three rows (columns) and boxes that is exactly pointing
/// and claiming; 12x12 stacks and 16x16 bands have four, which reaches beyond. Its cage
/// pass keeps to the killer rater's steps here ([`Search::with_rater_cage_steps`]).
pub fn solves_below(grid: &Grid, score: f64) -> bool {
    let g = grid.geometry();
    if locked_below(g, score) {
        by_size!(g, settles(g, grid, false))
    } else {
        score > SINGLES_SCORE && solves_by_singles(grid)
    }
}

/// The propagation [`solves_below`] runs for a score, set up once for one puzzle and run
/// on later states of its board, when that propagation goes beyond singles (the score
/// above pointing and claiming, sizes up to 9x9).
///
/// Every elimination it makes is one the rater's singles, pointing, claiming, cage
/// combinations or 45 rule on one unit would also make, and those only ever find more
/// with fewer candidates: a test that applies those techniques (and others like them)
/// until they stop may narrow its board this way whenever it likes and stop at the same
/// place.
pub struct Narrowing {
    geometry: Geometry,
    /// The puzzle's cages and regions, built once (building cages for every round of a
    /// killer settle test took more time than the propagation itself).
    own: PuzzleTables,
}

/// What a puzzle adds to its geometry's tables: a killer puzzle's cages, a jigsaw
/// puzzle's regions.
struct PuzzleTables {
    cages: Option<CageTable>,
    regions: Option<Box<[[u64; 4]]>>,
}

impl PuzzleTables {
    fn of(puzzle: &Grid) -> PuzzleTables {
        let g = puzzle.geometry();
        PuzzleTables {
            cages: puzzle.cages().map(|c| CageTable::new(g, c)),
            regions: puzzle.regions().map(|r| region_words(g, r)),
        }
    }
}

impl Narrowing {
    /// The propagation for `puzzle` below `score`, or `None` where it would be singles
    /// alone.
    pub fn below(puzzle: &Grid, score: f64) -> Option<Narrowing> {
        let g = puzzle.geometry();
        locked_below(g, score).then(|| Narrowing {
            geometry: g,
            own: PuzzleTables::of(puzzle),
        })
    }

    /// The candidates of every cell (bit `d - 1` for digit `d`) of the puzzle's board with
    /// the digits `values` placed (0 = open) and the candidates `cands`, once propagated;
    /// `None` on a contradiction. A placed cell keeps its digit.
    pub fn narrow(&self, values: &[u8], cands: &[u16]) -> Option<Vec<u16>> {
        let g = self.geometry;
        by_size!(g, narrowed(g, &self.own, values, cands))
    }
}

/// Whether propagation (by singles alone with `singles_only`, which reads no cages)
/// places every cell of `grid`.
fn settles<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
    g: Geometry,
    grid: &Grid,
    singles_only: bool,
) -> bool {
    let clues = grid.cells();
    if singles_only {
        let own = PuzzleTables {
            cages: None,
            regions: grid.regions().map(|r| region_words(g, r)),
        };
        with_rater_steps::<N, BR, DB, BANDS, true, _>(
            g,
            &own,
            |s| s.board::<N, BR, DB, BANDS>(clues),
            |s, b| s.settles::<N, BR, DB, BANDS>(b),
        )
    } else {
        with_rater_steps::<N, BR, DB, BANDS, false, _>(
            g,
            &PuzzleTables::of(grid),
            |s| s.board::<N, BR, DB, BANDS>(clues),
            |s, b| s.settles::<N, BR, DB, BANDS>(b),
        )
    }
    .unwrap_or(false)
}

/// [`Narrowing::narrow`]'s propagation.
fn narrowed<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
    g: Geometry,
    own: &PuzzleTables,
    values: &[u8],
    cands: &[u16],
) -> Option<Vec<u16>> {
    with_rater_steps::<N, BR, DB, BANDS, false, _>(
        g,
        own,
        |s| Some(s.board_from::<N, BR, DB, BANDS>(values, cands)),
        |s, b| s.propagated::<N, BR, DB, BANDS>(b),
    )
    .flatten()
}

/// `f` of a search that keeps to the rater's steps (singles alone with `SINGLES`, which
/// reads no cages) under the puzzle's `own` tables, and the board `start` makes; `None`
/// when it makes none
/// (two clues clash).
fn with_rater_steps<
    const N: usize,
    const BR: usize,
    const DB: usize,
    const BANDS: usize,
    const SINGLES: bool,
    R,
>(
    g: Geometry,
    own: &PuzzleTables,
    start: impl FnOnce(&mut Search<'_, Ascending, SINGLES>) -> Option<search::Board<DB, BANDS>>,
    f: impl FnOnce(&mut Search<'_, Ascending, SINGLES>, &mut search::Board<DB, BANDS>) -> R,
) -> Option<R> {
    let mut s = Search::<_, SINGLES>::new(band_tables(g), Ascending, 1, None)
        .with_cages(own.cages.as_ref())
        .with_regions(own.regions.as_deref())
        .with_rater_cage_steps();
    let mut board = start(&mut s)?;
    Some(f(&mut s, &mut board))
}

/// Counts solutions of `grid` up to `limit`, with no deadline.
pub fn count_solutions(grid: &Grid, limit: u64) -> Counted {
    Solver::new().count(grid, limit).expect("no deadline")
}

/// Whether `grid` has exactly one solution (by the fastest search).
pub fn is_unique(grid: &Grid) -> bool {
    Solver::new()
        .count_fast(grid, 2)
        .expect("no deadline")
        .count
        == 1
}

/// A solution of `puzzle` with the values `cells`, under the puzzle's cages and regions
/// if any.
fn solution_of(puzzle: &Grid, cells: Vec<u8>) -> Grid {
    Grid::from_cells(puzzle.geometry(), cells).shaped_like(puzzle)
}

/// A digit a search keeps out of an open cell, and whether it keeps the solution it
/// finds (a search that only asks whether one exists spares the copy).
#[derive(Clone, Copy)]
struct Avoid {
    cell: usize,
    digit: u8,
    keep: bool,
}

/// Nodes the configuration tree may take before a fast count starts again with cell
/// branches, a safeguard: no puzzle of the public sets comes near it, nor, since the
/// minirow rule, a grid of a few givens, which took millions before (configurations fix
/// digits band by band and met four sent to one minirow only deep below). Figures: design
/// notes, "Two search trees".
const FASTEST_NODES: u64 = 10_000;

/// Which search tree a search walks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tree {
    /// Cell branches: the tree whose statistics the bank stores as a puzzle's effort and
    /// whose order random grids follow. It stays as it is.
    Measured,
    /// The fewest nodes: branches on configurations where the grid allows them.
    Fastest,
}

fn explore<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
    grid: &Grid,
    exclude: Option<Avoid>,
    limit: u64,
    solver: Solver,
    order: impl BranchOrder,
) -> Result<Found, Aborted> {
    let found = explore_within::<N, BR, DB, BANDS>(grid, exclude, limit, solver, order, u64::MAX)?;
    Ok(found.expect("a search without a node budget runs to its end"))
}

/// [`explore`] giving up after `nodes` nodes: `Ok(None)` then.
fn explore_within<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
    grid: &Grid,
    exclude: Option<Avoid>,
    limit: u64,
    solver: Solver,
    order: impl BranchOrder,
    nodes: u64,
) -> Result<Option<Found>, Aborted> {
    let g = grid.geometry();
    debug_assert_eq!(
        (g.n(), g.box_rows(), g.n() * g.n() / (BR * N)),
        (N, BR, BANDS)
    );
    let own = PuzzleTables::of(grid);
    let mut s = Search::<_, false>::new(band_tables(g), order, limit, solver.deadline)
        .with_cages(own.cages.as_ref())
        .with_regions(own.regions.as_deref())
        .with_cage_locking(solver.cage_locking)
        .with_configuration_branching(solver.tree == Tree::Fastest)
        .with_neighbour_support(solver.neighbour_support)
        .with_unit_pointing(solver.region_pointing && own.regions.is_some())
        .within_nodes(nodes)
        .keeping_all(solver.keep_all);
    let clues = grid.cells();
    s.keep_first = solver.keep_solutions && exclude.is_none_or(|a| a.keep);
    if let Some(mut board) = s.board::<N, BR, DB, BANDS>(clues) {
        let feasible = match exclude {
            Some(a) => s.exclude::<N, BR, DB, BANDS>(&mut board, a.cell, a.digit),
            None => true,
        };
        if feasible {
            s.run::<N, BR, DB, BANDS>(&mut board);
        }
    }
    s.found()
}

/// Candidates in a random order drawn from the caller's generator.
struct RandomOrder<'r>(&'r mut Rand);

impl BranchOrder for RandomOrder<'_> {
    fn order(&mut self, mask: u16, out: &mut [u16; 16]) -> usize {
        let k = Ascending.order(mask, out);
        self.0.shuffle(&mut out[..k]);
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_line;
    use crate::grid::samples::{HARD, HARD_SOLUTION};

    /// Random solutions come distinct, up to the number asked for, each a solution of
    /// the start; a start with fewer gives them all.
    #[test]
    fn random_solutions_are_distinct_solutions_of_the_start() {
        let mut start = parse_line(HARD_SOLUTION).unwrap();
        for cell in 0..27 {
            start.set(cell, 0);
        }
        let all = count_solutions(&start, 1000).count;
        assert!(all > 1 && all < 1000, "{all}");
        let solver = Solver::new();
        for (seed, most) in [(1, 3), (2, all), (3, 1000)] {
            let grids = solver
                .random_solutions_restarting(&start, &mut Rand::new(seed), 16, most)
                .unwrap();
            assert_eq!(grids.len() as u64, most.min(all));
            for (i, grid) in grids.iter().enumerate() {
                assert!(grid.is_full() && grid.find_conflict().is_none());
                assert!((0..81).all(|c| start.get(c) == 0 || start.get(c) == grid.get(c)));
                assert!(!grids[..i].contains(grid));
            }
        }
    }

    #[test]
    fn solves_a_known_puzzle() {
        let p = parse_line(HARD).unwrap();
        let r = count_solutions(&p, 2);
        assert_eq!(r.count, 1);
        let s = r.unique().unwrap();
        assert!(s.is_full());
        assert!(s.find_conflict().is_none());
        assert!(p.is_consistent_with(s));
        assert_eq!(s.to_line(), HARD_SOLUTION);
    }

    /// A count within a node budget is the full count when the search fits in it, and
    /// gives up otherwise, on puzzles with one and with many solutions.
    #[test]
    fn counts_within_a_budget_agree_or_give_up() {
        let solver = Solver::new();
        // forum_hardest_1905_11plus.txt, first line: one solution, found by search.
        let unique = parse_line(
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
        )
        .unwrap();
        let mut open = unique.clone();
        open.set(14, 0);
        for grid in [&unique, &open] {
            let full = solver.count(grid, 2).unwrap();
            let nodes = full.stats.nodes;
            assert!(nodes > 2, "a search of {nodes} nodes tells nothing here");
            let within = solver.count_within(grid, 2, nodes).unwrap().expect("fits");
            assert_eq!(
                (within.count, within.stats, within.second),
                (full.count, full.stats, full.second)
            );
            assert!(solver.count_within(grid, 2, nodes - 1).unwrap().is_none());
        }
    }

    #[test]
    fn empty_grid_has_many_solutions() {
        for n in crate::grid::SUPPORTED_SIZES {
            let g = Grid::empty(Geometry::for_size(n).unwrap());
            assert_eq!(count_solutions(&g, 2).count, 2, "size {n}");
        }
    }

    #[test]
    fn four_by_four_has_288_grids() {
        let g = Grid::empty(Geometry::for_size(4).unwrap());
        assert_eq!(count_solutions(&g, 10_000).count, 288);
    }

    /// The diagonal 4×4 grids are the classic ones (all 288, listed by a plain search
    /// here) whose diagonals hold every digit; on 6×6 the solver finds a valid one.
    #[test]
    fn diagonal_grids_are_the_classic_ones_with_diagonals() {
        use crate::grid::Variant;
        let mut all = Vec::new();
        every_solution(&mut Grid::empty(Geometry::for_size(4).unwrap()), &mut all);
        assert_eq!(all.len(), 288);
        let diagonal = |g: &Grid| g.clone().with_variant(Variant::Diagonal);
        let expected = all
            .iter()
            .filter(|g| diagonal(g).find_conflict().is_none())
            .count() as u64;
        let empty = diagonal(&Grid::empty(Geometry::for_size(4).unwrap()));
        assert_eq!(count_solutions(&empty, 10_000).count, expected);
        assert!(expected > 0 && expected < 288);
        let six = diagonal(&Grid::empty(Geometry::for_size(6).unwrap()));
        let first = count_solutions(&six, 1).first.unwrap();
        assert!(first.is_full() && first.find_conflict().is_none());
        assert_eq!(first.geometry().variant(), Variant::Diagonal);
    }

    /// Under killer cages grown on random grids, the solver counts exactly the 4×4 grids
    /// (all 288, listed by a plain search) that keep every cage's sum and distinct digits,
    /// from no givens and from a few.
    #[test]
    fn killer_counts_are_the_grids_that_keep_the_cages() {
        use crate::generate::{grow_cages, CageSizes};
        let g = Geometry::for_size(4).unwrap();
        let mut all = Vec::new();
        every_solution(&mut Grid::empty(g), &mut all);
        let mut unique = 0;
        for seed in 0..60 {
            let solution = &all[(seed * 37) as usize % all.len()];
            let mut rng = Rand::new(seed);
            let sizes = CageSizes::new(1 + seed as usize % 2, 4, 4).unwrap();
            let cages = grow_cages(solution, sizes, &mut rng).unwrap();
            let mut puzzle = Grid::empty(g).with_cages(cages.clone());
            if seed % 3 == 1 {
                puzzle.set(seed as usize % 16, solution.get(seed as usize % 16));
            }
            let expected = all
                .iter()
                .filter(|s| {
                    puzzle.is_consistent_with(&(*s).clone().with_cages(cages.clone()))
                        && (*s)
                            .clone()
                            .with_cages(cages.clone())
                            .find_conflict()
                            .is_none()
                })
                .count() as u64;
            let counted = count_solutions(&puzzle, 1000);
            assert_eq!(counted.count, expected, "seed {seed}");
            let unlocked = Solver::new().with_cage_locking(false).count(&puzzle, 1000);
            assert_eq!(
                unlocked.unwrap().count,
                expected,
                "seed {seed}, no cage locking"
            );
            assert!(expected >= 1);
            unique += (expected == 1) as u32;
            let first = counted.first.unwrap();
            assert!(first.find_conflict().is_none() && first.cages().is_some());
        }
        assert!(unique > 2, "{unique} unique");
    }

    /// Cage locking removes no solution on 9×9 either: counts of zero-given killers (up to
    /// 200) with and without it agree, and a unique one's solution is the grid it grew on.
    #[test]
    fn cage_locking_keeps_every_killer_solution() {
        use crate::generate::{grow_cages, CageSizes, Route};
        let g = Geometry::for_size(9).unwrap();
        let (mut unique, mut several) = (0, 0);
        for seed in 0..40 {
            let mut rng = Rand::new(seed);
            let solution = crate::generate::base::test_grid_from(g, Route::Backtrack, &mut rng);
            let sizes = CageSizes::new(2, 3 + seed as usize % 3, 5).unwrap();
            let cages = grow_cages(&solution, sizes, &mut rng).unwrap();
            let puzzle = Grid::empty(g).with_cages(cages);
            let locked = Solver::new().count(&puzzle, 200).unwrap();
            let unlocked = Solver::new()
                .with_cage_locking(false)
                .count(&puzzle, 200)
                .unwrap();
            assert_eq!(locked.count, unlocked.count, "seed {seed}");
            if locked.count == 1 {
                assert_eq!(
                    locked.first.unwrap().cells(),
                    solution.cells(),
                    "seed {seed}"
                );
                unique += 1;
            } else {
                several += 1;
            }
        }
        assert!(
            unique > 0 && several > 0,
            "{unique} unique, {several} several"
        );
    }

    /// Every solution of `grid`, by trying each digit in each empty cell in turn.
    fn every_solution(grid: &mut Grid, out: &mut Vec<Grid>) {
        let Some(cell) = (0..grid.cells().len()).find(|&c| grid.get(c) == 0) else {
            out.push(grid.clone());
            return;
        };
        for d in 1..=grid.geometry().n() as u8 {
            grid.set(cell, d);
            if grid.find_conflict().is_none() {
                every_solution(grid, out);
            }
        }
        grid.set(cell, 0);
    }

    /// Under random jigsaw regions, the solver counts what a plain search over the
    /// regions' layout lists (the band search settles the regions as units of the
    /// puzzle, not as boxes), on 6x6 puzzles of a few clues from grids it made.
    #[test]
    fn jigsaw_counts_are_the_grids_that_keep_the_regions() {
        use crate::generate::Route;
        use crate::grid::Variant;
        let g = Geometry::for_size(6).unwrap().with_variant(Variant::Jigsaw);
        for seed in 0..12u64 {
            let mut rng = Rand::new(seed);
            let solution = crate::generate::base::test_grid_from(g, Route::Enumerate, &mut rng);
            let regions = solution
                .regions()
                .expect("a jigsaw grid has regions")
                .clone();
            assert!(!regions.are_boxes(g), "seed {seed}");
            assert!(solution.find_conflict().is_none());
            let mut puzzle = Grid::empty(g).with_regions(regions);
            for _ in 0..10 + seed % 6 {
                let cell = rng.below(36) as usize;
                puzzle.set(cell, solution.get(cell));
            }
            let mut all = Vec::new();
            every_solution(&mut puzzle.clone(), &mut all);
            let counted = count_solutions(&puzzle, 100_000);
            assert_eq!(counted.count, all.len() as u64, "seed {seed}");
            let first = counted.first.unwrap();
            assert!(all.contains(&first) && first.regions().is_some());
            let pointing = Solver::new().with_region_pointing(true);
            let counted = pointing.count(&puzzle, 100_000).unwrap();
            assert_eq!(counted.count, all.len() as u64, "seed {seed}, pointing");
            assert!(
                all.contains(&counted.first.unwrap()),
                "seed {seed}, pointing"
            );
        }
    }

    /// Pointing from the regions counts what the search without it counts, in fewer
    /// nodes, and leaves the stored effort (the tree without it) as it is: on 9x9 jigsaw
    /// puzzles of 20 to 60 random clues from grids it made (unique or not).
    #[test]
    fn region_pointing_counts_alike_in_fewer_nodes() {
        let pointing = Solver::new().with_region_pointing(true);
        let (mut with, mut without) = (0, 0);
        for (seed, puzzle) in random_jigsaw_puzzles().enumerate() {
            let (fast, plain) = (
                pointing.count(&puzzle, 50).unwrap(),
                count_solutions(&puzzle, 50),
            );
            assert_eq!(fast.count, plain.count, "seed {seed}");
            let effort = pointing.search_effort(&puzzle).unwrap();
            assert_eq!(effort, count_solutions(&puzzle, 2).stats, "seed {seed}");
            with += fast.stats.nodes;
            without += plain.stats.nodes;
        }
        assert!(
            with * 4 < without * 3 && without > 4_000,
            "{with} nodes pointing, {without} without"
        );
    }

    /// 80 puzzles of 20 to 60 random clues (unique or not) from 9x9 jigsaw grids the
    /// backtracking route made.
    fn random_jigsaw_puzzles() -> impl Iterator<Item = Grid> {
        use crate::generate::Route;
        use crate::grid::Variant;
        let g = Geometry::CLASSIC.with_variant(Variant::Jigsaw);
        (0..80u64).map(move |seed| {
            let mut rng = Rand::new(seed);
            let solution = crate::generate::base::test_grid_from(g, Route::Backtrack, &mut rng);
            let mut puzzle = Grid::empty(g).with_regions(solution.regions().unwrap().clone());
            for _ in 0..20 + seed % 40 {
                let cell = rng.below(81) as usize;
                puzzle.set(cell, solution.get(cell));
            }
            puzzle
        })
    }

    /// Skipping settled units changes nothing a search finds: on 9x9 jigsaw puzzles of
    /// 20 to 60 random clues (unique or not), the same count, first solution and
    /// statistics with the skipping and without.
    #[test]
    fn settled_units_skipped_change_no_search() {
        let (mut several, mut nodes) = (0, 0);
        for (seed, puzzle) in random_jigsaw_puzzles().enumerate() {
            let g = puzzle.geometry();
            let own = PuzzleTables::of(&puzzle);
            let count = |skip: bool| {
                let s = Search::<_, false>::new(band_tables(g), Ascending, 50, None)
                    .with_regions(own.regions.as_deref());
                let mut s = if skip { s } else { s.without_settled_units() };
                let mut b = s.board::<9, 3, 27, 3>(puzzle.cells()).unwrap();
                s.run::<9, 3, 27, 3>(&mut b);
                let found = s.found().unwrap().unwrap();
                (found.count, found.first, found.stats)
            };
            let skipping = count(true);
            assert_eq!(skipping, count(false), "seed {seed}");
            several += usize::from(skipping.0 > 1);
            nodes += skipping.2.nodes;
        }
        assert!(
            (10..=70).contains(&several) && nodes > 4_000,
            "{several} with several, {nodes} nodes"
        );
    }

    #[test]
    fn contradiction_has_no_solution() {
        // Row 1 holds 1-8, so its last cell needs a 9, but column 9 already has one.
        let mut line = String::from("12345678.........9");
        line.push_str(&".".repeat(81 - line.len()));
        let p = parse_line(&line).unwrap();
        assert_eq!(count_solutions(&p, 2).count, 0);
    }

    #[test]
    fn avoiding_the_only_digit_has_no_solution() {
        let p = parse_line(HARD).unwrap();
        let s = count_solutions(&p, 1).first.unwrap();
        let solver = Solver::new();
        let open = (0..81).find(|&c| p.get(c) == 0).unwrap();
        assert!(!solver.has_solution_avoiding(&p, open, s.get(open)).unwrap());
        let other = s.get(open) % 9 + 1;
        assert!(solver.has_solution_avoiding(&p, open, other).unwrap());
        assert_eq!(
            solver.solution_avoiding(&p, open, s.get(open)).unwrap(),
            None
        );
        assert_eq!(solver.solution_avoiding(&p, open, other).unwrap(), Some(s));
    }

    #[test]
    fn expired_deadline_aborts() {
        let g = Grid::empty(Geometry::for_size(16).unwrap());
        let solver = Solver::with_deadline(Some(Instant::now()));
        assert_eq!(solver.count(&g, u64::MAX).unwrap_err(), Aborted);
    }
}
