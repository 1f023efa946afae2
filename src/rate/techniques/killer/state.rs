//! What a cage may still hold on the board as it stands.

use super::matching::fitting;
use crate::grid::Cages;
use crate::rate::board::Board;

/// What a cage may still hold.
pub(super) struct CageState {
    /// Its open cells.
    pub(super) open: Vec<usize>,
    /// The sum its open cells must make.
    pub(super) rest: u32,
    /// The combinations of distinct digits (not placed in the cage) that make `rest` in
    /// the open cells and can go one to a cell among their candidates.
    pub(super) combos: Vec<u16>,
}

impl CageState {
    pub(super) fn of(b: &Board, cages: &Cages, k: usize) -> CageState {
        let (mut open, mut placed, mut placed_sum, mut held) = (Vec::new(), 0u16, 0u32, 0u16);
        for &c in cages.cells(k) {
            let c = c as usize;
            match b.value(c) {
                0 => {
                    open.push(c);
                    held |= b.cand(c);
                }
                v => {
                    placed |= 1 << (v - 1);
                    placed_sum += u32::from(v);
                }
            }
        }
        let rest = cages.sum(k).saturating_sub(placed_sum);
        let available = held & !placed;
        let combos = fitting(b, &open, rest, available).collect();
        CageState { open, rest, combos }
    }

    /// The digits some combination holds.
    pub(super) fn some(&self) -> u16 {
        self.combos.iter().fold(0, |m, &s| m | s)
    }

    /// The digits every combination holds.
    pub(super) fn every(&self) -> u16 {
        self.combos.iter().fold(u16::MAX, |m, &s| m & s)
    }
}
