//! `bank report`: one HTML page on a run or on every run since a date.

use super::args::{BankArgs, ConfigArgs};
use crate::bank::{self, PuzzleFilter, RunRecord};
use crate::date::{epoch_seconds, Date};
use crate::grid::{Geometry, Variant};
use crate::picture::html::report::{MixRow, PuzzleFacts, RunReport};
use anyhow::{bail, Context, Result};
use clap::Args;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// Write a run report.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// This run (default: the newest).
    #[arg(long, conflicts_with = "since")]
    pub run: Option<i64>,
    /// Every run started on or after this day (UTC, YYYY-MM-DD).
    #[arg(long, value_parser = clap::value_parser!(Date))]
    pub since: Option<Date>,
    /// The HTML file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Whose quotas the stock is compared with.
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub common: BankArgs,
}

/// Gathers the runs' samples, alarms and puzzles, and writes the page.
pub fn run(args: &ReportArgs) -> Result<u8> {
    let settings = args.config.settings()?;
    let bank = bank::open_existing(&args.common.db)?;
    let all = bank.runs()?;
    let (runs, title): (Vec<RunRecord>, String) = match (args.run, args.since) {
        (Some(id), _) => match all.into_iter().find(|r| r.id == id) {
            Some(r) => (vec![r], format!("Run {id}")),
            None => bail!(
                "no run {id} in '{}': `bank stats` lists the runs",
                args.common.db
            ),
        },
        (None, Some(day)) => {
            let from = day.epoch_seconds() as f64;
            let runs: Vec<RunRecord> = all
                .into_iter()
                .filter(|r| epoch_seconds(&r.started_at).is_some_and(|t| t >= from))
                .collect();
            if runs.is_empty() {
                bail!("no run in '{}' started on or after {day}", args.common.db);
            }
            let title = format!("Runs since {day}");
            (runs, title)
        }
        (None, None) => match all.into_iter().last() {
            Some(r) => {
                let title = format!("Run {} (the newest)", r.id);
                (vec![r], title)
            }
            None => bail!("'{}' has no runs yet: fill it first", args.common.db),
        },
    };
    let ids: BTreeSet<i64> = runs.iter().map(|r| r.id).collect();
    let (first, last) = (*ids.first().expect("a run"), *ids.last().expect("a run"));
    let samples = bank
        .samples(first)?
        .into_iter()
        .filter(|s| ids.contains(&s.run_id))
        .collect();
    let alarms = bank
        .alarms()?
        .into_iter()
        .filter(|a| ids.contains(&a.run_id))
        .collect();
    let mut puzzles = Vec::new();
    let filter = PuzzleFilter {
        runs: Some((first, last)),
        ..PuzzleFilter::default()
    };
    bank.scan(&filter, &mut |p| {
        if ids.contains(&p.run_id) {
            puzzles.push(PuzzleFacts {
                geometry: p.geometry,
                tier: p.tier.clone(),
                score: p.rating.as_ref().map(|r| r.score),
                clues: p.clues,
            });
        }
        Ok(())
    })?;
    let stock = bank.stock(None)?;
    let mix = mix(&runs, &puzzles, &stock, &settings);
    let report = RunReport {
        subtitle: format!(
            "bank {} · {} runs from {} · made {}",
            args.common.db,
            runs.len(),
            runs[0].started_at,
            crate::date::now_rfc3339()
        ),
        title,
        runs,
        samples,
        alarms,
        puzzles,
        mix,
        bank_puzzles: stock.iter().map(|s| s.puzzles).sum(),
        bank_unserved: stock.iter().map(|s| s.unserved).sum(),
    };
    std::fs::write(&args.out, report.render())
        .with_context(|| format!("cannot write '{}'", args.out.display()))?;
    note!(
        "wrote the report on {} ({} samples, {} puzzles) to '{}'",
        report.title,
        report.samples.len(),
        report.puzzles.len(),
        args.out.display()
    );
    Ok(super::EXIT_OK)
}

/// Per size, variant and tier: wanted by the runs' plans, stored by them, the stock and
/// quota.
fn mix(
    runs: &[RunRecord],
    puzzles: &[PuzzleFacts],
    stock: &[bank::stock::StockLevel],
    settings: &crate::config::Settings,
) -> Vec<MixRow> {
    type Key = (usize, Variant, String);
    fn key(g: Geometry, tier: &str) -> Key {
        (g.n(), g.variant(), tier.to_string())
    }
    let mut rows: BTreeMap<Key, MixRow> = BTreeMap::new();
    fn row<'r>(
        rows: &'r mut BTreeMap<Key, MixRow>,
        geometry: Geometry,
        tier: &str,
    ) -> &'r mut MixRow {
        rows.entry(key(geometry, tier)).or_insert_with(|| MixRow {
            geometry,
            tier: tier.to_string(),
            wanted: 0,
            stored: 0,
            unserved: 0,
            quota: None,
        })
    }
    for r in runs {
        let config: serde_json::Value = serde_json::from_str(&r.config_json).unwrap_or_default();
        for item in config["plan"].as_array().into_iter().flatten() {
            // Plans recorded before variants name none: those runs were classic.
            let variant = item["variant"]
                .as_str()
                .map_or(Some(Variant::default()), |v| v.parse().ok());
            let geometry = item["size"]
                .as_u64()
                .and_then(|n| Geometry::for_size(n as usize))
                .zip(variant)
                .map(|(g, v)| g.with_variant(v));
            if let (Some(geometry), Some(tier), Some(count)) =
                (geometry, item["tier"].as_str(), item["count"].as_u64())
            {
                row(&mut rows, geometry, tier).wanted += count;
            }
        }
    }
    for p in puzzles {
        row(&mut rows, p.geometry, &p.tier).stored += 1;
    }
    // Stock and quota only for the grids and tiers these runs were about.
    for s in stock {
        if let Some(r) = rows.get_mut(&(s.size, s.variant, s.tier.clone())) {
            r.unserved = s.unserved;
        }
    }
    for q in settings.quotas() {
        if let Some(r) = rows.get_mut(&key(q.geometry, &q.tier.name)) {
            r.quota = Some(q.count);
        }
    }
    // Tiers in config order within each grid, as `stats` shows them.
    let order = |r: &MixRow| {
        settings
            .tiers(r.geometry)
            .iter()
            .position(|t| t.name == r.tier)
    };
    let mut out: Vec<MixRow> = rows.into_values().collect();
    out.sort_by_key(|r| {
        (
            r.geometry.n(),
            r.geometry.variant(),
            order(r),
            r.tier.clone(),
        )
    });
    out
}
