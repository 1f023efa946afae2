//! Solution grids by the design's three routes: transforms (of a random *mother* grid,
//! or of the textbook pattern grid), randomized backtracking, solver enumeration.

use crate::grid::{
    cells_of, Boxes, Cell, CellSet, Geometry, Grid, GridSearch, Layout, Neighbours, Regions,
    Relabelling, Symmetries, MOTHER_BATCH, RESTART_NODES, STEADY_NODES_PER_CELL,
};
use crate::rng::Rand;
use crate::solver::{Aborted, Restarts, Solver};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

/// How a solution grid is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Route {
    /// A random mother grid (built by the solver from its own seed, shared by a few base
    /// grids) under a random validity-preserving transformation.
    Transform,
    /// The pattern grid under a random validity-preserving transformation: the textbook
    /// construction. Every grid it makes is one grid up to the sudoku group (the most
    /// symmetric one), so it gives no variety; weight 0 by default.
    Pattern,
    /// Randomized backtracking from an empty grid, most-constrained cell first.
    Backtrack,
    /// The solver run on an empty grid with randomized branch order.
    Enumerate,
}

impl Route {
    /// Every route, in CLI order.
    pub const ALL: [Route; 4] = [
        Route::Transform,
        Route::Pattern,
        Route::Backtrack,
        Route::Enumerate,
    ];

    /// The CLI and database name.
    pub fn name(self) -> &'static str {
        match self {
            Route::Transform => "transform",
            Route::Pattern => "pattern",
            Route::Backtrack => "backtrack",
            Route::Enumerate => "enumerate",
        }
    }

    /// Whether the route can make grids of `g`: the pattern grid breaks the diagonals
    /// and other extra units (it keeps the anti-knight and anti-king rules on 9×9), and
    /// has no regions of its own.
    pub fn usable(self, g: Geometry) -> bool {
        self.breaks(g).is_none()
    }

    /// Why the route cannot make grids of `g`: the rule its grid breaks (`digit 1 appears
    /// twice in the main diagonal`), for messages.
    pub fn breaks(self, g: Geometry) -> Option<String> {
        match self {
            Route::Pattern if g.variant().rules().regions_per_puzzle() => {
                Some("its regions would be the boxes".into())
            }
            Route::Pattern => pattern_cells(g).find_conflict().map(|c| c.to_string()),
            _ => None,
        }
    }

    /// A number of the route's own, mixed into its stream seed, so that two routes never
    /// draw from the same stream (backtracking and enumeration both fill
    /// fewest-options-first, and from one stream they often make the same grid).
    pub fn stream(self) -> u64 {
        match self {
            Route::Transform => 0x7472_616e,
            Route::Pattern => 0x7061_7474,
            Route::Backtrack => 0x6261_636b,
            Route::Enumerate => 0x656e_756d,
        }
    }
}

impl FromStr for Route {
    type Err = String;
    fn from_str(s: &str) -> Result<Route, String> {
        super::parse_named(&Route::ALL, Route::name, s, "route")
    }
}

/// The generator version from which a grid whose regions are the puzzle's own (jigsaw)
/// is made under the boxes, its regions then drawn around its digits
/// ([`regions_around`]): every layout so drawn has a grid. Before, a random layout came
/// first and the search for a grid under it gave up after [`LAYOUT_NODES`] for another
/// layout (11 ms a 9x9 grid, see [`RESHAPE_ROUNDS`]); `reproduce` makes rows of older
/// versions so.
const REGIONS_AROUND_GRIDS_SINCE: u32 = 8;

/// Builds a solution grid of `geometry` by `route` from `rng`, as generator `version`
/// makes it. `mother_seed` seeds the mother grid of the transform route, so that several
/// base grids share one mother (the fill); without one, the mother's seed is the
/// stream's first draw (ignored by the other routes).
pub fn solution_grid(
    geometry: Geometry,
    route: Route,
    rng: &mut Rand,
    mother_seed: Option<u64>,
    deadline: Option<Instant>,
    version: u32,
) -> Result<Grid, Aborted> {
    let build = Build::new(geometry, deadline, version);
    let grid = match route {
        Route::Transform => {
            let seed = mother_seed.unwrap_or_else(|| rng.next_u64());
            let mother = mother_grid_of(geometry, seed, deadline, version)?;
            return transformed_from(&mother, rng, deadline, version);
        }
        Route::Pattern => transformed(&pattern_grid(geometry), rng),
        Route::Backtrack => backtrack_fill(&build, rng)?,
        Route::Enumerate => enumerated(&build, rng)?,
    };
    with_regions(grid, rng, &build)
}

/// The transform route's grid from `mother` (the mother grid of its seed,
/// [`mother_grid_of`]) and the rest of the route's stream: what [`solution_grid`] makes
/// by that route, for a caller that keeps mother grids.
pub fn transformed_from(
    mother: &Grid,
    rng: &mut Rand,
    deadline: Option<Instant>,
    version: u32,
) -> Result<Grid, Aborted> {
    let build = Build::new(mother.geometry(), deadline, version);
    with_regions(transformed(mother, rng), rng, &build)
}

