//! Re-checking stored puzzles without trusting stored values.

use crate::bank::{RatingRecord, StoredPuzzle};
use crate::canon::fingerprint;
use crate::config::Settings;
use crate::generate::GENERATOR_VERSION;
use crate::rate::rate;
use crate::solver::count_solutions;

/// What a check found wrong with one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The stored data is wrong: not unique, wrong solution, wrong clue count or fingerprint.
    Corrupt(String),
    /// The data is sound but today's rules rate it differently (solver or tier bands changed).
    Drift(String),
}

/// Checks one stored puzzle; an empty list means it is sound.
pub fn check(p: &StoredPuzzle, settings: &Settings) -> Vec<Finding> {
    let puzzle = match p.puzzle_grid() {
        Ok(x) => x,
        Err(e) => return vec![Finding::Corrupt(format!("puzzle text: {e:#}"))],
    };
    let mut found = Vec::new();
    let counted = count_solutions(&puzzle, 2);
    let unique = counted.count == 1;
    match (counted.count, &counted.first) {
        (1, Some(s)) if s.to_line() == p.solution => {}
        (1, Some(_)) => found.push(Finding::Corrupt(
            "stored solution is not the puzzle's solution".into(),
        )),
        (0, _) => found.push(Finding::Corrupt("puzzle has no solution".into())),
        _ => found.push(Finding::Corrupt("puzzle has more than one solution".into())),
    }
    if puzzle.clue_count() != p.clues {
        found.push(Finding::Corrupt(format!(
            "clue count is {}, stored {}",
            puzzle.clue_count(),
            p.clues
        )));
    }
    if fingerprint(&puzzle) != p.fingerprint {
        found.push(Finding::Corrupt(
            "fingerprint does not match the puzzle".into(),
        ));
    }
    if let Some(stored) = &p.full_fingerprint {
        if crate::canon::full_fingerprint(&puzzle).as_ref() != Some(stored) {
            found.push(Finding::Corrupt(
                "full_fingerprint does not match the puzzle".into(),
            ));
        }
    }
    if let (true, Some(solution)) = (unique, &counted.first) {
        let class = crate::canon::solution_class(solution);
        if class != p.solution_class {
            found.push(Finding::Corrupt(match &p.solution_class {
                Some(_) => "solution_class does not match the solution grid".into(),
                None => "solution_class is missing".into(),
            }));
        }
    }
    if !unique {
        // Effort and rating mean nothing for a puzzle without one solution: it is corrupt,
        // not drifted.
        return found;
    }
    let effort = counted.stats;
    if effort.guesses != p.guesses || effort.backtracks != p.backtracks {
        let why = if p.generator_version == GENERATOR_VERSION {
            String::new()
        } else {
            format!(
                " (made by generator version {}; this is version {GENERATOR_VERSION})",
                p.generator_version
            )
        };
        found.push(Finding::Drift(format!(
            "search effort now guesses={} backtracks={}, stored {} and {}{why}",
            effort.guesses, effort.backtracks, p.guesses, p.backtracks
        )));
    }
    let rating = rate(&puzzle);
    let row = RatingRecord::from_rating(&rating);
    if p.rating
        .as_ref()
        .is_some_and(|stored| stored.score != row.score)
    {
        found.push(Finding::Drift(format!(
            "score now {:.1}, stored {:.1}",
            row.score,
            p.rating.as_ref().map_or(0.0, |r| r.score)
        )));
    }
    match settings.tier_for_score(rating.score, p.geometry) {
        Some(t) if t.name == p.tier => {}
        Some(t) => found.push(Finding::Drift(format!(
            "tier now '{}', stored '{}'",
            t.name, p.tier
        ))),
        None => found.push(Finding::Drift(format!(
            "no tier's band holds score {:.1}",
            rating.score
        ))),
    }
    found
}
