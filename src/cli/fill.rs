//! `bank fill`: the main job.

use super::args::{self, BankArgs, ConfigArgs, SelectArgs};
use super::pace::Pace;
use crate::bank::{self, Bank, RunStatus};
use crate::config::Settings;
use crate::grid::{Geometry, Variant};
use crate::pipeline::{fill, FillReport, FillRequest, Progress, TierStatus, WallClock};
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
    #[arg(long, required_unless_present = "quota", conflicts_with = "quota")]
    pub count: Option<u64>,
    /// Add exactly what the config's [quota] tables say is missing (per size and tier).
    #[arg(long)]
    pub quota: bool,
    #[command(flatten)]
    pub opts: FillOptions,
}

/// Options shared by `fill` and `nightly`.
#[derive(Args, Debug, Clone)]
#[command(mut_arg("variant", |a| a.help(
    "The variant to make (`bank variants` lists them; default: classic; with --quota or \
     nightly, every variant the quotas name, and this narrows them)"
)))]
pub struct FillOptions {
    /// Stop cleanly after this long (e.g. 90s, 30m, 2h), keeping what was made.
    #[arg(long, value_parser = args::duration)]
    pub max_duration: Option<Duration>,
    /// Write a machine-readable run summary (JSON) to this path.
    #[arg(long)]
    pub summary_json: Option<PathBuf>,
    #[command(flatten)]
    pub select: SelectArgs,
    /// Run seed (default: from the clock; printed and stored with the run).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (default from config; 0 there means one per core).
    #[arg(long, value_parser = args::threads)]
    pub threads: Option<usize>,
    /// Per-attempt deadline in ms (default from config).
    #[arg(long = "deadline-ms", value_parser = args::deadline_ms)]
    pub deadline: Option<Duration>,
    #[command(flatten)]
    pub common: BankArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// Runs the fill and prints a summary; the exit status tells how it ended:
/// 0 done, 1 stopped early / quota not met / alarms raised, 2 error.
pub fn run(args: &FillArgs, stop: Arc<AtomicBool>) -> Result<u8> {
    let settings = args.opts.config.settings()?;
    let run_seed = args.opts.seed.unwrap_or_else(clock_seed);
    let pool = super::thread_pool(args.opts.threads.or(settings.generation.threads))?;
    let deadline = args.opts.deadline.unwrap_or(settings.generation.deadline);
    let mut request = plan(args, &settings, run_seed)?;
    request.max_duration = args.opts.max_duration;
    let bank = bank::open(&args.opts.common.db)?;
    let mut refills = Vec::new();
    if args.quota {
        (request, refills) = deficit(request, &bank)?;
        if request.total() == 0 {
            // A worker killed after its last puzzles but before closing its run would
            // otherwise stay `running` for as long as the quota holds.
            bank.close_stale_runs()?;
            print_refills(&refills, None);
            note!("quota met: nothing to add to {}", args.opts.common.db);
            return Ok(super::EXIT_OK);
        }
    }
    let (slow, judged) = super::pace::forecast(&request, &bank, pool.current_num_threads())?;
    for note in slow {
        note!("{note}");
    }
    let progress = FillProgress {
        bars: Bars::new(&request),
        pace: Pace::new(pool.current_num_threads(), judged),
    };
    let report = fill(
        &pool,
        bank,
        &request,
        &settings,
        &WallClock(deadline),
        &progress,
        &stop,
    )?;
    progress.bars.finish();
    print_refills(&refills, Some(&report));
    let summary = summary(&report, &refills, run_seed);
    print_summary(&report, run_seed, &args.opts.common.db, &summary);
    if let Some(path) = &args.opts.summary_json {
        write_summary(path, &summary)?;
    }
    if report.storage_failed {
        return Ok(super::EXIT_ERROR);
    }
    let short = report.items.iter().any(|i| i.short());
    Ok(match report.status {
        RunStatus::Completed if !short && report.counts.alarms == 0 => super::EXIT_OK,
        _ => super::EXIT_NEGATIVE,
    })
}

/// The request before quota deficits: `--count` split over the tiers, or the full quota.
fn plan(args: &FillArgs, settings: &Settings, run_seed: u64) -> Result<FillRequest> {
    let select = &args.opts.select;
    select.check(settings)?;
    if args.quota {
        if settings.quotas().is_empty() {
            anyhow::bail!("--quota: the config has no [quota.SIZE] tables");
        }
        if let Some(g) = select.size {
            if !settings.quotas().iter().any(|q| select.selects(q.geometry)) {
                let mut sizes: Vec<String> = settings
                    .quotas()
                    .iter()
                    .map(|q| q.geometry.n().to_string())
                    .collect();
                sizes.dedup();
                anyhow::bail!(
                    "--size {}: the config has no quota for {}; its quotas cover sizes {}",
                    g.n(),
                    g.label(),
                    sizes.join(", ")
                );
            }
        }
        return FillRequest::quotas(settings, run_seed, |g, t| {
            select.selects(g) && select.tier.as_ref().is_none_or(|name| *name == t.name)
        });
    }
    let geometry = select.geometry_or(settings.generation.default_geometry);
    let tiers = match &select.tier {
        Some(name) => vec![settings.tier(name, geometry)?.clone()],
        None => settings.tiers(geometry).to_vec(),
    };
    FillRequest::split(
        settings,
        args.count.unwrap_or(0),
        &tiers,
        geometry,
        run_seed,
    )
}

/// One quota against the bank's stock, before the run.
#[derive(Clone, Debug, serde::Serialize)]
struct Refill {
    size: usize,
    variant: Variant,
    tier: String,
    /// The quota: unserved puzzles the bank should hold.
    wanted: u64,
    /// Unserved puzzles before the run.
    unserved_before: u64,
    /// Puzzles handed out since the previous run started.
    served_since_last_run: u64,
    /// What the run is asked to add: `wanted - unserved_before`, at least 0.
    to_add: u64,
}

/// Reduces each quota item to what the stock lacks: a quota counts unserved puzzles.
fn deficit(mut request: FillRequest, bank: &Bank) -> Result<(FillRequest, Vec<Refill>)> {
    let since = bank.last_run_start()?;
    let stock = bank.stock(since.as_deref())?;
    let mut refills = Vec::new();
    for item in &mut request.plan {
        let level = stock.iter().find(|l| {
            l.size == item.geometry.n()
                && l.variant == item.geometry.variant()
                && l.tier == item.tier.name
        });
        let unserved = level.map_or(0, |l| l.unserved);
        let to_add = item.count.saturating_sub(unserved);
        refills.push(Refill {
            size: item.geometry.n(),
            variant: item.geometry.variant(),
            tier: item.tier.name.clone(),
            wanted: item.count,
            unserved_before: unserved,
            served_since_last_run: level.map_or(0, |l| l.served_since),
            to_add,
        });
        item.count = to_add;
    }
    request.plan.retain(|i| i.count > 0);
    Ok((request, refills))
}

/// Per quota: wanted, unserved before, served since the last run, added.
fn print_refills(refills: &[Refill], report: Option<&FillReport>) {
    for r in refills {
        let item = report.and_then(|rep| {
            rep.items.iter().find(|i| {
                let o = &i.outcome;
                o.size == r.size && o.variant == r.variant && o.tier == r.tier
            })
        });
        let shared = match item {
            Some(i) if i.met_by_bank => format!(
                " (quota met together with other workers; {} made here were surplus)",
                i.surplus
            ),
            _ => String::new(),
        };
        note!(
            "{} {}: wanted {}, unserved before {}, served since last run {}, added {}{shared}",
            Geometry::short_label_of(r.size, r.variant),
            r.tier,
            r.wanted,
            r.unserved_before,
            r.served_since_last_run,
            item.map_or(0, |i| i.outcome.counts.accepted)
        );
    }
}

/// The run summary as JSON: `--summary-json` writes it, `--log-format json` logs it.
fn summary(r: &FillReport, refills: &[Refill], seed: u64) -> serde_json::Value {
    let secs = r.elapsed.as_secs_f64();
    serde_json::json!({
        "run_id": r.run_id,
        "status": r.status.name(),
        "message": r.message,
        "seed": seed.to_string(),
        "duration_s": secs,
        "rate_per_s": r.counts.accepted as f64 / secs.max(1e-9),
        "counts": r.counts,
        "items": r.items,
        "stock": refills,
        "writer_busy_s": r.writer_busy.as_secs_f64(),
    })
}

fn write_summary(path: &std::path::Path, summary: &serde_json::Value) -> Result<()> {
    std::fs::write(path, serde_json::to_string_pretty(summary)? + "\n")
        .with_context(|| format!("cannot write summary '{}'", path.display()))
}

fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    crate::rng::derive_seed(&[nanos, u64::from(std::process::id())])
}

