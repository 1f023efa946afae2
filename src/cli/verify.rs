//! `bank verify`: re-check stored puzzles, reporting corruption apart from drift.

use super::args::{BankArgs, ConfigArgs, SelectArgs};
use crate::bank::{self, PuzzleFilter, StoredPuzzle};
use crate::pipeline::verify::{check, Finding};
use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::io::IsTerminal;

/// Re-check puzzles: uniqueness, solution, clue count, fingerprint, rating and tier.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Check a random sample of this many instead of every puzzle.
    #[arg(long)]
    pub sample: Option<u64>,
    #[command(flatten)]
    pub select: SelectArgs,
    #[command(flatten)]
    pub common: BankArgs,
    /// Whose tier rules count as current.
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// Puzzles checked in parallel per batch.
const BATCH: usize = 4096;

/// Prints each finding and a summary; exit 1 when anything is corrupt.
pub fn run(args: &VerifyArgs) -> Result<u8> {
    let settings = args.config.settings()?;
    args.select.check(&settings)?;
    let bank = bank::open_existing(&args.common.db)?;
    let filter = PuzzleFilter {
        limit: args.sample,
        random_order: args.sample.is_some(),
        ..args.select.filter()
    };
    let total = bank.count(&filter)?;
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(total);
        b.set_style(
            ProgressStyle::with_template("verify [{bar:30}] {pos}/{len} {per_sec} eta {eta}")?
                .progress_chars("=> "),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let (mut checked, mut corrupt, mut drifted) = (0u64, 0u64, 0u64);
    let mut batch: Vec<StoredPuzzle> = Vec::with_capacity(BATCH);
    let mut flush = |batch: &mut Vec<StoredPuzzle>| {
        let results: Vec<(i64, Vec<Finding>)> = batch
            .par_iter()
            .map(|p| (p.id, check(p, &settings)))
            .collect();
        for (id, findings) in results {
            checked += 1;
            let (mut c, mut d) = (false, false);
            for f in findings {
                match f {
                    Finding::Corrupt(m) => {
                        c = true;
                        bar.suspend(|| println!("puzzle {id}: corrupt: {m}"));
                    }
                    Finding::Drift(m) => {
                        d = true;
                        bar.suspend(|| println!("puzzle {id}: drift: {m}"));
                    }
                }
            }
            corrupt += u64::from(c);
            drifted += u64::from(d);
        }
        bar.inc(batch.len() as u64);
        batch.clear();
    };
    bank.scan(&filter, &mut |p| {
        batch.push(p);
        if batch.len() == BATCH {
            flush(&mut batch);
        }
        Ok(())
    })?;
    flush(&mut batch);
    bar.finish_and_clear();
    println!("verified {checked} puzzles: {corrupt} corrupt, {drifted} drifted");
    Ok(if corrupt > 0 {
        super::EXIT_NEGATIVE
    } else {
        super::EXIT_OK
    })
}
