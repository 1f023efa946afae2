//! The fill: a rayon pool runs attempts ([`dispatch`]), the calling thread orders their
//! results, watches timeouts, and hands accepted puzzles to the writer thread.
//!
//! Work goes in rounds of [`CHUNK`] attempts shared by every tier still open, in
//! proportion to the work each still needs ([`share`]), so the tiers fill side by side and
//! a run stopped at any point leaves each about the same share done. A round's make-up
//! depends only on earlier results, never on thread count or timing, and its results are
//! read in order, so a run seed makes the same puzzles on any number of threads (timeouts
//! aside: an attempt cut by the deadline is retried with the next attempt seed).

pub mod attempt;
mod dispatch;
mod kept;
pub mod monitor;
pub mod plan;
pub mod reproduce;
mod sampler;
mod seen;
mod tier_fill;
pub mod verify;
pub mod writer;

pub use kept::forget_kept;
pub use plan::{FillRequest, PlanItem};

use crate::bank::{Bank, Batch, RunCounts, RunEnd, RunStatus, TierOutcome};
use crate::config::Settings;
use crate::generate::GENERATOR_VERSION;
use crate::grid::Geometry;
use anyhow::Result;
use dispatch::{Dispatcher, Work};
use sampler::Sampler;
use seen::Seen;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tier_fill::TierFill;
use writer::Writer;

/// Attempts per round. A constant, so that results never depend on the thread count.
pub const CHUNK: usize = 64;

/// Gives each attempt its deadline. Production uses [`WallClock`]; tests inject others.
pub trait Deadlines: Sync {
    /// The deadline of an attempt of `tier` at clue target `target`, started now.
    fn deadline(&self, tier: &str, target: usize) -> Option<Instant>;
}

/// A fixed budget of wall-clock time per attempt.
pub struct WallClock(pub Duration);

impl Deadlines for WallClock {
    fn deadline(&self, _tier: &str, _target: usize) -> Option<Instant> {
        Some(Instant::now() + self.0)
    }
}

/// How one tier of a fill stands after a round.
pub struct TierStatus<'a> {
    /// Its geometry.
    pub geometry: Geometry,
    /// Its name.
    pub tier: &'a str,
    /// Puzzles accepted so far.
    pub accepted: u64,
    /// Puzzles wanted.
    pub wanted: u64,
    /// Its own counters.
    pub counts: &'a RunCounts,
    /// The time its attempts took so far, summed over the workers.
    pub worker_time: Duration,
}

/// Told after each round how a tier is going.
pub trait Progress {
    /// How the tier stands.
    fn update(&self, status: &TierStatus);
}

/// A progress sink that shows nothing.
pub struct NoProgress;

impl Progress for NoProgress {
    fn update(&self, _: &TierStatus) {}
}

/// Outcome of one plan item.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ItemReport {
    /// What the tier made (`counts.accepted`: puzzles stored) and the time it took, as
    /// the bank records it ([`RunEnd::tiers`]).
    #[serde(flatten)]
    pub outcome: TierOutcome,
    /// Puzzles made but not stored: the quota was met by other workers first.
    pub surplus: u64,
    /// Whether the bank's stock reached the quota (with other workers' puzzles), which
    /// ended this tier short of `wanted` without it being short.
    pub met_by_bank: bool,
}

impl ItemReport {
    /// Whether the tier ended with less than it wanted and the bank without its quota.
    pub fn short(&self) -> bool {
        !self.met_by_bank && self.outcome.counts.accepted < self.outcome.wanted
    }
}

/// How a fill ended.
#[derive(Clone, Debug)]
pub struct FillReport {
    /// Run id in the bank.
    pub run_id: i64,
    /// Final status.
    pub status: RunStatus,
    /// Counters.
    pub counts: RunCounts,
    /// Why the run failed or stopped early.
    pub message: Option<String>,
    /// Wall-clock duration.
    pub elapsed: Duration,
    /// Per plan item, in plan order.
    pub items: Vec<ItemReport>,
    /// Time the writer thread spent in transactions.
    pub writer_busy: Duration,
    /// Whether the bank refused a write (the message says why): an error, not an early
    /// stop.
    pub storage_failed: bool,
}

