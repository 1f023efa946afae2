//! Killer cages for the band search: each cage's cells as band words, and the digit
//! combinations a cage of each size and sum can hold, precomputed once per grid side.

use crate::grid::Cages;
use std::ops::Range;
use std::sync::OnceLock;

/// One cage as the search sees it.
pub(super) struct CageWords {
    /// The cage's cells in each band (as the band words address them).
    pub(super) cells: [u64; 4],
    pub(super) sum: u32,
}

/// A puzzle's cages, built once per search call (a few hundred nanoseconds).
pub(super) struct CageTable {
    pub(super) cages: Vec<CageWords>,
    pub(super) combos: &'static Combinations,
}

impl CageTable {
    /// The table of `cages` on a grid whose bands hold `band_cells` cells each.
    pub(super) fn new(cages: &Cages, band_cells: usize) -> CageTable {
        let cages_out = (0..cages.count())
            .map(|k| {
                let mut cells = [0u64; 4];
                for &c in cages.cells(k) {
                    let c = c as usize;
                    cells[c / band_cells] |= 1 << (c % band_cells);
                }
                CageWords {
                    cells,
                    sum: cages.sum(k),
                }
            })
            .collect();
        CageTable {
            cages: cages_out,
            combos: Combinations::of(cages.n()),
        }
    }
}

/// For every cage size and sum, the sets of distinct digits (bit `d - 1` for digit `d`)
/// that have that size and sum.
pub(super) struct Combinations {
    max_sum: usize,
    /// `ranges[size * (max_sum + 1) + sum]` indexes `sets`.
    ranges: Vec<Range<u32>>,
    sets: Vec<u16>,
}

impl Combinations {
    /// The table for digits `1..=n`, built once per process.
    pub(super) fn of(n: usize) -> &'static Combinations {
        static TABLES: [OnceLock<Combinations>; 17] = [const { OnceLock::new() }; 17];
        TABLES[n].get_or_init(|| Combinations::build(n))
    }

    fn build(n: usize) -> Combinations {
        let max_sum = n * (n + 1) / 2;
        let key = |size: usize, sum: usize| size * (max_sum + 1) + sum;
        let mut buckets = vec![Vec::new(); (n + 1) * (max_sum + 1)];
        for set in 0u32..1 << n {
            let sum: usize = (0..n).filter(|d| set >> d & 1 == 1).map(|d| d + 1).sum();
            buckets[key(set.count_ones() as usize, sum)].push(set as u16);
        }
        let mut ranges = Vec::with_capacity(buckets.len());
        let mut sets = Vec::new();
        for bucket in buckets {
            let start = sets.len() as u32;
            sets.extend(bucket);
            ranges.push(start..sets.len() as u32);
        }
        Combinations {
            max_sum,
            ranges,
            sets,
        }
    }

    /// The digit sets of `size` distinct digits adding up to `sum` (none when out of range).
    #[inline]
    pub(super) fn of_size_and_sum(&self, size: usize, sum: u32) -> &[u16] {
        let sum = sum as usize;
        if sum > self.max_sum {
            return &[];
        }
        let r = &self.ranges[size * (self.max_sum + 1) + sum];
        &self.sets[r.start as usize..r.end as usize]
    }

    /// The digits some allowed combination uses, and the digits every one uses: only
    /// combinations within `available`. `(0, _)` when none is left.
    #[inline]
    pub(super) fn within(&self, size: usize, sum: u32, available: u16) -> (u16, u16) {
        let (mut some, mut every) = (0u16, u16::MAX);
        for &set in self.of_size_and_sum(size, sum) {
            if set & !available == 0 {
                some |= set;
                every &= set;
            }
        }
        (some, every)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_of_nine() {
        let c = Combinations::of(9);
        assert_eq!(c.of_size_and_sum(2, 3), &[0b11]);
        assert_eq!(c.of_size_and_sum(2, 17), &[0b1_1000_0000]);
        assert_eq!(c.of_size_and_sum(3, 15).len(), 8);
        assert_eq!(c.of_size_and_sum(9, 45), &[0x1FF]);
        assert!(c.of_size_and_sum(2, 18).is_empty());
        assert!(c.of_size_and_sum(2, 99).is_empty());
        // 10 in two cells without the 5: 1+9, 2+8, 3+7, 4+6; without 1 and 9: no 9 or 1.
        let (some, every) = c.within(2, 10, 0x1FF & !(1 << 4) & !1);
        assert_eq!(some, 0b0_1110_1110);
        assert_eq!(every, 0);
        // 23 in three cells: 6+8+9 only.
        assert_eq!(c.within(3, 23, 0x1FF), (0b1_1010_0000, 0b1_1010_0000));
    }
}
