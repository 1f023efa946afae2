//! The killer cage pass of the band search: each cage's placed digits must differ and
//! leave a sum its open cells can make; open cells keep the digits of the combinations
//! that fit, a digit every combination holds goes to its one place in the cage or is
//! locked in the unit its places share, and cages of a few open cells are matched cell by
//! cell.

use super::{Board, BranchOrder, Search, Shape};
use crate::solver::cages::{CageTable, CageWords};

impl<O: BranchOrder, const SINGLES_ONLY: bool> Search<'_, O, SINGLES_ONLY> {
    /// The killer rule, cage by cage: the digits placed in a cage must differ and leave a
    /// sum its open cells can make; each open cell keeps only digits of some combination
    /// of distinct digits (not yet placed in the cage) with the right size and sum, and a
    /// digit every such combination holds goes in the cage's one cell left for it. `false`
    /// on contradiction. Out of line so classic searches carry none of its code.
    #[inline(never)]
    pub(super) fn settle_cages<
        const N: usize,
        const BR: usize,
        const DB: usize,
        const BANDS: usize,
    >(
        &mut self,
        b: &mut Board<DB, BANDS>,
    ) -> bool {
        let (Some(table), Some(seen)) = (self.cages, self.cage_seen.as_deref_mut()) else {
            return true;
        };
        // The cells changed since the last pass, per band.
        let (seen, seen_open) = seen;
        let mut changed = [0u64; BANDS];
        for (k, cells) in changed.iter_mut().enumerate() {
            *cells = seen_open[k] ^ b.open[k];
            seen_open[k] = b.open[k];
        }
        for (i, (was, &now)) in seen.iter_mut().zip(&b.cand).enumerate().take(DB) {
            changed[Shape::<N, BR, DB>::BAND_OF[i] as usize] |= *was ^ now;
            *was = now;
        }
        for cage in &table.cages {
            // Most cages lie in one band: only its words need reading.
            let settled = match cage.band {
                Some(k) if cage.cells[k] & changed[k] == 0 => continue,
                Some(k) => {
                    self.settle_cage::<N, BR, DB, BANDS, 1>(b, table, cage, [(k, cage.cells[k])])
                }
                None if (0..BANDS).all(|k| cage.cells[k] & changed[k] == 0) => continue,
                None => self.settle_cage::<N, BR, DB, BANDS, BANDS>(
                    b,
                    table,
                    cage,
                    std::array::from_fn(|k| (k, cage.cells[k])),
                ),
            };
            if !settled {
                return false;
            }
        }
        true
    }

    /// [`Self::settle_cages`] for one cage, whose cells are `words` (band, cells): `W`
    /// words, one for a cage within a band, else every band's. `false` on contradiction.
    #[inline(always)]
    fn settle_cage<
        const N: usize,
        const BR: usize,
        const DB: usize,
        const BANDS: usize,
        const W: usize,
    >(
        &mut self,
        b: &mut Board<DB, BANDS>,
        table: &CageTable,
        cage: &CageWords,
        words: [(usize, u64); W],
    ) -> bool {
        let Some(CageScan {
            open_cells,
            placed,
            placed_sum,
            present,
        }) = CageScan::of::<N, DB, BANDS, W>(b, words)
        else {
            return false; // a digit twice in the cage
        };
        if placed_sum > cage.sum {
            return false;
        }
        let rest = cage.sum - placed_sum;
        if open_cells == 0 {
            return rest == 0;
        }
        let (some, every) = table.combos.within(open_cells, rest, present & !placed);
        if some == 0 {
            return false;
        }
        let mut remove = present & !some;
        while remove != 0 {
            let d = remove.trailing_zeros() as usize;
            remove &= remove - 1;
            for &(k, w) in &words {
                self.clear_open(b, d, k, w);
            }
        }
        if cage.real
            && !self.rater_cage_steps
            && (2..=MATCHED_CAGE_CELLS).contains(&open_cells)
            && !self.match_cage::<N, BR, DB, BANDS>(b, cage.cells, rest, some)
        {
            return false;
        }
        let mut must = if cage.real || !self.rater_cage_steps {
            every
        } else {
            0
        };
        while must != 0 {
            let d = must.trailing_zeros() as usize;
            must &= must - 1;
            // The digit's open places in the cage, per word: none, one, or more.
            let places: [(usize, u64); W] = std::array::from_fn(|i| {
                let (k, w) = words[i];
                (k, b.cand[d * BANDS + k] & w & b.open[k])
            });
            let (mut found, mut more, mut at) = (0u64, 0u64, (0usize, 0u64));
            for &(k, m) in &places {
                more |= (found & ((m != 0) as u64).wrapping_neg()) | (m & m.wrapping_sub(1));
                found |= m;
                if m != 0 {
                    at = (k, m);
                }
            }
            match (found != 0, more != 0) {
                (false, _) => return false,
                (true, false) => self.place::<N, BR, DB, BANDS>(b, d, at.0, at.1, true),
                _ if self.lock_cages && !self.rater_cage_steps => {
                    self.lock_in_cage::<N, BR, DB, BANDS, W>(b, d, places)
                }
                _ => {}
            }
        }
        true
    }

    /// Cage locking (the killer rater's "cage in unit"): digit `d` must go in one of its
    /// open places in a cage, `places` (band, cells, per word of the cage), as every
    /// combination left holds it; when those share a column, or a row or box, the digit
    /// leaves the rest of that unit. Cuts the backtracks of a zero-given expert killer
    /// (docs/benchmarks.md, History: cage locking).
    #[inline(always)]
    fn lock_in_cage<
        const N: usize,
        const BR: usize,
        const DB: usize,
        const BANDS: usize,
        const W: usize,
    >(
        &mut self,
        b: &mut Board<DB, BANDS>,
        d: usize,
        places: [(usize, u64); W],
    ) {
        // Per band its places, their columns, and the bands holding one (the last of them).
        let (mut in_band, mut columns, mut bands, mut last) = ([0u64; BANDS], 0u64, 0u32, (0, 0));
        for &(k, m) in &places {
            in_band[k] |= m;
            columns |= Shape::<N, BR, DB>::columns(m);
            if m != 0 {
                bands += 1;
                last = (k, m);
            }
        }
        if columns.is_power_of_two() {
            let column = columns.wrapping_mul(Shape::<N, BR, DB>::SPREAD);
            for (k, &mine) in in_band.iter().enumerate() {
                self.clear_open(b, d, k, column & !mine);
            }
        }
        if bands != 1 {
            return; // rows and boxes lie within a band
        }
        let (k, mine) = last;
        let t = self.tables;
        for r in 0..BR {
            let row = Shape::<N, BR, DB>::ROW << (r * N);
            if mine & !row == 0 {
                self.clear_open(b, d, k, row & !mine);
            }
        }
        for &cells in t.band_box.iter().take(BR) {
            if mine & !cells == 0 {
                self.clear_open(b, d, k, cells & !mine);
            }
        }
    }

    /// Cage matching: each open cell of a cage keeps only the digits it takes in some
    /// assignment of a whole combination (of `rest`, within `some`) to the open cells,
    /// one distinct digit each. Stronger than the union of the combinations: a cage of
    /// two cells `{1,2}` and `{1,2,3}` summing to 4 keeps only 1 and 3. `false` when no
    /// assignment is left.
    fn match_cage<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
        cage: [u64; 4],
        rest: u32,
        some: u16,
    ) -> bool {
        let mut cells = [(0usize, 0u64); MATCHED_CAGE_CELLS];
        let mut masks = [0u16; MATCHED_CAGE_CELLS];
        let mut count = 0;
        for (k, &words) in cage.iter().enumerate().take(BANDS) {
            let mut m = words & b.open[k];
            while m != 0 {
                let bit = m & m.wrapping_neg();
                m &= m - 1;
                cells[count] = (k, bit);
                masks[count] = b.digits_of::<N>(k, bit) & some;
                count += 1;
            }
        }
        let masks = &masks[..count];
        // Every cell open to every digit of the combinations: every assignment works.
        if masks.iter().all(|&m| m == some) {
            return true;
        }
        let support = sum_support(masks, rest);
        for (i, &(k, bit)) in cells[..count].iter().enumerate() {
            if support[i] == 0 {
                return false;
            }
            let mut drop = masks[i] & !support[i];
            while drop != 0 {
                let d = drop.trailing_zeros() as usize;
                drop &= drop - 1;
                let at = d * BANDS + k;
                b.cand[at] &= !bit;
                self.dirty |= 1 << at;
                self.stale |= 1 << at;
            }
        }
        true
    }
}