/// `grid` with its regions drawn around it where the rule set's regions are the puzzle's
/// own and the version draws them so.
fn with_regions(grid: Grid, rng: &mut Rand, build: &Build) -> Result<Grid, Aborted> {
    match build.regions {
        RegionsFirst::Around => regions_around(grid, rng, build.deadline, build.version),
        RegionsFirst::Fixed | RegionsFirst::Layout => Ok(grid),
    }
}

/// Rounds of [`regions_around`], and the most nodes one refill may take before the round
/// keeps its grid. Measured on 9x9 (`generate --variant jigsaw --count 400 --seed 2
/// --clues 70`: the share of cells in the region that holds most of their box): one
/// round 0.86, 10 rounds 0.645 in 1.1 ms a grid (layout first, before version 8: 0.667
/// in 11 ms). A refill without a node cap ran into seconds on a few layouts.
const RESHAPE_ROUNDS: usize = 10;
const REFILL_NODES: u64 = 256;

/// The generator version from which the rounds of [`regions_around`] refill only grids of
/// side [`LARGEST_REFILLED_SIDE`] or less. Measured with `generate --variant jigsaw --count
/// 100 --seed 2`: a refill finished within its node cap 872 times in 900 rounds on 9x9,
/// 436 on 12x12, 15 on 16x16, so 16x16 rounds kept their grids anyway, yet those searches
/// were 84 % of a 16x16 jigsaw easy fill's instructions. 12x12 refills move its layouts
/// further from the boxes (a box's cells 61.6 % in one region, 66.7 % without them).
const LARGE_GRIDS_KEPT_SINCE: u32 = 10;
const LARGEST_REFILLED_SIDE: usize = 12;

/// The generator version from which the refills of [`regions_around`] point from the
/// regions ([`Solver::with_region_pointing`]): other grids from the same seeds, found in
/// 29 % fewer instructions (jigsaw easy fill of 1,000, callgrind: 483 M to 344 M of
/// 1,373 M); layouts as far from the boxes (the most of a box's cells in one region,
/// `generate --variant jigsaw --count 200 --seed 2`: 9x9 64.4 % before, 65.0 % with it;
/// 12x12 61.6 % and 60.1 %).
const REFILLS_POINT_SINCE: u32 = 13;

/// A random layout and a grid under it, from `grid` made under the boxes (moved by the
/// transform route's symmetry: transposed on 12x12, they are 4 by 3): the layout
/// reshaped around the grid's digits ([`Regions::reshaped_around`], 4 n² tries), then
/// three cells in four cleared and filled again in random order under it (the old
/// digits are one filling, kept when the search runs past [`REFILL_NODES`]), which
/// opens other reshapings; so for [`RESHAPE_ROUNDS`]. Reshaping one grid alone leaves
/// most cells in their box. From [`LARGE_GRIDS_KEPT_SINCE`], larger grids keep their
/// digits through the rounds.
fn regions_around(
    grid: Grid,
    rng: &mut Rand,
    deadline: Option<Instant>,
    version: u32,
) -> Result<Grid, Aborted> {
    let g = grid.geometry();
    let solver =
        Solver::with_deadline(deadline).with_region_pointing(version >= REFILLS_POINT_SINCE);
    let moves = 4 * g.cells();
    let refills = version < LARGE_GRIDS_KEPT_SINCE || g.n() <= LARGEST_REFILLED_SIDE;
    let mut grid = grid;
    for round in 0..RESHAPE_ROUNDS {
        let regions = grid.regions().expect("a grid with regions");
        let reshaped = regions.reshaped_around(g, grid.cells(), moves, |k| rng.below(k));
        grid = grid.with_regions(Arc::new(reshaped));
        if round + 1 == RESHAPE_ROUNDS || !refills {
            continue;
        }
        let mut cleared = grid.clone();
        for c in 0..g.cells() {
            if rng.below(4) < 3 {
                cleared.set(c, 0);
            }
        }
        let restarts = Restarts::Doubling {
            from: 64,
            most: Some(REFILL_NODES),
        };
        let refill = solver.random_solution_restarting(&cleared, rng, restarts)?;
        if let Some(refilled) = refill {
            grid = refilled;
        }
    }
    Ok(grid)
}

/// The current generator's grid of `g` by `route` from stream `seed`, for tests.
#[cfg(test)]
pub(crate) fn test_grid(g: Geometry, route: Route, seed: u64) -> Grid {
    test_grid_from(g, route, &mut Rand::new(seed))
}

/// [`test_grid`] from a stream the test goes on drawing from.
#[cfg(test)]
pub(crate) fn test_grid_from(g: Geometry, route: Route, rng: &mut Rand) -> Grid {
    solution_grid(g, route, rng, None, None, super::GENERATOR_VERSION).unwrap()
}

/// How a grid gets its regions.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RegionsFirst {
    /// The rule set's boxes are fixed.
    Fixed,
    /// Made under the boxes, the regions drawn around it afterwards.
    Around,
    /// A random layout first, then a grid under it (before generator version 8).
    Layout,
}

