//! The `bank` command line: parsing, dispatch, exit codes.

/// Writes a line to stderr like `eprintln!` (a JSON object under `--log-format json`),
/// but never panics: a run whose stderr cannot be written (a full disk, a closed pipe)
/// still ends with its real exit status.
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::cli::log::note(&format!($($arg)*))
    };
}

mod args;
mod bench;
mod calibrate;
mod canon;
mod config;
mod explain;
mod export;
mod fill;
mod generate;
mod import;
pub mod input;
mod inspect;
pub mod log;
mod merge;
mod notation;
mod pace;
mod print;
mod rate;
mod report;
mod solve;
mod stats;
mod stock;
mod variants;
mod verify;

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
    after_help = "The bank: a SQLite file (--db PATH, default bank.sqlite) or a PostgreSQL \
                  database shared by many machines (--db postgres://user@host/dbname). The \
                  config: the embedded default, or --config FILE laid over it (bank config \
                  --print shows the result).\n\n\
                  Exit status: 0 success; 1 a negative answer (fill/nightly: stopped early, \
                  quota not met or alarms raised; reproduce: different; verify: corruption \
                  found; import: lines skipped); 2 error (bad input, config or bank; \
                  solve/canon: malformed lines)."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Log format on stderr (level from RUST_LOG, default warn).
    #[arg(long, global = true, value_enum, default_value = "text")]
    log_format: log::LogFormat,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve puzzles, one a line: the solution, `none` or `multiple`.
    Solve(solve::SolveArgs),
    /// Generate puzzles with exactly one solution, one a line.
    Generate(generate::GenerateArgs),
    /// Rate puzzles on the Sudoku Explainer scale: score, tier, hardest technique.
    Rate(rate::RateArgs),
    /// Step-by-step solution of a stored puzzle (by id) or a puzzle given in one-line form.
    Explain(explain::ExplainArgs),
    /// Canonical form and fingerprint of each puzzle.
    Canon(canon::CanonArgs),
    /// Measure solver and generator speed.
    Bench(bench::BenchArgs),
    /// Fill the bank with new puzzles.
    Fill(fill::FillArgs),
    /// The nightly job: `fill --quota`, adding what the config's quotas say is missing.
    Nightly(fill::FillOptions),
    /// Regenerate a stored puzzle from its metadata: exit 0 identical, 1 different.
    Reproduce(inspect::IdArgs),
    /// Show a stored puzzle, its solution and metadata.
    Show {
        #[command(flatten)]
        id: inspect::IdArgs,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Counts per tier and size, clue histograms, recent runs and alarms.
    Stats(stats::StatsArgs),
    /// Re-check stored puzzles; exit 1 on corruption (drift is reported apart).
    Verify(verify::VerifyArgs),
    /// Export puzzles as jsonl, csv, sdk or txt.
    Export(export::ExportArgs),
    /// Import external puzzles: validated, solved, rated, deduplicated.
    Import(import::ImportArgs),
    /// Copy another bank's puzzles, runs and retired fingerprints into this one.
    Merge(merge::MergeArgs),
    /// Hand out unserved puzzles of a tier, marking them served (exit 1: stock too small).
    Take(stock::TakeArgs),
    /// The puzzle of the day: the same one for the same date, tier and size.
    Daily(stock::DailyArgs),
    /// Delete puzzles served before a date; their fingerprints are never made again.
    Prune(stock::PruneArgs),
    /// Print puzzle sheets for paper (PDF or SVG), solutions on the last pages.
    Print(print::PrintArgs),
    /// An HTML report on a run or a period: pace, timeouts, alarms, tier mix, histograms.
    Report(report::ReportArgs),
    /// Check a config (a partial file is laid over the embedded default); `--print` shows
    /// the resolved settings.
    Config(config::ConfigCommandArgs),
    /// The variants: each one's name, the sizes it is made in, and its rules.
    Variants,
}

/// Runs the command line and returns the process exit status.
pub fn main() -> ExitCode {
    restore_default_sigpipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return log::usage_error(e),
    };
    log::init(cli.log_format);
    match dispatch(&cli.command) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            log::error(&format!("error: {e:#}"));
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn dispatch(command: &Command) -> anyhow::Result<u8> {
    let bad_lines_status = |bad: usize| if bad > 0 { EXIT_ERROR } else { EXIT_OK };
    match command {
        Command::Solve(args) => solve::run(args).map(bad_lines_status),
        Command::Canon(args) => canon::run(args).map(bad_lines_status),
        Command::Rate(args) => rate::run(args).map(bad_lines_status),
        Command::Explain(args) => explain::run(args),
        Command::Generate(args) => generate::run(args).map(|()| EXIT_OK),
        Command::Bench(args) => bench::run(args).map(|()| EXIT_OK),
        Command::Fill(args) => fill::run(args, interrupt_flag()?),
        Command::Nightly(opts) => fill::run_nightly(opts, interrupt_flag()?),
        Command::Reproduce(args) => inspect::run_reproduce(args),
        Command::Show { id, json } => inspect::run_show(id, *json),
        Command::Stats(args) => stats::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Export(args) => export::run(args),
        Command::Import(args) => import::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Take(args) => stock::run_take(args),
        Command::Daily(args) => stock::run_daily(args),
        Command::Prune(args) => stock::run_prune(args),
        Command::Print(args) => print::run(args),
        Command::Report(args) => report::run(args),
        Command::Config(args) => config::run(args).map(|()| EXIT_OK),
        Command::Variants => {
            variants::run();
            Ok(EXIT_OK)
        }
    }
}

/// Lets `bank ... | head` end quietly: Rust ignores SIGPIPE by default, which turns a
/// closed pipe into a panic in `println!`.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: resetting a signal disposition to its default at start-up, before any
    // thread exists, has no memory-safety preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// A flag set by the first Ctrl-C / SIGTERM; a second one exits at once.
fn interrupt_flag() -> anyhow::Result<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let flag = std::sync::Arc::new(AtomicBool::new(false));
    let handler_flag = flag.clone();
    ctrlc::set_handler(move || {
        if handler_flag.swap(true, Ordering::SeqCst) {
            note!("second interrupt: exiting now (committed puzzles are safe)");
            std::process::exit(130);
        }
        note!("interrupt: finishing the current chunk, then stopping (Ctrl-C again to quit now)");
    })?;
    Ok(flag)
}

/// A rayon pool with `threads` workers (default: one per core).
fn thread_pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()?)
}
