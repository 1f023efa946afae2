//! Typed settings, resolved once from the file (ripgrep's low-level → high-level split):
//! every value checked and every name turned into its type, so that no later step can
//! meet a value it would have to refuse.

use super::file::{ConfigFile, TierTable};
use super::{DEFAULT_CONFIG, MAX_THREADS};
use crate::generate::{CageSizes, Route, Strategy};
use crate::grid::{Geometry, Symmetries, Variant, SUPPORTED_SIZES};
use crate::rng::Weighted;
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

/// Longest per-attempt deadline a config may set (a day; beyond that a clock overflows).
const MAX_DEADLINE_MS: u64 = 86_400_000;

/// Largest alarm window or writer batch (both are held in memory).
const MAX_WINDOW: usize = 1_000_000;

/// The whole configuration, resolved.
#[derive(Clone, Debug)]
pub struct Settings {
    /// How attempts are made.
    pub generation: Generation,
    /// When a tier's target is raised.
    pub alarm: AlarmPolicy,
    /// Puzzles per writer transaction.
    pub batch_size: usize,
    tiers: TierLists,
    quotas: Vec<Quota>,
    /// The file as read, recorded with each run.
    file: ConfigFile,
}

/// One variant's tiers: the general list, and the lists of sizes that have their own.
#[derive(Clone, Debug)]
struct SizedTiers {
    general: Vec<Tier>,
    by_size: BTreeMap<usize, Vec<Tier>>,
}

impl SizedTiers {
    fn of(&self, n: usize) -> &[Tier] {
        self.by_size.get(&n).unwrap_or(&self.general)
    }
}

/// The tier lists of the variants.
#[derive(Clone, Debug)]
struct TierLists {
    /// `[[tier]]`: every variant without a list of its own.
    shared: SizedTiers,
    /// `[[NAME.tier]]`: the variants with their own (a rule set with cages always).
    own: BTreeMap<Variant, SizedTiers>,
}

impl TierLists {
    fn variant(&self, variant: Variant) -> &SizedTiers {
        self.own.get(&variant).unwrap_or(&self.shared)
    }

    fn of(&self, g: Geometry) -> &[Tier] {
        self.variant(g.variant()).of(g.n())
    }

    /// The config key of the list `variant` takes its tiers from.
    fn key(&self, variant: Variant) -> String {
        if self.own.contains_key(&variant) {
            format!("{variant}.tier")
        } else {
            "tier".into()
        }
    }
}

/// Which transformations make two puzzles duplicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dedup {
    /// The design's rule: the 8 symmetries of the square (those that keep the box shape)
    /// and relabelling: the `fingerprint` column.
    Dihedral,
    /// The whole sudoku group on the puzzle (rows within bands, bands, columns within
    /// stacks, stacks, transposition, relabelling), as well: `full_fingerprint`. Sizes
    /// up to 12; about 2 ms per 9x9 puzzle.
    Full,
}

/// The `[generation]` table, resolved.
#[derive(Clone, Debug)]
pub struct Generation {
    /// Wall-clock budget of one attempt.
    pub deadline: Duration,
    /// Attempts per job, first included (at least 1).
    pub max_attempts: u32,
    /// Worker threads; `None`: one per core.
    pub threads: Option<usize>,
    /// Puzzles dug from one base grid (at least 1), for a variant without its own count.
    puzzles_per_grid: u32,
    /// The variants with a count of their own (`[NAME] puzzles_per_grid`).
    own_puzzles_per_grid: BTreeMap<Variant, u32>,
    /// Base grids the transform route makes from one mother grid (at least 1).
    pub mother_grid_uses: u32,
    /// Most puzzles of one solution class in the bank (`None`: no cap).
    pub max_per_solution_class: Option<u32>,
    /// Which transformations make two puzzles duplicates.
    pub dedup: Dedup,
    /// Grid used when no size is given.
    pub default_geometry: Geometry,
    /// Solution-grid routes by weight, in name order, for a variant without its own.
    routes: Weighted<Route>,
    /// The variants with routes of their own (`[NAME] routes`).
    own_routes: BTreeMap<Variant, Weighted<Route>>,
    /// Strategies by weight, in name order, before fitting them to a geometry.
    strategies: Vec<(Strategy, u32)>,
    /// Sizes of the killer cages grown on a solution grid.
    pub cage_sizes: CageSizes,
}

impl Generation {
    /// Puzzles dug from one base grid of `variant` (at least 1): the variant's own count,
    /// else `generation.puzzles_per_grid`.
    pub fn puzzles_per_grid(&self, variant: Variant) -> u32 {
        *self
            .own_puzzles_per_grid
            .get(&variant)
            .unwrap_or(&self.puzzles_per_grid)
    }

    /// The strategies that fit `g`, by weight; an error naming the size and the
    /// strategies when none does (quarter turns and diagonals need square boxes).
    /// Refuses `dedup = "full"` for 16x16, whose group is too large to search.
    pub fn check_dedup(&self, g: Geometry) -> Result<()> {
        if self.dedup == Dedup::Full && g.variant().has_cages() {
            bail!(
                "generation.dedup = \"full\" does not apply to killer puzzles (their cages \
                 would have to follow every row and column permutation): use \"dihedral\""
            );
        }
        if self.dedup == Dedup::Full
            && g.n() > 12
            && g.variant().rules().symmetries == Symmetries::Sudoku
        {
            bail!(
                "generation.dedup = \"full\" supports sizes up to 12x12, not {}: use \"dihedral\"",
                g.label()
            );
        }
        Ok(())
    }

    /// The routes that can make grids of `g`, by weight (the variant's own, else
    /// `generation.routes`; the pattern grid breaks extra units); an error when none can.
    pub fn routes_for(&self, g: Geometry) -> Result<Weighted<Route>> {
        let (routes, key) = match self.own_routes.get(&g.variant()) {
            Some(own) => (own, format!("{}.routes", g.variant().name())),
            None => (&self.routes, "generation.routes".to_string()),
        };
        Weighted::new(routes.items().filter(|(r, _)| r.usable(g))).with_context(|| {
            let broken = Route::Pattern
                .breaks(g)
                .map_or_else(String::new, |c| format!(" ({c})"));
            format!(
                "{key}: the pattern route cannot make {} grids{broken}: give transform, \
                 backtrack or enumerate a weight above 0",
                g.label(),
            )
        })
    }

