//! The SQL behind `bank stats`.

use super::select_rows;
use crate::bank::columns::COUNTERS;
use crate::bank::stats::{RunRow, Stats};
use anyhow::Result;
use rusqlite::Connection;

/// Counts, histograms, the last `runs` runs and the 20 newest alarms.
pub(super) fn collect(c: &Connection, runs: usize) -> Result<Stats> {
    let total = c.query_row("SELECT count(*) FROM puzzles", [], |r| r.get(0))?;
    let by_tier = select_rows(
        c,
        "SELECT size, variant, tier, count(*), count(*) - count(served_at), NULL
         FROM puzzles GROUP BY size, variant, tier ORDER BY size, variant, min(id)",
        [],
    )?;
    // A 'transform' base grid without a mother seed is the pattern route (migration 4).
    let variety = select_rows(
        c,
        "SELECT p.size, p.variant, p.tier, count(DISTINCT p.solution_class),
                coalesce((SELECT max(n) FROM (SELECT count(*) AS n FROM puzzles q
                  WHERE q.size = p.size AND q.variant = p.variant AND q.tier = p.tier
                  GROUP BY q.solution_class)), 0),
                count(DISTINCT p.dig_strategy),
                count(DISTINCT g.route || (g.mother_seed IS NULL))
         FROM puzzles p LEFT JOIN base_grids g ON g.id = p.base_grid_id
         GROUP BY p.size, p.variant, p.tier ORDER BY p.size, p.variant, min(p.id)",
        [],
    )?;
    let clue_histogram = select_rows(
        c,
        "SELECT size, variant, tier, clues, count(*) FROM puzzles
         GROUP BY size, variant, tier, clues ORDER BY size, variant, tier, clues",
        [],
    )?;
    let runs: Vec<RunRow> = select_rows(
        c,
        &format!(
            "SELECT id, started_at, status, run_seed, {COUNTERS}, message, tiers FROM runs ORDER BY id DESC LIMIT ?1"
        ),
        [runs as i64],
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
