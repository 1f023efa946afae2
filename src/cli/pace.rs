//! Saying when a fill's tier will take long, before a person waits minutes in silence: up
//! front from what the tier's last run made ([`forecast`]), else from its first seconds
//! ([`Pace`]).

use crate::bank::{Bank, TierOutcome};
use crate::grid::Geometry;
use crate::pipeline::{FillRequest, TierStatus};
use anyhow::Result;
use std::cell::RefCell;
use std::collections::HashSet;
use std::time::Duration;

/// A tier expected to need longer than this (wall-clock, on the run's workers) is named.
const SLOW: Duration = Duration::from_secs(60);

/// Worker time a tier without history runs before its own pace is judged: long enough
/// that a few puzzles give a rate, short enough to say so in the first seconds.
const JUDGE_AFTER: Duration = Duration::from_secs(10);

/// Recent runs whose tiers are searched for a tier's last pace.
const HISTORY_RUNS: usize = 50;

/// A tier of one geometry, as the notes key it.
type Key = (Geometry, String);

/// Notes for the tiers of `request` whose last recorded run says they will take longer
/// than [`SLOW`] on `workers` workers, e.g. "16x16 medium is slow: about 11 min for 200
/// puzzles at 0.30/s (its last run made 20 in 67.7 s)". Also returns the tiers it judged,
/// so that [`Pace`] judges only the others.
pub fn forecast(
    request: &FillRequest,
    bank: &Bank,
    workers: usize,
) -> Result<(Vec<String>, HashSet<Key>)> {
    let history = bank.recent_tiers(HISTORY_RUNS)?;
    let mut notes = Vec::new();
    let mut judged = HashSet::new();
    for item in &request.plan {
        let g = item.geometry;
        let last = history
            .iter()
            .find(|o| o.size == g.n() && o.variant == g.variant() && o.tier == item.tier.name);
        let Some(last) = last.filter(|o| o.worker_ms > 0) else {
            continue;
        };
        judged.insert((g, item.tier.name.clone()));
        notes.extend(slow_before(g, &item.tier.name, item.count, last, workers));
    }
    Ok((notes, judged))
}

/// The note for `count` puzzles of a tier whose last run was `last`, on `workers`
/// workers, when they will take longer than [`SLOW`].
fn slow_before(
    g: Geometry,
    tier: &str,
    count: u64,
    last: &TierOutcome,
    workers: usize,
) -> Option<String> {
    let rate = last.rate_per_worker() * workers as f64;
    if !too_long(count, rate) {
        return None;
    }
    let expected = match rate {
        0.0 => format!("none in its last run, {count} wanted"),
        _ => format!(
            "about {} for {count} puzzles at {}",
            span(count as f64 / rate),
            per_second(rate)
        ),
    };
    Some(format!(
        "{} {tier} is slow: {expected} (its last run made {} in {:.1} s)",
        g.short_label(),
        last.counts.accepted,
        last.seconds()
    ))
}

/// Whether `count` puzzles at `rate` a second take longer than [`SLOW`] (or never come).
fn too_long(count: u64, rate: f64) -> bool {
    rate <= 0.0 || count as f64 / rate > SLOW.as_secs_f64()
}

/// "0.15/s", "2.5/s", "83/s": two figures where they matter.
fn per_second(rate: f64) -> String {
    match rate {
        r if r < 1.0 => format!("{r:.2}/s"),
        r if r < 10.0 => format!("{r:.1}/s"),
        r => format!("{r:.0}/s"),
    }
}

/// "45 s", "11 min", "2.5 h".
fn span(secs: f64) -> String {
    match secs {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5400.0 => format!("{:.0} min", s / 60.0),
        s => format!("{:.1} h", s / 3600.0),
    }
}

/// Judges each tier that [`forecast`] could not, once, after [`JUDGE_AFTER`] of worker
/// time: a note when what it still lacks will take longer than [`SLOW`] at its pace so far.
pub struct Pace {
    workers: usize,
    /// Tiers judged already (by the forecast or here).
    judged: RefCell<HashSet<Key>>,
}

impl Pace {
    /// Judges the tiers not in `judged`, for a run on `workers` workers.
    pub fn new(workers: usize, judged: HashSet<Key>) -> Pace {
        Pace {
            workers,
            judged: RefCell::new(judged),
        }
    }

