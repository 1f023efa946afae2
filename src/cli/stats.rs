//! `bank stats`: what the bank holds and how the last runs went.

use super::args::BankArgs;
use crate::bank::Bank;
use anyhow::Result;
use clap::Args;
use serde::Serialize;

/// Show counts per tier and size, clue histograms, recent runs and alarms.
#[derive(Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    pub common: BankArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Runs to list.
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
}

#[derive(Serialize)]
struct Stats {
    total: u64,
    by_tier: Vec<TierCount>,
    clue_histogram: Vec<ClueCount>,
    runs: Vec<RunRow>,
    alarms: Vec<AlarmOut>,
}

#[derive(Serialize)]
struct TierCount {
    size: u32,
    tier: String,
    puzzles: u64,
    unserved: u64,
}

#[derive(Serialize)]
struct ClueCount {
    size: u32,
    tier: String,
    clues: u32,
    puzzles: u64,
}

#[derive(Serialize)]
struct RunRow {
    id: i64,
    started_at: String,
    status: String,
    seed: String,
    attempts: u64,
    accepted: u64,
    duplicates: u64,
    rejected: u64,
    timeouts: u64,
    retries: u64,
    alarms: u64,
    message: Option<String>,
}

#[derive(Serialize)]
struct AlarmOut {
    run_id: i64,
    at: String,
    size: u32,
    tier: String,
    timeouts_in_window: u32,
    window_size: u32,
    old_target: u32,
    new_target: Option<u32>,
}

fn collect(bank: &Bank, runs: usize) -> Result<Stats> {
    let c = bank.conn();
    let total = c.query_row("SELECT count(*) FROM puzzles", [], |r| r.get(0))?;
    let by_tier = c
        .prepare("SELECT size, tier, count(*), count(*) - count(served_at) FROM puzzles GROUP BY size, tier ORDER BY size, min(id)")?
        .query_map([], |r| Ok(TierCount { size: r.get(0)?, tier: r.get(1)?, puzzles: r.get(2)?, unserved: r.get(3)? }))?
        .collect::<rusqlite::Result<_>>()?;
    let clue_histogram = c
        .prepare("SELECT size, tier, clues, count(*) FROM puzzles GROUP BY size, tier, clues ORDER BY size, tier, clues")?
        .query_map([], |r| Ok(ClueCount { size: r.get(0)?, tier: r.get(1)?, clues: r.get(2)?, puzzles: r.get(3)? }))?
        .collect::<rusqlite::Result<_>>()?;
    let runs = c
        .prepare("SELECT id, started_at, status, run_seed, attempts, accepted, duplicates, rejected, timeouts, retries, alarms, message FROM runs ORDER BY id DESC LIMIT ?1")?
        .query_map([runs as i64], |r| {
            Ok(RunRow {
                id: r.get(0)?, started_at: r.get(1)?, status: r.get(2)?, seed: r.get(3)?, attempts: r.get(4)?,
                accepted: r.get(5)?, duplicates: r.get(6)?, rejected: r.get(7)?, timeouts: r.get(8)?,
                retries: r.get(9)?, alarms: r.get(10)?, message: r.get(11)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    let alarms = c
        .prepare("SELECT run_id, at, size, tier, timeouts_in_window, window_size, old_target, new_target FROM alarms ORDER BY id DESC LIMIT 20")?
        .query_map([], |r| {
            Ok(AlarmOut {
                run_id: r.get(0)?, at: r.get(1)?, size: r.get(2)?, tier: r.get(3)?, timeouts_in_window: r.get(4)?,
                window_size: r.get(5)?, old_target: r.get(6)?, new_target: r.get(7)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Stats {
        total,
        by_tier,
        clue_histogram,
        runs,
        alarms,
    })
}

/// Prints the statistics.
pub fn run(args: &StatsArgs) -> Result<u8> {
    let bank = Bank::open_existing(&args.common.db)?;
    let s = collect(&bank, args.runs)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
        return Ok(super::EXIT_OK);
    }
    println!("{} puzzles in {}", s.total, args.common.db.display());
    println!("\nsize  tier        puzzles  unserved");
    for t in &s.by_tier {
        println!(
            "{:>4}  {:<10} {:>8} {:>9}",
            t.size, t.tier, t.puzzles, t.unserved
        );
    }
    println!("\nclue histogram (size tier: clues=count ...)");
    let mut last: Option<(u32, &str)> = None;
    for h in &s.clue_histogram {
        if last != Some((h.size, h.tier.as_str())) {
            print!(
                "{}{:>4} {:<10}",
                if last.is_some() { "\n" } else { "" },
                h.size,
                h.tier
            );
            last = Some((h.size, h.tier.as_str()));
        }
        print!(" {}={}", h.clues, h.puzzles);
    }
    println!("\n\nlast runs");
    for r in &s.runs {
        println!(
            "run {:>4} {} {:<11} accepted {} attempts {} duplicates {} rejected {} timeouts {} retries {} alarms {} seed {}{}",
            r.id, r.started_at, r.status, r.accepted, r.attempts, r.duplicates, r.rejected, r.timeouts,
            r.retries, r.alarms, r.seed,
            r.message.as_deref().map(|m| format!("\n         {m}")).unwrap_or_default()
        );
    }
    if !s.alarms.is_empty() {
        println!("\nalarms (newest first)");
        for a in &s.alarms {
            let new = a
                .new_target
                .map_or("unchanged (at the top of the range)".into(), |t| {
                    t.to_string()
                });
            println!(
                "run {} {} size {} tier {}: {}/{} timed out, target {} -> {}",
                a.run_id,
                a.at,
                a.size,
                a.tier,
                a.timeouts_in_window,
                a.window_size,
                a.old_target,
                new
            );
        }
    }
    Ok(super::EXIT_OK)
}
