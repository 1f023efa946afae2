//! `bank import`: external puzzles, validated, solved, rated, deduplicated, stored.

use super::args::{BankArgs, ConfigArgs};
use crate::bank::quota::Stored;
use crate::bank::{
    self, Bank, BaseGridRecord, Batch, PuzzleRecord, RatingRecord, RunCounts, RunEnd, RunStatus,
    Source,
};
use crate::canon::{fingerprint, grid_id};
use crate::config::Settings;
use crate::formats::exchange::{csv_split, Row};
use crate::formats::lines::{self, RawLine};
use crate::generate::GENERATOR_VERSION;
use crate::grid::{
    parse_cells_with, parse_line, parse_line_in, parse_line_with, Grid, ParseError, Regions,
    Variant,
};
use crate::solver::Solver;
use anyhow::Result;
use clap::{Args, ValueEnum};
use std::collections::HashMap;
use std::time::Instant;

/// What an import file holds.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportFormat {
    /// Decided by the first line: `{` is jsonl, a header naming `puzzle` is csv, else txt.
    Auto,
    /// One puzzle a line (`.` or `0` empty; trailing fields ignored).
    Txt,
    /// `bank export --format jsonl` lines (or any objects with a `puzzle` field).
    Jsonl,
    /// `bank export --format csv` (or any CSV with a header naming a `puzzle` column).
    Csv,
    /// `bank export --format sdk`: N rows of N cells per grid (blank lines between grids
    /// are optional). Found by `auto` when the first line is a row of a 4x4 to 12x12 grid;
    /// a 16x16 .sdk file needs `--format sdk` (its rows are as long as a 4x4 line).
    Sdk,
}

/// Import puzzles: plain lines, or the project's own jsonl/csv exports with their
/// metadata (seed, strategy, target, base grid, served state), which stay reproducible.
#[derive(Args, Debug)]
pub struct ImportArgs {
    /// The file (`-` for standard input).
    pub file: String,
    /// What the file holds.
    #[arg(long, value_enum, default_value = "auto")]
    pub format: ImportFormat,
    /// The rules of plain puzzle lines (txt, sdk; `bank variants` lists them). A jsonl or csv
    /// row's own `variant` field wins; a row without one is taken as this.
    #[arg(long, value_parser = super::args::variant, default_value = "classic")]
    pub variant: Variant,
    #[command(flatten)]
    pub common: BankArgs,
    /// Whose tiers place the puzzles.
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// Lines stored per transaction.
const BATCH: usize = 500;

/// Longest time one line may take to solve and rate.
const LINE_BUDGET: std::time::Duration = std::time::Duration::from_secs(10);

/// Imports; exit 0 when every line was usable, 1 when some were skipped; exit 2 with
/// nothing stored when a line is of a kind this bank does not read ([`Unusable::Refuse`]).
pub fn run(args: &ImportArgs) -> Result<u8> {
    let settings = args.config.settings()?;
    let input = Input::open(&args.file)?;
    let name = input.name();
    // A first pass over the file parses (cheap) and refuses the file before the bank is
    // opened; the second parses again and rates (dear).
    walk(&input, args.format, |entry| {
        match entry.puzzle(args.variant) {
            Err(Unusable::Refuse(e)) => Err(anyhow::anyhow!(
                "{name}: line {}: {e}; nothing was imported",
                entry.number()
            )),
            _ => Ok(()),
        }
    })?;
    let mut bank = bank::open(&args.common.db)?;
    let config_json =
        serde_json::to_string(&serde_json::json!({ "import": name, "config": settings.file() }))?;
    let run_id = bank.start_run(0, &config_json, GENERATOR_VERSION)?;
    let mut counts = RunCounts::default();
    let mut bad = 0u64;
    let mut batch = Vec::with_capacity(BATCH);
    let read = walk(&input, args.format, |entry| {
        counts.attempts += 1;
        let origin = format!("import {name} line {}", entry.number());
        let record = entry
            .puzzle(args.variant)
            .and_then(|p| entry.record(&p, &settings, origin));
        match record {
            Ok(p) => batch.push(p),
            Err(Unusable::Skip(e) | Unusable::Refuse(e)) => {
                note!("{name}: line {}: {e}", entry.number());
                bad += 1;
                counts.rejected += 1;
            }
        }
        if batch.len() == BATCH {
            store(&mut bank, run_id, &mut batch, &mut counts)?;
        }
        Ok(())
    })
    .and_then(|()| store(&mut bank, run_id, &mut batch, &mut counts));
    // A read or write error still closes the run, with what was stored before it.
    let (status, message) = match &read {
        Ok(()) => (RunStatus::Completed, None),
        Err(e) => (RunStatus::Failed, Some(format!("{e:#}"))),
    };
    let end = RunEnd {
        status,
        counts,
        message,
        tiers: Vec::new(),
    };
    let closed = bank.finish_run(run_id, &end);
    read?;
    closed?;
    note!(
        "imported {} puzzles from {name} (run {run_id}): {} already in the bank, {bad} lines skipped",
        counts.accepted, counts.duplicates
    );
    Ok(if bad > 0 {
        super::EXIT_NEGATIVE
    } else {
        super::EXIT_OK
    })
}

/// The file imported, read twice: a path is opened again; standard input is held in
/// memory.
enum Input {
    File(String),
    Stdin(Vec<u8>),
}

impl Input {
    fn open(file: &str) -> Result<Input> {
        if file == "-" {
            let mut held = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut held)?;
            return Ok(Input::Stdin(held));
        }
        // Checked now, so that a bad path is told before anything else.
        lines::open(Some(file))?;
        Ok(Input::File(file.to_string()))
    }

