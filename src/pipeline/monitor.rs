//! The timeout monitor: a sliding window of recent attempts per tier.

use std::collections::VecDeque;

/// Sliding window of attempt outcomes (timed out or not).
#[derive(Debug)]
pub struct Monitor {
    window: VecDeque<bool>,
    size: usize,
    threshold: f64,
}

/// A full window with too many timeouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alarm {
    /// Window length.
    pub window: usize,
    /// Timeouts in it.
    pub timeouts: usize,
}

impl Monitor {
    /// A monitor over the last `size` attempts that alarms above `threshold` timed out.
    pub fn new(size: usize, threshold: f64) -> Monitor {
        Monitor {
            window: VecDeque::with_capacity(size),
            size,
            threshold,
        }
    }

    /// Records one attempt; returns an alarm (and clears the window) when the full window
    /// holds more than the threshold share of timeouts.
    pub fn record(&mut self, timed_out: bool) -> Option<Alarm> {
        if self.window.len() == self.size {
            self.window.pop_front();
        }
        self.window.push_back(timed_out);
        let timeouts = self.window.iter().filter(|&&t| t).count();
        if self.window.len() == self.size && timeouts as f64 > self.threshold * self.size as f64 {
            self.window.clear();
            return Some(Alarm {
                window: self.size,
                timeouts,
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_percent_is_not_more_than_thirty() {
        let mut m = Monitor::new(100, 0.30);
        for i in 0..100 {
            assert_eq!(m.record(i % 10 < 3), None);
        }
    }

    #[test]
    fn alarms_when_window_is_full_and_clears() {
        let mut m = Monitor::new(10, 0.30);
        for _ in 0..9 {
            assert_eq!(m.record(true), None, "window not full yet");
        }
        assert_eq!(
            m.record(true),
            Some(Alarm {
                window: 10,
                timeouts: 10
            })
        );
        assert_eq!(m.record(true), None, "cleared after the alarm");
    }

    #[test]
    fn old_timeouts_slide_out() {
        let mut m = Monitor::new(10, 0.30);
        for _ in 0..3 {
            m.record(true);
        }
        for _ in 0..20 {
            assert_eq!(m.record(false), None);
        }
        for _ in 0..3 {
            assert_eq!(m.record(true), None);
        }
        assert!(m.record(true).is_some());
    }
}
