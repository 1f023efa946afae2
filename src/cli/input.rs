//! Reading puzzles one per line from a file or standard input.

use crate::grid::{parse_line_in, parse_line_with, Geometry, Grid, Variant};
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
    /// Files with one puzzle a line, `-` for standard input, or puzzles themselves in
    /// one-line form (an argument that is no file's path); nothing: standard input.
    pub inputs: Vec<String>,
    /// Grid side every line must have (default: taken from each line's length).
    #[arg(long, value_parser = super::args::geometry)]
    pub size: Option<Geometry>,
    /// The rules the puzzles follow: classic, diagonal (both main diagonals hold every
    /// digit once) or killer (each line: givens, cage map, sums; see the README).
    #[arg(long, value_parser = super::args::variant, default_value = "classic")]
    pub variant: Variant,
}

/// A line of text input that is not blank or a `#` comment: its number, its text
/// (trimmed; bytes that are not UTF-8 become U+FFFD), and where it stops being UTF-8.
pub struct RawLine {
    /// 1-based line number.
    pub number: usize,
    /// The trimmed text.
    pub text: String,
    /// `None` for UTF-8 text, else where the first bad byte is, for messages.
    pub not_utf8: Option<String>,
}

impl RawLine {
    /// An error message about the line, saying when it is not text.
    pub fn explain(&self, problem: String) -> String {
        match &self.not_utf8 {
            None => problem,
            Some(why) => format!("{problem} ({why})"),
        }
    }
}

/// The content lines of a source; I/O errors end the stream with an error.
pub fn lines(reader: Box<dyn BufRead>) -> impl Iterator<Item = Result<RawLine>> {
    reader
        .split(b'\n')
        .enumerate()
        .filter_map(|(i, line)| match line {
            Err(e) => Some(Err(
                anyhow::Error::new(e).context(format!("reading line {}", i + 1))
            )),
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                let trimmed = text.trim();
                if trimmed.is_empty() || trimmed.starts_with('#') {
                    return None;
                }
                let not_utf8 = std::str::from_utf8(&bytes).err().map(|bad| {
                    format!(
                        "the line is not UTF-8 text: byte {} is 0x{:02x}",
                        bad.valid_up_to() + 1,
                        bytes[bad.valid_up_to()]
                    )
                });
                Some(Ok(RawLine {
                    number: i + 1,
                    text: trimmed.to_string(),
                    not_utf8,
                }))
            }
        })
}

/// Puzzles of a source, skipping blank lines and `#` comments; with `geometry`, every line
/// must be of that size. A line that is not UTF-8 is read as far as it is: in a trailing
/// field bad bytes are ignored like the rest of it, in the cells the line is reported as
/// malformed.
pub fn puzzles(
    reader: Box<dyn BufRead>,
    geometry: Option<Geometry>,
    variant: Variant,
) -> impl Iterator<Item = Result<Line>> {
    lines(reader).map(move |line| {
        let line = line?;
        Ok(Line {
            number: line.number,
            puzzle: parse(&line.text, geometry, variant).map_err(|e| line.explain(e)),
        })
    })
}

fn parse(text: &str, geometry: Option<Geometry>, variant: Variant) -> Result<Grid, String> {
    match geometry {
        Some(g) => parse_line_with(text, g.with_variant(variant)),
        None => parse_line_in(text, variant),
    }
    .map_err(|e| e.to_string())
}

/// Runs `answer` on every well-formed puzzle of the input, writing to buffered
/// stdout; malformed lines are reported on stderr as `SOURCE: line N: problem` and skipped.
/// Returns the number of malformed lines.
pub fn for_each_puzzle(
    input: &PuzzleInput,
    mut answer: impl FnMut(&Grid, &mut dyn std::io::Write) -> Result<()>,
) -> Result<usize> {
    let geometry = input.size;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut bad = 0;
    // Answers go out at least every FLUSH_EVERY, so slow ones (exact counts) stream.
    let mut flushed = Instant::now();
    let mut take = |puzzle: Result<Grid, String>, place: &dyn std::fmt::Display| -> Result<()> {
        match puzzle {
            Ok(p) => {
                answer(&p, &mut out)?;
                if flushed.elapsed() >= FLUSH_EVERY {
                    io::Write::flush(&mut out)?;
                    flushed = Instant::now();
                }
            }
            Err(e) => {
                note!("{place}: {e}");
                bad += 1;
            }
        }
        Ok(())
    };
    let stdin = ["-".to_string()];
    let sources = if input.inputs.is_empty() {
        &stdin[..]
    } else {
        &input.inputs[..]
    };
    for (i, source) in sources.iter().enumerate() {
        if source != "-"
            && !std::path::Path::new(source).exists()
            && looks_like_puzzle(source, input.variant)
        {
            take(
                parse(source.trim(), geometry, input.variant),
                &format_args!("argument {}", i + 1),
            )?;
            continue;
        }
        let (name, reader) = open(Some(source))?;
        for line in puzzles(reader, geometry, input.variant) {
            let line = line?;
            take(line.puzzle, &format_args!("{name}: line {}", line.number))?;
        }
    }
    io::Write::flush(&mut out)?;
    Ok(bad)
}

/// Whether a command-line argument is meant as a puzzle rather than a file name: only
/// puzzle characters, at least a 4x4's worth (a killer puzzle: three such fields, the
/// cage map and sums after the cells).
fn looks_like_puzzle(arg: &str, variant: Variant) -> bool {
    let arg = arg.trim();
    if variant.has_cages() {
        let fields: Vec<&str> = arg.split_whitespace().collect();
        return fields.len() == 3 && looks_like_puzzle(fields[0], Variant::Classic);
    }
    arg.len() >= 16
        && arg
            .chars()
            .all(|c| c == '.' || c.is_ascii_digit() || ('A'..='G').contains(&c))
}
