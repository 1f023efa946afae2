//! Cage clash: the cages of a unit hold every digit once between them.

use super::matching::fitting;
use super::{combo_list, states, unit_name};
use crate::grid::cell_names;
use crate::rate::board::{digits, Board};
use crate::rate::techniques::step::Step;
use crate::rate::techniques::Technique;

/// One part of a unit for [`cage_clash`]: a cage wholly inside it, or the unit's other
/// cells (the 45 rule's innies), with the combinations its open cells may hold.
pub(super) struct Part {
    open: Vec<usize>,
    combos: Vec<u16>,
    /// The cage, or `None` for the unit's other cells.
    cage: Option<usize>,
}

/// Cage clash: the cages wholly inside a row, column or box and the unit's other cells
/// (which make the rest of its sum) hold every digit once between them, so their
/// combinations must be disjoint. A combination of one part that no disjoint choice of the
/// others' completes goes, and with it the digits no remaining combination holds.
pub fn cage_clash(b: &Board) -> Option<Step> {
    let cages = b.cages()?;
    let n = b.n();
    let unit_sum = (n * (n + 1) / 2) as u32;
    let states = states(b, cages);
    for u in 0..b.unit_count() {
        let unit = b.unit(u);
        let (mut parts, mut whole, mut rest) = (Vec::new(), 0u32, Vec::new());
        for &c in unit {
            let c = c as usize;
            let k = cages.cage_of(c);
            if !cages.lies_within(k, unit) {
                rest.push(c);
            } else if cages.cells(k)[0] as usize == c {
                whole += cages.sum(k);
                let st = &states[k];
                if !st.open.is_empty() {
                    parts.push(Part {
                        open: st.open.clone(),
                        combos: st.combos.clone(),
                        cage: Some(k),
                    });
                }
            }
        }
        let open_rest: Vec<usize> = rest.iter().copied().filter(|&c| b.is_open(c)).collect();
        if !open_rest.is_empty() {
            let placed: u32 = rest.iter().map(|&c| u32::from(b.value(c))).sum();
            let held = open_rest.iter().fold(0u16, |m, &c| m | b.cand(c));
            let sum = unit_sum.saturating_sub(whole + placed);
            let combos = fitting(b, &open_rest, sum, held).collect();
            parts.push(Part {
                open: open_rest,
                combos,
                cage: None,
            });
        }
        if parts.len() < 2 {
            continue;
        }
        parts.sort_by_key(|p| p.combos.len());
        let mut kept = vec![0u16; parts.len()];
        let mut chosen = vec![0u16; parts.len()];
        keep_disjoint(&parts, 0, 0, &mut chosen, &mut kept);
        for (i, part) in parts.iter().enumerate() {
            let eliminations: Vec<(usize, u8)> = part
                .open
                .iter()
                .flat_map(|&c| digits(b.cand(c) & !kept[i]).map(move |d| (c, d)))
                .collect();
            if eliminations.is_empty() {
                continue;
            }
            let cells: Vec<usize> = parts.iter().flat_map(|p| p.open.clone()).collect();
            let mut step = Step::new(Technique::CageClash, cells).eliminating(eliminations);
            step.describe(b, || {
                let left: Vec<u16> = part
                    .combos
                    .iter()
                    .copied()
                    .filter(|&s| s & !kept[i] == 0)
                    .collect();
                let what = match part.cage {
                    Some(k) => format!("cage {}", cages.cell_list(k)),
                    None => format!("the rest {}", cell_names(n, part.open.iter().copied())),
                };
                format!(
                    "{} holds {} parts with disjoint digits: {what} → {}",
                    unit_name(b, u),
                    parts.len(),
                    combo_list(&left)
                )
            });
            return Some(step);
        }
    }
    None
}

/// Marks in `kept` the digits of each part's combinations that some choice of pairwise
/// disjoint combinations of every part holds (`chosen[..i]` taken so far, `used` their
/// digits); whether some choice completes from part `i`.
pub(super) fn keep_disjoint(
    parts: &[Part],
    i: usize,
    used: u16,
    chosen: &mut [u16],
    kept: &mut [u16],
) -> bool {
    if i == parts.len() {
        for (k, &set) in kept.iter_mut().zip(chosen.iter()) {
            *k |= set;
        }
        return true;
    }
    let mut any = false;
    for &set in &parts[i].combos {
        if set & used == 0 {
            chosen[i] = set;
            any |= keep_disjoint(parts, i + 1, used | set, chosen, kept);
        }
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rand;

    /// Every choice of one combination per part tried: the digits of each part's
    /// combinations that some pairwise disjoint choice holds.
    fn brute_kept(parts: &[Part]) -> Vec<u16> {
        let mut kept = vec![0u16; parts.len()];
        let mut pick = vec![0usize; parts.len()];
        loop {
            let sets: Vec<u16> = pick.iter().zip(parts).map(|(&i, p)| p.combos[i]).collect();
            let disjoint = sets
                .iter()
                .enumerate()
                .all(|(i, &a)| sets[..i].iter().all(|&b| a & b == 0));
            if disjoint {
                for (k, &s) in kept.iter_mut().zip(&sets) {
                    *k |= s;
                }
            }
            // The next choice, as an odometer.
            let Some(i) = (0..parts.len()).find(|&i| pick[i] + 1 < parts[i].combos.len()) else {
                return kept;
            };
            pick[i] += 1;
            pick[..i].iter_mut().for_each(|p| *p = 0);
        }
    }

    #[test]
    fn disjoint_combinations_match_trying_every_choice() {
        let mut rng = Rand::new(3);
        let mut narrowed = 0;
        for _ in 0..3000 {
            let count = 2 + rng.below(3) as usize;
            let parts: Vec<Part> = (0..count)
                .map(|_| Part {
                    open: Vec::new(),
                    combos: (0..1 + rng.below(4))
                        .map(|_| {
                            let mut set = 0u16;
                            while set.count_ones() < 1 + rng.below(3) {
                                set |= 1 << rng.below(9);
                            }
                            set
                        })
                        .collect(),
                    cage: None,
                })
                .collect();
            let mut kept = vec![0u16; count];
            let mut chosen = vec![0u16; count];
            let any = keep_disjoint(&parts, 0, 0, &mut chosen, &mut kept);
            let expected = brute_kept(&parts);
            assert_eq!(kept, expected);
            assert_eq!(any, expected.iter().any(|&k| k != 0));
            let all: Vec<u16> = parts
                .iter()
                .map(|p| p.combos.iter().fold(0, |m, &s| m | s))
                .collect();
            narrowed += usize::from(any && kept != all);
        }
        assert!(narrowed > 100, "only {narrowed} cases narrowed anything");
    }
}
