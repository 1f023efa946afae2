//! What the bank stores, as domain types: one puzzle record written by the fill and
//! import and read back by every reader, runs, alarms. Conversions to and from column
//! text live here and nowhere else.

use super::row::{stored_row, Column, ReadRow, Value};
use super::samples::AttemptTimes;
use crate::generate::{CageSizes, Route, Strategy};
use crate::grid::{parse_cells_with, Cages, Geometry, Grid, Regions, Variant};
use anyhow::{anyhow, bail, Context, Result};
use serde::{Serialize, Serializer};
use std::sync::Arc;

/// Where a puzzle came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Made by this program: it has a base grid, strategy and seed.
    Generated,
    /// Read from outside (`bank import`).
    Import,
}

impl Source {
    /// The column text.
    pub fn name(self) -> &'static str {
        match self {
            Source::Generated => "generated",
            Source::Import => "import",
        }
    }

    /// The source of a column text (anything but `import` counts as generated).
    pub fn from_name(text: &str) -> Source {
        if text == "import" {
            Source::Import
        } else {
            Source::Generated
        }
    }
}

/// The solution grid a puzzle was dug from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BaseGridRecord {
    /// Content hash (blake3 of size, box shape, cells).
    #[serde(rename = "base_grid_id")]
    pub id: String,
    /// The route that built it.
    #[serde(serialize_with = "route_name")]
    pub route: Route,
    /// Seed of the route's stream.
    #[serde(rename = "grid_seed", serialize_with = "seed_text")]
    pub seed: u64,
    /// Seed of the mother grid (transform route only).
    #[serde(serialize_with = "optional_seed_text")]
    pub mother_seed: Option<u64>,
    /// One-line grid.
    #[serde(rename = "base_grid")]
    pub grid: String,
}

impl BaseGridRecord {
    /// The `route` column: the pattern route is stored as `transform` without a mother
    /// seed (the column's CHECK predates the name; see migration 4).
    pub fn route_column(&self) -> &'static str {
        match self.route {
            Route::Pattern => Route::Transform.name(),
            other => other.name(),
        }
    }

    /// The route of a `route` column and the mother seed beside it.
    pub fn route_of_columns(column: &str, mother_seed: Option<u64>) -> Result<Route, String> {
        match (column.parse::<Route>()?, mother_seed) {
            (Route::Transform, None) => Ok(Route::Pattern),
            (route, _) => Ok(route),
        }
    }
}

/// One puzzle's columns. Field order is the order `show --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PuzzleRecord {
    /// Generated or imported.
    pub source: Source,
    /// The base grid (`None`: imported).
    #[serde(flatten)]
    pub base: Option<BaseGridRecord>,
    /// Grid shape.
    #[serde(flatten)]
    pub geometry: Geometry,
    /// One-line puzzle.
    pub puzzle: String,
    /// One-line solution.
    pub solution: String,
    /// Filled cells.
    pub clues: usize,
    /// Tier name.
    pub tier: String,
    /// The human-technique rating (`None` for rows stored before schema version 2).
    pub rating: Option<RatingRecord>,
    /// Solver backtracks to prove uniqueness.
    pub backtracks: u64,
    /// Solver guesses to prove uniqueness.
    pub guesses: u64,
    /// Seed of the digging stream (`None`: imported).
    #[serde(serialize_with = "optional_seed_text")]
    pub seed: Option<u64>,
    /// Digging strategy (`None`: imported).
    #[serde(serialize_with = "optional_strategy_name")]
    pub dig_strategy: Option<Strategy>,
    /// The first clue level aimed at (`None`: imported).
    pub target_clues: Option<usize>,
    /// Generator version that made (or rated) it.
    pub generator_version: u32,
    /// Canonical fingerprint (hex).
    pub fingerprint: String,
    /// Fingerprint under the whole sudoku group (`dedup = "full"`; `None` otherwise).
    pub full_fingerprint: Option<String>,
    /// Hash of the full-group minlex form of the solution grid: puzzles with one solution
    /// class are one solution grid in disguise (`None` only before it is computed).
    pub solution_class: Option<String>,
    /// Time of the successful attempt, µs.
    pub generation_us: u64,
    /// When it was handed out (UTC, RFC 3339; `None`: still in stock).
    pub served_at: Option<String>,
    /// To whom: the `--client` of `take`, `daily YYYY-MM-DD`, or what an app wrote.
    pub served_to: Option<String>,
    /// Where it came from when not made in this bank (`merge`, `import` of an export).
    pub origin: Option<String>,
    /// A killer puzzle's cages (`None` for the other variants).
    pub cages: Option<StoredCages>,
    /// A jigsaw puzzle's regions (`None` for the other variants), as their map.
    #[serde(serialize_with = "optional_regions_text")]
    pub regions: Option<Arc<Regions>>,
}

