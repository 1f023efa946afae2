//! The `puzzles` table (with `base_grids` and `alarms`, written in the same transaction):
//! one column list, one writer of a record's columns, one reader back into a record.

use super::{runs, NOW};
use crate::bank::columns::SAMPLE_COLUMNS;
use crate::bank::columns::{
    alarm_values, base_grid_values, puzzle_values, read_puzzle, slots, BASE_GRID_COLUMNS,
    PUZZLE_COLUMNS, SELECT,
};
use crate::bank::quota::{insert_within, Inserted, Room, StockCaps};
use crate::bank::row::Value;
use crate::bank::{fingerprint_prefix, Batch, PuzzleFilter, StoredPuzzle};
use anyhow::Result;
use rusqlite::types::ToSqlOutput;
use rusqlite::{params, params_from_iter, Connection, Row, ToSql};
use std::collections::{HashMap, HashSet};

/// Stores a batch of puzzles, alarms and samples in one transaction, with the run's counters when
/// the batch carries them; puzzles past a quota in `caps` are surplus.
pub(super) fn insert_batch(
    conn: &mut Connection,
    run_id: i64,
    batch: &Batch,
    caps: &StockCaps,
) -> Result<Inserted> {
    // IMMEDIATE: take the write lock up front so two fills never deadlock on an upgrade.
    // It is also the lock the quota count needs: no other writer runs until commit.
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let room = Room::count(caps, batch, |size, variant, tier| {
        Ok(tx.query_row(
            "SELECT count(*) FROM puzzles
             WHERE size = ?1 AND variant = ?2 AND tier = ?3 AND served_at IS NULL",
            params![size, variant.name(), tier],
            |r| r.get(0),
        )?)
    })?;
    let inserted;
    {
        let mut grid_stmt = tx.prepare_cached(&format!(
            "INSERT INTO base_grids ({}) VALUES ({}) ON CONFLICT DO NOTHING",
            BASE_GRID_COLUMNS.join(", "),
            slots('?', 1, BASE_GRID_COLUMNS.len())
        ))?;
        // A fingerprint that `prune` retired counts as stored: the puzzle is not stored again.
        let fingerprint_slot = 2 + PUZZLE_COLUMNS
            .iter()
            .position(|c| *c == "fingerprint")
            .expect("a column");
        let mut puzzle_stmt = tx.prepare_cached(&format!(
            "INSERT INTO puzzles (run_id, created_at, {}) SELECT ?1, {NOW}, {}
             WHERE NOT EXISTS (SELECT 1 FROM retired_fingerprints WHERE fingerprint = ?{fingerprint_slot})
             ON CONFLICT DO NOTHING",
            PUZZLE_COLUMNS.join(", "),
            slots('?', 2, PUZZLE_COLUMNS.len())
        ))?;
        inserted = insert_within(batch, room, |records| {
            let mut new = Vec::with_capacity(records.len());
            for p in records {
                if let Some(b) = &p.base {
                    grid_stmt.execute(params_from_iter(base_grid_values(p.geometry, b)))?;
                }
                let values = std::iter::once(Value::Int(Some(run_id))).chain(puzzle_values(p));
                new.push(puzzle_stmt.execute(params_from_iter(values))? == 1);
            }
            Ok(new)
        })?;
        let mut alarm_stmt = tx.prepare_cached(&format!(
            "INSERT INTO alarms (run_id, at, size, tier, window_size, timeouts_in_window, old_target, new_target, variant)
             VALUES (?1, {NOW}, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
        ))?;
        for a in &batch.alarms {
            let values = std::iter::once(Value::Int(Some(run_id))).chain(alarm_values(a));
            alarm_stmt.execute(params_from_iter(values))?;
        }
        let mut sample_stmt = tx.prepare_cached(&format!(
            "INSERT OR IGNORE INTO run_samples ({SAMPLE_COLUMNS}) VALUES (?1, {NOW}, {})",
            slots('?', 2, 9)
        ))?;
        for sample in &batch.samples {
            let values = std::iter::once(Value::Int(Some(run_id))).chain(sample.values());
            sample_stmt.execute(params_from_iter(values))?;
        }
    }
    if let Some(counts) = &batch.counts {
        runs::update_counts(&tx, run_id, counts)?;
    }
    tx.commit()?;
    Ok(inserted)
}

impl ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Int(v) => v.to_sql()?,
            Value::Real(v) => v.to_sql()?,
            Value::Bool(v) => v.to_sql()?,
            Value::Text(v) => v.to_sql()?,
        })
    }
}

crate::bank::row::read_row_by!(Row<'_>, get);

/// A stored puzzle with its base grid, or `None` for an unknown id.
pub(super) fn by_id(conn: &Connection, id: i64) -> Result<Option<StoredPuzzle>> {
    let sql = format!("{} WHERE p.id = ?1", *SELECT);
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut rows = stmt.query([id])?;
    rows.next()?.map(read_puzzle).transpose()
}

/// Visits the puzzles `filter` selects, streaming.
pub(super) fn scan(
    conn: &Connection,
    filter: &PuzzleFilter,
    visit: &mut dyn FnMut(StoredPuzzle) -> Result<()>,
) -> Result<()> {
    let order = filter.order_by();
    let sql = format!(
        "{} WHERE (?1 IS NULL OR p.tier = ?1) AND (?2 IS NULL OR p.size = ?2)
              AND (NOT ?4 OR p.served_at IS NULL) AND p.run_id BETWEEN ?5 AND ?6
              AND (?7 IS NULL OR p.variant = ?7)
              ORDER BY {order} LIMIT ?3",
        *SELECT
    );
    let mut stmt = conn.prepare(&sql)?;
    let limit = filter.limit.map_or(-1, |l| l as i64);
    let (first_run, last_run) = filter.run_bounds();
    let mut rows = stmt.query(params![
        filter.tier,
        filter.size,
        limit,
        filter.unserved,
        first_run,
        last_run,
        filter.variant.map(|v| v.name())
    ])?;
    while let Some(row) = rows.next()? {
        visit(read_puzzle(row)?)?;
    }
    Ok(())
}

/// How many puzzles `filter` selects.
pub(super) fn count(conn: &Connection, filter: &PuzzleFilter) -> Result<u64> {
    let n: u64 = conn.query_row(
        "SELECT count(*) FROM puzzles WHERE (?1 IS NULL OR tier = ?1) AND (?2 IS NULL OR size = ?2)
         AND (NOT ?3 OR served_at IS NULL) AND run_id BETWEEN ?4 AND ?5
         AND (?6 IS NULL OR variant = ?6)",
        params![
            filter.tier,
            filter.size,
            filter.unserved,
            filter.run_bounds().0,
            filter.run_bounds().1,
            filter.variant.map(|v| v.name())
        ],
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