    pub fn strategies_for(&self, g: Geometry) -> Result<Weighted<Strategy>> {
        Weighted::new(
            self.strategies
                .iter()
                .copied()
                .filter(|(s, _)| s.check(g).is_ok()),
        )
        .with_context(|| {
            let names: Vec<&str> = self
                .strategies
                .iter()
                .filter(|(_, w)| *w > 0)
                .map(|(s, _)| s.name())
                .collect();
            format!(
                "generation.strategies: {} cannot dig {} (quarter turns and diagonal \
                 reflections need square boxes): give random, rot180, mirror or flip a weight \
                 above 0",
                names.join(", "),
                g.label()
            )
        })
    }
}

/// The `[alarm]` table, resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlarmPolicy {
    /// Attempts kept per tier.
    pub window: usize,
    /// Share of timeouts in a full window above which the alarm goes off, in [0, 1).
    pub threshold: f64,
    /// Clues added to the target per alarm.
    pub step: usize,
}

/// A target clue range, for 9×9.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClueRange {
    /// Digging aims here first.
    pub low: usize,
    /// Alarms never move the target past this.
    pub high: usize,
}

/// A band of SE-scale scores, both ends included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreBand {
    /// Lowest score in the band.
    pub min: f64,
    /// Highest score in the band.
    pub max: f64,
}

impl ScoreBand {
    /// Whether a score falls in the band (scores are sums of tenths: a little slack).
    pub fn contains(&self, score: f64) -> bool {
        (self.min - 1e-9..=self.max + 1e-9).contains(&score)
    }

    fn overlaps(&self, other: &ScoreBand) -> bool {
        self.min <= other.max && other.min <= self.max
    }
}

impl fmt::Display for ScoreBand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.min, self.max)
    }
}

/// One tier.
#[derive(Clone, Debug, PartialEq)]
pub struct Tier {
    /// Name used in the bank and on the command line.
    pub name: String,
    /// The one grid side a size's own tier is for (`None`: the general list).
    pub size: Option<usize>,
    /// Target clue range for 9×9 (scaled for other sizes), or for `size` itself.
    pub clues: ClueRange,
    /// Scores that place a puzzle in this tier.
    pub band: ScoreBand,
    /// A killer tier's own cage sizes (`None`: the `[killer]` table's): larger cages make
    /// harder puzzles, and cost more searching.
    pub cage_sizes: Option<CageSizes>,
}

impl Tier {
    /// The clue range for a geometry: a size's own tier's as written, a general tier's
    /// 9×9 range scaled by cell count.
    pub fn clue_range(&self, g: Geometry) -> (usize, usize) {
        if self.size.is_some() {
            return (self.clues.low, self.clues.high.min(g.cells()));
        }
        let scale = |k: usize| scale_clues(k, g.cells());
        (scale(self.clues.low), scale(self.clues.high).min(g.cells()))
    }

    /// Whether a rater score falls in this tier's band.
    pub fn accepts(&self, score: f64) -> bool {
        self.band.contains(score)
    }
}

/// A 9×9 clue count scaled to a grid of `cells` cells.
fn scale_clues(k: usize, cells: usize) -> usize {
    ((k * cells) as f64 / 81.0).round() as usize
}

/// How many puzzles the bank should hold of one size and tier.
#[derive(Clone, Debug)]
pub struct Quota {
    /// Grid geometry.
    pub geometry: Geometry,
    /// The tier.
    pub tier: Tier,
    /// Puzzles wanted.
    pub count: u64,
}

impl Settings {
    /// The embedded default.
    pub fn embedded() -> Settings {
        Settings::parse(DEFAULT_CONFIG, "embedded config/bank.toml")
            .expect("embedded config is valid")
    }

    /// The config at `path`, or the embedded default when none is given.
    pub fn load(path: Option<&Path>) -> Result<Settings> {
        let Some(path) = path else {
            return Ok(Settings::embedded());
        };
        if path.is_dir() {
            bail!(
                "config '{}' is a directory: give a TOML file",
                path.display()
            );
        }
        let text = std::fs::read_to_string(path).with_context(|| {
            format!(
                "cannot read config '{}': check the path, or omit --config to use the \
                 built-in default",
                path.display()
            )
        })?;
        Settings::parse(&text, &path.display().to_string())
    }

