//! The run's progress over time: attempt durations gathered between samples, and a
//! [`Sample`] of the counters about once a second, stored with the next batch.

use crate::bank::samples::AttemptTimes;
use crate::bank::RunCounts;
use crate::bank::Sample;
use std::time::{Duration, Instant};

/// Time between two samples: fine enough for a chart of a minutes-long run, a row a
/// second for the bank (nothing next to the thousands of puzzles a second it stores).
pub const SAMPLE_INTERVAL: Duration = Duration::from_secs(1);

/// Gathers attempt durations and says when a sample is due.
pub struct Sampler {
    started: Instant,
    last: Instant,
    times: AttemptTimes,
}

impl Sampler {
    /// A sampler for a run that started at `started`.
    pub fn new(started: Instant) -> Sampler {
        Sampler {
            started,
            last: started,
            times: AttemptTimes::default(),
        }
    }

    /// Counts one attempt's duration.
    pub fn attempt(&mut self, took: Duration) {
        self.times.record(took);
    }

    /// A sample of `counts` and the attempts since the last one, if one is due
    /// ([`SAMPLE_INTERVAL`] since the last) or `last` (the run's final sample, when any
    /// attempt happened since the previous one).
    pub fn take(&mut self, counts: RunCounts, last: bool) -> Option<Sample> {
        let now = Instant::now();
        let due = now.duration_since(self.last) >= SAMPLE_INTERVAL;
        if !(due || last && self.times.total() > 0) {
            return None;
        }
        self.last = now;
        Some(Sample {
            elapsed_ms: now.duration_since(self.started).as_millis() as u64,
            counts,
            attempt_times: std::mem::take(&mut self.times),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_come_when_due_and_carry_the_attempts_since_the_last() {
        let started = Instant::now() - Duration::from_secs(5);
        let mut s = Sampler::new(started);
        s.attempt(Duration::from_micros(300));
        let first = s.take(RunCounts::default(), false).expect("due after 5 s");
        assert_eq!(first.attempt_times.total(), 1);
        assert!(first.elapsed_ms >= 5000);
        assert!(
            s.take(RunCounts::default(), false).is_none(),
            "not due again yet"
        );
        assert!(
            s.take(RunCounts::default(), true).is_none(),
            "nothing new to close with"
        );
        s.attempt(Duration::from_micros(300));
        assert_eq!(
            s.take(RunCounts::default(), true)
                .unwrap()
                .attempt_times
                .total(),
            1
        );
    }
}
