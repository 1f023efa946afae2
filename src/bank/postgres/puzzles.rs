//! The `puzzles` table on PostgreSQL (with `base_grids` and `alarms`, written in the same
//! transaction), through the shared column list and reader of [`crate::bank::columns`].

use super::{params, runs, sql_type, Params, NOW};
use crate::bank::columns::SAMPLE_COLUMNS;
use crate::bank::columns::{
    alarm_values, base_grid_values, puzzle_values, read_puzzle, slots, BASE_GRID_COLUMNS,
    PUZZLE_COLUMNS, SELECT,
};
use crate::bank::quota::{insert_within, Inserted, Room, StockCaps};
use crate::bank::row::Value;
use crate::bank::{fingerprint_prefix, Batch, PuzzleFilter, PuzzleRecord, StoredPuzzle};
use crate::grid::Variant;
use anyhow::Result;
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::ToSql;
use postgres::{Client, GenericClient};
use std::collections::{HashMap, HashSet};

/// The advisory lock key of one size and tier's stock: every quota writer of that stock
/// takes it, for its transaction, before counting.
pub(super) fn stock_lock(size: usize, variant: Variant, tier: &str) -> i64 {
    // Classic keeps the key it had before variants, so mixed binaries still agree.
    let key = match variant.rules().is_plain() {
        true => format!("sudoku-bank stock {size} {tier}"),
        false => format!("sudoku-bank stock {size} {variant} {tier}"),
    };
    let hash = blake3::hash(key.as_bytes());
    i64::from_le_bytes(hash.as_bytes()[..8].try_into().expect("8 bytes"))
}

