//! Filling one tier of one size: hands out chunks of jobs, reads their results in job
//! order, keeps the duplicate set, the monitor and the retries.

use super::attempt::{self, AttemptInput, AttemptOutcome};
use super::monitor::{Alarm, Decision, Monitor};
use super::plan::PlanItem;
use super::writer::Writer;
use super::{Deadlines, Limits, Progress, CHUNK};
use crate::bank::{fingerprint_prefix, AlarmRecord, Batch, RunCounts};
use crate::config::Settings;
use crate::rng::derive_seed;
use anyhow::Result;
use rayon::prelude::*;
use std::collections::HashSet;

/// Attempts of one job on the same base grid before it moves to another.
const ATTEMPTS_PER_GRID: u32 = 25;

/// Open jobs kept even when fewer puzzles are wanted.
const MIN_OPEN_JOBS: usize = 16;

/// Consecutive jobs that may exhaust all their attempts before the run stops as failed.
const GIVE_UP_STREAK: u64 = 20;

/// How a tier's fill ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TierEnd {
    /// Every puzzle wanted was made.
    Filled,
    /// Stopped early by a signal or the time limit (the reason).
    Interrupted(String),
    /// The tier could not be made (the reason, naming the knob to change).
    Failed(String),
}

/// One unit of parallel work.
#[derive(Clone, Copy, Debug)]
struct Job {
    number: u64,
    attempt: u32,
}

/// The state of filling one tier.
pub struct TierFill<'a> {
    settings: &'a Settings,
    item: &'a PlanItem,
    /// Seed of this tier's jobs within the run.
    seed: u64,
    /// Puzzles stored so far.
    pub accepted: u64,
    next_job: u64,
    retries: Vec<Job>,
    monitor: Monitor,
    give_up_streak: u64,
}

/// What the fill shares between its tiers.
pub struct Shared<'a> {
    /// Takes accepted puzzles.
    pub writer: &'a Writer,
    /// 16-byte prefixes of every fingerprint stored or accepted so far.
    pub known: &'a mut HashSet<[u8; 16]>,
    /// The run's counters.
    pub counts: &'a mut RunCounts,
    /// Each attempt's deadline.
    pub deadlines: &'a dyn Deadlines,
    /// Told after each chunk.
    pub progress: &'a dyn Progress,
    /// When to stop early.
    pub limits: &'a Limits<'a>,
}

impl<'a> TierFill<'a> {
    /// A tier's fill; its seed depends on the run seed, the size and the tier's name, so a
    /// tier's puzzles do not depend on which others are filled.
    pub fn new(run_seed: u64, settings: &'a Settings, item: &'a PlanItem) -> Self {
        let name_hash = blake3::hash(item.tier.name.as_bytes()).as_bytes()[..8]
            .iter()
            .fold(0u64, |h, &b| h << 8 | u64::from(b));
        TierFill {
            settings,
            item,
            seed: derive_seed(&[run_seed, item.geometry.n() as u64, name_hash]),
            accepted: 0,
            next_job: 0,
            retries: Vec::new(),
            monitor: Monitor::new(settings.alarm, item.tier.clue_range(item.geometry)),
            give_up_streak: 0,
        }
    }

    /// The inputs of a job's attempt: route per base grid; strategy and dig seed per attempt
    /// (symmetric strategies rarely reach the lowest targets, so a failing job varies them).
    fn input(&self, job: Job) -> AttemptInput {
        let grid_number = job.number / u64::from(self.settings.generation.puzzles_per_grid);
        // A job that keeps failing moves on to a fresh grid: some grids rarely dig into a
        // rare tier, however the cells are chosen.
        let grid_round = u64::from(job.attempt / ATTEMPTS_PER_GRID);
        let grid_seed = derive_seed(&[self.seed, 1, grid_number, grid_round]);
        let attempt = u64::from(job.attempt);
        AttemptInput {
            geometry: self.item.geometry,
            route: self.settings.generation.routes.pick(grid_seed),
            grid_seed,
            strategy: self
                .item
                .strategies
                .pick(derive_seed(&[self.seed, 2, job.number, attempt])),
            target: self.monitor.target(),
            dig_seed: derive_seed(&[self.seed, 3, job.number, attempt]),
        }
    }

