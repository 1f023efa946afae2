//! The step type every technique produces, and Sudoku Explainer's chain length bonus.

use super::Technique;
use crate::rate::board::Board;
use serde::Serialize;

/// One deduction: the technique, the cells that make the pattern, and what it concludes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// Its score (chains: with the length bonus).
    pub score: f64,
    /// Cells forming the pattern.
    pub cells: Vec<usize>,
    /// Digits placed: (cell, digit).
    pub placements: Vec<(usize, u8)>,
    /// Candidates removed: (cell, digit).
    pub eliminations: Vec<(usize, u8)>,
    /// Forcing chains: each chain from its assumption to what it implies (empty for the
    /// other techniques).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chains: Vec<Vec<Link>>,
    /// The reasoning in words where cells and candidates do not say it (killer steps:
    /// `cage r1c1+r1c2 = 3 → {1,2}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One node of a forcing chain: a candidate taken as true (`on`) or false.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Link {
    /// The cell.
    pub cell: usize,
    /// The digit.
    pub digit: u8,
    /// Whether the digit is taken as placed (true) or removed (false).
    pub on: bool,
}

impl Step {
    /// A step at the technique's base score.
    pub fn new(technique: Technique, cells: Vec<usize>) -> Step {
        Step {
            technique,
            score: technique.base_score(),
            cells,
            placements: Vec::new(),
            eliminations: Vec::new(),
            chains: Vec::new(),
            note: None,
        }
    }

    /// The step with these eliminations.
    pub fn eliminating(mut self, eliminations: Vec<(usize, u8)>) -> Step {
        self.eliminations = eliminations;
        self
    }

    /// Sets the note from `note`, when `b` keeps notes: a fill reads scores only, and
    /// writing the words was a measurable part of a killer expert fill (docs/benchmarks.md,
    /// History).
    pub fn describe(&mut self, b: &Board, note: impl FnOnce() -> String) {
        if b.notes() {
            self.note = Some(note());
        }
    }
}

/// The most nodes a chain scored `base + length_bonus(nodes * per_node)` may have to score
/// less than `below` (0 when none can; unbounded when `below` is infinite).
///
/// Read a ceiling of [`length_bonus`] at a time: counting node by node took about 6,100
/// bonus ladders for a bound of 9.0 (a killer fill's quick settle test asks X-chains for
/// that), 0.8 % and 3.5 % of a killer expert fill's instructions in two measurements.
pub fn most_nodes_below(below: f64, base: f64, per_node: usize) -> usize {
    if below == f64::INFINITY {
        return usize::MAX;
    }
    if base >= below - 1e-9 {
        return 0;
    }
    // Chains of up to `ceil` links (nodes less two) score `base + added`; the bonus is
    // summed as `length_bonus` sums it, so that the scores compare the same.
    let (mut ceil, mut added, mut odd) = (4usize, 0.0, false);
    loop {
        let next = added + 0.1;
        if base + next >= below - 1e-9 {
            return (ceil + 2) / per_node;
        }
        added = next;
        let wider = if odd {
            ceil.checked_mul(4).map(|c| c / 3)
        } else {
            ceil.checked_mul(3).map(|c| c / 2)
        };
        let Some(wider) = wider else {
            return usize::MAX / per_node;
        };
        ceil = wider;
        odd = !odd;
    }
}

/// Sudoku Explainer's length bonus for chains of `nodes` nodes: +0.1 each time the length
/// passes the next of the ceilings 4, 6, 8, 12, 16, 24, 32, 48, ... (each half again, then
/// a third again, in turn)
pub fn length_bonus(nodes: usize) -> f64 {
    let length = nodes.saturating_sub(2);
    let (mut ceil, mut added, mut odd) = (4usize, 0.0, false);
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}