/// What building one grid goes by: its geometry, its deadline, where its regions come
/// from, and the generator version it is built as.
struct Build {
    g: Geometry,
    deadline: Option<Instant>,
    regions: RegionsFirst,
    version: u32,
}

impl Build {
    fn new(g: Geometry, deadline: Option<Instant>, version: u32) -> Build {
        Build {
            g,
            deadline,
            regions: RegionsFirst::of(g, version),
            version,
        }
    }
}

impl RegionsFirst {
    fn of(g: Geometry, version: u32) -> RegionsFirst {
        match g.variant().rules().boxes {
            Boxes::Fixed => RegionsFirst::Fixed,
            Boxes::PerPuzzle if version >= REGIONS_AROUND_GRIDS_SINCE => RegionsFirst::Around,
            Boxes::PerPuzzle => RegionsFirst::Layout,
        }
    }
}

/// The most nodes a search for a grid under one jigsaw layout may take before the layout
/// is given up for another (most layouts give a grid within a few hundred).
const LAYOUT_NODES: u64 = 1 << 14;

/// An empty grid of `g` to fill; under a rule set whose regions are the puzzle's own,
/// with the boxes as its regions, or with a random layout of them before version 8.
fn empty_grid(g: Geometry, rng: &mut Rand, regions: RegionsFirst) -> Grid {
    match regions {
        RegionsFirst::Fixed => Grid::empty(g),
        RegionsFirst::Around => Grid::empty(g).with_regions(Arc::new(Regions::boxes(g))),
        RegionsFirst::Layout => {
            let regions = Regions::random(g, |k| rng.below(k));
            Grid::empty(g).with_regions(Arc::new(regions))
        }
    }
}

/// The pattern grid `cell(r, c) = (r·box_cols + r / box_rows + c) mod N + 1`. It breaks
/// the diagonal rule (its main diagonal repeats digits), so a variant with diagonals has
/// no pattern grid: [`Route::usable`] says so before a fill starts.
pub fn pattern_grid(g: Geometry) -> Grid {
    let grid = pattern_cells(g);
    assert!(
        grid.find_conflict().is_none(),
        "no pattern grid for {}",
        g.label()
    );
    grid
}

/// The pattern's cells under `g`'s rules, kept or not.
fn pattern_cells(g: Geometry) -> Grid {
    let n = g.n();
    let cells = cells_of(n)
        .map(|(_, Cell { row, col })| {
            ((row * g.box_cols() + row / g.box_rows() + col) % n + 1) as u8
        })
        .collect();
    Grid::from_cells(g, cells)
}

/// The mother grid of a seed: the solver on an empty grid with random branch order, from
/// its own stream. (Randomized backtracking is as random but heavy-tailed on 16x16:
/// `generate --size 16 --count 40 --clues 200` took 22 s by backtracking, 0.01 s by the solver.)
/// (Under per-puzzle regions the mother keeps the boxes: each base grid draws its own.)
pub fn mother_grid(g: Geometry, seed: u64, deadline: Option<Instant>) -> Result<Grid, Aborted> {
    mother_grid_of(g, seed, deadline, super::GENERATOR_VERSION)
}

/// [`mother_grid`] as generator `version` makes it: the same for every version, but
/// under per-puzzle regions before version 8, a random layout drawn first, and where the
/// seed names a grid of a batch ([`MotherSeed::Batch`]), that grid.
pub fn mother_grid_of(
    g: Geometry,
    seed: u64,
    deadline: Option<Instant>,
    version: u32,
) -> Result<Grid, Aborted> {
    match MotherSeed::of(g, seed, version) {
        MotherSeed::One(seed) => {
            enumerated(&Build::new(g, deadline, version), &mut Rand::new(seed))
        }
        MotherSeed::Batch { search, index } => Ok(mother_batch_of(g, search, deadline, version)?
            .grid(index)
            .clone()),
    }
}

/// The generator version from which the mother search of a [`GridSearch::Steady`] rule
/// set makes a batch of [`MOTHER_BATCH`] grids, a transform-route grid taking one of them
/// by its mother seed; before, one grid a search (`reproduce` makes older rows' so).
const MOTHER_BATCHES_SINCE: u32 = 12;

/// What a transform-route mother seed names: the one grid of its search, or one grid of
/// a batch, the seed's low byte its place there (the rest of the seed the search's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MotherSeed {
    /// The seed of a search whose first solution is the mother grid.
    One(u64),
    /// Grid `index` of the batch that search `search` makes ([`mother_batch_of`]).
    Batch { search: u64, index: usize },
}

impl MotherSeed {
    /// The grids a mother search of `g` makes under generator `version`.
    pub fn batch_size(g: Geometry, version: u32) -> u64 {
        let batched = g.variant().rules().grid_search == GridSearch::Steady
            && version >= MOTHER_BATCHES_SINCE;
        if batched {
            MOTHER_BATCH
        } else {
            1
        }
    }