    fn name(&self) -> String {
        match self {
            Input::File(path) => path.clone(),
            Input::Stdin(_) => "<stdin>".into(),
        }
    }

    fn reader(&self) -> Result<Box<dyn std::io::BufRead + '_>> {
        Ok(match self {
            Input::File(path) => lines::open(Some(path))?.1,
            Input::Stdin(held) => Box::new(held.as_slice()),
        })
    }
}

/// Why a line is not imported.
enum Unusable {
    /// The line is reported and skipped, the rest goes on (exit 1).
    Skip(String),
    /// The file is not one this bank reads (a variant it does not know, a region map that
    /// is no jigsaw layout): nothing is imported (exit 2).
    Refuse(String),
}

impl Unusable {
    /// A puzzle that does not parse, as `said`: refused when its variant is not made in
    /// its size or its region map is missing or no layout, else skipped.
    fn unparsed(e: &ParseError, said: String) -> Unusable {
        match e {
            ParseError::NotMade { .. } | ParseError::MissingRegions | ParseError::Regions(_) => {
                Unusable::Refuse(said)
            }
            _ => Unusable::Skip(said),
        }
    }
}

impl From<String> for Unusable {
    fn from(e: String) -> Unusable {
        Unusable::Skip(e)
    }
}

impl From<&str> for Unusable {
    fn from(e: &str) -> Unusable {
        Unusable::Skip(e.to_string())
    }
}

/// One puzzle of an import, as its format reads it.
enum Entry {
    /// A txt line or an .sdk grid joined into one line.
    Plain(RawLine),
    /// A jsonl or csv row, or why the line is not one.
    Row(usize, Result<Row, String>),
    /// The file ends within an .sdk grid, after this many rows.
    ShortSdk(RawLine, usize),
}

impl Entry {
    /// The line the entry starts on.
    fn number(&self) -> usize {
        match self {
            Entry::Plain(line) | Entry::ShortSdk(line, _) => line.number,
            Entry::Row(number, _) => *number,
        }
    }

    /// The puzzle with its own fields (cages, regions), parsed and checked for clashes.
    fn puzzle(&self, variant: Variant) -> Result<Grid, Unusable> {
        match self {
            Entry::Plain(line) => parse_line_in(&line.text, variant)
                .map_err(|e| Unusable::unparsed(&e, line.explain(e.to_string()))),
            Entry::Row(_, row) => row_puzzle(row.as_ref().map_err(Clone::clone)?, variant),
            Entry::ShortSdk(_, rows) => Err(Unusable::Skip(format!(
                "the file ends after {rows} rows of an .sdk grid"
            ))),
        }
    }

    /// The record of the entry's `puzzle`: solved, rated, fingerprinted, with a row's
    /// metadata.
    fn record(
        &self,
        puzzle: &Grid,
        settings: &Settings,
        origin: String,
    ) -> Result<PuzzleRecord, Unusable> {
        match self {
            Entry::Row(_, Ok(row)) => with_row_metadata(row, puzzle, settings, origin),
            _ => Ok(rate(puzzle, settings)?),
        }
    }
}