    /// Parses config text, lays it over the embedded default ([`ConfigFile::layered`]) and
    /// resolves the result; `origin` names the text in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Settings> {
        let file = ConfigFile::layered(DEFAULT_CONFIG, text)
            .map_err(|e| anyhow::anyhow!("config {origin}: {e}"))?;
        Settings::resolve(file).map_err(|e| anyhow::anyhow!("config {origin}: {e:#}"))
    }

    /// Checks every value of the file and turns it into settings.
    pub fn resolve(file: ConfigFile) -> Result<Settings> {
        let generation = resolve_generation(&file)?;
        let a = &file.alarm;
        if a.window == 0 || a.window > MAX_WINDOW {
            bail!("alarm.window = {} must be in 1..={MAX_WINDOW}", a.window);
        }
        if !(0.0..1.0).contains(&a.threshold) {
            bail!("alarm.threshold = {} must be in [0, 1)", a.threshold);
        }
        if a.step == 0 || a.step > 256 {
            bail!("alarm.step = {} must be in 1..=256", a.step);
        }
        let batch_size = file.writer.batch_size;
        if batch_size == 0 || batch_size > MAX_WINDOW {
            bail!("writer.batch_size = {batch_size} must be in 1..={MAX_WINDOW}");
        }
        let Variants {
            cage_sizes,
            tiers: own,
            puzzles_per_grid: own_puzzles_per_grid,
            routes: own_routes,
        } = resolve_variants(&file)?;
        let tiers = TierLists {
            shared: resolve_tiers(
                &file.tiers,
                "tier",
                (Variant::Classic.rules().fewest_clues, 80),
                &SUPPORTED_SIZES,
                false,
            )?,
            own,
        };
        let generation = Generation {
            cage_sizes,
            own_puzzles_per_grid,
            own_routes,
            ..generation
        };
        let quotas = resolve_quotas(&file, &tiers, &generation)?;
        Ok(Settings {
            generation,
            alarm: AlarmPolicy {
                window: a.window,
                threshold: a.threshold,
                step: a.step,
            },
            batch_size,
            tiers,
            quotas,
            file,
        })
    }

    /// The file as read (recorded with each run).
    pub fn file(&self) -> &ConfigFile {
        &self.file
    }

    /// The tiers of a geometry, easiest first: a variant has its own when the config has
    /// `[[NAME.tier]]` (killer always: its scale is its own); the others share the
    /// `[[tier]]` list. A size with tiers of its own (`size = N`) has
    /// those alone.
    pub fn tiers(&self, g: Geometry) -> &[Tier] {
        self.tiers.of(g)
    }

    /// Quotas, sizes ascending, tiers in config order.
    pub fn quotas(&self) -> &[Quota] {
        &self.quotas
    }

    /// The tier of that name for a geometry, with an error listing the known ones.
    pub fn tier(&self, name: &str, g: Geometry) -> Result<&Tier> {
        let tiers = self.tiers(g);
        tiers
            .iter()
            .find(|t| t.name == name)
            .with_context(|| self.unknown(name, tiers, Some(g), g.variant()))
    }

    /// Checks a tier name that selects puzzles of `variant` of every size (or of `size`):
    /// it must name a tier of at least one of them.
    pub fn check_tier_name(&self, name: &str, variant: Variant, size: Option<usize>) -> Result<()> {
        let sized = self.tiers.variant(variant);
        let g = size
            .and_then(Geometry::for_size)
            .map(|g| g.with_variant(variant));
        // Without a size, the name may come from any size's list: all are offered.
        let candidates: Vec<Tier> = match size {
            Some(n) => sized.of(n).to_vec(),
            None => {
                let mut all: Vec<Tier> = Vec::new();
                for t in sized.general.iter().chain(sized.by_size.values().flatten()) {
                    if !all.iter().any(|o| o.name == t.name) {
                        all.push(t.clone());
                    }
                }
                all
            }
        };
        if candidates.iter().any(|t| t.name == name) {
            return Ok(());
        }
        Err(anyhow::anyhow!(self.unknown(name, &candidates, g, variant)))
    }

    /// "unknown tier 'x': the config defines …", naming the variant or size whose list
    /// was searched when it is not the general classic one.
    fn unknown(&self, name: &str, tiers: &[Tier], g: Option<Geometry>, variant: Variant) -> String {
        let names: Vec<&str> = tiers.iter().map(|t| t.name.as_str()).collect();
        let mut whose = match self.tiers.own.contains_key(&variant) {
            false => String::new(),
            true => format!(" for {variant}"),
        };
        if let Some(g) = g.filter(|g| self.tiers.variant(variant).by_size.contains_key(&g.n())) {
            whose = format!(" for {}", g.short_label());
        }
        format!(
            "unknown tier '{name}': the config defines {}{whose}",
            names.join(", ")
        )
    }

    /// The tier a rater score falls in for a geometry (bands do not overlap, so at most
    /// one).
    pub fn tier_for_score(&self, score: f64, g: Geometry) -> Option<&Tier> {
        self.tiers(g).iter().find(|t| t.accepts(score))
    }
}

fn resolve_generation(file: &ConfigFile) -> Result<Generation> {
    let g = &file.generation;
    if g.deadline_ms > MAX_DEADLINE_MS {
        bail!(
            "generation.deadline_ms = {} is more than a day ({MAX_DEADLINE_MS})",
            g.deadline_ms
        );
    }
    if g.max_attempts == 0 {
        bail!("generation.max_attempts must be at least 1");
    }
    if g.puzzles_per_grid == 0 {
        bail!("generation.puzzles_per_grid must be at least 1");
    }
    if g.mother_grid_uses == 0 {
        bail!("generation.mother_grid_uses must be at least 1");
    }
    if g.threads > MAX_THREADS {
        bail!(
            "generation.threads = {} is more than {MAX_THREADS}: use 0 for one per core",
            g.threads
        );
    }
    let default_geometry = Geometry::for_size(g.default_size).with_context(|| {
        format!(
            "generation.default_size = {} is not a supported size (4, 6, 9, 12 or 16)",
            g.default_size
        )
    })?;
    let routes = route_weights(&g.routes, "generation.routes")?;
    let strategies = named_weights::<Strategy>(&g.strategies, "generation.strategies")?;
    let generation = Generation {
        cage_sizes: CageSizes::DEFAULT,
        deadline: Duration::from_millis(g.deadline_ms),
        max_attempts: g.max_attempts,
        threads: (g.threads > 0).then_some(g.threads),
        puzzles_per_grid: g.puzzles_per_grid,
        own_puzzles_per_grid: BTreeMap::new(),
        own_routes: BTreeMap::new(),
        mother_grid_uses: g.mother_grid_uses,
        max_per_solution_class: (g.max_per_solution_class > 0).then_some(g.max_per_solution_class),
        dedup: match g.dedup.as_str() {
            "dihedral" => Dedup::Dihedral,
            "full" => Dedup::Full,
            other => bail!(
                "generation.dedup = \"{other}\" is not a dedup rule: use \"dihedral\" or \"full\""
            ),
        },
        default_geometry,
        routes,
        strategies,
    };
    // Weights that do not fit a u32 together, or no weight at all, fail for every size.
    generation.strategies_for(Geometry::CLASSIC).context(
        "generation.strategies: at least one strategy needs a weight above 0 (and all \
         together at most 4294967295)",
    )?;
    generation.strategies_for(default_geometry)?;
    Ok(generation)
}

