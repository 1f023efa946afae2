//! Helpers that several technique families share.

use crate::rate::board::{digits, Board};
use crate::rate::memo::UnitSearch;
use crate::rate::step::Step;
use arrayvec::ArrayVec;

/// Items of one unit (at most 16 cells or digits), kept on the stack: these searches run
/// on every rating step, mostly finding nothing.
pub type UnitVec<T> = ArrayVec<T, 16>;

/// Calls `f(chosen, union)` on each choice of `k` of `items`, in lexicographic order,
/// whose masks together with `base` cover exactly `bits` bits (`union`), until it returns
/// `Some`. A partial choice already covering more bits is cut short: subsets, fish and
/// unique rectangles all look for `k` things spread over exactly `bits` places or digits.
pub fn first_covering<T: Copy, R>(
    items: &[(T, u16)],
    k: usize,
    base: u16,
    bits: u32,
    f: &mut impl FnMut(&[T], u16) -> Option<R>,
) -> Option<R> {
    fn go<T: Copy, R>(
        items: &[(T, u16)],
        k: usize,
        start: usize,
        union: u16,
        bits: u32,
        chosen: &mut UnitVec<T>,
        f: &mut impl FnMut(&[T], u16) -> Option<R>,
    ) -> Option<R> {
        if chosen.len() == k {
            return if union.count_ones() == bits {
                f(chosen, union)
            } else {
                None
            };
        }
        for i in start..items.len() {
            if items.len() - i < k - chosen.len() {
                break;
            }
            let (item, mask) = items[i];
            let wider = union | mask;
            if wider.count_ones() > bits {
                continue;
            }
            chosen.push(item);
            if let Some(r) = go(items, k, i + 1, wider, bits, chosen, f) {
                return Some(r);
            }
            chosen.pop();
        }
        None
    }
    go(items, k, 0, base, bits, &mut UnitVec::new(), f)
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

/// The first hidden set `f` makes a step of: over the units (skipping those where `search`
/// found nothing since they last changed), `k` of a unit's missing digits whose places
/// number `k` in all. `f(u, missing, keep, places)` gets the unit, its missing digits, the
/// set's digits and their places (bits of positions in the unit).
pub fn first_hidden_set(
    b: &Board,
    k: usize,
    search: UnitSearch,
    f: &mut impl FnMut(usize, u16, u16, u16) -> Option<Step>,
) -> Option<Step> {
    let n = b.n();
    for u in 0..b.unit_count() {
        if b.found_nothing_since(search, u) {
            continue;
        }
        let missing = !b.placed_in(u) & (((1u32 << n) - 1) as u16);
        if (missing.count_ones() as usize) <= k {
            continue;
        }
        let candidates: UnitVec<(u8, u16)> = digits(missing)
            .map(|d| (d, b.positions(u, d)))
            .filter(|&(_, p)| (2..=k).contains(&(p.count_ones() as usize)))
            .collect();
        let found = first_covering(&candidates, k, 0, k as u32, &mut |chosen: &[u8], places| {
            let keep = chosen.iter().fold(0u16, |m, &d| m | 1 << (d - 1));
            f(u, missing, keep, places)
        });
        if found.is_some() {
            return found;
        }
        b.found_nothing(search, u);
    }
    None
}
