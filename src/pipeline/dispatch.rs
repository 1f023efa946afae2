//! Runs a fill's attempts on the rayon pool, and keeps the pool busy between rounds.
//!
//! A round waits for its last attempt, and with two workers one of them used to wait
//! with it: about a tenth of a classic expert fill. So, as a rejected attempt comes back,
//! its retry (the job's next attempt, which the tier will ask for in a later round) is
//! queued at once by the worker that ran it, behind the round's own attempts, and runs
//! early. An attempt is a pure function of its input, so a result made early is the one
//! the round would have made; rounds still read their results in order, and a seed makes
//! the same puzzles as without this.
//!
//! The attempts wait in one queue of their own, first in first out; each job spawned on
//! the pool runs the attempt at its front. (Rayon runs what a worker spawns on that
//! worker first, which would chase each job's retries ahead of the round's other
//! attempts, and at the end of a fill run retries no round asks for: 8 % more
//! instructions in a 200-puzzle classic expert fill.) A worker queues a retry only while
//! fewer than two attempts per worker wait: enough to keep the pool busy until the next
//! round, which queues the others it asks for.
//!
//! The calling thread sleeps through a round and wakes when the round's last attempt is
//! back. Waking it for every attempt's result (to queue the retry there) made 53,000
//! context switches in a 3,000-puzzle classic expert fill on two workers, and 0.5 s of
//! its 7 s of CPU time went to the kernel; now 2,000 and 0.1 s.

use super::attempt::{self, AttemptInput, AttemptOutcome};
use super::tier_fill::{Job, JobPlan, TierFill};
use super::Deadlines;
use crate::config::Tier;
use rayon::ScopeFifo;
use std::collections::{HashMap, HashSet, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
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

/// Hands attempts to the pool and collects their results.
pub struct Dispatcher<'s, 'scope> {
    scope: &'s ScopeFifo<'scope>,
    pool: Pool<'scope>,
}

/// What every attempt on the pool needs, and the state it shares with the dispatcher.
#[derive(Clone)]
struct Pool<'scope> {
    /// Each tier by index.
    tiers: &'scope [&'scope Tier],
    deadlines: &'scope dyn Deadlines,
    /// Per tier: whether its attempts are still wanted. A queued attempt of a closed tier
    /// is dropped when a worker takes it.
    open: &'scope [AtomicBool],
    shared: Arc<Shared<'scope>>,
}

/// The attempts' bookkeeping, and the signal that the round's attempts are back.
struct Shared<'scope> {
    state: Mutex<State<'scope>>,
    ready: Condvar,
}

struct State<'scope> {
    /// Each tier's jobs as the round under way makes them: the retries workers queue.
    plans: Vec<JobPlan<'scope>>,
    /// Queued, in the order they run.
    queue: VecDeque<Work>,
    /// Queued or running.
    pending: HashSet<Work>,
    /// Back and not yet read by a round. (A retry made before an alarm moved its tier's
    /// target is never asked for, and stays until the fill ends.)
    done: HashMap<Work, Finished>,
    /// The round's attempts not back yet.
    awaited: HashSet<Work>,
    /// Whether one of them was dropped (its tier closed when it was taken, and opened
    /// again since): the round must queue it again.
    dropped: bool,
    /// A worker's panic, resumed on the dispatcher's thread.
    panic: Option<Box<dyn std::any::Any + Send>>,
}

impl State<'_> {
    /// Queues `work` unless it is queued, running or back already; whether it was (a
    /// job to run it must then be spawned).
    fn admit(&mut self, work: Work) -> bool {
        let new = !self.done.contains_key(&work) && self.pending.insert(work);
        if new {
            self.queue.push_back(work);
        }
        new
    }

    /// Whether the round can go on: a panic, every attempt back, or one dropped.
    fn round_moves(&self) -> bool {
        self.panic.is_some() || self.awaited.is_empty() || self.dropped
    }
}