/// Runs a fill into `bank`, its attempts on `pool`. `stop` is polled between chunks
/// (Ctrl-C).
pub fn fill(
    pool: &rayon::ThreadPool,
    bank: Bank,
    request: &FillRequest,
    settings: &Settings,
    deadlines: &dyn Deadlines,
    progress: &dyn Progress,
    stop: &AtomicBool,
) -> Result<FillReport> {
    let started = Instant::now();
    bank.close_stale_runs()?;
    let cap = match settings.generation.max_per_solution_class {
        Some(cap) => Some((cap, bank.class_counts()?)),
        None => None,
    };
    let full = match settings.generation.dedup {
        crate::config::Dedup::Full => Some(bank.full_fingerprint_prefixes()?),
        crate::config::Dedup::Dihedral => None,
    };
    let mut seen = Seen::new(bank.fingerprint_prefixes()?, full, cap);
    let config_json = serde_json::to_string(&serde_json::json!({
        "config": settings.file(),
        "plan": request.plan.iter().map(|p| serde_json::json!({
            "size": p.geometry.n(), "variant": p.geometry.variant().name(),
            "tier": p.tier.name, "count": p.count,
        })).collect::<Vec<_>>(),
        "max_duration_s": request.max_duration.map(|d| d.as_secs_f64()),
    }))?;
    let run_id = bank.start_run(request.run_seed, &config_json, GENERATOR_VERSION)?;
    tracing::info!(
        run_id,
        seed = %request.run_seed,
        count = request.total(),
        "fill started"
    );
    let writer = Writer::start(bank, run_id, settings.batch_size, request.caps.clone());
    let limits = Limits {
        stop,
        ends_at: request.max_duration.and_then(|d| started.checked_add(d)),
    };

    let mut tiers: Vec<TierFill> = request
        .plan
        .iter()
        .map(|item| TierFill::new(request.run_seed, settings, item))
        .collect();
    let mut sampler = Sampler::new(started);
    let rules = Rules {
        pool,
        deadlines,
        progress,
        limits: &limits,
        skip_unreachable: request.skip_unreachable,
    };
    let outcome = run_rounds(&mut tiers, &mut seen, &writer, &mut sampler, &rules);
    let mut counts = run_counts(&tiers);
    if let Some(last) = sampler.take(counts, true) {
        // A failed send means the writer stopped on an error, which `finish` reports.
        let _ = writer.send(Batch {
            samples: vec![last],
            counts: Some(counts),
            ..Batch::default()
        });
    }
    let workers = pool.current_num_threads() as u32;
    let (bank, written) = writer.finish();
    // The counts of what is stored, not of what was handed to the writer: puzzles another
    // process stored first are duplicates, and a failed write stored nothing of its batch.
    counts.accepted = written.inserted;
    counts.duplicates += written.ignored;
    let items: Vec<ItemReport> = tiers
        .iter()
        .map(|t| {
            let g = t.item().geometry;
            let tier = t.item().tier.name.clone();
            let key = (g.n(), g.variant(), tier.clone());
            let surplus = written.surplus.get(&key).copied().unwrap_or(0);
            ItemReport {
                outcome: TierOutcome {
                    size: g.n(),
                    variant: g.variant(),
                    tier,
                    wanted: t.wanted,
                    counts: RunCounts {
                        accepted: written.stored.get(&key).copied().unwrap_or(0),
                        ..t.counts
                    },
                    worker_ms: t.worker_time.as_millis() as u64,
                    workers,
                },
                surplus,
                met_by_bank: t.met_by_bank || surplus > 0,
            }
        })
        .collect();
    let storage_failed = written.failure.is_some();
    let (status, mut message) = match (written.failure, outcome) {
        (Some(e), _) => (
            RunStatus::Failed,
            Some(format!(
                "the bank refused a write, so the run stopped: {e:#}"
            )),
        ),
        (None, Ok(RoundsEnd::Filled)) => match failures(&tiers) {
            None => (RunStatus::Completed, None),
            Some(why) => (RunStatus::Failed, Some(why)),
        },
        (None, Ok(RoundsEnd::Interrupted(why))) => {
            let why = match failures(&tiers) {
                None => why.to_string(),
                Some(failed) => format!("{why}; {failed}"),
            };
            (RunStatus::Interrupted, Some(why))
        }
        (None, Err(e)) => (RunStatus::Failed, Some(format!("{e:#}"))),
    };
    let skipped: Vec<String> = tiers.iter().filter_map(|t| t.skipped.clone()).collect();
    if !skipped.is_empty() {
        let notes = skipped.join("; ");
        message = Some(match message {
            Some(m) => format!("{m}; {notes}"),
            None => notes,
        });
    }
    // Runs of workers that died while this one ran are closed by the survivors.
    if let Err(e) = bank.close_stale_runs() {
        tracing::warn!(error = %e, "could not close the runs of dead workers");
    }
    let end = RunEnd {
        status,
        counts,
        message: message.clone(),
        tiers: items.iter().map(|i| i.outcome.clone()).collect(),
    };
    if let Err(e) = bank.finish_run(run_id, &end) {
        if !storage_failed {
            return Err(e);
        }
        let m = message.get_or_insert_with(String::new);
        m.push_str(&format!("; closing the run row failed too: {e:#}"));
    }
    tracing::info!(
        run_id,
        status = status.name(),
        accepted = counts.accepted,
        "fill finished"
    );
    Ok(FillReport {
        run_id,
        status,
        counts,
        message,
        elapsed: started.elapsed(),
        items,
        writer_busy: written.busy,
        storage_failed,
    })
}

