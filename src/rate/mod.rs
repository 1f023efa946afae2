//! Rating: a human-style technique solver scored on the Sudoku Explainer (SE) scale, and
//! the solver's search effort.
//!
//! The rater takes, step by step, the step Sudoku Explainer takes among those the
//! techniques of [`techniques::REGISTRY`] offer (the first in the reference's order,
//! [`order`]: mostly the lowest-scoring) until the score is set, then for the bank any
//! step no harder that the reference would not pass over for a harder one ([`Path`]); the
//! puzzle's score is its hardest step.
//! When the implemented
//! techniques run out before the grid is solved, the rating says so (`completed = false`)
//! and the score is a lower bound: [`BEYOND_SCORE`] (SE's dynamic forcing chains plus and
//! nested chains).
//!
//! Every technique works on every grid size; unique rectangles and BUG+1 assume the puzzle
//! has one solution (the bank only rates such puzzles).

pub mod board;
pub mod calibrate;
pub mod memo;
pub mod order;
pub mod settle;
pub mod techniques;

pub use board::Board;
use order::Rank;
pub use techniques::step::{Link, Step};
pub use techniques::{Technique, Wanted};

use crate::grid::{Geometry, Grid};
use crate::solver::Aborted;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// The score given when the implemented techniques run out: a lower bound, the start of
/// SE's dynamic forcing chains with further techniques inside ("dynamic plus") and nested
/// chains.
pub const BEYOND_SCORE: f64 = 9.0;

/// The rating of one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct Rating {
    /// SE-scale score: the hardest step, or a lower bound when not completed.
    pub score: f64,
    /// The hardest technique used (`None` when no step was needed).
    pub hardest: Option<Technique>,
    /// Whether the techniques solved the whole grid.
    pub completed: bool,
    /// Steps taken, in order.
    pub steps: Vec<Step>,
    /// The rated grid's geometry, which names the techniques ([`Technique::name_in`]).
    #[serde(skip)]
    pub geometry: Geometry,
}

impl Rating {
    /// Steps per technique name (for the bank's JSON column).
    pub fn technique_counts(&self) -> BTreeMap<&'static str, u32> {
        let mut counts = BTreeMap::new();
        for s in &self.steps {
            *counts.entry(self.name_of(s.technique)).or_insert(0) += 1;
        }
        counts
    }

    /// `t`'s name on the rated grid.
    pub fn name_of(&self, t: Technique) -> &'static str {
        t.name_in(self.geometry)
    }

    /// The hardest technique's name, or `beyond <name>` when the rater gave up.
    pub fn hardest_name(&self) -> String {
        let name = self.hardest.map_or("none", |t| self.name_of(t));
        if self.completed {
            name.to_string()
        } else {
            format!(
                "beyond {}",
                techniques::REGISTRY[techniques::REGISTRY.len() - 1].name
            )
        }
    }
}

/// Which steps the rater takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Every step the one Sudoku Explainer takes ([`order`]): the path
    /// `explain` and the solving page show.
    Easiest,
    /// The reference's step until the score is set, then the first step found that
    /// scores no more than the score so far (a lower one would not change the score),
    /// unless a technique the reference tries first offers a step scoring more (then
    /// that one): the bank's ratings. Searching for the lowest step where any low enough
    /// one does was half the rating time of generated experts. The paths part after the score is
    /// first reached, so a later step can raise the score on one path and not on the
    /// other. On the 11,791 calibration puzzles both paths give every puzzle the same
    /// hardest technique, and the same score except on 12 rated by dynamic forcing
    /// chains (8.9–9.2), where the two differ by 0.1 or 0.2 (`tests/it/rater.rs` checks
    /// all of them).
    Scoring,
}

/// Rates a puzzle that has exactly one solution, as the bank does ([`Path::Scoring`]).
pub fn rate(puzzle: &Grid) -> Rating {
    rate_on(puzzle, Path::Scoring)
}

/// Rates a puzzle that has exactly one solution along `path`.
pub fn rate_on(puzzle: &Grid, path: Path) -> Rating {
    rate_board(Board::new(puzzle), f64::INFINITY, None, path)
        .expect("no deadline")
        .expect("no cap")
}

