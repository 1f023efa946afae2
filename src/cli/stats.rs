//! `bank stats`: what the bank holds and how the last runs went.

use super::args::{BankArgs, ConfigArgs, SelectArgs};
use crate::bank;
use crate::grid::{Geometry, Variant};
use anyhow::Result;
use clap::Args;

/// Show counts per tier and size, clue histograms, recent runs and alarms.
#[derive(Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    pub common: BankArgs,
    /// Only this tier and/or size.
    #[command(flatten)]
    pub select: SelectArgs,
    /// Whose tiers (and their order) and quotas to show beside the counts.
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Runs to list.
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
}

/// Prints the statistics.
pub fn run(args: &StatsArgs) -> Result<u8> {
    let settings = args.config.settings()?;
    args.select.check(&settings)?;
    let mut s = bank::open_existing(&args.common.db)?.stats(args.runs)?;
    // Config order (easiest first), tiers the config does not know last; only the
    // selected size and tier.
    let rank = |size: u32, variant: Variant, tier: &str| {
        Geometry::for_size(size as usize)
            .and_then(|g| {
                settings
                    .tiers(g.with_variant(variant))
                    .iter()
                    .position(|t| t.name == tier)
            })
            .unwrap_or(usize::MAX)
    };
    let keep = |size: u32, variant: Variant, tier: &str| {
        args.select.size.is_none_or(|g| g.n() == size as usize)
            && args.select.variant.is_none_or(|v| v == variant)
            && args.select.tier.as_deref().is_none_or(|t| t == tier)
    };
    s.by_tier.retain(|t| keep(t.size, t.variant, &t.tier));
    s.by_tier
        .sort_by_key(|t| (t.size, t.variant, rank(t.size, t.variant, &t.tier)));
    s.clue_histogram
        .retain(|h| keep(h.size, h.variant, &h.tier));
    s.variety.retain(|v| keep(v.size, v.variant, &v.tier));
    s.variety
        .sort_by_key(|v| (v.size, v.variant, rank(v.size, v.variant, &v.tier)));
    s.clue_histogram
        .sort_by_key(|h| (h.size, h.variant, rank(h.size, h.variant, &h.tier), h.clues));
    for t in &mut s.by_tier {
        t.quota = settings
            .quotas()
            .iter()
            .find(|q| {
                q.geometry.n() == t.size as usize
                    && q.geometry.variant() == t.variant
                    && q.tier.name == t.tier
            })
            .map(|q| q.count);
    }
    // A variant's size reads `9d` (diagonal, its rule set's tag); classic sizes stay
    // bare numbers.
    let size = |n: u32, v: Variant| format!("{n}{}", v.rules().tag);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
        return Ok(super::EXIT_OK);
    }
    println!("{} puzzles in {}", s.total, args.common.db);
    println!("\nsize  tier        puzzles  unserved     quota");
    for t in &s.by_tier {
        let quota = t.quota.map_or("-".into(), |q| q.to_string());
        println!(
            "{:>4}  {:<10} {:>8} {:>9} {:>9}",
            size(t.size, t.variant),
            t.tier,
            t.puzzles,
            t.unserved,
            quota
        );
    }
    println!("\nvariety  (solution classes: solution grids up to the sudoku group)");
    println!("size  tier        classes  largest  strategies  routes");
    for v in &s.variety {
        println!(
            "{:>4}  {:<10} {:>8} {:>8} {:>11} {:>7}",
            size(v.size, v.variant),
            v.tier,
            v.solution_classes,
            v.largest_class,
            v.dig_strategies,
            v.routes
        );
    }
    println!("\nclue histogram (size tier: clues=count ...)");
    let mut last: Option<(u32, Variant, &str)> = None;
    for h in &s.clue_histogram {
        if last != Some((h.size, h.variant, h.tier.as_str())) {
            print!(
                "{}{:>4} {:<10}",
                if last.is_some() { "\n" } else { "" },
                size(h.size, h.variant),
                h.tier
            );
            last = Some((h.size, h.variant, h.tier.as_str()));
        }
        print!(" {}={}", h.clues, h.puzzles);
    }
    println!("\n\nlast runs");
    for r in &s.runs {
        println!(
            "run {:>4} {} {:<11} accepted {} attempts {} duplicates {} rejected {} timeouts {} retries {} alarms {} seed {}{}",
            r.id, r.started_at, r.status, r.counts.accepted, r.counts.attempts, r.counts.duplicates,
            r.counts.rejected, r.counts.timeouts, r.counts.retries, r.counts.alarms, r.seed,
            r.message.as_deref().map(|m| format!("\n         {m}")).unwrap_or_default()
        );
        for t in &r.tiers {
            println!("         {t}");
        }
    }
    if !s.alarms.is_empty() {
        println!("\nalarms (newest first)");
        for a in &s.alarms {
            let new = a
                .new_target
                .map_or("unchanged (at the top of the range)".into(), |t| {
                    t.to_string()
                });
            println!(
                "run {} {} size {} tier {}: {}/{} timed out, target {} -> {}",
                a.run_id,
                a.at,
                size(a.size, a.variant),
                a.tier,
                a.timeouts_in_window,
                a.window_size,
                a.old_target,
                new
            );
        }
    }
    Ok(super::EXIT_OK)
}
