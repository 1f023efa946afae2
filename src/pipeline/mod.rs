//! The fill: a rayon pool runs attempts, the main thread orders their results, watches
//! timeouts, and hands accepted puzzles to the writer thread.
//!
//! Work goes in chunks of [`CHUNK`] attempts. A chunk's make-up depends only on earlier
//! results, never on thread count or timing, and its results are read in job order, so a
//! run seed makes the same puzzles on any number of threads (timeouts aside: an attempt
//! cut by the deadline is retried with the next attempt seed).

pub mod attempt;
pub mod monitor;
pub mod reproduce;
pub mod verify;
pub mod writer;

use crate::bank::{fingerprint_prefix, AlarmRow, Bank, RunCounts, RunStatus};
use crate::config::{Config, Tier};
use crate::generate::GENERATOR_VERSION;
use crate::grid::Geometry;
use crate::rng::derive_seed;
use anyhow::Result;
use attempt::{AttemptInput, AttemptOutcome};
use monitor::Monitor;
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use writer::{Chunk, Writer};

/// Attempts per chunk. A constant, so that results never depend on the thread count.
pub const CHUNK: usize = 64;

/// Attempts of one job on the same base grid before it moves to another.
const ATTEMPTS_PER_GRID: u32 = 25;

/// Open jobs kept even when fewer puzzles are wanted.
const MIN_OPEN_JOBS: usize = 16;

/// Consecutive jobs that may exhaust all their attempts before the run stops as failed.
const GIVE_UP_STREAK: u64 = 20;

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

/// Told after each chunk how a tier is going.
pub trait Progress {
    /// `accepted` of `wanted` for `tier` of grid side `size`, with the run's counters.
    fn update(&self, size: usize, tier: &str, accepted: u64, wanted: u64, counts: &RunCounts);
}

/// A progress sink that shows nothing.
pub struct NoProgress;

impl Progress for NoProgress {
    fn update(&self, _: usize, _: &str, _: u64, _: u64, _: &RunCounts) {}
}

/// How many puzzles of one size and tier to add.
#[derive(Clone, Debug)]
pub struct PlanItem {
    /// Grid geometry.
    pub geometry: Geometry,
    /// The tier.
    pub tier: Tier,
    /// Puzzles to add.
    pub count: u64,
}

/// What to fill.
#[derive(Clone, Debug)]
pub struct FillRequest {
    /// What to add, filled in this order.
    pub plan: Vec<PlanItem>,
    /// Run seed.
    pub run_seed: u64,
    /// Stop cleanly (status interrupted) once this much time has passed.
    pub max_duration: Option<Duration>,
}

impl FillRequest {
    /// `count` puzzles of `geometry` split evenly over `tiers`, the first taking the remainder.
    pub fn split(count: u64, tiers: &[Tier], geometry: Geometry, run_seed: u64) -> FillRequest {
        let n = tiers.len() as u64;
        let plan = tiers
            .iter()
            .enumerate()
            .map(|(i, tier)| PlanItem {
                geometry,
                tier: tier.clone(),
                count: count / n + u64::from((i as u64) < count % n),
            })
            .collect();
        FillRequest {
            plan,
            run_seed,
            max_duration: None,
        }
    }

    /// Puzzles wanted in all.
    pub fn total(&self) -> u64 {
        self.plan.iter().map(|p| p.count).sum()
    }
}

/// Outcome of one plan item.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ItemReport {
    /// Grid side.
    pub size: usize,
    /// Tier name.
    pub tier: String,
    /// Puzzles wanted.
    pub wanted: u64,
    /// Puzzles stored.
    pub accepted: u64,
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
}

/// One unit of parallel work.
#[derive(Clone, Copy, Debug)]
struct Job {
    number: u64,
    attempt: u32,
}