    /// What `seed` names for `g` under `version`.
    pub fn of(g: Geometry, seed: u64, version: u32) -> MotherSeed {
        if Self::batch_size(g, version) == 1 {
            MotherSeed::One(seed)
        } else {
            MotherSeed::Batch {
                search: seed & !0xFF,
                index: (seed & 0xFF) as usize,
            }
        }
    }

    /// The seed naming grid `index` of the batch of search `search` (its low byte
    /// dropped).
    pub fn batched(search: u64, index: u64) -> u64 {
        debug_assert!(index <= 0xFF && MOTHER_BATCH <= 0x100);
        search & !0xFF | index
    }
}

/// The grids one mother search of `g` makes (a [`GridSearch::Steady`] rule set's, from
/// [`MOTHER_BATCHES_SINCE`]): [`MOTHER_BATCH`] distinct solutions of an empty grid,
/// found by searches in random order ([`Solver::random_solutions_restarting`]).
pub struct MotherBatch(Vec<Grid>);

impl MotherBatch {
    /// Grid `index` (modulo the batch's size).
    pub fn grid(&self, index: usize) -> &Grid {
        &self.0[index % self.0.len()]
    }
}

/// The batch of mother search `search` of `g` (see [`MotherBatch`]).
pub fn mother_batch_of(
    g: Geometry,
    search: u64,
    deadline: Option<Instant>,
    version: u32,
) -> Result<MotherBatch, Aborted> {
    let build = Build::new(g, deadline, version);
    let rng = &mut Rand::new(search);
    let empty = empty_grid(g, rng, build.regions);
    let grids = Solver::with_deadline(deadline)
        .with_neighbour_support(true)
        .random_solutions_restarting(&empty, rng, steady_nodes(g), MOTHER_BATCH)?;
    // Every rule set with a steady search has grids in the sizes it is made in.
    assert!(!grids.is_empty(), "no grid found for {g:?}");
    Ok(MotherBatch(grids))
}

/// The node budget of each search of a [`GridSearch::Steady`] rule set's grid search.
fn steady_nodes(g: Geometry) -> u64 {
    (g.cells() as f64 * STEADY_NODES_PER_CELL) as u64
}

/// The solver's first solution of an empty grid, branching in random order, searching as
/// the rule set says ([`GridSearch`]) and generator `version` did.
fn enumerated(build: &Build, rng: &mut Rand) -> Result<Grid, Aborted> {
    let g = build.g;
    let solver = Solver::with_deadline(build.deadline);
    let search = match g.variant().rules().grid_search {
        // Older versions searched these from a doubling budget, without support.
        GridSearch::Steady if build.version < STEADY_GRID_SEARCH_SINCE => GridSearch::Doubling,
        search => search,
    };
    // Some jigsaw layouts admit no grid: then another layout.
    loop {
        let empty = empty_grid(g, rng, build.regions);
        let grid = match search {
            GridSearch::Once => solver.random_solution(&empty, rng)?,
            GridSearch::Doubling => {
                let most = empty.regions().map(|_| LAYOUT_NODES);
                let restarts = Restarts::Doubling {
                    from: RESTART_NODES,
                    most,
                };
                solver.random_solution_restarting(&empty, rng, restarts)?
            }
            GridSearch::Steady => solver
                .with_neighbour_support(true)
                .random_solution_restarting(&empty, rng, Restarts::Steady(steady_nodes(g)))?,
        };
        if let Some(grid) = grid {
            return Ok(grid);
        }
        assert!(empty.regions().is_some(), "an empty grid has solutions");
    }
}

/// The generator version from which a [`GridSearch::Steady`] rule set's grid search
/// (non-consecutive mother and enumeration-route grids) restarts at a steady budget with
/// support under the neighbours rule; before, from a doubling budget without it
/// (`reproduce` searches so for rows of older versions). 300 9×9 grids 2.9-3.9 s ->
/// 0.85 s (see the design notes, "Grid searches that restart").
const STEADY_GRID_SEARCH_SINCE: u32 = 11;

/// Whether every transform-route grid of `g` is in its mother grid's solution class: the
/// transformation is one of the group the class is taken over, unless the grid then gets
/// regions of its own (jigsaw), which reshape it.
pub fn same_class_as_mother(g: Geometry) -> bool {
    g.variant().rules().boxes == Boxes::Fixed
        && MotherSeed::batch_size(g, super::GENERATOR_VERSION) == 1
}