impl<'s, 'scope> Dispatcher<'s, 'scope> {
    /// A dispatcher spawning into `scope`; `open` has one flag per tier of `tiers`.
    pub fn new(
        scope: &'s ScopeFifo<'scope>,
        tiers: &'scope [&'scope Tier],
        deadlines: &'scope dyn Deadlines,
        open: &'scope [AtomicBool],
    ) -> Self {
        let state = State {
            plans: Vec::new(),
            queue: VecDeque::new(),
            pending: HashSet::new(),
            done: HashMap::new(),
            awaited: HashSet::new(),
            dropped: false,
            panic: None,
        };
        Dispatcher {
            scope,
            pool: Pool {
                tiers,
                deadlines,
                open,
                shared: Arc::new(Shared {
                    state: Mutex::new(state),
                    ready: Condvar::new(),
                }),
            },
        }
    }

    /// Runs a round: the results of `work`, in its order. Meanwhile the workers queue the
    /// retries of rejected attempts (as `fills` would queue them) behind.
    pub fn round<'f: 'scope>(&mut self, work: &[Work], fills: &[TierFill<'f>]) -> Vec<Finished> {
        for (flag, fill) in self.pool.open.iter().zip(fills) {
            flag.store(fill.is_open(), Ordering::Relaxed);
        }
        let mut state = self.pool.state();
        state.plans = fills.iter().map(TierFill::plan).collect();
        state.awaited = work
            .iter()
            .filter(|w| !state.done.contains_key(w))
            .copied()
            .collect();
        loop {
            // Queued now, or again after it was dropped.
            state.dropped = false;
            let queued = work
                .iter()
                .filter(|w| state.awaited.contains(w) && state.admit(**w))
                .count();
            drop(state);
            for _ in 0..queued {
                self.pool.spawn(self.scope);
            }
            state = self.pool.state();
            state = self
                .pool
                .shared
                .ready
                .wait_while(state, |s| !s.round_moves())
                .unwrap_or_else(|e| e.into_inner());
            if let Some(panic) = state.panic.take() {
                drop(state);
                self.close();
                std::panic::resume_unwind(panic)
            }
            if state.awaited.is_empty() {
                break;
            }
        }
        work.iter()
            .map(|w| state.done.remove(w).expect("every awaited attempt is back"))
            .collect()
    }

    /// Drops every attempt still queued (the fill is over); running ones finish.
    pub fn close(&self) {
        for flag in self.pool.open {
            flag.store(false, Ordering::Relaxed);
        }
    }
}

impl<'scope> Pool<'scope> {
    fn state(&self) -> MutexGuard<'_, State<'scope>> {
        // Nothing panics while holding the lock, but a poisoned lock would still hold
        // sound bookkeeping.
        self.shared.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Spawns a job that runs the attempt at the front of the queue, and queues the
    /// retry when it is rejected.
    fn spawn(&self, scope: &ScopeFifo<'scope>) {
        let pool = self.clone();
        scope.spawn_fifo(move |scope| {
            let work = pool
                .state()
                .queue
                .pop_front()
                .expect("a job is spawned for every attempt queued");
            let finished = std::panic::catch_unwind(AssertUnwindSafe(|| {
                pool.open[work.tier].load(Ordering::Relaxed).then(|| {
                    let tier = pool.tiers[work.tier];
                    let started = Instant::now();
                    let deadline = pool.deadlines.deadline(&tier.name, work.input.target);
                    let outcome = attempt::run(&work.input, tier, deadline);
                    (outcome, started.elapsed())
                })
            }));
            if pool.report(work, finished) {
                pool.spawn(scope);
            }
        });
    }

    /// Books an attempt's result (`Ok(None)` when it was dropped before it started, `Err`
    /// with the payload when it panicked), wakes the dispatcher when its round can go on,
    /// and queues the retry; whether it did.
    fn report(&self, work: Work, finished: std::thread::Result<Option<Finished>>) -> bool {
        let mut state = self.state();
        state.pending.remove(&work);
        let awaited = state.awaited.contains(&work);
        let mut retry = false;
        match finished {
            Ok(Some(finished)) => {
                // Enough queued to keep every worker busy until the next round: more
                // would run ahead, and at the end of a fill make retries no round asks for.
                let room = state.queue.len() < 2 * rayon::current_num_threads();
                retry = room
                    && state.plans[work.tier]
                        .retry_after(work.job, &finished.0)
                        .is_some_and(|(job, input)| {
                            state.admit(Work {
                                tier: work.tier,
                                job,
                                input,
                            })
                        });
                state.done.insert(work, finished);
                state.awaited.remove(&work);
            }
            Ok(None) => state.dropped |= awaited,
            Err(panic) => state.panic = Some(panic),
        }
        // Only a change the round waits for: waking the dispatcher costs a system call.
        let wake = awaited && state.round_moves() || state.panic.is_some();
        drop(state);
        if wake {
            self.shared.ready.notify_one();
        }
        retry
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

    /// Deadlines that panic: every attempt panics on its worker.
    struct Panicking;

    impl Deadlines for Panicking {
        fn deadline(&self, _: &str, _: usize) -> Option<Instant> {
            panic!("deadline exploded")
        }
    }

    /// What decides a result: its kind and, when accepted, the puzzle.
    fn gist(outcome: &AttemptOutcome) -> String {
        match outcome {
            AttemptOutcome::Accepted(p) => p.puzzle.clone(),
            other => format!("{other:?}"),
        }
    }

    /// The embedded config with a plan for `count` puzzles of its 9x9 tier `tier`.
    fn tier_plan(tier: usize, count: u64) -> (Settings, PlanItem) {
        let settings = Settings::embedded();
        let geometry = Geometry::for_size(9).unwrap();
        let tier = settings.tiers(geometry)[tier].clone();
        let item = PlanItem::new(&settings, geometry, &tier, count).unwrap();
        (settings, item)
    }

    /// Runs `f` with a dispatcher on two workers over `plan`, a flag in `open` a tier.
    fn on_two_workers<'a, R>(
        plan: &'a [&'a Tier],
        deadlines: &'a dyn Deadlines,
        open: &'a [AtomicBool],
        f: impl FnOnce(&mut Dispatcher<'_, 'a>) -> R,
    ) -> R {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build();
        pool.unwrap()
            .in_place_scope_fifo(|scope| f(&mut Dispatcher::new(scope, plan, deadlines, open)))
    }

