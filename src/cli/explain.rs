//! `bank explain`: the step-by-step solution a person can follow.

use super::args::BankArgs;
use super::notation;
use crate::bank;
use crate::grid::{cell_name, parse_line_in, Geometry, Variant};
use crate::picture::html::solving::SolvingPage;
use crate::rate::{apply, rate_on, Board, Path, Step, Technique};
use crate::solver::Solver;
use anyhow::{bail, Context, Result};
use clap::Args;

/// Explain how to solve a puzzle.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// A puzzle id in the bank, or a puzzle in one-line form.
    pub what: String,
    /// Write a self-contained HTML page that steps through the solution (and replays a
    /// backtracking search) to this file instead of printing the steps.
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
    /// The rules of a puzzle given in one-line form (`bank variants` lists them; a bank id's
    /// puzzle follows its stored variant).
    #[arg(long, value_parser = super::args::variant, default_value = "classic")]
    pub variant: Variant,
    #[command(flatten)]
    pub common: BankArgs,
}

/// Prints each step (technique, cells, placements, eliminations) and the grid after every
/// step beyond singles.
pub fn run(args: &ExplainArgs) -> Result<u8> {
    let (puzzle, title) = match args.what.parse::<i64>() {
        Ok(id) if args.what.len() < 16 => {
            let bank = bank::open_existing(&args.common.db)?;
            let p = bank
                .puzzle(id)?
                .with_context(|| format!("no puzzle with id {id} in '{}'", args.common.db))?;
            let grid = p
                .puzzle_grid()
                .with_context(|| format!("puzzle {id} is malformed"))?;
            (
                grid,
                format!("Puzzle {id} ({}, {})", p.tier, p.geometry.short_label()),
            )
        }
        _ => {
            let grid = parse_line_in(&args.what, args.variant)
                .map_err(|e| anyhow::anyhow!("'{}': {e}", args.what))?;
            let label = grid.geometry().short_label();
            (grid, format!("Puzzle ({label})"))
        }
    };
    if Solver::new().count_fast(&puzzle, 2)?.count != 1 {
        bail!("the puzzle does not have exactly one solution: nothing to explain");
    }
    let g = puzzle.geometry();
    let n = g.n();
    let rating = rate_on(&puzzle, Path::Easiest);
    if let Some(path) = &args.html {
        let page = SolvingPage::new(title, &puzzle, &rating, |s| describe(g, s));
        std::fs::write(path, page.render())
            .with_context(|| format!("cannot write '{}'", path.display()))?;
        note!(
            "wrote the solving page ({} steps, {} search tries) to '{}'",
            rating.steps.len(),
            page.search.tries,
            path.display()
        );
        return Ok(super::EXIT_OK);
    }
    println!("{}", puzzle.to_pretty());
    let mut board = Board::new(&puzzle);
    for (i, step) in rating.steps.iter().enumerate() {
        println!("step {}: {}", i + 1, describe(g, step));
        for chain in &step.chains {
            println!("    {}", notation::chain(n, chain).join(" -> "));
        }
        apply(&mut board, step);
        // Show the grid after every step beyond singles: those are the ones to follow closely.
        if step.score > 2.3 {
            print!("{}", board.to_grid().to_pretty());
        }
    }
    println!(
        "score {:.1}, hardest technique: {}{}",
        rating.score,
        rating.hardest_name(),
        if rating.completed {
            ""
        } else {
            " (the implemented techniques ran out: the score is a lower bound)"
        }
    );
    if !rating.completed {
        print!("{}", board.to_grid().to_pretty());
    }
    Ok(super::EXIT_OK)
}

/// A step in words: `x-wing (3.2) on r1c1 r1c5 r4c1 r4c5: remove r2c1<>3` (singles name
/// only what they place).
pub fn describe(g: Geometry, step: &Step) -> String {
    let n = g.n();
    let mut line = format!("{} ({:.1})", step.technique.name_in(g), step.score);
    if let Some(note) = &step.note {
        line.push_str(&format!(": {note}"));
    } else if !matches!(
        step.technique,
        Technique::FullHouse
            | Technique::HiddenSingleBox
            | Technique::HiddenSingleLine
            | Technique::NakedSingle
    ) {
        let cells: Vec<String> = step.cells.iter().map(|&c| cell_name(n, c)).collect();
        line.push_str(&format!(" on {}", cells.join(" ")));
    }
    let list = |pairs: &[(usize, u8)], placed: bool| -> String {
        let items: Vec<String> = pairs
            .iter()
            .map(|&(c, d)| notation::candidate(n, c, d, placed))
            .collect();
        items.join(" ")
    };
    if !step.placements.is_empty() {
        line.push_str(&format!(": place {}", list(&step.placements, true)));
    }
    if !step.eliminations.is_empty() {
        line.push_str(&format!(": remove {}", list(&step.eliminations, false)));
    }
    line
}
