//! The `puzzles` table (with `base_grids` and `alarms`, written in the same transaction):
//! one column list, one writer of a record's columns, one reader back into a record.

use super::{runs, NOW};
use crate::bank::{
    fingerprint_prefix, BaseGridRecord, Batch, PuzzleFilter, PuzzleRecord, RatingRecord, Source,
    StoredPuzzle,
};
use crate::grid::Geometry;
use anyhow::Result;
use rusqlite::types::{FromSql, FromSqlError, Type};
use rusqlite::{params, Connection, OptionalExtension, Row};
use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::sync::LazyLock;

/// A record's columns, in the order [`insert_batch`] binds and [`read`] reads them.
const COLUMNS: [&str; 26] = [
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
];

/// The stored columns first, then the base grid's, joined.
static SELECT: LazyLock<String> = LazyLock::new(|| {
    let own: Vec<String> = COLUMNS.iter().map(|c| format!("p.{c}")).collect();
    format!(
        "SELECT p.id, p.run_id, p.created_at, {}, g.route, g.seed, g.grid, g.mother_seed
         FROM puzzles p LEFT JOIN base_grids g ON g.id = p.base_grid_id",
        own.join(", ")
    )
});

/// Stores a batch of puzzles and alarms in one transaction, with the run's counters when
/// the batch carries them.
pub(super) fn insert_batch(conn: &mut Connection, run_id: i64, batch: &Batch) -> Result<Vec<bool>> {
    // IMMEDIATE: take the write lock up front so two fills never deadlock on an upgrade.
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let mut inserted = Vec::with_capacity(batch.puzzles.len());
    {
        let mut grid_stmt = tx.prepare_cached(
            "INSERT OR IGNORE INTO base_grids (id, size, box_rows, box_cols, route, grid, seed, mother_seed)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?;
        let slots: Vec<String> = (2..2 + COLUMNS.len()).map(|i| format!("?{i}")).collect();
        // A fingerprint that `prune` retired counts as stored: the puzzle is not stored again.
        let fingerprint_slot = 2 + COLUMNS
            .iter()
            .position(|c| *c == "fingerprint")
            .expect("a column");
        let mut puzzle_stmt = tx.prepare_cached(&format!(
            "INSERT OR IGNORE INTO puzzles (run_id, created_at, {}) SELECT ?1, {NOW}, {}
             WHERE NOT EXISTS (SELECT 1 FROM retired_fingerprints WHERE fingerprint = ?{fingerprint_slot})",
            COLUMNS.join(", "),
            slots.join(", ")
        ))?;
        for p in &batch.puzzles {
            let g = p.geometry;
            if let Some(b) = &p.base {
                grid_stmt.execute(params![
                    b.id,
                    g.n(),
                    g.box_rows(),
                    g.box_cols(),
                    b.route_column(),
                    b.grid,
                    b.seed.to_string(),
                    b.mother_seed.map(|s| s.to_string())
                ])?;
            }
            let rating = p.rating.as_ref();
            let rows = puzzle_stmt.execute(params![
                run_id,
                p.base.as_ref().map(|b| &b.id),
                g.n(),
                g.box_rows(),
                g.box_cols(),
                p.puzzle,
                p.solution,
                p.clues,
                p.tier,
                p.backtracks,
                p.guesses,
                p.seed.map(|s| s.to_string()),
                p.dig_strategy.map(|s| s.name()),
                p.target_clues,
                p.generator_version,
                p.fingerprint,
                p.generation_us,
                p.source.name(),
                rating.map(|r| r.score),
                rating.map(|r| &r.hardest_technique),
                rating.map(|r| r.completed),
                rating.map(|r| &r.techniques),
                p.served_at,
                p.served_to,
                p.origin,
                p.solution_class,
                p.full_fingerprint,
            ])?;
            inserted.push(rows == 1);
        }
        let mut alarm_stmt = tx.prepare_cached(&format!(
            "INSERT INTO alarms (run_id, at, size, tier, window_size, timeouts_in_window, old_target, new_target)
             VALUES (?1, {NOW}, ?2, ?3, ?4, ?5, ?6, ?7)"
        ))?;
        for a in &batch.alarms {
            alarm_stmt.execute(params![
                run_id,
                a.size,
                a.tier,
                a.window_size,
                a.timeouts_in_window,
                a.old_target,
                a.new_target
            ])?;
        }
    }
    if let Some(counts) = &batch.counts {
        runs::update_counts(&tx, run_id, counts)?;
    }
    tx.commit()?;
    Ok(inserted)
}

/// Reads a row of [`SELECT`] back into a record, turning column text into domain types.
fn read(r: &Row) -> rusqlite::Result<StoredPuzzle> {
    // Column i of the record is at i + 3 (after id, run_id, created_at).
    let col = |name: &str| 3 + COLUMNS.iter().position(|c| *c == name).expect("a column");
    let joined = 3 + COLUMNS.len();
    let geometry = {
        let (size, rows, cols) = (
            r.get(col("size"))?,
            r.get(col("box_rows"))?,
            r.get(col("box_cols"))?,
        );
        Geometry::from_columns(size, rows, cols).ok_or_else(|| {
            invalid(
                col("size"),
                format!("unsupported geometry {size}x{size} with {rows}x{cols} boxes"),
            )
        })?
    };
    let base = match r.get::<_, Option<String>>(col("base_grid_id"))? {
        Some(id) => {
            let mother_seed = r
                .get::<_, Option<String>>(joined + 3)?
                .map(|t| parse_text(joined + 3, &t))
                .transpose()?;
            let route = BaseGridRecord::route_of_columns(&r.get::<_, String>(joined)?, mother_seed)
                .map_err(|e| invalid(joined, e))?;
            Some(BaseGridRecord {
                id,
                route,
                seed: parsed(r, joined + 1)?,
                mother_seed,
                grid: r.get(joined + 2)?,
            })
        }
        None => None,
    };
    let rating = match r.get::<_, Option<f64>>(col("score"))? {
        Some(score) => Some(RatingRecord {
            score,
            hardest_technique: r.get(col("hardest_technique"))?,
            completed: r.get(col("rater_completed"))?,
            techniques: r.get(col("techniques"))?,
        }),
        None => None,
    };
    let optional = |i: usize| -> rusqlite::Result<Option<String>> { r.get(i) };
    Ok(StoredPuzzle {
        id: r.get(0)?,
        run_id: r.get(1)?,
        created_at: r.get(2)?,
        record: PuzzleRecord {
            source: Source::from_name(&r.get::<_, String>(col("source"))?),
            base,
            geometry,
            puzzle: r.get(col("puzzle"))?,
            solution: r.get(col("solution"))?,
            clues: r.get(col("clues"))?,
            tier: r.get(col("tier"))?,
            rating,
            backtracks: r.get(col("backtracks"))?,
            guesses: r.get(col("guesses"))?,
            seed: optional(col("seed"))?
                .map(|t| parse_text(col("seed"), &t))
                .transpose()?,
            dig_strategy: optional(col("dig_strategy"))?
                .map(|t| parse_text(col("dig_strategy"), &t))
                .transpose()?,
            target_clues: r.get(col("target_clues"))?,
            generator_version: r.get(col("generator_version"))?,
            fingerprint: r.get(col("fingerprint"))?,
            generation_us: r.get(col("generation_us"))?,
            served_at: r.get(col("served_at"))?,
            served_to: r.get(col("served_to"))?,
            origin: r.get(col("origin"))?,
            solution_class: r.get(col("solution_class"))?,
            full_fingerprint: r.get(col("full_fingerprint"))?,
        },
    })
}

/// A text column parsed into its type (seeds, routes, strategies).
fn parsed<T: FromStr>(r: &Row, i: usize) -> rusqlite::Result<T>
where
    T::Err: std::fmt::Display,
{
    parse_text(i, &String::column_result(r.get_ref(i)?)?)
}

fn parse_text<T: FromStr>(i: usize, text: &str) -> rusqlite::Result<T>
where
    T::Err: std::fmt::Display,
{
    text.parse()
        .map_err(|e: T::Err| invalid(i, format!("'{text}': {e}")))
}

fn invalid(i: usize, why: String) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(
        i,
        Type::Text,
        Box::new(FromSqlError::Other(why.into())),
    )
}

