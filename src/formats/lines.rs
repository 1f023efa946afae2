//! Puzzle lines read from a file, standard input or memory: blank lines and `#` comments
//! skipped, every other line numbered and parsed or given a reason it is not a puzzle.

use crate::grid::{parse_line_in, parse_line_with, Geometry, Grid, Variant};
use anyhow::{Context, Result};
use std::fs::File;
use std::io::{self, BufRead, BufReader};

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
pub fn lines<'a>(reader: Box<dyn BufRead + 'a>) -> impl Iterator<Item = Result<RawLine>> + 'a {
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

/// One puzzle line: of `geometry` when given, else of the size its length says.
pub fn parse(text: &str, geometry: Option<Geometry>, variant: Variant) -> Result<Grid, String> {
    match geometry {
        Some(g) => parse_line_with(text, g.with_variant(variant)),
        None => parse_line_in(text, variant),
    }
    .map_err(|e| e.to_string())
}