/// How the rounds ended.
enum RoundsEnd {
    /// No tier is open: each is full or failed.
    Filled,
    /// Stopped early by a signal or the time limit (the reason).
    Interrupted(&'static str),
}

/// How the rounds of a fill run: on which pool, deadlines, progress, when to stop, what to
/// skip.
struct Rules<'a> {
    pool: &'a rayon::ThreadPool,
    deadlines: &'a dyn Deadlines,
    progress: &'a dyn Progress,
    limits: &'a Limits<'a>,
    /// Skip a size whose tier never rates into its band (see [`skip`]).
    skip_unreachable: bool,
}

/// Runs rounds until no tier is open or the run must stop, the attempts on `rules.pool`.
fn run_rounds(
    tiers: &mut [TierFill],
    seen: &mut Seen,
    writer: &Writer,
    sampler: &mut Sampler,
    rules: &Rules,
) -> Result<RoundsEnd> {
    let plan: Vec<&crate::config::Tier> = tiers.iter().map(|t| &t.item().tier).collect();
    let open: Vec<AtomicBool> = tiers.iter().map(|_| AtomicBool::new(true)).collect();
    rules.pool.in_place_scope_fifo(|scope| {
        let mut dispatcher = Dispatcher::new(scope, &plan, rules.deadlines, &open);
        let end = rounds(tiers, seen, writer, sampler, rules, &mut dispatcher);
        dispatcher.close();
        end
    })
}

/// The rounds of [`run_rounds`].
fn rounds<'a: 'scope, 'scope>(
    tiers: &mut [TierFill<'a>],
    seen: &mut Seen,
    writer: &Writer,
    sampler: &mut Sampler,
    rules: &Rules,
    dispatcher: &mut Dispatcher<'_, 'scope>,
) -> Result<RoundsEnd> {
    let Rules {
        progress,
        limits,
        skip_unreachable,
        ..
    } = *rules;
    loop {
        let slots = share(tiers, CHUNK);
        if slots.is_empty() {
            return Ok(RoundsEnd::Filled);
        }
        if let Some(reason) = limits.reason() {
            return Ok(RoundsEnd::Interrupted(reason));
        }
        let work: Vec<Work> = slots
            .iter()
            .flat_map(|&(tier, n)| {
                tiers[tier]
                    .next_jobs(n)
                    .into_iter()
                    .map(move |(job, input)| Work { tier, job, input })
            })
            .collect();
        let outcomes = dispatcher.round(&work, tiers);
        let mut chunk = Batch::default();
        for (w, (outcome, took)) in work.into_iter().zip(outcomes) {
            sampler.attempt(took);
            tiers[w.tier].worker_time += took;
            tiers[w.tier].receive(w.job, &w.input, outcome, seen, &mut chunk);
        }
        if skip_unreachable {
            skip(tiers);
        }
        let counts = run_counts(tiers);
        chunk.samples.extend(sampler.take(counts, false));
        chunk.counts = Some(counts);
        writer.send(chunk)?;
        // Stocks that other workers filled to their quota: stop making them.
        for (size, variant, tier) in writer.take_full() {
            for t in tiers.iter_mut() {
                let g = t.item().geometry;
                if t.is_open()
                    && g.n() == size
                    && g.variant() == variant
                    && t.item().tier.name == tier
                {
                    t.met_by_bank = true;
                }
            }
        }
        for &(i, _) in &slots {
            let t = &tiers[i];
            let item = t.item();
            progress.update(&TierStatus {
                geometry: item.geometry,
                tier: &item.tier.name,
                accepted: t.accepted,
                wanted: t.wanted,
                counts: &t.counts,
                worker_time: t.worker_time,
            });
        }
    }
}

