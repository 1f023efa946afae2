//! What `bank stats` shows, as values any backend fills in.

use super::row::stored_row;
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

stored_row! {
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
}

stored_row! {
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
}

stored_row! {
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
}

stored_row! {
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
}

stored_row! {
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
}

/// The columns [`AlarmRow::read`] reads, in order.
pub const ALARM_COLUMNS: &str =
    "run_id, at, size, variant, tier, timeouts_in_window, window_size, old_target, new_target";
