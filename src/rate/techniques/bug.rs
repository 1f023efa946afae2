//! The bivalue universal grave (BUG): were every open cell left with two candidates and
//! every digit with two places in each unit it lacks, the puzzle would have two solutions.
//! So the cells holding more than two (the BUG cells) cannot all lose their extra digits:
//! types 1 to 4 draw what follows, found as Sukaku Explainer finds them (its
//! `BivalueUniversalGrave`, with lkSudoku's extension where one digit is extra in several
//! cells of a unit).

use super::common::{completed_set_eliminations, first_covering, UnitVec};
use super::uniqueness::restricted;
use super::Technique;
use crate::grid::CellSet;
use crate::rate::board::{digits, Board};
use crate::rate::techniques::step::Step;
use std::rc::Rc;

/// The BUG cells of a board and what they hold beyond the grave.
struct Grave {
    /// The BUG cells in the order found (boxes, then rows, then columns), each with its
    /// extra digits.
    cells: Vec<(usize, u16)>,
    /// Every extra digit.
    extra: u16,
    /// The cells that see every BUG cell, less the BUG cells.
    common: CellSet,
}

/// The board's grave, kept in its memo: the four BUG finders ask one after another.
fn grave(b: &Board) -> Rc<Option<Grave>> {
    b.derived(|| find_grave(b))
}

/// The grave the board would fall into without its BUG cells' extra digits, if it would:
/// a digit with neither none nor two places in a unit has them in cells of three or more
/// candidates, and when just one such cell holds it there, that cell is a BUG cell with
/// the digit extra. When every such unit is short of one and the same digit, all its
/// cells there are BUG cells (lkSudoku's extension). Without their extra digits every
/// open cell must hold two candidates and every digit two places in a unit or none; and
/// no nearby cell may hold a digit the rule set bars beside the pattern's (swapping them
/// could break it).
fn find_grave(b: &Board) -> Option<Grave> {
    let layout = b.layout();
    let mut left = b.candidates().to_vec();
    let mut cells: Vec<(usize, u16)> = Vec::new();
    let mut extra = 0u16;
    // lkSudoku: the cells of three or more holding the one digit out of place, while it
    // is one digit.
    let mut short: Option<(u8, CellSet)> = None;
    let mut one_digit = true;
    let units = layout.boxes().chain(layout.rows()).chain(layout.columns());
    for u in units.clone() {
        let unit = b.unit(u);
        for d in 1..=b.n() as u8 {
            let places = b.positions(u, d);
            if places.count_ones() == 0 || places.count_ones() == 2 {
                continue;
            }
            let wide: UnitVec<usize> = digits(places)
                .map(|i| unit[i as usize - 1] as usize)
                .filter(|&c| b.cand(c).count_ones() >= 3)
                .collect();
            match &mut short {
                None => short = Some((d, wide.iter().fold(CellSet::default(), |s, &c| s.with(c)))),
                Some((digit, set)) if *digit == d && one_digit => {
                    wide.iter().for_each(|&c| set.insert(c));
                }
                Some(_) => one_digit = false,
            }
            match wide[..] {
                [] => return None,
                [cell] => {
                    add(&mut cells, &mut left, cell, d);
                    extra |= 1 << (d - 1);
                }
                // More than one: another unit names the cell.
                _ => {}
            }
        }
    }
    // As the reference has it, these cells' digit counts as theirs but not among the
    // extra digits of the grave.
    if let (true, Some((digit, set))) = (one_digit, short) {
        if set.len() > cells.len() {
            let named = cells
                .iter()
                .fold(CellSet::default(), |s, &(c, _)| s.with(c));
            for c in set.minus(named).iter() {
                add(&mut cells, &mut left, c, digit);
            }
        }
    }
    let open = (0..b.cells()).filter(|&c| b.is_open(c));
    if open.clone().any(|c| left[c].count_ones() != 2) {
        return None;
    }
    for u in units {
        let unit = b.unit(u);
        for d in 0..b.n() {
            let places = unit
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| b.is_open(c) && left[c] & 1 << d != 0)
                .count();
            if places != 0 && places != 2 {
                return None;
            }
        }
    }
    if open.clone().any(|c| restricted(b, c, left[c])) {
        return None;
    }
    let common = cells.iter().fold(None, |seen: Option<CellSet>, &(c, _)| {
        Some(seen.map_or(b.peer_set(c), |s| s.and(b.peer_set(c))))
    })?;
    let common = cells
        .iter()
        .fold(common, |s, &(c, _)| s.minus(CellSet::default().with(c)));
    Some(Grave {
        cells,
        extra,
        common,
    })
}

