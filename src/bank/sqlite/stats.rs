//! The SQL behind `bank stats`.

use crate::bank::columns::COUNTERS;
use crate::bank::stats::{ClueCount, RunRow, Stats, TierCount, Variety};
use anyhow::Result;
use rusqlite::Connection;

/// Counts, histograms, the last `runs` runs and the 20 newest alarms.
pub(super) fn collect(c: &Connection, runs: usize) -> Result<Stats> {
    let total = c.query_row("SELECT count(*) FROM puzzles", [], |r| r.get(0))?;
    let by_tier = c
        .prepare("SELECT size, tier, count(*), count(*) - count(served_at), variant FROM puzzles GROUP BY size, variant, tier ORDER BY size, variant, min(id)")?
        .query_map([], |r| Ok(TierCount { size: r.get(0)?, variant: super::variant_column(r, 4)?, tier: r.get(1)?, puzzles: r.get(2)?, unserved: r.get(3)?, quota: None }))?
        .collect::<rusqlite::Result<_>>()?;
    // A 'transform' base grid without a mother seed is the pattern route (migration 4).
    let variety = c
        .prepare(
            "SELECT p.size, p.tier, count(DISTINCT p.solution_class),
                    (SELECT max(n) FROM (SELECT count(*) AS n FROM puzzles q
                      WHERE q.size = p.size AND q.variant = p.variant AND q.tier = p.tier
                      GROUP BY q.solution_class)),
                    count(DISTINCT p.dig_strategy),
                    count(DISTINCT g.route || (g.mother_seed IS NULL)), p.variant
             FROM puzzles p LEFT JOIN base_grids g ON g.id = p.base_grid_id
             GROUP BY p.size, p.variant, p.tier ORDER BY p.size, p.variant, min(p.id)",
        )?
        .query_map([], |r| {
            Ok(Variety {
                size: r.get(0)?,
                variant: super::variant_column(r, 6)?,
                tier: r.get(1)?,
                solution_classes: r.get(2)?,
                largest_class: r.get::<_, Option<u64>>(3)?.unwrap_or(0),
                dig_strategies: r.get(4)?,
                routes: r.get(5)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    let clue_histogram = c
        .prepare("SELECT size, tier, clues, count(*), variant FROM puzzles GROUP BY size, variant, tier, clues ORDER BY size, variant, tier, clues")?
        .query_map([], |r| Ok(ClueCount { size: r.get(0)?, variant: super::variant_column(r, 4)?, tier: r.get(1)?, clues: r.get(2)?, puzzles: r.get(3)? }))?
        .collect::<rusqlite::Result<_>>()?;
    let runs = super::read_all(
        c,
        &format!(
            "SELECT id, started_at, status, run_seed, {COUNTERS}, message, tiers FROM runs ORDER BY id DESC LIMIT ?1"
        ),
        [runs as i64],
        |r| RunRow::read(r),
    )?;
    let alarms = super::runs::alarms(c, "ORDER BY id DESC LIMIT 20")?;
    Ok(Stats {
        total,
        by_tier,
        variety,
        clue_histogram,
        runs,
        alarms,
    })
}
