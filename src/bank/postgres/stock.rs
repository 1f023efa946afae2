//! Handing puzzles out (`take`, `daily`), stock levels and `prune` on PostgreSQL. A claim
//! locks the rows it hands out with `FOR UPDATE SKIP LOCKED`, so concurrent claims from
//! any number of machines skip each other's rows rather than wait or collide.

use super::{puzzles, select_rows, NOW};
use crate::bank::stock::{Claim, Day, Pruned, StockLevel};
use crate::bank::StoredPuzzle;
use anyhow::Result;
use postgres::{Client, GenericClient};

/// The advisory lock `daily` holds: the first request for a day chooses, the others wait
/// and read its choice.
const DAILY_LOCK: i64 = 0x5355_444f_4b55_0002;

/// Stored and unserved puzzles per size, variant and tier, with those served at or after
/// `since`.
pub(super) fn levels(c: &mut impl GenericClient, since: Option<&str>) -> Result<Vec<StockLevel>> {
    select_rows(
        c,
        "SELECT size, variant, tier, count(*), count(*) - count(served_at),
                count(*) FILTER (WHERE $1::text IS NOT NULL AND served_at >= $1)
         FROM puzzles GROUP BY size, variant, tier ORDER BY size, variant, min(id)",
        &[&since],
    )
}

/// Marks up to `claim.count` unserved puzzles served and returns them, in id order:
/// the lowest ids not claimed by another transaction, skipping any that would give the
/// client two puzzles of one solution class in a row.
pub(super) fn take(client: &mut Client, claim: &Claim) -> Result<Vec<StoredPuzzle>> {
    let mut tx = client.transaction()?;
    let mut previous: Option<String> = tx
        .query_opt(
            "SELECT solution_class FROM puzzles
             WHERE served_to IS NOT DISTINCT FROM $1 AND served_at IS NOT NULL
             ORDER BY served_at DESC, id DESC LIMIT 1",
            &[&claim.client],
        )?
        .and_then(|r| r.get(0));
    let size = claim.size as i64;
    let mut ids: Vec<i64> = Vec::new();
    let mut after = 0i64;
    // Each page locks only as many rows as are still wanted, so concurrent claims share
    // the stock rather than one locking it all; a row skipped for its class stays
    // locked (unserved) until this claim commits.
    'pages: while (ids.len() as u64) < claim.count {
        let page = (claim.count - ids.len() as u64).min(10_000) as i64;
        let rows = tx.query(
            "SELECT id, solution_class FROM puzzles
             WHERE size = $1 AND tier = $2 AND served_at IS NULL AND id > $3
               AND variant = $5
             ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED",
            &[&size, &claim.tier, &after, &page, &claim.variant.name()],
        )?;
        if rows.is_empty() {
            break;
        }
        for row in &rows {
            after = row.get(0);
            let class: Option<String> = row.get(1);
            if class.is_some() && class == previous {
                continue;
            }
            ids.push(after);
            previous = class;
            if ids.len() as u64 == claim.count {
                break 'pages;
            }
        }
    }
    tx.execute(
        &format!("UPDATE puzzles SET served_at = {NOW}, served_to = $2 WHERE id = ANY($1)"),
        &[&ids, &claim.client],
    )?;
    let taken = ids
        .iter()
        .map(|&id| {
            puzzles::by_id(&mut tx, id)?
                .ok_or_else(|| anyhow::anyhow!("puzzle {id} vanished while it was taken"))
        })
        .collect::<Result<Vec<_>>>()?;
    tx.commit()?;
    Ok(taken)
}

/// The puzzle of `day`: the one recorded, or (first time asked) the lowest-id unserved
/// puzzle no one else is claiming, marked served and recorded. `None` when there is none.
pub(super) fn daily(client: &mut Client, day: &Day) -> Result<Option<(StoredPuzzle, bool)>> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&DAILY_LOCK])?;
    let date = day.date.to_string();
    let size = day.size as i64;
    let variant = day.variant.name();
    let recorded: Option<i64> = tx
        .query_opt(
            "SELECT puzzle_id FROM daily WHERE day = $1 AND size = $2 AND variant = $3
             AND tier = $4",
            &[&date, &size, &variant, &day.tier],
        )?
        .map(|r| r.get(0));
    let (id, new) = match recorded {
        Some(id) => (id, false),
        None => {
            let Some(row) = tx.query_opt(
                "SELECT id FROM puzzles WHERE size = $1 AND variant = $2 AND tier = $3
                 AND served_at IS NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED",
                &[&size, &variant, &day.tier],
            )?
            else {
                return Ok(None);
            };
            let id: i64 = row.get(0);
            tx.execute(
                &format!("UPDATE puzzles SET served_at = {NOW}, served_to = $2 WHERE id = $1"),
                &[&id, &day.served_to()],
            )?;
            tx.execute(
                "INSERT INTO daily (day, size, variant, tier, puzzle_id)
                 VALUES ($1, $2, $3, $4, $5)",
                &[&date, &size, &variant, &day.tier, &id],
            )?;
            (id, true)
        }
    };
    let puzzle = puzzles::by_id(&mut tx, id)?;
    tx.commit()?;
    Ok(puzzle.map(|p| (p, new)))
}

/// Deletes puzzles served before `before`, retiring their fingerprints; days' puzzles are
/// kept.
pub(super) fn prune(client: &mut Client, before: &str) -> Result<Pruned> {
    let mut tx = client.transaction()?;
    const OLD: &str = "served_at IS NOT NULL AND served_at < $1";
    const NOT_DAILY: &str = "id NOT IN (SELECT puzzle_id FROM daily)";
    tx.execute(
        &format!(
            "INSERT INTO retired_fingerprints (fingerprint, size, tier, served_at, retired_at)
             SELECT fingerprint, size, tier, served_at, {NOW} FROM puzzles
             WHERE {OLD} AND {NOT_DAILY} ON CONFLICT DO NOTHING"
        ),
        &[&before],
    )?;
    let deleted = tx.execute(
        &format!("DELETE FROM puzzles WHERE {OLD} AND {NOT_DAILY}"),
        &[&before],
    )?;
    let kept_daily: i64 = tx
        .query_one(
            &format!("SELECT count(*) FROM puzzles WHERE {OLD}"),
            &[&before],
        )?
        .get(0);
    let base_grids = tx.execute(
        "DELETE FROM base_grids WHERE NOT EXISTS
             (SELECT 1 FROM puzzles WHERE puzzles.base_grid_id = base_grids.id)",
        &[],
    )?;
    tx.commit()?;
    Ok(Pruned {
        deleted,
        kept_daily: kept_daily as u64,
        base_grids,
    })
}

/// Adds a retired fingerprint (from another bank) unless it is there.
pub(super) const RETIRE: &str =
    "INSERT INTO retired_fingerprints (fingerprint, size, tier, served_at, retired_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";

/// Records a day's puzzle found here by fingerprint, unless the day has one.
pub(super) const RECORD_DAYS: &str = "INSERT INTO daily (day, size, variant, tier, puzzle_id)
     SELECT $1::text, $2::bigint, $3::text, $4::text, id FROM puzzles
     WHERE fingerprint = $5::text
     ON CONFLICT DO NOTHING";
