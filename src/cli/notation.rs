//! How every output names cells, candidates, steps and scores: `r3c5`, `r3c5=7` (placed),
//! `r3c5<>7` (removed), technique names as the README lists them, scores with one
//! decimal. `explain` (text) and `rate --json` both write through here.

use crate::grid::{cell_name, digit_char, Geometry};
use crate::rate::{Link, Rating, Step};
use serde_json::{json, Value};

/// `r3c5=7` (placed) or `r3c5<>7` (removed).
pub fn candidate(n: usize, c: usize, digit: u8, placed: bool) -> String {
    let sign = if placed { "=" } else { "<>" };
    format!("{}{sign}{}", cell_name(n, c), digit_char(digit))
}

/// A forcing chain's links.
pub fn chain(n: usize, links: &[Link]) -> Vec<String> {
    links
        .iter()
        .map(|l| candidate(n, l.cell, l.digit, l.on))
        .collect()
}

/// A score with one decimal, as a JSON number (`4.7`, never `4.699999999999999`).
pub fn score(s: f64) -> Value {
    json!((s * 10.0).round() / 10.0)
}

/// One step as JSON: technique, score, cells, placements, eliminations, chains.
pub fn step_json(g: Geometry, step: &Step) -> Value {
    let n = g.n();
    let pairs = |list: &[(usize, u8)], placed: bool| -> Vec<String> {
        list.iter()
            .map(|&(c, d)| candidate(n, c, d, placed))
            .collect()
    };
    let mut v = json!({
        "technique": step.technique.name_in(g),
        "score": score(step.score),
        "cells": step.cells.iter().map(|&c| cell_name(n, c)).collect::<Vec<_>>(),
        "placements": pairs(&step.placements, true),
        "eliminations": pairs(&step.eliminations, false),
    });
    if let Some(note) = &step.note {
        v["note"] = json!(note);
    }
    if !step.chains.is_empty() {
        v["chains"] = json!(step.chains.iter().map(|c| chain(n, c)).collect::<Vec<_>>());
    }
    v
}

/// A whole rating as JSON, with every step.
pub fn rating_json(r: &Rating) -> Value {
    json!({
        "score": score(r.score),
        "hardest_technique": r.hardest_name(),
        "completed": r.completed,
        "techniques": r.technique_counts(),
        "steps": r.steps.iter().map(|s| step_json(r.geometry, s)).collect::<Vec<_>>(),
    })
}
