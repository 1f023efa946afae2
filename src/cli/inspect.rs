//! `bank reproduce` and `bank show`: one stored puzzle.

use super::args::BankArgs;
use crate::bank::{self, StoredPuzzle};
use crate::grid::parse_line;
use crate::pipeline::reproduce::reproduce;
use anyhow::{Context, Result};
use clap::Args;

/// One stored puzzle by id.
#[derive(Args, Debug)]
pub struct IdArgs {
    /// Puzzle id (the `id` column of `puzzles`).
    pub id: i64,
    #[command(flatten)]
    pub common: BankArgs,
}

fn load(args: &IdArgs) -> Result<StoredPuzzle> {
    let bank = bank::open_existing(&args.common.db)?;
    bank.puzzle(args.id)?
        .with_context(|| format!("no puzzle with id {} in '{}'", args.id, args.common.db))
}

/// Regenerates the puzzle; exit 0 identical, 1 different.
pub fn run_reproduce(args: &IdArgs) -> Result<u8> {
    let stored = load(args)?;
    let r = reproduce(&stored)?;
    if r.identical {
        println!("puzzle {}: identical", stored.id);
        println!("{}", stored.puzzle);
        return Ok(super::EXIT_OK);
    }
    println!("puzzle {}: different", stored.id);
    let stored_base = stored.base.as_ref().map(|b| b.grid.as_str());
    if Some(r.base_grid.to_line().as_str()) != stored_base {
        println!("base grid stored:      {}", stored_base.unwrap_or("-"));
        println!("base grid regenerated: {}", r.base_grid);
    }
    // Drawn with its own cages or regions, as `show` draws it.
    let drawn = stored
        .puzzle_grid()
        .map_or_else(|_| pretty(&stored.puzzle), |g| g.to_pretty());
    println!("stored:\n{drawn}");
    println!("regenerated:\n{}", r.puzzle.to_pretty());
    Ok(super::EXIT_NEGATIVE)
}

fn pretty(line: &str) -> String {
    parse_line(line)
        .map(|g| g.to_pretty())
        .unwrap_or_else(|e| format!("{line}  (malformed: {e})\n"))
}

/// Prints the puzzle, its solution and its metadata.
pub fn run_show(args: &IdArgs, json: bool) -> Result<u8> {
    let p = load(args)?;
    if json {
        // The geometry serializes as its stored columns; the variant is a column of its own.
        let mut value = serde_json::to_value(&p)?;
        value["variant"] = p.geometry.variant().name().into();
        println!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(super::EXIT_OK);
    }
    println!(
        "puzzle {} ({} · {} givens, tier {})",
        p.id,
        p.geometry.short_label(),
        p.clues,
        p.tier
    );
    let grid = p.puzzle_grid();
    match &grid {
        Ok(g) => print!("{}", g.to_pretty()),
        Err(_) => print!("{}", pretty(&p.puzzle)),
    }
    if let Some(cages) = grid.as_ref().ok().and_then(|g| g.cages_pretty()) {
        println!("cages");
        print!("{cages}");
    }
    println!("solution");
    match p.solution_grid() {
        Ok(g) => print!("{}", g.to_pretty()),
        Err(_) => print!("{}", pretty(&p.solution)),
    }
    if let Some(regions) = &p.regions {
        println!("regions           {}", regions.to_text());
    }
    println!("variant           {}", p.geometry.variant());
    println!("puzzle            {}", p.puzzle);
    println!("solution          {}", p.solution);
    println!("tier              {}", p.tier);
    if let Some(r) = &p.rating {
        println!(
            "score             {:.1}{}",
            r.score,
            if r.completed { "" } else { " (a lower bound)" }
        );
        println!("hardest technique {}", r.hardest_technique);
    }
    println!("guesses           {}", p.guesses);
    println!("backtracks        {}", p.backtracks);
    println!("run               {}", p.run_id);
    let text = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    println!("source            {}", p.source.name());
    let base = p.base.as_ref();
    println!(
        "base grid         {} (route {}, seed {})",
        text(base.map(|b| b.id.clone())),
        text(base.map(|b| b.route.name().to_string())),
        text(base.map(|b| b.seed.to_string()))
    );
    println!(
        "dig strategy      {}",
        text(p.dig_strategy.map(|s| s.name().to_string()))
    );
    println!(
        "target clues      {}",
        text(p.target_clues.map(|t| t.to_string()))
    );
    println!("seed              {}", text(p.seed.map(|s| s.to_string())));
    println!("generator version {}", p.generator_version);
    println!("fingerprint       {}", p.fingerprint);
    println!("generation time   {} us", p.generation_us);
    println!("created           {}", p.created_at);
    match &p.served_at {
        Some(at) => println!(
            "served            {at}{}",
            p.served_to
                .as_deref()
                .map(|to| format!(" to {to}"))
                .unwrap_or_default()
        ),
        None => println!("served            no (in stock)"),
    }
    if let Some(origin) = &p.origin {
        println!("origin            {origin}");
    }
    Ok(super::EXIT_OK)
}
