//! `bank import`: external puzzles, validated, solved, rated, deduplicated, stored.

use super::args::{BankArgs, ConfigArgs};
use super::input;
use crate::bank::{
    self, Bank, Batch, PuzzleRecord, RatingRecord, RunCounts, RunEnd, RunStatus, Source,
};
use crate::canon::fingerprint;
use crate::config::Settings;
use crate::generate::GENERATOR_VERSION;
use crate::grid::Grid;
use crate::solver::Solver;
use anyhow::Result;
use clap::Args;
use std::time::Instant;

/// Import puzzles from a file (one a line; `.` or `0` empty; trailing fields ignored).
#[derive(Args, Debug)]
pub struct ImportArgs {
    /// The file (`-` for standard input).
    pub file: String,
    #[command(flatten)]
    pub common: BankArgs,
    /// Whose tiers place the puzzles.
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// Lines stored per transaction.
const BATCH: usize = 500;

/// Longest time one line may take to solve and rate.
const LINE_BUDGET: std::time::Duration = std::time::Duration::from_secs(10);

/// Imports; exit 0 when every line was usable, 1 when some were skipped.
pub fn run(args: &ImportArgs) -> Result<u8> {
    let settings = args.config.settings()?;
    let (name, reader) = input::open(Some(&args.file))?;
    let mut bank = bank::open(&args.common.db)?;
    let config_json =
        serde_json::to_string(&serde_json::json!({ "import": name, "config": settings.file() }))?;
    let run_id = bank.start_run(0, &config_json, GENERATOR_VERSION)?;
    let mut counts = RunCounts::default();
    let mut bad = 0u64;
    let mut batch = Vec::with_capacity(BATCH);
    let read = (|| -> Result<()> {
        for line in input::puzzles(reader, None) {
            let line = line?;
            counts.attempts += 1;
            match line.puzzle.and_then(|p| rate(&p, &settings)) {
                Ok(p) => batch.push(p),
                Err(e) => {
                    note!("{name}: line {}: {e}", line.number);
                    bad += 1;
                    counts.rejected += 1;
                }
            }
            if batch.len() == BATCH {
                store(&mut bank, run_id, &mut batch, &mut counts)?;
            }
        }
        store(&mut bank, run_id, &mut batch, &mut counts)
    })();
    // A read or write error still closes the run, with what was stored before it.
    let (status, message) = match &read {
        Ok(()) => (RunStatus::Completed, None),
        Err(e) => (RunStatus::Failed, Some(format!("{e:#}"))),
    };
    let end = RunEnd {
        status,
        counts,
        message,
    };
    let closed = bank.finish_run(run_id, &end);
    read?;
    closed?;
    note!(
        "imported {} puzzles from {name} (run {run_id}): {} already in the bank, {bad} lines skipped",
        counts.accepted, counts.duplicates
    );
    Ok(if bad > 0 {
        super::EXIT_NEGATIVE
    } else {
        super::EXIT_OK
    })
}

fn store(
    bank: &mut Bank,
    run_id: i64,
    batch: &mut Vec<PuzzleRecord>,
    counts: &mut RunCounts,
) -> Result<()> {
    let stored = Batch {
        puzzles: std::mem::take(batch),
        alarms: Vec::new(),
        counts: Some(*counts),
    };
    let inserted = bank
        .insert_batch(run_id, &stored)?
        .iter()
        .filter(|&&n| n)
        .count() as u64;
    counts.accepted += inserted;
    counts.duplicates += stored.puzzles.len() as u64 - inserted;
    Ok(())
}

/// Solves, rates and fingerprints one external puzzle.
fn rate(p: &Grid, settings: &Settings) -> Result<PuzzleRecord, String> {
    let started = Instant::now();
    // A line can be a puzzle no solver proves quickly (a sparse 16x16 without a solution):
    // it is skipped with a message rather than stopping the import.
    let deadline = Some(started + LINE_BUDGET);
    let too_slow = |_| {
        format!(
            "not solved and rated within {} s: skipped",
            LINE_BUDGET.as_secs()
        )
    };
    let counted = Solver::with_deadline(deadline)
        .count(p, 2)
        .map_err(too_slow)?;
    let solution = match (counted.count, counted.first) {
        (1, Some(s)) => s,
        (0, _) => return Err("puzzle has no solution".into()),
        _ => return Err("puzzle has more than one solution".into()),
    };
    let effort = counted.stats;
    let rating = crate::rate::rate_until(p, deadline).map_err(too_slow)?;
    let tier = settings
        .tier_for_score(rating.score)
        .ok_or_else(|| format!("no tier's band holds its score {:.1}", rating.score))?;
    Ok(PuzzleRecord {
        source: Source::Import,
        base: None,
        geometry: p.geometry(),
        puzzle: p.to_line(),
        solution: solution.to_line(),
        clues: p.clue_count(),
        tier: tier.name.clone(),
        rating: Some(RatingRecord::from_rating(&rating)),
        backtracks: effort.backtracks,
        guesses: effort.guesses,
        seed: None,
        dig_strategy: None,
        target_clues: None,
        generator_version: GENERATOR_VERSION,
        fingerprint: fingerprint(p),
        generation_us: started.elapsed().as_micros() as u64,
        served_at: None,
        served_to: None,
        origin: None,
    })
}
