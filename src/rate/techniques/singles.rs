//! Full house, hidden singles, naked singles. Each finder returns every placement of its
//! kind visible on the board at once (one step), which rates the same as one at a time.

use super::Technique;
use crate::rate::board::{digits, Board};
use crate::rate::techniques::step::Step;

fn collect(technique: Technique, placements: Vec<(usize, u8)>) -> Option<Step> {
    if placements.is_empty() {
        return None;
    }
    let mut step = Step::new(technique, placements.iter().map(|&(c, _)| c).collect());
    step.placements = placements;
    Some(step)
}

fn push_unique(out: &mut Vec<(usize, u8)>, cell: usize, digit: u8) {
    if !out.iter().any(|&(c, _)| c == cell) {
        out.push((cell, digit));
    }
}

/// Units with a single open cell.
pub fn full_house(b: &Board) -> Option<Step> {
    let mut out = Vec::new();
    let n = b.n() as u32;
    for u in 0..b.unit_count() {
        if b.placed_in(u).count_ones() + 1 != n {
            continue;
        }
        let mut open = b.unit(u).iter().filter(|&&c| b.is_open(c as usize));
        if let Some(&c) = open.next() {
            let m = b.cand(c as usize);
            if m.count_ones() == 1 {
                push_unique(&mut out, c as usize, m.trailing_zeros() as u8 + 1);
            }
        }
    }
    collect(Technique::FullHouse, out)
}

/// Digits with one place left in a box (`boxes`), or in a row, column or diagonal (a
/// diagonal of the diagonal variant is scored as a line).
pub fn hidden_single(b: &Board, boxes: bool) -> Option<Step> {
    let layout = b.layout();
    let mut out = Vec::new();
    if boxes {
        push_hidden_singles(b, layout.boxes(), &mut out);
    } else {
        push_hidden_singles(b, layout.lines(), &mut out);
        push_hidden_singles(b, layout.extra_units(), &mut out);
    }
    let technique = if boxes {
        Technique::HiddenSingleBox
    } else {
        Technique::HiddenSingleLine
    };
    collect(technique, out)
}

/// Pushes the hidden singles of `units` (plain ranges: chaining them cost a classic fill
/// 0.3 % of its instructions).
fn push_hidden_singles(b: &Board, units: std::ops::Range<usize>, out: &mut Vec<(usize, u8)>) {
    let n = b.n();
    for u in units {
        let cells = b.unit(u);
        for d in digits(!b.placed_in(u) & ((1u32 << n) - 1) as u16) {
            let places = b.positions(u, d);
            if places.count_ones() == 1 {
                let c = cells[places.trailing_zeros() as usize];
                push_unique(out, c as usize, d);
            }
        }
    }
}

/// Cells with one candidate left.
pub fn naked_single(b: &Board) -> Option<Step> {
    let out = (0..b.cells())
        .filter(|&c| b.is_open(c) && b.cand(c).count_ones() == 1)
        .map(|c| (c, b.cand(c).trailing_zeros() as u8 + 1))
        .collect();
    collect(Technique::NakedSingle, out)
}
