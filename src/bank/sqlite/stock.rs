//! Handing puzzles out (`take`, `daily`), stock levels, and `prune`. Every claim runs in
//! an IMMEDIATE transaction: the write lock is taken before the unserved rows are read,
//! so two processes never claim the same row.

use super::{puzzles, select_rows, NOW};
use crate::bank::stock::{Claim, Day, Pruned, StockLevel};
use crate::bank::StoredPuzzle;
use anyhow::Result;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};

/// Stored and unserved puzzles per size, variant and tier, with those served at or after
/// `since`.
pub(super) fn levels(conn: &Connection, since: Option<&str>) -> Result<Vec<StockLevel>> {
    select_rows(
        conn,
        "SELECT size, variant, tier, count(*), count(*) - count(served_at),
                coalesce(sum(?1 IS NOT NULL AND served_at >= ?1), 0)
         FROM puzzles GROUP BY size, variant, tier ORDER BY size, variant, min(id)",
        [since],
    )
}

/// When the newest run started, if any.
pub(super) fn last_run_start(conn: &Connection) -> Result<Option<String>> {
    Ok(conn.query_row("SELECT max(started_at) FROM runs", [], |r| r.get(0))?)
}

/// Marks up to `claim.count` unserved puzzles served and returns them, in id order:
/// the lowest ids, skipping any that would give the client two puzzles of one solution
/// class in a row (counting the last one it was given before).
pub(super) fn take(conn: &mut Connection, claim: &Claim) -> Result<Vec<StoredPuzzle>> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut previous: Option<String> = tx
        .query_row(
            "SELECT solution_class FROM puzzles WHERE served_to IS ?1 AND served_at IS NOT NULL
             ORDER BY served_at DESC, id DESC LIMIT 1",
            [&claim.client],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    let mut ids = Vec::new();
    {
        let mut stmt = tx.prepare(
            "SELECT id, solution_class FROM puzzles
             WHERE size = ?1 AND tier = ?2 AND variant = ?3 AND served_at IS NULL ORDER BY id",
        )?;
        let mut rows = stmt.query(params![claim.size, claim.tier, claim.variant.name()])?;
        while (ids.len() as u64) < claim.count {
            let Some(row) = rows.next()? else { break };
            let class: Option<String> = row.get(1)?;
            if class.is_some() && class == previous {
                continue;
            }
            ids.push(row.get::<_, i64>(0)?);
            previous = class;
        }
    }
    let mut mark = tx.prepare(&format!(
        "UPDATE puzzles SET served_at = {NOW}, served_to = ?2 WHERE id = ?1"
    ))?;
    for id in &ids {
        mark.execute(params![id, claim.client])?;
    }
    drop(mark);
    let taken = taken_puzzles(&tx, &ids)?;
    tx.commit()?;
    Ok(taken)
}

/// The puzzle of `day`: the one recorded, or (first time asked) the lowest-id unserved
/// puzzle, marked served and recorded. `None` when there is none to give.
pub(super) fn daily(conn: &mut Connection, day: &Day) -> Result<Option<(StoredPuzzle, bool)>> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let date = day.date.to_string();
    let variant = day.variant.name();
    let key = params![date, day.size, variant, day.tier];
    let recorded: Option<i64> = tx
        .query_row(
            "SELECT puzzle_id FROM daily WHERE day = ?1 AND size = ?2 AND variant = ?3
             AND tier = ?4",
            key,
            |r| r.get(0),
        )
        .optional()?;
    let (id, new) = match recorded {
        Some(id) => (id, false),
        None => {
            let Some(id) = tx
                .query_row(
                    "SELECT id FROM puzzles WHERE size = ?1 AND variant = ?2 AND tier = ?3
                     AND served_at IS NULL ORDER BY id LIMIT 1",
                    params![day.size, variant, day.tier],
                    |r| r.get::<_, i64>(0),
                )
                .optional()?
            else {
                return Ok(None);
            };
            tx.execute(
                &format!("UPDATE puzzles SET served_at = {NOW}, served_to = ?2 WHERE id = ?1"),
                params![id, day.served_to()],
            )?;
            tx.execute(
                "INSERT INTO daily (day, size, variant, tier, puzzle_id)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![date, day.size, variant, day.tier, id],
            )?;
            (id, true)
        }
    };
    let puzzle = puzzles::by_id(&tx, id)?;
    tx.commit()?;
    Ok(puzzle.map(|p| (p, new)))
}

/// Deletes puzzles served before `before` (a date or an RFC 3339 time, compared as UTC
/// text), retiring their fingerprints; days' puzzles are kept.
pub(super) fn prune(conn: &mut Connection, before: &str) -> Result<Pruned> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    const OLD: &str = "served_at IS NOT NULL AND served_at < ?1";
    const NOT_DAILY: &str = "id NOT IN (SELECT puzzle_id FROM daily)";
    tx.execute(
        &format!(
            "INSERT OR IGNORE INTO retired_fingerprints (fingerprint, size, tier, served_at, retired_at)
             SELECT fingerprint, size, tier, served_at, {NOW} FROM puzzles WHERE {OLD} AND {NOT_DAILY}"
        ),
        [before],
    )?;
    let deleted = tx.execute(
        &format!("DELETE FROM puzzles WHERE {OLD} AND {NOT_DAILY}"),
        [before],
    )? as u64;
    let kept_daily = tx.query_row(
        &format!("SELECT count(*) FROM puzzles WHERE {OLD}"),
        [before],
        |r| r.get(0),
    )?;
    let base_grids = tx.execute(
        "DELETE FROM base_grids WHERE NOT EXISTS
             (SELECT 1 FROM puzzles WHERE puzzles.base_grid_id = base_grids.id)",
        [],
    )? as u64;
    tx.commit()?;
    Ok(Pruned {
        deleted,
        kept_daily,
        base_grids,
    })
}

/// Adds a retired fingerprint (from another bank) unless it is there.
pub(super) const RETIRE: &str =
    "INSERT OR IGNORE INTO retired_fingerprints (fingerprint, size, tier, served_at, retired_at)
     VALUES (?1, ?2, ?3, ?4, ?5)";

/// Records a day's puzzle found here by fingerprint, unless the day has one.
pub(super) const RECORD_DAYS: &str =
    "INSERT OR IGNORE INTO daily (day, size, variant, tier, puzzle_id)
     SELECT ?1, ?2, ?3, ?4, id FROM puzzles WHERE fingerprint = ?5";

/// The puzzles `ids` just claimed, in that order.
fn taken_puzzles(conn: &Connection, ids: &[i64]) -> Result<Vec<StoredPuzzle>> {
    ids.iter()
        .map(|&id| {
            puzzles::by_id(conn, id)?
                .ok_or_else(|| anyhow::anyhow!("puzzle {id} vanished while it was taken"))
        })
        .collect()
}
