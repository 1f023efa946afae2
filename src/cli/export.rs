//! `bank export`: puzzles out as JSON lines, CSV, .sdk grids or plain lines, streaming.

use super::args::{BankArgs, ConfigArgs, SelectArgs};
use crate::bank::{self, PuzzleFilter, StoredPuzzle};
use crate::grid::parse_line;
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

/// Output format.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum Format {
    /// One JSON object per line with puzzle, solution, tier, rating, clues and metadata.
    Jsonl,
    /// CSV with a header row and the same fields.
    Csv,
    /// The .sdk text form: N lines of N cells with '.', grids separated by a blank line.
    Sdk,
    /// One puzzle a line.
    Txt,
}

/// Export puzzles.
#[derive(Args, Debug)]
pub struct ExportArgs {
    #[command(flatten)]
    pub select: SelectArgs,
    /// Whose tier names `--tier` is checked against.
    #[command(flatten)]
    pub config: ConfigArgs,
    /// At most this many (in id order).
    #[arg(long)]
    pub limit: Option<u64>,
    /// Only puzzles not yet handed out (`served_at` empty).
    #[arg(long)]
    pub unserved: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: Format,
    /// Output file (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub common: BankArgs,
}

const CSV_COLUMNS: &str = "id,size,box_rows,box_cols,puzzle,solution,tier,score,hardest_technique,clues,guesses,backtracks,source,run_id,seed,dig_strategy,target_clues,generator_version,fingerprint,created_at";

/// Writes the selected puzzles; prints how many to stderr.
pub fn run(args: &ExportArgs) -> Result<u8> {
    args.select.check(&args.config.settings()?)?;
    let bank = bank::open_existing(&args.common.db)?;
    let sink: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write '{}'", path.display()))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    let mut out = std::io::BufWriter::new(sink);
    if matches!(args.format, Format::Csv) {
        writeln!(out, "{CSV_COLUMNS}")?;
    }
    let filter = PuzzleFilter {
        limit: args.limit,
        unserved: args.unserved,
        ..args.select.filter()
    };
    let mut n = 0u64;
    bank.scan(&filter, &mut |p| {
        n += 1;
        write_one(&mut out, &p, args.format)
    })?;
    out.flush()?;
    note!("exported {n} puzzles");
    Ok(super::EXIT_OK)
}

fn write_one(out: &mut impl Write, p: &StoredPuzzle, format: Format) -> Result<()> {
    match format {
        Format::Jsonl => writeln!(out, "{}", serde_json::to_string(&export_record(p))?)?,
        Format::Txt => writeln!(out, "{}", p.puzzle)?,
        Format::Sdk => {
            let grid =
                parse_line(&p.puzzle).with_context(|| format!("puzzle {} is malformed", p.id))?;
            let line = grid.to_line();
            for row in line.as_bytes().chunks(p.geometry.n()) {
                out.write_all(row)?;
                writeln!(out)?;
            }
            writeln!(out)?;
        }
        Format::Csv => {
            let opt = |v: Option<String>| v.unwrap_or_default();
            let (score, hardest) = p
                .rating
                .as_ref()
                .map_or((String::new(), String::new()), |r| {
                    (format!("{:.1}", r.score), r.hardest_technique.clone())
                });
            writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                p.id,
                p.geometry.n(),
                p.geometry.box_rows(),
                p.geometry.box_cols(),
                p.puzzle,
                p.solution,
                p.tier,
                score,
                hardest,
                p.clues,
                p.guesses,
                p.backtracks,
                p.source.name(),
                p.run_id,
                opt(p.seed.map(|s| s.to_string())),
                opt(p.dig_strategy.map(|s| s.name().to_string())),
                p.target_clues.map(|t| t.to_string()).unwrap_or_default(),
                p.generator_version,
                p.fingerprint,
                p.created_at
            )?;
        }
    }
    Ok(())
}

fn export_record(p: &StoredPuzzle) -> serde_json::Value {
    serde_json::json!({
        "id": p.id, "size": p.geometry.n(), "box_rows": p.geometry.box_rows(),
        "box_cols": p.geometry.box_cols(),
        "puzzle": p.puzzle, "solution": p.solution, "tier": p.tier, "clues": p.clues,
        "score": p.rating.as_ref().map(|r| r.score),
        "hardest_technique": p.rating.as_ref().map(|r| &r.hardest_technique),
        "rater_completed": p.rating.as_ref().map(|r| r.completed),
        "guesses": p.guesses, "backtracks": p.backtracks, "source": p.source.name(),
        "run_id": p.run_id, "seed": p.seed.map(|s| s.to_string()),
        "dig_strategy": p.dig_strategy.map(|s| s.name()), "target_clues": p.target_clues,
        "generator_version": p.generator_version, "fingerprint": p.fingerprint,
        "created_at": p.created_at,
    })
}