    /// Fills the tier, chunk by chunk, until it is full or must stop.
    pub fn run(&mut self, shared: &mut Shared) -> Result<TierEnd> {
        let wanted = self.item.count;
        while self.accepted < wanted {
            if let Some(reason) = shared.limits.reason() {
                return Ok(TierEnd::Interrupted(reason.into()));
            }
            let jobs = self.next_chunk();
            let inputs: Vec<AttemptInput> = jobs.iter().map(|&j| self.input(j)).collect();
            let tier = &self.item.tier;
            let deadlines = shared.deadlines;
            let outcomes: Vec<AttemptOutcome> = inputs
                .par_iter()
                .map(|input| {
                    attempt::run(input, tier, deadlines.deadline(&tier.name, input.target))
                })
                .collect();
            let mut chunk = Batch::default();
            let mut end = None;
            for ((job, input), outcome) in jobs.into_iter().zip(&inputs).zip(outcomes) {
                let timed_out = matches!(outcome, AttemptOutcome::TimedOut);
                self.settle(job, outcome, shared, &mut chunk);
                match self.monitor.record(timed_out, input.target) {
                    Decision::Keep => {}
                    Decision::Raise(alarm) => self.alarm(alarm, shared.counts, &mut chunk),
                    Decision::GiveUp(alarm) => {
                        self.alarm(alarm, shared.counts, &mut chunk);
                        end = Some(TierEnd::Failed(format!(
                            "tier '{}': more than {:.0}% of the last {} attempts timed out even \
                             at {} clues, the top of its range: raise generation.deadline_ms or \
                             the tier's clue range",
                            tier.name,
                            self.settings.alarm.threshold * 100.0,
                            alarm.window,
                            alarm.old_target
                        )));
                        break;
                    }
                }
            }
            chunk.counts = *shared.counts;
            shared.writer.send(chunk)?;
            if let Some(end) = end {
                return Ok(end);
            }
            let n = self.item.geometry.n();
            shared
                .progress
                .update(n, &tier.name, self.accepted, wanted, shared.counts);
            if self.give_up_streak >= GIVE_UP_STREAK {
                return Ok(TierEnd::Failed(format!(
                    "tier '{}': {} jobs in a row found no puzzle in {} attempts each \
                     (score band {}, target {} clues): widen the tier's band or clue range",
                    tier.name,
                    self.give_up_streak,
                    self.settings.generation.max_attempts,
                    tier.band,
                    self.monitor.target()
                )));
            }
        }
        Ok(TierEnd::Filled)
    }

    /// Counts one attempt's outcome, keeps a new puzzle, and queues the job's next attempt
    /// when this one did not end it.
    fn settle(
        &mut self,
        job: Job,
        outcome: AttemptOutcome,
        shared: &mut Shared,
        chunk: &mut Batch,
    ) {
        let counts = &mut *shared.counts;
        counts.attempts += 1;
        if job.attempt > 0 {
            counts.retries += 1;
        }
        let done = match outcome {
            AttemptOutcome::Accepted(p) if self.accepted < self.item.count => {
                if shared.known.insert(fingerprint_prefix(&p.fingerprint)) {
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
        } else if job.attempt + 1 < self.settings.generation.max_attempts {
            self.retries.push(Job {
                number: job.number,
                attempt: job.attempt + 1,
            });
        } else {
            self.give_up_streak += 1;
            tracing::debug!(tier = %self.item.tier.name, job = job.number, "job gave up");
        }
    }

    /// Counts, logs and queues an alarm for the bank.
    fn alarm(&self, alarm: Alarm, counts: &mut RunCounts, chunk: &mut Batch) {
        counts.alarms += 1;
        let tier = &self.item.tier.name;
        tracing::warn!(tier = %tier, timeouts = alarm.timeouts, window = alarm.window,
            old_target = alarm.old_target, new_target = alarm.new_target,
            "too many attempts timed out: raising the tier's clue target");
        chunk.alarms.push(AlarmRecord {
            size: self.item.geometry.n(),
            tier: tier.clone(),
            window_size: alarm.window,
            timeouts_in_window: alarm.timeouts,
            old_target: alarm.old_target,
            new_target: alarm.new_target,
        });
    }

    /// Retries first (in job order), then new jobs, never more open jobs than puzzles wanted.
    fn next_chunk(&mut self) -> Vec<Job> {
        let mut jobs: Vec<Job> = std::mem::take(&mut self.retries);
        jobs.sort_by_key(|j| j.number);
        let mut overflow = jobs.split_off(jobs.len().min(CHUNK));
        // A few spare jobs keep both cores busy on the last puzzles of a tier; results
        // beyond the tier's need are discarded, in job order.
        let open_cap = ((self.item.count - self.accepted) as usize).max(MIN_OPEN_JOBS);
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