/// A route weight table (`key` names it in errors): at least one weight above 0.
fn route_weights(table: &BTreeMap<String, u32>, key: &str) -> Result<Weighted<Route>> {
    Weighted::new(named_weights::<Route>(table, key)?).with_context(|| {
        format!(
            "{key}: at least one route needs a weight above 0 (and all together at most \
             4294967295)"
        )
    })
}

/// A table of name = weight, each name parsed into its type; `key` names the table in
/// errors.
fn named_weights<T: FromStr>(table: &BTreeMap<String, u32>, key: &str) -> Result<Vec<(T, u32)>>
where
    T::Err: fmt::Display,
{
    table
        .iter()
        .map(|(name, &w)| {
            let item = name
                .parse::<T>()
                .map_err(|e| anyhow::anyhow!("{key}: {e}"))?;
            Ok((item, w))
        })
        .collect()
}

/// What the variants' own tables say.
struct Variants {
    /// The rule set with cages grows these.
    cage_sizes: CageSizes,
    /// The variants with tiers of their own.
    tiers: BTreeMap<Variant, SizedTiers>,
    /// The variants with a `puzzles_per_grid` of their own.
    puzzles_per_grid: BTreeMap<Variant, u32>,
    /// The variants with `routes` of their own.
    routes: BTreeMap<Variant, Weighted<Route>>,
}

/// The variants' own tables (`[killer]`, `[diagonal]`, …): the cage sizes of the rule
/// set with cages, each table's tiers (a table without any takes the `[[tier]]` list),
/// puzzles per grid and routes. A top-level key that names no variant is refused; a rule set
/// with cages needs its table (its tiers are on its own scale).
fn resolve_variants(file: &ConfigFile) -> Result<Variants> {
    let mut own = BTreeMap::new();
    let mut puzzles_per_grid = BTreeMap::new();
    let mut routes = BTreeMap::new();
    let mut cage_sizes = None;
    for (name, table) in &file.variants {
        let variant = Variant::from_name(name)
            .with_context(|| format!("[{name}]: not a variant (use {})", Variant::names()))?;
        let rules = variant.rules();
        if rules.cages {
            let Some(sizes) = &table.cage_sizes else {
                bail!("[{name}] needs cage_sizes = [smallest, largest]");
            };
            let [min, max] = sizes[..] else {
                bail!("{name}.cage_sizes = {sizes:?} must be two numbers [smallest, largest]");
            };
            // Up to 9 (the largest caged grid); a smaller grid caps them at its side.
            cage_sizes = Some(
                CageSizes::new(min, max, 9)
                    .map_err(|e| anyhow::anyhow!("{name}.cage_sizes: {e}"))?,
            );
        } else if table.cage_sizes.is_some() {
            bail!("{name}.cage_sizes: {name} sudoku grows no cages: remove it");
        }
        if let Some(count) = table.puzzles_per_grid {
            if count == 0 {
                bail!("{name}.puzzles_per_grid must be at least 1");
            }
            puzzles_per_grid.insert(variant, count);
        }
        if let Some(table) = &table.routes {
            routes.insert(variant, route_weights(table, &format!("{name}.routes"))?);
        }
        let clues = (rules.fewest_clues, 80);
        if rules.cages || table.tiers.is_some() {
            let key = format!("{name}.tier");
            let list = table.tiers.as_deref().unwrap_or_default();
            let tiers = resolve_tiers(list, &key, clues, rules.sizes, rules.cages)?;
            own.insert(variant, tiers);
        }
    }
    // The caged rule set's table gives the cage sizes and always a tier list.
    let Some(cage_sizes) = cage_sizes else {
        let v = Variant::caged();
        bail!("the config needs a [{v}] table with its cage_sizes and [[{v}.tier]] list");
    };
    Ok(Variants {
        cage_sizes,
        tiers: own,
        puzzles_per_grid,
        routes,
    })
}

/// A tier's `cage_sizes`, checked as a variant's `cage_sizes` is; refused on the tiers
/// of a list that grows no cages.
fn tier_cage_sizes(t: &TierTable, key: &str, cages: bool) -> Result<Option<CageSizes>> {
    let Some(sizes) = &t.cage_sizes else {
        return Ok(None);
    };
    if !cages {
        bail!(
            "tier '{}': cage_sizes belongs to [[{}.tier]] entries only (a [[{key}]] grows \
             no cages): remove it",
            t.name,
            Variant::caged()
        );
    }
    let [min, max] = sizes[..] else {
        bail!(
            "tier '{}': cage_sizes = {sizes:?} must be two numbers [smallest, largest]",
            t.name
        );
    };
    CageSizes::new(min, max, 9)
        .map(Some)
        .map_err(|e| anyhow::anyhow!("tier '{}': cage_sizes: {e}", t.name))
}

/// Resolves a variant's tiers: the general list (no `size`), and each size's own list;
/// `key` names the list in errors, `clues` bounds a general tier's 9x9 clue range (given
/// digits, for killer tiers; scaled to the size for a size's own tiers), `sizes` are the
/// grid sides the variant is made in. Every size must be left with a list.
fn resolve_tiers(
    tables: &[TierTable],
    key: &str,
    clues: (usize, usize),
    sizes: &[usize],
    cages: bool,
) -> Result<SizedTiers> {
    if tables.is_empty() {
        bail!("at least one [[{key}]] is needed");
    }
    let mut groups: BTreeMap<Option<usize>, Vec<&TierTable>> = BTreeMap::new();
    for t in tables {
        if let Some(n) = t.size.filter(|n| !sizes.contains(n)) {
            let list: Vec<String> = sizes.iter().map(|s| s.to_string()).collect();
            bail!(
                "tier '{}': size = {n} is not a grid side the [[{key}]] list is made in \
                 (use {})",
                t.name,
                list.join(", ")
            );
        }
        groups.entry(t.size).or_default().push(t);
    }
    let mut by_size = BTreeMap::new();
    let mut general = Vec::new();
    for (size, group) in groups {
        match size {
            None => general = resolve_list(&group, key, clues, cages)?,
            Some(n) => {
                let cells = n * n;
                let bounds = (
                    scale_clues(clues.0, cells),
                    scale_clues(clues.1, cells).min(cells),
                );
                by_size.insert(n, resolve_list(&group, key, bounds, cages)?);
            }
        }
    }
    if let Some(n) = sizes
        .iter()
        .find(|n| general.is_empty() && !by_size.contains_key(n))
    {
        bail!(
            "no [[{key}]] for {n}x{n}: give at least one tier without `size`, or one with \
             size = {n}"
        );
    }
    Ok(SizedTiers { general, by_size })
}

