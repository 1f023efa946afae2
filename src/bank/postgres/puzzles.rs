//! The `puzzles` table on PostgreSQL (with `base_grids` and `alarms`, written in the same
//! transaction), through the shared column list and reader of [`crate::bank::columns`].

use super::{params, runs, sql_type, NOW};
use crate::bank::columns::{
    alarm_values, base_grid_values, puzzle_values, read_puzzle, slots, Value, BASE_GRID_COLUMNS,
    PUZZLE_COLUMNS, SELECT,
};
use crate::bank::quota::{insert_within, Inserted, Room, StockCaps};
use crate::bank::{fingerprint_prefix, Batch, PuzzleFilter, StoredPuzzle};
use anyhow::Result;
use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, GenericClient};
use std::collections::{HashMap, HashSet};

/// The advisory lock key of one size and tier's stock: every quota writer of that stock
/// takes it, for its transaction, before counting.
pub(super) fn stock_lock(size: usize, tier: &str) -> i64 {
    let hash = blake3::hash(format!("sudoku-bank stock {size} {tier}").as_bytes());
    i64::from_le_bytes(hash.as_bytes()[..8].try_into().expect("8 bytes"))
}

/// Stores a batch of puzzles and alarms in one transaction, with the run's counters when
/// the batch carries them; puzzles past a quota in `caps` are surplus.
pub(super) fn insert_batch(
    client: &mut Client,
    run_id: i64,
    batch: &Batch,
    caps: &StockCaps,
) -> Result<Inserted> {
    let mut tx = client.transaction()?;
    let room = Room::count(caps, batch, |size, tier| {
        tx.execute(
            "SELECT pg_advisory_xact_lock($1)",
            &[&stock_lock(size, tier)],
        )?;
        let n: i64 = tx
            .query_one(
                "SELECT count(*) FROM puzzles WHERE size = $1 AND tier = $2 AND served_at IS NULL",
                &[&(size as i64), &tier],
            )?
            .get(0);
        Ok(n as u64)
    })?;
    let inserted = match batch.puzzles.first() {
        None => insert_within(batch, room, |_| Ok(false))?,
        Some(first) => {
            let grid_stmt = tx.prepare(&format!(
                "INSERT INTO base_grids ({}) VALUES ({}) ON CONFLICT DO NOTHING",
                BASE_GRID_COLUMNS.join(", "),
                slots('$', 1, BASE_GRID_COLUMNS.len())
            ))?;
            // INSERT … SELECT cannot infer parameter types from the columns: cast each.
            let typed: Vec<String> = puzzle_values(first)
                .iter()
                .enumerate()
                .map(|(i, v)| format!("${}::{}", i + 2, sql_type(v)))
                .collect();
            let fingerprint_slot = 2 + PUZZLE_COLUMNS
                .iter()
                .position(|c| *c == "fingerprint")
                .expect("a column");
            // A fingerprint that `prune` retired counts as stored.
            let puzzle_stmt = tx.prepare(&format!(
                "INSERT INTO puzzles (run_id, created_at, {}) SELECT $1::bigint, {NOW}, {}
                 WHERE NOT EXISTS (SELECT 1 FROM retired_fingerprints
                                   WHERE fingerprint = ${fingerprint_slot}::text)
                 ON CONFLICT DO NOTHING",
                PUZZLE_COLUMNS.join(", "),
                typed.join(", ")
            ))?;
            insert_within(batch, room, |p| {
                if let Some(b) = &p.base {
                    tx.execute(&grid_stmt, &params(&base_grid_values(p.geometry, b)).refs())?;
                }
                let values: Vec<Value> = std::iter::once(Value::Int(Some(run_id)))
                    .chain(puzzle_values(p))
                    .collect();
                Ok(tx.execute(&puzzle_stmt, &params(&values).refs())? == 1)
            })?
        }
    };
    for a in &batch.alarms {
        let values: Vec<Value> = std::iter::once(Value::Int(Some(run_id)))
            .chain(alarm_values(a))
            .collect();
        tx.execute(
            &format!(
                "INSERT INTO alarms (run_id, at, size, tier, window_size, timeouts_in_window,
                                     old_target, new_target)
                 VALUES ($1, {NOW}, $2, $3, $4, $5, $6, $7)"
            ),
            &params(&values).refs(),
        )?;
    }
    if let Some(counts) = &batch.counts {
        runs::update_counts(&mut tx, run_id, counts)?;
    }
    tx.commit()?;
    Ok(inserted)
}

/// A stored puzzle with its base grid, or `None` for an unknown id.
pub(super) fn by_id(c: &mut impl GenericClient, id: i64) -> Result<Option<StoredPuzzle>> {
    c.query_opt(&format!("{} WHERE p.id = $1", *SELECT), &[&id])?
        .map(|r| read_puzzle(&r))
        .transpose()
}

/// The filter's `WHERE` (parameters 1 to 3: tier, size, unserved).
const FILTER: &str = "($1::text IS NULL OR p.tier = $1) AND ($2::bigint IS NULL OR p.size = $2)
     AND (NOT $3::boolean OR p.served_at IS NULL)";

/// Visits the puzzles `filter` selects, streaming rows as the server sends them.
pub(super) fn scan(
    client: &mut Client,
    filter: &PuzzleFilter,
    visit: &mut dyn FnMut(StoredPuzzle) -> Result<()>,
) -> Result<()> {
    let order = if filter.random_order {
        "random()"
    } else {
        "p.id"
    };
    let sql = format!(
        "{} WHERE {FILTER} ORDER BY {order} LIMIT $4::bigint",
        *SELECT
    );
    let size = filter.size.map(|s| s as i64);
    let limit = filter.limit.map(|l| l.min(i64::MAX as u64) as i64);
    let params: [&(dyn postgres::types::ToSql + Sync); 4] =
        [&filter.tier, &size, &filter.unserved, &limit];
    let mut rows = client.query_raw(&sql, params)?;
    while let Some(row) = rows.next()? {
        visit(read_puzzle(&row)?)?;
    }
    Ok(())
}

/// How many puzzles `filter` selects.
pub(super) fn count(c: &mut impl GenericClient, filter: &PuzzleFilter) -> Result<u64> {
    let size = filter.size.map(|s| s as i64);
    let n: i64 = c
        .query_one(
            &format!("SELECT count(*) FROM puzzles p WHERE {FILTER}"),
            &[&filter.tier, &size, &filter.unserved],
        )?
        .get(0);
    let n = n as u64;
    Ok(filter.limit.map_or(n, |l| l.min(n)))
}

/// The 16-byte prefixes of the hex fingerprints `sql` selects.
pub(super) fn prefixes(client: &mut Client, sql: &str) -> Result<HashSet<[u8; 16]>> {
    let mut rows = client.query_raw(sql, std::iter::empty::<&str>())?;
    let mut set = HashSet::new();
    while let Some(row) = rows.next()? {
        set.insert(fingerprint_prefix(row.try_get::<_, &str>(0)?));
    }
    Ok(set)
}

/// Puzzles per solution class, by the 16-byte prefix of the class hash.
pub(super) fn class_counts(client: &mut Client) -> Result<HashMap<[u8; 16], u32>> {
    let rows = client.query(
        "SELECT solution_class, count(*) FROM puzzles
         WHERE solution_class IS NOT NULL GROUP BY solution_class",
        &[],
    )?;
    Ok(rows
        .iter()
        .map(|r| {
            let n: i64 = r.get(1);
            (fingerprint_prefix(r.get(0)), n as u32)
        })
        .collect())
}
