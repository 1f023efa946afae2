//! `bank canon`: canonical form and fingerprint of each puzzle.

use super::input;
use crate::canon::{canonical, fingerprint_of_canonical};
use anyhow::Result;
use clap::Args;
use std::io::Write;

/// Print canonical forms and fingerprints.
#[derive(Args, Debug)]
pub struct CanonArgs {
    /// File with one puzzle a line (`-` or nothing: standard input).
    pub file: Option<String>,
}

/// Prints `<canonical form>\t<fingerprint>` per puzzle; returns the number of bad lines.
pub fn run(args: &CanonArgs) -> Result<usize> {
    let (name, reader) = input::open(args.file.as_deref())?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut bad = 0;
    for line in input::puzzles(reader) {
        let line = line?;
        match line.puzzle {
            Ok(p) => {
                let c = canonical(&p);
                writeln!(out, "{}\t{}", c.to_line(), fingerprint_of_canonical(&c))?;
            }
            Err(e) => {
                eprintln!("{name}: line {}: {e}", line.number);
                bad += 1;
            }
        }
    }
    out.flush()?;
    Ok(bad)
}
