//! `config/bank.toml`: loaded once at the edge, validated, passed on as plain values.

use crate::generate::{Route, Strategy};
use crate::grid::Geometry;
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The configuration checked into `config/bank.toml`, embedded in the binary.
pub const DEFAULT_CONFIG: &str = include_str!("../config/bank.toml");

/// The whole configuration.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// How attempts are made.
    pub generation: Generation,
    /// When a tier's target is lowered.
    pub alarm: Alarm,
    /// How the writer batches.
    pub writer: Writer,
    /// Tiers, easiest first.
    #[serde(rename = "tier")]
    pub tiers: Vec<Tier>,
    /// Puzzles the bank should hold: grid side (as text) → tier → count.
    #[serde(default)]
    pub quota: BTreeMap<String, BTreeMap<String, u64>>,
}

/// The `[generation]` table.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Generation {
    /// Per-attempt deadline in milliseconds.
    pub deadline_ms: u64,
    /// Attempts per job, first included.
    pub max_attempts: u32,
    /// Worker threads, 0 = one per core.
    pub threads: usize,
    /// Puzzles dug from one base grid.
    pub puzzles_per_grid: u32,
    /// Grid side when none is given.
    pub default_size: usize,
    /// Route name → weight.
    pub routes: BTreeMap<String, u32>,
    /// Strategy name → weight.
    pub strategies: BTreeMap<String, u32>,
}

/// The `[alarm]` table.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Alarm {
    /// Attempts kept per tier.
    pub window: usize,
    /// Share of timeouts in a full window that raises the alarm.
    pub threshold: f64,
    /// Clues added to the target per alarm.
    pub step: usize,
}

/// The `[writer]` table.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Writer {
    /// Puzzles per transaction.
    pub batch_size: usize,
}

/// One `[[tier]]`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Tier {
    /// Name used in the bank and on the command line.
    pub name: String,
    /// Target clue range `[low, high]` for 9×9 (scaled for other sizes).
    pub clues: [usize; 2],
    /// Band of SE-scale scores `[min, max]` that places a puzzle in this tier.
    pub score: [f64; 2],
}

impl Tier {
    /// The clue range for a geometry: the 9×9 range scaled by cell count.
    pub fn clue_range(&self, g: Geometry) -> (usize, usize) {
        let scale = |k: usize| ((k * g.cells()) as f64 / 81.0).round() as usize;
        (scale(self.clues[0]), scale(self.clues[1]).min(g.cells()))
    }

    /// Whether a rater score falls in this tier's band.
    pub fn accepts(&self, score: f64) -> bool {
        (self.score[0] - 1e-9..=self.score[1] + 1e-9).contains(&score)
    }
}

impl Config {
    /// The embedded default.
    pub fn default_config() -> Config {
        Config::parse(DEFAULT_CONFIG, "embedded config/bank.toml")
            .expect("embedded config is valid")
    }

    /// The config at `path`, or the embedded default when none is given.
    pub fn load_or_default(path: Option<&Path>) -> Result<Config> {
        path.map_or_else(|| Ok(Config::default_config()), Config::load)
    }

    /// Reads and validates a config file.
    pub fn load(path: &Path) -> Result<Config> {
        if path.is_dir() {
            bail!(
                "config '{}' is a directory: give a TOML file",
                path.display()
            );
        }
        let text = std::fs::read_to_string(path).with_context(|| {
            format!("cannot read config '{}': check the path, or omit --config to use the built-in default", path.display())
        })?;
        Config::parse(&text, &path.display().to_string())
    }

