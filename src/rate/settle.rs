//! A quick test that a puzzle rates below some score, without rating it: the rater's easy
//! techniques applied in whatever order is cheapest, singles in batches.
//!
//! Each of these techniques only ever finds more with fewer candidates (a pattern it sees
//! is still there, or has left a single or a contradiction behind). So when they solve
//! the puzzle in one order, the rater, which tries every technique at every step, can
//! never get stuck on the way, and every step it takes scores at most what the easiest
//! technique offering it scores: the rating comes out below the score. A fill asks this
//! of most puzzles it rates below a tier and throws away; a rating costs several times
//! more (it scans every easier technique before each step it takes).

use super::apply;
use super::board::{digits, Board};
use super::techniques::{killer, Technique, Wanted, REGISTRY};
use crate::grid::Grid;
use crate::solver::Narrowing;

/// The techniques the test tries after singles: those of base score up to this, bar
/// the direct ones (a pattern plus the single it leaves, which the batches find anyway)
/// and the uniqueness ones. Harder techniques cost more to look for than they settle:
/// measured (instructions of expert fills, callgrind), up to 4.2 (the XY-wing) against
/// up to 4.5 (the empty rectangle, grouped X-chains and the XYZ-wing as well): diagonal
/// −0.9 %, killer −0.6 %; up to 4.0 and 3.6 cost more again (+0.1 %, +4.4 %).
const QUICK_TECHNIQUES: f64 = 4.2;

/// Whether the rater's techniques below `score` (of them, singles and those up to
/// [`QUICK_TECHNIQUES`]) solve `puzzle`, which has one solution: then its rating is
/// below `score`. `false` says nothing.
pub fn solved_below(puzzle: &Grid, score: f64) -> bool {
    settle(puzzle, score).is_some()
}

/// [`solved_below`]'s work: the solved board, or `None` where the techniques stop.
fn settle(puzzle: &Grid, score: f64) -> Option<Board> {
    settle_board(puzzle, Board::new(puzzle).without_notes(), score, true)
}

/// [`settle`] from `board` on; with `propagate`, the first round (on a killer board every
/// round) starts with the solver's propagation.
///
/// That propagation makes only eliminations these techniques make too, in a fraction of
/// the time, and they only ever find more with fewer candidates, so they stop at the same
/// place with it. Measured, CPU side by side: before the first round, killer expert fills
/// −8.8 %, killer hard −4.8 %; before every round, killer expert −7.1 % more. Diagonal
/// fills are the same with it before the first round, where it does little of this
/// test's work, and pay 11 % more instructions for this test with it before every round.
fn settle_board(puzzle: &Grid, mut board: Board, score: f64, propagate: bool) -> Option<Board> {
    let rules = board.geometry().variant().rules();
    let narrowing = Narrowing::below(puzzle, score).filter(|_| propagate);
    let mut propagate_now = narrowing.is_some();
    let quick = |t: Technique| {
        let base = t.base_score();
        base < score && base <= QUICK_TECHNIQUES && !in_batches(t) && t.applies_under(rules)
    };
    let below = |t: Technique| t.base_score() < score;
    loop {
        if let Some(narrowing) = narrowing.as_ref().filter(|_| propagate_now) {
            let left = narrowing.narrow(board.values(), board.candidates());
            for (cell, keep) in left.into_iter().flatten().enumerate() {
                for d in digits(board.cand(cell) & !keep) {
                    board.eliminate(cell, d);
                }
            }
            propagate_now = board.cages().is_some();
        }
        if !place_singles(&mut board) {
            return None;
        }
        if board.solved() {
            return Some(board);
        }
        let mut batch = Vec::new();
        if below(Technique::CageCombination) {
            batch = killer::every_cage_combination(&board);
        }
        let batch = if batch.is_empty() && below(Technique::Innies45) {
            killer::every_innies_outies(&board, score)
        } else {
            batch
        };
        if !batch.is_empty() {
            for step in &batch {
                apply(&mut board, step);
            }
            continue;
        }
        let step = REGISTRY
            .iter()
            .filter(|e| quick(e.technique))
            .find_map(|e| (e.finder)(&board, Wanted::below(score)).filter(|s| s.score < score));
        match step {
            Some(step) => apply(&mut board, &step),
            None => return None,
        }
    }
}

/// What the batches find: singles and the direct techniques ([`place_singles`]), cage
/// combinations and the 45 rule (every step at once).
fn in_batches(t: Technique) -> bool {
    matches!(
        t,
        Technique::FullHouse
            | Technique::HiddenSingleBox
            | Technique::HiddenSingleLine
            | Technique::NakedSingle
            | Technique::DirectPointing
            | Technique::DirectClaiming
            | Technique::DirectHiddenPair
            | Technique::DirectHiddenTriple
            | Technique::CageCombination
            | Technique::Innies45
    )
}

/// Places naked and hidden singles until none is left (full houses are both).
/// `false` on a contradiction: an open cell without candidates.
fn place_singles(b: &mut Board) -> bool {
    // Every digit of the grid (16x16 has 16: no shift past the mask's width).
    let all = u16::MAX >> (16 - b.n());
    loop {
        let mut placed = false;
        for c in 0..b.cells() {
            if b.is_open(c) {
                match b.cand(c) {
                    0 => return false,
                    m if m.count_ones() == 1 => {
                        b.place(c, m.trailing_zeros() as u8 + 1);
                        placed = true;
                    }
                    _ => {}
                }
            }
        }
        for u in 0..b.unit_count() {
            for d in digits(!b.placed_in(u) & all) {
                let p = b.positions(u, d);
                if p.count_ones() == 1 {
                    let cell = b.unit(u)[p.trailing_zeros() as usize] as usize;
                    b.place(cell, d);
                    placed = true;
                }
            }
        }
        if !placed {
            return true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{random_digs, Route};
    use crate::grid::{Geometry, Variant};

    /// Random digs of 9x9 `variant` puzzles to `clues` clues.
    fn digs(variant: Variant, clues: usize, seeds: u64) -> Vec<Grid> {
        let geometry = Geometry::for_size(9).unwrap().with_variant(variant);
        random_digs(geometry, Route::Backtrack, clues, seeds)
    }

    /// With the solver's propagation the test settles exactly the puzzles it settles
    /// without, at every score, and the propagation runs at most of them: on calibration
    /// puzzles and random killer and diagonal digs.
    #[test]
    fn the_propagation_settles_the_same() {
        let mut puzzles = crate::rate::calibration_puzzles(0.0, 400);
        puzzles.extend(digs(Variant::Killer, 0, 40));
        puzzles.extend(digs(Variant::Diagonal, 24, 40));
        let (mut narrowed, mut settled) = (0, 0);
        for p in &puzzles {
            for score in [2.6, 2.9, 3.5, 4.5, 6.0, 9.0] {
                let b = Board::new(p).without_notes();
                let alone = settle_board(p, b.clone(), score, false).is_some();
                assert_eq!(settle(p, score).is_some(), alone, "{score} {p}");
                settled += usize::from(alone);
                let narrows = Narrowing::below(p, score)
                    .and_then(|n| n.narrow(b.values(), b.candidates()))
                    .is_some();
                narrowed += usize::from(narrows);
            }
        }
        assert!(
            settled > 500 && narrowed > 1000,
            "{settled} settled, {narrowed} narrowed"
        );
    }
}
