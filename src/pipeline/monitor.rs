//! The timeout monitor and the alarm policy: a sliding window of a tier's recent attempts,
//! and the tier's clue target, which an alarm raises (an easier dig) within the tier's
//! range.

use crate::config::AlarmPolicy;
use std::collections::VecDeque;

/// A tier's window of attempt outcomes (timed out or not) and its current clue target.
#[derive(Debug)]
pub struct Monitor {
    window: VecDeque<bool>,
    policy: AlarmPolicy,
    target: usize,
    max_target: usize,
}

/// A full window with too many timeouts, and what it did to the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alarm {
    /// Window length.
    pub window: usize,
    /// Timeouts in it.
    pub timeouts: usize,
    /// The target the alarm found.
    pub old_target: usize,
    /// The target after it; `None` when it was already at the top of the range.
    pub new_target: Option<usize>,
}

/// What the tier's fill does after an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Go on as before.
    Keep,
    /// Go on at the alarm's new target.
    Raise(Alarm),
    /// Stop the run: the target is at the top of its range and still times out.
    GiveUp(Alarm),
}

impl Monitor {
    /// A monitor for a tier whose clue target starts at `low` and may rise to `high`.
    pub fn new(policy: AlarmPolicy, (low, high): (usize, usize)) -> Monitor {
        Monitor {
            window: VecDeque::with_capacity(policy.window),
            policy,
            target: low,
            max_target: high,
        }
    }

    /// The clue target new attempts dig to.
    pub fn target(&self) -> usize {
        self.target
    }

    /// Records one attempt made at `attempt_target`. When the full window holds more than
    /// the threshold share of timeouts, it is cleared and the target rises by the policy's
    /// step from the higher of the attempt's and the current one, capped at the range's top.
    pub fn record(&mut self, timed_out: bool, attempt_target: usize) -> Decision {
        let size = self.policy.window;
        if self.window.len() == size {
            self.window.pop_front();
        }
        self.window.push_back(timed_out);
        let timeouts = self.window.iter().filter(|&&t| t).count();
        if self.window.len() < size || timeouts as f64 <= self.policy.threshold * size as f64 {
            return Decision::Keep;
        }
        self.window.clear();
        let old = attempt_target.max(self.target);
        let new = old.saturating_add(self.policy.step).min(self.max_target);
        let mut alarm = Alarm {
            window: size,
            timeouts,
            old_target: old,
            new_target: None,
        };
        if new > old {
            self.target = new;
            alarm.new_target = Some(new);
            Decision::Raise(alarm)
        } else {
            Decision::GiveUp(alarm)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn monitor(window: usize, range: (usize, usize)) -> Monitor {
        let policy = AlarmPolicy {
            window,
            threshold: 0.30,
            step: 2,
        };
        Monitor::new(policy, range)
    }

    #[test]
    fn thirty_percent_is_not_more_than_thirty() {
        let mut m = monitor(100, (25, 30));
        for i in 0..100 {
            assert_eq!(m.record(i % 10 < 3, 25), Decision::Keep);
        }
    }

    #[test]
    fn alarms_when_window_is_full_and_clears() {
        let mut m = monitor(10, (25, 30));
        for _ in 0..9 {
            assert_eq!(m.record(true, 25), Decision::Keep, "window not full yet");
        }
        assert_eq!(
            m.record(true, 25),
            Decision::Raise(Alarm {
                window: 10,
                timeouts: 10,
                old_target: 25,
                new_target: Some(27),
            })
        );
        assert_eq!(m.target(), 27);
        assert_eq!(
            m.record(true, 27),
            Decision::Keep,
            "cleared after the alarm"
        );
    }

    #[test]
    fn old_timeouts_slide_out() {
        let mut m = monitor(10, (25, 30));
        for _ in 0..3 {
            m.record(true, 25);
        }
        for _ in 0..20 {
            assert_eq!(m.record(false, 25), Decision::Keep);
        }
        for _ in 0..3 {
            assert_eq!(m.record(true, 25), Decision::Keep);
        }
        assert!(matches!(m.record(true, 25), Decision::Raise(_)));
    }

    #[test]
    fn target_rises_from_the_later_of_attempt_and_tier_and_stops_at_the_top() {
        let mut m = monitor(1, (25, 30));
        // An attempt handed out before an earlier alarm raised the target counts from
        // the current target, not its own.
        assert!(matches!(m.record(true, 25), Decision::Raise(a) if a.new_target == Some(27)));
        assert!(
            matches!(m.record(true, 25), Decision::Raise(a) if a.old_target == 27 && a.new_target == Some(29))
        );
        // The step is capped at the top of the range...
        assert!(matches!(m.record(true, 29), Decision::Raise(a) if a.new_target == Some(30)));
        // ...and an alarm there gives up.
        assert_eq!(
            m.record(true, 30),
            Decision::GiveUp(Alarm {
                window: 1,
                timeouts: 1,
                old_target: 30,
                new_target: None
            })
        );
        assert_eq!(m.target(), 30);
    }
}
