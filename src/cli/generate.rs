//! `bank generate`: puzzles to standard output, one per line.

use crate::generate::{generate_job, CageSizes, DigStop, Route, Spec, Strategy};
use crate::grid::{Geometry, Variant};
use anyhow::{bail, Result};
use clap::Args;
use rayon::prelude::*;
use std::io::Write;
use std::time::Duration;

/// What to generate: size, route, strategy and stop mode.
#[derive(Args, Debug, Clone)]
pub struct SpecArgs {
    /// Grid side: 4, 6, 9, 12 or 16.
    #[arg(long, default_value = "9", value_parser = super::args::geometry)]
    pub size: Geometry,
    /// The rules (`bank variants` lists them and the sizes each is made in).
    #[arg(long, default_value = "classic", value_parser = super::args::variant)]
    pub variant: Variant,
    /// Killer cage sizes, MIN-MAX (largest capped at the grid side).
    #[arg(long, default_value = "2-5", value_parser = clap::value_parser!(CageSizes))]
    pub cage_sizes: CageSizes,
    /// How solution grids are built.
    #[arg(long, default_value = "transform", value_parser = clap::value_parser!(Route))]
    pub route: Route,
    /// Which cells are removed together (`diagonal` here is a digging symmetry, the
    /// reflection in the main diagonal, not the variant: see --variant).
    #[arg(long, default_value = "random", value_parser = clap::value_parser!(Strategy))]
    pub strategy: Strategy,
    /// Dig to this many clues.
    #[arg(long, conflicts_with = "minimal")]
    pub clues: Option<usize>,
    /// Dig until no clue (or orbit of clues) can be removed (the default).
    #[arg(long)]
    pub minimal: bool,
    /// With --clues: give the attempt up after this many failed removals (default: try
    /// every cell or orbit once).
    #[arg(long, requires = "clues")]
    pub failure_budget: Option<u32>,
}

impl SpecArgs {
    /// Checks the combination and turns it into a generation spec.
    pub fn spec(&self) -> Result<Spec> {
        let geometry = self.size.with_variant(self.variant);
        crate::config::check_variant_size(geometry)?;
        if let Err(msg) = self.strategy.check(geometry) {
            bail!("{msg}");
        }
        if let Some(broken) = self.route.breaks(geometry) {
            bail!(
                "--route {}: the pattern grid breaks the rules of {} ({broken}); use \
                 transform, backtrack or enumerate",
                self.route.name(),
                geometry.label()
            );
        }
        let stop = match self.clues {
            Some(k) if k > geometry.cells() => bail!(
                "--clues {k} is more than the {} cells of a {}x{} grid",
                geometry.cells(),
                geometry.n(),
                geometry.n()
            ),
            Some(k) => DigStop::Clues(k),
            None => DigStop::Minimal,
        };
        Ok(Spec {
            geometry,
            route: self.route,
            strategy: self.strategy,
            stop,
            failure_budget: self.failure_budget,
            cage_sizes: self.cage_sizes,
        })
    }
}

/// Generate puzzles with exactly one solution.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub spec: SpecArgs,
    /// How many puzzles.
    #[arg(long, default_value_t = 10)]
    pub count: u64,
    /// Batch seed: the same seed and options give the same puzzles in the same order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores). The output never depends on it.
    #[arg(long, value_parser = super::args::threads)]
    pub threads: Option<usize>,
    /// Attempts per puzzle before giving up (a clue target can be out of reach for a seed).
    #[arg(long, default_value_t = 100)]
    pub attempts: u32,
    /// Per-attempt deadline in milliseconds (default: none).
    #[arg(long = "deadline-ms", value_parser = super::args::deadline_ms)]
    pub deadline: Option<Duration>,
    /// Print the solution after each puzzle, separated by a tab.
    #[arg(long)]
    pub with_solution: bool,
}

/// Puzzles are made in chunks of this many so output streams while order stays stable.
const CHUNK: u64 = 256;

/// Prints the puzzles in job order.
pub fn run(args: &GenerateArgs) -> Result<()> {
    let spec = args.spec.spec()?;
    let pool = super::thread_pool(args.threads)?;
    let deadline = args.deadline;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut start = 0;
    while start < args.count {
        let end = (start + CHUNK).min(args.count);
        let made: Vec<_> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|job| generate_job(&spec, args.seed, job, args.attempts, deadline))
                .collect()
        });
        for (job, result) in (start..end).zip(made) {
            let (g, _) = result.map_err(|e| {
                anyhow::anyhow!(
                    "puzzle {job}: {e} after {} attempts; try fewer clues' worth of digging \
                     (a higher --clues), --minimal, or more --attempts",
                    args.attempts
                )
            })?;
            if args.with_solution {
                writeln!(out, "{}\t{}", g.puzzle, g.solution.to_line())?;
            } else {
                writeln!(out, "{}", g.puzzle)?;
            }
        }
        out.flush()?;
        start = end;
    }
    Ok(())
}
