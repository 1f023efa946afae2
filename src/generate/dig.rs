//! Digging: removing clues from a solution grid while the puzzle keeps exactly one solution.

use super::forced::{forced, ClueUnits};
use super::killer::split_at;
use super::unavoidable::Unavoidable;
use crate::grid::{orthogonal_neighbours, Cages, Geometry, Grid, Symmetry};
use crate::grid::{per_geometry, CellSet, PerGeometry, GEOMETRY_SLOTS};
use crate::rng::{derive_seed, Rand};
use crate::solver::{Aborted, Counted, SearchStats, Solver};
use std::str::FromStr;
use std::sync::{Arc, OnceLock};
use thiserror::Error;

/// Which cells are removed together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// One cell at a time, no symmetry.
    Random,
    /// Cells with their half-turn image.
    Rot180,
    /// Cells with their quarter-turn images (orbits of up to four).
    Rot90,
    /// Cells with their left-right mirror image.
    Mirror,
    /// Cells with their top-bottom mirror image.
    Flip,
    /// Cells with their reflection in the main diagonal.
    Diagonal,
}

impl Strategy {
    /// Every strategy, in CLI order.
    pub const ALL: [Strategy; 6] = [
        Strategy::Random,
        Strategy::Rot180,
        Strategy::Rot90,
        Strategy::Mirror,
        Strategy::Flip,
        Strategy::Diagonal,
    ];

    /// The CLI and database name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Random => "random",
            Strategy::Rot180 => "rot180",
            Strategy::Rot90 => "rot90",
            Strategy::Mirror => "mirror",
            Strategy::Flip => "flip",
            Strategy::Diagonal => "diagonal",
        }
    }

    /// The symmetry whose orbits are removed together (`None` for `random`).
    pub fn symmetry(self) -> Option<Symmetry> {
        match self {
            Strategy::Random => None,
            Strategy::Rot180 => Some(Symmetry::Rot180),
            Strategy::Rot90 => Some(Symmetry::Rot90),
            Strategy::Mirror => Some(Symmetry::Mirror),
            Strategy::Flip => Some(Symmetry::Flip),
            Strategy::Diagonal => Some(Symmetry::Transpose),
        }
    }

    /// Refuses symmetries that do not keep the box shape (rot90 and diagonal on oblong boxes).
    pub fn check(self, g: Geometry) -> Result<(), String> {
        match self.symmetry() {
            Some(s) if !s.keeps_boxes(g) => Err(format!(
                "strategy '{}' does not fit {} boxes: quarter turns and diagonal reflections \
                 need square boxes (use random, rot180, mirror or flip)",
                self.name(),
                g.box_shape()
            )),
            _ => Ok(()),
        }
    }

    /// The groups of cells removed together, each listed once, in cell order (built once
    /// per process).
    pub fn orbits(self, g: Geometry) -> &'static [Vec<usize>] {
        static ORBITS: [PerGeometry<Vec<Vec<usize>>>; Strategy::ALL.len()] =
            [const { [const { OnceLock::new() }; GEOMETRY_SLOTS] }; Strategy::ALL.len()];
        per_geometry(&ORBITS[self as usize], g, |g| self.build_orbits(g)).as_slice()
    }

    fn build_orbits(self, g: Geometry) -> Vec<Vec<usize>> {
        let n = g.n();
        (0..g.cells())
            .filter_map(|cell| {
                let mut orbit = vec![cell];
                if let Some(s) = self.symmetry() {
                    let mut next = s.map_cell(n, cell);
                    while next != cell {
                        orbit.push(next);
                        next = s.map_cell(n, next);
                    }
                }
                (orbit.iter().min() == Some(&cell)).then_some(orbit)
            })
            .collect()
    }
}

impl FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Strategy, String> {
        super::parse_named(&Strategy::ALL, Strategy::name, s, "strategy")
    }
}

/// When digging stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DigStop {
    /// Stop once the puzzle has this many clues.
    Clues(usize),
    /// Stop when no clue (under a symmetry: no orbit) can be removed.
    Minimal,
}

impl DigStop {
    /// The clue target, `None` for minimal.
    pub fn target(self) -> Option<usize> {
        match self {
            DigStop::Clues(k) => Some(k),
            DigStop::Minimal => None,
        }
    }
}