/// Runs a fill into `bank`. `stop` is polled between chunks (Ctrl-C).
pub fn fill(
    bank: Bank,
    request: &FillRequest,
    config: &Config,
    deadlines: &dyn Deadlines,
    progress: &dyn Progress,
    stop: &AtomicBool,
) -> Result<FillReport> {
    let started = Instant::now();
    bank.close_stale_runs()?;
    let mut known = bank.fingerprint_prefixes()?;
    let config_json = serde_json::to_string(&serde_json::json!({
        "config": config,
        "plan": request.plan.iter().map(|p| serde_json::json!({
            "size": p.geometry.n(), "tier": p.tier.name, "count": p.count,
        })).collect::<Vec<_>>(),
        "max_duration_s": request.max_duration.map(|d| d.as_secs_f64()),
    }))?;
    let run_id = bank.start_run(request.run_seed, &config_json, GENERATOR_VERSION)?;
    tracing::info!(
        run_id,
        seed = request.run_seed,
        count = request.total(),
        "fill started"
    );
    let writer = Writer::start(bank, run_id, config.writer.batch_size);
    let limits = Limits {
        stop,
        ends_at: request.max_duration.map(|d| started + d),
    };

    let mut counts = RunCounts::default();
    let mut items = Vec::new();
    let mut outcome: Result<(RunStatus, Option<String>)> = Ok((RunStatus::Completed, None));
    for item in &request.plan {
        let mut filler = TierFill::new(request.run_seed, config, item);
        let result = filler.run(
            &writer,
            &mut known,
            &mut counts,
            deadlines,
            progress,
            &limits,
        );
        items.push(ItemReport {
            size: item.geometry.n(),
            tier: item.tier.name.clone(),
            wanted: item.count,
            accepted: filler.accepted,
        });
        match result {
            Ok(None) => {}
            Ok(Some(end)) => {
                outcome = Ok(end);
                break;
            }
            Err(e) => {
                outcome = Err(e);
                break;
            }
        }
    }
    let (bank, written) = writer.finish();
    let writer_busy = written.as_ref().map_or(Duration::ZERO, |r| r.busy);
    let (status, message) = match (outcome, written) {
        (Ok(end), Ok(report)) => {
            // Another process may have stored some of the same puzzles first.
            counts.accepted = counts.accepted.saturating_sub(report.ignored);
            counts.duplicates += report.ignored;
            end
        }
        (Err(e), _) | (_, Err(e)) => (RunStatus::Failed, Some(format!("{e:#}"))),
    };
    bank.finish_run(run_id, status, &counts, message.as_deref())?;
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
        writer_busy,
    })
}

/// When a run must stop early.
struct Limits<'a> {
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

/// The state of filling one tier.
struct TierFill<'a> {
    config: &'a Config,
    tier: &'a Tier,
    geometry: Geometry,
    /// Seed of this tier's jobs within the run.
    seed: u64,
    wanted: u64,
    accepted: u64,
    target: usize,
    max_target: usize,
    next_job: u64,
    retries: Vec<Job>,
    monitor: Monitor,
    give_up_streak: u64,
}

impl<'a> TierFill<'a> {
    fn new(run_seed: u64, config: &'a Config, item: &'a PlanItem) -> Self {
        let (low, high) = item.tier.clue_range(item.geometry);
        // Seeded by tier name, so a tier's puzzles do not depend on which others are filled.
        let name_hash = blake3::hash(item.tier.name.as_bytes()).as_bytes()[..8]
            .iter()
            .fold(0u64, |h, &b| h << 8 | u64::from(b));
        TierFill {
            config,
            tier: &item.tier,
            geometry: item.geometry,
            seed: derive_seed(&[run_seed, item.geometry.n() as u64, name_hash]),
            wanted: item.count,
            accepted: 0,
            target: low,
            max_target: high,
            next_job: 0,
            retries: Vec::new(),
            monitor: Monitor::new(config.alarm.window, config.alarm.threshold),
            give_up_streak: 0,
        }
    }

    /// The inputs of a job's attempt: route per base grid; strategy and dig seed per attempt
    /// (symmetric strategies rarely reach the lowest targets, so a failing job varies them).
    fn input(&self, job: Job) -> AttemptInput {
        let grid_number = job.number / u64::from(self.config.generation.puzzles_per_grid);
        // A job that keeps failing moves on to a fresh grid: some grids rarely dig into a
        // rare tier, however the cells are chosen.
        let grid_round = u64::from(job.attempt / ATTEMPTS_PER_GRID);
        let grid_seed = derive_seed(&[self.seed, 1, grid_number, grid_round]);
        AttemptInput {
            geometry: self.geometry,
            route: attempt::pick_weighted(&self.config.route_weights(), grid_seed),
            grid_seed,
            strategy: attempt::pick_weighted(
                &self.config.strategy_weights(self.geometry),
                derive_seed(&[self.seed, 2, job.number, u64::from(job.attempt)]),
            ),
            target: self.target,
            dig_seed: derive_seed(&[self.seed, 3, job.number, u64::from(job.attempt)]),
        }
    }

