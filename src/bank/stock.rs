//! The bank as a stock: what apps draw (`take`, the puzzle of the day), what the nightly
//! job refills (quotas count unserved puzzles), and what `prune` retires for good.

use super::row::stored_row;
use serde::Serialize;

stored_row! {
    /// Puzzles of one size and tier, and how many of them are still in stock.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct StockLevel {
        /// Grid side.
        pub size: usize,
        /// The variant.
        pub variant: crate::grid::Variant,
        /// Tier name.
        pub tier: String,
        /// Stored puzzles, served or not.
        pub puzzles: u64,
        /// Not yet handed out: the stock a quota is about.
        pub unserved: u64,
        /// Handed out at or after the `since` time asked for (0 without one).
        pub served_since: u64,
    }
}

/// What `take` asks for: `count` unserved puzzles of one size, variant and tier.
#[derive(Clone, Debug)]
pub struct Claim {
    /// Grid side.
    pub size: usize,
    /// The variant.
    pub variant: crate::grid::Variant,
    /// Tier name.
    pub tier: String,
    /// How many at most.
    pub count: u64,
    /// Written to `served_to`.
    pub client: Option<String>,
}

/// The key of a puzzle of the day.
#[derive(Clone, Debug)]
pub struct Day {
    /// `YYYY-MM-DD`.
    pub date: crate::date::Date,
    /// Grid side.
    pub size: usize,
    /// The variant: each has its own puzzle of the day.
    pub variant: crate::grid::Variant,
    /// Tier name.
    pub tier: String,
}

impl Day {
    /// What `served_to` says of a day's puzzle.
    pub fn served_to(&self) -> String {
        format!("daily {}", self.date)
    }
}

/// What `prune` did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pruned {
    /// Puzzles deleted (their fingerprints retired).
    pub deleted: u64,
    /// Served puzzles old enough but kept because they are some day's puzzle.
    pub kept_daily: u64,
    /// Base grids no puzzle uses any more, deleted with them.
    pub base_grids: u64,
}

stored_row! {
    /// A fingerprint `prune` retired.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct Retired {
        /// As `puzzles.fingerprint`.
        pub fingerprint: String,
        /// Grid side.
        pub size: usize,
        /// Tier name.
        pub tier: String,
        /// When the puzzle was served.
        pub served_at: Option<String>,
        /// When it was pruned.
        pub retired_at: String,
    }
}

stored_row! {
    /// A recorded puzzle of the day, by the puzzle's fingerprint (ids differ between banks).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct DayRecord {
        /// `YYYY-MM-DD`.
        pub day: String,
        /// Grid side.
        pub size: usize,
        /// The variant.
        pub variant: crate::grid::Variant,
        /// Tier name.
        pub tier: String,
        /// The day's puzzle.
        pub fingerprint: String,
    }
}

/// Every retired fingerprint, oldest first, as [`Retired::read`] reads them.
pub const RETIRED_QUERY: &str = "SELECT fingerprint, size, tier, served_at, retired_at
     FROM retired_fingerprints ORDER BY retired_at, fingerprint";

/// Every day's puzzle, as [`DayRecord::read`] reads them.
pub const DAYS_QUERY: &str = "SELECT d.day, d.size, d.variant, d.tier, p.fingerprint FROM daily d
     JOIN puzzles p ON p.id = d.puzzle_id ORDER BY d.day, d.size, d.variant, d.tier";
