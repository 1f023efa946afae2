//! `bank take`, `bank daily` and `bank prune`: drawing puzzles from the stock and
//! cleaning out what was served long ago.

use super::args::{BankArgs, ConfigArgs};
use crate::bank::stock::{Claim, Day};
use crate::bank::{self, StoredPuzzle};
use crate::config::{check_variant_size, Settings};
use crate::date::Date;
use crate::grid::{Geometry, Variant};
use anyhow::Result;
use clap::{Args, ValueEnum};
use std::io::Write;

/// How taken puzzles are printed.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum TakeFormat {
    /// `id<TAB>puzzle<TAB>solution`, one puzzle a line.
    Txt,
    /// One JSON object a line: id, puzzle, solution, size, variant, tier, score, clues (a
    /// killer's cages, a jigsaw's regions).
    Jsonl,
}

/// Which stock: tier (required) and size (default: the config's default size).
#[derive(Args, Debug, Clone)]
pub struct StockArgs {
    /// The tier to draw from.
    #[arg(long)]
    pub tier: String,
    /// Grid side: 4, 6, 9, 12 or 16 (default: the config's generation.default_size).
    #[arg(long, value_parser = super::args::geometry)]
    pub size: Option<Geometry>,
    /// The variant (`bank variants` lists them); each has its own stock and its own puzzle
    /// of the day.
    #[arg(long, value_parser = super::args::variant, default_value = "classic")]
    pub variant: Variant,
    /// Output format.
    #[arg(long, value_enum, default_value = "txt")]
    pub format: TakeFormat,
    #[command(flatten)]
    pub common: BankArgs,
    /// Whose tier names `--tier` is checked against.
    #[command(flatten)]
    pub config: ConfigArgs,
}

impl StockArgs {
    /// The geometry (size and variant) and the checked tier name.
    fn resolve(&self) -> Result<(Geometry, String)> {
        let settings: Settings = self.config.settings()?;
        let geometry = self
            .size
            .unwrap_or(settings.generation.default_geometry)
            .with_variant(self.variant);
        check_variant_size(geometry)?;
        let tier = settings.tier(&self.tier, geometry)?.name.clone();
        Ok((geometry, tier))
    }
}

/// Hand out unserved puzzles and mark them served.
#[derive(Args, Debug)]
pub struct TakeArgs {
    #[command(flatten)]
    pub stock: StockArgs,
    /// How many puzzles.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub count: u64,
    /// Who takes them: written to `served_to`.
    #[arg(long)]
    pub client: Option<String>,
}

/// `take`: exit 0 when all were taken, 1 when the stock had fewer.
pub fn run_take(args: &TakeArgs) -> Result<u8> {
    let (geometry, tier) = args.stock.resolve()?;
    let mut bank = bank::open_to_serve(&args.stock.common.db)?;
    let taken = bank.take(&Claim {
        size: geometry.n(),
        variant: geometry.variant(),
        tier: tier.clone(),
        count: args.count,
        client: args.client.clone(),
    })?;
    print_all(&taken, args.stock.format)?;
    let missing = args.count - taken.len() as u64;
    if missing > 0 {
        note!(
            "took {} of {} {} {tier} puzzles: the stock is {missing} short \
             (run `bank nightly` to refill it)",
            taken.len(),
            args.count,
            geometry.short_label()
        );
        return Ok(super::EXIT_NEGATIVE);
    }
    Ok(super::EXIT_OK)
}

/// The puzzle of the day.
#[derive(Args, Debug)]
pub struct DailyArgs {
    #[command(flatten)]
    pub stock: StockArgs,
    /// The day (UTC), YYYY-MM-DD (default: today).
    #[arg(long)]
    pub date: Option<Date>,
}

/// `daily`: the day's puzzle (chosen and taken out of the stock the first time).
pub fn run_daily(args: &DailyArgs) -> Result<u8> {
    let (geometry, tier) = args.stock.resolve()?;
    let size = geometry.n();
    let mut bank = bank::open_to_serve(&args.stock.common.db)?;
    let day = Day {
        date: args.date.unwrap_or_else(Date::today),
        size,
        variant: geometry.variant(),
        tier,
    };
    match bank.daily(&day)? {
        Some((puzzle, _)) => {
            print_all(&[puzzle], args.stock.format)?;
            Ok(super::EXIT_OK)
        }
        None => {
            note!(
                "no puzzle of the day for {} ({} {}): the stock is empty \
                 (run `bank nightly` to refill it)",
                day.date,
                geometry.short_label(),
                day.tier
            );
            Ok(super::EXIT_NEGATIVE)
        }
    }
}

/// Delete puzzles served before a date, keeping their fingerprints.
#[derive(Args, Debug)]
pub struct PruneArgs {
    /// Delete puzzles served before this day (UTC midnight), YYYY-MM-DD.
    #[arg(long)]
    pub served_before: Date,
    #[command(flatten)]
    pub common: BankArgs,
}

/// `prune`: prints what it deleted.
pub fn run_prune(args: &PruneArgs) -> Result<u8> {
    let mut bank = bank::open_to_serve(&args.common.db)?;
    let pruned = bank.prune(&args.served_before.to_string())?;
    note!(
        "pruned {} puzzles served before {} and {} base grids no puzzle uses; their \
         fingerprints stay retired, so they are never made again{}",
        pruned.deleted,
        args.served_before,
        pruned.base_grids,
        if pruned.kept_daily > 0 {
            format!("; kept {} that are some day's puzzle", pruned.kept_daily)
        } else {
            String::new()
        }
    );
    Ok(super::EXIT_OK)
}

fn print_all(puzzles: &[StoredPuzzle], format: TakeFormat) -> Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for p in puzzles {
        match format {
            // A killer puzzle's text form carries its cage map and sums, a jigsaw's its
            // region map.
            TakeFormat::Txt => writeln!(out, "{}\t{}\t{}", p.id, p.puzzle_grid()?, p.solution)?,
            TakeFormat::Jsonl => {
                let mut v = serde_json::json!({
                    "id": p.id, "puzzle": p.puzzle, "solution": p.solution,
                    "size": p.geometry.n(), "variant": p.geometry.variant(), "tier": p.tier,
                    "score": p.rating.as_ref().map(|r| r.score), "clues": p.clues,
                });
                if let Some(c) = &p.cages {
                    v["cages"] = c.cages.to_json();
                }
                if let Some(r) = &p.regions {
                    v["regions"] = r.to_text().into();
                }
                writeln!(out, "{v}")?
            }
        }
    }
    out.flush()?;
    Ok(())
}
