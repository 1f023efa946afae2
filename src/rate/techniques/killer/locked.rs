//! Cage in unit: a digit every combination of a cage holds, locked in a row, column or
//! box.

use super::{cage_combos, states, unit_name};
use crate::rate::board::{digits, Board};
use crate::rate::techniques::step::Step;
use crate::rate::techniques::Technique;

/// A digit every combination of a cage holds, whose places in the cage all lie in one
/// row, column or box, leaves the rest of that unit.
pub fn cage_locked(b: &Board) -> Option<Step> {
    let cages = b.cages()?;
    let n = b.n();
    for (k, st) in states(b, cages).iter().enumerate() {
        for d in digits(st.every()) {
            let bit = 1u16 << (d - 1);
            let places: Vec<usize> = st
                .open
                .iter()
                .copied()
                .filter(|&c| b.cand(c) & bit != 0)
                .collect();
            let Some(&first) = places.first() else {
                continue;
            };
            for u in b.units_of(first) {
                let unit = b.unit(u);
                if !places.iter().all(|&c| unit.contains(&(c as u16))) {
                    continue;
                }
                let eliminations: Vec<(usize, u8)> = unit
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| cages.cage_of(c) != k && b.is_open(c) && b.cand(c) & bit != 0)
                    .map(|c| (c, d))
                    .collect();
                if !eliminations.is_empty() {
                    let mut step =
                        Step::new(Technique::CageLocked, places.clone()).eliminating(eliminations);
                    step.describe(b, || {
                        format!(
                            "{} must hold {d}, within {}",
                            cage_combos(cages, k, st, n),
                            unit_name(b, u)
                        )
                    });
                    return Some(step);
                }
            }
        }
    }
    None
}
