//! Filling one tier of one size: hands out its jobs, reads their results in job order,
//! keeps its counters, monitor and retries. The fill interleaves the tiers.

use super::attempt::{AttemptInput, AttemptOutcome};
use super::monitor::{Alarm, Decision, Monitor};
use super::plan::PlanItem;
use super::seen::{Admission, Seen};
use crate::bank::{AlarmRecord, Batch, RunCounts};
use crate::config::{Dedup, Settings};
use crate::generate::{MotherSeed, Route, GENERATOR_VERSION};
use crate::grid::Geometry;
use crate::rng::derive_seed;
use std::time::Duration;

/// Attempts of one job on the same base grid before it moves to another.
const ATTEMPTS_PER_GRID: u32 = 25;

/// [`ATTEMPTS_PER_GRID`] where a mother search makes a batch of grids
/// ([`MotherSeed::Batch`]): a job that moves on takes a grid of another batch, built for
/// the few jobs of its group that fail as long (non-consecutive hard, fills of 1,000:
/// 16 batches for 100 puzzles at 25, 28 % of the instructions; at 100, 436-441/s against
/// 352-393/s with as many attempts).
const ATTEMPTS_PER_BATCHED_GRID: u32 = 100;

/// Job numbers between two jobs that share a base or mother grid.
const SPREAD: u64 = 128;

/// [`SPREAD`] where a mother search makes a batch of grids ([`MotherSeed::Batch`], from
/// generator version 13): such a variant's grids serve more puzzles each
/// (non-consecutive 16), so at 128 a fill of 1,000, its default quota, built 128 grids in
/// 4 batch searches and used each for 8 puzzles; at 64 it builds 64 in 2 and uses them up
/// (easy fills 7,200 to 10,900/s; puzzles of one grid at least 64 ids apart).
const BATCHED_SPREAD: u64 = 64;

/// How the jobs of one geometry share base grids.
struct Sharing {
    /// The attempts of a job on one base grid before it moves to another.
    attempts: u32,
    /// Job numbers between two jobs that share a base or mother grid.
    spread: u64,
}

/// How the jobs of `g` share base grids: batched grids ([`MotherSeed::Batch`]) longer
/// and closer together.
fn sharing(g: Geometry) -> Sharing {
    if MotherSeed::batch_size(g, GENERATOR_VERSION) > 1 {
        Sharing {
            attempts: ATTEMPTS_PER_BATCHED_GRID,
            spread: BATCHED_SPREAD,
        }
    } else {
        Sharing {
            attempts: ATTEMPTS_PER_GRID,
            spread: SPREAD,
        }
    }
}

/// Open jobs kept even when fewer puzzles are wanted.
const MIN_OPEN_JOBS: usize = 16;

/// A tier stops as failed when this many jobs' worth of attempts (`max_attempts` each)
/// have found no puzzle since its last one ([`TierFill::dry_spell`]).
const GIVE_UP_JOBS: u64 = 20;

/// ... or, for a tier that has found puzzles, this many times its attempts per puzzle so
/// far, when that is more: a rare tier (6x6 medium: one attempt in about 600 rates into its
/// band) is not given up for a gap of the length it has always had. Counting jobs that
/// gave up did that: with many jobs open they all end at once, and 20 in a row stopped
/// 6x6 medium after 18 puzzles, while 2,000 attempts a job made 100 at 181/s.
const GIVE_UP_GAPS: u64 = 20;

/// One unit of parallel work: a job makes attempts until it yields a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Job {
    number: u64,
    attempt: u32,
}

