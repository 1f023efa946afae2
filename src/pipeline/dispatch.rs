//! Runs a fill's attempts on the rayon pool, and keeps the pool busy between rounds.
//!
//! A round waits for its last attempt, and with two workers one of them used to wait
//! with it: about a tenth of a classic expert fill. So, as a rejected attempt comes back,
//! its retry (the job's next attempt, which the tier will ask for in a later round) is
//! queued behind the round's own attempts, and a worker with nothing left of the round
//! runs it. An attempt is a pure function of its input, so a result made early is the one
//! the round would have made; rounds still read their results in order, and a seed makes
//! the same puzzles as without this.

use super::attempt::{self, AttemptInput, AttemptOutcome};
use super::tier_fill::{Job, TierFill};
use super::Deadlines;
use crate::config::Tier;
use rayon::ScopeFifo;
use std::collections::{HashMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::{Duration, Instant};

/// One attempt of one tier's job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Work {
    /// The tier's index in the fill.
    pub tier: usize,
    /// The job and its attempt number.
    pub job: Job,
    /// Everything that decides the attempt's result.
    pub input: AttemptInput,
}

/// An attempt's result and how long it took.
pub type Finished = (AttemptOutcome, Duration);

/// What a worker sends back: `Ok(None)` when the attempt was dropped before it started
/// (its tier had closed), `Err` with the payload when it panicked.
type Report = (Work, std::thread::Result<Option<Finished>>);

/// Hands attempts to the pool and collects their results.
pub struct Dispatcher<'s, 'scope> {
    scope: &'s ScopeFifo<'scope>,
    /// Each tier by index.
    tiers: &'scope [&'scope Tier],
    deadlines: &'scope dyn Deadlines,
    /// Per tier: whether its attempts are still wanted. A queued attempt of a closed tier
    /// is dropped when a worker takes it.
    open: &'scope [AtomicBool],
    reports: Receiver<Report>,
    sender: Sender<Report>,
    /// Queued or running.
    pending: HashSet<Work>,
    /// Back and not yet read by a round. (A retry made before an alarm moved its tier's
    /// target is never asked for, and stays until the fill ends.)
    done: HashMap<Work, Finished>,
}