/// A stored puzzle with its base grid, or `None` for an unknown id.
pub(super) fn by_id(conn: &Connection, id: i64) -> Result<Option<StoredPuzzle>> {
    let sql = format!("{} WHERE p.id = ?1", *SELECT);
    Ok(conn.query_row(&sql, [id], read).optional()?)
}

/// Visits the puzzles `filter` selects, streaming.
pub(super) fn scan(
    conn: &Connection,
    filter: &PuzzleFilter,
    visit: &mut dyn FnMut(StoredPuzzle) -> Result<()>,
) -> Result<()> {
    let order = if filter.random_order {
        "random()"
    } else {
        "p.id"
    };
    let sql = format!(
        "{} WHERE (?1 IS NULL OR p.tier = ?1) AND (?2 IS NULL OR p.size = ?2)
              AND (NOT ?4 OR p.served_at IS NULL) ORDER BY {order} LIMIT ?3",
        *SELECT
    );
    let mut stmt = conn.prepare(&sql)?;
    let limit = filter.limit.map_or(-1, |l| l as i64);
    let mut rows = stmt.query(params![filter.tier, filter.size, limit, filter.unserved])?;
    while let Some(row) = rows.next()? {
        visit(read(row)?)?;
    }
    Ok(())
}

/// How many puzzles `filter` selects.
pub(super) fn count(conn: &Connection, filter: &PuzzleFilter) -> Result<u64> {
    let n: u64 = conn.query_row(
        "SELECT count(*) FROM puzzles WHERE (?1 IS NULL OR tier = ?1) AND (?2 IS NULL OR size = ?2)
         AND (NOT ?3 OR served_at IS NULL)",
        params![filter.tier, filter.size, filter.unserved],
        |r| r.get(0),
    )?;
    Ok(filter.limit.map_or(n, |l| l.min(n)))
}