/// Why digging gave no puzzle.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum DigError {
    /// The clue target was not reached before the failure budget ran out or no orbit was left.
    #[error("clue target {target} not reached (stopped at {reached})")]
    TargetMissed {
        /// The target.
        target: usize,
        /// Clues left when digging gave up.
        reached: usize,
    },
    /// Killer cages could not be grown within the most cages a puzzle may have.
    #[error("the cage sizes make more cages than a puzzle may have (62); raise the smallest size")]
    TooManyCages,
    /// The deadline passed.
    #[error("deadline passed")]
    Aborted,
}

impl From<Aborted> for DigError {
    fn from(_: Aborted) -> DigError {
        DigError::Aborted
    }
}

/// Digs `solution` into a puzzle with exactly one solution.
///
/// Orbits are tried in an order drawn from `rng`; an orbit is removed when, for each of
/// its cells, no solution puts another digit there. `failure_budget` bounds the failed
/// removals when digging to a target (`None`: try every orbit once).
pub fn dig(
    solution: &Grid,
    strategy: Strategy,
    stop: DigStop,
    failure_budget: Option<u32>,
    rng: &mut Rand,
    solver: &Solver,
) -> Result<Grid, DigError> {
    let base = BaseGrid::new(solution.clone());
    let mut digger = Digger::new(&base, strategy, failure_budget, rng, solver);
    digger.dig_to(stop).cloned()
}

/// Cage splits a killer dig makes before it adds givens instead.
const MOST_SPLITS: usize = 6;

/// The nodes a cage merge's first count to two may take ([`Digger::count_to_two`]).
/// Measured on the 2,406 merges tried in a killer expert fill of 100 (one worker): of
/// the 889 that lose uniqueness, 55 % show a second solution within 16 nodes and 68 %
/// within 32 (median 13), where the settle test takes 0.5 ms to give up; of the 1,517
/// that keep it, the settle test proves 94 % unique in 0.33 ms each, a test the fill
/// makes of the merged puzzle next anyway, where their count took 0.35 ms.
const QUICK_COUNT_NODES: u64 = 32;

/// Neighbouring cage pairs one hardening merge tries ([`Digger::merge_cages`]).
const MERGE_TRIES: usize = 8;

/// A dig in progress: it can stop at one target and later carry on to a lower one, as if
/// it had been asked for the lower target in steps. The orbit order is drawn once.
pub struct Digger<'a> {
    solver: &'a Solver,
    orbits: Vec<&'static [usize]>,
    /// The first orbit not yet tried.
    next: usize,
    puzzle: Grid,
    clues: usize,
    failures: u32,
    failure_budget: Option<u32>,
    /// The solution grid and what digging knows of it.
    base: &'a BaseGrid,
    /// The cells holding a clue.
    clue_set: CellSet,
    /// The digits the clues hold in each unit.
    clue_units: ClueUnits,
    /// Seed of a killer dig's choices (see [`Digger::add_givens`]; 0 otherwise).
    killer_seed: u64,
    /// The effort of a count to two of the puzzle as it stands, when digging made one
    /// (a killer dig's last count; see [`Digger::search_effort`]).
    counted: Option<SearchStats>,
    /// A test that only sound deductions pass, so a puzzle passing it is unique (see
    /// [`Digger::with_settle_test`]); by default none passes.
    settles: &'a dyn Fn(&Grid) -> bool,
}

/// Whether a cage merge keeps the puzzle unique ([`Digger::count_to_two`]).
enum Merge {
    /// One solution, with the effort of the count to two that proved it (`None` when the
    /// settle test did).
    Unique(Option<SearchStats>),
    /// Two solutions or more.
    Ambiguous,
}

/// A solution grid with what digging knows of it, to settle removals without the solver.
/// Built once per grid and shared by every dig of it.
pub struct BaseGrid {
    grid: Grid,
    /// Sets of cells that must keep a clue.
    unavoidable: Unavoidable,
    /// The solution class, computed the first time a puzzle of this grid is kept; shared
    /// with the grids known to be of its class ([`BaseGrid::in_class`]).
    class: Arc<OnceLock<String>>,
}

