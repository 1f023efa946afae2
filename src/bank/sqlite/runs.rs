//! The `runs` table: a row per fill or import, its counters kept close to what is stored.

use super::NOW;
use crate::bank::columns::{slots, COUNTERS, RUN_COLUMNS};
use crate::bank::liveness::{self, Running};
use crate::bank::row::Value;
use crate::bank::stats::{AlarmRow, ALARM_COLUMNS};
use crate::bank::{RunCounts, RunEnd, RunRecord, TierOutcome};
use anyhow::Result;
use rusqlite::{params, params_from_iter, Connection};

/// Marks runs left `running` by a dead process as `interrupted` ([`liveness`]).
pub(super) fn close_stale(conn: &Connection) -> Result<usize> {
    let host = liveness::host_name();
    let lease = liveness::LEASE.as_secs();
    let stale: Vec<i64> = conn
        .prepare(&format!(
            "SELECT id, pid, host,
                    coalesce(heartbeat_at, started_at) >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{lease} seconds')
             FROM runs WHERE status = 'running'"
        ))?
        .query_map([], |r| {
            Ok(Running {
                id: r.get(0)?,
                pid: r.get(1)?,
                host: r.get(2)?,
                fresh: r.get(3)?,
            })
        })?
        .filter_map(|row| row.ok())
        .filter(|run| run.is_dead(&host))
        .map(|run| run.id)
        .collect();
    for id in &stale {
        conn.execute(
            &format!(
                "UPDATE runs SET status = 'interrupted', finished_at = {NOW},
                        message = coalesce(message, 'process ended without closing the run')
                 WHERE id = ?1 AND status = 'running'"
            ),
            [id],
        )?;
    }
    Ok(stale.len())
}

/// Records a new run of this process and returns its id.
pub(super) fn start(
    conn: &Connection,
    run_seed: u64,
    config_json: &str,
    generator_version: u32,
) -> Result<i64> {
    conn.execute(
        &format!(
            "INSERT INTO runs (started_at, heartbeat_at, status, run_seed, config_json,
                               generator_version, pid, host)
             VALUES ({NOW}, {NOW}, 'running', ?1, ?2, ?3, ?4, ?5)"
        ),
        params![
            run_seed.to_string(),
            config_json,
            generator_version,
            std::process::id(),
            liveness::host_name()
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Stores the run's counters (called inside each batch so a crash keeps them close),
/// which is also the run's heartbeat.
pub(super) fn update_counts(conn: &Connection, run_id: i64, c: &RunCounts) -> Result<()> {
    let set: Vec<String> = COUNTERS
        .split(", ")
        .enumerate()
        .map(|(i, c)| format!("{c} = ?{}", i + 2))
        .collect();
    let values = std::iter::once(Value::Int(Some(run_id))).chain(c.values());
    conn.execute(
        &format!(
            "UPDATE runs SET {}, heartbeat_at = {NOW} WHERE id = ?1",
            set.join(", ")
        ),
        params_from_iter(values),
    )?;
    Ok(())
}

/// Refreshes a run's heartbeat.
pub(super) fn heartbeat(conn: &Connection, run_id: i64) -> Result<()> {
    conn.execute(
        &format!("UPDATE runs SET heartbeat_at = {NOW} WHERE id = ?1"),
        [run_id],
    )?;
    Ok(())
}

/// Closes a run with its final status, counters, message and tiers.
pub(super) fn finish(conn: &Connection, run_id: i64, end: &RunEnd) -> Result<()> {
    let tx = conn.unchecked_transaction()?;
    update_counts(&tx, run_id, &end.counts)?;
    tx.execute(
        &format!(
            "UPDATE runs SET status = ?2, message = ?3, tiers = ?4, finished_at = {NOW} \
             WHERE id = ?1"
        ),
        params![
            run_id,
            end.status.name(),
            end.message,
            TierOutcome::to_json(&end.tiers)
        ],
    )?;
    tx.commit()?;
    Ok(())
}

/// The tiers of the last `runs` runs that recorded theirs, newest first.
pub(super) fn recent_tiers(conn: &Connection, runs: usize) -> Result<Vec<TierOutcome>> {
    let mut stmt =
        conn.prepare("SELECT tiers FROM runs WHERE tiers IS NOT NULL ORDER BY id DESC LIMIT ?1")?;
    let texts = stmt.query_map([runs as i64], |r| r.get::<_, String>(0))?;
    let mut out = Vec::new();
    for text in texts {
        out.extend(TierOutcome::from_json(Some(&text?)));
    }
    Ok(out)
}

/// Every run, in id order.
pub(super) fn all(conn: &Connection) -> Result<Vec<RunRecord>> {
    let sql = format!("SELECT {RUN_COLUMNS} FROM runs ORDER BY id");
    super::select_rows(conn, &sql, [])
}

/// Inserts a copy of another bank's run (every column but the id) and returns its new id.
pub(super) fn copy(conn: &Connection, run: &RunRecord) -> Result<i64> {
    let columns = RUN_COLUMNS.trim_start_matches("id, ");
    let values = run.values().split_off(1);
    conn.execute(
        &format!(
            "INSERT INTO runs ({columns}) VALUES ({})",
            slots('?', 1, values.len())
        ),
        params_from_iter(values),
    )?;
    Ok(conn.last_insert_rowid())
}

/// Alarms in the order `tail` (`ORDER BY …`, with any `LIMIT`) gives.
pub(super) fn alarms(conn: &Connection, tail: &str) -> Result<Vec<AlarmRow>> {
    let sql = format!("SELECT {ALARM_COLUMNS} FROM alarms {tail}");
    super::select_rows(conn, &sql, [])
}
