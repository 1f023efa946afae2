//! `bank bench`: throughput figures for the solver and the generator, one thread.
//!
//! Timings are wall-clock on whatever else the machine is doing: compare figures taken
//! in one run, and rerun before trusting a difference.

use super::generate::SpecArgs;
use crate::formats::lines;
use crate::generate::{generate, Spec};
use crate::grid::Grid;
use crate::solver::Solver;
use anyhow::{bail, Result};
use clap::{Args, Subcommand};
use std::time::{Duration, Instant};

/// Measure speed.
#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub what: BenchWhat,
}

/// What to measure.
#[derive(Subcommand, Debug)]
pub enum BenchWhat {
    /// Uniqueness checks (count to 2) per second over whole puzzle files, one thread.
    ///
    /// Counts by the fastest search (`Solver::count_fast`: on 9×9 grids with boxes it
    /// branches on configurations), so the backtracks shown are that search's, not the
    /// effort the bank stores.
    Solve {
        /// Puzzle files (default: the public sets in ../shared/data/solver).
        files: Vec<String>,
        /// Passes over each file; the best pass is reported, and each puzzle's best time.
        #[arg(long, default_value_t = 3)]
        passes: u32,
        /// The rules the puzzles follow (`bank variants` lists them; killer lines: givens,
        /// cage map, sums; see the README).
        #[arg(long, default_value = "classic", value_parser = super::args::variant)]
        variant: crate::grid::Variant,
    },
    /// Rater agreement with reference SE ratings (`<cells> <rating>` lines, anything after
    /// the rating ignored) and its speed.
    Rate {
        /// Reference file (default: ../shared/data/rating/se_calibration.txt).
        file: Option<String>,
        /// The rules the file's puzzles follow: classic or diagonal (the variants the
        /// reference rater knows).
        #[arg(long, default_value = "classic", value_parser = super::args::variant)]
        variant: crate::grid::Variant,
    },
    /// Time per full-group canonical form of random solution grids (the solution class),
    /// one thread: median, mean and 90th percentile.
    Canon {
        /// Grid side: 4, 6, 9, 12 or 16.
        #[arg(long, default_value = "9", value_parser = super::args::geometry)]
        size: crate::grid::Geometry,
        /// Grids to time (random mother grids, seeds 1..).
        #[arg(long, default_value_t = 2000)]
        count: u64,
    },
    /// Fill rates of every variant's tiers side by side with classic's, in one run: each
    /// tier filled into its own throwaway SQLite bank in the temp directory, on the pool.
    Fill {
        /// Grid side.
        #[arg(long, default_value = "9", value_parser = super::args::geometry)]
        size: crate::grid::Geometry,
        /// Puzzles per classic and diagonal tier.
        #[arg(long, default_value_t = 1000)]
        count: u64,
        /// Puzzles per killer tier (killer fills run far slower).
        #[arg(long, default_value_t = 50)]
        killer_count: u64,
        /// Variants to fill, comma-separated (classic always runs first: the ratios are
        /// against it).
        #[arg(long, value_delimiter = ',', value_parser = super::args::variant,
              default_value = "classic,diagonal,killer")]
        variants: Vec<crate::grid::Variant>,
        /// Run seed: the same for every fill, so reruns make the same puzzles.
        #[arg(long, default_value_t = 9)]
        seed: u64,
        /// Worker threads (default from config; 0 there means one per core).
        #[arg(long, value_parser = super::args::threads)]
        threads: Option<usize>,
        /// Times to fill every tier, each round all variants in turn; with more than one,
        /// `median` lines follow: the median rate of each tier, the median of its
        /// per-round ratios to classic, and its lowest and highest rate.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        rounds: u32,
        #[command(flatten)]
        config: super::args::ConfigArgs,
    },
    /// Time per generated puzzle, one thread: median, mean and 90th percentile.
    Generate {
        #[command(flatten)]
        spec: SpecArgs,
        /// Puzzles to time.
        #[arg(long, default_value_t = 2000)]
        count: u64,
        /// First seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// The default solver benchmark sets.
pub const DEFAULT_SOLVER_SETS: [&str; 5] = [
    "../shared/data/solver/17_clue.txt",
    "../shared/data/solver/magictour_top1465.txt",
    "../shared/data/solver/forum_hardest_1905_11plus.txt",
    "../shared/data/solver/hardest_1106.txt",
    "../shared/data/solver/serg_multi_solution.txt",
];

/// Runs the chosen benchmark and prints one line per measurement.
pub fn run(args: &BenchArgs) -> Result<()> {
    match &args.what {
        BenchWhat::Solve {
            files,
            passes,
            variant,
        } => {
            let files: Vec<String> = if files.is_empty() {
                DEFAULT_SOLVER_SETS.iter().map(|s| s.to_string()).collect()
            } else {
                files.clone()
            };
            for file in files {
                bench_solve(&file, *passes, *variant)?;
            }
            Ok(())
        }
        BenchWhat::Generate { spec, count, seed } => bench_generate(&spec.spec()?, *count, *seed),
        BenchWhat::Canon { size, count } => bench_canon(*size, *count),
        BenchWhat::Fill {
            size,
            count,
            killer_count,
            variants,
            seed,
            threads,
            rounds,
            config,
        } => {
            let settings = config.settings()?;
            let pool = super::thread_pool(threads.or(settings.generation.threads))?;
            let mut variants = variants.clone();
            // The plain rule set first: every other variant's rate is a ratio to it.
            variants.retain(|v| !v.rules().is_plain());
            variants.insert(0, crate::grid::Variant::default());
            let counts = |v: crate::grid::Variant| match v.rules().cages {
                true => *killer_count,
                false => *count,
            };
            let fills = variants.iter().flat_map(|&variant| {
                let geometry = size.with_variant(variant);
                settings.tiers(geometry).iter().map(move |tier| TierFill {
                    geometry,
                    tier,
                    count: counts(variant),
                })
            });
            bench_fill(&pool, &settings, &fills.collect::<Vec<_>>(), *seed, *rounds)
        }
        BenchWhat::Rate { file, variant } => super::calibrate::run(
            file.as_deref()
                .unwrap_or("../shared/data/rating/se_calibration.txt"),
            *variant,
        ),
    }
}

fn load(file: &str, variant: crate::grid::Variant) -> Result<Vec<Grid>> {
    let (name, reader) = lines::open(Some(file))?;
    let mut puzzles = Vec::new();
    for line in lines::puzzles(reader, None, variant) {
        let line = line?;
        match line.puzzle {
            Ok(p) => puzzles.push(p),
            Err(e) => bail!("{name}: line {}: {e}", line.number),
        }
    }
    Ok(puzzles)
}

/// Counts every puzzle of `file` to two, `passes` times: the rate of the best pass, and
/// the median and 90th percentile of each puzzle's best time (a single slow puzzle, or a
/// noisy moment, moves the rate but not the median).
fn bench_solve(file: &str, passes: u32, variant: crate::grid::Variant) -> Result<()> {
    let puzzles = load(file, variant)?;
    let solver = Solver::new();
    let mut best = Duration::MAX;
    let mut each = vec![Duration::MAX; puzzles.len()];
    let mut backtracks = vec![0u64; puzzles.len()];
    let mut unique = 0;
    for _ in 0..passes.max(1) {
        let start = Instant::now();
        unique = 0;
        for (i, p) in puzzles.iter().enumerate() {
            let t = Instant::now();
            let counted = solver.count_fast(p, 2)?;
            each[i] = each[i].min(t.elapsed());
            backtracks[i] = counted.stats.backtracks;
            if counted.count == 1 {
                unique += 1;
            }
        }
        best = best.min(start.elapsed());
    }
    each.sort_unstable();
    backtracks.sort_unstable();
    let at = |q: f64| {
        each.get(((each.len().max(1) - 1) as f64 * q) as usize)
            .map_or(0.0, |d| d.as_secs_f64() * 1e6)
    };
    let rate = puzzles.len() as f64 / best.as_secs_f64();
    println!(
        "solve\t{file}\tpuzzles={}\tunique={unique}\t{rate:.0} puzzles/s\t{:.2} us/puzzle\t\
         median {:.1} us\tp90 {:.1} us\tmedian backtracks {}",
        puzzles.len(),
        1e6 / rate,
        at(0.5),
        at(0.9),
        backtracks.get(backtracks.len() / 2).copied().unwrap_or(0)
    );
    Ok(())
}

fn bench_generate(spec: &Spec, count: u64, seed: u64) -> Result<()> {
    let mut times = Vec::with_capacity(count as usize);
    let mut failed = 0u64;
    let mut clues = 0usize;
    let start = Instant::now();
    for s in seed..seed + count {
        let t = Instant::now();
        let result = generate(spec, s, None);
        times.push(t.elapsed());
        match result {
            Ok(g) => clues += g.puzzle.clue_count(),
            Err(_) => failed += 1,
        }
    }
    let total = start.elapsed();
    times.sort();
    let pct = |p: f64| times[((times.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e6;
    let made = count - failed;
    println!(
        "generate\tsize={} variant={} route={} strategy={} stop={:?}\tpuzzles={made} \
         failed={failed}\tmedian={:.1} us\tp90={:.1} us\tmean={:.1} us\tmean clues={:.1}\t\
         {:.0} attempts/s",
        spec.geometry.n(),
        spec.geometry.variant(),
        spec.route.name(),
        spec.strategy.name(),
        spec.stop,
        pct(0.5),
        pct(0.9),
        total.as_secs_f64() * 1e6 / count as f64,
        clues as f64 / made.max(1) as f64,
        count as f64 / total.as_secs_f64()
    );
    Ok(())
}

/// One tier of one variant that `bench fill` fills.
struct TierFill<'a> {
    geometry: crate::grid::Geometry,
    tier: &'a crate::config::Tier,
    count: u64,
}

/// What one fill of a tier measured.
struct Measured {
    accepted: u64,
    seconds: f64,
    /// Its rate over classic's for the tier of the same name in the same round (each round
    /// fills classic first), where classic has that tier.
    ratio: Option<f64>,
}

impl Measured {
    fn rate(&self) -> f64 {
        self.accepted as f64 / self.seconds.max(1e-9)
    }
}

/// Fills each of `fills` into a throwaway bank, `rounds` times over, and prints a line per
/// fill with its rate and the ratio to classic's rate for the tier of the same name; after
/// several rounds, the median of each (a noisy moment moves one round, not the median).
fn bench_fill(
    pool: &rayon::ThreadPool,
    settings: &crate::config::Settings,
    fills: &[TierFill],
    seed: u64,
    rounds: u32,
) -> Result<()> {
    println!("fill\tvariant\ttier\tpuzzles\tseconds\tpuzzles/s\tvs classic");
    let mut measured: Vec<Vec<Measured>> = (0..fills.len()).map(|_| Vec::new()).collect();
    for _ in 0..rounds {
        let mut classic: Vec<(&str, f64)> = Vec::new();
        for (fill, seen) in fills.iter().zip(&mut measured) {
            // From a cold start, as a `bank fill`: the round before made the same grids.
            crate::pipeline::forget_kept();
            let (accepted, seconds) = fill_tier(pool, settings, fill, seed)?;
            let mut m = Measured {
                accepted,
                seconds,
                ratio: None,
            };
            let variant = fill.geometry.variant();
            if variant.rules().is_plain() {
                classic.push((&fill.tier.name, m.rate()));
            }
            m.ratio = classic
                .iter()
                .find(|(name, _)| *name == fill.tier.name)
                .map(|(_, c)| m.rate() / c);
            println!(
                "fill\t{variant}\t{}\t{accepted}\t{seconds:.2}\t{:.1}\t{}",
                fill.tier.name,
                m.rate(),
                ratio_text(m.ratio)
            );
            seen.push(m);
        }
    }
    if rounds > 1 {
        println!(
            "median\tvariant\ttier\tpuzzles\tseconds\tpuzzles/s\tvs classic\tlowest/s\thighest/s"
        );
        for (fill, seen) in fills.iter().zip(&measured) {
            let rates: Vec<f64> = seen.iter().map(Measured::rate).collect();
            let ratios: Option<Vec<f64>> = seen.iter().map(|m| m.ratio).collect();
            println!(
                "median\t{}\t{}\t{}\t{:.2}\t{:.1}\t{}\t{:.1}\t{:.1}",
                fill.geometry.variant(),
                fill.tier.name,
                median(seen.iter().map(|m| m.accepted as f64)),
                median(seen.iter().map(|m| m.seconds)),
                median(rates.iter().copied()),
                ratio_text(ratios.map(median)),
                rates.iter().copied().fold(f64::INFINITY, f64::min),
                rates.iter().copied().fold(0.0, f64::max),
            );
        }
    }
    Ok(())
}

/// Fills `tier` into a throwaway bank in the temp directory, removed after: the puzzles
/// accepted and the seconds taken.
fn fill_tier(
    pool: &rayon::ThreadPool,
    settings: &crate::config::Settings,
    tier: &TierFill,
    seed: u64,
) -> Result<(u64, f64)> {
    use crate::pipeline::{fill, FillRequest, NoProgress, WallClock};
    let stop = std::sync::atomic::AtomicBool::new(false);
    let path = std::env::temp_dir().join(format!(
        "bank-bench-{}-{}-{}.sqlite",
        std::process::id(),
        tier.geometry.variant(),
        tier.tier.name
    ));
    let location = crate::bank::Location::Sqlite(path.clone());
    let request = FillRequest::split(
        settings,
        tier.count,
        std::slice::from_ref(tier.tier),
        tier.geometry,
        seed,
    )?;
    let bank = crate::bank::open(&location)?;
    let started = Instant::now();
    let report = fill(
        pool,
        bank,
        &request,
        settings,
        &WallClock(settings.generation.deadline),
        &NoProgress,
        &stop,
    );
    let seconds = started.elapsed().as_secs_f64();
    for suffix in ["", "-wal", "-shm"] {
        let mut file = path.clone().into_os_string();
        file.push(suffix);
        let _ = std::fs::remove_file(file);
    }
    let accepted: u64 = report?
        .items
        .iter()
        .map(|i| i.outcome.counts.accepted)
        .sum();
    Ok((accepted, seconds))
}

/// A ratio to classic as printed: two decimals, `-` where classic has no such tier.
fn ratio_text(ratio: Option<f64>) -> String {
    ratio.map_or("-".to_string(), |r| format!("{r:.2}"))
}

/// The median of `values` (the mean of the middle two of an even count; 0 of none).
fn median(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.into_iter().collect();
    v.sort_unstable_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Times `minlex_solution` on `count` random grids of `geometry`.
fn bench_canon(geometry: crate::grid::Geometry, count: u64) -> Result<()> {
    let grids: Vec<Grid> = (1..=count)
        .map(|seed| crate::generate::mother_grid(geometry, seed, None))
        .collect::<Result<_, _>>()
        .map_err(|_| anyhow::anyhow!("building grids was aborted"))?;
    let mut times: Vec<Duration> = grids
        .iter()
        .map(|g| {
            let started = Instant::now();
            std::hint::black_box(crate::canon::minlex_solution(g));
            started.elapsed()
        })
        .collect();
    times.sort_unstable();
    let total: Duration = times.iter().sum();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "canon --full {}: {} grids, median {:.1} us, mean {:.1} us, p90 {:.1} us",
        geometry.label(),
        times.len(),
        at(0.5).as_secs_f64() * 1e6,
        total.as_secs_f64() * 1e6 / times.len().max(1) as f64,
        at(0.9).as_secs_f64() * 1e6
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_of_odd_even_and_no_values() {
        assert_eq!(median([3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median([4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median([]), 0.0);
    }
}