impl PuzzleRecord {
    /// The puzzle as a grid of its geometry, with its cages.
    pub fn puzzle_grid(&self) -> Result<Grid> {
        self.grid_of(&self.puzzle, "puzzle")
    }

    /// The solution as a grid of its geometry, with the puzzle's cages.
    pub fn solution_grid(&self) -> Result<Grid> {
        self.grid_of(&self.solution, "solution")
    }

    fn grid_of(&self, line: &str, what: &str) -> Result<Grid> {
        let grid = parse_cells_with(line, self.geometry)
            .with_context(|| format!("stored {what} is malformed"))?;
        let per_puzzle = self.geometry.variant().rules().regions_per_puzzle();
        let grid = match (&self.regions, per_puzzle) {
            (Some(r), true) => grid.with_regions(r.clone()),
            (None, false) => grid,
            (None, true) => bail!("stored jigsaw {what} has no regions"),
            (Some(_), false) => bail!("stored {} {what} has regions", self.geometry.variant()),
        };
        if let Some(conflict) = grid.find_conflict() {
            bail!("stored {what} is malformed: {conflict}");
        }
        match (&self.cages, self.geometry.variant().has_cages()) {
            (Some(c), true) => Ok(grid.with_cages(c.cages.clone())),
            (None, false) => Ok(grid),
            (None, true) => Err(anyhow!("stored killer {what} has no cages")),
            (Some(_), false) => Err(anyhow!(
                "stored {} {what} has cages",
                self.geometry.variant()
            )),
        }
    }
}

/// A killer puzzle's cages as the bank keeps them, with the sizes they were grown to
/// (for `reproduce`; `None` for imported cages).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredCages {
    /// The cages.
    pub cages: Arc<Cages>,
    /// The range of sizes the fill grew them to.
    pub grown: Option<CageSizes>,
}

impl StoredCages {
    /// The `cages` column: `{"cage_sizes": "2-5", "cages": [{"sum": 3, "cells": ["r1c1",
    /// "r1c2"]}, …]}`.
    pub fn column(&self) -> String {
        serde_json::to_string(self).expect("cages serialise")
    }

    /// Reads a `cages` column of a grid of geometry `g`.
    pub fn from_column(g: Geometry, text: &str) -> Result<StoredCages> {
        let value: serde_json::Value =
            serde_json::from_str(text).context("cages column is not JSON")?;
        let grown = match value.get("cage_sizes").and_then(|v| v.as_str()) {
            Some(sizes) => Some(sizes.parse().map_err(|e: String| anyhow!(e))?),
            None => None,
        };
        let list = value.get("cages").unwrap_or(&value);
        let cages = Cages::from_json(g, list).context("cages column")?;
        Ok(StoredCages {
            cages: Arc::new(cages),
            grown,
        })
    }
}

impl Serialize for StoredCages {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut value = serde_json::json!({ "cages": self.cages.to_json() });
        if let Some(sizes) = self.grown {
            value["cage_sizes"] = serde_json::Value::String(sizes.to_string());
        }
        value.serialize(s)
    }
}

/// A puzzle as stored, with where and when.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StoredPuzzle {
    /// Row id.
    pub id: i64,
    /// Run that made it.
    pub run_id: i64,
    /// Its columns.
    #[serde(flatten)]
    pub record: PuzzleRecord,
    /// When stored (UTC, RFC 3339).
    pub created_at: String,
}

impl std::ops::Deref for StoredPuzzle {
    type Target = PuzzleRecord;
    fn deref(&self) -> &PuzzleRecord {
        &self.record
    }
}

/// The rating columns of a puzzle.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RatingRecord {
    /// SE-scale score, one decimal (a lower bound when not completed).
    pub score: f64,
    /// Name of the hardest technique.
    pub hardest_technique: String,
    /// Whether the rater solved the whole grid.
    pub completed: bool,
    /// JSON object: steps per technique (printed as an object, not as text).
    #[serde(serialize_with = "json_text")]
    pub techniques: String,
}

impl RatingRecord {
    /// The technique counts as a JSON value (the column text parsed; text that is not
    /// JSON stays a string).
    pub fn techniques_json(&self) -> serde_json::Value {
        serde_json::from_str(&self.techniques)
            .unwrap_or_else(|_| serde_json::Value::String(self.techniques.clone()))
    }

