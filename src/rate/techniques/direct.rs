//! Sudoku Explainer's direct techniques: a locked candidate or a hidden pair or triple
//! that at once leaves a hidden single. They are rated below the general technique
//! (direct pointing 1.7, direct claiming 1.9, direct hidden pair 2.0, direct hidden triple
//! 2.5) because the solver only has to see the single they make. As in the reference, the
//! step places that single and nothing else: the pattern's other removals are not applied.

use super::common::{cells_at, first_hidden_set, locked_into, UnitVec};
use super::Technique;
use crate::rate::board::{digits, Board};
use crate::rate::memo::{DigitSearch, UnitSearch};
use crate::rate::techniques::step::Step;

/// The step: `pattern` cells, `digit` placed in `cell`.
fn placing(technique: Technique, pattern: Vec<usize>, cell: usize, digit: u8) -> Step {
    let mut step = Step::new(technique, pattern);
    step.placements = vec![(cell, digit)];
    step
}

/// Direct pointing (`pointing`: a digit's places in a box on one line) or direct claiming
/// (a digit's places in a line inside one box): the digit would leave the rest of that
/// line (box), and a box (line) crossing it would be left with one place for the digit.
/// Extra units the reference treats as boxes ([`crate::grid::ExtraUnits::box_like`]) lock and are
/// locked into as well: a box into one of them is a pointing, the rest claimings.
pub fn locked(b: &Board, pointing: bool) -> Option<Step> {
    let layout = b.layout();
    let n = b.n();
    let technique = if pointing {
        Technique::DirectPointing
    } else {
        Technique::DirectClaiming
    };
    let (from, search) = if pointing {
        (layout.boxes(), DigitSearch::DirectPointing)
    } else {
        (layout.lines(), DigitSearch::DirectClaiming)
    };
    // What it finds for a digit depends on that digit's places alone (in a unit, the
    // target and the units crossing it), so digits that found nothing are passed over
    // until they change.
    let open = !b.digits_found_nothing_since(search) & (((1u32 << n) - 1) as u16);
    for u in from {
        for d in digits(!b.placed_in(u) & open) {
            let places = b.positions(u, d);
            if places.count_ones() < 2 {
                continue;
            }
            // The unit the digit is locked into: a line for a box, the box for a line.
            let Some(target) = locked_into(b, u, places) else {
                continue;
            };
            let kind = b
                .units_of(b.unit(u)[0] as usize)
                .iter()
                .position(|&x| x == u)
                .expect("its unit");
            // Units of `u`'s kind crossing the target, each checked once.
            let mut checked = UnitVec::<usize>::new();
            for c in cells_at(b, target, b.positions(target, d)) {
                let crossing = b.units_of(c)[kind];
                if crossing == u || checked.contains(&crossing) {
                    continue;
                }
                checked.push(crossing);
                let left: UnitVec<usize> = cells_at(b, crossing, b.positions(crossing, d))
                    .filter(|&x| !b.units_of(x).contains(&target))
                    .collect();
                if b.positions(crossing, d).count_ones() > 1 && left.len() == 1 {
                    let pattern = cells_at(b, u, places).collect();
                    return Some(placing(technique, pattern, left[0], d));
                }
            }
        }
    }
    if b.geometry().variant().rules().units.box_like() {
        let pairs: &[(Kind, Kind)] = if pointing {
            &[(Kind::Box, Kind::Extra)]
        } else {
            &[
                (Kind::Extra, Kind::Row),
                (Kind::Extra, Kind::Column),
                (Kind::Row, Kind::Extra),
                (Kind::Column, Kind::Extra),
                (Kind::Extra, Kind::Box),
            ]
        };
        for &(from, into) in pairs {
            if let Some(step) = locked_across(b, technique, from, into, open) {
                return Some(step);
            }
        }
    }
    b.digits_found_nothing(search, open);
    None
}

/// A kind of unit, for locked candidates across extra units.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Row,
    Column,
    Box,
    Extra,
}

impl Kind {
    /// The unit of this kind through `cell` (box-like extra units hold every cell once).
    fn through(self, b: &Board, cell: usize) -> Option<usize> {
        match self {
            Kind::Row => Some(b.units_of(cell)[0]),
            Kind::Column => Some(b.units_of(cell)[1]),
            Kind::Box => Some(b.units_of(cell)[2]),
            Kind::Extra => b.layout().extra_places_of(cell).next().map(|p| p.unit),
        }
    }

