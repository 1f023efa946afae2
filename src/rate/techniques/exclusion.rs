//! Aligned pair exclusion (Sudoku Explainer 6.2): two cells with two or more candidates
//! each, and the bivalue cells that see both (at least two of them). A pair of values for
//! the two cells is excluded when the cells see each other and the values are equal, or
//! when it would take both candidates of one of those bivalue cells. A candidate of either
//! cell that is in no remaining pair goes. As in the reference, the two cells need not
//! share a unit, and a cell next to an open cell with one candidate is passed over.

use super::Technique;
use crate::grid::CellSet;
use crate::rate::board::{digits, Board};
use crate::rate::step::Step;

/// The first aligned pair exclusion that removes something.
pub fn aligned_pair_exclusion(b: &Board) -> Option<Step> {
    let open = (0..b.cells()).filter(|&c| b.is_open(c));
    let bivalue: CellSet = open
        .clone()
        .filter(|&c| b.cand(c).count_ones() == 2)
        .collect();
    let single: CellSet = open
        .clone()
        .filter(|&c| b.cand(c).count_ones() == 1)
        .collect();
    // Base cells: two or more candidates, no single among their peers, a bivalue peer.
    let bases: Vec<(usize, CellSet)> = open
        .filter(|&c| b.cand(c).count_ones() >= 2)
        .filter(|&c| b.peer_set(c).and(single).is_empty())
        .map(|c| (c, b.peer_set(c).and(bivalue)))
        .filter(|(_, excluders)| !excluders.is_empty())
        .collect();
    // A value of one cell goes only when every value of the other cell (but an equal one)
    // meets a bivalue cell holding both, so that other cell has at most one candidate more
    // than it has bivalue peers: a pair where neither cell is so is passed over.
    let coverable =
        |c: usize, excluders: CellSet| b.cand(c).count_ones() as usize <= excluders.len() + 1;
    for (j, &(c1, ex1)) in bases.iter().enumerate() {
        let cover1 = coverable(c1, ex1);
        for &(c0, ex0) in &bases[..j] {
            if !cover1 && !coverable(c0, ex0) {
                continue;
            }
            let common = ex0.and(ex1);
            let fewest = b.cand(c0).count_ones().min(b.cand(c1).count_ones()) as usize;
            if common.len() < 2 || common.len() + 1 < fewest {
                continue;
            }
            let locks: Vec<u16> = common.iter().map(|c| b.cand(c)).collect();
            let same_unit = b.sees(c0, c1);
            // The values each cell keeps: those in some allowed pair.
            let (mut keep0, mut keep1) = (0u16, 0u16);
            for v0 in digits(b.cand(c0)) {
                for v1 in digits(b.cand(c1)) {
                    let pair = (1u16 << (v0 - 1)) | (1 << (v1 - 1));
                    let excluded = (v0 == v1 && same_unit) || locks.iter().any(|&m| m & !pair == 0);
                    if !excluded {
                        keep0 |= 1 << (v0 - 1);
                        keep1 |= 1 << (v1 - 1);
                    }
                }
            }
            let elims: Vec<(usize, u8)> = [(c0, keep0), (c1, keep1)]
                .into_iter()
                .flat_map(|(c, keep)| digits(b.cand(c) & !keep).map(move |d| (c, d)))
                .collect();
            if !elims.is_empty() {
                let mut cells = vec![c0, c1];
                cells.extend(common.iter());
                return Some(Step::new(Technique::AlignedPairExclusion, cells).eliminating(elims));
            }
        }
    }
    None
}
