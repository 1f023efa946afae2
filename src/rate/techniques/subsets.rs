//! Naked and hidden subsets (pairs, triples, quads) within one unit.

use super::common::{
    first_covering, first_hidden_set, naked_eliminations, open_cells, seen_eliminations, UnitVec,
};
use super::Technique;
use crate::rate::board::{digits, Board};
use crate::rate::memo::UnitSearch;
use crate::rate::techniques::step::Step;

fn naked_technique(k: usize) -> Technique {
    match k {
        2 => Technique::NakedPair,
        3 => Technique::NakedTriple,
        _ => Technique::NakedQuad,
    }
}

fn generalized_technique(k: usize) -> Technique {
    match k {
        2 => Technique::GeneralizedNakedPair,
        3 => Technique::GeneralizedNakedTriple,
        _ => Technique::GeneralizedNakedQuad,
    }
}

fn hidden_technique(k: usize) -> Technique {
    match k {
        2 => Technique::HiddenPair,
        3 => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    }
}

/// `k` open cells of a unit whose candidates number `k` in all: those digits leave the
/// unit's other cells.
pub fn naked(b: &Board, k: usize) -> Option<Step> {
    naked_sets(b, k, false)
}

/// Generalized naked set (Sukaku Explainer's, on grids with units beyond rows, columns
/// and boxes): `k` open cells of a unit whose candidates number `k` in all; each digit
/// leaves every cell that sees all the set's cells holding it, in any unit. The reference
/// looks only in units with at least `2k` open cells.
pub fn generalized_naked(b: &Board, k: usize) -> Option<Step> {
    naked_sets(b, k, true)
}

/// Naked sets of `k` cells, eliminating within the unit or, `generalized`, from every
/// cell seeing the set's places of a digit.
fn naked_sets(b: &Board, k: usize, generalized: bool) -> Option<Step> {
    let search = match generalized {
        true => UnitSearch::GeneralizedNaked(k),
        false => UnitSearch::Naked(k),
    };
    for u in 0..b.unit_count() {
        if b.found_nothing_since(search, u) {
            continue;
        }
        let open = open_cells(b, u);
        if open.len() <= k || (generalized && open.len() < 2 * k) {
            continue;
        }
        let small: UnitVec<(usize, u16)> = open
            .iter()
            .map(|&c| (c, b.cand(c)))
            .filter(|&(_, m)| (m.count_ones() as usize) <= k)
            .collect();
        let found = first_covering(&small, k, 0, k as u32, &mut |cells: &[usize], union| {
            let (technique, elims) = if generalized {
                (generalized_technique(k), seen_eliminations(b, cells, union))
            } else {
                (
                    naked_technique(k),
                    naked_eliminations(b, &open, cells, union),
                )
            };
            (!elims.is_empty()).then(|| Step::new(technique, cells.to_vec()).eliminating(elims))
        });
        if found.is_some() {
            return found;
        }
        b.found_nothing(search, u);
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