/// Resolves one list of tiers (the general one or one size's) of the list `key`, `clues`
/// bounding its clue ranges as written.
fn resolve_list(
    tables: &[&TierTable],
    key: &str,
    clues: (usize, usize),
    cages: bool,
) -> Result<Vec<Tier>> {
    let mut tiers: Vec<Tier> = Vec::with_capacity(tables.len());
    for (i, t) in tables.iter().enumerate() {
        let name_ok = !t.name.is_empty()
            && t.name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !name_ok {
            bail!(
                "tier {}: name '{}' must be letters, digits, '-' or '_'",
                i + 1,
                t.name
            );
        }
        if tiers.iter().any(|o| o.name == t.name) {
            bail!("tier '{}' is defined twice", t.name);
        }
        let [low, high] = t.clues[..] else {
            bail!(
                "tier '{}': clues = {:?} must be two numbers [low, high]",
                t.name,
                t.clues
            );
        };
        if low > high {
            bail!(
                "tier '{}': clues = [{low}, {high}] is empty (min > max)",
                t.name
            );
        }
        if low < clues.0 || high > clues.1 {
            bail!(
                "tier '{}': clues must lie within {}..={} for {} (got [{low}, {high}])",
                t.name,
                clues.0,
                clues.1,
                t.size.map_or("9x9".to_string(), |n| format!("{n}x{n}"))
            );
        }
        let [min, max] = t.score[..] else {
            bail!(
                "tier '{}': score = {:?} must be two numbers [min, max]",
                t.name,
                t.score
            );
        };
        if !min.is_finite() || !max.is_finite() || min > max {
            bail!(
                "tier '{}': score = [{min}, {max}] is empty (min > max)",
                t.name
            );
        }
        let band = ScoreBand { min, max };
        if let Some(o) = tiers.iter().find(|o| o.band.overlaps(&band)) {
            bail!(
                "tier '{}': score band {band} overlaps tier '{}' {}: a score must place a \
                 puzzle in one tier only",
                t.name,
                o.name,
                o.band
            );
        }
        tiers.push(Tier {
            name: t.name.clone(),
            size: t.size,
            clues: ClueRange { low, high },
            band,
            cage_sizes: tier_cage_sizes(t, key, cages)?,
        });
    }
    Ok(tiers)
}

/// The geometry of a `[quota.KEY]` table: `9` (classic) or `diagonal-9`.
fn quota_geometry(key: &str) -> Option<Geometry> {
    let (variant, size) = match key.rsplit_once('-') {
        Some((variant, size)) => (Variant::from_name(variant)?, size),
        None => (Variant::default(), key),
    };
    Some(Geometry::for_size(size.parse().ok()?)?.with_variant(variant))
}

/// Refuses a geometry whose rule set is not made in its size (killer: 4, 6 and 9).
pub fn check_variant_size(g: Geometry) -> Result<()> {
    let rules = g.variant().rules();
    if !rules.made_in(g.n()) {
        bail!(
            "{} sudoku is made in sizes {}, not {}: use --size {}",
            rules.name,
            rules.sizes_listed("and"),
            g.n(),
            rules.sizes_listed("or")
        );
    }
    Ok(())
}