fn print_summary(r: &FillReport, seed: u64, db: &bank::Location, summary: &serde_json::Value) {
    let c = &r.counts;
    let secs = r.elapsed.as_secs_f64();
    let tiers: Vec<String> = r
        .items
        .iter()
        .map(|i| {
            let o = &i.outcome;
            let label = Geometry::short_label_of(o.size, o.variant);
            format!("{label} {}={}/{}", o.tier, o.counts.accepted, o.wanted)
        })
        .collect();
    let line = format!(
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
        db
    );
    super::log::note_with(&line, summary.clone());
    // Tiers run side by side: each one's share of the run's time, and what it made.
    if r.items.len() > 1 {
        for item in &r.items {
            note!("  {}", item.outcome);
        }
    }
    tracing::info!(
        writer_busy_s = r.writer_busy.as_secs_f64(),
        share_of_run = r.writer_busy.as_secs_f64() / secs.max(1e-9),
        "writer time"
    );
    if let Some(m) = &r.message {
        note!("run {} {}: {m}", r.run_id, r.status.name());
    }
}

fn bar_key(geometry: Geometry, tier: &str) -> String {
    format!("{} {tier}", geometry.short_label())
}

/// One progress bar per tier when stderr is a terminal; nothing otherwise.
struct Bars {
    bars: Vec<(String, ProgressBar)>,
    started: std::time::Instant,
}

