//! The puzzles a line-by-line command reads: files, standard input or arguments, each
//! answered on buffered standard output.

use crate::formats::lines::{open, parse, puzzles};
use crate::grid::{Boxes, Geometry, Grid, Variant};
use anyhow::Result;
use clap::Args;
use std::io;
use std::time::{Duration, Instant};

/// Longest time an answer waits in the output buffer.
const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// Where line-by-line commands read puzzles, and their size.
#[derive(Args, Debug)]
pub struct PuzzleInput {
    /// Files with one puzzle a line, `-` for standard input, or puzzles themselves in
    /// one-line form (an argument that is no file's path); nothing: standard input.
    pub inputs: Vec<String>,
    /// Grid side every line must have (default: taken from each line's length).
    #[arg(long, value_parser = super::args::geometry)]
    pub size: Option<Geometry>,
    /// The rules the puzzles follow (`bank variants` lists them; a killer line holds
    /// givens, cage map and sums, see the README).
    #[arg(long, value_parser = super::args::variant, default_value = "classic")]
    pub variant: Variant,
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
    // A killer puzzle has three fields (cells, cage map, sums), a jigsaw one two (cells,
    // region map).
    let fields = match (variant.has_cages(), variant.rules().boxes) {
        (true, _) => 3,
        (false, Boxes::PerPuzzle) => 2,
        (false, Boxes::Fixed) => 1,
    };
    if fields > 1 {
        let parts: Vec<&str> = arg.split_whitespace().collect();
        return parts.len() == fields && looks_like_puzzle(parts[0], Variant::default());
    }
    arg.len() >= 16
        && arg
            .chars()
            .all(|c| c == '.' || c.is_ascii_digit() || ('A'..='G').contains(&c))
}
