//! Helpers that several technique families share.

use crate::rate::board::{digits, Board};
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