/// Rates a puzzle, giving up when `deadline` passes (checked between steps).
pub fn rate_until(puzzle: &Grid, deadline: Option<Instant>) -> Result<Rating, Aborted> {
    Ok(rate_within(puzzle, f64::INFINITY, deadline)?.expect("no cap"))
}

/// Rates a puzzle if its score is at most `cap`; `None` as soon as it is known to be
/// higher. Techniques that cannot score `cap` or less are never tried, so a puzzle above
/// the cap costs little; a puzzle within it gets the same rating as [`rate`].
pub fn rate_within(
    puzzle: &Grid,
    cap: f64,
    deadline: Option<Instant>,
) -> Result<Option<Rating>, Aborted> {
    rate_board(Board::new(puzzle), cap, deadline, Path::Scoring)
}

/// [`rate_within`] for a fill, which reads the score and techniques only: the steps come
/// without their notes in words.
pub fn score_within(
    puzzle: &Grid,
    cap: f64,
    deadline: Option<Instant>,
) -> Result<Option<Rating>, Aborted> {
    rate_board(
        Board::new(puzzle).without_notes(),
        cap,
        deadline,
        Path::Scoring,
    )
}

/// [`rate_within`] from `board`, along `path`.
fn rate_board(
    mut board: Board,
    cap: f64,
    deadline: Option<Instant>,
    path: Path,
) -> Result<Option<Rating>, Aborted> {
    let mut steps = Vec::new();
    let (mut score, mut hardest) = (0.0f64, None);
    let limit = 4 * board.cells() * board.n();
    while !board.solved() && steps.len() < limit {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Aborted);
        }
        let enough = match path {
            Path::Easiest => 0.0,
            Path::Scoring => score,
        };
        let step = step_within(&board, cap, enough);
        let Some(step) = step else {
            let score = score.max(BEYOND_SCORE);
            return Ok((score <= cap).then_some(Rating {
                score,
                hardest,
                completed: false,
                steps,
                geometry: board.geometry(),
            }));
        };
        if step.score > cap {
            return Ok(None);
        }
        apply(&mut board, &step);
        if step.score > score {
            score = step.score;
            hardest = Some(step.technique);
        }
        steps.push(step);
    }
    Ok(Some(Rating {
        score,
        hardest,
        completed: board.solved(),
        steps,
        geometry: board.geometry(),
    }))
}

/// The next step: the one Sudoku Explainer takes ([`order`]; the techniques' tests
/// follow it).
#[cfg(test)]
pub(crate) fn next_step(board: &Board, cap: f64) -> Option<Step> {
    step_within(board, cap, 0.0)
}

/// From this score on, forcing chains are tried early (see [`step_within`]): every
/// forcing chain without a length bonus then scores no more than the score so far.
const CHAINS_EARLY_FROM: f64 = 7.0;

/// The technique forcing chains are tried after when they go early: the cheaper ones
/// before it often find a step at less cost; the quads, wings of almost locked sets and
/// X-chains after it cost more than the forcing chains, which nearly always find one.
/// (Rating 200 generated experts, callgrind: forcing chains right after the XY-wing
/// 1.161 G instructions, after the unique rectangles 1.119 G, after the VWXYZ-wing
/// 1.149 G, after the X-chains 1.177 G, in their place 1.338 G.)
const CHAINS_EARLY_AFTER: Technique = Technique::UniqueRectangle3;

/// The techniques tried last when forcing chains go early: where the forcing chains find
/// no step low enough, these almost never do either, at a high cost (rating 60 diagonal
/// experts: 1 step from 400 calls, 12 % of the rating time; the UVWXYZ-wing's sets of
/// five cells in their place cost a diagonal expert fill of 150 on one worker 6.5 % of
/// its instructions, callgrind 3.478 G against 3.253 G).
const LAST_WHEN_CHAINS_EARLY: [Technique; 3] = [
    Technique::AlignedPairExclusion,
    Technique::UvwxyzWing,
    Technique::AlignedTripleExclusion,
];