/// How far ahead of the leading tier each round aims, as a share of every tier's count.
const STEP: f64 = 0.02;

/// How a round's `chunk` attempts are shared among the open tiers: `(tier index, slots)`,
/// in plan order. Every tier aims at the same share of its count, a [`STEP`] past the
/// leading tier's, and gets slots in proportion to the attempts it is expected to need to
/// get there, so a tier that falls behind catches up and one that is ahead waits. Empty
/// when no tier is open.
fn share(tiers: &[TierFill], chunk: usize) -> Vec<(usize, usize)> {
    let open: Vec<(usize, &TierFill)> = tiers
        .iter()
        .enumerate()
        .filter(|(_, t)| t.is_open())
        .collect();
    let lead = open.iter().map(|(_, t)| t.done()).fold(0.0, f64::max);
    let aim = (lead + STEP).min(1.0);
    let work: Vec<(usize, f64)> = open.iter().map(|&(i, t)| (i, t.work_to(aim))).collect();
    let total: f64 = work.iter().map(|(_, w)| w).sum();
    work.into_iter()
        .filter(|&(_, w)| w > 0.0)
        .map(|(i, w)| (i, ((w / total * chunk as f64).round() as usize).max(1)))
        .collect()
}

/// Moves what tiers that proved unreachable still lack to the other tiers of the same size
/// (evenly, the first taking the remainder), and clears their failure: a size that never
/// rates into a tier is skipped, with a note, rather than failing the run. Without another
/// working tier of that size, the failures stay.
fn skip(tiers: &mut [TierFill]) {
    for i in 0..tiers.len() {
        if !tiers[i].unreachable || tiers[i].failure.is_none() {
            continue;
        }
        let geometry = tiers[i].item().geometry;
        let heirs: Vec<usize> = (0..tiers.len())
            .filter(|&j| {
                let t = &tiers[j];
                t.failure.is_none() && t.skipped.is_none() && t.item().geometry == geometry
            })
            .collect();
        if heirs.is_empty() {
            continue;
        }
        let lacking = tiers[i].wanted - tiers[i].accepted;
        let names: Vec<&str> = heirs
            .iter()
            .map(|&j| tiers[j].item().tier.name.as_str())
            .collect();
        let t = &mut tiers[i];
        t.failure = None;
        t.skipped = Some(format!(
            "skipped tier '{}' on {}x{}: {}; its {lacking} puzzles went to {} (ask for \
             those with --tier)",
            t.item().tier.name,
            geometry.n(),
            geometry.n(),
            t.barren(),
            names.join(", ")
        ));
        tiers[i].wanted = tiers[i].accepted;
        let n = heirs.len() as u64;
        for (k, &j) in heirs.iter().enumerate() {
            tiers[j].wanted += lacking / n + u64::from((k as u64) < lacking % n);
        }
    }
}

/// The run's counters: the sum of its tiers'.
fn run_counts(tiers: &[TierFill]) -> RunCounts {
    let mut counts = RunCounts::default();
    for t in tiers {
        counts.add(&t.counts);
    }
    counts
}

/// The failed tiers' reasons, joined (`None`: no tier failed).
fn failures(tiers: &[TierFill]) -> Option<String> {
    let reasons: Vec<&str> = tiers.iter().filter_map(|t| t.failure.as_deref()).collect();
    (!reasons.is_empty()).then(|| reasons.join("; "))
}

/// When a run must stop early.
pub struct Limits<'a> {
    /// Set by Ctrl-C / SIGTERM.
    stop: &'a AtomicBool,
    /// End of the time budget.
    ends_at: Option<Instant>,
}

impl Limits<'_> {
    /// Why to stop now, if at all.
    fn reason(&self) -> Option<&'static str> {
        if self.stop.load(Ordering::SeqCst) {
            Some("interrupted by signal")
        } else if self.ends_at.is_some_and(|t| Instant::now() >= t) {
            Some("time limit reached (--max-duration)")
        } else {
            None
        }
    }
}
