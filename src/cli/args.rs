//! Flag groups that several commands share, and the parsers that turn flag text into
//! domain values at the edge (a bad value is a clap error: exit 2, naming the flag).

use crate::bank::{Location, PuzzleFilter};
use crate::config::{Settings, MAX_THREADS};
use crate::grid::{Geometry, Variant};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Where the bank is.
#[derive(Args, Debug, Clone)]
pub struct BankArgs {
    /// The bank: a SQLite file, or a PostgreSQL URL (postgres://user@host/dbname,
    /// postgres:///dbname?host=/run/postgresql).
    #[arg(long, default_value = "bank.sqlite", value_name = "PATH|URL")]
    pub db: Location,
}

/// Which config to use.
#[derive(Args, Debug, Clone)]
pub struct ConfigArgs {
    /// Config file (tiers, quotas, generation knobs) laid over the config/bank.toml embedded
    /// in the binary: it names only what it changes (`bank config --print` shows the
    /// result). Default: the embedded one alone.
    #[arg(long)]
    pub config: Option<PathBuf>,
}

impl ConfigArgs {
    /// The settings of that file, or the embedded default.
    pub fn settings(&self) -> Result<Settings> {
        Settings::load(self.config.as_deref())
    }
}

/// Which puzzles, by tier and grid size.
#[derive(Args, Debug, Clone)]
pub struct SelectArgs {
    /// Only this tier.
    #[arg(long)]
    pub tier: Option<String>,
    /// Only this grid side: 4, 6, 9, 12 or 16.
    #[arg(long, value_parser = geometry)]
    pub size: Option<Geometry>,
    /// Only this variant (`bank variants` lists them; default: every variant).
    #[arg(long, value_parser = variant)]
    pub variant: Option<Variant>,
}

impl SelectArgs {
    /// Checks the tier name against the config (a typo is an error listing the known
    /// names, not a selection of nothing).
    pub fn check(&self, settings: &Settings) -> Result<()> {
        if let Some(name) = &self.tier {
            settings.check_tier_name(
                name,
                self.variant.unwrap_or_default(),
                self.size.map(|g| g.n()),
            )?;
        }
        Ok(())
    }

    /// The bank filter these flags select (all puzzles, id order, no limit otherwise).
    pub fn filter(&self) -> PuzzleFilter {
        PuzzleFilter {
            tier: self.tier.clone(),
            size: self.size.map(|g| g.n()),
            variant: self.variant,
            ..PuzzleFilter::default()
        }
    }

    /// Whether a geometry (size and variant) is among those selected.
    pub fn selects(&self, g: Geometry) -> bool {
        self.size.is_none_or(|s| s.n() == g.n()) && self.variant.is_none_or(|v| v == g.variant())
    }

    /// The one geometry to make: `--size` (else `default`'s size) under `--variant` (else
    /// classic).
    pub fn geometry_or(&self, default: Geometry) -> Geometry {
        self.size
            .unwrap_or(default)
            .with_variant(self.variant.unwrap_or_default())
    }
}

/// A variant name as a variant.
pub fn variant(text: &str) -> Result<Variant, String> {
    text.parse::<Variant>().map_err(|e| e.to_string())
}

/// A grid side as its geometry.
pub fn geometry(text: &str) -> Result<Geometry, String> {
    text.parse::<usize>()
        .ok()
        .and_then(Geometry::for_size)
        .ok_or_else(|| format!("unsupported --size {text}: use 4, 6, 9, 12 or 16"))
}

/// A worker-thread count, 1 to [`MAX_THREADS`].
pub fn threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}' threads: give a number from 1 to {MAX_THREADS}"
        )),
    }
}

/// A per-attempt deadline in milliseconds, at most a day.
pub fn deadline_ms(text: &str) -> Result<Duration, String> {
    const DAY_MS: u64 = 86_400_000;
    match text.parse::<u64>() {
        Ok(ms) if ms <= DAY_MS => Ok(Duration::from_millis(ms)),
        _ => Err(format!(
            "'{text}' ms: give a number of milliseconds from 0 to {DAY_MS} (a day)"
        )),
    }
}

/// `90s`, `30m`, `2h`, `7d` or a plain number of seconds, at most a year.
pub fn duration(text: &str) -> Result<Duration, String> {
    const YEAR_S: u64 = 366 * 86_400;
    let (number, unit) = text
        .find(|c: char| !c.is_ascii_digit())
        .map_or((text, ""), |i| text.split_at(i));
    let n: u64 = number
        .parse()
        .map_err(|_| format!("'{text}' is not a duration: use e.g. 90s, 30m or 2h"))?;
    let scale = match unit {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(format!("'{text}': unknown unit '{unit}', use s, m, h or d")),
    };
    match n.checked_mul(scale) {
        Some(secs) if secs <= YEAR_S => Ok(Duration::from_secs(secs)),
        _ => Err(format!(
            "'{text}' is longer than a year: give a shorter duration"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_and_huge_ones_are_refused() {
        assert_eq!(duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(duration("30m"), Ok(Duration::from_secs(1800)));
        assert_eq!(duration("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(duration("45"), Ok(Duration::from_secs(45)));
        for bad in [
            "",
            "m",
            "5x",
            "18446744073709551615s",
            "5124095576030431h",
            "400d",
            "-1",
        ] {
            assert!(duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn numbers_out_of_range_are_refused() {
        assert_eq!(threads("2"), Ok(2));
        for bad in ["0", "100000", "x", "-1"] {
            assert!(threads(bad).is_err(), "{bad}");
        }
        assert!(deadline_ms("200").is_ok());
        assert!(deadline_ms("18446744073709551615").is_err());
        assert_eq!(geometry("12").map(|g| g.n()), Ok(12));
        assert!(geometry("10").is_err());
    }
}
