//! Cage combination: a cage keeps the digits of the combinations that make its sum.

use super::{cage_combos, states};
use crate::grid::cell_name;
use crate::rate::board::{digits, Board};
use crate::rate::techniques::step::Step;
use crate::rate::techniques::Technique;
use std::rc::Rc;

/// A cage's open cells keep only the digits of the combinations that make its sum; then
/// a digit every combination holds, with one place left in the cage, goes there.
pub fn cage_combination(b: &Board) -> Option<Step> {
    combination_steps(b)?.next()
}

/// Every step [`cage_combination`] could take on the board as it stands, in its order:
/// each cage's eliminations, then each cage's placement.
pub fn every_cage_combination(b: &Board) -> Vec<Step> {
    combination_steps(b).map_or_else(Vec::new, Iterator::collect)
}

/// [`cage_combination`]'s steps, found as they are asked for.
pub(super) fn combination_steps(b: &Board) -> Option<impl Iterator<Item = Step> + '_> {
    let cages = b.cages()?;
    let n = b.n();
    let states = states(b, cages);
    let count = states.len();
    let placing = Rc::clone(&states);
    let eliminations = (0..count).filter_map(move |k| {
        let st = &states[k];
        let some = st.some();
        let eliminations: Vec<(usize, u8)> = st
            .open
            .iter()
            .flat_map(|&c| digits(b.cand(c) & !some).map(move |d| (c, d)))
            .collect();
        (!eliminations.is_empty()).then(|| {
            let mut step =
                Step::new(Technique::CageCombination, st.open.clone()).eliminating(eliminations);
            step.describe(b, || cage_combos(cages, k, st, n));
            step
        })
    });
    let placements = (0..count).filter_map(move |k| {
        let st = &placing[k];
        digits(st.every()).find_map(|d| {
            let mut places = st.open.iter().filter(|&&c| b.cand(c) & 1 << (d - 1) != 0);
            let (Some(&c), None) = (places.next(), places.next()) else {
                return None;
            };
            let mut step = Step::new(Technique::CageCombination, st.open.clone());
            step.placements = vec![(c, d)];
            step.describe(b, || {
                format!(
                    "{} needs {d}, which only {} can hold",
                    cage_combos(cages, k, st, n),
                    cell_name(n, c)
                )
            });
            Some(step)
        })
    });
    Some(eliminations.chain(placements))
}
