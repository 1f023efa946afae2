//! Naked and hidden subsets (pairs, triples, quads) within one unit.

use crate::rate::board::{digits, Board};
use crate::rate::step::{Step, Technique};
use arrayvec::ArrayVec;

/// Items of one unit (at most 16 cells or digits), kept on the stack: these searches run
/// on every rating step, mostly finding nothing.
pub type UnitVec<T> = ArrayVec<T, 16>;

/// Calls `f` on each `k`-combination of `items` until it returns `Some`.
pub fn first_combination<T: Copy, R>(
    items: &[T],
    k: usize,
    f: &mut impl FnMut(&[T]) -> Option<R>,
) -> Option<R> {
    fn go<T: Copy, R>(
        items: &[T],
        k: usize,
        start: usize,
        chosen: &mut UnitVec<T>,
        f: &mut impl FnMut(&[T]) -> Option<R>,
    ) -> Option<R> {
        if chosen.len() == k {
            return f(chosen);
        }
        for i in start..items.len() {
            if items.len() - i < k - chosen.len() {
                break;
            }
            chosen.push(items[i]);
            if let Some(r) = go(items, k, i + 1, chosen, f) {
                return Some(r);
            }
            chosen.pop();
        }
        None
    }
    go(items, k, 0, &mut UnitVec::new(), f)
}

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

/// What a naked subset on `cells` (digits `union`) removes from the unit's other `open`
/// cells.
pub fn naked_eliminations(
    b: &Board,
    open: &[usize],
    cells: &[usize],
    union: u16,
) -> Vec<(usize, u8)> {
    open.iter()
        .filter(|c| !cells.contains(c))
        .flat_map(|&c| digits(b.cand(c) & union).map(move |d| (c, d)))
        .collect()
}

/// `k` open cells of a unit whose candidates number `k` in all.
pub fn naked(b: &Board, k: usize) -> Option<Step> {
    for u in 0..b.unit_count() {
        let open: UnitVec<usize> = b
            .unit(u)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| b.is_open(c))
            .collect();
        if open.len() <= k {
            continue;
        }
        let small: UnitVec<usize> = open
            .iter()
            .copied()
            .filter(|&c| (b.cand(c).count_ones() as usize) <= k)
            .collect();
        let found = first_combination(&small, k, &mut |cells: &[usize]| {
            let union = cells.iter().fold(0u16, |m, &c| m | b.cand(c));
            if union.count_ones() as usize != k {
                return None;
            }
            let elims = naked_eliminations(b, &open, cells, union);
            (!elims.is_empty()).then(|| {
                let mut step = Step::new(naked_technique(k), cells.to_vec());
                step.eliminations = elims;
                step
            })
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// `k` digits of a unit whose places number `k` in all: other digits leave those cells.
pub fn hidden(b: &Board, k: usize) -> Option<Step> {
    let n = b.n();
    for u in 0..b.unit_count() {
        let missing = !b.placed_in(u) & (((1u32 << n) - 1) as u16);
        if (missing.count_ones() as usize) <= k {
            continue;
        }
        let candidates: UnitVec<(u8, u16)> = digits(missing)
            .map(|d| (d, b.positions(u, d)))
            .filter(|&(_, p)| (2..=k).contains(&(p.count_ones() as usize)))
            .collect();
        let cells = b.unit(u);
        let found = first_combination(&candidates, k, &mut |chosen: &[(u8, u16)]| {
            let places = chosen.iter().fold(0u16, |m, &(_, p)| m | p);
            if places.count_ones() as usize != k {
                return None;
            }
            let keep = chosen.iter().fold(0u16, |m, &(d, _)| m | 1 << (d - 1));
            let pattern = || digits(places).map(|i| cells[i as usize - 1] as usize);
            if pattern().all(|c| b.cand(c) & !keep == 0) {
                return None;
            }
            let elims = pattern()
                .flat_map(|c| digits(b.cand(c) & !keep).map(move |d| (c, d)))
                .collect();
            Some({
                let mut step = Step::new(hidden_technique(k), pattern().collect());
                step.eliminations = elims;
                step
            })
        });
        if found.is_some() {
            return found;
        }
    }
    None
}