/// The 16-byte prefixes of every stored fingerprint.
pub(super) fn fingerprint_prefixes(conn: &Connection) -> Result<HashSet<[u8; 16]>> {
    let mut stmt = conn.prepare(
        "SELECT fingerprint FROM puzzles UNION ALL SELECT fingerprint FROM retired_fingerprints",
    )?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    let mut set = HashSet::new();
    for fp in rows {
        set.insert(fingerprint_prefix(&fp?));
    }
    Ok(set)
}

/// Puzzles per solution class, by the 16-byte prefix of the class hash.
pub(super) fn class_counts(conn: &Connection) -> Result<HashMap<[u8; 16], u32>> {
    let mut stmt = conn.prepare(
        "SELECT solution_class, count(*) FROM puzzles
         WHERE solution_class IS NOT NULL GROUP BY solution_class",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, u32>(1)?)))?;
    let mut counts = HashMap::new();
    for row in rows {
        let (class, n) = row?;
        counts.insert(fingerprint_prefix(&class), n);
    }
    Ok(counts)
}

/// The 16-byte prefixes of every stored full fingerprint.
pub(super) fn full_fingerprint_prefixes(conn: &Connection) -> Result<HashSet<[u8; 16]>> {
    let mut stmt =
        conn.prepare("SELECT full_fingerprint FROM puzzles WHERE full_fingerprint IS NOT NULL")?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    let mut set = HashSet::new();
    for fp in rows {
        set.insert(fingerprint_prefix(&fp?));
    }
    Ok(set)
}