    /// The columns for a rating.
    pub fn from_rating(r: &crate::rate::Rating) -> RatingRecord {
        RatingRecord {
            score: (r.score * 10.0).round() / 10.0,
            hardest_technique: r.hardest_name(),
            completed: r.completed,
            techniques: serde_json::to_string(&r.technique_counts()).expect("map serialises"),
        }
    }
}

stored_row! {
    /// Counters of a run, as kept in `runs`.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
    pub struct RunCounts {
        /// Attempts made.
        pub attempts: u64,
        /// Puzzles stored.
        pub accepted: u64,
        /// Puzzles already in the bank (by fingerprint).
        pub duplicates: u64,
        /// Attempts whose puzzle fell outside the tier's band or missed the clue target.
        pub rejected: u64,
        /// Attempts cut by the deadline.
        pub timeouts: u64,
        /// Attempts after the first of a job.
        pub retries: u64,
        /// Alarms raised.
        pub alarms: u64,
    }
}

impl RunCounts {
    /// Adds another's counters to these (a run's are the sum of its tiers').
    pub fn add(&mut self, other: &RunCounts) {
        self.attempts += other.attempts;
        self.accepted += other.accepted;
        self.duplicates += other.duplicates;
        self.rejected += other.rejected;
        self.timeouts += other.timeouts;
        self.retries += other.retries;
        self.alarms += other.alarms;
    }
}

/// An alarm row.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct AlarmRecord {
    /// Grid side.
    pub size: usize,
    /// The tier's variant.
    pub variant: crate::grid::Variant,
    /// Tier name.
    pub tier: String,
    /// Window length.
    pub window_size: usize,
    /// Timed-out attempts in the window.
    pub timeouts_in_window: usize,
    /// Target before.
    pub old_target: usize,
    /// Target after, `None` when it could not move.
    pub new_target: Option<usize>,
}

/// What one transaction stores: puzzles (with their base grids), alarms, and the run's
/// counters after them.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// Accepted puzzles, in job order.
    pub puzzles: Vec<PuzzleRecord>,
    /// Alarms raised.
    pub alarms: Vec<AlarmRecord>,
    /// The run's counters once these are stored (`None`: the run's row is left as it is,
    /// as when `merge` copies another bank's runs).
    pub counts: Option<RunCounts>,
    /// The run's progress over time, for `bank report`.
    pub samples: Vec<Sample>,
}

impl Batch {
    /// Adds a later batch: its puzzles and alarms after these, its counters instead.
    pub fn absorb(&mut self, later: Batch) {
        self.puzzles.extend(later.puzzles);
        self.alarms.extend(later.alarms);
        self.counts = later.counts;
        self.samples.extend(later.samples);
    }

    /// Empties the puzzles, alarms and samples, keeping their buffers.
    pub fn clear(&mut self) {
        self.puzzles.clear();
        self.alarms.clear();
        self.samples.clear();
    }
}

/// How a run ended: what `runs` keeps of it.
#[derive(Clone, Debug)]
pub struct RunEnd {
    /// Final status.
    pub status: RunStatus,
    /// Final counters.
    pub counts: RunCounts,
    /// Why it failed or stopped early.
    pub message: Option<String>,
    /// What it made of each tier (empty: an import, which fills no tier).
    pub tiers: Vec<TierOutcome>,
}

/// What a run made of one size, variant and tier, and the time it took: the `runs.tiers`
/// column holds a run's as a JSON array (`bank stats` shows them; a fill reads the
/// latest to say up front when a tier is slow).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct TierOutcome {
    /// Grid side.
    pub size: usize,
    /// The variant's name.
    pub variant: Variant,
    /// Tier name.
    pub tier: String,
    /// Puzzles asked for.
    pub wanted: u64,
    /// The tier's own counters (`accepted`: stored).
    #[serde(flatten)]
    pub counts: RunCounts,
    /// Time its attempts took, summed over the workers, in ms.
    pub worker_ms: u64,
    /// The run's worker threads.
    pub workers: u32,
}

impl TierOutcome {
    /// The wall-clock time the tier took of its run: its workers' time over their number
    /// (tiers run side by side, so these add up to about the run's time).
    pub fn seconds(&self) -> f64 {
        self.worker_ms as f64 / 1000.0 / f64::from(self.workers.max(1))
    }

    /// Puzzles stored per second of one worker's time (under a millisecond counts as one).
    pub fn rate_per_worker(&self) -> f64 {
        self.counts.accepted as f64 * 1000.0 / self.worker_ms.max(1) as f64
    }

