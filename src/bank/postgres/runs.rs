//! The `runs` table on PostgreSQL: a row per worker (with host and pid), its counters
//! written with every batch as its heartbeat.

use super::{params, NOW};
use crate::bank::columns::{slots, COUNTERS, RUN_COLUMNS};
use crate::bank::liveness::{self, Running, LEASE};
use crate::bank::row::Value;
use crate::bank::stats::{AlarmRow, ALARM_COLUMNS};
use crate::bank::{RunCounts, RunEnd, RunRecord, TierOutcome};
use anyhow::Result;
use postgres::GenericClient;

/// Marks runs left `running` by a dead worker as `interrupted` ([`liveness`]).
pub(super) fn close_stale(c: &mut impl GenericClient) -> Result<usize> {
    let host = liveness::host_name();
    let lease = LEASE.as_secs() as i64;
    let rows = c.query(
        "SELECT id, pid, host,
                coalesce(heartbeat_at, started_at) >= to_char(
                    (clock_timestamp() - make_interval(secs => $1::bigint)) AT TIME ZONE 'UTC',
                    'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')
         FROM runs WHERE status = 'running'",
        &[&lease],
    )?;
    let mut closed = 0;
    for r in rows {
        let run = Running {
            id: r.get(0),
            pid: r
                .get::<_, Option<i64>>(1)
                .and_then(|p| u32::try_from(p).ok()),
            host: r.get(2),
            fresh: r.get(3),
        };
        if run.is_dead(&host) {
            closed += c.execute(
                &format!(
                    "UPDATE runs SET status = 'interrupted', finished_at = {NOW},
                            message = coalesce(message, 'process ended without closing the run')
                     WHERE id = $1 AND status = 'running'"
                ),
                &[&run.id],
            )? as usize;
        }
    }
    Ok(closed)
}

/// Records a new run of this process and returns its id.
pub(super) fn start(
    c: &mut impl GenericClient,
    run_seed: u64,
    config_json: &str,
    generator_version: u32,
) -> Result<i64> {
    let row = c.query_one(
        &format!(
            "INSERT INTO runs (started_at, heartbeat_at, status, run_seed, config_json,
                               generator_version, pid, host)
             VALUES ({NOW}, {NOW}, 'running', $1, $2, $3, $4, $5) RETURNING id"
        ),
        &[
            &run_seed.to_string(),
            &config_json,
            &i64::from(generator_version),
            &i64::from(std::process::id()),
            &liveness::host_name(),
        ],
    )?;
    Ok(row.get(0))
}

/// Stores the run's counters, which is also the run's heartbeat.
pub(super) fn update_counts(
    c: &mut impl GenericClient,
    run_id: i64,
    counts: &RunCounts,
) -> Result<()> {
    let values: Vec<Value> = std::iter::once(Value::Int(Some(run_id)))
        .chain(counts.values())
        .collect();
    let set: Vec<String> = COUNTERS
        .split(", ")
        .enumerate()
        .map(|(i, col)| format!("{col} = ${}", i + 2))
        .collect();
    c.execute(
        &format!(
            "UPDATE runs SET {}, heartbeat_at = {NOW} WHERE id = $1",
            set.join(", ")
        ),
        &params(&values).refs(),
    )?;
    Ok(())
}

/// Refreshes a run's heartbeat.
pub(super) fn heartbeat(c: &mut impl GenericClient, run_id: i64) -> Result<()> {
    c.execute(
        &format!("UPDATE runs SET heartbeat_at = {NOW} WHERE id = $1"),
        &[&run_id],
    )?;
    Ok(())
}

/// Closes a run with its final status, counters, message and tiers.
pub(super) fn finish(c: &mut postgres::Client, run_id: i64, end: &RunEnd) -> Result<()> {
    let mut tx = c.transaction()?;
    update_counts(&mut tx, run_id, &end.counts)?;
    tx.execute(
        &format!(
            "UPDATE runs SET status = $2, message = $3, tiers = $4, finished_at = {NOW} \
             WHERE id = $1"
        ),
        &[
            &run_id,
            &end.status.name(),
            &end.message,
            &TierOutcome::to_json(&end.tiers),
        ],
    )?;
    tx.commit()?;
    Ok(())
}

/// The tiers of the last `runs` runs that recorded theirs, newest first.
pub(super) fn recent_tiers(c: &mut impl GenericClient, runs: usize) -> Result<Vec<TierOutcome>> {
    let rows = c.query(
        "SELECT tiers FROM runs WHERE tiers IS NOT NULL ORDER BY id DESC LIMIT $1",
        &[&(runs as i64)],
    )?;
    Ok(rows
        .iter()
        .flat_map(|r| TierOutcome::from_json(Some(r.get::<_, &str>(0))))
        .collect())
}

/// Every run, in id order.
pub(super) fn all(c: &mut impl GenericClient) -> Result<Vec<RunRecord>> {
    super::select_rows(
        c,
        &format!("SELECT {RUN_COLUMNS} FROM runs ORDER BY id"),
        &[],
    )
}

/// Inserts a copy of another bank's run (every column but the id) and returns its new id.
pub(super) fn copy(c: &mut impl GenericClient, run: &RunRecord) -> Result<i64> {
    let columns = RUN_COLUMNS.trim_start_matches("id, ");
    let values = run.values().split_off(1);
    let row = c.query_one(
        &format!(
            "INSERT INTO runs ({columns}) VALUES ({}) RETURNING id",
            slots('$', 1, values.len())
        ),
        &params(&values).refs(),
    )?;
    Ok(row.get(0))
}

/// Alarms in the order `tail` (`ORDER BY …`, with any `LIMIT`) gives.
pub(super) fn alarms(c: &mut impl GenericClient, tail: &str) -> Result<Vec<AlarmRow>> {
    super::select_rows(
        c,
        &format!("SELECT {ALARM_COLUMNS} FROM alarms {tail}"),
        &[],
    )
}
