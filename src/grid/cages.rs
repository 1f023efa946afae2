//! Killer cages: groups of orthogonally connected cells that together cover the grid, each
//! with the sum of its digits (which never repeat inside a cage).
//!
//! Cages are numbered in the order their first cell appears, reading row by row, so one
//! partition has one numbering whatever form it was read from.
//!
//! The text form (one puzzle per line, see the README) is three tokens: the givens, the
//! cage map (one symbol per cell naming its cage: `A`–`Z`, `a`–`z`, `0`–`9`) and the sums,
//! comma-separated, in the order the cages first appear:
//!
//! ```text
//! ................ AABBCDDBCEFFGEHH 3,9,5,5,4,7,4,3
//! ```

use super::cell::{cell_name, cell_names, orthogonal_neighbours, parse_cell_name};
use super::Geometry;
use std::fmt::Write as _;
use std::ops::Range;
use std::sync::OnceLock;
use thiserror::Error;

/// Cage symbols of the text form, in the order [`Cages::to_text`] uses them.
pub const CAGE_SYMBOLS: &[u8; 62] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// The most cages one grid may have: one symbol each in the text form.
pub const MAX_CAGES: usize = CAGE_SYMBOLS.len();

/// A partition of the grid into cages with sums.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cages {
    n: u8,
    /// The cage of each cell.
    cage_of: Vec<u8>,
    /// The sum of each cage.
    sums: Vec<u16>,
    /// The cells of each cage, ascending.
    cells: Vec<Vec<u16>>,
}

/// Why a cage description is refused. Messages name the problem and the fix.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum CageError {
    /// The cage map does not have one symbol per cell.
    #[error("cage map has {found} cells, expected {expected} (one cage symbol per cell)")]
    MapLength {
        /// Symbols found.
        found: usize,
        /// Cells of the grid.
        expected: usize,
    },
    /// A symbol that names no cage.
    #[error("cage symbol '{0}' is not one of A-Z, a-z, 0-9")]
    BadSymbol(char),
    /// Not one sum per cage.
    #[error("{found} sums for {expected} cages: list one sum per cage, in the order the cages first appear")]
    SumCount {
        /// Sums given.
        found: usize,
        /// Cages in the map.
        expected: usize,
    },
    /// A sum that is no number.
    #[error("cage sum '{0}' is not a whole number")]
    BadSum(String),
    /// A cage whose cells do not touch each other.
    #[error("cage {cage} ({cells}) is not one orthogonally connected group")]
    Disconnected {
        /// Cage number from 1.
        cage: usize,
        /// Its cells.
        cells: String,
    },
    /// A cage with more cells than digits.
    #[error("cage {cage} ({cells}) has {size} cells, more than the {n} digits")]
    TooBig {
        /// Cage number from 1.
        cage: usize,
        /// Its cells.
        cells: String,
        /// Its size.
        size: usize,
        /// Digits of the grid.
        n: usize,
    },
    /// A sum no set of distinct digits of that size reaches.
    #[error("cage {cage} ({cells}) of {size} cells cannot sum to {sum}: distinct digits give {min} to {max}")]
    ImpossibleSum {
        /// Cage number from 1.
        cage: usize,
        /// Its cells.
        cells: String,
        /// Its size.
        size: usize,
        /// The sum asked.
        sum: u32,
        /// Least reachable sum.
        min: u32,
        /// Greatest reachable sum.
        max: u32,
    },
    /// More cages than the text form has symbols.
    #[error("{0} cages: at most 62 are supported")]
    TooMany(usize),
    /// A cell named in no cage, or in two.
    #[error("cell {cell} is in {count} cages: every cell belongs to exactly one")]
    Cover {
        /// The cell, as `r1c1`.
        cell: String,
        /// Cages naming it.
        count: usize,
    },
    /// A jsonl `cages` value of the wrong shape.
    #[error("{0}")]
    BadJson(String),
    /// A cell name that is not `rXcY` inside the grid.
    #[error("cell '{0}' is not a cell of the grid (write cells as r1c1)")]
    BadCell(String),
}