/// Hands each puzzle of the input to `each`, as `format` reads it (`auto`: decided by the
/// first content line; .sdk rows joined into grids; a CSV header read first).
fn walk(
    input: &Input,
    mut format: ImportFormat,
    mut each: impl FnMut(&Entry) -> Result<()>,
) -> Result<()> {
    let mut header: Option<Vec<String>> = None;
    let mut sdk = SdkRows::default();
    let mut lines = lines::lines(input.reader()?).peekable();
    while let Some(line) = lines.next() {
        let mut line = line?;
        if format == ImportFormat::Auto {
            format = detect(&line.text);
        }
        if format == ImportFormat::Sdk {
            match sdk.push(line) {
                Some(grid) => line = grid,
                None if lines.peek().is_some() => continue,
                // The file ends within a grid: what was read is one (short) line.
                None => line = sdk.take(),
            }
        }
        let entry = match format {
            ImportFormat::Csv => match &header {
                None => {
                    header = Some(csv_header(&line).map_err(|e| {
                        anyhow::anyhow!("{}: line {}: {e}", input.name(), line.number)
                    })?);
                    continue;
                }
                Some(names) => Entry::Row(line.number, csv_row(&line, names)),
            },
            ImportFormat::Jsonl => Entry::Row(line.number, json_row(&line)),
            _ => Entry::Plain(line),
        };
        each(&entry)?;
    }
    if sdk.rows > 0 {
        // A grid cut short by a row of another width, at the end of the file.
        let rows = sdk.rows;
        each(&Entry::ShortSdk(sdk.take(), rows))?;
    }
    Ok(())
}

fn store(
    bank: &mut Bank,
    run_id: i64,
    batch: &mut Vec<PuzzleRecord>,
    counts: &mut RunCounts,
) -> Result<()> {
    let stored = Batch {
        puzzles: std::mem::take(batch),
        counts: Some(*counts),
        ..Batch::default()
    };
    let inserted = bank
        .insert_batch(run_id, &stored, &Default::default())?
        .outcomes
        .iter()
        .filter(|&&s| s == Stored::New)
        .count() as u64;
    counts.accepted += inserted;
    counts.duplicates += stored.puzzles.len() as u64 - inserted;
    Ok(())
}

/// Solves, rates and fingerprints one external puzzle.
fn rate(p: &Grid, settings: &Settings) -> Result<PuzzleRecord, String> {
    let started = Instant::now();
    // A line can be a puzzle no solver proves quickly (a sparse 16x16 without a solution):
    // it is skipped with a message rather than stopping the import.
    let deadline = Some(started + LINE_BUDGET);
    let too_slow = |_| {
        format!(
            "not solved and rated within {} s: skipped",
            LINE_BUDGET.as_secs()
        )
    };
    let counted = Solver::with_deadline(deadline)
        .count(p, 2)
        .map_err(too_slow)?;
    let solution = match (counted.count, counted.first) {
        (1, Some(s)) => s,
        (0, _) => return Err("puzzle has no solution".into()),
        _ => return Err("puzzle has more than one solution".into()),
    };
    let effort = counted.stats;
    let rating = crate::rate::rate_until(p, deadline).map_err(too_slow)?;
    let tier = settings
        .tier_for_score(rating.score, p.geometry())
        .ok_or_else(|| format!("no tier's band holds its score {:.1}", rating.score))?;
    Ok(PuzzleRecord {
        source: Source::Import,
        base: None,
        geometry: p.geometry(),
        puzzle: p.to_line(),
        solution: solution.to_line(),
        clues: p.clue_count(),
        tier: tier.name.clone(),
        rating: Some(RatingRecord::from_rating(&rating)),
        backtracks: effort.backtracks,
        guesses: effort.guesses,
        seed: None,
        dig_strategy: None,
        target_clues: None,
        generator_version: GENERATOR_VERSION,
        fingerprint: fingerprint(p),
        solution_class: crate::canon::solution_class(&solution),
        full_fingerprint: match settings.generation.dedup {
            crate::config::Dedup::Full => crate::canon::full_fingerprint(p),
            crate::config::Dedup::Dihedral => None,
        },
        generation_us: started.elapsed().as_micros() as u64,
        served_at: None,
        served_to: None,
        origin: None,
        cages: p.cages().map(|c| crate::bank::StoredCages {
            cages: c.clone(),
            grown: None,
        }),
        regions: p.regions().cloned(),
    })
}