    /// The `runs.tiers` text of a run's tiers.
    pub fn to_json(tiers: &[TierOutcome]) -> Option<String> {
        (!tiers.is_empty()).then(|| serde_json::to_string(tiers).expect("tiers serialize"))
    }

    /// A `runs.tiers` text read back; a text this binary cannot read counts as none (a
    /// newer binary's columns are never an error in `stats`).
    pub fn from_json(text: Option<&str>) -> Vec<TierOutcome> {
        text.and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or_default()
    }
}

/// A run's tiers as one JSON text (NULL: none; unreadable text reads as none).
impl Column for Vec<TierOutcome> {
    fn read_at(r: &impl ReadRow, first: usize) -> Result<Self> {
        Ok(TierOutcome::from_json(r.text(first)?.as_deref()))
    }
    fn push_values(&self, out: &mut Vec<Value>) {
        out.push(Value::Text(TierOutcome::to_json(self)));
    }
}

/// `16x16 medium 200/200 in 2.4 s (83/s); attempts 664, rejected 463, duplicates 0,
/// timeouts 0`: the time is the tier's share of its run ([`TierOutcome::seconds`]).
impl std::fmt::Display for TierOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = &self.counts;
        let secs = self.seconds();
        write!(
            f,
            "{} {} {}/{} in {secs:.1} s ({:.0}/s); attempts {}, rejected {}, duplicates {}, \
             timeouts {}",
            Geometry::short_label_of(self.size, self.variant),
            self.tier,
            c.accepted,
            self.wanted,
            c.accepted as f64 / secs.max(1e-3),
            c.attempts,
            c.rejected,
            c.duplicates,
            c.timeouts
        )
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// Still going (or crashed: fixed on the next open).
    Running,
    /// Made what was asked.
    Completed,
    /// Stopped by a signal or a crash.
    Interrupted,
    /// Stopped by an error or an alarm at the limit.
    Failed,
}

impl RunStatus {
    /// The database name.
    pub fn name(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Completed => "completed",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Failed => "failed",
        }
    }
}

/// Seeds are u64 stored and printed as decimal text, so every value round-trips (JSON
/// readers lose digits above 2^53).
fn seed_text<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(seed)
}

fn optional_regions_text<S: Serializer>(
    regions: &Option<Arc<Regions>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match regions {
        Some(r) => s.serialize_str(&r.to_text()),
        None => s.serialize_none(),
    }
}

fn optional_seed_text<S: Serializer>(seed: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
    match seed {
        Some(v) => s.collect_str(v),
        None => s.serialize_none(),
    }
}

fn json_text<S: Serializer>(text: &str, s: S) -> Result<S::Ok, S::Error> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => v.serialize(s),
        Err(_) => s.serialize_str(text),
    }
}

fn route_name<S: Serializer>(route: &Route, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(route.name())
}

fn optional_strategy_name<S: Serializer>(
    strategy: &Option<Strategy>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match strategy {
        Some(v) => s.serialize_str(v.name()),
        None => s.serialize_none(),
    }
}

stored_row! {
    /// A whole `runs` row, as `merge` copies it from one bank to another.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct RunRecord {
        /// Row id in its bank.
        pub id: i64,
        /// UTC, RFC 3339.
        pub started_at: String,
        /// UTC, RFC 3339 (`None`: still running or crashed).
        pub finished_at: Option<String>,
        /// `running`, `completed`, `interrupted` or `failed`.
        pub status: String,
        /// The run seed, decimal.
        pub run_seed: String,
        /// The effective config and request.
        pub config_json: String,
        /// Generator version of the binary that ran it.
        pub generator_version: u32,
        /// Its counters.
        pub counts: RunCounts,
        /// Why it failed or stopped.
        pub message: Option<String>,
        /// Process id.
        pub pid: Option<u32>,
        /// Host name.
        pub host: Option<String>,
        /// Where the run came from when copied from another bank.
        pub origin: Option<String>,
        /// What it made of each tier, as JSON (`None`: an older binary's run, or one that
        /// died).
        pub tiers: Option<String>,
    }
}

stored_row! {
    /// What a run measured up to a moment.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Sample {
        /// Since the run started.
        pub elapsed_ms: u64,
        /// The run's counters so far (`accepted`: handed to the writer).
        pub counts: RunCounts,
        /// Attempts since the previous sample.
        pub attempt_times: AttemptTimes,
    }
}

stored_row! {
    /// A stored sample: which run, and when by the bank's clock.
    #[derive(Clone, Debug, PartialEq)]
    pub struct SampleRow {
        pub run_id: i64,
        /// UTC, RFC 3339.
        pub at: String,
        pub sample: Sample,
    }
}
