//! `bank explain`: the step-by-step solution a person can follow.

use super::args::BankArgs;
use super::notation;
use crate::bank;
use crate::grid::{parse_line, Grid};
use crate::rate::{apply, rate, Board, Technique};
use crate::solver::count_solutions;
use anyhow::{bail, Context, Result};
use clap::Args;

/// Explain how to solve a puzzle.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// A puzzle id in the bank, or a puzzle in one-line form.
    pub what: String,
    #[command(flatten)]
    pub common: BankArgs,
}

/// Prints each step (technique, cells, placements, eliminations) and the grid after every
/// step beyond singles.
pub fn run(args: &ExplainArgs) -> Result<u8> {
    let puzzle: Grid = match args.what.parse::<i64>() {
        Ok(id) if args.what.len() < 16 => {
            let bank = bank::open_existing(&args.common.db)?;
            let p = bank
                .puzzle(id)?
                .with_context(|| format!("no puzzle with id {id} in '{}'", args.common.db))?;
            parse_line(&p.puzzle).with_context(|| format!("puzzle {id} is malformed"))?
        }
        _ => parse_line(&args.what).map_err(|e| anyhow::anyhow!("'{}': {e}", args.what))?,
    };
    if count_solutions(&puzzle, 2).count != 1 {
        bail!("the puzzle does not have exactly one solution: nothing to explain");
    }
    let n = puzzle.geometry().n();
    let rating = rate(&puzzle);
    println!("{}", puzzle.to_pretty());
    let mut board = Board::new(&puzzle);
    for (i, step) in rating.steps.iter().enumerate() {
        let cells: Vec<String> = step.cells.iter().map(|&c| notation::cell(n, c)).collect();
        let mut line = format!(
            "step {}: {} ({:.1})",
            i + 1,
            step.technique.name(),
            step.score
        );
        if !matches!(
            step.technique,
            Technique::FullHouse
                | Technique::HiddenSingleBox
                | Technique::HiddenSingleLine
                | Technique::NakedSingle
        ) {
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
        println!("{line}");
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
