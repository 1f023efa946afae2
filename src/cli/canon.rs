//! `bank canon`: canonical form and fingerprint of each puzzle.

use super::input;
use crate::canon::{canonical, fingerprint_of_canonical};
use anyhow::Result;
use clap::Args;

/// Print canonical forms and fingerprints.
#[derive(Args, Debug)]
pub struct CanonArgs {
    #[command(flatten)]
    pub input: input::PuzzleInput,
}

/// Prints `<canonical form>\t<fingerprint>` per puzzle; returns the number of bad lines.
pub fn run(args: &CanonArgs) -> Result<usize> {
    input::for_each_puzzle(&args.input, |p, out| {
        let c = canonical(p);
        writeln!(out, "{}\t{}", c.to_line(), fingerprint_of_canonical(&c))?;
        Ok(())
    })
}
