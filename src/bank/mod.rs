//! Storage: the bank behind one interface, [`Store`], that the pipeline and the commands
//! use. SQLite ([`sqlite`]) is the embedded default; PostgreSQL ([`postgres`]) holds one
//! bank for many machines. `--db` says which ([`Location`]); no caller knows the backend.
//!
//! Only the writer thread of a fill holds a store for writing; readers (`show`, `stats`,
//! `reproduce`) open their own.

pub mod columns;
pub mod liveness;
mod location;
pub mod merge;
pub mod postgres;
pub mod quota;
mod record;
pub mod row;
pub mod samples;
pub mod sqlite;
pub mod stats;
pub mod stock;

pub use record::{
    AlarmRecord, BaseGridRecord, Batch, PuzzleRecord, RatingRecord, RunCounts, RunEnd, RunRecord,
    RunStatus, Sample, SampleRow, Source, StoredCages, StoredPuzzle, TierOutcome,
};
pub use sqlite::SCHEMA_VERSION;

use anyhow::Result;
use quota::{Inserted, StockCaps};
use std::collections::{HashMap, HashSet};
use stock::{Claim, Day, DayRecord, Pruned, Retired, StockLevel};

pub use location::{Location, PostgresUrl};

/// An open bank: any backend, boxed, so it can move to the writer thread.
pub type Bank = Box<dyn Store>;

/// What the program asks of a bank.
pub trait Store: Send {
    /// Marks runs left `running` by a process of this host that no longer exists as
    /// `interrupted`; returns how many. Runs of live processes (a concurrent fill) and of
    /// other hosts are left alone.
    fn close_stale_runs(&self) -> Result<usize>;

    /// Records a new run and returns its id.
    fn start_run(&self, run_seed: u64, config_json: &str, generator_version: u32) -> Result<i64>;

    /// Refreshes a running run's heartbeat (its counters do so with every batch).
    fn heartbeat(&self, run_id: i64) -> Result<()>;

    /// Closes a run with its final status, counters, message and tiers.
    fn finish_run(&self, run_id: i64, end: &RunEnd) -> Result<()>;

    /// What the last `runs` runs that recorded their tiers made of each, newest run
    /// first (a fill's expected rate per tier).
    fn recent_tiers(&self, runs: usize) -> Result<Vec<TierOutcome>>;

    /// Stores a batch in one transaction. Says, per puzzle, whether it was new, a
    /// duplicate by fingerprint (stored first by another process), or surplus: past the
    /// quota `caps` gives its size and tier ([`quota`]; empty caps store everything).
    fn insert_batch(&mut self, run_id: i64, batch: &Batch, caps: &StockCaps) -> Result<Inserted>;

    /// The 16-byte prefixes of every stored or retired fingerprint, for duplicate checks
    /// in memory.
    fn fingerprint_prefixes(&self) -> Result<HashSet<[u8; 16]>>;

    /// The 16-byte prefixes of every stored full fingerprint (`dedup = "full"`).
    fn full_fingerprint_prefixes(&self) -> Result<HashSet<[u8; 16]>>;

    /// Puzzles per solution class (16-byte prefixes of the class hashes), for a cap.
    fn class_counts(&self) -> Result<HashMap<[u8; 16], u32>>;

    /// Per size and tier: stored, unserved, and served at or after `since` (UTC text).
    fn stock(&self, since: Option<&str>) -> Result<Vec<StockLevel>>;

    /// When the newest run started (`None`: no run yet).
    fn last_run_start(&self) -> Result<Option<String>>;

    /// Hands out up to `claim.count` unserved puzzles, marking them served in the same
    /// transaction; concurrent claims never get the same puzzle. Id order.
    fn take(&mut self, claim: &Claim) -> Result<Vec<StoredPuzzle>>;

    /// The puzzle of a day: recorded the first time it is asked (taken out of the stock),
    /// the same one afterwards; with whether it was chosen now. `None`: no stock to choose
    /// from.
    fn daily(&mut self, day: &Day) -> Result<Option<(StoredPuzzle, bool)>>;

    /// Deletes puzzles served before `before`, keeping their fingerprints retired.
    fn prune(&mut self, before: &str) -> Result<Pruned>;

    /// Every retired fingerprint.
    fn retired(&self) -> Result<Vec<Retired>>;

    /// Adds retired fingerprints; returns how many were new.
    fn retire(&mut self, fingerprints: &[Retired]) -> Result<u64>;