/// The least and greatest sums of `size` distinct digits from `1..=n`.
pub fn sum_range(n: usize, size: usize) -> (u32, u32) {
    let (n, k) = (n as u32, size as u32);
    (k * (k + 1) / 2, k * (2 * n - k + 1) / 2)
}

impl Cages {
    /// Cages from each cell's cage label (any numbers; cages are renumbered by first
    /// appearance) and the sums in the order the labels first appear.
    pub fn new(g: Geometry, labels: &[usize], sums: &[u32]) -> Result<Cages, CageError> {
        let n = g.n();
        if labels.len() != g.cells() {
            return Err(CageError::MapLength {
                found: labels.len(),
                expected: g.cells(),
            });
        }
        let mut numbering: Vec<(usize, u8)> = Vec::new();
        let mut cage_of = Vec::with_capacity(labels.len());
        for &label in labels {
            let number = match numbering.iter().find(|(l, _)| *l == label) {
                Some(&(_, k)) => k,
                None => {
                    if numbering.len() == MAX_CAGES {
                        let total = labels
                            .iter()
                            .collect::<std::collections::BTreeSet<_>>()
                            .len();
                        return Err(CageError::TooMany(total));
                    }
                    numbering.push((label, numbering.len() as u8));
                    numbering.len() as u8 - 1
                }
            };
            cage_of.push(number);
        }
        if sums.len() != numbering.len() {
            return Err(CageError::SumCount {
                found: sums.len(),
                expected: numbering.len(),
            });
        }
        let mut cells = vec![Vec::new(); numbering.len()];
        for (cell, &k) in cage_of.iter().enumerate() {
            cells[k as usize].push(cell as u16);
        }
        let cages = Cages {
            n: n as u8,
            cage_of,
            sums: sums
                .iter()
                .map(|&s| s.min(u16::MAX as u32) as u16)
                .collect(),
            cells,
        };
        cages.check_shapes(sums)?;
        Ok(cages)
    }

    /// Refuses cages that are not connected, too big, or with an unreachable sum.
    fn check_shapes(&self, sums: &[u32]) -> Result<(), CageError> {
        let n = self.n();
        for (k, cells) in self.cells.iter().enumerate() {
            // Named only for an error: merges build cages often.
            let (cage, names) = (k + 1, || self.cell_list(k));
            if cells.len() > n {
                return Err(CageError::TooBig {
                    cage,
                    cells: names(),
                    size: cells.len(),
                    n,
                });
            }
            if !self.connected(k) {
                return Err(CageError::Disconnected {
                    cage,
                    cells: names(),
                });
            }
            let (min, max) = sum_range(n, cells.len());
            if !(min..=max).contains(&sums[k]) {
                return Err(CageError::ImpossibleSum {
                    cage,
                    cells: names(),
                    size: cells.len(),
                    sum: sums[k],
                    min,
                    max,
                });
            }
        }
        Ok(())
    }

    /// Whether cage `k`'s cells form one orthogonally connected group.
    fn connected(&self, k: usize) -> bool {
        let (n, cells) = (self.n(), &self.cells[k]);
        let mut reached = vec![cells[0] as usize];
        let mut i = 0;
        while i < reached.len() {
            let c = reached[i];
            i += 1;
            for next in orthogonal_neighbours(n, c) {
                if self.cage_of[next] as usize == k && !reached.contains(&next) {
                    reached.push(next);
                }
            }
        }
        reached.len() == cells.len()
    }