/// The format of a file whose first content line is `first`.
fn detect(first: &str) -> ImportFormat {
    let sdk_row = [4, 6, 9, 12].contains(&first.chars().count());
    if sdk_row {
        ImportFormat::Sdk
    } else if first.starts_with('{') {
        ImportFormat::Jsonl
    } else if first.contains(',') && first.split(',').any(|c| c.trim_matches('"') == "puzzle") {
        ImportFormat::Csv
    } else {
        ImportFormat::Txt
    }
}

/// The rows of the .sdk grid being read: as many rows as its first row has cells make one
/// puzzle line, numbered by its first row.
#[derive(Default)]
struct SdkRows {
    first: usize,
    text: String,
    rows: usize,
    width: usize,
}

impl SdkRows {
    /// Adds a row; the grid as one line once it has all its rows. A row of another width
    /// ends the grid early, so that the line is refused as too short, naming its first row.
    fn push(&mut self, row: RawLine) -> Option<RawLine> {
        let width = row.text.chars().count();
        if row.not_utf8.is_some() {
            return Some(row);
        }
        if self.rows > 0 && width != self.width {
            let grid = self.take();
            *self = SdkRows::started(row, width);
            return Some(grid);
        }
        if self.rows == 0 {
            *self = SdkRows::started(row, width);
        } else {
            self.text.push_str(&row.text);
            self.rows += 1;
        }
        (self.rows == self.width).then(|| self.take())
    }

    fn started(row: RawLine, width: usize) -> SdkRows {
        SdkRows {
            first: row.number,
            text: row.text,
            rows: 1,
            width,
        }
    }

    /// The rows read so far as one line.
    fn take(&mut self) -> RawLine {
        let taken = std::mem::take(self);
        RawLine {
            number: taken.first,
            text: taken.text,
            not_utf8: None,
        }
    }
}

/// A CSV header: its column names, which must include `puzzle`.
fn csv_header(line: &RawLine) -> Result<Vec<String>, String> {
    let names = csv_split(&line.text)?;
    if !names.iter().any(|n| n == "puzzle") {
        return Err(format!(
            "the CSV header has no 'puzzle' column (it has {}): give the header of \
             `bank export --format csv`",
            names.join(", ")
        ));
    }
    Ok(names)
}

fn csv_row(line: &RawLine, header: &[String]) -> Result<Row, String> {
    let cells = csv_split(&line.text).map_err(|e| line.explain(e))?;
    if cells.len() != header.len() {
        return Err(format!(
            "{} cells, the header has {} columns",
            cells.len(),
            header.len()
        ));
    }
    Ok(Row::Csv(
        header.iter().cloned().zip(cells).collect::<HashMap<_, _>>(),
    ))
}

fn json_row(line: &RawLine) -> Result<Row, String> {
    match serde_json::from_str(&line.text) {
        Ok(serde_json::Value::Object(map)) => Ok(Row::Json(map)),
        Ok(_) => Err("not a JSON object: give one object a line, as `bank export` writes".into()),
        Err(e) => Err(line.explain(format!("not JSON: {e}"))),
    }
}

/// `grid` once its own fields (cages, regions) are on it, unless its clues clash under them.
fn unclashed(grid: Grid) -> Result<Grid, String> {
    match grid.find_conflict() {
        Some(conflict) => Err(format!("field 'puzzle': {conflict}")),
        None => Ok(grid),
    }
}