/// Stores a batch of puzzles, alarms and samples in one transaction, with the run's counters when
/// the batch carries them; puzzles past a quota in `caps` are surplus.
pub(super) fn insert_batch(
    client: &mut Client,
    run_id: i64,
    batch: &Batch,
    caps: &StockCaps,
) -> Result<Inserted> {
    let mut tx = client.transaction()?;
    let room = Room::count(caps, batch, |size, variant, tier| {
        tx.execute(
            "SELECT pg_advisory_xact_lock($1)",
            &[&stock_lock(size, variant, tier)],
        )?;
        let n: i64 = tx
            .query_one(
                "SELECT count(*) FROM puzzles
                 WHERE size = $1 AND variant = $2 AND tier = $3 AND served_at IS NULL",
                &[&(size as i64), &variant.name(), &tier],
            )?
            .get(0);
        Ok(n as u64)
    })?;
    let inserted = insert_within(batch, room, |records| insert_rows(&mut tx, run_id, records))?;
    for a in &batch.alarms {
        let values: Vec<Value> = std::iter::once(Value::Int(Some(run_id)))
            .chain(alarm_values(a))
            .collect();
        tx.execute(
            &format!(
                "INSERT INTO alarms (run_id, at, size, tier, window_size, timeouts_in_window,
                                     old_target, new_target, variant)
                 VALUES ($1, {NOW}, $2, $3, $4, $5, $6, $7, $8)"
            ),
            &params(&values).refs(),
        )?;
    }
    for sample in &batch.samples {
        let values: Vec<Value> = std::iter::once(Value::Int(Some(run_id)))
            .chain(sample.values())
            .collect();
        tx.execute(
            &format!(
                "INSERT INTO run_samples ({SAMPLE_COLUMNS}) VALUES ($1, {NOW}, {})
                 ON CONFLICT (run_id, elapsed_ms) DO NOTHING",
                slots('$', 2, 9)
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

/// Inserts puzzles (and their base grids) in two statements whatever their number, each
/// column bound as one array and spread into rows by `unnest`: a round trip per puzzle
/// would make the writer, not the generator, set the pace and keep other workers waiting
/// on the stock locks. Says per puzzle whether it was new.
fn insert_rows(
    tx: &mut postgres::Transaction<'_>,
    run_id: i64,
    records: &[&PuzzleRecord],
) -> Result<Vec<bool>> {
    let mut seen_grids = HashSet::new();
    let grids: Vec<Vec<Value>> = records
        .iter()
        .filter_map(|p| {
            let b = p.base.as_ref().filter(|b| seen_grids.insert(&b.id))?;
            Some(base_grid_values(p.geometry, b))
        })
        .collect();
    if !grids.is_empty() {
        let columns = BASE_GRID_COLUMNS.join(", ");
        let sql = format!(
            "INSERT INTO base_grids ({columns}) SELECT * FROM {} ON CONFLICT DO NOTHING",
            unnest(&grids[0], &columns)
        );
        tx.execute(&sql, &columns_of(&grids).refs())?;
    }
    let rows: Vec<Vec<Value>> = records
        .iter()
        .map(|p| {
            std::iter::once(Value::Int(Some(run_id)))
                .chain(puzzle_values(p))
                .collect()
        })
        .collect();
    let columns = format!("run_id, {}", PUZZLE_COLUMNS.join(", "));
    // A fingerprint that `prune` retired counts as stored.
    let sql = format!(
        "INSERT INTO puzzles ({columns}, created_at)
         SELECT v.*, {NOW} FROM {} 
         WHERE NOT EXISTS (SELECT 1 FROM retired_fingerprints r WHERE r.fingerprint = v.fingerprint)
         ON CONFLICT DO NOTHING RETURNING fingerprint",
        unnest(&rows[0], &columns)
    );
    let stored: HashSet<String> = tx
        .query(&sql, &columns_of(&rows).refs())?
        .iter()
        .map(|r| r.get(0))
        .collect();
    // A fingerprint twice in one batch is stored once: the first is new.
    let mut claimed = HashSet::new();
    Ok(records
        .iter()
        .map(|p| stored.contains(&p.fingerprint) && claimed.insert(&p.fingerprint))
        .collect())
}

/// `unnest($1::bigint[], $2::text[], …) AS v (columns)`, typed like `row`.
fn unnest(row: &[Value], columns: &str) -> String {
    let slots: Vec<String> = row
        .iter()
        .enumerate()
        .map(|(i, v)| format!("${}::{}[]", i + 1, sql_type(v)))
        .collect();
    format!("unnest({}) AS v ({columns})", slots.join(", "))
}

/// Rows of values turned into one array parameter per column.
fn columns_of(rows: &[Vec<Value>]) -> Params {
    let width = rows.first().map_or(0, Vec::len);
    Params(
        (0..width)
            .map(|j| -> Box<dyn ToSql + Sync> {
                let column = rows.iter().map(|r| &r[j]);
                match rows[0][j] {
                    Value::Int(_) => Box::new(column.map(Value::as_int).collect::<Vec<_>>()),
                    Value::Real(_) => Box::new(column.map(Value::as_real).collect::<Vec<_>>()),
                    Value::Bool(_) => Box::new(column.map(Value::as_bool).collect::<Vec<_>>()),
                    Value::Text(_) => Box::new(column.map(Value::as_text).collect::<Vec<_>>()),
                }
            })
            .collect(),
    )
}

/// A stored puzzle with its base grid, or `None` for an unknown id.
pub(super) fn by_id(c: &mut impl GenericClient, id: i64) -> Result<Option<StoredPuzzle>> {
    c.query_opt(&format!("{} WHERE p.id = $1", *SELECT), &[&id])?
        .map(|r| read_puzzle(&r))
        .transpose()
}

/// The filter's `WHERE` (parameters 1 to 6: tier, size, unserved, first and last run,
/// variant).
const FILTER: &str = "($1::text IS NULL OR p.tier = $1) AND ($2::bigint IS NULL OR p.size = $2)
     AND (NOT $3::boolean OR p.served_at IS NULL) AND p.run_id BETWEEN $4 AND $5
     AND ($6::text IS NULL OR p.variant = $6)";

/// Visits the puzzles `filter` selects, streaming rows as the server sends them.
pub(super) fn scan(
    client: &mut Client,
    filter: &PuzzleFilter,
    visit: &mut dyn FnMut(StoredPuzzle) -> Result<()>,
) -> Result<()> {
    let order = filter.order_by();
    let sql = format!(
        "{} WHERE {FILTER} ORDER BY {order} LIMIT $7::bigint",
        *SELECT
    );
    let size = filter.size.map(|s| s as i64);
    let limit = filter.limit.map(|l| l.min(i64::MAX as u64) as i64);
    let (first_run, last_run) = filter.run_bounds();
    let variant = filter.variant.map(|v| v.name());
    let params: [&(dyn postgres::types::ToSql + Sync); 7] = [
        &filter.tier,
        &size,
        &filter.unserved,
        &first_run,
        &last_run,
        &variant,
        &limit,
    ];
    let mut rows = client.query_raw(&sql, params)?;
    while let Some(row) = rows.next()? {
        visit(read_puzzle(&row)?)?;
    }
    Ok(())
}

/// How many puzzles `filter` selects.
pub(super) fn count(c: &mut impl GenericClient, filter: &PuzzleFilter) -> Result<u64> {
    let size = filter.size.map(|s| s as i64);
    let variant = filter.variant.map(|v| v.name());
    let n: i64 = c
        .query_one(
            &format!("SELECT count(*) FROM puzzles p WHERE {FILTER}"),
            &[
                &filter.tier,
                &size,
                &filter.unserved,
                &filter.run_bounds().0,
                &filter.run_bounds().1,
                &variant,
            ],
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
