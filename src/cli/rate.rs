//! `bank rate`: the SE-scale score, tier and hardest technique of each puzzle.

use super::args::ConfigArgs;
use super::input;
use super::notation;
use crate::grid::Variant;
use crate::rate::rate;
use crate::rate::techniques::REGISTRY;
use crate::solver::Solver;
use anyhow::Result;
use clap::Args;

/// Rate puzzles, one per line.
#[derive(Args, Debug)]
pub struct RateArgs {
    #[command(flatten)]
    pub input: input::PuzzleInput,
    /// Print one JSON object per puzzle with every step.
    #[arg(long)]
    pub json: bool,
    /// List the techniques in the order the rater tries them, one a line: base score,
    /// name, the variants it rates, what it is. Reads no puzzles.
    #[arg(long, conflicts_with = "json")]
    pub list_techniques: bool,
    /// Whose tiers name the bands.
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// Prints `<score>\t<tier>\t<hardest technique>` per puzzle (`none`/`multiple` lines for
/// puzzles without exactly one solution); returns the number of malformed lines.
pub fn run(args: &RateArgs) -> Result<usize> {
    if args.list_techniques {
        list_techniques();
        return Ok(0);
    }
    let settings = args.config.settings()?;
    input::for_each_puzzle(&args.input, |p, out| {
        match Solver::new().count_fast(p, 2)?.count {
            0 => return Ok(writeln!(out, "none")?),
            1 => {}
            _ => return Ok(writeln!(out, "multiple")?),
        }
        let r = rate(p);
        let tier = settings
            .tier_for_score(r.score, p.geometry())
            .map_or("-", |t| t.name.as_str());
        if args.json {
            let mut v = notation::rating_json(&r);
            v["puzzle"] = p.to_string().into();
            v["tier"] = tier.into();
            writeln!(out, "{v}")?;
        } else {
            writeln!(out, "{:.1}\t{tier}\t{}", r.score, r.hardest_name())?;
        }
        Ok(())
    })
}

/// The technique registry as `<base score>\t<name>\t<variants>\t<summary>` lines.
fn list_techniques() {
    for entry in &REGISTRY {
        let variants: Vec<&str> = Variant::ALL
            .into_iter()
            .filter(|v| entry.technique.applies_under(v.rules()))
            .map(Variant::name)
            .collect();
        println!(
            "{:.1}\t{}\t{}\t{}",
            entry.base_score,
            entry.name,
            variants.join(","),
            entry.summary.trim()
        );
    }
}