    /// Fills the tier; `Some((status, message))` when the run must end here.
    fn run(
        &mut self,
        writer: &Writer,
        known: &mut HashSet<[u8; 16]>,
        counts: &mut RunCounts,
        deadlines: &dyn Deadlines,
        progress: &dyn Progress,
        limits: &Limits,
    ) -> Result<Option<(RunStatus, Option<String>)>> {
        while self.accepted < self.wanted {
            if let Some(reason) = limits.reason() {
                return Ok(Some((RunStatus::Interrupted, Some(reason.into()))));
            }
            let jobs = self.next_chunk();
            let inputs: Vec<AttemptInput> = jobs.iter().map(|&j| self.input(j)).collect();
            let tier = self.tier;
            let outcomes: Vec<AttemptOutcome> = inputs
                .par_iter()
                .map(|input| {
                    attempt::run(input, tier, deadlines.deadline(&tier.name, input.target))
                })
                .collect();
            let mut chunk = Chunk {
                puzzles: Vec::new(),
                alarms: Vec::new(),
                counts: *counts,
            };
            for ((job, input), outcome) in jobs.into_iter().zip(&inputs).zip(outcomes) {
                counts.attempts += 1;
                if job.attempt > 0 {
                    counts.retries += 1;
                }
                let timed_out = matches!(outcome, AttemptOutcome::TimedOut);
                let done = match outcome {
                    AttemptOutcome::Accepted(p) if self.accepted < self.wanted => {
                        if known.insert(fingerprint_prefix(&p.fingerprint)) {
                            self.accepted += 1;
                            counts.accepted += 1;
                            chunk.puzzles.push(*p);
                            true
                        } else {
                            counts.duplicates += 1;
                            false
                        }
                    }
                    AttemptOutcome::Accepted(_) => true, // tier already full: discarded
                    AttemptOutcome::Rejected => {
                        counts.rejected += 1;
                        false
                    }
                    AttemptOutcome::TimedOut => {
                        counts.timeouts += 1;
                        false
                    }
                };
                if done {
                    self.give_up_streak = 0;
                } else if job.attempt + 1 < self.config.generation.max_attempts {
                    self.retries.push(Job {
                        number: job.number,
                        attempt: job.attempt + 1,
                    });
                } else {
                    self.give_up_streak += 1;
                    tracing::debug!(tier = %self.tier.name, job = job.number, "job gave up");
                }
                if let Some(alarm) = self.monitor.record(timed_out) {
                    counts.alarms += 1;
                    let old = input.target.max(self.target);
                    let new = (old + self.config.alarm.step).min(self.max_target);
                    let moved = new > old;
                    tracing::warn!(tier = %self.tier.name, timeouts = alarm.timeouts, window = alarm.window,
                        old_target = old, new_target = new, "too many attempts timed out: lowering the tier's target");
                    chunk.alarms.push(AlarmRow {
                        size: self.geometry.n(),
                        tier: self.tier.name.clone(),
                        window_size: alarm.window,
                        timeouts_in_window: alarm.timeouts,
                        old_target: old,
                        new_target: moved.then_some(new),
                    });
                    if !moved {
                        chunk.counts = *counts;
                        writer.send(chunk)?;
                        return Ok(Some((RunStatus::Failed, Some(format!(
                            "tier '{}': more than {:.0}% of the last {} attempts timed out even at {} clues, \
                             the top of its range: raise generation.deadline_ms or the tier's clue range",
                            self.tier.name, self.config.alarm.threshold * 100.0, alarm.window, old
                        )))));
                    }
                    self.target = new;
                }
            }
            chunk.counts = *counts;
            writer.send(chunk)?;
            progress.update(
                self.geometry.n(),
                &self.tier.name,
                self.accepted,
                self.wanted,
                counts,
            );
            if self.give_up_streak >= GIVE_UP_STREAK {
                return Ok(Some((
                    RunStatus::Failed,
                    Some(format!(
                        "tier '{}': {} jobs in a row found no puzzle in {} attempts each \
                     (score band {:?}, target {} clues): widen the tier's band or clue range",
                        self.tier.name,
                        self.give_up_streak,
                        self.config.generation.max_attempts,
                        self.tier.score,
                        self.target
                    )),
                )));
            }
        }
        Ok(None)
    }

    /// Retries first (in job order), then new jobs, never more open jobs than puzzles wanted.
    fn next_chunk(&mut self) -> Vec<Job> {
        let mut jobs: Vec<Job> = std::mem::take(&mut self.retries);
        jobs.sort_by_key(|j| j.number);
        let mut overflow = jobs.split_off(jobs.len().min(CHUNK));
        // A few spare jobs keep both cores busy on the last puzzles of a tier; results
        // beyond the tier's need are discarded, in job order.
        let open_cap = ((self.wanted - self.accepted) as usize).max(MIN_OPEN_JOBS);
        while jobs.len() < CHUNK && jobs.len() + overflow.len() < open_cap {
            jobs.push(Job {
                number: self.next_job,
                attempt: 0,
            });
            self.next_job += 1;
        }
        self.retries.append(&mut overflow);
        jobs
    }
}
