//! The SQL behind `bank stats` on PostgreSQL: the same figures, in the same order, as
//! SQLite's.

use crate::bank::columns::COUNTERS;
use crate::bank::stats::{ClueCount, RunRow, Stats, TierCount, Variety};
use anyhow::Result;
use postgres::GenericClient;

/// Counts, histograms, the last `runs` runs and the 20 newest alarms.
pub(super) fn collect(c: &mut impl GenericClient, runs: usize) -> Result<Stats> {
    let n = |r: &postgres::Row, i: usize| r.get::<_, i64>(i) as u64;
    let small = |r: &postgres::Row, i: usize| r.get::<_, i64>(i) as u32;
    let total: i64 = c.query_one("SELECT count(*) FROM puzzles", &[])?.get(0);
    let by_tier = c
        .query(
            "SELECT size, tier, count(*), count(*) - count(served_at), variant FROM puzzles
             GROUP BY size, variant, tier ORDER BY size, variant, min(id)",
            &[],
        )?
        .iter()
        .map(|r| {
            Ok(TierCount {
                size: small(r, 0),
                variant: super::variant_column(r.get(4))?,
                tier: r.get(1),
                puzzles: n(r, 2),
                unserved: n(r, 3),
                quota: None,
            })
        })
        .collect::<Result<_>>()?;
    // A 'transform' base grid without a mother seed is the pattern route (migration 4).
    let variety = c
        .query(
            "SELECT p.size, p.tier, count(DISTINCT p.solution_class),
                    (SELECT max(k) FROM (SELECT count(*) AS k FROM puzzles q
                      WHERE q.size = p.size AND q.variant = p.variant AND q.tier = p.tier
                      GROUP BY q.solution_class) AS classes),
                    count(DISTINCT p.dig_strategy),
                    count(DISTINCT g.route || (g.mother_seed IS NULL)::text), p.variant
             FROM puzzles p LEFT JOIN base_grids g ON g.id = p.base_grid_id
             GROUP BY p.size, p.variant, p.tier ORDER BY p.size, p.variant, min(p.id)",
            &[],
        )?
        .iter()
        .map(|r| {
            Ok(Variety {
                size: small(r, 0),
                variant: super::variant_column(r.get(6))?,
                tier: r.get(1),
                solution_classes: n(r, 2),
                largest_class: r.get::<_, Option<i64>>(3).unwrap_or(0) as u64,
                dig_strategies: n(r, 4),
                routes: n(r, 5),
            })
        })
        .collect::<Result<_>>()?;
    let clue_histogram = c
        .query(
            "SELECT size, tier, clues, count(*), variant FROM puzzles
             GROUP BY size, variant, tier, clues ORDER BY size, variant, tier, clues",
            &[],
        )?
        .iter()
        .map(|r| {
            Ok(ClueCount {
                size: small(r, 0),
                variant: super::variant_column(r.get(4))?,
                tier: r.get(1),
                clues: small(r, 2),
                puzzles: n(r, 3),
            })
        })
        .collect::<Result<_>>()?;
    let runs = c
        .query(
            &format!(
                "SELECT id, started_at, status, run_seed, {COUNTERS}, message, tiers FROM runs
                 ORDER BY id DESC LIMIT $1"
            ),
            &[&(runs as i64)],
        )?
        .iter()
        .map(RunRow::read)
        .collect::<Result<_>>()?;
    let alarms = super::runs::alarms(c, "ORDER BY id DESC LIMIT 20")?;
    Ok(Stats {
        total: total as u64,
        by_tier,
        variety,
        clue_histogram,
        runs,
        alarms,
    })
}