    /// The fill's next `n` attempts as work.
    fn next_work(fill: &mut TierFill, n: usize) -> Vec<Work> {
        fill.next_jobs(n)
            .into_iter()
            .map(|(job, input)| Work {
                tier: 0,
                job,
                input,
            })
            .collect()
    }

    #[test]
    fn rounds_read_what_each_attempt_makes_though_retries_ran_early() {
        let (settings, item) = tier_plan(3, 6);
        let mut fill = TierFill::new(11, &settings, &item);
        let (mut rounds, mut early) = (0, 0);
        on_two_workers(
            &[&item.tier],
            &NoDeadline,
            &[AtomicBool::new(true)],
            |dispatcher| {
                let mut seen = Seen::new(Default::default(), None, None);
                while fill.is_open() {
                    let work = next_work(&mut fill, 8);
                    let state = dispatcher.pool.state();
                    early += work
                        .iter()
                        .filter(|w| state.done.contains_key(w) || state.pending.contains(w))
                        .count();
                    drop(state);
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
            },
        );
        assert_eq!(fill.accepted, 6);
        assert!(
            rounds > 1 && early > 0,
            "{rounds} rounds, {early} run early"
        );
    }

    /// A panic on a worker reaches the round's caller instead of leaving it waiting.
    #[test]
    fn a_worker_panic_resumes_on_the_calling_thread() {
        let (settings, item) = tier_plan(0, 4);
        let mut fill = TierFill::new(3, &settings, &item);
        let open = [AtomicBool::new(true)];
        let caught = std::panic::catch_unwind(AssertUnwindSafe(|| {
            on_two_workers(&[&item.tier], &Panicking, &open, |dispatcher| {
                let work = next_work(&mut fill, 4);
                dispatcher.round(&work, std::slice::from_ref(&fill));
            })
        }));
        let payload = caught.expect_err("the round panics");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"deadline exploded"));
        assert!(
            !open[0].load(Ordering::Relaxed),
            "queued attempts are dropped"
        );
    }

    /// An attempt dropped while its tier was closed runs when a round asks for it.
    #[test]
    fn a_dropped_attempt_runs_when_asked_for_again() {
        let (settings, item) = tier_plan(0, 2);
        let mut fill = TierFill::new(5, &settings, &item);
        on_two_workers(
            &[&item.tier],
            &NoDeadline,
            &[AtomicBool::new(false)],
            |dispatcher| {
                let work = next_work(&mut fill, 1)[0];
                assert!(dispatcher.pool.state().admit(work));
                dispatcher.pool.spawn(dispatcher.scope);
                while dispatcher.pool.state().pending.contains(&work) {
                    std::thread::yield_now();
                }
                assert!(!dispatcher.pool.state().done.contains_key(&work), "dropped");
                let results = dispatcher.round(&[work], std::slice::from_ref(&fill));
                let alone = attempt::run(&work.input, &item.tier, None);
                assert_eq!(gist(&results[0].0), gist(&alone));
            },
        );
    }
}