/// A grid under a random element of the validity-preserving group: digit relabelling
/// (only reversal, or none, where the rule set keeps digits in order),
/// rows within bands, bands, columns within stacks, stacks, and transposition when boxes
/// are square. A rule set with a group of its own draws from that instead: under
/// [`Symmetries::Mirrored`] the line permutations that keep both diagonals (see
/// [`Geometry::mirrored_permutations`]), under [`Symmetries::Lines`] its
/// [`Geometry::line_group`].
fn transformed(source: &Grid, rng: &mut Rand) -> Grid {
    let g = source.geometry();
    let n = g.n();
    let digits = random_relabelling(g, rng);
    let widen = |lines: &[u8]| lines.iter().map(|&l| l as usize).collect::<Vec<usize>>();
    let (rows, cols) = match g.variant().rules().symmetries {
        Symmetries::Mirrored => {
            let all = g.mirrored_permutations();
            let rows = widen(&all[rng.below(all.len() as u32) as usize]);
            // Columns follow the rows, or their mirror image (which swaps the diagonals).
            let mirror = rng.below(2) == 1;
            let cols = rows
                .iter()
                .map(|&r| if mirror { n - 1 - r } else { r })
                .collect();
            (rows, cols)
        }
        Symmetries::Lines => {
            let group = g.line_group();
            let pick =
                |all: &[Vec<u8>], rng: &mut Rand| widen(&all[rng.below(all.len() as u32) as usize]);
            let rows = pick(&group.rows, rng);
            (rows, pick(&group.cols, rng))
        }
        Symmetries::Sudoku => (
            line_permutation(g.box_rows(), n / g.box_rows(), rng),
            line_permutation(g.box_cols(), n / g.box_cols(), rng),
        ),
        Symmetries::Square => {
            // Each axis kept or reversed; with transposition, the square's 8 symmetries.
            let mut axis = || -> Vec<usize> {
                match rng.below(2) {
                    0 => (0..n).collect(),
                    _ => (0..n).rev().collect(),
                }
            };
            (axis(), axis())
        }
    };
    let transpose = g.group_transposes() && rng.below(2) == 1;
    // The source cell each image cell comes from: the lines mapped, then transposed.
    let from = |i: usize| {
        let at = Cell::at(i, n).through_lines(&rows, &cols);
        at.transposed_if(transpose).index(n)
    };
    let cells = (0..g.cells())
        .map(|i| digits[source.get(from(i)) as usize - 1])
        .collect();
    let image = Grid::from_cells(g, cells);
    match source.regions() {
        Some(regions) => {
            let labels: Vec<u8> = (0..g.cells())
                .map(|i| regions.region_of(from(i)) as u8)
                .collect();
            let moved = Regions::new(g, &labels).expect("a symmetry keeps regions whole");
            image.with_regions(Arc::new(moved))
        }
        None => image,
    }
}

/// A random relabelling of `g`'s digits kept by its rule set (`digits[d - 1]` replaces
/// `d`): any permutation, or under [`Relabelling::Reversal`] the identity or the reversal.
pub(crate) fn random_relabelling(g: Geometry, rng: &mut Rand) -> Vec<u8> {
    let mut digits: Vec<u8> = (1..=g.n() as u8).collect();
    match g.variant().rules().relabelling {
        Relabelling::Any => rng.shuffle(&mut digits),
        Relabelling::Reversal => {
            if rng.below(2) == 1 {
                digits.reverse();
            }
        }
    }
    digits
}

/// A permutation of `per_group × groups` lines that permutes the groups and the lines
/// within each group.
fn line_permutation(per_group: usize, groups: usize, rng: &mut Rand) -> Vec<usize> {
    let mut order: Vec<usize> = (0..groups).collect();
    rng.shuffle(&mut order);
    let mut lines = Vec::with_capacity(per_group * groups);
    for group in order {
        let mut inner: Vec<usize> = (0..per_group).map(|i| group * per_group + i).collect();
        rng.shuffle(&mut inner);
        lines.extend(inner);
    }
    lines
}

/// Fills an empty grid cell by cell: the open cell with the fewest allowed digits
/// first, digits in random order, undoing on dead ends. From generator
/// [`BACKTRACK_RESTARTS_SINCE`] a fill that runs past [`RESTART_STEPS_PER_CELL`] starts
/// over from the empty grid, the stream going on where it stands.
fn backtrack_fill(build: &Build, rng: &mut Rand) -> Result<Grid, Aborted> {
    let g = build.g;
    let most_steps = match build.regions {
        RegionsFirst::Around | RegionsFirst::Layout => LAYOUT_NODES,
        RegionsFirst::Fixed if build.version >= BACKTRACK_RESTARTS_SINCE => {
            RESTART_STEPS_PER_CELL * g.cells() as u64
        }
        RegionsFirst::Fixed => u64::MAX,
    };
    // Some jigsaw layouts admit no grid: then another layout. A fill that stopped at its
    // step cap starts again.
    loop {
        let empty = empty_grid(g, rng, build.regions);
        if let Some(grid) = backtrack_fill_in(&empty, rng, build.deadline, most_steps)? {
            return Ok(grid);
        }
    }
}

/// The generator version from which randomized backtracking restarts
/// ([`backtrack_fill`]). Its search is heavy-tailed: 100 16x16 grids took 31 s without
/// restarts, 0.02 s with them; windoku 16x16 34 s for 40, 0.03 s. No 9x9 classic grid of
/// 3,000 reached the cap, so those are the grids of version 8.
const BACKTRACK_RESTARTS_SINCE: u32 = 9;

