//! `bank bench rate`: how well the rater matches Sudoku Explainer, and how fast it is.

use crate::formats::lines;
use crate::grid::{Geometry, Variant};
use crate::rate::calibrate::{bucket_errors, exact_share, spearman};
use crate::rate::rate;
use anyhow::{bail, Result};
use rayon::prelude::*;
use std::time::Instant;

/// Bands of the default tiers on the SE scale: easy ≤ 2.3, medium ≤ 3.4, hard ≤ 5.9, expert.
const BANDS: [(&str, f64); 4] = [
    ("easy", 2.3),
    ("medium", 3.4),
    ("hard", 5.9),
    ("expert", f64::MAX),
];

fn band(score: f64) -> usize {
    BANDS
        .iter()
        .position(|&(_, top)| score <= top + 1e-9)
        .unwrap_or(3)
}

/// Prints Spearman, the exact and within-±0.2 shares, a band confusion table with each
/// band's recall, the error per whole reference rating, completion and timing.
pub fn run(file: &str, variant: Variant) -> Result<()> {
    if variant.has_cages() {
        bail!("bench rate: the reference rates no {variant} puzzles; use classic or diagonal");
    }
    let geometry = Geometry::CLASSIC.with_variant(variant);
    let (name, reader) = lines::open(Some(file))?;
    let mut items = Vec::new();
    let text: Vec<String> = std::io::BufRead::lines(reader).collect::<Result<_, _>>()?;
    for (i, line) in text.iter().enumerate() {
        let mut parts = line.split_whitespace();
        let (Some(cells), Some(se)) = (parts.next(), parts.next()) else {
            continue;
        };
        let Ok(se) = se.parse::<f64>() else {
            bail!("{name}: line {}: rating '{se}' is not a number", i + 1)
        };
        match crate::grid::parse_line_with(cells, geometry) {
            Ok(p) => items.push((p, se)),
            Err(e) => bail!("{name}: line {}: {e}", i + 1),
        }
    }
    let start = Instant::now();
    let rated: Vec<(f64, bool)> = items
        .par_iter()
        .map(|(p, _)| {
            let r = rate(p);
            (r.score, r.completed)
        })
        .collect();
    let wall = start.elapsed().as_secs_f64();
    let ours: Vec<f64> = rated.iter().map(|r| r.0).collect();
    let theirs: Vec<f64> = items.iter().map(|i| i.1).collect();
    let within = ours
        .iter()
        .zip(&theirs)
        .filter(|(a, b)| (*a - *b).abs() <= 0.2 + 1e-9)
        .count();
    let mut confusion = [[0usize; 4]; 4];
    for (a, b) in ours.iter().zip(&theirs) {
        confusion[band(*b)][band(*a)] += 1;
    }
    let agree: usize = (0..4).map(|i| confusion[i][i]).sum();
    let n = items.len() as f64;
    println!(
        "puzzles {}  completed {:.1}%",
        items.len(),
        100.0 * rated.iter().filter(|r| r.1).count() as f64 / n
    );
    println!("spearman {:.3}", spearman(&ours, &theirs));
    println!(
        "exact SE rating {:.1}%",
        100.0 * exact_share(&ours, &theirs)
    );
    println!("within 0.2 of SE {:.1}%", 100.0 * within as f64 / n);
    println!("band agreement {:.1}%", 100.0 * agree as f64 / n);
    println!("confusion (rows: SE band, columns: ours)");
    println!(
        "{:>8} {:>7} {:>7} {:>7} {:>7}",
        "", "easy", "medium", "hard", "expert"
    );
    for (i, row) in confusion.iter().enumerate() {
        let total: usize = row.iter().sum();
        let recall = if total > 0 {
            format!("{:.1}%", 100.0 * row[i] as f64 / total as f64)
        } else {
            "-".into()
        };
        println!(
            "{:>8} {:>7} {:>7} {:>7} {:>7}   recall {recall}",
            BANDS[i].0, row[0], row[1], row[2], row[3]
        );
    }
    println!("error by SE rating (ours - SE): bucket, puzzles, mean signed, mean absolute");
    for b in bucket_errors(&ours, &theirs) {
        println!(
            "{:>8} {:>7} {:>+8.2} {:>7.2}",
            format!("{}.x", b.bucket),
            b.puzzles,
            b.mean_signed,
            b.mean_absolute
        );
    }
    // Speed on one thread, apart from the parallel pass above.
    let mut low: Vec<f64> = items
        .iter()
        .filter(|(_, se)| *se <= 4.4)
        .map(|(p, _)| {
            let t = Instant::now();
            std::hint::black_box(rate(p));
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    low.sort_by(f64::total_cmp);
    if !low.is_empty() {
        println!(
            "one thread, puzzles rated SE <= 4.4 by the reference: median {:.1} us, p90 {:.1} us ({} puzzles)",
            low[low.len() / 2],
            low[low.len() * 9 / 10],
            low.len()
        );
    }
    println!("all puzzles: {:.2} s wall on the rayon pool", wall);
    Ok(())
}
