//! A puzzle's columns, shared by every backend: the column list, the values a record
//! writes into it, and the one reader that turns a row back into a record. A backend
//! only binds [`Value`]s and exposes its rows through [`ReadRow`].

use super::samples::AttemptTimes;
use super::{
    BaseGridRecord, PuzzleRecord, RatingRecord, Sample, SampleRow, Source, StoredCages,
    StoredPuzzle,
};
use crate::grid::{Geometry, Regions, Variant};
use anyhow::{anyhow, Context, Result};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::LazyLock;

/// A record's columns, in the order [`puzzle_values`] gives them and [`read_puzzle`]
/// reads them.
pub const PUZZLE_COLUMNS: [&str; 29] = [
    "base_grid_id",
    "size",
    "box_rows",
    "box_cols",
    "puzzle",
    "solution",
    "clues",
    "tier",
    "backtracks",
    "guesses",
    "seed",
    "dig_strategy",
    "target_clues",
    "generator_version",
    "fingerprint",
    "generation_us",
    "source",
    "score",
    "hardest_technique",
    "rater_completed",
    "techniques",
    "served_at",
    "served_to",
    "origin",
    "solution_class",
    "full_fingerprint",
    "variant",
    "cages",
    "regions",
];

/// The `base_grids` columns, in the order [`base_grid_values`] gives them.
pub const BASE_GRID_COLUMNS: [&str; 9] = [
    "id",
    "size",
    "box_rows",
    "box_cols",
    "route",
    "grid",
    "seed",
    "mother_seed",
    "variant",
];

/// The select list [`read_puzzle`] reads: id, run id, creation time, the record's
/// columns, then its base grid's, from `puzzles p LEFT JOIN base_grids g`.
pub static SELECT: LazyLock<String> = LazyLock::new(|| {
    let own: Vec<String> = PUZZLE_COLUMNS.iter().map(|c| format!("p.{c}")).collect();
    format!(
        "SELECT p.id, p.run_id, p.created_at, {}, g.route, g.seed, g.grid, g.mother_seed
         FROM puzzles p LEFT JOIN base_grids g ON g.id = p.base_grid_id",
        own.join(", ")
    )
});

/// A value to bind, typed the way both backends store it (integers as 64-bit).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(Option<i64>),
    Real(Option<f64>),
    Bool(Option<bool>),
    Text(Option<String>),
}

impl Value {
    /// The integer, `None` for NULL or another type.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(v) => *v,
            _ => None,
        }
    }

    /// The real, `None` for NULL or another type.
    pub fn as_real(&self) -> Option<f64> {
        match self {
            Value::Real(v) => *v,
            _ => None,
        }
    }

    /// The boolean, `None` for NULL or another type.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(v) => *v,
            _ => None,
        }
    }

    /// The text, `None` for NULL or another type.
    pub fn as_text(&self) -> Option<String> {
        match self {
            Value::Text(v) => v.clone(),
            _ => None,
        }
    }
}

/// An integer value (NULL when it does not fit an `i64`).
pub(crate) fn int(n: impl TryInto<i64>) -> Value {
    Value::Int(n.try_into().ok())
}

fn text(s: impl Into<String>) -> Value {
    Value::Text(Some(s.into()))
}

/// A puzzle record's values, in [`PUZZLE_COLUMNS`] order.
pub fn puzzle_values(p: &PuzzleRecord) -> Vec<Value> {
    let g = p.geometry;
    let rating = p.rating.as_ref();
    vec![
        Value::Text(p.base.as_ref().map(|b| b.id.clone())),
        int(g.n()),
        int(g.box_rows()),
        int(g.box_cols()),
        text(&p.puzzle),
        text(&p.solution),
        int(p.clues),
        text(&p.tier),
        int(p.backtracks),
        int(p.guesses),
        Value::Text(p.seed.map(|s| s.to_string())),
        Value::Text(p.dig_strategy.map(|s| s.name().to_string())),
        Value::Int(p.target_clues.and_then(|t| t.try_into().ok())),
        int(p.generator_version),
        text(&p.fingerprint),
        int(p.generation_us),
        text(p.source.name()),
        Value::Real(rating.map(|r| r.score)),
        Value::Text(rating.map(|r| r.hardest_technique.clone())),
        Value::Bool(rating.map(|r| r.completed)),
        Value::Text(rating.map(|r| r.techniques.clone())),
        Value::Text(p.served_at.clone()),
        Value::Text(p.served_to.clone()),
        Value::Text(p.origin.clone()),
        Value::Text(p.solution_class.clone()),
        Value::Text(p.full_fingerprint.clone()),
        text(g.variant().name()),
        Value::Text(p.cages.as_ref().map(StoredCages::column)),
        Value::Text(p.regions.as_ref().map(|r| r.to_text())),
    ]
}