/// Steps per cell a backtracking fill may take before it starts over. Measured
/// (`generate --route backtrack --count 100`, time by cap): 8 steps a cell is the fastest
/// or within 10 % of it for classic 16x16, windoku 16x16, disjoint groups 16x16 and
/// non-consecutive 9x9 and 12x12; 2 per cell took 1.5x to 4x as long on the last three.
const RESTART_STEPS_PER_CELL: u64 = 8;

/// [`backtrack_fill`] of one empty grid; `None` when it has no fill within `most_steps`.
fn backtrack_fill_in(
    empty: &Grid,
    rng: &mut Rand,
    deadline: Option<Instant>,
    most_steps: u64,
) -> Result<Option<Grid>, Aborted> {
    let g = empty.geometry();
    let n = g.n();
    let layout = empty.layout();
    let mut filler = Filler {
        layout,
        apart: CellLists::of(&layout.apart_sets),
        touching: CellLists::of(&layout.neighbour_sets),
        neighbours: g.variant().rules().neighbours,
        extra: vec![0; layout.extra_units().len()],
        n,
        cells: vec![0; g.cells()],
        rows: vec![0; n],
        cols: vec![0; n],
        boxes: vec![0; n],
        steps: 0,
        most_steps,
        deadline,
    };
    Ok(filler
        .fill(rng)?
        .then(|| Grid::from_cells(g, filler.cells).shaped_like(empty)))
}

/// Each cell's list of cells, flat: what a filler reads at every step for every open
/// cell, cheaper to walk than the layout's cell sets (100 non-consecutive grids by
/// backtracking: 0.76 s against 1.04 s).
struct CellLists {
    /// Cell `c`'s list is `cells[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    cells: Vec<u16>,
}

impl CellLists {
    fn of(sets: &[CellSet]) -> CellLists {
        let mut start = Vec::with_capacity(sets.len() + 1);
        let mut cells = Vec::new();
        start.push(0);
        for set in sets {
            cells.extend(set.iter().map(|c| c as u16));
            start.push(cells.len() as u32);
        }
        CellLists { start, cells }
    }

    #[inline]
    fn of_cell(&self, cell: usize) -> &[u16] {
        &self.cells[self.start[cell] as usize..self.start[cell + 1] as usize]
    }
}

struct Filler<'l> {
    /// Row, column, box and extra units of each cell.
    layout: &'l Layout,
    /// The cells the rule set's move keeps apart from each cell.
    apart: CellLists,
    /// The cells touching each cell, where the rule set bars digits beside a digit.
    touching: CellLists,
    /// What the rule set bars beside a digit.
    neighbours: Neighbours,
    /// Digits used in each extra unit.
    extra: Vec<u32>,
    n: usize,
    cells: Vec<u8>,
    rows: Vec<u32>,
    cols: Vec<u32>,
    boxes: Vec<u32>,
    steps: u64,
    /// Steps after which the fill gives up (a jigsaw layout may admit no grid; a fill
    /// past its restart cap starts over).
    most_steps: u64,
    deadline: Option<Instant>,
}

