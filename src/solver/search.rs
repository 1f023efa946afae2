//! The bitmask search engine, monomorphised per grid side so 9×9 pays nothing for
//! the other sizes.
//!
//! A board holds one candidate mask per cell. Placing a digit clears it from the
//! peers; a peer left with one candidate is queued (naked single); units touched by a
//! change are rescanned for digits with one place left (hidden single). When nothing
//! more follows, the search branches on a cell with the fewest candidates.

use super::tables::Tables;
use super::{Aborted, SearchStats};
use std::time::Instant;

/// How often (in nodes) the deadline is read.
const DEADLINE_CHECK_INTERVAL: u64 = 256;

/// Candidate state of a grid of `CELLS` cells.
#[derive(Clone, Copy)]
pub(super) struct Board<const CELLS: usize> {
    /// Candidate digits per cell (bit `d-1` for digit `d`); a placed cell keeps only its digit.
    cand: [u16; CELLS],
    /// Placed digit per cell, `0` while open.
    value: [u8; CELLS],
    /// Number of open cells.
    open: u32,
}

/// Chooses the order in which a branch tries its candidates.
pub(super) trait BranchOrder {
    /// Writes the digits (bits) of `mask` into `out` in the order to try; returns how many.
    fn order(&mut self, mask: u16, out: &mut [u16; 16]) -> usize;
}

/// Lowest digit first: the deterministic order of plain solving.
pub(super) struct Ascending;

impl BranchOrder for Ascending {
    #[inline]
    fn order(&mut self, mut mask: u16, out: &mut [u16; 16]) -> usize {
        let mut k = 0;
        while mask != 0 {
            out[k] = mask & mask.wrapping_neg();
            mask &= mask - 1;
            k += 1;
        }
        k
    }
}

/// Search context shared by every node of one search.
pub(super) struct Search<'t, O> {
    tables: &'t Tables,
    order: O,
    limit: u64,
    deadline: Option<Instant>,
    /// Solutions found so far.
    pub(super) count: u64,
    /// Values of the first solution found.
    pub(super) first: Option<Vec<u8>>,
    pub(super) stats: SearchStats,
    pub(super) aborted: bool,
    queue: Vec<u16>,
    dirty: u64,
}

impl<'t, O: BranchOrder> Search<'t, O> {
    pub(super) fn new(tables: &'t Tables, order: O, limit: u64, deadline: Option<Instant>) -> Self {
        Search {
            tables,
            order,
            limit,
            deadline,
            count: 0,
            first: None,
            stats: SearchStats::default(),
            aborted: false,
            queue: Vec::with_capacity(256),
            dirty: 0,
        }
    }

    /// The board for `clues` (`0` = open), or `None` when two clues clash.
    pub(super) fn board<const N: usize, const CELLS: usize>(
        &mut self,
        clues: &[u8],
    ) -> Option<Board<CELLS>> {
        let all: u16 = ((1u32 << N) - 1) as u16;
        let mut b = Board {
            cand: [all; CELLS],
            value: [0; CELLS],
            open: CELLS as u32,
        };
        self.queue.clear();
        self.dirty = if 3 * N == 64 {
            u64::MAX
        } else {
            (1u64 << (3 * N)) - 1
        };
        // Clues fill used-digit masks per unit; open cells get what is left. Much cheaper
        // than placing clue by clue, which matters when digging rebuilds boards constantly.
        let boxes_of = &self.tables.cell_box;
        let (mut rows, mut cols, mut boxes) = ([0u16; N], [0u16; N], [0u16; N]);
        for (cell, &v) in clues.iter().enumerate().take(CELLS) {
            if v != 0 {
                let bit = 1u16 << (v - 1);
                let (r, c, x) = (cell / N, cell % N, boxes_of[cell] as usize);
                if (rows[r] | cols[c] | boxes[x]) & bit != 0 {
                    return None;
                }
                rows[r] |= bit;
                cols[c] |= bit;
                boxes[x] |= bit;
                b.cand[cell] = bit;
                b.value[cell] = v;
                b.open -= 1;
            }
        }
        for (cell, &x) in boxes_of.iter().enumerate().take(CELLS) {
            if b.value[cell] == 0 {
                let (r, c, x) = (cell / N, cell % N, x as usize);
                let m = all & !(rows[r] | cols[c] | boxes[x]);
                if m == 0 {
                    return None;
                }
                b.cand[cell] = m;
                if m & (m - 1) == 0 {
                    self.queue.push(cell as u16);
                }
            }
        }
        Some(b)
    }

