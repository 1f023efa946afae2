//! Reading puzzles one per line from a file or standard input.

use crate::grid::{parse_line, parse_line_with, Geometry, Grid};
use anyhow::{Context, Result};
use clap::Args;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::time::{Duration, Instant};

/// Longest time an answer waits in the output buffer.
const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// A source of puzzle lines: a path, or `-` / nothing for standard input.
pub fn open(path: Option<&str>) -> Result<(String, Box<dyn BufRead>)> {
    match path {
        None | Some("-") => Ok(("<stdin>".into(), Box::new(BufReader::new(io::stdin())))),
        Some(p) => {
            let meta = std::fs::metadata(p)
                .with_context(|| format!("cannot read '{p}': check the path"))?;
            if meta.is_dir() {
                anyhow::bail!("'{p}' is a directory: give a file with one puzzle a line");
            }
            let file = File::open(p).with_context(|| format!("cannot open '{p}'"))?;
            Ok((p.into(), Box::new(BufReader::new(file))))
        }
    }
}

/// One line of input: its number and either a puzzle or the reason it is not one.
pub struct Line {
    /// 1-based line number.
    pub number: usize,
    /// The parsed puzzle, or an error message naming the problem.
    pub puzzle: Result<Grid, String>,
}

/// Where line-by-line commands read puzzles, and their size.
#[derive(Args, Debug)]
pub struct PuzzleInput {
    /// File with one puzzle a line (`-` or nothing: standard input).
    pub file: Option<String>,
    /// Grid side every line must have (default: taken from each line's length).
    #[arg(long, value_parser = super::args::geometry)]
    pub size: Option<Geometry>,
}

/// Puzzles of a source, skipping blank lines and `#` comments; with `geometry`, every line
/// must be of that size. A line that is not UTF-8 is read as far as it is (bytes that are
/// not text become U+FFFD): in a trailing field they are ignored like the rest of it, in
/// the cells the line is reported as malformed. I/O errors end the stream with an error.
pub fn puzzles(
    reader: Box<dyn BufRead>,
    geometry: Option<Geometry>,
) -> impl Iterator<Item = Result<Line>> {
    reader
        .split(b'\n')
        .enumerate()
        .filter_map(move |(i, line)| match line {
            Err(e) => Some(Err(
                anyhow::Error::new(e).context(format!("reading line {}", i + 1))
            )),
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                let trimmed = text.trim();
                if trimmed.is_empty() || trimmed.starts_with('#') {
                    return None;
                }
                let parsed = match geometry {
                    Some(g) => parse_line_with(trimmed, g),
                    None => parse_line(trimmed),
                };
                let not_text = |e: String| match std::str::from_utf8(&bytes) {
                    Ok(_) => e,
                    Err(bad) => format!(
                        "{e} (the line is not UTF-8 text: byte {} is 0x{:02x})",
                        bad.valid_up_to() + 1,
                        bytes[bad.valid_up_to()]
                    ),
                };
                Some(Ok(Line {
                    number: i + 1,
                    puzzle: parsed.map_err(|e| not_text(e.to_string())),
                }))
            }
        })
}

/// Runs `answer` on every well-formed puzzle of the input, writing to buffered
/// stdout; malformed lines are reported on stderr as `SOURCE: line N: problem` and skipped.
/// Returns the number of malformed lines.
pub fn for_each_puzzle(
    input: &PuzzleInput,
    mut answer: impl FnMut(&Grid, &mut dyn std::io::Write) -> Result<()>,
) -> Result<usize> {
    let geometry = input.size;
    let (name, reader) = open(input.file.as_deref())?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut bad = 0;
    // Answers go out at least every FLUSH_EVERY, so slow ones (exact counts) stream.
    let mut flushed = Instant::now();
    for line in puzzles(reader, geometry) {
        let line = line?;
        match line.puzzle {
            Ok(p) => {
                answer(&p, &mut out)?;
                if flushed.elapsed() >= FLUSH_EVERY {
                    io::Write::flush(&mut out)?;
                    flushed = Instant::now();
                }
            }
            Err(e) => {
                note!("{name}: line {}: {e}", line.number);
                bad += 1;
            }
        }
    }
    io::Write::flush(&mut out)?;
    Ok(bad)
}