/// What the cage pass reads of one cage's cells.
#[derive(Debug, PartialEq)]
struct CageScan {
    open_cells: usize,
    /// Digits placed in the cage, and their sum.
    placed: u16,
    placed_sum: u32,
    /// Digits some open cell of the cage may take.
    present: u16,
}

impl CageScan {
    /// The cage whose cells are `words` (band, cells) of `b`; `None` when a digit is placed
    /// twice in it. `W` words: one for a cage within a band, else every band's.
    #[inline(always)]
    fn of<const N: usize, const DB: usize, const BANDS: usize, const W: usize>(
        b: &Board<DB, BANDS>,
        words: [(usize, u64); W],
    ) -> Option<CageScan> {
        let open: [u64; W] = std::array::from_fn(|i| words[i].1 & b.open[words[i].0]);
        let placed_at: [u64; W] = std::array::from_fn(|i| words[i].1 & !b.open[words[i].0]);
        let open_cells: u32 = open.iter().map(|m| m.count_ones()).sum();
        let placed_cells: u32 = placed_at.iter().map(|m| m.count_ones()).sum();
        let mut present = 0u16;
        for d in 0..N {
            let on_open = (0..W).fold(0, |m, i| m | b.cand[d * BANDS + words[i].0] & open[i]);
            present |= ((on_open != 0) as u16) << d;
        }
        // Most cages the search reads have no cell placed yet.
        let (mut placed, mut placed_sum) = (0u16, 0u32);
        if placed_cells != 0 {
            for d in 0..N {
                let on_placed =
                    (0..W).fold(0, |m, i| m | b.cand[d * BANDS + words[i].0] & placed_at[i]);
                let here = (on_placed != 0) as u16;
                placed |= here << d;
                placed_sum += u32::from(here) * (d as u32 + 1);
            }
        }
        // A placed cell holds one digit: fewer placed digits than placed cells is a digit
        // twice in the cage.
        (placed.count_ones() == placed_cells).then_some(CageScan {
            open_cells: open_cells as usize,
            placed,
            placed_sum,
            present,
        })
    }
}

