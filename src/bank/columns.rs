//! A puzzle's columns, shared by every backend: the column list, the values a record
//! writes into it, and the one reader that turns a row back into a record; and the other
//! column lists and statements both backends use. A backend only binds [`Value`]s and
//! exposes its rows through [`ReadRow`] ([`super::row`]).

use super::row::{int, ReadRow, Value};
use super::{BaseGridRecord, PuzzleRecord, RatingRecord, Source, StoredCages, StoredPuzzle};
use crate::grid::{Geometry, Regions, Variant};
use anyhow::{anyhow, Context, Result};
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

/// The run columns [`super::RunRecord::read`] reads, in order.
pub const RUN_COLUMNS: &str = "id, started_at, finished_at, status, run_seed, config_json, \
     generator_version, attempts, accepted, duplicates, rejected, timeouts, retries, alarms, \
     message, pid, host, origin, tiers";

/// The counter columns of `runs`, in [`super::RunCounts`] field order.
pub const COUNTERS: &str = "attempts, accepted, duplicates, rejected, timeouts, retries, alarms";

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

/// The statement that copies a row of `columns` from another bank into `table`, leaving
/// a row that is there already: `?N` (SQLite) or `$N` (PostgreSQL) placeholders by
/// `prefix`.
pub fn copy_statement(prefix: char, table: &str, columns: &str) -> String {
    let n = columns.split(',').count();
    format!(
        "INSERT INTO {table} ({columns}) VALUES ({}) ON CONFLICT DO NOTHING",
        slots(prefix, 1, n)
    )
}

/// The select of the samples of runs `first_run` (the statement's one parameter) and
/// later, by run and time: `?1` (SQLite) or `$1` (PostgreSQL) by `prefix`.
pub fn samples_from(prefix: char) -> String {
    format!(
        "SELECT {SAMPLE_COLUMNS} FROM run_samples WHERE run_id >= {prefix}1 ORDER BY run_id, elapsed_ms"
    )
}

/// The columns of a [`super::SampleRow`], in order.
pub const SAMPLE_COLUMNS: &str = concat!(
    "run_id, at, elapsed_ms, ",
    "attempts, accepted, duplicates, rejected, timeouts, retries, alarms",
    ", attempt_times"
);
