//! What `bank stats` shows, as values any backend fills in.

use super::RunCounts;
use serde::Serialize;

/// The bank's counts, recent runs and alarms.
#[derive(Serialize)]
pub struct Stats {
    pub total: u64,
    pub by_tier: Vec<TierCount>,
    pub variety: Vec<Variety>,
    pub clue_histogram: Vec<ClueCount>,
    pub runs: Vec<RunRow>,
    pub alarms: Vec<AlarmRow>,
}

/// Puzzles of one size and tier.
#[derive(Serialize)]
pub struct TierCount {
    pub size: u32,
    /// The variant.
    pub variant: crate::grid::Variant,
    pub tier: String,
    pub puzzles: u64,
    pub unserved: u64,
    /// The config's quota for it (unserved puzzles wanted), filled in by the caller.
    pub quota: Option<u64>,
}

/// What is different among the puzzles of one size and tier.
#[derive(Serialize)]
pub struct Variety {
    pub size: u32,
    /// The variant.
    pub variant: crate::grid::Variant,
    pub tier: String,
    /// Distinct solution grids up to the sudoku group.
    pub solution_classes: u64,
    /// Puzzles of the most common class.
    pub largest_class: u64,
    /// Distinct digging strategies.
    pub dig_strategies: u64,
    /// Distinct solution-grid routes.
    pub routes: u64,
}

/// Puzzles of one size, tier and clue count.
#[derive(Serialize)]
pub struct ClueCount {
    pub size: u32,
    /// The variant.
    pub variant: crate::grid::Variant,
    pub tier: String,
    pub clues: u32,
    pub puzzles: u64,
}

/// One run.
#[derive(Serialize)]
pub struct RunRow {
    pub id: i64,
    pub started_at: String,
    pub status: String,
    pub seed: String,
    #[serde(flatten)]
    pub counts: RunCounts,
    pub message: Option<String>,
    /// What it made of each tier and how long each took (empty: not recorded).
    pub tiers: Vec<super::TierOutcome>,
}

impl RunRow {
    /// A row of `id, started_at, status, run_seed, COUNTERS, message, tiers`.
    pub fn read(r: &impl super::columns::ReadRow) -> anyhow::Result<RunRow> {
        Ok(RunRow {
            id: r.number(0)?,
            started_at: r.string(1)?,
            status: r.string(2)?,
            seed: r.string(3)?,
            counts: super::columns::read_counts(r, 4)?,
            message: r.text(11)?,
            tiers: super::TierOutcome::from_json(r.text(12)?.as_deref()),
        })
    }
}

/// One alarm.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AlarmRow {
    pub run_id: i64,
    pub at: String,
    pub size: u32,
    pub variant: crate::grid::Variant,
    pub tier: String,
    pub timeouts_in_window: u32,
    pub window_size: u32,
    pub old_target: u32,
    pub new_target: Option<u32>,
}

/// The columns [`AlarmRow::read`] reads, in order.
pub const ALARM_COLUMNS: &str =
    "run_id, at, size, tier, timeouts_in_window, window_size, old_target, new_target, variant";

impl AlarmRow {
    /// A row of [`ALARM_COLUMNS`].
    pub fn read(r: &impl super::columns::ReadRow) -> anyhow::Result<AlarmRow> {
        Ok(AlarmRow {
            run_id: r.number(0)?,
            at: r.string(1)?,
            size: r.number(2)?,
            tier: r.string(3)?,
            timeouts_in_window: r.number(4)?,
            window_size: r.number(5)?,
            old_target: r.number(6)?,
            new_target: r.opt_number(7)?,
            variant: r.string(8)?.parse()?,
        })
    }

    /// Its values in [`ALARM_COLUMNS`] order.
    pub fn values(&self) -> Vec<super::columns::Value> {
        use super::columns::Value;
        vec![
            Value::Int(Some(self.run_id)),
            Value::Text(Some(self.at.clone())),
            Value::Int(Some(self.size.into())),
            Value::Text(Some(self.tier.clone())),
            Value::Int(Some(self.timeouts_in_window.into())),
            Value::Int(Some(self.window_size.into())),
            Value::Int(Some(self.old_target.into())),
            Value::Int(self.new_target.map(i64::from)),
            Value::Text(Some(self.variant.name().to_string())),
        ]
    }
}
