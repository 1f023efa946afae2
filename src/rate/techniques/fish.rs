//! Basic fish: X-Wing (2), Swordfish (3), Jellyfish (4), with rows or columns as base.

use super::common::{first_covering, UnitVec};
use super::Technique;
use crate::rate::board::{digits, Board};
use crate::rate::memo::DigitSearch;
use crate::rate::techniques::step::Step;

fn technique(k: usize) -> Technique {
    match k {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    }
}

/// A digit whose places in `k` base lines all lie in `k` cover lines: it leaves the rest
/// of the cover lines.
pub fn fish(b: &Board, k: usize) -> Option<Step> {
    let n = b.n();
    for d in 1..=n as u8 {
        // base 0 = rows (cover columns), base n = columns (cover rows).
        for (side, base) in [0, n].into_iter().enumerate() {
            let key = 2 * (d as usize - 1) + side;
            if b.digit_found_nothing_since(DigitSearch::Fish(k), key, d) {
                continue;
            }
            let cover = n - base;
            let lines: UnitVec<(usize, u16)> = (0..n)
                .map(|i| (i, b.positions(base + i, d)))
                .filter(|&(_, p)| (2..=k).contains(&(p.count_ones() as usize)))
                .collect();
            let found = first_covering(&lines, k, 0, k as u32, &mut |bases: &[usize], covers| {
                let mut elims = Vec::new();
                for c in digits(covers) {
                    let unit = cover + c as usize - 1;
                    let places = b.positions(unit, d);
                    for i in digits(places) {
                        let i = i as usize - 1;
                        if !bases.contains(&i) {
                            elims.push((b.unit(unit)[i] as usize, d));
                        }
                    }
                }
                (!elims.is_empty()).then(|| {
                    let cells = bases
                        .iter()
                        .flat_map(|&i| {
                            let unit = base + i;
                            digits(b.positions(unit, d)).map(move |p| (unit, p as usize - 1))
                        })
                        .map(|(unit, p)| b.unit(unit)[p] as usize)
                        .collect();
                    Step::new(technique(k), cells).eliminating(elims)
                })
            });
            if found.is_some() {
                return found;
            }
            b.digit_found_nothing(DigitSearch::Fish(k), key, d);
        }
    }
    None
}