    /// Every recorded puzzle of the day.
    fn days(&self) -> Result<Vec<DayRecord>>;

    /// Records days' puzzles (from another bank) whose puzzle is stored here and whose
    /// day, size and tier have none yet; returns how many were new.
    fn record_days(&mut self, days: &[DayRecord]) -> Result<u64>;

    /// Every run, in id order.
    fn runs(&self) -> Result<Vec<RunRecord>>;

    /// Stores a copy of another bank's run; returns its id here.
    fn copy_run(&self, run: &RunRecord) -> Result<i64>;

    /// Every alarm, in id order.
    fn alarms(&self) -> Result<Vec<stats::AlarmRow>>;

    /// Stores copies of another bank's alarms, their run ids already this bank's.
    fn copy_alarms(&mut self, alarms: &[stats::AlarmRow]) -> Result<u64>;

    /// The samples of runs `first_run` and later, by run and time.
    fn samples(&self, first_run: i64) -> Result<Vec<SampleRow>>;

    /// Stores copies of another bank's samples, their run ids already this bank's.
    fn copy_samples(&mut self, samples: &[SampleRow]) -> Result<u64>;

    /// A stored puzzle with its base grid, or `None` for an unknown id.
    fn puzzle(&self, id: i64) -> Result<Option<StoredPuzzle>>;

    /// Calls `visit` on each stored puzzle that `filter` selects, streaming (memory stays
    /// flat whatever the count). Stops at the first error `visit` returns.
    fn scan(
        &self,
        filter: &PuzzleFilter,
        visit: &mut dyn FnMut(StoredPuzzle) -> Result<()>,
    ) -> Result<()>;

    /// How many puzzles `filter` selects.
    fn count(&self, filter: &PuzzleFilter) -> Result<u64>;

    /// Counts per size and tier, clue histograms, the last `runs` runs and recent alarms.
    fn stats(&self, runs: usize) -> Result<stats::Stats>;
}

/// Opens (creating if needed) the bank at `location` for writing, migrating its schema.
pub fn open(location: &Location) -> Result<Bank> {
    Ok(match location {
        Location::Sqlite(path) => Box::new(sqlite::SqliteBank::open(path)?),
        Location::Postgres(url) => Box::new(postgres::PostgresBank::open(url)?),
    })
}

/// Opens an existing bank for writing (`take`, `daily`, `prune`): a mistyped SQLite path
/// is an error rather than a new empty bank; the schema is migrated as [`open`] does.
pub fn open_to_serve(location: &Location) -> Result<Bank> {
    if let Location::Sqlite(path) = location {
        sqlite::SqliteBank::check_exists(path)?;
    }
    open(location)
}

/// Opens an existing bank read-only (for `show`, `stats`, `reproduce`, `export`).
pub fn open_existing(location: &Location) -> Result<Bank> {
    Ok(match location {
        Location::Sqlite(path) => Box::new(sqlite::SqliteBank::open_existing(path)?),
        Location::Postgres(url) => Box::new(postgres::PostgresBank::open_existing(url)?),
    })
}

/// Which puzzles `scan` visits.
#[derive(Clone, Debug, Default)]
pub struct PuzzleFilter {
    /// Only this tier.
    pub tier: Option<String>,
    /// Only this grid side.
    pub size: Option<usize>,
    /// Only this variant.
    pub variant: Option<crate::grid::Variant>,
    /// At most this many.
    pub limit: Option<u64>,
    /// A random sample rather than id order.
    pub random_order: bool,
    /// Only puzzles not yet handed out.
    pub unserved: bool,
    /// Only puzzles stored by runs with ids in this range (inclusive).
    pub runs: Option<(i64, i64)>,
}

impl PuzzleFilter {
    /// The run range as bounds a query can bind (all runs when unset).
    pub fn run_bounds(&self) -> (i64, i64) {
        self.runs.unwrap_or((i64::MIN, i64::MAX))
    }

    /// The `ORDER BY` of a scan (`random()` is the same function in both backends).
    pub fn order_by(&self) -> &'static str {
        if self.random_order {
            "random()"
        } else {
            "p.id"
        }
    }
}

/// The first 16 bytes of a hex fingerprint.
pub fn fingerprint_prefix(hex: &str) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = hex
            .get(2 * i..2 * i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_parses_hex() {
        let p = fingerprint_prefix("00ff10");
        assert_eq!(&p[..3], &[0, 255, 16]);
    }
}
