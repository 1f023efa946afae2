//! `bank canon`: canonical form and fingerprint of each puzzle, or (`--full`) the
//! full-group form of its solution grid and the solution class.

use super::input;
use crate::canon::{
    canonical, fingerprint_of_canonical, full_fingerprint_of_form, minlex_puzzle, minlex_solution,
    solution_class_of_form,
};
use crate::solver::count_solutions;
use anyhow::Result;
use clap::Args;

/// Print canonical forms and fingerprints.
#[derive(Args, Debug)]
pub struct CanonArgs {
    #[command(flatten)]
    pub input: input::PuzzleInput,
    /// The full-group minlex form of the solution grid (a solved grid as it is, a puzzle
    /// solved first) and its hash, the bank's `solution_class`; `none`/`multiple` for a
    /// puzzle without exactly one solution.
    #[arg(long, conflicts_with = "full_puzzle")]
    pub full: bool,
    /// The full-group minlex form of the puzzle itself (clues and empty cells, relabelled
    /// in order of first appearance) and its hash, the bank's `full_fingerprint`: two
    /// puzzles print the same line exactly when one is the other in disguise. Sizes up
    /// to 12.
    #[arg(long)]
    pub full_puzzle: bool,
}

/// Prints `<canonical form>\t<fingerprint>` per puzzle (`--full`: `<form>\t<class>`);
/// returns the number of bad lines.
pub fn run(args: &CanonArgs) -> Result<usize> {
    input::for_each_puzzle(&args.input, |p, out| {
        if args.full_puzzle {
            let Some(form) = minlex_puzzle(p) else {
                anyhow::bail!(
                    "--full-puzzle supports classic and diagonal sizes up to 12x12 (killer \
                     puzzles have the dihedral form only: drop --full-puzzle)"
                );
            };
            writeln!(
                out,
                "{}\t{}",
                form.to_line(),
                full_fingerprint_of_form(&form)
            )?;
            return Ok(());
        }
        if !args.full {
            let c = canonical(p);
            writeln!(out, "{c}\t{}", fingerprint_of_canonical(&c))?;
            return Ok(());
        }
        let solution = if p.is_full() {
            p.clone()
        } else {
            let counted = count_solutions(p, 2);
            match (counted.count, counted.first) {
                (1, Some(s)) => s,
                (0, _) => return Ok(writeln!(out, "none")?),
                _ => return Ok(writeln!(out, "multiple")?),
            }
        };
        match minlex_solution(&solution) {
            Some(form) => writeln!(out, "{}\t{}", form.to_line(), solution_class_of_form(&form))?,
            None => writeln!(out, "none")?,
        }
        Ok(())
    })
}