/// The techniques in the order tried: the registry's, or with forcing chains moved up
/// after [`CHAINS_EARLY_AFTER`] and [`LAST_WHEN_CHAINS_EARLY`] moved to the end.
fn tried_in_order(chains_early: bool) -> impl Iterator<Item = &'static techniques::Entry> {
    let last = move |t: Technique| chains_early && LAST_WHEN_CHAINS_EARLY.contains(&t);
    let moved = move |t: Technique| (chains_early && t == Technique::ForcingChain) || last(t);
    let registry = techniques::REGISTRY.iter();
    registry
        .clone()
        .filter(move |e| !moved(e.technique))
        .flat_map(move |e| {
            let chains = (chains_early && e.technique == CHAINS_EARLY_AFTER)
                .then(|| Technique::ForcingChain.entry());
            std::iter::once(e).chain(chains)
        })
        .chain(registry.filter(move |e| last(e.technique)))
}

/// The step Sudoku Explainer takes (the first in its order, [`order::Rank`]: mostly the
/// lowest-scoring), except that a step scoring at most `enough` serves as well (0 asks
/// for the reference's own step). Techniques are tried in order; once one makes
/// progress, only the later ones that could offer a step ranked before it are tried, and
/// asked only for such steps (a long chain can score more than a short chain of a harder
/// kind, a unique rectangle type 3 with a quad more than an X-chain). Once a step scores
/// at most `enough`, only the techniques that could still offer a step ranked before it
/// and scoring more than `enough` are tried (strong links before a wing, forcing chains
/// before an exclusion): the reference would take that step and score it. When a forcing
/// chain without a length bonus is enough, forcing chains are tried before the costlier
/// techniques of lower base score.
fn step_within(board: &Board, cap: f64, enough: f64) -> Option<Step> {
    // The step to take so far, its rank, and the lowest score a later step must beat
    // (past `enough` once the step so far scores no more).
    let mut found: Option<(Step, Rank, f64)> = None;
    let rules = board.geometry().variant().rules();
    for entry in tried_in_order(enough >= CHAINS_EARLY_FROM - 1e-9) {
        let base = entry.base_score;
        if base > cap || !entry.technique.applies_under(rules) {
            continue;
        }
        let (below, floor) = match &found {
            None => (f64::INFINITY, base),
            Some((_, rank, floor)) => (rank.beaten_below(entry.technique), base.max(*floor)),
        };
        if below <= floor + 1e-9 {
            continue;
        }
        if let Some(step) = (entry.finder)(board, Wanted { below, enough }) {
            let rank = Rank::of(step.technique, step.score);
            if found.as_ref().is_none_or(|(_, f, _)| rank.before(*f)) {
                let settled = step.score <= enough + 1e-9;
                if settled && !rank.may_yield_above(enough) {
                    return Some(step);
                }
                let floor = if settled { enough } else { 0.0 };
                found = Some((step, rank, floor));
            }
        }
    }
    found.map(|(step, _, _)| step)
}

/// Applies a step's placements and eliminations.
pub fn apply(board: &mut Board, step: &Step) {
    for &(cell, digit) in &step.placements {
        board.place(cell, digit);
    }
    for &(cell, digit) in &step.eliminations {
        board.eliminate(cell, digit);
    }
}

/// The first `count` puzzles of the SE calibration file rated `min_se` or more, for the
/// rater's tests.
#[cfg(test)]
pub(crate) fn calibration_puzzles(min_se: f64, count: usize) -> Vec<Grid> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/rating/se_calibration.txt"
    );
    let text = std::fs::read_to_string(path).expect("the calibration file");
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .filter(|(_, se)| se.trim().parse::<f64>().expect("an SE rating") >= min_se)
        .take(count)
        .map(|(cells, _)| crate::grid::parse_line(cells).expect("a puzzle"))
        .collect()
}