/// The state of filling one tier.
pub struct TierFill<'a> {
    settings: &'a Settings,
    item: &'a PlanItem,
    /// Seed of this tier's jobs within the run.
    seed: u64,
    /// Puzzles wanted: the plan's count, changed when a skipped tier's share moves here.
    pub wanted: u64,
    /// Puzzles accepted so far.
    pub accepted: u64,
    /// This tier's own counters.
    pub counts: RunCounts,
    /// The time its attempts took, summed over the workers.
    pub worker_time: Duration,
    /// Why the tier could not be made, naming the knob to change (`None`: not failed).
    pub failure: Option<String>,
    /// Whether it failed because no attempt found a puzzle of its band (not by timeouts):
    /// a tier the size may never reach.
    pub unreachable: bool,
    /// Why the tier was skipped and where its share went.
    pub skipped: Option<String>,
    /// Whether the bank said its quota was met (by this and other workers together), so
    /// this worker stopped making it.
    pub met_by_bank: bool,
    /// Puzzles refused because their solution class was full.
    class_full: u64,
    next_job: u64,
    retries: Vec<Job>,
    monitor: Monitor,
    /// Attempts since the last puzzle accepted (or since the start).
    dry: u64,
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
            wanted: item.count,
            accepted: 0,
            counts: RunCounts::default(),
            worker_time: Duration::ZERO,
            failure: None,
            unreachable: false,
            skipped: None,
            met_by_bank: false,
            class_full: 0,
            next_job: 0,
            retries: Vec::new(),
            monitor: Monitor::new(settings.alarm, item.tier.clue_range(item.geometry)),
            dry: 0,
        }
    }

    /// How this tier's jobs are made as things stand (until its next outcome is read).
    pub fn plan(&self) -> JobPlan<'a> {
        JobPlan {
            settings: self.settings,
            item: self.item,
            seed: self.seed,
            target: self.monitor.target(),
            open: self.is_open(),
        }
    }

    /// The plan item this fills.
    pub fn item(&self) -> &'a PlanItem {
        self.item
    }

    /// Why a tier given up as unreachable is skipped, in the words of what was measured:
    /// how many attempts found no puzzle in its band, and how many it stored before them.
    pub fn barren(&self) -> String {
        let band = &self.item.tier.band;
        if self.accepted == 0 {
            format!(
                "none of its {} attempts rated into its band {band}",
                self.counts.attempts
            )
        } else {
            format!(
                "after {} stored, its last {} attempts found none in its band {band}",
                self.accepted, self.dry
            )
        }
    }

    /// The attempts without a puzzle after which the tier stops as failed: [`GIVE_UP_JOBS`]
    /// jobs' worth, or [`GIVE_UP_GAPS`] times its attempts per puzzle so far.
    fn dry_spell(&self) -> u64 {
        let jobs = GIVE_UP_JOBS * u64::from(self.settings.generation.max_attempts);
        let per_puzzle = self.counts.attempts.checked_div(self.accepted).unwrap_or(0);
        jobs.max(GIVE_UP_GAPS * per_puzzle)
    }

    /// Whether the tier still wants puzzles and has not failed.
    pub fn is_open(&self) -> bool {
        self.failure.is_none() && !self.met_by_bank && self.accepted < self.wanted
    }

    /// Share of the wanted puzzles made so far (1 when none are wanted).
    pub fn done(&self) -> f64 {
        if self.wanted == 0 {
            1.0
        } else {
            self.accepted as f64 / self.wanted as f64
        }
    }

    /// Attempts the tier is expected to need to reach `share` of its wanted puzzles: the
    /// puzzles it lacks for that times its attempts per accepted puzzle so far (smoothed,
    /// so a new tier counts one attempt a puzzle). 0 when it is there already.
    pub fn work_to(&self, share: f64) -> f64 {
        let per_puzzle = (self.counts.attempts + 1) as f64 / (self.accepted + 1) as f64;
        (share * self.wanted as f64 - self.accepted as f64).max(0.0) * per_puzzle
    }

    /// Up to `slots` jobs to run next with their inputs: retries first (in job order),
    /// then new jobs, never more open jobs than puzzles wanted.
    pub fn next_jobs(&mut self, slots: usize) -> Vec<(Job, AttemptInput)> {
        let mut jobs: Vec<Job> = std::mem::take(&mut self.retries);
        jobs.sort_by_key(|j| j.number);
        let mut overflow = jobs.split_off(jobs.len().min(slots));
        // A few spare jobs keep both cores busy on the last puzzles of a tier; results
        // beyond the tier's need are discarded, in job order.
        let open_cap = ((self.wanted - self.accepted) as usize).max(MIN_OPEN_JOBS);
        while jobs.len() < slots && jobs.len() + overflow.len() < open_cap {
            jobs.push(Job {
                number: self.next_job,
                attempt: 0,
            });
            self.next_job += 1;
        }
        self.retries.append(&mut overflow);
        let plan = self.plan();
        jobs.into_iter().map(|j| (j, plan.input(j))).collect()
    }

    /// Takes one attempt's outcome (in job order): counts it, keeps a new puzzle in
    /// `chunk`, feeds the monitor, and ends the tier when it cannot be made. Outcomes that
    /// arrive after the tier ended are dropped uncounted.
    pub fn receive(
        &mut self,
        job: Job,
        input: &AttemptInput,
        outcome: AttemptOutcome,
        seen: &mut Seen,
        chunk: &mut Batch,
    ) {
        if self.failure.is_some() {
            return;
        }
        let timed_out = matches!(outcome, AttemptOutcome::TimedOut);
        self.settle(job, outcome, seen, chunk);
        match self.monitor.record(timed_out, input.target) {
            Decision::Keep => {}
            Decision::Raise(alarm) => self.alarm(alarm, chunk),
            Decision::GiveUp(alarm) => {
                self.alarm(alarm, chunk);
                self.failure = Some(format!(
                    "tier '{}': more than {:.0}% of the last {} attempts timed out even \
                     at {} clues, the top of its range: raise generation.deadline_ms or \
                     the tier's clue range",
                    self.item.tier.name,
                    self.settings.alarm.threshold * 100.0,
                    alarm.window,
                    alarm.old_target
                ));
            }
        }
        if self.failure.is_none() && self.dry >= self.dry_spell() {
            let fix = if self.class_full > 0 {
                format!(
                    "{} puzzles were refused because their solution class held \
                     generation.max_per_solution_class already: raise that cap",
                    self.class_full
                )
            } else {
                "widen the tier's band or clue range".into()
            };
            // A size that never rates into the band may be skipped; one whose classes
            // are full may not.
            self.unreachable = self.class_full == 0;
            self.failure = Some(format!(
                "tier '{}': its last {} attempts found no puzzle (score band {}, target {} \
                 clues; {} stored before): {fix}",
                self.item.tier.name,
                self.dry,
                self.item.tier.band,
                self.monitor.target(),
                self.accepted
            ));
        }
    }

    /// Counts one attempt's outcome, keeps a new puzzle, and queues the job's next attempt
    /// when this one did not end it.
    fn settle(&mut self, job: Job, outcome: AttemptOutcome, seen: &mut Seen, chunk: &mut Batch) {
        let counts = &mut self.counts;
        let mut next_attempt = job.attempt + 1;
        counts.attempts += 1;
        if job.attempt > 0 {
            counts.retries += 1;
        }
        let done = match outcome {
            AttemptOutcome::Accepted(p) if self.accepted < self.wanted => match seen.admit(&p) {
                Admission::New => {
                    self.accepted += 1;
                    counts.accepted += 1;
                    chunk.puzzles.push(*p);
                    true
                }
                Admission::Duplicate => {
                    counts.duplicates += 1;
                    false
                }
                Admission::ClassFull => {
                    // Counted with duplicates: the class has enough; the job moves on to
                    // a fresh grid rather than dig this one again.
                    counts.duplicates += 1;
                    self.class_full += 1;
                    let per_grid = sharing(self.item.geometry).attempts;
                    next_attempt = (job.attempt / per_grid + 1) * per_grid;
                    false
                }
            },
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
            self.dry = 0;
        } else if let Some(retry) = self.plan().retry(job, next_attempt) {
            self.dry += 1;
            self.retries.push(retry);
        } else {
            self.dry += 1;
            tracing::debug!(tier = %self.item.tier.name, job = job.number, "job gave up");
        }
    }

    /// Counts, logs and queues an alarm for the bank.
    fn alarm(&mut self, alarm: Alarm, chunk: &mut Batch) {
        self.counts.alarms += 1;
        let tier = &self.item.tier.name;
        tracing::warn!(tier = %tier, timeouts = alarm.timeouts, window = alarm.window,
            old_target = alarm.old_target, new_target = alarm.new_target,
            "too many attempts timed out: raising the tier's clue target");
        chunk.alarms.push(AlarmRecord {
            size: self.item.geometry.n(),
            variant: self.item.geometry.variant(),
            tier: tier.clone(),
            window_size: alarm.window,
            timeouts_in_window: alarm.timeouts,
            old_target: alarm.old_target,
            new_target: alarm.new_target,
        });
    }
}

