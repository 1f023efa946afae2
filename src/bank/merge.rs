//! Copying one bank into another through the [`Store`] interface, whatever the backends:
//! runs (with where they came from), puzzles with every column (deduplicated by
//! fingerprint), base grids, retired fingerprints, the puzzles of the day, and alarms.

use super::quota::Stored;
use super::{Batch, Store, StoredPuzzle};
use anyhow::Result;
use serde::Serialize;
use std::collections::HashMap;

/// Puzzles per transaction.
const BATCH: usize = 500;

/// What a merge did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Merged {
    /// Runs copied (those not merged before).
    pub runs: u64,
    /// Puzzles copied.
    pub puzzles: u64,
    /// Puzzles skipped: their fingerprint was stored or retired here already.
    pub duplicates: u64,
    /// Retired fingerprints added.
    pub retired: u64,
    /// Puzzles of the day recorded (days this bank had none for).
    pub days: u64,
    /// Alarms copied with their runs.
    pub alarms: u64,
}

/// Copies `from` into `into`. `name` says where `from` is, for the `origin` columns:
/// a copied run's origin is `NAME run ID`, a copied puzzle's is its own origin if it had
/// one, else `NAME puzzle ID`. Runs keep their counters as they were in `from`.
pub fn merge(from: &dyn Store, into: &mut dyn Store, name: &str) -> Result<Merged> {
    let mut merged = Merged::default();
    // A run merged before (same origin) is reused, so merging twice copies nothing twice.
    let copied_before: HashMap<String, i64> = into
        .runs()?
        .into_iter()
        .filter_map(|r| Some((r.origin?, r.id)))
        .collect();
    let mut run_ids = HashMap::new();
    // Runs copied now (their alarms and samples come along; those of runs copied before came then).
    let mut new_runs = HashMap::new();
    for mut run in from.runs()? {
        let old = run.id;
        let origin = run
            .origin
            .get_or_insert_with(|| format!("{name} run {old}"));
        let id = match copied_before.get(origin.as_str()) {
            Some(&id) => id,
            None => {
                merged.runs += 1;
                let id = into.copy_run(&run)?;
                new_runs.insert(old, id);
                id
            }
        };
        run_ids.insert(old, id);
    }
    // Consecutive puzzles of one run go in one batch (a batch belongs to one run).
    let mut pending: Vec<StoredPuzzle> = Vec::with_capacity(BATCH);
    let mut flush = |pending: &mut Vec<StoredPuzzle>, merged: &mut Merged| -> Result<()> {
        let Some(first) = pending.first() else {
            return Ok(());
        };
        let run_id = run_ids[&first.run_id];
        let batch = Batch {
            puzzles: pending.drain(..).map(|p| p.record).collect(),
            ..Batch::default()
        };
        let new = into.insert_batch(run_id, &batch, &Default::default())?;
        let stored = new.outcomes.iter().filter(|&&s| s == Stored::New).count() as u64;
        merged.puzzles += stored;
        merged.duplicates += new.outcomes.len() as u64 - stored;
        Ok(())
    };
    from.scan(&Default::default(), &mut |mut p| {
        if !run_ids.contains_key(&p.run_id) {
            anyhow::bail!(
                "puzzle {} belongs to run {}, which is not in the bank",
                p.id,
                p.run_id
            );
        }
        if pending.len() == BATCH || pending.first().is_some_and(|f| f.run_id != p.run_id) {
            flush(&mut pending, &mut merged)?;
        }
        let id = p.id;
        p.record
            .origin
            .get_or_insert_with(|| format!("{name} puzzle {id}"));
        pending.push(p);
        Ok(())
    })?;
    flush(&mut pending, &mut merged)?;
    merged.retired = into.retire(&from.retired()?)?;
    merged.days = into.record_days(&from.days()?)?;
    let alarms: Vec<_> = from
        .alarms()?
        .into_iter()
        .filter_map(|mut a| {
            a.run_id = *new_runs.get(&a.run_id)?;
            Some(a)
        })
        .collect();
    merged.alarms = into.copy_alarms(&alarms)?;
    let samples: Vec<_> = from
        .samples(0)?
        .into_iter()
        .filter_map(|mut s| {
            s.run_id = *new_runs.get(&s.run_id)?;
            Some(s)
        })
        .collect();
    into.copy_samples(&samples)?;
    Ok(merged)
}
