//! `bank fill`: the main job.

use crate::bank::RunCounts;
use crate::bank::{Bank, RunStatus};
use crate::config::Config;
use crate::grid::Geometry;
use crate::pipeline::{fill, FillReport, FillRequest, Progress, WallClock};
use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Fill the bank with new puzzles.
#[derive(Args, Debug)]
pub struct FillArgs {
    /// Puzzles to add (split evenly over the tiers without --tier).
    #[arg(long)]
    pub count: u64,
    /// Fill only this tier.
    #[arg(long)]
    pub tier: Option<String>,
    /// Grid side: 4, 6, 9, 12 or 16 (default from config).
    #[arg(long)]
    pub size: Option<usize>,
    /// Run seed (default: from the clock; printed and stored with the run).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (default from config; 0 there means one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Per-attempt deadline in ms (default from config).
    #[arg(long)]
    pub deadline_ms: Option<u64>,
    #[command(flatten)]
    pub common: super::BankArgs,
    /// Config file (default: the config/bank.toml embedded in the binary).
    #[arg(long)]
    pub config: Option<PathBuf>,
}

/// Runs the fill and prints a summary; the exit status tells how it ended.
pub fn run(args: &FillArgs, stop: Arc<AtomicBool>) -> Result<u8> {
    let config = match &args.config {
        Some(path) => Config::load(path)?,
        None => Config::default_config(),
    };
    let size = args.size.unwrap_or(config.generation.default_size);
    let geometry = Geometry::for_size(size)
        .with_context(|| format!("unsupported --size {size}: use 4, 6, 9, 12 or 16"))?;
    let tiers = match &args.tier {
        Some(name) => vec![config.tier(name)?.clone()],
        None => config.tiers.clone(),
    };
    let run_seed = args.seed.unwrap_or_else(clock_seed);
    let threads = args.threads.unwrap_or(config.generation.threads);
    let pool = super::thread_pool((threads > 0).then_some(threads))?;
    let deadline = Duration::from_millis(args.deadline_ms.unwrap_or(config.generation.deadline_ms));
    let bank = Bank::open(&args.common.db)?;
    let request = FillRequest {
        count: args.count,
        tiers,
        geometry,
        run_seed,
    };
    let bars = Bars::new(&request);
    let report =
        pool.install(|| fill(bank, &request, &config, &WallClock(deadline), &bars, &stop))?;
    bars.finish();
    print_summary(&report, run_seed, &args.common.db);
    Ok(match report.status {
        RunStatus::Completed => super::EXIT_OK,
        RunStatus::Interrupted => super::EXIT_NEGATIVE,
        _ => super::EXIT_ERROR,
    })
}

fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    crate::rng::derive_seed(&[nanos, u64::from(std::process::id())])
}

fn print_summary(r: &FillReport, seed: u64, db: &std::path::Path) {
    let c = &r.counts;
    let secs = r.elapsed.as_secs_f64();
    let tiers: Vec<String> = r.per_tier.iter().map(|(t, n)| format!("{t}={n}")).collect();
    eprintln!(
        "run {} {}: {} stored ({}) in {:.1}s, {:.0}/s; attempts {}, duplicates {}, rejected {}, \
         timeouts {}, retries {}, alarms {}; seed {seed}; bank {}",
        r.run_id,
        r.status.name(),
        c.accepted,
        tiers.join(" "),
        secs,
        c.accepted as f64 / secs.max(1e-9),
        c.attempts,
        c.duplicates,
        c.rejected,
        c.timeouts,
        c.retries,
        c.alarms,
        db.display()
    );
    if let Some(m) = &r.message {
        eprintln!("run {} {}: {m}", r.run_id, r.status.name());
    }
}

/// One progress bar per tier when stderr is a terminal; nothing otherwise.
struct Bars {
    bars: Vec<(String, ProgressBar)>,
}

impl Bars {
    fn new(request: &FillRequest) -> Bars {
        if !std::io::stderr().is_terminal() {
            return Bars { bars: Vec::new() };
        }
        let multi = indicatif::MultiProgress::new();
        let style =
            ProgressStyle::with_template("{prefix:>8} [{bar:30}] {pos}/{len} {per_sec} {msg}")
                .expect("valid template")
                .progress_chars("=> ");
        let n = request.tiers.len() as u64;
        let bars = request
            .tiers
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let len = request.count / n + u64::from((i as u64) < request.count % n);
                let bar = multi.add(ProgressBar::new(len));
                bar.set_style(style.clone());
                bar.set_prefix(t.name.clone());
                (t.name.clone(), bar)
            })
            .collect();
        Bars { bars }
    }

    fn finish(&self) {
        for (_, bar) in &self.bars {
            bar.abandon();
        }
    }
}

impl Progress for Bars {
    fn update(&self, tier: &str, accepted: u64, _wanted: u64, c: &RunCounts) {
        if let Some((_, bar)) = self.bars.iter().find(|(t, _)| t == tier) {
            bar.set_position(accepted);
            bar.set_message(format!(
                "dup {} timeouts {} rejected {} alarms {}",
                c.duplicates, c.timeouts, c.rejected, c.alarms
            ));
        }
    }
}
