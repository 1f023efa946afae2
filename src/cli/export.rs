//! `bank export`: puzzles out as JSON lines, CSV, .sdk grids or plain lines, streaming.

use super::args::{BankArgs, ConfigArgs, SelectArgs};
use crate::bank::{self, PuzzleFilter, StoredPuzzle};
use crate::formats::exchange;
use crate::grid::{Boxes, Variant};
use anyhow::{bail, Context, Result};
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
    /// The .sdk text form: N lines of N cells with '.', grids separated by a blank line
    /// (cells only: refused for killer puzzles, whose cages it cannot hold).
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

/// Writes the selected puzzles; prints how many to stderr.
pub fn run(args: &ExportArgs) -> Result<u8> {
    args.select.check(&args.config.settings()?)?;
    let bank = bank::open_existing(&args.common.db)?;
    let filter = PuzzleFilter {
        limit: args.limit,
        unserved: args.unserved,
        ..args.select.filter()
    };
    if matches!(args.format, Format::Sdk) {
        refuse_what_sdk_cannot_carry(&bank, &filter)?;
    }
    let sink: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write '{}'", path.display()))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    let mut out = std::io::BufWriter::new(sink);
    if matches!(args.format, Format::Csv) {
        writeln!(out, "{}", exchange::csv_header())?;
    }
    let mut n = 0u64;
    bank.scan(&filter, &mut |p| {
        n += 1;
        write_one(&mut out, &p, args.format)
    })?;
    out.flush()?;
    note!("exported {n} puzzles");
    Ok(super::EXIT_OK)
}

/// The .sdk form holds cells only: a selection with a puzzle whose rules add more than
/// its cells can show (a killer's cages, a jigsaw's regions) is refused before anything
/// is written. (A diagonal puzzle's cells are all it has; `import --variant diagonal`
/// reads them back.)
fn refuse_what_sdk_cannot_carry(bank: &bank::Bank, filter: &PuzzleFilter) -> Result<()> {
    for variant in Variant::ALL {
        let what = match (variant.has_cages(), variant.rules().boxes) {
            (true, _) => "cages",
            (false, Boxes::PerPuzzle) => "regions",
            (false, Boxes::Fixed) => continue,
        };
        if filter.variant.is_some_and(|v| v != variant) {
            continue;
        }
        let probe = PuzzleFilter {
            variant: Some(variant),
            limit: Some(1),
            ..filter.clone()
        };
        let mut found = None;
        bank.scan(&probe, &mut |p| {
            found = Some(p.id);
            Ok(())
        })?;
        if let Some(id) = found {
            bail!(
                "--format sdk cannot carry the {what} of {variant} puzzles (puzzle {id} is one): \
                 export them as jsonl, csv or txt, or leave them out with --variant"
            );
        }
    }
    Ok(())
}

fn write_one(out: &mut impl Write, p: &StoredPuzzle, format: Format) -> Result<()> {
    match format {
        Format::Jsonl => writeln!(out, "{}", exchange::json_object(p))?,
        // The text form: the cells, and for a killer puzzle its cage map and sums.
        Format::Txt => writeln!(
            out,
            "{}",
            p.puzzle_grid()
                .with_context(|| format!("puzzle {} is malformed", p.id))?
        )?,
        Format::Sdk => {
            let grid = p
                .puzzle_grid()
                .with_context(|| format!("puzzle {} is malformed", p.id))?;
            let line = grid.to_line();
            for row in line.as_bytes().chunks(p.geometry.n()) {
                out.write_all(row)?;
                writeln!(out)?;
            }
            writeln!(out)?;
        }
        Format::Csv => writeln!(out, "{}", exchange::csv_line(p))?,
    }
    Ok(())
}