impl Bars {
    fn new(request: &FillRequest) -> Bars {
        // Bars are for a person at a terminal; JSON logs keep every line an object.
        if !std::io::stderr().is_terminal() || super::log::json() {
            return Bars {
                bars: Vec::new(),
                started: std::time::Instant::now(),
            };
        }
        let multi = indicatif::MultiProgress::new();
        // Fits 80 columns: the message is cut to what the terminal leaves.
        let style = ProgressStyle::with_template(
            "{prefix:>10} [{bar:12}] {pos:>6}/{len:<6} {elapsed:>4} eta {eta:>4} {wide_msg}",
        )
        .expect("valid template")
        .progress_chars("=> ");
        let bars = request
            .plan
            .iter()
            .map(|item| {
                let bar = multi.add(ProgressBar::new(item.count));
                bar.set_style(style.clone());
                let key = bar_key(item.geometry, &item.tier.name);
                bar.set_prefix(key.clone());
                (key, bar)
            })
            .collect();
        Bars {
            bars,
            started: std::time::Instant::now(),
        }
    }

    fn finish(&self) {
        for (_, bar) in &self.bars {
            bar.abandon();
        }
    }

    /// Prints a note above the bars (they redraw below it).
    fn println(&self, line: &str) {
        match self.bars.first() {
            Some((_, bar)) => bar.suspend(|| note!("{line}")),
            None => note!("{line}"),
        }
    }

    fn update(&self, s: &TierStatus) {
        let key = bar_key(s.geometry, s.tier);
        if let Some((_, bar)) = self.bars.iter().find(|(k, _)| *k == key) {
            bar.set_position(s.accepted);
            let c = s.counts;
            // The tier's own counters; its rate over the run so far (tiers run side by side).
            let rate = s.accepted as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
            let alarms = if c.alarms > 0 {
                format!(" alarms {}", c.alarms)
            } else {
                String::new()
            };
            bar.set_message(format!(
                "{rate:.0}/s rej {} dup {} t/o {}{alarms}",
                c.rejected, c.duplicates, c.timeouts
            ));
        }
    }
}

/// A fill's progress: the bars, and a note when a tier turns out slow.
struct FillProgress {
    bars: Bars,
    pace: Pace,
}

impl Progress for FillProgress {
    fn update(&self, status: &TierStatus) {
        self.bars.update(status);
        if let Some(note) = self.pace.update(status) {
            self.bars.println(&note);
        }
    }
}

/// `bank nightly`: `fill --quota` with the same options.
pub fn run_nightly(opts: &FillOptions, stop: Arc<AtomicBool>) -> Result<u8> {
    let args = FillArgs {
        count: None,
        quota: true,
        opts: opts.clone(),
    };
    run(&args, stop)
}
