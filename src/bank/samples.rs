//! How long a run's attempts took: the histogram each `run_samples` row carries (the row
//! itself is a [`super::Sample`], written and read in `columns.rs`), for `bank report`.

use super::row::{Column, ReadRow, Value};
use anyhow::{Context, Result};
use std::time::Duration;

/// Buckets a doubling of time is split into: quantiles read from the histogram are
/// within a factor 2^(1/4) (±9 %) of the true ones.
const PER_DOUBLING: f64 = 4.0;
/// The last bucket holds everything from 2^26 µs (67 s) up.
const BUCKETS: usize = 26 * 4 + 1;

/// Attempt durations, counted in buckets of a quarter doubling of microseconds: bucket
/// `k` holds durations from 2^(k/4) µs up to 2^((k+1)/4) µs (bucket 0 also the shorter
/// ones). Histograms of different samples, runs or machines add up exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AttemptTimes {
    counts: Vec<u64>,
}

impl AttemptTimes {
    /// Counts one attempt.
    pub fn record(&mut self, took: Duration) {
        let us = took.as_secs_f64() * 1e6;
        let k = if us <= 1.0 {
            0
        } else {
            ((us.log2() * PER_DOUBLING) as usize).min(BUCKETS - 1)
        };
        if self.counts.len() <= k {
            self.counts.resize(k + 1, 0);
        }
        self.counts[k] += 1;
    }

    /// Adds another histogram's counts.
    pub fn add(&mut self, other: &AttemptTimes) {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
    }

    /// Attempts counted.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The `q` quantile (0 to 1), as the geometric middle of its bucket; `None` when
    /// nothing was counted.
    pub fn quantile(&self, q: f64) -> Option<Duration> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        let k = self.counts.iter().position(|&c| {
            seen += c;
            seen >= rank
        })?;
        Some(Duration::from_secs_f64(bucket_middle_us(k) / 1e6))
    }

    /// `(lower bound µs, upper bound µs, count)` of every bucket from the first to the
    /// last non-empty one.
    pub fn buckets(&self) -> Vec<(f64, f64, u64)> {
        let first = self.counts.iter().position(|&c| c > 0).unwrap_or(0);
        (first..self.counts.len())
            .map(|k| (bucket_low_us(k), bucket_low_us(k + 1), self.counts[k]))
            .collect()
    }

    /// The stored form: a JSON array of counts, trailing empty buckets left out.
    pub fn to_json(&self) -> String {
        let end = self
            .counts
            .iter()
            .rposition(|&c| c > 0)
            .map_or(0, |k| k + 1);
        serde_json::to_string(&self.counts[..end]).expect("numbers serialise")
    }

    /// Reads [`AttemptTimes::to_json`]'s form.
    pub fn from_json(text: &str) -> Result<AttemptTimes> {
        let counts: Vec<u64> =
            serde_json::from_str(text).context("attempt_times is not a JSON array of counts")?;
        anyhow::ensure!(
            counts.len() <= BUCKETS,
            "attempt_times has {} buckets, at most {BUCKETS} exist",
            counts.len()
        );
        Ok(AttemptTimes { counts })
    }
}

fn bucket_low_us(k: usize) -> f64 {
    if k == 0 {
        0.0
    } else {
        (k as f64 / PER_DOUBLING).exp2()
    }
}

fn bucket_middle_us(k: usize) -> f64 {
    ((k as f64 + 0.5) / PER_DOUBLING).exp2()
}

/// As [`AttemptTimes::to_json`]'s text.
impl Column for AttemptTimes {
    fn read_at(r: &impl ReadRow, first: usize) -> Result<Self> {
        AttemptTimes::from_json(&r.string(first)?)
    }
    fn push_values(&self, out: &mut Vec<Value>) {
        out.push(Value::Text(Some(self.to_json())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_fall_in_the_right_bucket_and_histograms_add_up() {
        let mut a = AttemptTimes::default();
        for us in 1..=1000u64 {
            a.record(Duration::from_micros(us));
        }
        let median = a.quantile(0.5).unwrap().as_secs_f64() * 1e6;
        assert!((500.0 / 1.1..500.0 * 1.1).contains(&median), "{median}");
        let p99 = a.quantile(0.99).unwrap().as_secs_f64() * 1e6;
        assert!((990.0 / 1.1..990.0 * 1.1).contains(&p99), "{p99}");
        let mut b = AttemptTimes::default();
        b.record(Duration::from_secs(3600));
        b.add(&a);
        assert_eq!(b.total(), 1001);
        assert_eq!(AttemptTimes::from_json(&b.to_json()).unwrap(), b);
        assert!(AttemptTimes::default().quantile(0.5).is_none());
        assert!(AttemptTimes::from_json("[1,2").is_err());
        assert!(AttemptTimes::from_json(&format!("{:?}", vec![1; 200])).is_err());
    }
}