    /// The note for a tier whose first seconds show it slow, once; `None` otherwise.
    pub fn update(&self, s: &TierStatus) -> Option<String> {
        if s.worker_time < JUDGE_AFTER || s.accepted >= s.wanted {
            return None;
        }
        if !self
            .judged
            .borrow_mut()
            .insert((s.geometry, s.tier.to_string()))
        {
            return None;
        }
        let wall = s.worker_time.as_secs_f64() / self.workers.max(1) as f64;
        let rate = s.accepted as f64 / wall;
        let lacking = s.wanted - s.accepted;
        if !too_long(lacking, rate) {
            return None;
        }
        let why = match s.accepted {
            0 => format!(
                "no puzzle yet from {} attempts in {wall:.1} s",
                s.counts.attempts
            ),
            _ => format!(
                "{} of {} in {wall:.1} s, about {} more at {}",
                s.accepted,
                s.wanted,
                span(lacking as f64 / rate),
                per_second(rate)
            ),
        };
        Some(format!(
            "{} {} is slow: {why}",
            s.geometry.short_label(),
            s.tier
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::RunCounts;

    /// A 16x16 medium tier's outcome of a run on 2 workers.
    fn outcome(accepted: u64, worker_ms: u64) -> TierOutcome {
        TierOutcome {
            size: 16,
            variant: crate::grid::Variant::Classic,
            tier: "medium".into(),
            wanted: 20,
            counts: crate::bank::RunCounts {
                accepted,
                ..Default::default()
            },
            worker_ms,
            workers: 2,
        }
    }

    fn status(accepted: u64, wanted: u64, worker_secs: u64) -> (RunCounts, Duration, u64, u64) {
        let counts = RunCounts {
            accepted,
            attempts: 500,
            ..Default::default()
        };
        (counts, Duration::from_secs(worker_secs), accepted, wanted)
    }

    fn judge(
        pace: &Pace,
        (counts, worker_time, accepted, wanted): (RunCounts, Duration, u64, u64),
    ) -> Option<String> {
        let g = Geometry::for_size(16).unwrap();
        pace.update(&TierStatus {
            geometry: g,
            tier: "medium",
            accepted,
            wanted,
            counts: &counts,
            worker_time,
        })
    }

    #[test]
    fn a_slow_tier_is_named_once_after_its_first_seconds() {
        let pace = Pace::new(2, HashSet::new());
        assert_eq!(judge(&pace, status(1, 200, 4)), None, "too early to judge");
        let note = judge(&pace, status(3, 200, 10)).expect("slow: 3 in 5 s");
        assert_eq!(
            note,
            "16x16 medium is slow: 3 of 200 in 5.0 s, about 5 min more at 0.60/s"
        );
        assert_eq!(judge(&pace, status(4, 200, 12)), None, "said once");
        let pace = Pace::new(2, HashSet::new());
        let none = judge(&pace, status(0, 200, 10)).unwrap();
        assert_eq!(
            none,
            "16x16 medium is slow: no puzzle yet from 500 attempts in 5.0 s"
        );
    }

    #[test]
    fn a_fast_tier_or_one_forecast_already_is_not_named() {
        let pace = Pace::new(2, HashSet::new());
        assert_eq!(judge(&pace, status(150, 200, 10)), None);
        let g = Geometry::for_size(16).unwrap();
        let pace = Pace::new(2, HashSet::from([(g, "medium".to_string())]));
        assert_eq!(judge(&pace, status(0, 200, 10)), None);
    }

    #[test]
    fn history_gives_the_rate_on_this_runs_workers() {
        // 20 in 67.7 s of wall time on 2 workers: 0.148/s a worker.
        let g = Geometry::for_size(16).unwrap();
        let last = outcome(20, 135_400);
        assert_eq!(
            slow_before(g, "medium", 200, &last, 2).unwrap(),
            "16x16 medium is slow: about 11 min for 200 puzzles at 0.30/s (its last run \
             made 20 in 67.7 s)"
        );
        assert_eq!(
            slow_before(g, "medium", 200, &last, 100),
            None,
            "on 100 workers it is quick"
        );
        assert_eq!(
            slow_before(g, "medium", 5, &outcome(0, 20_000), 2).unwrap(),
            "16x16 medium is slow: none in its last run, 5 wanted (its last run made 0 in \
             10.0 s)"
        );
        assert_eq!(span(45.0), "45 s");
        assert_eq!(span(7200.0), "2.0 h");
    }
}
