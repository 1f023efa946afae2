//! Reading puzzles one per line from a file or standard input.

use crate::grid::{parse_line, Grid};
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

/// Puzzles of a source, skipping blank lines and `#` comments. I/O errors end the stream
/// with an error.
pub fn puzzles(reader: Box<dyn BufRead>) -> impl Iterator<Item = Result<Line>> {
    reader
        .lines()
        .enumerate()
        .filter_map(|(i, line)| match line {
            Err(e) => Some(Err(
                anyhow::Error::new(e).context(format!("reading line {}", i + 1))
            )),
            Ok(text) => {
                let trimmed = text.trim();
                if trimmed.is_empty() || trimmed.starts_with('#') {
                    None
                } else {
                    Some(Ok(Line {
                        number: i + 1,
                        puzzle: parse_line(trimmed).map_err(|e| e.to_string()),
                    }))
                }
            }
        })
}

/// Runs `answer` on every well-formed puzzle of `path` (or stdin), writing to buffered
/// stdout; malformed lines are reported on stderr as `SOURCE: line N: problem` and skipped.
/// Returns the number of malformed lines.
pub fn for_each_puzzle(
    path: Option<&str>,
    mut answer: impl FnMut(&Grid, &mut dyn std::io::Write) -> Result<()>,
) -> Result<usize> {
    let (name, reader) = open(path)?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut bad = 0;
    for line in puzzles(reader) {
        let line = line?;
        match line.puzzle {
            Ok(p) => answer(&p, &mut out)?,
            Err(e) => {
                eprintln!("{name}: line {}: {e}", line.number);
                bad += 1;
            }
        }
    }
    io::Write::flush(&mut out)?;
    Ok(bad)
}
