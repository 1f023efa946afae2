//! The `runs` table: a row per fill or import, its counters kept close to what is stored.

use super::NOW;
use crate::bank::{RunCounts, RunEnd, RunRecord};
use anyhow::Result;
use rusqlite::{params, Connection, Row};
use std::path::Path;

/// Marks runs left `running` by a dead process of this host as `interrupted`.
pub(super) fn close_stale(conn: &Connection) -> Result<usize> {
    let host = host_name();
    let stale: Vec<i64> = conn
        .prepare("SELECT id, pid, host FROM runs WHERE status = 'running'")?
        .query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Option<u32>>(1)?,
                r.get::<_, Option<String>>(2)?,
            ))
        })?
        .filter_map(|row| row.ok())
        .filter(|(_, pid, h)| {
            h.as_deref() == Some(host.as_str()) && !pid.is_some_and(process_alive)
        })
        .map(|(id, ..)| id)
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
            "INSERT INTO runs (started_at, status, run_seed, config_json, generator_version, pid, host)
             VALUES ({NOW}, 'running', ?1, ?2, ?3, ?4, ?5)"
        ),
        params![
            run_seed.to_string(),
            config_json,
            generator_version,
            std::process::id(),
            host_name()
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// The counter columns of `runs`, in [`read_counts`] order.
pub(super) const COUNTERS: &str =
    "attempts, accepted, duplicates, rejected, timeouts, retries, alarms";

/// The counters of a row that selected [`COUNTERS`] from column `first` on.
pub(super) fn read_counts(r: &Row, first: usize) -> rusqlite::Result<RunCounts> {
    Ok(RunCounts {
        attempts: r.get(first)?,
        accepted: r.get(first + 1)?,
        duplicates: r.get(first + 2)?,
        rejected: r.get(first + 3)?,
        timeouts: r.get(first + 4)?,
        retries: r.get(first + 5)?,
        alarms: r.get(first + 6)?,
    })
}

/// Stores the run's counters (called inside each batch so a crash keeps them close).
pub(super) fn update_counts(conn: &Connection, run_id: i64, c: &RunCounts) -> Result<()> {
    conn.execute(
        "UPDATE runs SET attempts = ?2, accepted = ?3, duplicates = ?4, rejected = ?5,
                timeouts = ?6, retries = ?7, alarms = ?8 WHERE id = ?1",
        params![
            run_id,
            c.attempts,
            c.accepted,
            c.duplicates,
            c.rejected,
            c.timeouts,
            c.retries,
            c.alarms
        ],
    )?;
    Ok(())
}

/// Closes a run with its final status, counters and message.
pub(super) fn finish(conn: &Connection, run_id: i64, end: &RunEnd) -> Result<()> {
    let tx = conn.unchecked_transaction()?;
    update_counts(&tx, run_id, &end.counts)?;
    tx.execute(
        &format!("UPDATE runs SET status = ?2, message = ?3, finished_at = {NOW} WHERE id = ?1"),
        params![run_id, end.status.name(), end.message],
    )?;
    tx.commit()?;
    Ok(())
}

/// This machine's name, to tell whose `running` runs can be checked for liveness.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .or_else(|_| std::env::var("HOSTNAME"))
        .unwrap_or_else(|_| "unknown".into())
}

/// Whether a process of this host is alive (Linux `/proc`; elsewhere assumed alive).
fn process_alive(pid: u32) -> bool {
    let proc_root = Path::new("/proc");
    !proc_root.is_dir() || proc_root.join(pid.to_string()).exists()
}

/// Every run, in id order.
pub(super) fn all(conn: &Connection) -> Result<Vec<RunRecord>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT id, started_at, finished_at, status, run_seed, config_json, generator_version,
                {COUNTERS}, message, pid, host, origin
         FROM runs ORDER BY id"
    ))?;
    let rows = stmt.query_map([], |r| {
        Ok(RunRecord {
            id: r.get(0)?,
            started_at: r.get(1)?,
            finished_at: r.get(2)?,
            status: r.get(3)?,
            run_seed: r.get(4)?,
            config_json: r.get(5)?,
            generator_version: r.get(6)?,
            counts: read_counts(r, 7)?,
            message: r.get(14)?,
            pid: r.get(15)?,
            host: r.get(16)?,
            origin: r.get(17)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Inserts a copy of another bank's run (every column but the id) and returns its new id.
pub(super) fn copy(conn: &Connection, run: &RunRecord) -> Result<i64> {
    let c = &run.counts;
    conn.execute(
        &format!(
            "INSERT INTO runs (started_at, finished_at, status, run_seed, config_json,
                generator_version, {COUNTERS}, message, pid, host, origin)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)"
        ),
        params![
            run.started_at,
            run.finished_at,
            run.status,
            run.run_seed,
            run.config_json,
            run.generator_version,
            c.attempts,
            c.accepted,
            c.duplicates,
            c.rejected,
            c.timeouts,
            c.retries,
            c.alarms,
            run.message,
            run.pid,
            run.host,
            run.origin
        ],
    )?;
    Ok(conn.last_insert_rowid())
}