/// Cages with at most this many open cells are matched cell by cell ([`Search::match_cage`]);
/// larger ones, and the virtual 45-rule cages, keep the cheaper combination union.
/// Matching four cells (by the 24 orders of four digits) took fewer instructions in a
/// killer expert fill, but it changes which second solution a count finds first, and so
/// the puzzles a zero-given dig makes: it would need a new generator version
/// (docs/benchmarks.md, History). At most three: [`sum_support`] reads pairs and triples.
const MATCHED_CAGE_CELLS: usize = 3;
const _: () = assert!(MATCHED_CAGE_CELLS <= 3);

/// A mask of digits reversed in a 32-bit word: digit `d` (bit `d - 1`) at bit `32 - d`,
/// where a shift by the sum reads off partners ([`partners`]).
#[inline(always)]
fn reversed(m: u16) -> u32 {
    u32::from(m).reverse_bits()
}

/// The digits `x` whose partner `sum - x` is in the mask reversed as `r` ([`reversed`]):
/// shifted right by `33 - sum`, bit `32 - y` of `r` lands on bit `sum - y - 1`, the
/// partner's. Bits above the digits stay for the caller's mask to drop.
#[inline(always)]
fn partners(r: u32, sum: u32) -> u16 {
    match sum {
        2..=32 => (r >> (33 - sum)) as u16,
        _ => 0,
    }
}

