//! The human-style rater against the public SE calibration set.

mod common;

use std::collections::BTreeSet;
use sudoku_bank::grid::parse_line;
use sudoku_bank::rate::calibrate::spearman;
use sudoku_bank::rate::{rate, Technique};
use sudoku_bank::solver::count_solutions;

fn calibration() -> Vec<(sudoku_bank::grid::Grid, f64)> {
    let text = std::fs::read_to_string(common::data("rating/se_calibration.txt")).unwrap();
    text.lines()
        .map(|l| {
            let (cells, se) = l.split_once(' ').unwrap();
            (parse_line(cells).unwrap(), se.trim().parse().unwrap())
        })
        .collect()
}

/// Every step on every calibration puzzle agrees with the true solution, every technique
/// is used somewhere, and the agreement with SE stays at its measured level.
#[test]
fn steps_are_sound_and_scores_track_sudoku_explainer() {
    let set = calibration();
    assert_eq!(set.len(), 11_791);
    let mut used = BTreeSet::new();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let mut band_agree = 0;
    let band = |s: f64| {
        [2.3, 3.4, 5.9, f64::MAX]
            .iter()
            .position(|&t| s <= t + 1e-9)
            .unwrap()
    };
    for (p, se) in &set {
        let solution = count_solutions(p, 2)
            .unique()
            .cloned()
            .expect("reference puzzles are unique");
        let r = rate(p);
        for s in &r.steps {
            used.insert(s.technique);
            for &(c, d) in &s.placements {
                assert_eq!(
                    solution.get(c),
                    d,
                    "{p}: {:?} placed a wrong digit",
                    s.technique
                );
            }
            for &(c, d) in &s.eliminations {
                assert_ne!(
                    solution.get(c),
                    d,
                    "{p}: {:?} removed the solution",
                    s.technique
                );
            }
        }
        if r.completed {
            assert!(r.steps.iter().all(|s| s.score <= r.score));
        } else {
            assert!(r.score >= sudoku_bank::rate::BEYOND_SCORE);
        }
        band_agree += usize::from(band(r.score) == band(*se));
        ours.push(r.score);
        theirs.push(*se);
    }
    let missing: Vec<_> = Technique::ALL
        .iter()
        .filter(|t| !used.contains(t))
        .collect();
    assert!(missing.is_empty(), "never used: {missing:?}");
    let rho = spearman(&ours, &theirs);
    assert!(rho >= 0.90, "spearman {rho}");
    let agreement = band_agree as f64 / set.len() as f64;
    assert!(agreement >= 0.85, "band agreement {agreement}");
}

#[test]
fn cli_rate_prints_score_tier_and_technique() {
    let o = common::bank(
        &["rate"],
        Some("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n"),
    );
    let out = common::stdout(&o);
    let fields: Vec<&str> = out.trim().split('\t').collect();
    assert_eq!(fields.len(), 3, "{out}");
    assert!(fields[0].parse::<f64>().unwrap() <= 2.3);
    assert_eq!(fields[1], "easy");
    let o = common::bank(&["rate", "--json"], Some(&format!("{}\n", ".".repeat(81))));
    assert_eq!(common::stdout(&o).trim(), "multiple");
}