    /// Reads the text form's cage map and sums tokens.
    pub fn parse(g: Geometry, map: &str, sums: &str) -> Result<Cages, CageError> {
        let labels = map
            .chars()
            .map(|ch| {
                CAGE_SYMBOLS
                    .iter()
                    .position(|&s| s as char == ch)
                    .ok_or(CageError::BadSymbol(ch))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let sums = sums
            .split(',')
            .map(|s| s.trim().parse().map_err(|_| CageError::BadSum(s.into())))
            .collect::<Result<Vec<u32>, _>>()?;
        Cages::new(g, &labels, &sums)
    }

    /// Cages from `(sum, cells)` lists (the jsonl form); every cell in exactly one cage.
    pub fn from_lists(g: Geometry, cages: &[(u32, Vec<usize>)]) -> Result<Cages, CageError> {
        let mut labels = vec![usize::MAX; g.cells()];
        let mut count = vec![0usize; g.cells()];
        for (k, (_, cells)) in cages.iter().enumerate() {
            for &c in cells {
                if c >= g.cells() {
                    return Err(CageError::BadCell(format!("cell number {c}")));
                }
                labels[c] = k;
                count[c] += 1;
            }
        }
        if let Some(c) = (0..g.cells()).find(|&c| count[c] != 1) {
            return Err(CageError::Cover {
                cell: cell_name(g.n(), c),
                count: count[c],
            });
        }
        Cages::from_labels(g, &labels, |k| cages[k].0)
    }

    /// Cages from each cell's label and each label's sum (`sum_of(label)`), whatever the
    /// labels' order: [`Cages::new`] with the sums put in first-appearance order.
    pub fn from_labels(
        g: Geometry,
        labels: &[usize],
        sum_of: impl Fn(usize) -> u32,
    ) -> Result<Cages, CageError> {
        let mut order: Vec<usize> = Vec::new();
        for &l in labels {
            if !order.contains(&l) {
                order.push(l);
            }
        }
        let sums: Vec<u32> = order.into_iter().map(sum_of).collect();
        Cages::new(g, labels, &sums)
    }

    /// Digits of the grid.
    #[inline]
    pub fn n(&self) -> usize {
        self.n as usize
    }

    /// Number of cages.
    #[inline]
    pub fn count(&self) -> usize {
        self.sums.len()
    }

    /// The sum of cage `k`.
    #[inline]
    pub fn sum(&self, k: usize) -> u32 {
        self.sums[k] as u32
    }

    /// The cells of cage `k`, ascending.
    #[inline]
    pub fn cells(&self, k: usize) -> &[u16] {
        &self.cells[k]
    }

    /// The cage of `cell`.
    #[inline]
    pub fn cage_of(&self, cell: usize) -> usize {
        self.cage_of[cell] as usize
    }

    /// Whether every cell of cage `k` is one of `cells` (a unit's: the cage is then one of
    /// the unit's inside cages, for the 45 rule).
    pub fn lies_within(&self, k: usize, cells: &[u16]) -> bool {
        self.cells(k).iter().all(|c| cells.contains(c))
    }

    /// Cage `k`'s cells as `r1c1+r1c2`.
    pub fn cell_list(&self, k: usize) -> String {
        cell_names(self.n(), self.cells[k].iter().map(|&c| c as usize))
    }

    /// The cage map and sums tokens of the text form: `AABB… 3,7,…`.
    pub fn to_text(&self) -> String {
        let mut out: String = self
            .cage_of
            .iter()
            .map(|&k| CAGE_SYMBOLS[k as usize] as char)
            .collect();
        for (k, s) in self.sums.iter().enumerate() {
            let sep = if k == 0 { ' ' } else { ',' };
            let _ = write!(out, "{sep}{s}");
        }
        out
    }

    /// Each cage as `(sum, cells)`, in cage order.
    pub fn lists(&self) -> Vec<(u32, Vec<usize>)> {
        (0..self.count())
            .map(|k| {
                let cells = self.cells[k].iter().map(|&c| c as usize).collect();
                (self.sum(k), cells)
            })
            .collect()
    }

    /// The jsonl form: `[{"sum": 15, "cells": ["r1c1", "r1c2"]}, …]`, in cage order.
    pub fn to_json(&self) -> serde_json::Value {
        let n = self.n();
        let list = (0..self.count())
            .map(|k| {
                let cells: Vec<String> = self.cells[k]
                    .iter()
                    .map(|&c| cell_name(n, c as usize))
                    .collect();
                serde_json::json!({ "sum": self.sum(k), "cells": cells })
            })
            .collect();
        serde_json::Value::Array(list)
    }

    /// Reads the jsonl form back (cages in any order, cells named `r1c1`).
    pub fn from_json(g: Geometry, value: &serde_json::Value) -> Result<Cages, CageError> {
        let bad = |what: &str| CageError::BadJson(what.to_string());
        let list = value.as_array().ok_or_else(|| {
            bad("\"cages\" must be a list of {\"sum\": N, \"cells\": [\"r1c1\", …]}")
        })?;
        let mut cages = Vec::with_capacity(list.len());
        for (i, cage) in list.iter().enumerate() {
            let sum = cage
                .get("sum")
                .and_then(serde_json::Value::as_u64)
                .ok_or_else(|| bad(&format!("cage {} has no whole-number \"sum\"", i + 1)))?;
            let names = cage
                .get("cells")
                .and_then(serde_json::Value::as_array)
                .ok_or_else(|| bad(&format!("cage {} has no \"cells\" list", i + 1)))?;
            let cells = names
                .iter()
                .map(|name| {
                    let text = name.as_str().unwrap_or_default();
                    parse_cell_name(g.n(), text).ok_or_else(|| CageError::BadCell(text.into()))
                })
                .collect::<Result<Vec<_>, _>>()?;
            cages.push((sum.min(u32::MAX as u64) as u32, cells));
        }
        Cages::from_lists(g, &cages)
    }

    /// The cages with every cell moved by `map` (a symmetry of the square), renumbered.
    pub fn mapped(&self, map: impl Fn(usize) -> usize) -> Cages {
        let mut labels = vec![0usize; self.cage_of.len()];
        for (cell, &k) in self.cage_of.iter().enumerate() {
            labels[map(cell)] = k as usize;
        }
        Cages::from_labels(
            Geometry::for_size(self.n()).expect("a supported size"),
            &labels,
            |k| self.sum(k),
        )
        .expect("a symmetry keeps cages valid")
    }

    /// The first cage `full` breaks: a digit twice in it, or (when all its cells are
    /// filled) a sum other than its own, or (when some are open) a sum already exceeded.
    pub fn find_broken(&self, cells: &[u8]) -> Option<CageBreak> {
        for (k, members) in self.cells.iter().enumerate() {
            let (mut seen, mut total, mut open) = (0u32, 0u32, 0usize);
            for &c in members {
                let v = cells[c as usize];
                if v == 0 {
                    open += 1;
                    continue;
                }
                if seen & 1 << v != 0 {
                    return Some(CageBreak::Repeat { cage: k, digit: v });
                }
                seen |= 1 << v;
                total += v as u32;
            }
            let (least_rest, _) = sum_range(self.n(), open);
            if (open == 0 && total != self.sum(k)) || total + least_rest > self.sum(k) {
                return Some(CageBreak::Sum {
                    cage: k,
                    found: total,
                });
            }
        }
        None
    }
}

/// How a grid breaks a cage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CageBreak {
    /// A digit twice in cage `cage`.
    Repeat {
        /// The cage.
        cage: usize,
        /// The digit.
        digit: u8,
    },
    /// Cage `cage`'s filled cells sum to `found`, which its sum cannot be.
    Sum {
        /// The cage.
        cage: usize,
        /// The sum of its filled cells.
        found: u32,
    },
}

/// For every cage size and sum, the sets of distinct digits (bit `d - 1` for digit `d`)
/// that have that size and sum.
pub struct Combinations {
    max_sum: usize,
    /// `ranges[size * (max_sum + 1) + sum]` indexes `sets`.
    ranges: Vec<Range<u32>>,
    sets: Vec<u16>,
}

impl Combinations {
    /// The table for digits `1..=n`, built once per process.
    pub fn of(n: usize) -> &'static Combinations {
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
    pub fn of_size_and_sum(&self, size: usize, sum: u32) -> &[u16] {
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
    pub fn within(&self, size: usize, sum: u32, available: u16) -> (u16, u16) {
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

    fn four() -> Geometry {
        Geometry::for_size(4).unwrap()
    }

    #[test]
    fn text_form_round_trips_and_renumbers() {
        let c = Cages::parse(four(), "xxyyzwwyzqrrsqtt", "3,9,5,5,4,7,4,3").unwrap();
        assert_eq!(c.count(), 8);
        assert_eq!(c.to_text(), "AABBCDDBCEFFGEHH 3,9,5,5,4,7,4,3");
        assert_eq!(c.cell_list(1), "r1c3+r1c4+r2c4");
        let again = Cages::from_lists(four(), &c.lists()).unwrap();
        assert_eq!(again, c);
        let json = c.to_json();
        assert_eq!(json[1]["cells"][2], "r2c4");
        assert_eq!(json[1]["sum"], 9);
        assert_eq!(Cages::from_json(four(), &json).unwrap(), c);
        let err = Cages::from_json(four(), &serde_json::json!([{"sum": 3}])).unwrap_err();
        assert_eq!(err.to_string(), "cage 1 has no \"cells\" list");
    }

    #[test]
    fn bad_cages_are_named() {
        let g = four();
        let err = |map: &str, sums: &str| Cages::parse(g, map, sums).unwrap_err().to_string();
        assert_eq!(
            err("AABBCDDBCEFFGEHH", "3,7"),
            "2 sums for 8 cages: list one sum per cage, in the order the cages first appear"
        );
        assert!(err("AABBCDDBCEFFGEHA", "7,9,5,5,4,7,4,3").contains("not one orthogonally"));
        assert!(err("AAB", "1").contains("3 cells, expected 16"));
        assert!(err("AABBCDDBCEFFGEH!", "3,9,5,5,4,7,4,3").contains("symbol '!'"));
        assert_eq!(
            err("AABBCDDBCEFFGEHH", "2,9,5,5,4,7,4,3"),
            "cage 1 (r1c1+r1c2) of 2 cells cannot sum to 2: distinct digits give 3 to 7"
        );
        assert!(err("AAAAACDBCEFFGEHH", "10,9,5,5,4,7,4,3").contains("more than the 4 digits"));
    }

    #[test]
    fn broken_cages_are_found() {
        let c = Cages::parse(four(), "AABBCDDBCEFFGEHH", "3,9,5,5,4,7,4,3").unwrap();
        let mut cells = vec![0u8; 16];
        assert_eq!(c.find_broken(&cells), None);
        cells[0] = 2;
        assert_eq!(c.find_broken(&cells), None);
        cells[1] = 2;
        assert_eq!(
            c.find_broken(&cells),
            Some(CageBreak::Repeat { cage: 0, digit: 2 })
        );
        cells[1] = 3;
        assert_eq!(
            c.find_broken(&cells),
            Some(CageBreak::Sum { cage: 0, found: 5 })
        );
        cells[1] = 0;
        cells[0] = 3; // 3 + at least 1 > 3
        assert_eq!(
            c.find_broken(&cells),
            Some(CageBreak::Sum { cage: 0, found: 3 })
        );
    }

    #[test]
    fn cell_names() {
        assert_eq!(cell_name(9, 80), "r9c9");
        assert_eq!(parse_cell_name(9, "r9c9"), Some(80));
        assert_eq!(parse_cell_name(9, "r10c1"), None);
        assert_eq!(parse_cell_name(9, "x1"), None);
        assert_eq!(sum_range(9, 9), (45, 45));
        assert_eq!(sum_range(9, 2), (3, 17));
    }

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