/// The puzzle of an export row, with its cages or regions. A variant this bank does not
/// know, or a region map that is no layout, refuses the file.
fn row_puzzle(row: &Row, variant: Variant) -> Result<Grid, Unusable> {
    let text = row.text("puzzle").ok_or("no 'puzzle' field")?;
    let size: Option<usize> = row.parsed("size")?;
    let variant = row
        .parsed("variant")
        .map_err(Unusable::Refuse)?
        .unwrap_or(variant);
    let cages = row.json("cages")?;
    let regions = row.text("regions");
    // A killer row's cages and a jigsaw row's regions are in their own fields; its puzzle
    // field is the cells.
    let geometry = size
        .map(|n| {
            crate::grid::Geometry::for_size(n)
                .map(|g| g.with_variant(variant))
                .ok_or_else(|| format!("field 'size' = {n}: use 4, 6, 9, 12 or 16"))
        })
        .transpose()?;
    let own_fields = cages.is_some() || regions.is_some();
    let puzzle = match (geometry, own_fields) {
        (Some(g), true) => parse_cells_with(&text, g),
        (Some(g), false) => parse_line_with(&text, g),
        (None, true) => parse_line(&text).map(|p| p.with_variant(variant)),
        (None, false) => parse_line_in(&text, variant),
    }
    .map_err(|e| Unusable::unparsed(&e, format!("field 'puzzle': {e}")))?;
    let puzzle = match cages {
        Some(_) if !variant.has_cages() => {
            return Err(format!("a {variant} row has no 'cages': drop the field").into())
        }
        Some(list) => {
            let cages = crate::grid::Cages::from_json(puzzle.geometry(), &list)
                .map_err(|e| format!("field 'cages': {e}"))?;
            unclashed(puzzle.with_cages(std::sync::Arc::new(cages)))?
        }
        None => puzzle,
    };
    let per_puzzle = variant.rules().regions_per_puzzle();
    Ok(match regions {
        Some(_) if !per_puzzle => {
            return Err(format!("a {variant} row has no 'regions': drop the field").into())
        }
        Some(map) => {
            let regions = Regions::parse(puzzle.geometry(), &map)
                .map_err(|e| Unusable::Refuse(format!("field 'regions': {e}")))?;
            unclashed(puzzle.with_regions(std::sync::Arc::new(regions)))?
        }
        None => puzzle,
    })
}

/// The record of an export row's `puzzle`: solved, rated and fingerprinted here like any
/// import (the tier is this config's), with the row's metadata kept when it is
/// consistent: the solution must be the puzzle's, the base grid must be that solution.
fn with_row_metadata(
    row: &Row,
    puzzle: &Grid,
    settings: &Settings,
    origin: String,
) -> Result<PuzzleRecord, Unusable> {
    let mut record = rate(puzzle, settings)?;
    if let (Some(sizes), Some(c)) = (row.parsed("cage_sizes")?, record.cages.as_mut()) {
        c.grown = Some(sizes);
    }
    if let Some(solution) = row.text("solution") {
        if solution != record.solution {
            return Err("field 'solution' is not the puzzle's solution".into());
        }
    }
    let base =
        match (
            row.text("base_grid"),
            row.parsed("route")?,
            row.parsed("grid_seed")?,
        ) {
            (Some(grid), Some(route), Some(seed)) => {
                if grid != record.solution {
                    return Err("field 'base_grid' is not the puzzle's solution".into());
                }
                let g = puzzle.geometry();
                let parsed = parse_cells_with(&grid, g)
                    .map_err(|e| format!("field 'base_grid': {e}"))?
                    .shaped_like(puzzle);
                Some(BaseGridRecord {
                    id: grid_id(&parsed),
                    route,
                    seed,
                    mother_seed: row.parsed("mother_seed")?,
                    grid,
                })
            }
            (None, None, None) => None,
            _ => return Err(
                "fields 'base_grid', 'route' and 'grid_seed' go together: give all three or none"
                    .into(),
            ),
        };
    if base.is_some() {
        record.source = match row.text("source").as_deref() {
            Some("generated") => Source::Generated,
            _ => Source::Import,
        };
    }
    record.base = base;
    record.seed = row.parsed("seed")?;
    record.dig_strategy = row.parsed("dig_strategy")?;
    record.target_clues = row.parsed("target_clues")?;
    if let Some(v) = row.parsed("generator_version")? {
        record.generator_version = v;
    }
    if let Some(us) = row.parsed("generation_us")? {
        record.generation_us = us;
    }
    record.served_at = row.text("served_at");
    record.served_to = row.text("served_to");
    record.origin = Some(match (row.text("origin"), row.text("id")) {
        (Some(first), _) => first,
        (None, Some(id)) => format!("{origin} (id {id})"),
        (None, None) => origin,
    });
    Ok(record)
}