    /// Every unit of this kind.
    fn units(self, b: &Board) -> std::ops::Range<usize> {
        let layout = b.layout();
        match self {
            Kind::Row => layout.rows(),
            Kind::Column => layout.columns(),
            Kind::Box => layout.boxes(),
            Kind::Extra => layout.extra_units(),
        }
    }
}

/// The direct locked candidate of a digit in a unit of kind `from` whose places all lie
/// in one unit of kind `into`: that unit's other places would go, and a unit of kind
/// `from` crossing it would be left with one place.
fn locked_across(
    b: &Board,
    technique: Technique,
    from: Kind,
    into: Kind,
    open: u16,
) -> Option<Step> {
    for u in from.units(b) {
        for d in digits(!b.placed_in(u) & open) {
            let places = b.positions(u, d);
            if places.count_ones() < 2 {
                continue;
            }
            let mut cells = cells_at(b, u, places);
            let first = cells.next().expect("two places");
            let Some(target) = into.through(b, first) else {
                continue;
            };
            if !cells.all(|c| into.through(b, c) == Some(target)) {
                continue;
            }
            let mut checked = UnitVec::<usize>::new();
            for c in cells_at(b, target, b.positions(target, d)) {
                let Some(crossing) = from.through(b, c) else {
                    continue;
                };
                if crossing == u || checked.contains(&crossing) {
                    continue;
                }
                checked.push(crossing);
                let left: UnitVec<usize> = cells_at(b, crossing, b.positions(crossing, d))
                    .filter(|&x| into.through(b, x) != Some(target))
                    .collect();
                if b.positions(crossing, d).count_ones() > 1 && left.len() == 1 {
                    let pattern = cells_at(b, u, places).collect();
                    return Some(placing(technique, pattern, left[0], d));
                }
            }
        }
    }
    None
}

/// Direct hidden pair (`k` = 2) or triple (3): `k` digits of a unit confined to `k` of its
/// cells (the unit has more open cells than that), so the other digits would leave those
/// cells, and one of them would be left with a single place in the unit.
pub fn hidden(b: &Board, k: usize) -> Option<Step> {
    let technique = if k == 2 {
        Technique::DirectHiddenPair
    } else {
        Technique::DirectHiddenTriple
    };
    first_hidden_set(
        b,
        k,
        UnitSearch::DirectHidden(k),
        &mut |u, missing, keep, set| {
            digits(missing & !keep).find_map(|d| {
                let places = b.positions(u, d);
                let left = places & !set;
                (places.count_ones() > 1 && left.count_ones() == 1).then(|| {
                    let pattern = cells_at(b, u, set).collect();
                    let cell = cells_at(b, u, left).next().expect("one place");
                    placing(technique, pattern, cell, d)
                })
            })
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::{apply, calibration_puzzles, next_step};
    use crate::solver::count_solutions;

    /// Along the rater's path through calibration puzzles, every direct finder's placement
    /// is the solution's digit, and each finder finds something. Direct claiming is checked
    /// here because the rater never takes it on 9x9: there the band's third box always
    /// offers a hidden single or a direct pointing beside it.
    #[test]
    fn direct_placements_are_true() {
        let mut found = [0usize; 4];
        for p in calibration_puzzles(0.0, 150) {
            let solution = count_solutions(&p, 2).unique().cloned().unwrap();
            let mut b = Board::new(&p);
            while let Some(step) = next_step(&b, f64::INFINITY) {
                let finds = [
                    locked(&b, true),
                    locked(&b, false),
                    hidden(&b, 2),
                    hidden(&b, 3),
                ];
                for (i, s) in finds.iter().enumerate() {
                    if let Some(s) = s {
                        found[i] += 1;
                        for &(c, d) in &s.placements {
                            assert_eq!(solution.get(c), d, "{p}: {:?}", s.technique);
                        }
                    }
                }
                apply(&mut b, &step);
            }
        }
        assert!(found.iter().all(|&f| f > 10), "{found:?}");
    }
}
