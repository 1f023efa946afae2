//! `bank solve`: one line of answer per puzzle.

use super::input;
use crate::solver::count_solutions;
use anyhow::Result;
use clap::Args;

/// Solve puzzles, one per line.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: input::PuzzleInput,
    /// Print the exact number of solutions (up to --limit) instead of the solution.
    #[arg(long)]
    pub count: bool,
    /// Highest count to reach with --count.
    #[arg(long, default_value_t = 1_000_000, requires = "count")]
    pub limit: u64,
    /// Add search statistics: nodes, guesses, backtracks.
    #[arg(long)]
    pub stats: bool,
}

/// Prints, per puzzle, its solution, `none` or `multiple` (or the count with `--count`).
/// Returns the number of malformed lines, each reported on stderr.
pub fn run(args: &SolveArgs) -> Result<usize> {
    let limit = if args.count { args.limit } else { 2 };
    input::for_each_puzzle(&args.input, |puzzle, out| {
        let result = count_solutions(puzzle, limit);
        let answer = if args.count {
            result.count.to_string()
        } else {
            match (result.count, &result.first) {
                (1, Some(s)) => s.to_line(),
                (0, _) => "none".into(),
                _ => "multiple".into(),
            }
        };
        if args.stats {
            let s = result.stats;
            writeln!(
                out,
                "{answer}\tnodes={} guesses={} backtracks={}",
                s.nodes, s.guesses, s.backtracks
            )?;
        } else {
            writeln!(out, "{answer}")?;
        }
        if args.count {
            // An exact count can take long: each one goes out as soon as it is known.
            out.flush()?;
        }
        Ok(())
    })
}