    /// Parses and validates config text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Config> {
        let config: Config =
            toml::from_str(text).map_err(|e| anyhow::anyhow!("config {origin}: {e}"))?;
        config
            .validate()
            .map_err(|e| anyhow::anyhow!("config {origin}: {e}"))?;
        Ok(config)
    }

    fn validate(&self) -> Result<()> {
        let g = &self.generation;
        if g.max_attempts == 0 {
            bail!("generation.max_attempts must be at least 1");
        }
        if g.puzzles_per_grid == 0 {
            bail!("generation.puzzles_per_grid must be at least 1");
        }
        if Geometry::for_size(g.default_size).is_none() {
            bail!(
                "generation.default_size = {} is not a supported size (4, 6, 9, 12 or 16)",
                g.default_size
            );
        }
        for name in g.routes.keys() {
            name.parse::<Route>()
                .map_err(|e| anyhow::anyhow!("generation.routes: {e}"))?;
        }
        if g.routes.values().all(|&w| w == 0) {
            bail!("generation.routes: at least one route needs a weight above 0");
        }
        for name in g.strategies.keys() {
            name.parse::<Strategy>()
                .map_err(|e| anyhow::anyhow!("generation.strategies: {e}"))?;
        }
        if g.strategies.values().all(|&w| w == 0) {
            bail!("generation.strategies: at least one strategy needs a weight above 0");
        }
        let a = &self.alarm;
        if a.window == 0 {
            bail!("alarm.window must be at least 1");
        }
        if !(0.0..1.0).contains(&a.threshold) {
            bail!("alarm.threshold = {} must be in [0, 1)", a.threshold);
        }
        if a.step == 0 {
            bail!("alarm.step must be at least 1");
        }
        if self.writer.batch_size == 0 {
            bail!("writer.batch_size must be at least 1");
        }
        if self.tiers.is_empty() {
            bail!("at least one [[tier]] is needed");
        }
        for (i, t) in self.tiers.iter().enumerate() {
            if t.name.is_empty()
                || !t
                    .name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                bail!(
                    "tier {}: name '{}' must be letters, digits, '-' or '_'",
                    i + 1,
                    t.name
                );
            }
            if self.tiers[..i].iter().any(|o| o.name == t.name) {
                bail!("tier '{}' is defined twice", t.name);
            }
            if t.clues[0] > t.clues[1] {
                bail!(
                    "tier '{}': clues = [{}, {}] is empty (min > max)",
                    t.name,
                    t.clues[0],
                    t.clues[1]
                );
            }
            if t.clues[1] > 81 || t.clues[0] < 17 {
                bail!(
                    "tier '{}': clues must lie within 17..=81 for 9x9 (got [{}, {}])",
                    t.name,
                    t.clues[0],
                    t.clues[1]
                );
            }
            if t.score[0].is_nan() || t.score[1].is_nan() || t.score[0] > t.score[1] {
                bail!(
                    "tier '{}': score = [{}, {}] is empty (min > max)",
                    t.name,
                    t.score[0],
                    t.score[1]
                );
            }
        }
        for (size, tiers) in &self.quota {
            let ok = size
                .parse::<usize>()
                .ok()
                .and_then(Geometry::for_size)
                .is_some();
            if !ok {
                bail!("quota.{size}: not a supported grid size (4, 6, 9, 12 or 16)");
            }
            for name in tiers.keys() {
                if !self.tiers.iter().any(|t| &t.name == name) {
                    bail!("quota.{size}.{name}: no [[tier]] named '{name}'");
                }
            }
        }
        Ok(())
    }

    /// The quota as (geometry, tier, puzzles wanted), sizes ascending, tiers in config order.
    pub fn quotas(&self) -> Vec<(Geometry, &Tier, u64)> {
        let mut sizes: Vec<(usize, &BTreeMap<String, u64>)> = self
            .quota
            .iter()
            .map(|(k, v)| (k.parse().expect("validated"), v))
            .collect();
        sizes.sort_by_key(|(n, _)| *n);
        let mut out = Vec::new();
        for (n, wanted) in sizes {
            let g = Geometry::for_size(n).expect("validated");
            for tier in &self.tiers {
                if let Some(&count) = wanted.get(&tier.name) {
                    out.push((g, tier, count));
                }
            }
        }
        out
    }

    /// The tier of that name, with an error listing the known ones.
    pub fn tier(&self, name: &str) -> Result<&Tier> {
        self.tiers.iter().find(|t| t.name == name).with_context(|| {
            let names: Vec<&str> = self.tiers.iter().map(|t| t.name.as_str()).collect();
            format!(
                "unknown tier '{name}': the config defines {}",
                names.join(", ")
            )
        })
    }

    /// The tier a rater score falls in: the first whose band contains it.
    pub fn tier_for_score(&self, score: f64) -> Option<&Tier> {
        self.tiers.iter().find(|t| t.accepts(score))
    }

    /// Weighted routes, by name order.
    pub fn route_weights(&self) -> Vec<(Route, u32)> {
        self.generation
            .routes
            .iter()
            .map(|(n, &w)| (n.parse().expect("validated"), w))
            .collect()
    }

    /// Weighted strategies that fit `g`, by name order.
    pub fn strategy_weights(&self, g: Geometry) -> Vec<(Strategy, u32)> {
        self.generation
            .strategies
            .iter()
            .map(|(n, &w)| (n.parse::<Strategy>().expect("validated"), w))
            .filter(|(s, w)| *w > 0 && s.check(g).is_ok())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_default_is_valid() {
        let c = Config::default_config();
        assert_eq!(c.generation.deadline_ms, 200);
        assert_eq!(c.tiers.len(), 4);
        assert_eq!(c.tier("hard").unwrap().clues, [25, 30]);
        assert_eq!(c.tier_for_score(1.5).unwrap().name, "easy");
        assert_eq!(c.tier_for_score(2.6).unwrap().name, "medium");
        assert_eq!(c.tier_for_score(4.2).unwrap().name, "hard");
        assert_eq!(c.tier_for_score(7.5).unwrap().name, "expert");
    }

    #[test]
    fn unknown_key_is_named() {
        let text = DEFAULT_CONFIG.replace("batch_size = 500", "batch_size = 500\nbatchsize = 3");
        let err = Config::parse(&text, "t.toml").unwrap_err().to_string();
        assert!(err.contains("unknown field `batchsize`"), "{err}");
    }

    #[test]
    fn empty_range_is_named() {
        let text = DEFAULT_CONFIG.replace("clues = [36, 40]", "clues = [40, 36]");
        let err = Config::parse(&text, "t.toml").unwrap_err().to_string();
        assert!(
            err.contains("tier 'easy': clues = [40, 36] is empty"),
            "{err}"
        );
    }

    #[test]
    fn unknown_tier_lists_known_ones() {
        let err = Config::default_config()
            .tier("nightmare")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "unknown tier 'nightmare': the config defines easy, medium, hard, expert"
        );
    }

    #[test]
    fn quotas_are_validated_and_ordered() {
        let c = Config::default_config();
        let q = c.quotas();
        assert_eq!(q[0].0.n(), 6);
        assert!(q
            .iter()
            .any(|(g, t, n)| g.n() == 9 && t.name == "hard" && *n == 10_000));
        let text = DEFAULT_CONFIG.replace("[quota.9]", "[quota.8]");
        let err = Config::parse(&text, "t.toml").unwrap_err().to_string();
        assert!(err.contains("quota.8: not a supported grid size"), "{err}");
    }

    #[test]
    fn clue_range_scales_with_size() {
        let c = Config::default_config();
        let t = c.tier("easy").unwrap();
        assert_eq!(t.clue_range(Geometry::CLASSIC), (36, 40));
        assert_eq!(t.clue_range(Geometry::for_size(16).unwrap()), (114, 126));
        let oblong = Geometry::for_size(6).unwrap();
        assert!(c
            .strategy_weights(oblong)
            .iter()
            .all(|(s, _)| s.check(oblong).is_ok()));
    }
}
