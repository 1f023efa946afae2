//! Naked and hidden subsets (pairs, triples, quads) within one unit.

use super::common::{first_covering, first_hidden_set, naked_eliminations, UnitVec};
use super::Technique;
use crate::rate::board::{digits, Board};
use crate::rate::memo::UnitSearch;
use crate::rate::step::Step;

fn naked_technique(k: usize) -> Technique {
    match k {
        2 => Technique::NakedPair,
        3 => Technique::NakedTriple,
        _ => Technique::NakedQuad,
    }
}

fn hidden_technique(k: usize) -> Technique {
    match k {
        2 => Technique::HiddenPair,
        3 => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    }
}

/// `k` open cells of a unit whose candidates number `k` in all.
pub fn naked(b: &Board, k: usize) -> Option<Step> {
    for u in 0..b.unit_count() {
        if b.found_nothing_since(UnitSearch::Naked(k), u) {
            continue;
        }
        let open: UnitVec<usize> = b
            .unit(u)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| b.is_open(c))
            .collect();
        if open.len() <= k {
            continue;
        }
        let small: UnitVec<(usize, u16)> = open
            .iter()
            .map(|&c| (c, b.cand(c)))
            .filter(|&(_, m)| (m.count_ones() as usize) <= k)
            .collect();
        let found = first_covering(&small, k, 0, k as u32, &mut |cells: &[usize], union| {
            let elims = naked_eliminations(b, &open, cells, union);
            (!elims.is_empty())
                .then(|| Step::new(naked_technique(k), cells.to_vec()).eliminating(elims))
        });
        if found.is_some() {
            return found;
        }
        b.found_nothing(UnitSearch::Naked(k), u);
    }
    None
}

/// `k` digits of a unit whose places number `k` in all: other digits leave those cells.
pub fn hidden(b: &Board, k: usize) -> Option<Step> {
    first_hidden_set(b, k, UnitSearch::Hidden(k), &mut |u, _, keep, places| {
        let cells = b.unit(u);
        let pattern = || digits(places).map(|i| cells[i as usize - 1] as usize);
        if pattern().all(|c| b.cand(c) & !keep == 0) {
            return None;
        }
        let elims = pattern()
            .flat_map(|c| digits(b.cand(c) & !keep).map(move |d| (c, d)))
            .collect();
        Some(Step::new(hidden_technique(k), pattern().collect()).eliminating(elims))
    })
}