/// Takes digit `d` of `cell` as extra: the cell is a BUG cell (once), and `left` loses it.
fn add(cells: &mut Vec<(usize, u16)>, left: &mut [u16], cell: usize, d: u8) {
    let bit = 1 << (d - 1);
    match cells.iter_mut().find(|(c, _)| *c == cell) {
        Some((_, digits)) => *digits |= bit,
        None => cells.push((cell, bit)),
    }
    left[cell] &= !bit;
}

/// BUG type 1 (BUG+1): one BUG cell, which must keep an extra digit: it loses the others
/// (with one extra digit, it takes that digit).
pub fn bug_plus_one(b: &Board) -> Option<Step> {
    let grave = grave(b);
    let Some(Grave { cells, extra, .. }) = grave.as_ref() else {
        return None;
    };
    let ([(cell, _)], false) = (&cells[..], *extra == 0) else {
        return None;
    };
    let mut s = Step::new(Technique::BugPlusOne, vec![*cell]);
    if extra.count_ones() == 1 {
        s.placements = vec![(*cell, extra.trailing_zeros() as u8 + 1)];
    } else {
        s.eliminations = digits(b.cand(*cell) & !extra).map(|d| (*cell, d)).collect();
    }
    Some(s)
}

/// BUG type 2: one extra digit in two or more BUG cells; one of them holds it, so the
/// cells seeing all of them do not.
pub fn bug_type_2(b: &Board) -> Option<Step> {
    let grave = grave(b);
    let g = grave.as_ref().as_ref()?;
    if g.cells.len() < 2 || g.extra.count_ones() != 1 {
        return None;
    }
    let d = g.extra.trailing_zeros() as u8 + 1;
    let elims: Vec<(usize, u8)> = g
        .common
        .iter()
        .filter(|&c| b.is_open(c) && b.cand(c) & g.extra != 0)
        .map(|c| (c, d))
        .collect();
    step(
        Technique::BugType2,
        g,
        Vec::new(),
        elims,
        Technique::BugType2.base_score(),
    )
}