/// The digit that is its own partner for `sum` (two cells may not both hold it).
#[inline(always)]
fn own_partner(sum: u32) -> u16 {
    match sum {
        2..=32 if sum.is_multiple_of(2) => 1 << (sum / 2 - 1),
        _ => 0,
    }
}

/// Which digit each cell of `masks` (two or three cells) takes in some assignment of
/// distinct digits, one a cell from its mask, adding up to `sum`. A pair is read off each
/// other's reversed masks at once; in a triple each digit of a cell leaves a pair for the
/// other two to make. The combinations of the cage's size and sum, each tried in every
/// order, took 29 % of a killer count's samples (same support: test
/// `sum_support_matches_trying_every_assignment`).
fn sum_support(masks: &[u16], sum: u32) -> [u16; MATCHED_CAGE_CELLS] {
    let mut support = [0u16; MATCHED_CAGE_CELLS];
    match *masks {
        [a, b] => {
            let distinct = !own_partner(sum);
            support[0] = a & partners(reversed(b), sum) & distinct;
            support[1] = b & partners(reversed(a), sum) & distinct;
        }
        [a, b, c] => {
            let (rb, rc) = (reversed(b), reversed(c));
            let others = [(a, b, rc), (b, a, rc), (c, a, rb)];
            for (i, (own, j, rk)) in others.into_iter().enumerate() {
                let mut digits = own;
                while digits != 0 {
                    let x = digits & digits.wrapping_neg();
                    digits &= digits - 1;
                    // The other two make `rest` without `x` (reversed: bit `31 - (d - 1)`).
                    let below = x.trailing_zeros();
                    let rest = sum.wrapping_sub(below + 1);
                    let pairs =
                        j & !x & partners(rk & !(1 << (31 - below)), rest) & !own_partner(rest);
                    if pairs != 0 {
                        support[i] |= x;
                    }
                }
            }
        }
        // `match_cage` calls only with 2..=MATCHED_CAGE_CELLS cells, asserted at compile time.
        _ => unreachable!("a matched cage has two or three open cells"),
    }
    support
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rand;
    use crate::solver::search::Ascending;

    /// The cage pass's reading of a cage: through its one band's word the same as through
    /// every band's, and as the clues say; a digit placed twice in a cage is a clash.
    #[test]
    fn cage_scans_read_the_clues_through_one_band_or_all() {
        use crate::generate::{grow_cages, pattern_grid, CageSizes};
        use crate::grid::Geometry;
        use crate::solver::band_tables::band_tables;
        let g = Geometry::CLASSIC;
        let solution = pattern_grid(g);
        let sees = |a: usize, c: usize| g.layout().peer_sets[a].contains(c);
        let (mut one_band, mut clashes) = (0, 0);
        for seed in 0..30 {
            let mut rng = Rand::new(seed);
            let cages = grow_cages(&solution, CageSizes::DEFAULT, &mut rng).unwrap();
            let table = CageTable::new(g, &cages);
            let clues: Vec<u8> = (0..81)
                .map(|c| {
                    if rng.below(2) == 0 {
                        solution.get(c)
                    } else {
                        0
                    }
                })
                .collect();
            let scan = |clues: &[u8], cage: &CageWords| {
                let mut s = Search::<_, false>::new(band_tables(g), Ascending, 2, None);
                let b = s
                    .board::<9, 3, 27, 3>(clues)
                    .expect("clues of one unit differ");
                let all =
                    CageScan::of::<9, 27, 3, 3>(&b, std::array::from_fn(|k| (k, cage.cells[k])));
                if let Some(k) = cage.band {
                    assert_eq!(CageScan::of::<9, 27, 3, 1>(&b, [(k, cage.cells[k])]), all);
                }
                all
            };
            for cage in &table.cages {
                one_band += usize::from(cage.band.is_some());
                let cells: Vec<usize> = (0..81)
                    .filter(|&c| cage.cells[c / 27] >> (c % 27) & 1 == 1)
                    .collect();
                let given: Vec<u8> = cells
                    .iter()
                    .map(|&c| clues[c])
                    .filter(|&v| v != 0)
                    .collect();
                let read = scan(&clues, cage).expect("the solution's digits differ in a cage");
                assert_eq!(read.open_cells, cells.len() - given.len());
                assert_eq!(
                    read.placed_sum,
                    given.iter().map(|&v| u32::from(v)).sum::<u32>()
                );
                let placed = given.iter().fold(0u16, |m, &v| m | 1 << (v - 1));
                assert_eq!(read.placed, placed);
                // Two cells of the cage in no common unit, given the same digit.
                let apart = cells.iter().enumerate().find_map(|(i, &a)| {
                    cells[i + 1..]
                        .iter()
                        .find(|&&c| !sees(a, c))
                        .map(|&c| (a, c))
                });
                if let Some((a, c)) = apart {
                    let mut clash = vec![0u8; 81];
                    clash[a] = 5;
                    clash[c] = 5;
                    assert_eq!(scan(&clash, cage), None, "cells {a} and {c}");
                    clashes += 1;
                }
            }
        }
        assert!(
            one_band > 300 && clashes > 20,
            "{one_band} in one band, {clashes} clashes"
        );
    }

    /// Every assignment tried one by one: the digits each cell takes in some assignment
    /// of distinct digits adding up to `sum`.
    fn brute_support(masks: &[u16], sum: u32) -> Vec<u16> {
        fn go(masks: &[u16], used: u16, left: i64, chosen: &mut Vec<u16>, support: &mut [u16]) {
            let i = chosen.len();
            if i == masks.len() {
                if left == 0 {
                    for (s, &c) in support.iter_mut().zip(chosen.iter()) {
                        *s |= c;
                    }
                }
                return;
            }
            for d in 0..16 {
                let bit = 1u16 << d;
                if masks[i] & !used & bit != 0 {
                    chosen.push(bit);
                    go(masks, used | bit, left - (d + 1), chosen, support);
                    chosen.pop();
                }
            }
        }
        let mut support = vec![0u16; masks.len()];
        go(masks, 0, i64::from(sum), &mut Vec::new(), &mut support);
        support
    }

    /// Matching by partners finds what trying every assignment finds, on digits up to 9
    /// and up to 16, sums in and out of reach.
    #[test]
    fn sum_support_matches_trying_every_assignment() {
        let mut rng = Rand::new(7);
        let mut narrowed = 0;
        for case in 0..20_000 {
            let n = if case % 2 == 0 { 9 } else { 16 };
            let count = 2 + rng.below(MATCHED_CAGE_CELLS as u32 - 1) as usize;
            let masks: Vec<u16> = (0..count)
                .map(|_| (rng.below(1 << n) as u16) | (rng.below(1 << n) as u16))
                .collect();
            let sum = rng.below(3 * n + 3);
            let support = sum_support(&masks, sum);
            let expected = brute_support(&masks, sum);
            assert_eq!(
                &support[..count],
                &expected[..],
                "masks {masks:?} sum {sum}"
            );
            if expected.iter().zip(&masks).any(|(&e, &m)| e != 0 && e != m) {
                narrowed += 1;
            }
        }
        assert!(narrowed > 1000, "only {narrowed} cases narrowed a cell");
    }
}