/// A base grid's values, in [`BASE_GRID_COLUMNS`] order.
pub fn base_grid_values(g: Geometry, b: &BaseGridRecord) -> Vec<Value> {
    vec![
        text(&b.id),
        int(g.n()),
        int(g.box_rows()),
        int(g.box_cols()),
        text(b.route_column()),
        text(&b.grid),
        text(b.seed.to_string()),
        Value::Text(b.mother_seed.map(|s| s.to_string())),
        text(g.variant().name()),
    ]
}

/// [`ReadRow`] for a driver's row type `$row`, whose method `$get(i)` reads column `i` into
/// any of the four value types (rusqlite's `get`, postgres's `try_get`): both backends'
/// rows read alike.
macro_rules! read_row_by {
    ($row:ty, $get:ident) => {
        impl $crate::bank::columns::ReadRow for $row {
            fn int(&self, i: usize) -> anyhow::Result<Option<i64>> {
                Ok(self.$get(i)?)
            }
            fn real(&self, i: usize) -> anyhow::Result<Option<f64>> {
                Ok(self.$get(i)?)
            }
            fn boolean(&self, i: usize) -> anyhow::Result<Option<bool>> {
                Ok(self.$get(i)?)
            }
            fn text(&self, i: usize) -> anyhow::Result<Option<String>> {
                Ok(self.$get(i)?)
            }
        }
    };
}
pub(super) use read_row_by;

/// A result row, by column index, whatever the backend.
pub trait ReadRow {
    fn int(&self, i: usize) -> Result<Option<i64>>;
    fn real(&self, i: usize) -> Result<Option<f64>>;
    fn boolean(&self, i: usize) -> Result<Option<bool>>;
    fn text(&self, i: usize) -> Result<Option<String>>;

    /// A column that must not be NULL, converted to `T`.
    fn number<T: TryFrom<i64>>(&self, i: usize) -> Result<T> {
        let n = self.int(i)?.ok_or_else(|| anyhow!("column {i} is NULL"))?;
        T::try_from(n).map_err(|_| anyhow!("column {i}: {n} is out of range"))
    }

    /// A nullable integer column converted to `T`.
    fn opt_number<T: TryFrom<i64>>(&self, i: usize) -> Result<Option<T>> {
        self.int(i)?
            .map(|n| T::try_from(n).map_err(|_| anyhow!("column {i}: {n} is out of range")))
            .transpose()
    }

    /// A text column that must not be NULL.
    fn string(&self, i: usize) -> Result<String> {
        self.text(i)?.ok_or_else(|| anyhow!("column {i} is NULL"))
    }

    /// A variant's name column.
    fn variant(&self, i: usize) -> Result<crate::grid::Variant> {
        Ok(self.string(i)?.parse()?)
    }

    /// A nullable text column parsed into its type (seeds, routes, strategies).
    fn parsed<T: FromStr>(&self, i: usize) -> Result<Option<T>>
    where
        T::Err: std::fmt::Display,
    {
        self.text(i)?
            .map(|t| {
                t.parse()
                    .map_err(|e: T::Err| anyhow!("column {i}: '{t}': {e}"))
            })
            .transpose()
    }
}

/// Reads a row of [`SELECT`] back into a record.
pub fn read_puzzle(r: &impl ReadRow) -> Result<StoredPuzzle> {
    let id: i64 = r.number(0)?;
    read_columns(r).with_context(|| format!("puzzle {id} cannot be read"))
}

