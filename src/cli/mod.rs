//! The `bank` command line: parsing, dispatch, exit codes.

mod bench;
mod canon;
mod generate;
mod input;
mod solve;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exit status: success.
pub const EXIT_OK: u8 = 0;
/// Exit status: the command ran but the answer is "no" (e.g. `reproduce` found a difference).
pub const EXIT_NEGATIVE: u8 = 1;
/// Exit status: an error (bad input, bad config, unreadable bank).
pub const EXIT_ERROR: u8 = 2;

/// Batch producer of unique, rated, deduplicated Sudoku puzzles.
#[derive(Parser, Debug)]
#[command(name = "bank", version, about, long_about = None)]
#[command(
    after_help = "Exit status: 0 success; 1 a negative answer (reproduce: different); \
                        2 error (bad input, config or bank)."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve puzzles, one a line: the solution, `none` or `multiple`.
    Solve(solve::SolveArgs),
    /// Generate puzzles with exactly one solution, one a line.
    Generate(generate::GenerateArgs),
    /// Canonical form and fingerprint of each puzzle.
    Canon(canon::CanonArgs),
    /// Measure solver and generator speed.
    Bench(bench::BenchArgs),
}

/// Runs the command line and returns the process exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(&cli.command) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn dispatch(command: &Command) -> anyhow::Result<u8> {
    let bad_lines_status = |bad: usize| if bad > 0 { EXIT_ERROR } else { EXIT_OK };
    match command {
        Command::Solve(args) => solve::run(args).map(bad_lines_status),
        Command::Canon(args) => canon::run(args).map(bad_lines_status),
        Command::Generate(args) => generate::run(args).map(|()| EXIT_OK),
        Command::Bench(args) => bench::run(args).map(|()| EXIT_OK),
    }
}

/// A rayon pool with `threads` workers (default: one per core).
fn thread_pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    if threads == Some(0) {
        anyhow::bail!("--threads must be at least 1");
    }
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()?)
}