/// How a tier's jobs are made between two outcomes read: what [`TierFill`] knows then, as
/// a value the pool's workers can hold, so that a worker queues a rejected attempt's
/// retry itself.
#[derive(Clone, Copy)]
pub struct JobPlan<'a> {
    settings: &'a Settings,
    item: &'a PlanItem,
    seed: u64,
    /// The tier's clue target.
    target: usize,
    /// Whether the tier still wants puzzles.
    open: bool,
}

impl JobPlan<'_> {
    /// The inputs of a job's attempt: route per base grid; strategy and dig seed per attempt
    /// (symmetric strategies rarely reach the lowest targets, so a failing job varies them).
    ///
    /// Jobs that share a base grid (the variant's `puzzles_per_grid`) or a mother grid
    /// (`mother_grid_uses` base grids) are [`Sharing::spread`] job numbers apart, so siblings are
    /// not stored next to each other. Where a mother search makes a batch of grids
    /// ([`MotherSeed::Batch`], each its own class), the grids of neighbouring numbers
    /// share one.
    pub fn input(&self, job: Job) -> AttemptInput {
        let generation = &self.settings.generation;
        let per_grid = u64::from(generation.puzzles_per_grid(self.item.geometry.variant()));
        let sharing = sharing(self.item.geometry);
        let spread = sharing.spread;
        let (slot, round) = (job.number % spread, job.number / spread);
        let grid_number = round / per_grid * spread + slot;
        let mother_number =
            round / (per_grid * u64::from(generation.mother_grid_uses)) * spread + slot;
        // A job that keeps failing moves on to a fresh grid: some grids rarely dig into a
        // rare tier, however the cells are chosen.
        let grid_round = u64::from(job.attempt / sharing.attempts);
        let pick = derive_seed(&[self.seed, 1, grid_number, grid_round]);
        let route = self.item.routes.pick(pick);
        let attempt = u64::from(job.attempt);
        AttemptInput {
            geometry: self.item.geometry,
            route,
            // Each route its own stream: two routes never build from one seed.
            grid_seed: derive_seed(&[pick, route.stream()]),
            mother_seed: (route == Route::Transform).then(|| {
                let g = self.item.geometry;
                match MotherSeed::batch_size(g, GENERATOR_VERSION) {
                    1 => derive_seed(&[self.seed, 4, mother_number, grid_round]),
                    // A batch's grids are each a class of their own: neighbouring grid
                    // numbers share its search.
                    batch => MotherSeed::batched(
                        derive_seed(&[self.seed, 4, grid_number / batch, grid_round]),
                        grid_number % batch,
                    ),
                }
            }),
            strategy: self
                .item
                .strategies
                .pick(derive_seed(&[self.seed, 2, job.number, attempt])),
            target: self.target,
            dig_seed: derive_seed(&[self.seed, 3, job.number, attempt]),
            full_fingerprint: generation.dedup == Dedup::Full,
            cage_sizes: (self.item.geometry.variant().has_cages())
                .then(|| self.item.tier.cage_sizes.unwrap_or(generation.cage_sizes)),
            generator_version: GENERATOR_VERSION,
        }
    }

    /// The job's attempt `next`, unless the job has had all its attempts.
    fn retry(&self, job: Job, next: u32) -> Option<Job> {
        (next < self.settings.generation.max_attempts).then_some(Job {
            number: job.number,
            attempt: next,
        })
    }

    /// The attempt (with its input as things stand) that will follow `job`'s when its
    /// outcome is read, if that is certain before: a rejected or timed-out attempt is
    /// retried with the next while the tier is open. Lets a worker run it early.
    pub fn retry_after(&self, job: Job, outcome: &AttemptOutcome) -> Option<(Job, AttemptInput)> {
        let rejected = matches!(outcome, AttemptOutcome::Rejected | AttemptOutcome::TimedOut);
        let retry = self
            .retry(job, job.attempt + 1)
            .filter(|_| rejected && self.open)?;
        Some((retry, self.input(retry)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Variant;

    /// The base grids the first `jobs` jobs of a plan item of `g` dig (first attempts),
    /// by job number.
    fn grids_of_jobs(g: Geometry, jobs: u64) -> Vec<(u64, Option<u64>)> {
        let settings = Settings::embedded();
        let tier = settings.tiers(g)[0].clone();
        let item = PlanItem::new(&settings, g, &tier, jobs).unwrap();
        let fill = TierFill::new(9, &settings, &item);
        let plan = fill.plan();
        (0..jobs)
            .map(|number| plan.input(Job { number, attempt: 0 }))
            .map(|input| (input.grid_seed, input.mother_seed))
            .collect()
    }

    /// Non-consecutive jobs (grids in batches of 32, 16 puzzles a grid) share a grid 64
    /// job numbers apart: the first 1,024 jobs dig 64 grids of two batch searches, each
    /// grid 16 times; classic's stay 128 apart.
    #[test]
    fn batched_grids_are_shared_by_jobs_64_apart() {
        let g = Geometry::CLASSIC.with_variant(Variant::NonConsecutive);
        let grids = grids_of_jobs(g, 1024);
        for (number, grid) in grids.iter().enumerate() {
            assert_eq!(grid, &grids[number % 64], "job {number}");
        }
        assert_ne!(grids[0], grids[1]);
        let searches: std::collections::HashSet<u64> =
            grids.iter().map(|(_, m)| m.unwrap() >> 8).collect();
        assert_eq!(searches.len(), 2);
        let classic = grids_of_jobs(Geometry::CLASSIC, 256);
        assert_eq!(classic[0].0, classic[128].0);
        assert_ne!(classic[0].0, classic[64].0);
    }
}