/// The puzzles the reference rated under `variant`'s rules (`tests/data`), with their
/// ratings, in file order.
#[cfg(test)]
pub(crate) fn reference_rated(variant: crate::grid::Variant) -> Vec<(f64, Grid)> {
    let name = variant.name().replace('-', "_");
    let path = format!("{}/tests/data/{name}_se.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("a rating file");
    let g = Geometry::CLASSIC.with_variant(variant);
    text.lines()
        .filter_map(|l| {
            let mut fields = l.split(' ');
            let cells = fields.next()?;
            let se = fields.next()?.parse().ok()?;
            Some((
                se,
                crate::grid::parse_cells_with(cells, g).expect("a puzzle"),
            ))
        })
        .collect()
}

/// For tests of a search's pruning: every digit, with the open cells holding it, of every
/// board on the way through the calibration puzzles of [`calibration_puzzles`], rated
/// step by step; `visit` gets the puzzle, the board, the digit and its cells.
#[cfg(test)]
pub(crate) fn each_digit_on_the_way(
    min_se: f64,
    count: usize,
    mut visit: impl FnMut(&Grid, &Board, u8, crate::grid::CellSet),
) {
    for p in calibration_puzzles(min_se, count) {
        let mut b = Board::new(&p);
        while let Some(step) = next_step(&b, f64::INFINITY) {
            let holding = techniques::common::holding_each_digit(&b);
            for d in 1..=b.n() as u8 {
                visit(&p, &b, d, holding[d as usize]);
            }
            apply(&mut b, &step);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_line;
    use crate::solver::count_solutions;

    /// Rates and checks every step against the true solution.
    fn checked(line: &str) -> Rating {
        let p = parse_line(line).unwrap();
        let solution = count_solutions(&p, 2).unique().cloned().expect("unique");
        let rating = rate(&p);
        for s in &rating.steps {
            for &(c, d) in &s.placements {
                assert_eq!(solution.get(c), d, "{:?} placed a wrong digit", s.technique);
            }
            for &(c, d) in &s.eliminations {
                assert_ne!(solution.get(c), d, "{:?} removed the solution", s.technique);
            }
        }
        rating
    }

    /// The hardest technique and completion of two ratings of one puzzle agree, and their
    /// scores do, or differ by 0.2 at most where dynamic forcing chains set them.
    fn assert_same_outcome(a: &Rating, b: &Rating, puzzle: &Grid) {
        assert_eq!(
            (a.hardest, a.completed),
            (b.hardest, b.completed),
            "{puzzle}"
        );
        let dynamic = a.hardest == Some(Technique::DynamicForcingChains);
        let apart = (a.score - b.score).abs();
        assert!(
            apart < 1e-9 || (dynamic && apart <= 0.2 + 1e-9),
            "{puzzle}: scores {} and {}",
            a.score,
            b.score
        );
    }

    /// Early forcing chains move the forcing chains to just after [`CHAINS_EARLY_AFTER`]
    /// and the exclusions and the UVWXYZ-wing to the end, and nothing else; every technique is tried once
    /// either way.
    #[test]
    fn early_chains_move_the_chains_and_the_exclusions_only() {
        let registry: Vec<Technique> = Technique::all().collect();
        let plain: Vec<Technique> = tried_in_order(false).map(|e| e.technique).collect();
        assert_eq!(plain, registry);
        let early: Vec<Technique> = tried_in_order(true).map(|e| e.technique).collect();
        let at = early.iter().position(|&t| t == Technique::ForcingChain);
        assert_eq!(at.map(|i| early[i - 1]), Some(CHAINS_EARLY_AFTER));
        assert_eq!(
            early[early.len() - LAST_WHEN_CHAINS_EARLY.len()..],
            LAST_WHEN_CHAINS_EARLY
        );
        let unmoved = |order: &[Technique]| -> Vec<Technique> {
            let moved =
                |t: &Technique| *t == Technique::ForcingChain || LAST_WHEN_CHAINS_EARLY.contains(t);
            order.iter().copied().filter(|t| !moved(t)).collect()
        };
        assert_eq!(unmoved(&early), unmoved(&registry));
        assert_eq!(early.len(), registry.len());
    }

    /// The bank's path gives the hardest technique and completion of the easiest path,
    /// and its score (within 0.2 where dynamic forcing chains set it), on chain-level
    /// calibration puzzles and random diagonal and killer digs, while taking other steps
    /// after the score is set on many of them (tests/it/rater.rs checks the whole
    /// calibration file).
    #[test]
    fn the_scoring_path_scores_as_the_easiest() {
        use crate::generate::{random_digs, Route};
        use crate::grid::{Geometry, Variant};
        let mut puzzles = calibration_puzzles(6.0, 60);
        for (variant, clues) in [(Variant::Diagonal, 22), (Variant::Killer, 0)] {
            let geometry = Geometry::for_size(9).unwrap().with_variant(variant);
            puzzles.extend(random_digs(geometry, Route::Backtrack, clues, 30));
        }
        let mut parted = 0;
        for p in &puzzles {
            let easiest = rate_on(p, Path::Easiest);
            let scoring = rate_on(p, Path::Scoring);
            assert_same_outcome(&scoring, &easiest, p);
            parted += usize::from(scoring.steps != easiest.steps);
        }
        assert!(parted >= 40, "the paths parted on {parted} puzzles only");
    }

    /// A fill's rating (no notes) takes the same steps as a person's: only the notes go.
    #[test]
    fn ratings_without_notes_differ_by_the_notes_only() {
        use crate::generate::{random_digs, Route};
        use crate::grid::{Geometry, Variant};
        let geometry = Geometry::for_size(9).unwrap().with_variant(Variant::Killer);
        let (mut rated, mut noted) = (0, 0);
        for puzzle in random_digs(geometry, Route::Backtrack, 0, 12) {
            let full = rate_within(&puzzle, f64::INFINITY, None).unwrap().unwrap();
            let quiet = score_within(&puzzle, f64::INFINITY, None).unwrap().unwrap();
            let unnoted: Vec<Step> = full
                .steps
                .iter()
                .map(|s| Step {
                    note: None,
                    ..s.clone()
                })
                .collect();
            assert_eq!(unnoted, quiet.steps, "{puzzle}");
            assert_eq!((full.score, full.completed), (quiet.score, quiet.completed));
            noted += full.steps.iter().filter(|s| s.note.is_some()).count();
            rated += 1;
        }
        assert!(rated >= 8 && noted > 50, "{rated} rated, {noted} notes");
    }

    /// Searches that pass over unchanged units and digits (and the rest, which share
    /// nothing or a cache) find what they find on a board that remembers nothing, at every
    /// step of rating chain-level calibration puzzles, and of 25 puzzles of each variant
    /// the reference rated (their rule sets add peers outside the units, extra units and
    /// steps of their own, which read the candidates of other cells).
    #[test]
    fn remembered_searches_change_no_finding() {
        let mut variant_puzzles = Vec::new();
        for variant in crate::grid::Variant::ALL {
            let rules = variant.rules();
            if rules.is_plain() || rules.cages || rules.boxes != crate::grid::Boxes::Fixed {
                continue;
            }
            let mut rated = reference_rated(variant);
            // Every eighth by rating, hardest first: from chains down to singles.
            rated.sort_by(|a, b| b.0.total_cmp(&a.0));
            variant_puzzles.extend(rated.into_iter().step_by(8).map(|(_, p)| p));
        }
        assert!(variant_puzzles.len() >= 200, "{}", variant_puzzles.len());
        let mut steps = 0;
        for p in calibration_puzzles(6.0, 25)
            .into_iter()
            .chain(variant_puzzles)
        {
            let mut board = Board::new(&p);
            while !board.solved() {
                let fresh = board.forgetting_searches();
                // Every finder below the forcing chains (those remember nothing and are
                // slow), the aligned triple exclusion and Nishio.
                for entry in &techniques::REGISTRY {
                    let remembers = entry.base_score < Technique::ForcingChain.base_score()
                        || entry.technique == Technique::AlignedTripleExclusion
                        || entry.technique == Technique::Nishio;
                    if remembers {
                        for below in [f64::INFINITY, 6.6, 4.2] {
                            let found = (entry.finder)(&board, Wanted::below(below))
                                .map(|s| format!("{s:?}"));
                            let expected = (entry.finder)(&fresh, Wanted::below(below))
                                .map(|s| format!("{s:?}"));
                            assert_eq!(found, expected, "{p}: {} below {below}", entry.name);
                        }
                    }
                }
                let Some(step) = next_step(&board, f64::INFINITY) else {
                    break;
                };
                apply(&mut board, &step);
                steps += 1;
            }
        }
        assert!(steps > 1000, "{steps} steps");
    }

    /// The pair searches (aligned exclusions) find on a remembering board what they find
    /// on a fresh one at every step of every anti-knight and anti-king puzzle the
    /// reference rated: the cells a move keeps apart are excluders outside the units, so
    /// the pair memo's stamp counts them (it passed over pairs when it did not).
    #[test]
    fn pair_searches_remember_the_cells_kept_apart() {
        use crate::grid::Variant;
        let pair_searches = [
            Technique::AlignedPairExclusion,
            Technique::AlignedTripleExclusion,
        ];
        let mut steps = 0;
        for variant in [Variant::AntiKnight, Variant::AntiKing] {
            for (_, p) in reference_rated(variant) {
                let mut board = Board::new(&p);
                while let Some(step) = next_step(&board, f64::INFINITY) {
                    let fresh = board.forgetting_searches();
                    for entry in techniques::REGISTRY
                        .iter()
                        .filter(|e| pair_searches.contains(&e.technique))
                    {
                        let below = Wanted::below(f64::INFINITY);
                        let found = (entry.finder)(&board, below).map(|s| format!("{s:?}"));
                        let expected = (entry.finder)(&fresh, below).map(|s| format!("{s:?}"));
                        assert_eq!(found, expected, "{p}: {}", entry.name);
                    }
                    apply(&mut board, &step);
                    steps += 1;
                }
            }
        }
        assert!(steps > 5000, "{steps} steps");
    }

    #[test]
    fn singles_only_puzzle() {
        let r = checked(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        );
        assert!(r.completed);
        assert!(r.score <= 2.3, "{}", r.score);
    }

    /// Sudoku Explainer's ceilings of chain length (nodes less two): 4, 6, 8, 12, 16, 24,
    /// 32, 48, 64, 96, ... Each is the last length of its tenth.
    #[test]
    fn length_bonus_ladder() {
        assert_eq!(techniques::step::length_bonus(6), 0.0);
        let ceilings = [4, 6, 8, 12, 16, 24, 32, 48, 64, 96];
        for (tenths, &ceil) in ceilings.iter().enumerate() {
            let at = |length: usize| techniques::step::length_bonus(length + 2);
            assert!(
                (at(ceil) - 0.1 * tenths as f64).abs() < 1e-9,
                "length {ceil}"
            );
            let past = 0.1 * (tenths + 1) as f64;
            assert!((at(ceil + 1) - past).abs() < 1e-9, "length {}", ceil + 1);
        }
    }

    /// `most_nodes_below` reads the bonus a ceiling at a time: the same as trying every
    /// node count, for the bases the techniques use and bounds a tenth apart.
    #[test]
    fn most_nodes_below_matches_counting_node_by_node() {
        let counted = |below: f64, base: f64, per_node: usize| {
            (0..)
                .find(|&k| {
                    base + techniques::step::length_bonus((k + 1) * per_node) >= below - 1e-9
                })
                .unwrap()
        };
        for base in [4.0, 5.4, 6.5, 6.6, 7.0, 7.5, 8.0, 8.5] {
            // Bonuses up to 2.4: some 16,000 nodes to count (the count doubles with each
            // further 0.2).
            for tenths in 30..=(base * 10.0) as i32 + 25 {
                let below = f64::from(tenths) / 10.0;
                for per_node in [1, 2, 3] {
                    assert_eq!(
                        techniques::step::most_nodes_below(below, base, per_node),
                        counted(below, base, per_node),
                        "base {base}, below {below}, per node {per_node}"
                    );
                }
            }
        }
        assert_eq!(
            techniques::step::most_nodes_below(f64::INFINITY, 6.5, 1),
            usize::MAX
        );
    }

    #[test]
    fn hard_puzzle_is_flagged_with_a_lower_bound() {
        // From hardest_1106: far beyond the implemented techniques.
        let r = checked(
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        );
        assert!(!r.completed);
        assert!(r.score >= BEYOND_SCORE);
        assert!(r.hardest_name().starts_with("beyond"));
    }
}