impl<'s, 'scope> Dispatcher<'s, 'scope> {
    /// A dispatcher spawning into `scope`; `open` has one flag per tier of `tiers`.
    pub fn new(
        scope: &'s ScopeFifo<'scope>,
        tiers: &'scope [&'scope Tier],
        deadlines: &'scope dyn Deadlines,
        open: &'scope [AtomicBool],
    ) -> Self {
        let (sender, reports) = channel();
        Dispatcher {
            scope,
            tiers,
            deadlines,
            open,
            reports,
            sender,
            pending: HashSet::new(),
            done: HashMap::new(),
        }
    }

    /// Runs a round: the results of `work`, in its order. While it waits, the retries of
    /// rejected attempts (as `fills` would queue them) are queued behind.
    pub fn round(&mut self, work: &[Work], fills: &[TierFill]) -> Vec<Finished> {
        for (flag, fill) in self.open.iter().zip(fills) {
            flag.store(fill.is_open(), Ordering::Relaxed);
        }
        for w in work {
            self.queue(*w);
        }
        let mut results = Vec::with_capacity(work.len());
        for w in work {
            let finished = loop {
                if let Some(f) = self.done.remove(w) {
                    break f;
                }
                // Dropped before it ran when its tier closed, and opened again when a
                // skipped tier's share moved to it: queued again.
                self.queue(*w);
                self.wait(fills);
            };
            results.push(finished);
        }
        results
    }

    /// Drops every attempt still queued (the fill is over); running ones finish.
    pub fn close(&self) {
        for flag in self.open {
            flag.store(false, Ordering::Relaxed);
        }
    }

    /// Takes one report; queues the retry a rejected attempt will need.
    fn wait(&mut self, fills: &[TierFill]) {
        let (work, finished) = self
            .reports
            .recv()
            .expect("the dispatcher holds a sender, so its channel stays open");
        self.pending.remove(&work);
        let finished = match finished {
            Ok(Some(finished)) => finished,
            Ok(None) => return,
            Err(panic) => {
                self.close();
                std::panic::resume_unwind(panic)
            }
        };
        let fill = &fills[work.tier];
        if let Some((job, input)) = fill.retry_after(work.job, &finished.0) {
            self.queue(Work {
                tier: work.tier,
                job,
                input,
            });
        }
        self.done.insert(work, finished);
    }

    /// Queues `work` on the pool unless it is queued, running or back already.
    fn queue(&mut self, work: Work) {
        if self.done.contains_key(&work) || !self.pending.insert(work) {
            return;
        }
        let tier = self.tiers[work.tier];
        let (deadlines, open, sender) = (self.deadlines, self.open, self.sender.clone());
        self.scope.spawn_fifo(move |_| {
            let finished = std::panic::catch_unwind(AssertUnwindSafe(|| {
                open[work.tier].load(Ordering::Relaxed).then(|| {
                    let started = Instant::now();
                    let deadline = deadlines.deadline(&tier.name, work.input.target);
                    let outcome = attempt::run(&work.input, tier, deadline);
                    (outcome, started.elapsed())
                })
            }));
            // Once the fill is over the dispatcher is gone, and so is the wish for this.
            let _ = sender.send((work, finished));
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::Batch;
    use crate::config::Settings;
    use crate::grid::Geometry;
    use crate::pipeline::plan::PlanItem;
    use crate::pipeline::seen::Seen;

    /// Attempts without a deadline: no result depends on timing.
    struct NoDeadline;

    impl Deadlines for NoDeadline {
        fn deadline(&self, _: &str, _: usize) -> Option<Instant> {
            None
        }
    }

    /// What decides a result: its kind and, when accepted, the puzzle.
    fn gist(outcome: &AttemptOutcome) -> String {
        match outcome {
            AttemptOutcome::Accepted(p) => p.puzzle.clone(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn rounds_read_what_each_attempt_makes_though_retries_ran_early() {
        let settings = Settings::embedded();
        let geometry = Geometry::for_size(9).unwrap();
        let tier = settings.tiers(geometry)[3].clone();
        let item = PlanItem::new(&settings, geometry, &tier, 6).unwrap();
        let mut fill = TierFill::new(11, &settings, &item);
        let mut seen = Seen::new(Default::default(), None, None);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let plan = [&item.tier];
        let open = [AtomicBool::new(true)];
        let (mut rounds, mut early) = (0, 0);
        pool.in_place_scope_fifo(|scope| {
            let mut dispatcher = Dispatcher::new(scope, &plan, &NoDeadline, &open);
            while fill.is_open() {
                let work: Vec<Work> = fill
                    .next_jobs(8)
                    .into_iter()
                    .map(|(job, input)| Work {
                        tier: 0,
                        job,
                        input,
                    })
                    .collect();
                early += work
                    .iter()
                    .filter(|w| dispatcher.done.contains_key(w) || dispatcher.pending.contains(w))
                    .count();
                let results = dispatcher.round(&work, std::slice::from_ref(&fill));
                let mut batch = Batch::default();
                for (w, (outcome, _)) in work.iter().zip(results) {
                    let alone = attempt::run(&w.input, &item.tier, None);
                    assert_eq!(gist(&outcome), gist(&alone), "{w:?}");
                    fill.receive(w.job, &w.input, outcome, &mut seen, &mut batch);
                }
                rounds += 1;
            }
            dispatcher.close();
        });
        assert_eq!(fill.accepted, 6);
        assert!(
            rounds > 1 && early > 0,
            "{rounds} rounds, {early} run early"
        );
    }
}