impl BaseGrid {
    /// Takes in a full, valid grid.
    pub fn new(grid: Grid) -> BaseGrid {
        BaseGrid {
            unavoidable: Unavoidable::two_digit(&grid),
            grid,
            class: Arc::default(),
        }
    }

    /// A grid that many digs share (the fill keeps its workers' recent grids): the
    /// unavoidable sets one dig's searches find spare the later digs those searches.
    pub fn shared(grid: Grid) -> BaseGrid {
        let BaseGrid {
            grid,
            unavoidable,
            class,
        } = BaseGrid::new(grid);
        BaseGrid {
            unavoidable: unavoidable.learning(),
            grid,
            class,
        }
    }

    /// This grid, known to be of the solution class that `class` holds or will hold (the
    /// grids a fill makes from one mother grid): the class is computed once for them all.
    pub fn in_class(self, class: Arc<OnceLock<String>>) -> BaseGrid {
        BaseGrid { class, ..self }
    }

    /// The solution grid.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// What digging knows of the grid's unavoidable sets.
    #[cfg(test)]
    pub(super) fn unavoidable(&self) -> &Unavoidable {
        &self.unavoidable
    }

    /// The grid's solution class (the hash of its full-group minlex form), computed once:
    /// a base grid serves several puzzles.
    pub fn solution_class(&self) -> &str {
        self.class
            .get_or_init(|| crate::canon::solution_class(&self.grid).expect("a base grid is full"))
    }
}