fn read_columns(r: &impl ReadRow) -> Result<StoredPuzzle> {
    // Column i of the record is at i + 3 (after id, run_id, created_at).
    let col = |name: &str| {
        3 + PUZZLE_COLUMNS
            .iter()
            .position(|c| *c == name)
            .expect("a column")
    };
    let joined = 3 + PUZZLE_COLUMNS.len();
    let geometry = {
        let (size, rows, cols) = (
            r.number(col("size"))?,
            r.number(col("box_rows"))?,
            r.number(col("box_cols"))?,
        );
        let variant: Variant = r
            .parsed(col("variant"))?
            .ok_or_else(|| anyhow!("variant is NULL"))?;
        Geometry::from_columns(size, rows, cols)
            .ok_or_else(|| anyhow!("unsupported geometry {size}x{size} with {rows}x{cols} boxes"))?
            .with_variant(variant)
    };
    let base = match r.text(col("base_grid_id"))? {
        Some(id) => {
            let mother_seed = r.parsed(joined + 3)?;
            let route = BaseGridRecord::route_of_columns(&r.string(joined)?, mother_seed)
                .map_err(|e| anyhow!("base grid route: {e}"))?;
            Some(BaseGridRecord {
                id,
                route,
                seed: r
                    .parsed(joined + 1)?
                    .ok_or_else(|| anyhow!("base grid without a seed"))?,
                mother_seed,
                grid: r.string(joined + 2)?,
            })
        }
        None => None,
    };
    let rating = match r.real(col("score"))? {
        Some(score) => Some(RatingRecord {
            score,
            hardest_technique: r.string(col("hardest_technique"))?,
            completed: r.boolean(col("rater_completed"))?.unwrap_or(false),
            techniques: r.string(col("techniques"))?,
        }),
        None => None,
    };
    Ok(StoredPuzzle {
        id: r.number(0)?,
        run_id: r.number(1)?,
        created_at: r.string(2)?,
        record: PuzzleRecord {
            source: Source::from_name(&r.string(col("source"))?),
            base,
            geometry,
            puzzle: r.string(col("puzzle"))?,
            solution: r.string(col("solution"))?,
            clues: r.number(col("clues"))?,
            tier: r.string(col("tier"))?,
            rating,
            backtracks: r.number(col("backtracks"))?,
            guesses: r.number(col("guesses"))?,
            seed: r.parsed(col("seed"))?,
            dig_strategy: r.parsed(col("dig_strategy"))?,
            target_clues: r.opt_number(col("target_clues"))?,
            generator_version: r.number(col("generator_version"))?,
            fingerprint: r.string(col("fingerprint"))?,
            generation_us: r.number(col("generation_us"))?,
            served_at: r.text(col("served_at"))?,
            served_to: r.text(col("served_to"))?,
            origin: r.text(col("origin"))?,
            solution_class: r.text(col("solution_class"))?,
            full_fingerprint: r.text(col("full_fingerprint"))?,
            cages: r
                .text(col("cages"))?
                .map(|text| StoredCages::from_column(geometry, &text))
                .transpose()?,
            regions: r
                .text(col("regions"))?
                .map(|text| Regions::parse(geometry, &text).map(Arc::new))
                .transpose()
                .context("regions column")?,
        },
    })
}

/// The run columns [`read_run`] reads, in order.
pub const RUN_COLUMNS: &str = "id, started_at, finished_at, status, run_seed, config_json, \
     generator_version, attempts, accepted, duplicates, rejected, timeouts, retries, alarms, \
     message, pid, host, origin, tiers";

/// The counter columns of `runs`, in [`read_counts`] order.
pub const COUNTERS: &str = "attempts, accepted, duplicates, rejected, timeouts, retries, alarms";

/// The counters of a row that selected [`COUNTERS`] from column `first` on.
pub fn read_counts(r: &impl ReadRow, first: usize) -> Result<super::RunCounts> {
    Ok(super::RunCounts {
        attempts: r.number(first)?,
        accepted: r.number(first + 1)?,
        duplicates: r.number(first + 2)?,
        rejected: r.number(first + 3)?,
        timeouts: r.number(first + 4)?,
        retries: r.number(first + 5)?,
        alarms: r.number(first + 6)?,
    })
}