fn resolve_quotas(file: &ConfigFile, tiers: &TierLists, gen: &Generation) -> Result<Vec<Quota>> {
    let mut sized = Vec::new();
    for (size, wanted) in &file.quota {
        let geometry = quota_geometry(size).with_context(|| {
            format!(
                "quota.{size}: not a supported grid: use a size (4, 6, 9, 12 or 16), or a \
                 variant and a size such as diagonal-9 (variants: {})",
                Variant::names()
            )
        })?;
        check_variant_size(geometry).with_context(|| format!("quota.{size}"))?;
        gen.routes_for(geometry)
            .with_context(|| format!("quota.{size}"))?;
        gen.strategies_for(geometry)
            .with_context(|| format!("quota.{size}"))?;
        let variant = geometry.variant();
        for name in wanted.keys() {
            if !tiers.of(geometry).iter().any(|t| &t.name == name) {
                bail!(
                    "quota.{size}.{name}: no [[{}]] named '{name}'",
                    tiers.key(variant)
                );
            }
        }
        sized.push((geometry, wanted));
    }
    sized.sort_by_key(|(g, _)| (g.n(), g.variant()));
    Ok(sized
        .into_iter()
        .flat_map(|(geometry, wanted)| {
            tiers.of(geometry).iter().filter_map(move |tier| {
                wanted.get(&tier.name).map(|&count| Quota {
                    geometry,
                    tier: tier.clone(),
                    count,
                })
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 9×9 under `v`.
    fn nine(v: Variant) -> Geometry {
        Geometry::for_size(9).unwrap().with_variant(v)
    }

    fn refused(from: &str, to: &str) -> String {
        assert!(DEFAULT_CONFIG.contains(from), "{from}");
        let text = DEFAULT_CONFIG.replace(from, to);
        Settings::parse(&text, "t.toml").unwrap_err().to_string()
    }

    #[test]
    fn embedded_default_is_valid() {
        let c = Settings::embedded();
        assert_eq!(c.generation.deadline, Duration::from_millis(200));
        assert_eq!(c.tiers(nine(Variant::Classic)).len(), 4);
        assert_eq!(
            c.tier("hard", nine(Variant::Classic)).unwrap().clues,
            ClueRange { low: 25, high: 30 }
        );
        for (score, tier) in [
            (1.5, "easy"),
            (2.6, "medium"),
            (4.2, "hard"),
            (7.5, "expert"),
        ] {
            assert_eq!(
                c.tier_for_score(score, nine(Variant::Classic))
                    .unwrap()
                    .name,
                tier
            );
        }
    }

    #[test]
    fn unknown_key_is_named() {
        let err = refused("batch_size = 500", "batch_size = 500\nbatchsize = 3");
        assert!(err.contains("unknown field `batchsize`"), "{err}");
    }

    #[test]
    fn empty_range_is_named() {
        let err = refused("clues = [36, 40]", "clues = [40, 36]");
        assert!(
            err.contains("tier 'easy': clues = [40, 36] is empty"),
            "{err}"
        );
    }

    /// `[[diagonal.tier]]` gives diagonal puzzles tiers of their own; without it they
    /// share the classic ones.
    #[test]
    fn diagonal_takes_its_own_tiers_when_the_config_has_them() {
        let c = Settings::embedded();
        assert_eq!(
            c.tiers(nine(Variant::Diagonal)),
            c.tiers(nine(Variant::Classic))
        );
        let own = format!(
            "{DEFAULT_CONFIG}\n[[diagonal.tier]]\nname = \"gentle\"\nclues = [30, 36]\n\
             score = [1.0, 3.0]\n\n[[diagonal.tier]]\nname = \"master\"\nclues = [24, 28]\n\
             score = [3.1, 20.0]\n"
        );
        let c = Settings::parse(&format!("{own}\n[quota.diagonal-9]\nmaster = 5\n"), "t").unwrap();
        let names: Vec<&str> = c
            .tiers(nine(Variant::Diagonal))
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        assert_eq!(names, ["gentle", "master"]);
        assert_eq!(c.tiers(nine(Variant::Classic)).len(), 4);
        let q = c
            .quotas()
            .iter()
            .find(|q| q.geometry.variant() == Variant::Diagonal)
            .unwrap();
        assert_eq!((q.tier.name.as_str(), q.count), ("master", 5));
        let err = c
            .tier("easy", nine(Variant::Diagonal))
            .unwrap_err()
            .to_string();
        assert!(err.contains("defines gentle, master for diagonal"), "{err}");
        assert!(c.tier("master", nine(Variant::Classic)).is_err());
        let err = Settings::parse(&format!("{own}\n[quota.diagonal-9]\neasy = 5\n"), "t")
            .unwrap_err()
            .to_string();
        assert!(err.contains("no [[diagonal.tier]] named 'easy'"), "{err}");
        let err = Settings::parse(&format!("{DEFAULT_CONFIG}\n[diagonal]\ntier = []\n"), "t")
            .unwrap_err()
            .to_string();
        assert!(err.contains("at least one [[diagonal.tier]]"), "{err}");
    }

    /// A variant whose rule pins digits beyond the classic one may aim its tiers below the
    /// 17 givens no classic puzzle goes under (non-consecutive experts sit at 10-16); the
    /// classic list may not.
    #[test]
    fn tiers_go_below_seventeen_givens_only_where_the_rule_allows() {
        let tier = |key: &str, name: &str, clues: &str, score: &str| {
            format!("\n[[{key}]]\nname = \"{name}\"\nclues = {clues}\nscore = {score}\n")
        };
        let key = "non-consecutive.tier";
        let own = [
            tier(key, "easy", "[22, 26]", "[1.0, 2.3]"),
            tier(key, "medium", "[16, 20]", "[2.4, 3.4]"),
            tier(key, "hard", "[15, 20]", "[3.5, 5.9]"),
            tier(key, "expert", "[11, 16]", "[6.0, 20.0]"),
        ];
        let c = Settings::parse(&format!("{DEFAULT_CONFIG}{}", own.concat()), "t").unwrap();
        let expert = c.tier("expert", nine(Variant::NonConsecutive)).unwrap();
        assert_eq!((expert.clues.low, expert.clues.high), (11, 16));
        let classic = tier("tier", "deep", "[11, 16]", "[20.5, 21.0]");
        let err = Settings::parse(&format!("{DEFAULT_CONFIG}{classic}"), "t")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("tier 'deep': clues must lie within 17..=80"),
            "{err}"
        );
    }

    /// A tier with `size = N` belongs to that size alone, its clues counted on that size;
    /// a size with tiers of its own has those only, the others keep the general list.
    #[test]
    fn a_size_takes_its_own_tiers_when_the_config_has_them() {
        let four = Geometry::for_size(4).unwrap();
        let own = |extra: &str| {
            Settings::parse(
                &format!(
                    "{DEFAULT_CONFIG}\n[[tier]]\nname = \"gentle\"\nsize = 4\nclues = [8, 10]\n\
                     score = [1.0, 2.0]\n\n[[tier]]\nname = \"easy\"\nsize = 4\n\
                     clues = [6, 7]\nscore = [2.1, 20.0]\n{extra}"
                ),
                "t",
            )
        };
        let c = own("").unwrap();
        let names: Vec<&str> = c.tiers(four).iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["gentle", "easy"]);
        assert_eq!(c.tiers(nine(Variant::Classic)).len(), 4);
        assert_eq!(c.tier("gentle", four).unwrap().clue_range(four), (8, 10));
        // The general easy tier is scaled; 4x4's own easy is as written.
        assert_eq!(c.tier("easy", four).unwrap().clue_range(four), (6, 7));
        assert_eq!(
            c.tier("easy", nine(Variant::Classic)).unwrap().clues.low,
            36
        );
        let err = c.tier("hard", four).unwrap_err().to_string();
        assert!(err.contains("defines gentle, easy for 4x4"), "{err}");
        assert!(c.check_tier_name("gentle", Variant::Classic, None).is_ok());
        let err = c
            .check_tier_name("nope", Variant::Classic, None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("defines easy, medium, hard, expert, gentle"),
            "{err}"
        );
        assert!(c
            .check_tier_name("gentle", Variant::Classic, Some(9))
            .is_err());
        // Diagonal shares the classic lists, sizes included.
        assert_eq!(c.tiers(four.with_variant(Variant::Diagonal)).len(), 2);
        let err = own("\n[quota.4]\nhard = 3\n").unwrap_err().to_string();
        assert!(
            err.contains("quota.4.hard: no [[tier]] named 'hard'"),
            "{err}"
        );
        assert!(own("\n[quota.4]\ngentle = 3\n").is_ok());
        for (size_and_clues, says) in [
            ("size = 5\nclues = [8, 10]", "size = 5 is not a grid side"),
            ("size = 4\nclues = [8, 17]", "within 3..=16 for 4x4"),
        ] {
            let config = format!(
                "{DEFAULT_CONFIG}\n[[tier]]\nname = \"gentle\"\n{size_and_clues}\n\
                 score = [1.0, 2.0]\n"
            );
            let err = Settings::parse(&config, "t").unwrap_err().to_string();
            assert!(err.contains(says), "{err}");
        }
    }

    /// A file resolved without the caged rule set's table (no layering puts one there) is
    /// refused by name rather than given made-up cage sizes.
    #[test]
    fn the_caged_rule_sets_table_is_required() {
        let mut file = ConfigFile::layered(DEFAULT_CONFIG, "").unwrap();
        file.variants.remove("killer");
        let err = Settings::resolve(file).unwrap_err().to_string();
        assert_eq!(
            err,
            "the config needs a [killer] table with its cage_sizes and [[killer.tier]] list"
        );
    }

    /// A variant's table may set how many puzzles one grid serves; without tiers of its
    /// own it keeps the `[[tier]]` list.
    #[test]
    fn a_variant_may_dig_more_puzzles_from_a_grid() {
        let c = Settings::embedded();
        assert_eq!(c.generation.puzzles_per_grid(Variant::Classic), 4);
        assert_eq!(c.generation.puzzles_per_grid(Variant::Diagonal), 4);
        assert_eq!(c.generation.puzzles_per_grid(Variant::Jigsaw), 16);
        assert_eq!(
            c.tiers(nine(Variant::Jigsaw)),
            c.tiers(nine(Variant::Classic))
        );
        assert_eq!(
            refused(
                "[jigsaw]\npuzzles_per_grid = 16",
                "[jigsaw]\npuzzles_per_grid = 0"
            ),
            "config t.toml: jigsaw.puzzles_per_grid must be at least 1"
        );
    }

    #[test]
    fn killer_has_its_own_tiers_and_cage_sizes() {
        let c = Settings::embedded();
        let sizes = |min, max| CageSizes::new(min, max, 9).unwrap();
        assert_eq!(c.generation.cage_sizes, sizes(2, 4));
        let easy = c.tier("easy", nine(Variant::Killer)).unwrap();
        assert_eq!(easy.clue_range(Geometry::CLASSIC), (0, 4));
        assert_eq!(easy.cage_sizes, Some(sizes(2, 3)));
        assert_eq!(
            c.tier("hard", nine(Variant::Killer)).unwrap().cage_sizes,
            None
        );
        assert!(c.tiers(nine(Variant::Killer)).len() >= 3);
        assert_eq!(
            refused("cage_sizes = [2, 4]", "cage_sizes = [3, 10]"),
            "config t.toml: killer.cage_sizes: cage sizes [3, 10] must satisfy 1 <= min <= max \
             <= 9"
        );
        assert_eq!(
            refused("cage_sizes = [2, 3]", "cage_sizes = [4, 3]"),
            "config t.toml: tier 'easy': cage_sizes: cage sizes [4, 3] must satisfy 1 <= min \
             <= max <= 9"
        );
        assert_eq!(
            refused("cage_sizes = [2, 3]", "cage_sizes = [2]"),
            "config t.toml: tier 'easy': cage_sizes = [2] must be two numbers [smallest, \
             largest]"
        );
        assert_eq!(
            refused(
                "score = [1.0, 2.3]\n",
                "score = [1.0, 2.3]\ncage_sizes = [2, 3]\n"
            ),
            "config t.toml: tier 'easy': cage_sizes belongs to [[killer.tier]] entries only \
             (a [[tier]] grows no cages): remove it"
        );
        let text = DEFAULT_CONFIG.replace("[quota.16]", "[quota.killer-16]");
        let err = Settings::parse(&text, "t.toml").unwrap_err().to_string();
        assert!(
            err.contains("killer sudoku is made in sizes 4, 6 and 9"),
            "{err}"
        );
    }

    #[test]
    fn unknown_tier_lists_known_ones() {
        let err = Settings::embedded()
            .tier("nightmare", nine(Variant::Classic))
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "unknown tier 'nightmare': the config defines easy, medium, hard, expert"
        );
    }

    #[test]
    fn quotas_are_validated_and_ordered() {
        let c = Settings::embedded();
        let q = c.quotas();
        assert_eq!(q[0].geometry.n(), 6);
        assert!(q
            .iter()
            .any(|q| q.geometry.n() == 9 && q.tier.name == "hard" && q.count == 10_000));
        let err = refused("[quota.9]", "[quota.8]");
        assert!(err.contains("quota.8: not a supported grid"), "{err}");
        let err = refused("[quota.9]", "[quota.cross-9]");
        assert!(err.contains("diagonal-9"), "{err}");
        let text = DEFAULT_CONFIG.replace("[quota.9]", "[quota.diagonal-9]");
        let c = Settings::parse(&text, "test").unwrap();
        assert!(c.quotas().iter().any(|q| q.geometry.n() == 9
            && q.geometry.variant() == Variant::Diagonal
            && q.tier.name == "hard"));
    }

    #[test]
    fn clue_range_scales_with_size() {
        let c = Settings::embedded();
        let t = c.tier("easy", nine(Variant::Classic)).unwrap();
        assert_eq!(t.clue_range(Geometry::CLASSIC), (36, 40));
        assert_eq!(t.clue_range(Geometry::for_size(16).unwrap()), (114, 126));
        let oblong = Geometry::for_size(6).unwrap();
        let fitting = c.generation.strategies_for(oblong).unwrap();
        assert!(fitting.items().all(|(s, _)| s.check(oblong).is_ok()));
    }

    #[test]
    fn strategies_that_fit_no_oblong_box_are_refused_for_that_size() {
        let only_square = "strategies = { rot90 = 1, diagonal = 2 }";
        // Without the quotas of oblong sizes (6x6, and the variants' other sizes).
        let square_quotas = DEFAULT_CONFIG
            .split("\n# Other sizes")
            .next()
            .expect("the default config");
        let text = square_quotas
            .replace(
                "strategies = { random = 6, rot180 = 2, rot90 = 0, mirror = 1, flip = 1, diagonal = 0 }",
                only_square,
            )
            .replace("[quota.6]\neasy = 2000\nmedium = 500\nhard = 500\nexpert = 500", "");
        let (before, twelve) = text.split_once("[quota.12]").expect("a 12x12 quota");
        let text = format!("{before}{}", &twelve[twelve.find("[quota.16]").unwrap()..]);
        let c = Settings::parse(&text, "t.toml").unwrap();
        assert!(c.generation.strategies_for(Geometry::CLASSIC).is_ok());
        for n in [6, 12] {
            let err = c
                .generation
                .strategies_for(Geometry::for_size(n).unwrap())
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("diagonal, rot90 cannot dig") && err.contains(&format!("{n}x{n}")),
                "{err}"
            );
        }
        // With a quota of an oblong size the file itself is refused.
        let text = DEFAULT_CONFIG.replace(
            "strategies = { random = 6, rot180 = 2, rot90 = 0, mirror = 1, flip = 1, diagonal = 0 }",
            only_square,
        );
        let err = Settings::parse(&text, "t.toml").unwrap_err().to_string();
        assert!(err.contains("quota.12") && err.contains("12x12"), "{err}");
    }

    /// Every value a hand-edited file might get wrong is refused with its name, never a
    /// panic later.
    #[test]
    fn bad_values_are_refused_by_name() {
        let cases = include_str!("../../tests/data/bad_configs.txt");
        let mut checked = 0;
        for line in cases
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let parts: Vec<String> = line.split(" => ").map(|p| p.replace("\\n", "\n")).collect();
            let [from, to, expected] = &parts[..] else {
                panic!("bad line: {line}");
            };
            let err = refused(from, to);
            assert!(err.contains(expected.as_str()), "{to}: {err}");
            assert!(err.starts_with("config t.toml: "), "{err}");
            checked += 1;
        }
        assert_eq!(checked, 35);
        for text in [
            "tier = 3",
            "\u{0}",
            "[generation]\nthreads = \"all\"",
            "[colour]",
        ] {
            assert!(Settings::parse(text, "t.toml").is_err());
        }
    }

    /// A variant's `routes` replace `generation.routes` for its grids alone, and a pattern
    /// route it cannot use is refused under its name (its quotas need grids).
    #[test]
    fn a_variant_may_take_routes_of_its_own() {
        let embedded = Settings::embedded();
        let routes = |s: &Settings, v| -> Vec<(Route, u32)> {
            s.generation.routes_for(nine(v)).unwrap().items().collect()
        };
        assert_eq!(
            routes(&embedded, Variant::NonConsecutive),
            [(Route::Transform, 1)]
        );
        let classic = routes(&embedded, Variant::Classic);
        assert!(classic.contains(&(Route::Backtrack, 1)), "{classic:?}");

        let own = Settings::parse("[windoku]\nroutes = { backtrack = 3 }\n", "t").unwrap();
        assert_eq!(routes(&own, Variant::Windoku), [(Route::Backtrack, 3)]);
        assert_eq!(
            routes(&own, Variant::Diagonal),
            routes(&embedded, Variant::Diagonal)
        );
        let err = Settings::parse("[windoku]\nroutes = { pattern = 1 }\n", "t").unwrap_err();
        assert!(
            err.to_string()
                .contains("windoku.routes: the pattern route"),
            "{err}"
        );
    }

    #[test]
    fn a_partial_file_is_laid_over_the_default() {
        let embedded = Settings::embedded();
        assert_eq!(Settings::parse("", "t").unwrap().file(), embedded.file());

        let quotas = Settings::parse("[quota.9]\nhard = 7\n", "t").unwrap();
        let wanted: Vec<_> = quotas
            .quotas()
            .iter()
            .map(|q| (q.geometry.n(), q.tier.name.as_str(), q.count))
            .collect();
        assert_eq!(
            wanted,
            [(9, "hard", 7)],
            "a quota file replaces the quotas whole"
        );
        assert_eq!(quotas.file().tiers, embedded.file().tiers);
        assert_eq!(quotas.generation.deadline, embedded.generation.deadline);

        let one_value = Settings::parse("[alarm]\nthreshold = 0.4\n", "t").unwrap();
        assert_eq!(one_value.alarm.threshold, 0.4);
        assert_eq!(one_value.alarm.window, embedded.alarm.window);
        assert_eq!(one_value.quotas().len(), embedded.quotas().len());

        let routes = Settings::parse("[generation]\nroutes = { backtrack = 1 }\n", "t").unwrap();
        let g = &routes.file().generation;
        assert_eq!(g.routes.len(), 1, "a weight table replaces the default's");
        assert_eq!(g.max_attempts, embedded.file().generation.max_attempts);

        let tiers = "[[tier]]\nname = \"any\"\nclues = [22, 40]\nscore = [1.0, 20.0]\n";
        let err = Settings::parse(tiers, "t").unwrap_err();
        assert!(
            format!("{err:#}").contains("quota.12.easy: no [[tier]] named 'easy'"),
            "{err:#}"
        );
        let tiers = format!("{tiers}[quota.9]\nany = 10\n");
        let one_tier = Settings::parse(&tiers, "t").unwrap();
        assert_eq!(
            one_tier.file().tiers.len(),
            1,
            "a list of tables replaces the default's"
        );
        assert_eq!(one_tier.file().variants, embedded.file().variants);

        let err = Settings::parse("[alarm]\nthreshhold = 0.4\n", "t.toml").unwrap_err();
        assert!(format!("{err:#}").contains("threshhold"), "{err:#}");
    }
}