impl<'a> Digger<'a> {
    /// Starts a dig of `base` with the orbit order drawn from `rng`.
    pub fn new(
        base: &'a BaseGrid,
        strategy: Strategy,
        failure_budget: Option<u32>,
        rng: &mut Rand,
        solver: &'a Solver,
    ) -> Digger<'a> {
        let solution = &base.grid;
        let mut orbits: Vec<&[usize]> = strategy
            .orbits(solution.geometry())
            .iter()
            .map(Vec::as_slice)
            .collect();
        rng.shuffle(&mut orbits);
        // Drawn only for killer grids, so the other variants' streams stay as they were.
        let killer_seed = if solution.cages().is_some() {
            rng.next_u64()
        } else {
            0
        };
        Digger {
            killer_seed,
            counted: None,
            base,
            clue_set: (0..solution.geometry().cells()).collect(),
            clue_units: ClueUnits::full(solution.geometry()),
            solver,
            orbits,
            next: 0,
            puzzle: solution.clone(),
            clues: solution.geometry().cells(),
            failures: 0,
            failure_budget,
            settles: &|_| false,
        }
    }

    /// The same dig, with `settles` (a test that only sound deductions pass, such as the
    /// fill's settle test) sparing cage merges the full counts it can prove unique: a
    /// merged puzzle gets a short count, then this test, then a full count. It changes no
    /// puzzle: a count and the test agree on every puzzle the test passes.
    pub fn with_settle_test(mut self, settles: &'a dyn Fn(&Grid) -> bool) -> Digger<'a> {
        self.settles = settles;
        self
    }

    /// A cage merge's count of `puzzle` to two, the cheapest way that decides it: a count
    /// within [`QUICK_COUNT_NODES`] nodes, else the settle test, else a full count. A
    /// count that reaches two within the budget found the same two solutions a full count
    /// finds first (the same search, cut short).
    fn count_to_two(&self, puzzle: &Grid) -> Result<Merge, Aborted> {
        let merge = |found: Counted| match found.count {
            1 => Merge::Unique(Some(found.stats)),
            _ => Merge::Ambiguous,
        };
        if let Some(found) = self.solver.count_within(puzzle, 2, QUICK_COUNT_NODES)? {
            return Ok(merge(found));
        }
        if (self.settles)(puzzle) {
            return Ok(Merge::Unique(None));
        }
        Ok(merge(self.solver.count(puzzle, 2)?))
    }

    /// The puzzle so far.
    pub fn puzzle(&self) -> &Grid {
        &self.puzzle
    }

    /// The solver's effort to prove the puzzle so far unique: [`Solver::search_effort`],
    /// taken from the count digging made of this very puzzle when it made one (a killer
    /// dig's uniqueness checks are counts to two, 8 % of a killer expert fill when the
    /// effort was counted again).
    pub fn search_effort(&self) -> Result<SearchStats, Aborted> {
        match self.counted {
            Some(stats) => Ok(stats),
            None => self.solver.search_effort(&self.puzzle),
        }
    }

    /// A killer puzzle is dug the other way round: from no givens, while a second solution
    /// exists, the cage of a random cell where it differs from the base is split (at most
    /// [`MOST_SPLITS`] times), or else the base's digit is given there; then every given is
    /// tried for removal in a random order. Cages alone are often
    /// enough, and this takes a handful of searches where digging from the full grid takes
    /// one per cell. The puzzle has the fewest givens this finds (minimal: none can go).
    fn add_givens(&mut self) -> Result<(), DigError> {
        let solution = &self.base.grid;
        let g = solution.geometry();
        let mut puzzle = solution.clone();
        puzzle.set_all_empty();
        let mut rng = Rand::new(self.killer_seed);
        let mut splits = 0;
        // Full counts: most of these puzzles have a second solution, which the split
        // needs, and the settle test would take long to give up on them (+13 % of a
        // killer expert fill's instructions with `count_to_two` here).
        let mut counted = loop {
            let found = self.solver.count(&puzzle, 2)?;
            if found.count == 1 {
                break Some(found.stats);
            }
            let other = [found.first, found.second]
                .into_iter()
                .flatten()
                .find(|s| s.cells() != solution.cells())
                .expect("two solutions, one of them not the base");
            let differ: Vec<usize> = (0..g.cells())
                .filter(|&c| other.get(c) != solution.get(c))
                .collect();
            let cell = differ[rng.below(differ.len() as u32) as usize];
            let cages = puzzle.cages().expect("a killer dig");
            let split = (splits < MOST_SPLITS)
                .then(|| split_at(cages, solution, cell, &mut rng))
                .flatten();
            match split {
                Some(cages) => {
                    splits += 1;
                    puzzle = puzzle.without_cages().with_cages(Arc::new(cages));
                }
                None => puzzle.set(cell, solution.get(cell)),
            }
        };
        let mut givens: Vec<usize> = (0..g.cells()).filter(|&c| puzzle.get(c) != 0).collect();
        rng.shuffle(&mut givens);
        for cell in givens {
            let digit = puzzle.get(cell);
            puzzle.set(cell, 0);
            if self.solver.has_solution_avoiding(&puzzle, cell, digit)? {
                puzzle.set(cell, digit);
            } else {
                counted = None;
            }
        }
        self.counted = counted;
        self.clue_set = (0..g.cells()).filter(|&c| puzzle.get(c) != 0).collect();
        self.clue_units = ClueUnits::of(&puzzle);
        self.clues = puzzle.clue_count();
        self.puzzle = puzzle;
        self.next = self.orbits.len();
        Ok(())
    }

    /// Merges two neighbouring cages of the dug killer puzzle, whose digits differ, into one
    /// of at most `most` cells, if the puzzle stays unique: the first of [`MERGE_TRIES`]
    /// random pairs that keeps it so. Larger cages make a harder puzzle from the same
    /// work, as digging one clue level deeper does for classic. Merge `round` draws a
    /// stream of its own, so replaying the merges one by one merges the same cages.
    /// `false` when no pair tried keeps the puzzle unique.
    ///
    /// Each merged puzzle is decided by a short count, the settle test
    /// ([`Digger::with_settle_test`]), then a full count: a pair is taken exactly when its
    /// merged puzzle is unique, so the merges are the same with any settle test or none
    /// (`reproduce` counts them all).
    pub fn merge_cages(&mut self, most: usize, round: u32) -> Result<bool, DigError> {
        let solution = &self.base.grid;
        let g = solution.geometry();
        let cages = Arc::clone(self.puzzle.cages().expect("a killer dig"));
        let digits = |k: usize| {
            cages
                .cells(k)
                .iter()
                .fold(0u32, |m, &c| m | 1 << solution.get(c as usize))
        };
        let mut pairs = Vec::new();
        for c in 0..g.cells() {
            for m in orthogonal_neighbours(g.n(), c) {
                let (a, b) = (cages.cage_of(c), cages.cage_of(m));
                if a < b
                    && cages.cells(a).len() + cages.cells(b).len() <= most
                    && digits(a) & digits(b) == 0
                    && !pairs.contains(&(a, b))
                {
                    pairs.push((a, b));
                }
            }
        }
        let mut rng = Rand::new(derive_seed(&[self.killer_seed, 1, u64::from(round)]));
        rng.shuffle(&mut pairs);
        for (a, b) in pairs.into_iter().take(MERGE_TRIES) {
            let labels: Vec<usize> = (0..g.cells())
                .map(|c| match cages.cage_of(c) {
                    k if k == b => a,
                    k => k,
                })
                .collect();
            let sum = |k: usize| match k {
                k if k == a => cages.sum(a) + cages.sum(b),
                k => cages.sum(k),
            };
            let merged = Cages::from_labels(g, &labels, sum)
                .expect("two neighbouring cages of distinct digits make one");
            let candidate = self.puzzle.without_cages().with_cages(Arc::new(merged));
            if let Merge::Unique(counted) = self.count_to_two(&candidate)? {
                self.puzzle = candidate;
                self.counted = counted;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Carries on digging until `stop`; orbits skipped or kept on the way stay behind.
    pub fn dig_to(&mut self, stop: DigStop) -> Result<&Grid, DigError> {
        let target = stop.target().unwrap_or(0);
        if self.next == 0 && self.puzzle.cages().is_some() {
            self.add_givens()?;
        }
        while self.next < self.orbits.len() && self.clues > target {
            let orbit = self.orbits[self.next];
            self.next += 1;
            if self.clues - orbit.len() < target {
                continue;
            }
            let layout = self.base.grid.layout();
            for &cell in orbit {
                self.puzzle.set(cell, 0);
                self.clue_set.remove(cell);
                self.clue_units
                    .remove(layout, cell, self.base.grid.get(cell));
            }
            let dug = Dug {
                puzzle: &self.puzzle,
                clue_set: &self.clue_set,
                clue_units: &self.clue_units,
            };
            if still_unique(&dug, self.base, orbit, self.solver)? {
                self.clues -= orbit.len();
                self.counted = None;
            } else {
                for &cell in orbit {
                    let digit = self.base.grid.get(cell);
                    self.puzzle.set(cell, digit);
                    self.clue_set.insert(cell);
                    self.clue_units.restore(layout, cell, digit);
                }
                self.failures += 1;
                if stop != DigStop::Minimal
                    && self.failure_budget.is_some_and(|b| self.failures > b)
                {
                    break;
                }
            }
        }
        match stop {
            DigStop::Clues(target) if self.clues > target => Err(DigError::TargetMissed {
                target,
                reached: self.clues,
            }),
            _ => Ok(&self.puzzle),
        }
    }
}

/// A puzzle being dug, with what is kept of its clues.
struct Dug<'p> {
    puzzle: &'p Grid,
    clue_set: &'p CellSet,
    clue_units: &'p ClueUnits,
}

/// Whether `dug`, which was unique before `removed` were cleared, still is: every other
/// solution would differ from the base grid at one of the removed cells.
fn still_unique(
    dug: &Dug,
    base: &BaseGrid,
    removed: &[usize],
    solver: &Solver,
) -> Result<bool, Aborted> {
    let solution = &base.grid;
    if base.unavoidable.emptied_by(dug.clue_set, removed) {
        return Ok(false);
    }
    for &cell in removed {
        let digit = solution.get(cell);
        if forced(dug.puzzle, dug.clue_units, cell, digit) {
            continue;
        }
        let other_solution = if base.unavoidable.learns() {
            let other = solver.solution_avoiding(dug.puzzle, cell, digit)?;
            if let Some(other) = &other {
                base.unavoidable.learn(solution, other);
            }
            other.is_some()
        } else {
            solver.has_solution_avoiding(dug.puzzle, cell, digit)?
        };
        if other_solution {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether no clue of `puzzle` can be removed (under `strategy`: no whole orbit of clues)
/// without losing uniqueness.
pub fn is_minimal(puzzle: &Grid, solution: &Grid, strategy: Strategy) -> bool {
    let solver = Solver::new();
    let base = BaseGrid::new(solution.clone());
    let g = puzzle.geometry();
    let clue_set: CellSet = (0..g.cells()).filter(|&c| puzzle.get(c) != 0).collect();
    strategy.orbits(g).iter().all(|orbit| {
        if orbit.iter().any(|&c| puzzle.get(c) == 0) {
            return true;
        }
        let mut fewer = puzzle.clone();
        let mut fewer_set = clue_set;
        for &c in orbit {
            fewer.set(c, 0);
            fewer_set.remove(c);
        }
        let dug = Dug {
            puzzle: &fewer,
            clue_set: &fewer_set,
            clue_units: &ClueUnits::of(&fewer),
        };
        !still_unique(&dug, &base, orbit, &solver).expect("no deadline")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::base::pattern_grid;
    use crate::solver::count_solutions;

    #[test]
    fn merged_cages_keep_the_killer_unique_and_replay_alike() {
        use crate::generate::{grow_cages, CageSizes};
        let solution = pattern_grid(Geometry::CLASSIC);
        let sizes = CageSizes::new(2, 4, 9).unwrap();
        let solver = Solver::new();
        let mut merged = 0;
        let settled = std::cell::Cell::new(0);
        for seed in 0..8 {
            let cages = grow_cages(&solution, sizes, &mut Rand::new(seed)).unwrap();
            let base = BaseGrid::new(solution.clone().with_cages(cages));
            // The fill's settle test spares the dig some counts: the same puzzles follow.
            let settles = |p: &Grid| {
                let passed = crate::rate::settle::solved_below(p, 9.0);
                settled.set(settled.get() + usize::from(passed));
                passed
            };
            let never = |_: &Grid| false;
            let (mut d, mut again) = (
                dig_killer(&base, &solver, seed, &never),
                dig_killer(&base, &solver, seed, &settles),
            );
            assert_eq!(d.puzzle(), again.puzzle(), "seed {seed}");
            for round in 0..4 {
                let before = d.puzzle().cages().unwrap().count();
                let made = d.merge_cages(4, round).unwrap();
                assert_eq!(again.merge_cages(4, round).unwrap(), made);
                assert_eq!(d.puzzle(), again.puzzle(), "seed {seed} round {round}");
                assert_eq!(d.search_effort().unwrap(), again.search_effort().unwrap());
                if !made {
                    break;
                }
                merged += 1;
                let p = d.puzzle();
                let cages = p.cages().unwrap();
                assert_eq!(cages.count(), before - 1);
                assert!((0..cages.count()).all(|k| cages.cells(k).len() <= 4));
                // The solution still fits: distinct digits in each cage, the sums its own.
                let full = solution.without_cages().with_cages(Arc::clone(cages));
                assert_eq!(full.find_conflict(), None);
                assert_eq!(count_solutions(p, 2).count, 1, "seed {seed} round {round}");
            }
        }
        assert!(merged >= 12, "only {merged} merges kept the puzzles unique");
        assert!(
            settled.get() >= 4,
            "the settle test proved {} puzzles",
            settled.get()
        );
    }

    /// A killer dig of `base` to its fewest givens, with `settles` as its settle test.
    fn dig_killer<'a>(
        base: &'a BaseGrid,
        solver: &'a Solver,
        seed: u64,
        settles: &'a dyn Fn(&Grid) -> bool,
    ) -> Digger<'a> {
        let mut d = Digger::new(base, Strategy::Random, None, &mut Rand::new(seed), solver)
            .with_settle_test(settles);
        d.dig_to(DigStop::Minimal).unwrap();
        d
    }

    /// The effort a dig reports for its puzzle is a fresh count's, whether it comes from
    /// the dig's own last count (killer digs, after their givens and after merges) or
    /// from a new one (classic digs).
    #[test]
    fn a_dig_knows_its_puzzles_search_effort() {
        use crate::generate::{grow_cages, CageSizes};
        let solution = pattern_grid(Geometry::CLASSIC);
        let sizes = CageSizes::new(2, 4, 9).unwrap();
        let solver = Solver::new();
        let fresh = |p: &Grid| count_solutions(p, 2).stats;
        let (mut remembered, mut with_givens) = (0, 0);
        for seed in 0..12 {
            let cages = grow_cages(&solution, sizes, &mut Rand::new(seed)).unwrap();
            let base = BaseGrid::new(solution.clone().with_cages(cages));
            let mut d = Digger::new(&base, Strategy::Random, None, &mut Rand::new(seed), &solver);
            d.dig_to(DigStop::Minimal).unwrap();
            with_givens += usize::from(d.puzzle().clue_count() > 0);
            for round in 0..3 {
                remembered += usize::from(d.counted.is_some());
                assert_eq!(d.search_effort().unwrap(), fresh(d.puzzle()), "seed {seed}");
                if !d.merge_cages(4, round).unwrap() {
                    break;
                }
            }
            let classic = BaseGrid::new(solution.clone());
            let mut d = Digger::new(
                &classic,
                Strategy::Random,
                None,
                &mut Rand::new(seed),
                &solver,
            );
            d.dig_to(DigStop::Clues(30)).unwrap();
            assert_eq!(d.search_effort().unwrap(), fresh(d.puzzle()), "seed {seed}");
        }
        assert!(
            remembered >= 12,
            "only {remembered} efforts came from the dig"
        );
        assert!(with_givens >= 1, "no killer dig kept a given");
    }

    #[test]
    fn orbit_sizes() {
        let g = Geometry::CLASSIC;
        assert_eq!(Strategy::Random.orbits(g).len(), 81);
        assert_eq!(Strategy::Rot180.orbits(g).len(), 41);
        assert_eq!(Strategy::Rot90.orbits(g).len(), 21);
        assert_eq!(Strategy::Mirror.orbits(g).len(), 45);
        assert_eq!(Strategy::Diagonal.orbits(g).len(), 45);
        let total: usize = Strategy::Rot90.orbits(g).iter().map(Vec::len).sum();
        assert_eq!(total, 81);
    }

    #[test]
    fn oblong_boxes_refuse_quarter_turns() {
        let g = Geometry::for_size(6).unwrap();
        let err = Strategy::Rot90.check(g).unwrap_err();
        assert!(err.contains("does not fit 2x3 boxes"), "{err}");
        assert!(Strategy::Diagonal.check(g).is_err());
        assert!(Strategy::Rot180.check(g).is_ok());
        assert!(Strategy::Rot90.check(Geometry::CLASSIC).is_ok());
    }

    #[test]
    fn minimal_dig_is_unique_and_minimal() {
        let solution = pattern_grid(Geometry::CLASSIC);
        for strategy in Strategy::ALL {
            let mut rng = Rand::new(3);
            let p = dig(
                &solution,
                strategy,
                DigStop::Minimal,
                None,
                &mut rng,
                &Solver::new(),
            )
            .unwrap();
            assert_eq!(count_solutions(&p, 2).count, 1);
            assert!(is_minimal(&p, &solution, strategy), "{strategy:?}");
        }
    }

    #[test]
    fn failure_budget_gives_up_early() {
        let solution = pattern_grid(Geometry::CLASSIC);
        let solver = Solver::new();
        // 24 clues needs many failed removals on the way; a budget of 0 stops at the first.
        let err = dig(
            &solution,
            Strategy::Random,
            DigStop::Clues(24),
            Some(0),
            &mut Rand::new(9),
            &solver,
        )
        .unwrap_err();
        let DigError::TargetMissed { reached, .. } = err else {
            panic!("{err:?}")
        };
        let unbounded = dig(
            &solution,
            Strategy::Random,
            DigStop::Clues(24),
            None,
            &mut Rand::new(9),
            &solver,
        );
        assert!(reached > 24);
        // The same seed without a budget gets further (or reaches the target).
        if let Err(DigError::TargetMissed {
            reached: further, ..
        }) = unbounded
        {
            assert!(further < reached);
        }
    }

    #[test]
    fn target_is_met_exactly_or_refused() {
        let solution = pattern_grid(Geometry::CLASSIC);
        let mut rng = Rand::new(9);
        let mut dig_to = |k| {
            let stop = DigStop::Clues(k);
            dig(
                &solution,
                Strategy::Random,
                stop,
                None,
                &mut rng,
                &Solver::new(),
            )
        };
        let p = dig_to(40).unwrap();
        assert_eq!(p.clue_count(), 40);
        assert!(crate::solver::is_unique(&p));
        let err = dig_to(5).unwrap_err();
        assert!(matches!(err, DigError::TargetMissed { target: 5, .. }));
    }
}
