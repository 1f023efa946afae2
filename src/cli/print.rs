//! `bank print`: puzzle sheets for paper, as PDF or SVG.

use super::args::{BankArgs, ConfigArgs, SelectArgs};
use crate::bank::{self, PuzzleFilter, StoredPuzzle};
use crate::picture::sheet::{Book, Entry, Paper, PerPage};
use crate::picture::{Canvas, PdfCanvas, SvgCanvas};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

/// Output format of a sheet.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SheetFormat {
    /// PDF, base-14 Helvetica (nothing embedded).
    Pdf,
    /// One SVG with the pages one under the other.
    Svg,
}

/// Print puzzle sheets.
#[derive(Args, Debug)]
pub struct PrintArgs {
    #[command(flatten)]
    pub select: SelectArgs,
    /// These puzzles, in this order (comma-separated ids).
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["count", "tier", "size", "unserved"])]
    pub ids: Vec<i64>,
    /// How many puzzles (the first in id order that match the other flags).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub count: u64,
    /// Only puzzles not yet handed out.
    #[arg(long)]
    pub unserved: bool,
    /// Puzzles a page: 1, 2, 4 or 6.
    #[arg(long, default_value = "4", value_parser = per_page)]
    pub per_page: PerPage,
    /// Paper size.
    #[arg(long, value_enum, default_value = "a4")]
    pub paper: Paper,
    /// Add the solutions on pages after the puzzles.
    #[arg(long)]
    pub solutions: bool,
    /// Output format (default: from the --out extension, else pdf).
    #[arg(long, value_enum)]
    pub format: Option<SheetFormat>,
    /// The file to write.
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub common: BankArgs,
}

fn per_page(text: &str) -> Result<PerPage, String> {
    text.parse::<u8>()
        .ok()
        .and_then(PerPage::new)
        .ok_or_else(|| format!("'{text}' puzzles a page: use 1, 2, 4 or 6"))
}

/// The format asked for, or the one the file name says.
fn format_of(asked: Option<SheetFormat>, out: &Path) -> SheetFormat {
    asked.unwrap_or_else(|| match out.extension().and_then(|e| e.to_str()) {
        Some(ext) if ext.eq_ignore_ascii_case("svg") => SheetFormat::Svg,
        _ => SheetFormat::Pdf,
    })
}

/// Writes the sheet; prints what it wrote to stderr.
pub fn run(args: &PrintArgs) -> Result<u8> {
    args.select.check(&args.config.settings()?)?;
    let bank = bank::open_existing(&args.common.db)?;
    let puzzles = select(&bank, args)?;
    let entries = puzzles.iter().map(entry).collect::<Result<Vec<Entry>>>()?;
    let book = Book {
        paper: args.paper,
        per_page: args.per_page,
        solutions: args.solutions,
    };
    let title = format!("Sudoku: {} puzzles", entries.len());
    let format = format_of(args.format, &args.out);
    let mut canvas: Box<dyn Canvas> = match format {
        SheetFormat::Pdf => Box::new(PdfCanvas::new(&title)),
        SheetFormat::Svg => Box::new(SvgCanvas::new(&title)),
    };
    book.draw(canvas.as_mut(), &entries);
    let bytes = canvas.finish();
    std::fs::write(&args.out, bytes)
        .with_context(|| format!("cannot write '{}'", args.out.display()))?;
    note!(
        "printed {} puzzles on {} pages to '{}'",
        entries.len(),
        book.page_count(&entries),
        args.out.display()
    );
    Ok(super::EXIT_OK)
}

/// The puzzles `--ids` names (every one must exist), or the first `--count` that match.
fn select(bank: &bank::Bank, args: &PrintArgs) -> Result<Vec<StoredPuzzle>> {
    if !args.ids.is_empty() {
        let mut found = Vec::with_capacity(args.ids.len());
        for &id in &args.ids {
            match bank.puzzle(id)? {
                Some(p) => found.push(p),
                None => bail!(
                    "no puzzle with id {id} in '{}': check the --ids list",
                    args.common.db
                ),
            }
        }
        return Ok(found);
    }
    let filter = PuzzleFilter {
        limit: Some(args.count),
        unserved: args.unserved,
        ..args.select.filter()
    };
    let mut found = Vec::new();
    bank.scan(&filter, &mut |p| {
        found.push(p);
        Ok(())
    })?;
    if found.is_empty() {
        bail!(
            "no puzzles match in '{}'{}: fill the bank or widen --tier/--size",
            args.common.db,
            if args.unserved {
                " (unserved only)"
            } else {
                ""
            }
        );
    }
    Ok(found)
}

fn entry(p: &StoredPuzzle) -> Result<Entry> {
    let malformed = || format!("puzzle {} is malformed in the bank", p.id);
    let score = p
        .rating
        .as_ref()
        .map_or_else(|| "unrated".to_string(), |r| format!("{:.1}", r.score));
    Ok(Entry {
        label: p.id.to_string(),
        details: format!(
            "{} - {} givens - {} - {}",
            p.geometry.short_label(),
            p.clues,
            p.tier,
            score
        ),
        puzzle: p.puzzle_grid().with_context(malformed)?,
        solution: p.solution_grid().with_context(malformed)?,
    })
}
