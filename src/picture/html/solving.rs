//! The step-through solving page of `bank explain --html`: the human-style steps with
//! their candidates, and a backtracking search replayed digit by digit.

use crate::grid::Grid;
use crate::picture::cage_outline::{self, CageOutline};
use crate::rate::{apply, Board, Rating, Step};
use crate::solver::trace::{self, Event};
use serde::Serialize;

/// Most search events a page carries (a hard 16×16 search can run to millions; the page
/// says when it shows only the start).
pub const MAX_SEARCH_EVENTS: usize = 60_000;

/// What the page shows, as the script reads it.
#[derive(Serialize)]
pub struct SolvingPage {
    /// Heading: which puzzle.
    pub title: String,
    /// Second line: score, hardest technique, clues.
    pub summary: String,
    /// Grid side and box shape (the candidates' arrangement in a cell).
    pub n: usize,
    pub box_rows: usize,
    pub box_cols: usize,
    /// Per cell, its box (a jigsaw's region): a thick line parts cells of two boxes.
    pub boxes: Vec<usize>,
    /// Cell names (`r1c1`), to show and to test against.
    pub names: Vec<String>,
    /// Symbols of the digits 1..=n.
    pub symbols: Vec<String>,
    /// The givens (0: empty).
    pub givens: Vec<u8>,
    /// The cells the rule set's mark shades (the diagonals' cells, …), ascending.
    pub shaded: Vec<usize>,
    /// A killer puzzle's cages, drawn over both boards.
    pub cages: Option<PageCages>,
    /// The board before each step and after the last: per cell, the placed digit, or
    /// minus the candidate mask (bit `d - 1`) while open.
    pub states: Vec<Vec<i32>>,
    pub steps: Vec<PageStep>,
    /// Whether the steps reach the solution.
    pub completed: bool,
    pub search: PageSearch,
}

/// Cages as the script draws them: the outline in cell units, each sum's baseline at
/// `label_at` from its cell's corner, `sum_size` cells high (the print sheet's layout).
#[derive(Serialize)]
pub struct PageCages {
    #[serde(flatten)]
    pub outline: CageOutline,
    pub label_at: (f32, f32),
    pub sum_size: f32,
}

/// One human step.
#[derive(Serialize)]
pub struct PageStep {
    /// The step in words, as `bank explain` prints it.
    pub text: String,
    pub technique: &'static str,
    pub score: f64,
    /// Cells of the pattern.
    pub cells: Vec<usize>,
    /// Digits placed and candidates removed: (cell, digit).
    pub place: Vec<(usize, u8)>,
    pub remove: Vec<(usize, u8)>,
    /// Chains, link by link: (cell, digit, on).
    pub chains: Vec<Vec<(usize, u8, bool)>>,
}

/// The replayed search: events as `[kind, cell, digit]`, kind 0 try, 1 dead end, 2 undo.
#[derive(Serialize)]
pub struct PageSearch {
    pub events: Vec<[u16; 3]>,
    pub tries: u64,
    pub backtracks: u64,
    pub solved: bool,
    pub truncated: bool,
}

impl SolvingPage {
    /// The page of `puzzle` solved as `rating` says; `describe` words each step.
    pub fn new(
        title: String,
        puzzle: &Grid,
        rating: &Rating,
        describe: impl Fn(&Step) -> String,
    ) -> SolvingPage {
        let g = puzzle.geometry();
        let n = g.n();
        let mut board = Board::new(puzzle);
        let mut states = Vec::with_capacity(rating.steps.len() + 1);
        for step in &rating.steps {
            states.push(snapshot(&board));
            apply(&mut board, step);
        }
        states.push(snapshot(&board));
        let steps = rating
            .steps
            .iter()
            .map(|s| PageStep {
                text: describe(s),
                technique: rating.name_of(s.technique),
                score: (s.score * 10.0).round() / 10.0,
                cells: s.cells.clone(),
                place: s.placements.clone(),
                remove: s.eliminations.clone(),
                chains: s
                    .chains
                    .iter()
                    .map(|c| c.iter().map(|l| (l.cell, l.digit, l.on)).collect())
                    .collect(),
            })
            .collect();
        let searched = trace::trace(puzzle, MAX_SEARCH_EVENTS);
        SolvingPage {
            // The rules line first: a variant marked by no shading (anti-knight, …) is
            // told by it alone.
            summary: format!(
                "{} Score {:.1}, hardest technique: {}, {} clues, {} steps",
                g.rules_line(),
                rating.score,
                rating.hardest_name(),
                puzzle.clue_count(),
                rating.steps.len()
            ),
            title,
            n,
            box_rows: g.box_rows(),
            box_cols: g.box_cols(),
            boxes: (0..g.cells())
                .map(|c| puzzle.layout().box_containing(c))
                .collect(),
            names: (0..g.cells())
                .map(|c| crate::grid::cell_name(n, c))
                .collect(),
            symbols: (1..=n as u8)
                .map(|d| crate::grid::digit_char(d).to_string())
                .collect(),
            givens: puzzle.cells().to_vec(),
            shaded: g.shaded_cells(),
            cages: puzzle.cages().map(|c| PageCages {
                outline: CageOutline::new(c),
                label_at: cage_outline::LABEL_AT,
                sum_size: cage_outline::SUM_SIZE,
            }),
            states,
            steps,
            completed: rating.completed,
            search: PageSearch {
                events: searched
                    .events
                    .iter()
                    .map(|e| match *e {
                        Event::Try { cell, digit } => [0, cell, u16::from(digit)],
                        Event::DeadEnd { cell } => [1, cell, 0],
                        Event::Undo { cell } => [2, cell, 0],
                    })
                    .collect(),
                tries: searched.tries,
                backtracks: searched.backtracks,
                solved: searched.solved,
                truncated: searched.truncated,
            },
        }
    }

    /// The whole HTML file.
    pub fn render(&self) -> String {
        super::page(
            &self.title,
            include_str!("solving.css"),
            include_str!("solving.html"),
            self,
            include_str!("solving.js"),
        )
    }
}

fn snapshot(board: &Board) -> Vec<i32> {
    (0..board.cells())
        .map(|c| match board.value(c) {
            0 => -i32::from(board.cand(c)),
            v => i32::from(v),
        })
        .collect()
}