impl Filler<'_> {
    fn allowed(&self, cell: usize) -> u32 {
        let p = self.layout.places[cell];
        let mut used =
            self.rows[p.row as usize] | self.cols[p.col as usize] | self.boxes[p.bx as usize];
        for &u in self.layout.extra_units_of(cell) {
            used |= self.extra[self.layout.extra_index(u as usize)];
        }
        for &other in self.apart.of_cell(cell) {
            used |= (1u32 << self.cells[other as usize]) >> 1;
        }
        // The digits of the touching cells, then what they bar, at once.
        let mut beside = 0u32;
        for &other in self.touching.of_cell(cell) {
            beside |= (1u32 << self.cells[other as usize]) >> 1;
        }
        used |= u32::from(self.neighbours.barred_by(beside, self.n));
        !used & ((1u32 << self.n) - 1)
    }

    fn toggle(&mut self, cell: usize, digit: u8) {
        let p = self.layout.places[cell];
        let bit = 1u32 << (digit - 1);
        self.rows[p.row as usize] ^= bit;
        self.cols[p.col as usize] ^= bit;
        self.boxes[p.bx as usize] ^= bit;
        for &u in self.layout.extra_units_of(cell) {
            self.extra[self.layout.extra_index(u as usize)] ^= bit;
        }
    }

    fn fill(&mut self, rng: &mut Rand) -> Result<bool, Aborted> {
        self.steps += 1;
        if self.steps > self.most_steps {
            return Ok(false);
        }
        if self.steps.is_multiple_of(1024) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Aborted);
        }
        let mut best: Option<(usize, u32)> = None;
        for cell in 0..self.cells.len() {
            if self.cells[cell] == 0 {
                let allowed = self.allowed(cell);
                if best.is_none_or(|(_, m)| allowed.count_ones() < m.count_ones()) {
                    best = Some((cell, allowed));
                    if allowed.count_ones() <= 1 {
                        break;
                    }
                }
            }
        }
        let Some((cell, allowed)) = best else {
            return Ok(true);
        };
        let (mut digits, mut count) = ([0u8; 16], 0);
        for d in (0..self.n as u8).filter(|d| allowed >> d & 1 == 1) {
            digits[count] = d + 1;
            count += 1;
        }
        rng.shuffle(&mut digits[..count]);
        for &d in &digits[..count] {
            self.cells[cell] = d;
            self.toggle(cell, d);
            if self.fill(rng)? {
                return Ok(true);
            }
            self.toggle(cell, d);
            self.cells[cell] = 0;
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::GENERATOR_VERSION;
    use crate::grid::{Variant, SUPPORTED_SIZES};

    fn assert_solution(grid: &Grid) {
        assert!(grid.is_full());
        assert!(grid.find_conflict().is_none(), "{}", grid.to_pretty());
    }

    #[test]
    fn pattern_is_valid_for_every_shape() {
        for n in SUPPORTED_SIZES {
            assert_solution(&pattern_grid(Geometry::for_size(n).unwrap()));
        }
    }

    #[test]
    fn every_route_gives_valid_grids_of_every_size_and_variant() {
        for n in SUPPORTED_SIZES {
            for variant in Variant::ALL.into_iter().filter(|v| v.rules().made_in(n)) {
                let g = Geometry::for_size(n).unwrap().with_variant(variant);
                for route in Route::ALL.into_iter().filter(|r| r.usable(g)) {
                    for seed in 0..3 {
                        let grid = test_grid(g, route, seed);
                        assert_eq!(grid.geometry(), g);
                        assert_solution(&grid);
                    }
                }
            }
        }
        let diagonal = Geometry::CLASSIC.with_variant(Variant::Diagonal);
        assert!(!Route::Pattern.usable(diagonal));
    }

    /// Each diagonal-keeping permutation really keeps both diagonals and the boxes, on
    /// every size; 9×9 has the 24 the structure predicts.
    #[test]
    fn mirrored_permutations_keep_the_diagonals() {
        for n in SUPPORTED_SIZES {
            let g = Geometry::for_size(n)
                .unwrap()
                .with_variant(Variant::Diagonal);
            let all = g.mirrored_permutations();
            assert!(all.len() >= 2, "size {n}");
            let mother = mother_grid(g, 3, None).unwrap();
            for pi in all {
                let cells = cells_of(n)
                    .map(|(_, at)| mother.at(at.through_lines(pi, pi)))
                    .collect();
                assert_solution(&Grid::from_cells(g, cells));
            }
        }
        let nine = Geometry::CLASSIC.with_variant(Variant::Diagonal);
        assert_eq!(nine.mirrored_permutations().len(), 24);
    }

    /// Since version 8 every route that makes jigsaw grids gives a grid that keeps its
    /// layout (connected regions of n cells, checked by `Regions::new`), on each size,
    /// with most regions no longer a box; before, each drew its layout first.
    #[test]
    fn jigsaw_regions_are_drawn_around_their_grid() {
        for n in [6, 9, 12] {
            let g = Geometry::for_size(n).unwrap().with_variant(Variant::Jigsaw);
            for route in [Route::Transform, Route::Backtrack, Route::Enumerate] {
                for seed in 0..4 {
                    let grid = test_grid(g, route, seed);
                    assert!(grid.find_conflict().is_none(), "{n} {route:?} {seed}");
                    let regions = grid.regions().expect("a layout");
                    let boxes = Regions::boxes(g);
                    let kept = (0..n)
                        .filter(|&k| {
                            let first =
                                (0..g.cells()).find(|&c| regions.region_of(c) == k).unwrap();
                            (0..g.cells()).all(|c| {
                                (regions.region_of(c) == k)
                                    == (boxes.region_of(c) == boxes.region_of(first))
                            })
                        })
                        .count();
                    assert!(kept <= n / 3, "{n} {route:?} {seed}: {kept} boxes kept");
                }
            }
            let rng = &mut Rand::new(1);
            let version = REGIONS_AROUND_GRIDS_SINCE - 1;
            let old = solution_grid(g, Route::Enumerate, rng, None, None, version).unwrap();
            assert!(old.find_conflict().is_none() && old.regions().is_some());
        }
    }

    /// A non-consecutive mother search makes a batch of distinct grids keeping the rule,
    /// each its own class; a batched seed names one of them by its low byte, the same
    /// whether the fill keeps the batch or `reproduce` searches it again; older versions
    /// make one grid a search, as before.
    #[test]
    fn mother_searches_make_batches_of_grids_each_its_own_class() {
        let g = Geometry::CLASSIC.with_variant(Variant::NonConsecutive);
        assert_eq!(MotherSeed::batch_size(g, GENERATOR_VERSION), MOTHER_BATCH);
        assert_eq!(MotherSeed::batch_size(g, MOTHER_BATCHES_SINCE - 1), 1);
        assert_eq!(
            MotherSeed::batch_size(Geometry::CLASSIC, GENERATOR_VERSION),
            1
        );
        assert!(!same_class_as_mother(g));
        let search = 0x1234_5600;
        let batch = mother_batch_of(g, search, None, GENERATOR_VERSION).unwrap();
        assert_eq!(batch.0.len() as u64, MOTHER_BATCH);
        let classes: std::collections::HashSet<String> = batch
            .0
            .iter()
            .map(|grid| {
                assert!(grid.is_full() && grid.find_conflict().is_none());
                crate::canon::solution_class(grid).unwrap()
            })
            .collect();
        assert_eq!(classes.len() as u64, MOTHER_BATCH);
        for index in [0, 5, 31] {
            let seed = MotherSeed::batched(search | 0xAB, index);
            assert_eq!(
                MotherSeed::of(g, seed, GENERATOR_VERSION),
                MotherSeed::Batch {
                    search,
                    index: index as usize
                }
            );
            let mother = mother_grid_of(g, seed, None, GENERATOR_VERSION).unwrap();
            assert_eq!(&mother, batch.grid(index as usize));
        }
        let old = mother_grid_of(g, search, None, MOTHER_BATCHES_SINCE - 1).unwrap();
        assert_eq!(
            MotherSeed::of(g, search, MOTHER_BATCHES_SINCE - 1),
            MotherSeed::One(search)
        );
        assert!(old.find_conflict().is_none());
    }

    /// The transform route keeps its mother's solution class, for every rule set with
    /// fixed boxes and size: the fill shares one class among a mother's grids
    /// ([`same_class_as_mother`]).
    #[test]
    fn transformed_grids_keep_their_mothers_class() {
        for n in SUPPORTED_SIZES {
            for variant in Variant::ALL.into_iter().filter(|v| v.rules().made_in(n)) {
                let g = Geometry::for_size(n).unwrap().with_variant(variant);
                if !same_class_as_mother(g) {
                    continue;
                }
                let mother = mother_grid(g, 7, None).unwrap();
                let class = crate::canon::solution_class(&mother).unwrap();
                for seed in 0..3 {
                    let rng = &mut Rand::new(seed);
                    let grid =
                        solution_grid(g, Route::Transform, rng, Some(7), None, GENERATOR_VERSION)
                            .unwrap();
                    assert_ne!(grid, mother);
                    assert_eq!(crate::canon::solution_class(&grid).unwrap(), class, "{g:?}");
                }
            }
        }
    }

    #[test]
    fn routes_are_deterministic_and_vary_with_seed() {
        let g = Geometry::CLASSIC;
        for route in Route::ALL {
            let a = test_grid(g, route, 5);
            let b = test_grid(g, route, 5);
            let c = test_grid(g, route, 6);
            assert_eq!(a, b);
            assert_ne!(a, c);
        }
    }

    /// Restarts change no 9x9 classic grid of these seeds (each fill stays within its
    /// cap); a fill stops at its cap (a 16x16 needs a step a cell) and the restarting
    /// fill still gives a grid.
    #[test]
    fn backtrack_restarts_keep_9x9_grids_and_stop_at_the_cap() {
        let grid = |g: Geometry, seed: u64, version: u32| {
            let rng = &mut Rand::new(seed);
            solution_grid(g, Route::Backtrack, rng, None, None, version).unwrap()
        };
        let (old, new) = (BACKTRACK_RESTARTS_SINCE - 1, BACKTRACK_RESTARTS_SINCE);
        for seed in 0..200 {
            assert_eq!(
                grid(Geometry::CLASSIC, seed, old),
                grid(Geometry::CLASSIC, seed, new)
            );
        }
        let g16 = Geometry::for_size(16).unwrap();
        let capped = backtrack_fill_in(&Grid::empty(g16), &mut Rand::new(1), None, 200);
        assert_eq!(capped, Ok(None));
        for seed in 0..4 {
            assert_solution(&grid(g16, seed, new));
        }
    }

    #[test]
    fn backtrack_and_enumerate_never_meet_on_a_seed() {
        // Both fill fewest-options-first; from one stream they often made one grid.
        let g = Geometry::CLASSIC;
        let grid = |route: Route, seed: u64| {
            let stream = crate::rng::derive_seed(&[seed, route.stream()]);
            test_grid(g, route, stream)
        };
        for seed in 0..1000 {
            assert_ne!(
                grid(Route::Backtrack, seed),
                grid(Route::Enumerate, seed),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn transform_keeps_its_mother_and_pattern_its_pattern() {
        let g = Geometry::CLASSIC;
        let mother = mother_grid(g, 42, None).unwrap();
        let of_mother = |stream: u64| {
            let rng = &mut Rand::new(stream);
            solution_grid(g, Route::Transform, rng, Some(42), None, GENERATOR_VERSION).unwrap()
        };
        let (a, b) = (of_mother(1), of_mother(2));
        assert_ne!(a, b, "two transforms of one mother");
        assert_ne!(a, mother);
        let p = test_grid(g, Route::Pattern, 1);
        assert_ne!(p, a);
    }

    #[test]
    fn route_names_round_trip() {
        for r in Route::ALL {
            assert_eq!(r.name().parse::<Route>().unwrap(), r);
        }
        assert!("patern"
            .parse::<Route>()
            .unwrap_err()
            .contains("unknown route"));
    }
}