/// BUG type 3: the extra digits of the BUG cells, all in one unit, act as one cell of a
/// naked set with other cells of that unit: the set's digits leave the unit's other cells
/// (or, under a rule that keeps cells apart across units, every cell that sees the set's
/// cells holding a digit). A tenth over the base per digit of the set past two.
pub fn bug_type_3(b: &Board) -> Option<Step> {
    let grave = grave(b);
    let g = grave.as_ref().as_ref()?;
    if g.cells.len() < 2 || g.extra.count_ones() < 2 || g.common.is_empty() {
        return None;
    }
    let generalized = b.geometry().variant().rules().generalized_rating;
    for degree in 2..=6usize {
        for u in shared_units(b, g) {
            let in_common = || {
                b.unit(u)
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| g.common.contains(c))
            };
            // The reference counts placed cells here, though none can be in the set.
            if in_common().count() < degree {
                continue;
            }
            let others: Vec<(usize, u16)> = in_common()
                .filter(|&c| b.is_open(c))
                .map(|c| (c, b.cand(c)))
                .collect();
            // Sets of degree - 1 cells with degree digits between them, the extra digits
            // among those.
            let found = first_covering(&others, degree - 1, 0, degree as u32, &mut |set, union| {
                if union & g.extra != g.extra {
                    return None;
                }
                let bugs: Vec<usize> = g.cells.iter().map(|&(c, _)| c).collect();
                let elims = completed_set_eliminations(b, &others, set, &bugs, union, generalized);
                let score = Technique::BugType3.base_score() + 0.1 * (degree - 2) as f64;
                step(Technique::BugType3, g, set.to_vec(), elims, score)
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

/// BUG type 4: two BUG cells in one unit sharing one digit beyond their extra ones: one of
/// them holds its extra digit, the other then that digit, so each loses its other digits.
pub fn bug_type_4(b: &Board) -> Option<Step> {
    let grave = grave(b);
    let g = grave.as_ref().as_ref()?;
    let [(c1, x1), (c2, x2)] = g.cells[..] else {
        return None;
    };
    if g.extra.count_ones() != 1 && g.common.is_empty() {
        return None;
    }
    let shared = b.cand(c1) & b.cand(c2) & !g.extra;
    if shared.count_ones() != 1 {
        return None;
    }
    shared_units(b, g).next()?;
    let elims = [(c1, x1), (c2, x2)]
        .into_iter()
        .flat_map(|(c, x)| digits(b.cand(c) & !x & !shared).map(move |d| (c, d)))
        .collect();
    step(
        Technique::BugType4,
        g,
        Vec::new(),
        elims,
        Technique::BugType4.base_score(),
    )
}

/// The boxes, rows and columns (in that order) holding every BUG cell.
fn shared_units<'a>(b: &'a Board, g: &'a Grave) -> impl Iterator<Item = usize> + 'a {
    let layout = b.layout();
    let (first, _) = g.cells[0];
    let [row, col, bx] = b.units_of(first);
    [bx, row, col]
        .into_iter()
        .filter(move |&u| g.cells.iter().all(|&(c, _)| layout.unit_set(u).contains(c)))
}

/// A BUG step on the grave's cells (then `more`), when it eliminates anything.
fn step(
    technique: Technique,
    g: &Grave,
    more: Vec<usize>,
    elims: Vec<(usize, u8)>,
    score: f64,
) -> Option<Step> {
    (!elims.is_empty()).then(|| {
        let cells = g.cells.iter().map(|&(c, _)| c).chain(more).collect();
        let mut s = Step::new(technique, cells);
        s.eliminations = elims;
        s.score = score;
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{parse_line, Cell};
    use crate::rate::rate;

    /// Each type's step on a calibration puzzle, on the cells and with the removals the
    /// reference names (`BUG type 2: r9c3,r9c6 on 5`, …).
    #[test]
    fn each_type_takes_the_step_the_reference_takes() {
        let cases = [
            (
                "000000000070401050064000930800507003650000092000040000400123009900060001000000000",
                Technique::BugType2,
                "r9c3 r9c6",
                "r9c5<>5 r9c9<>5",
            ),
            (
                "000076138000900460000008002007061000004203600000790500800100000046009000125630000",
                Technique::BugType4,
                "r4c7 r7c7",
                "r4c7<>8 r7c7<>3",
            ),
            (
                "003060009020071500060309080290000800000000000006000092040602050009780040500010300",
                Technique::BugType3,
                "r9c9 r4c9 r5c9 r3c9",
                "r7c9<>7",
            ),
        ];
        let name = |c: usize| {
            let at = Cell::at(c, 9);
            format!("r{}c{}", at.row + 1, at.col + 1)
        };
        for (line, technique, cells, removed) in cases {
            let r = rate(&parse_line(line).unwrap());
            let s = r.steps.iter().find(|s| s.technique == technique).unwrap();
            let named: Vec<String> = s.cells.iter().map(|&c| name(c)).collect();
            assert_eq!(named.join(" "), cells, "{line}");
            let gone: Vec<String> = s
                .eliminations
                .iter()
                .map(|&(c, d)| format!("{}<>{d}", name(c)))
                .collect();
            assert_eq!(gone.join(" "), removed, "{line}");
            assert_eq!(r.hardest, Some(technique), "{line}");
        }
    }
}