    /// Removes digit `digit` from an open cell's candidates; `false` on contradiction.
    pub(super) fn exclude<const CELLS: usize>(
        &mut self,
        b: &mut Board<CELLS>,
        cell: usize,
        digit: u8,
    ) -> bool {
        let bit = 1u16 << (digit - 1);
        if b.value[cell] != 0 {
            return b.cand[cell] != bit;
        }
        let m = b.cand[cell] & !bit;
        b.cand[cell] = m;
        self.dirty |= self.tables.cell_units[cell];
        if m == 0 {
            return false;
        }
        if m & (m - 1) == 0 {
            self.queue.push(cell as u16);
        }
        true
    }

    /// Places digit `bit` in open `cell` and clears it from the peers.
    #[inline]
    fn assign<const CELLS: usize>(&mut self, b: &mut Board<CELLS>, cell: usize, bit: u16) -> bool {
        b.cand[cell] = bit;
        b.value[cell] = bit.trailing_zeros() as u8 + 1;
        b.open -= 1;
        let t = self.tables;
        self.dirty |= t.cell_units[cell];
        for &p in t.peers(cell) {
            let p = p as usize;
            let m = b.cand[p];
            if m & bit != 0 {
                let m = m ^ bit;
                b.cand[p] = m;
                if m == 0 {
                    return false;
                }
                if m & (m - 1) == 0 {
                    self.queue.push(p as u16);
                }
                self.dirty |= t.cell_units[p];
            }
        }
        true
    }

    /// Applies naked and hidden singles until nothing follows; `false` on contradiction.
    fn propagate<const N: usize, const CELLS: usize>(&mut self, b: &mut Board<CELLS>) -> bool {
        let all: u16 = ((1u32 << N) - 1) as u16;
        loop {
            while let Some(p) = self.queue.pop() {
                let p = p as usize;
                if b.value[p] == 0 && !self.assign(b, p, b.cand[p]) {
                    return false;
                }
            }
            if self.dirty == 0 || b.open == 0 {
                return true;
            }
            let mut units = self.dirty;
            self.dirty = 0;
            while units != 0 {
                let u = units.trailing_zeros() as usize;
                units &= units - 1;
                let cells = self.tables.unit(u);
                let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
                for &c in cells {
                    let m = b.cand[c as usize];
                    twice |= once & m;
                    once |= m;
                    if b.value[c as usize] != 0 {
                        placed |= m;
                    }
                }
                if once != all {
                    return false;
                }
                let mut singles = once & !twice & !placed;
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles &= singles - 1;
                    let Some(&c) = cells.iter().find(|&&c| b.cand[c as usize] & bit != 0) else {
                        return false;
                    };
                    let c = c as usize;
                    if b.value[c] != 0 {
                        // The cell was just filled with another digit: `bit` has no place left.
                        return false;
                    }
                    if !self.assign(b, c, bit) {
                        return false;
                    }
                }
            }
        }
    }

    /// Explores `b` and its branches, counting solutions up to the limit.
    pub(super) fn run<const N: usize, const CELLS: usize>(&mut self, mut b: Board<CELLS>) {
        self.stats.nodes += 1;
        if let Some(deadline) = self.deadline {
            // Checked at the first node too, so an expired deadline aborts at once.
            if self.stats.nodes % DEADLINE_CHECK_INTERVAL == 1 && Instant::now() >= deadline {
                self.aborted = true;
            }
        }
        if self.aborted {
            return;
        }
        let ok = self.propagate::<N, CELLS>(&mut b);
        if !ok {
            self.queue.clear();
            self.dirty = 0;
            self.stats.backtracks += 1;
            return;
        }
        if b.open == 0 {
            self.count += 1;
            if self.first.is_none() {
                self.first = Some(b.value.to_vec());
            }
            return;
        }
        let cell = most_constrained::<CELLS>(&b);
        let mut digits = [0u16; 16];
        let k = self.order.order(b.cand[cell], &mut digits);
        for &bit in &digits[..k] {
            self.stats.guesses += 1;
            let mut child = b;
            if self.assign(&mut child, cell, bit) {
                self.run::<N, CELLS>(child);
            } else {
                self.queue.clear();
                self.dirty = 0;
                self.stats.backtracks += 1;
            }
            if self.count >= self.limit || self.aborted {
                return;
            }
        }
    }

    /// `Err(Aborted)` when the deadline cut the search short.
    pub(super) fn finished(&self) -> Result<(), Aborted> {
        if self.aborted {
            Err(Aborted)
        } else {
            Ok(())
        }
    }
}

/// An open cell with the fewest candidates (the first such in cell order).
#[inline]
fn most_constrained<const CELLS: usize>(b: &Board<CELLS>) -> usize {
    let mut best = usize::MAX;
    let mut best_count = u32::MAX;
    for cell in 0..CELLS {
        if b.value[cell] == 0 {
            let k = b.cand[cell].count_ones();
            if k < best_count {
                best = cell;
                best_count = k;
                if k == 2 {
                    break;
                }
            }
        }
    }
    best
}
