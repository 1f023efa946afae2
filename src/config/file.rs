//! The TOML file as written: field names and shapes only, and how a partial file is laid
//! over the embedded default ([`ConfigFile::layered`]). Nothing reads these values but
//! [`super::Settings::resolve`], which checks them and turns them into types.

use crate::grid::Variant;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use toml::{Table, Value};

impl ConfigFile {
    /// `text` laid over `default`, section by section: a section the text gives
    /// (`[generation]`, `[alarm]`, `[writer]`, a variant's such as `[killer]`) keeps the default's
    /// keys it does not name, so a file with only `[alarm] threshold = 0.4` changes one
    /// value. A key's value replaces the default's whole: a list of tiers (`[[tier]]`,
    /// `[[killer.tier]]`) or a weight table (`routes`, `strategies`) is the file's own.
    /// `[quota]` replaces whole too: a quota file says what to stock, and sizes it leaves
    /// out are not stocked. Unknown keys are refused after the merge.
    pub fn layered(default: &str, text: &str) -> Result<ConfigFile, toml::de::Error> {
        let mut merged: Table = default.parse()?;
        let over: Table = text.parse()?;
        for (key, value) in over {
            match (merged.get_mut(&key), value) {
                (Some(Value::Table(section)), Value::Table(keys)) if key != "quota" => {
                    section.extend(keys)
                }
                (_, value) => {
                    merged.insert(key, value);
                }
            }
        }
        if let Some(key) = merged.keys().find(|k| !FIXED_KEYS.contains(&k.as_str())) {
            if Variant::from_name(key).is_none_or(|v| v.rules().is_plain()) {
                let variants: Vec<&str> = Variant::ALL
                    .into_iter()
                    .filter(|v| !v.rules().is_plain())
                    .map(Variant::name)
                    .collect();
                return Err(serde::de::Error::custom(format!(
                    "unknown field `{key}`, expected one of {} or a variant's table ({})",
                    FIXED_KEYS.join(", "),
                    variants.join(", ")
                )));
            }
        }
        ConfigFile::deserialize(merged)
    }
}

/// The top-level keys of every config; the others name variants.
const FIXED_KEYS: [&str; 5] = ["generation", "alarm", "writer", "tier", "quota"];

/// The whole file. Its other tables are the variants' (see [`ConfigFile::variants`]).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct ConfigFile {
    /// How attempts are made.
    pub generation: GenerationTable,
    /// When a tier's target is raised.
    pub alarm: AlarmTable,
    /// How the writer batches.
    pub writer: WriterTable,
    /// Tiers, easiest first.
    #[serde(rename = "tier")]
    pub tiers: Vec<TierTable>,
    /// Puzzles the bank should hold: grid side (as text) → tier → count.
    #[serde(default)]
    pub quota: BTreeMap<String, BTreeMap<String, u64>>,
    /// Every other top-level table: a variant's own by its name (`[killer]`,
    /// `[diagonal]`, …); [`ConfigFile::layered`] refuses a key that names no variant.
    #[serde(flatten)]
    pub variants: BTreeMap<String, VariantTable>,
}

/// A variant's own table, `[NAME]`: its tiers, for a rule set with cages the cage sizes
/// grown, how many puzzles one of its grids serves, and the routes its grids take.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct VariantTable {
    /// Cage sizes grown, `[smallest, largest]` (rule sets with cages only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cage_sizes: Option<Vec<usize>>,
    /// Puzzles dug from one base grid of the variant (without it:
    /// `generation.puzzles_per_grid`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzles_per_grid: Option<u32>,
    /// Route name → weight for the variant's base grids (without it:
    /// `generation.routes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routes: Option<BTreeMap<String, u32>>,
    /// The variant's tiers, easiest first (without them: the `[[tier]]` list; a rule set
    /// with cages rates on its own scale and needs its own).
    #[serde(rename = "tier", default, skip_serializing_if = "Option::is_none")]
    pub tiers: Option<Vec<TierTable>>,
}

/// The `[generation]` table.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GenerationTable {
    /// Per-attempt deadline in milliseconds.
    pub deadline_ms: u64,
    /// Attempts per job, first included.
    pub max_attempts: u32,
    /// Worker threads, 0 = one per core.
    pub threads: usize,
    /// Puzzles dug from one base grid.
    pub puzzles_per_grid: u32,
    /// Base grids the transform route makes from one mother grid before a new one.
    #[serde(default = "default_mother_grid_uses")]
    pub mother_grid_uses: u32,
    /// Most puzzles a bank may hold of one solution class (0: no cap).
    #[serde(default)]
    pub max_per_solution_class: u32,
    /// `dihedral` (the 8 symmetries of the square and relabelling) or `full` (the whole
    /// sudoku group applied to the puzzle).
    #[serde(default = "default_dedup")]
    pub dedup: String,
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
pub struct AlarmTable {
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
pub struct WriterTable {
    /// Puzzles per transaction.
    pub batch_size: usize,
}

/// One `[[tier]]`. The pairs are lists so that a list of another length is refused by
/// name rather than cut to two.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TierTable {
    /// Name used in the bank and on the command line.
    pub name: String,
    /// The one grid side this tier is for (absent: every size without tiers of its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<usize>,
    /// Target clue range `[low, high]` for 9×9, or for `size` when given.
    pub clues: Vec<usize>,
    /// Band of SE-scale scores `[min, max]`.
    pub score: Vec<f64>,
    /// Killer tiers only: the cage sizes `[smallest, largest]` grown for this tier
    /// (absent: `[killer] cage_sizes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cage_sizes: Option<Vec<usize>>,
}

/// `mother_grid_uses` for configs written before it existed.
fn default_mother_grid_uses() -> u32 {
    8
}

/// `dedup` for configs written before it existed.
fn default_dedup() -> String {
    "dihedral".into()
}