/// A row of [`RUN_COLUMNS`] as a run record.
pub fn read_run(r: &impl ReadRow) -> Result<super::RunRecord> {
    Ok(super::RunRecord {
        id: r.number(0)?,
        started_at: r.string(1)?,
        finished_at: r.text(2)?,
        status: r.string(3)?,
        run_seed: r.string(4)?,
        config_json: r.string(5)?,
        generator_version: r.number(6)?,
        counts: read_counts(r, 7)?,
        message: r.text(14)?,
        pid: r.opt_number(15)?,
        host: r.text(16)?,
        origin: r.text(17)?,
        tiers: r.text(18)?,
    })
}

/// A run record's values for every column of [`RUN_COLUMNS`] but the id.
pub fn run_values(run: &super::RunRecord) -> Vec<Value> {
    let c = &run.counts;
    vec![
        text(&run.started_at),
        Value::Text(run.finished_at.clone()),
        text(&run.status),
        text(&run.run_seed),
        text(&run.config_json),
        int(run.generator_version),
        int(c.attempts),
        int(c.accepted),
        int(c.duplicates),
        int(c.rejected),
        int(c.timeouts),
        int(c.retries),
        int(c.alarms),
        Value::Text(run.message.clone()),
        Value::Int(run.pid.map(i64::from)),
        Value::Text(run.host.clone()),
        Value::Text(run.origin.clone()),
        Value::Text(run.tiers.clone()),
    ]
}

/// The counters' values in [`COUNTERS`] order.
pub fn counter_values(c: &super::RunCounts) -> Vec<Value> {
    [
        c.attempts,
        c.accepted,
        c.duplicates,
        c.rejected,
        c.timeouts,
        c.retries,
        c.alarms,
    ]
    .into_iter()
    .map(int)
    .collect()
}

/// An alarm's values: size, tier, window, timeouts in it, old and new target.
pub fn alarm_values(a: &super::AlarmRecord) -> Vec<Value> {
    vec![
        int(a.size),
        text(&a.tier),
        int(a.window_size),
        int(a.timeouts_in_window),
        int(a.old_target),
        Value::Int(a.new_target.and_then(|t| t.try_into().ok())),
        text(a.variant.name()),
    ]
}

/// `?1, ?2, …` (SQLite) or `$1, $2, …` (PostgreSQL) for `n` values from `first` on.
pub fn slots(prefix: char, first: usize, n: usize) -> String {
    (first..first + n)
        .map(|i| format!("{prefix}{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The columns [`SampleRow::read`] reads, in order.
pub const SAMPLE_COLUMNS: &str = concat!(
    "run_id, at, elapsed_ms, ",
    "attempts, accepted, duplicates, rejected, timeouts, retries, alarms",
    ", attempt_times"
);

impl Sample {
    /// Its values in [`SAMPLE_COLUMNS`] order after `run_id` and `at`.
    pub fn values(&self) -> Vec<Value> {
        let mut v = vec![int(self.elapsed_ms)];
        v.extend(counter_values(&self.counts));
        v.push(Value::Text(Some(self.attempt_times.to_json())));
        v
    }
}

impl SampleRow {
    /// A row of [`SAMPLE_COLUMNS`].
    pub fn read(r: &impl ReadRow) -> Result<SampleRow> {
        Ok(SampleRow {
            run_id: r.number(0)?,
            at: r.string(1)?,
            sample: Sample {
                elapsed_ms: r.number(2)?,
                counts: read_counts(r, 3)?,
                attempt_times: AttemptTimes::from_json(&r.string(10)?)?,
            },
        })
    }

    /// Its values in [`SAMPLE_COLUMNS`] order.
    pub fn values(&self) -> Vec<Value> {
        let mut v = vec![
            Value::Int(Some(self.run_id)),
            Value::Text(Some(self.at.clone())),
        ];
        v.extend(self.sample.values());
        v
    }
}
