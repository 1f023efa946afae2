//! The band search, monomorphised per grid shape so 9×9 pays nothing for the other sizes.
//!
//! The board is digit-major: for every digit and every band (stripe of `BR` rows), a
//! `u64` of the cells where that digit may still go (see [`super::band_tables`]). A change
//! to one digit's band is settled with table lookups: the rows × boxes pattern is reduced
//! to the union of its permutations (each row and box of the band gets the digit once, so
//! this includes pointing and claiming inside the band, and box hidden singles), and a row
//! left with one cell places the digit there. A placement clears the cell for the other
//! digits and the column in the other bands. When no band changes, cells with one
//! candidate left are placed (naked singles), then each stack's bands × columns pattern
//! gets the same permutation reduction (locked candidates along columns, column singles);
//! when nothing follows, the search branches on an open cell with two candidates, else on
//! one with the fewest (see [`branch_cell`]).
//!
//! Const parameters: `N` digits, `BR` rows per band (= boxes per band), `DB = N * bands`
//! digit-band words.

use super::band_tables::BandTables;
use super::cages::CageTable;
use super::{Aborted, SearchStats};
use std::time::Instant;

mod cage_pass;
mod configurations;
mod support;
mod triads;

use configurations::Configurations;

/// How often (in nodes) the deadline is read.
const DEADLINE_CHECK_INTERVAL: u64 = 256;

/// Candidate state of a grid.
#[derive(Clone, Copy)]
pub(super) struct Board<const DB: usize, const BANDS: usize> {
    /// `cand[d * BANDS + b]`: cells of band `b` where digit `d + 1` may go (a placed cell
    /// keeps only its digit).
    cand: [u64; DB],
    /// Cells of each band not yet placed.
    open: [u64; BANDS],
}

impl<const DB: usize, const BANDS: usize> Board<DB, BANDS> {
    /// Calls `f(cell, d)` for each candidate, digit `d + 1` at `cell` (grid order).
    #[inline(always)]
    fn each_candidate<const N: usize, const BR: usize>(&self, mut f: impl FnMut(usize, usize)) {
        let band_cells = BR * N;
        for d in 0..N {
            for k in 0..BANDS {
                let mut m = self.cand[d * BANDS + k];
                while m != 0 {
                    f(k * band_cells + m.trailing_zeros() as usize, d);
                    m &= m - 1;
                }
            }
        }
    }

    /// The digits (bit `d` for digit `d + 1`) still possible in cell `bit` of band `k`,
    /// gathered without a branch per digit.
    #[inline(always)]
    fn digits_of<const N: usize>(&self, k: usize, bit: u64) -> u16 {
        let mut digits = 0u32;
        for d in 0..N {
            digits |= ((self.cand[d * BANDS + k] & bit != 0) as u32) << d;
        }
        digits as u16
    }
}

/// What a finished search found.
pub(super) struct Found {
    /// Solutions, at most the limit.
    pub(super) count: u64,
    /// Values of the first solution.
    pub(super) first: Option<Vec<u8>>,
    /// Values of the second solution.
    pub(super) second: Option<Vec<u8>>,
    /// Values of every solution, in the order found, when the search kept them all
    /// ([`Search::keeping_all`]; empty otherwise).
    pub(super) all: Vec<Vec<u8>>,
    pub(super) stats: SearchStats,
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

/// The fastest tree ([`Search::with_configuration_branching`]) branches on cells, without
/// the minirow rule, at nodes with at most this many open cells: there the rule's pass
/// costs more than the nodes it saves, and a cell branch finds solutions sooner (the
/// threshold is measured: design notes, "The minirow rule").
const FEW_OPEN_CELLS: u32 = 30;

/// Rule sets with at most this many extra units (the diagonals) do not keep which units
/// are settled ([`Search::units_settled`]).
const FEW_UNITS: usize = 2;

/// The candidates and open cells the cage pass last saw ([`Search::cage_seen`]).
type CageSeen = ([u64; 64], [u64; 4]);

/// Search context shared by every node of one search. `SINGLES_ONLY` propagates by
/// singles alone (no locked candidates); a constant, so the usual search pays nothing.
pub(super) struct Search<'t, O, const SINGLES_ONLY: bool = false> {
    tables: &'t BandTables,
    order: O,
    limit: u64,
    deadline: Option<Instant>,
    /// Solutions found so far.
    pub(super) count: u64,
    /// Values of the first solution found.
    pub(super) first: Option<Vec<u8>>,
    /// Values of the second solution found.
    pub(super) second: Option<Vec<u8>>,
    pub(super) stats: SearchStats,
    aborted: bool,
    /// The most nodes the search may examine before it gives up undecided.
    node_budget: u64,
    /// Whether it gave up so.
    over_budget: bool,
    /// Digit-band words changed since they were last settled (bit `d * BANDS + b`).
    dirty: u64,
    /// Digit-band words changed since the last pass over the stacks.
    stale: u64,
    /// Keep the values of the first solution (off when only the count matters).
    pub(super) keep_first: bool,
    /// Every solution's values, when the search keeps them all ([`Self::keeping_all`]).
    all: Option<Vec<Vec<u8>>>,
    /// The nodes such a search may go on for past its first solution.
    after_first: u64,
    /// Whether the rule set or the puzzle adds units (see [`Self::settle_extra_units`]).
    extra_units: bool,
    /// Those units, as band words: the rule set's, or a jigsaw puzzle's regions.
    units: &'t [[u64; 4]],
    /// Per digit, the units (bit `x` for unit `x`) where it is placed and gone from every
    /// other cell: settled for good on this line of the search, so the extra units' pass
    /// skips them (saved and restored around each branch). Kept only with more than
    /// [`FEW_UNITS`] units: a jigsaw's nine regions cost 6 % fewer instructions in a hard
    /// fill, the diagonals' two 0.5 % more.
    units_settled: [u16; 16],
    /// Whether `units_settled` is kept.
    settling_units: bool,
    /// Per band, the units (bit `x` for unit `x`) with a cell in it: a unit whose bands
    /// hold no changed word of a digit is as it was for that digit (see
    /// [`Self::settle_extra_units`]).
    band_units: [u16; 4],
    /// Whether the rule set keeps cells a move apart or bars digits beside a digit (see
    /// [`Self::clear_near`]): one flag, so that the usual search tests one.
    near: bool,
    /// The killer cages, if any.
    cages: Option<&'t CageTable>,
    /// The candidates and open cells when the cage pass last started on this line of the
    /// search: cages whose cells have not changed since are skipped (saved and restored
    /// around each branch, so a sibling compares with its own parent).
    /// Boxed, and only under cages: a search moves through its builders by value, and
    /// with this inline, growing the struct by `units_settled` made classic digging copy
    /// more (+0.9 % instructions).
    cage_seen: Option<Box<CageSeen>>,
    /// Whether the cage pass keeps to the steps the killer rater takes too (see
    /// [`Self::with_rater_cage_steps`]).
    rater_cage_steps: bool,
    /// Whether the cage pass locks a digit a cage must hold in the units its places there
    /// share (see [`Self::lock_in_cage`]; off to replay generator version 3).
    lock_cages: bool,
    /// Whether a 9×9 search with boxes branches on a digit's order in a band or stack
    /// rather than on a cell (see [`Self::with_configuration_branching`]).
    configurations: bool,
    /// Whether propagation takes out digits that a touching cell leaves no room beside
    /// (see [`support`]).
    neighbour_support: bool,
    /// Whether a digit's places in a unit of [`Self::units`] that share a row or column
    /// leave the rest of that line (see [`Self::point_from_unit`]).
    unit_pointing: bool,
}

/// The shape constants of one monomorphisation.
struct Shape<const N: usize, const BR: usize, const DB: usize>;

impl<const N: usize, const BR: usize, const DB: usize> Shape<N, BR, DB> {
    const BAND_CELLS: usize = BR * N;

    /// The band of cell number `cell` and the cell's bit in that band's words.
    #[inline(always)]
    fn band_and_bit(cell: usize) -> (usize, u64) {
        (cell / Self::BAND_CELLS, 1u64 << (cell % Self::BAND_CELLS))
    }
    const ROW: u64 = (1u64 << N) - 1;
    /// Multiplier copying a row's `N` bits to every row of a band.
    const SPREAD: u64 = {
        let mut m = 0u64;
        let mut r = 0;
        while r < BR {
            m |= 1 << (r * N);
            r += 1;
        }
        m
    };
    /// The columns (`N` bits) where a band word has a cell.
    #[inline(always)]
    fn columns(word: u64) -> u64 {
        (0..BR).fold(0, |cols, r| cols | ((word >> (r * N)) & Self::ROW))
    }

    /// Digit-band word -> its band and its digit (cheaper than dividing by the bands).
    const BAND_OF: [u8; 64] = Self::split(true);
    const DIGIT_OF: [u8; 64] = Self::split(false);
    const fn split(band: bool) -> [u8; 64] {
        let (mut out, mut i) = ([0u8; 64], 0);
        let bands = DB / N;
        while i < DB {
            out[i] = if band { i % bands } else { i / bands } as u8;
            i += 1;
        }
        out
    }

    /// Whether the cells of a band word lie in different rows and in different boxes.
    fn one_per_row_and_box(cells: u64, band_box: &[u64; 4]) -> bool {
        let single = |m: u64| m & m.wrapping_sub(1) == 0;
        (0..BR).all(|r| single((cells >> (r * N)) & Self::ROW))
            && band_box.iter().take(BR).all(|&bx| single(cells & bx))
    }

    /// Every rows × boxes pattern of a band, as a mask.
    const PATTERN: usize = (1 << (BR * BR)) - 1;

    const BAND: u64 = if BR * N == 64 {
        u64::MAX
    } else {
        (1u64 << (BR * N)) - 1
    };
}

impl<'t, O: BranchOrder, const SINGLES_ONLY: bool> Search<'t, O, SINGLES_ONLY> {
    pub(super) fn new(
        tables: &'t BandTables,
        order: O,
        limit: u64,
        deadline: Option<Instant>,
    ) -> Self {
        assert!(
            tables.extra_units.len() <= 16,
            "one bit a unit in `units_settled`"
        );
        Search {
            tables,
            order,
            limit,
            deadline,
            count: 0,
            first: None,
            second: None,
            stats: SearchStats::default(),
            aborted: false,
            node_budget: u64::MAX,
            over_budget: false,
            dirty: 0,
            stale: 0,
            keep_first: true,
            all: None,
            after_first: 0,
            extra_units: !tables.extra_units.is_empty(),
            units: &tables.extra_units,
            units_settled: [0; 16],
            settling_units: tables.extra_units.len() > FEW_UNITS,
            band_units: band_units(&tables.extra_units),
            near: !tables.apart.is_empty() || !tables.neighbours.is_empty(),
            cages: None,
            cage_seen: None,
            rater_cage_steps: false,
            lock_cages: true,
            configurations: false,
            neighbour_support: false,
            unit_pointing: false,
        }
    }

    /// The same search, with support under the rule set's neighbours rule where it has one
    /// ([`support`]): stronger propagation, so other trees, hence off where a tree or the
    /// solutions' order is stored.
    pub(super) fn with_neighbour_support(mut self, on: bool) -> Self {
        self.neighbour_support = on && !self.tables.neighbours.is_empty();
        self
    }

    /// The same search, giving up undecided after `nodes` nodes (see [`Self::found`]).
    pub(super) fn within_nodes(mut self, nodes: u64) -> Self {
        self.node_budget = nodes;
        self
    }

    /// The same search keeping every solution it finds, its node budget moved to
    /// `after_first` nodes past its first: what it found by then is its result, not a
    /// search given up (see [`Self::found`]). Nothing when `after_first` is `None`.
    pub(super) fn keeping_all(mut self, after_first: Option<u64>) -> Self {
        if let Some(after_first) = after_first {
            self.all = Some(Vec::new());
            self.after_first = after_first;
        }
        self
    }

    /// The same search settling a jigsaw puzzle's regions (as band words) where the boxes
    /// are; nothing when `regions` is `None`.
    pub(super) fn with_regions(mut self, regions: Option<&'t [[u64; 4]]>) -> Self {
        if let Some(regions) = regions {
            assert!(regions.len() <= 16, "one bit a unit in `units_settled`");
            self.units = regions;
            self.band_units = band_units(regions);
            self.settling_units = regions.len() > FEW_UNITS;
            self.extra_units = true;
        }
        self
    }

    /// The same search without [`Self::units_settled`], for tests that hold the two alike.
    #[cfg(test)]
    pub(super) fn without_settled_units(mut self) -> Self {
        self.settling_units = false;
        self
    }

    /// The same search branching on configurations ([`configurations`]) where it can: a
    /// 9×9 grid whose boxes bind, without cages, at nodes with more than
    /// [`FEW_OPEN_CELLS`] open cells; there it settles minirows too ([`triads`]). Fewer
    /// nodes on hard puzzles, but another tree: its statistics are not the bank's effort
    /// measure, and the solutions it finds first are others when there are several.
    pub(super) fn with_configuration_branching(mut self, on: bool) -> Self {
        self.configurations = on;
        self
    }

    /// The same search under killer cages too.
    pub(super) fn with_cages(mut self, cages: Option<&'t CageTable>) -> Self {
        self.cages = cages;
        self.cage_seen = cages.map(|_| Box::new(([0; 64], [0; 4])));
        self
    }

    /// The same search with pointing from its extra units on or off
    /// ([`Self::point_from_unit`]).
    pub(super) fn with_unit_pointing(mut self, on: bool) -> Self {
        self.unit_pointing = on;
        self
    }

    /// The same search with cage locking on or off ([`Self::lock_in_cage`]).
    pub(super) fn with_cage_locking(mut self, on: bool) -> Self {
        self.lock_cages = on;
        self
    }

    /// The same search with a cage pass that keeps to what the killer rater's cage
    /// combination and one-unit 45 rule also find: no cell-by-cell matching of a cage,
    /// and no placement from a row, column or box's virtual cage. Propagation alone then
    /// solves only puzzles those steps, singles, pointing and claiming solve (for
    /// [`super::solves_below`]).
    pub(super) fn with_rater_cage_steps(mut self) -> Self {
        self.rater_cage_steps = true;
        self
    }

    /// The board for `clues` (`0` = open), or `None` when two clues clash.
    pub(super) fn board<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        clues: &[u8],
    ) -> Option<Board<DB, BANDS>> {
        // Clue cells and the cells their rows, columns and boxes block, per digit-band
        // word, then each digit's candidates in one go. Much cheaper than placing clue by
        // clue, which matters when digging rebuilds boards constantly.
        let t = self.tables;
        let (mut given, mut blocked) = ([0u64; DB], [0u64; DB]);
        let mut b = Board {
            cand: [0; DB],
            open: [Shape::<N, BR, DB>::BAND; BANDS],
        };
        for (cell, &v) in clues.iter().enumerate() {
            if v != 0 {
                let (k, bit) = Shape::<N, BR, DB>::band_and_bit(cell);
                let words = (v as usize - 1) * BANDS;
                if blocked[words + k] & bit != 0 {
                    return None; // a clue of the same digit in its row, column or box
                }
                let peers = &t.peers[cell];
                for (word, &p) in blocked[words..words + BANDS].iter_mut().zip(peers) {
                    *word |= p;
                }
                given[words + k] |= bit;
                b.open[k] &= !bit;
            }
        }
        if !t.neighbours.is_empty()
            && !Self::bar_consecutive::<N, BR, DB, BANDS>(t, clues, &given, &mut blocked)
        {
            return None;
        }
        for (i, cand) in b.cand.iter_mut().enumerate() {
            let k = Shape::<N, BR, DB>::BAND_OF[i & 63] as usize;
            *cand = (b.open[k] & !blocked[i]) | given[i];
        }
        self.dirty = if DB == 64 { u64::MAX } else { (1 << DB) - 1 };
        self.stale = self.dirty;
        Some(b)
    }

    /// Blocks the digits consecutive to each clue in the cells touching it; `false` when
    /// such a cell is a clue of one of them.
    fn bar_consecutive<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        t: &BandTables,
        clues: &[u8],
        given: &[u64; DB],
        blocked: &mut [u64; DB],
    ) -> bool {
        for (cell, &v) in clues.iter().enumerate().filter(|(_, &v)| v != 0) {
            let d = v as usize - 1;
            for e in [d.wrapping_sub(1), d + 1].into_iter().filter(|&e| e < N) {
                for (k, &touching) in t.neighbours[cell].iter().enumerate().take(BANDS) {
                    if given[e * BANDS + k] & touching != 0 {
                        return false;
                    }
                    blocked[e * BANDS + k] |= touching;
                }
            }
        }
        true
    }

    /// The board with the digits `values` placed (0 = open) and the candidates `cands`
    /// (bit `d` for digit `d + 1`, per cell in grid order): a later state of some board,
    /// every placed digit already cleared from its peers.
    pub(super) fn board_from<
        const N: usize,
        const BR: usize,
        const DB: usize,
        const BANDS: usize,
    >(
        &mut self,
        values: &[u8],
        cands: &[u16],
    ) -> Board<DB, BANDS> {
        let mut b = Board {
            cand: [0; DB],
            open: [0; BANDS],
        };
        for (cell, (&value, &mask)) in values.iter().zip(cands).enumerate() {
            let (k, bit) = Shape::<N, BR, DB>::band_and_bit(cell);
            b.open[k] |= u64::from(value == 0) * bit;
            let mut m = mask;
            while m != 0 {
                b.cand[m.trailing_zeros() as usize * BANDS + k] |= bit;
                m &= m - 1;
            }
        }
        self.dirty = if DB == 64 { u64::MAX } else { (1 << DB) - 1 };
        self.stale = self.dirty;
        b
    }

    /// Removes digit `digit` from `cell`; `false` when `cell` is a clue of that digit.
    pub(super) fn exclude<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
        cell: usize,
        digit: u8,
    ) -> bool {
        let (k, bit) = Shape::<N, BR, DB>::band_and_bit(cell);
        let i = (digit as usize - 1) * BANDS + k;
        if b.open[k] & bit == 0 {
            return b.cand[i] & bit == 0;
        }
        b.cand[i] &= !bit;
        self.dirty |= 1 << i;
        self.stale |= 1 << i;
        true
    }

    /// Places digit `d` on the cells `cells` of band `k` (in different rows and boxes):
    /// clears them for the other digits when `others` may be there (a naked single has
    /// none), and the digit from their rows and boxes in the band and from their columns
    /// in the other bands.
    #[inline(always)]
    fn place<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
        d: usize,
        k: usize,
        cells: u64,
        others: bool,
    ) {
        b.open[k] &= !cells;
        let mut dirty = 0u64;
        if others {
            // Every digit, unrolled: cheaper than visiting only the digits of `others`.
            for e in 0..N {
                let i = e * BANDS + k;
                let old = b.cand[i];
                let new = old & !cells;
                b.cand[i] = new;
                dirty |= ((old != new) as u64) << i;
            }
        }
        let t = self.tables;
        // The rows and boxes of the cells, without a branch per cell.
        let mut peers = 0u64;
        for r in 0..BR {
            let row = Shape::<N, BR, DB>::ROW << (r * N);
            peers |= row & ((cells & row != 0) as u64).wrapping_neg();
        }
        for &cells_of_box in t.band_box.iter().take(BR) {
            peers |= cells_of_box & ((cells & cells_of_box != 0) as u64).wrapping_neg();
        }
        let columns = Shape::<N, BR, DB>::columns(cells).wrapping_mul(Shape::<N, BR, DB>::SPREAD);
        let i = d * BANDS + k;
        let old = b.cand[i] | cells;
        let new = cells | (old & !peers);
        b.cand[i] = new;
        dirty = (dirty & !(1 << i)) | (((old != new) as u64) << i);
        for other in 0..BANDS {
            // Branch-free: band `k` itself is left as it is.
            let clear = columns & ((other == k) as u64).wrapping_sub(1);
            let i = d * BANDS + other;
            let old = b.cand[i];
            let new = old & !clear;
            b.cand[i] = new;
            dirty |= ((old != new) as u64) << i;
        }
        self.dirty |= dirty;
        self.stale |= dirty;
        if self.near {
            self.clear_near::<N, BR, DB, BANDS>(b, d, k, cells);
        }
    }

    /// Takes digit `d` (from 0) out of the cells `words` (one word per band), marking the
    /// words it changes.
    #[inline(always)]
    fn clear_cells<const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
        d: usize,
        words: &[u64; 4],
    ) {
        for (other, &cells) in words.iter().enumerate().take(BANDS) {
            let i = d * BANDS + other;
            let old = b.cand[i];
            let new = old & !cells;
            if new != old {
                b.cand[i] = new;
                self.dirty |= 1 << i;
                self.stale |= 1 << i;
            }
        }
    }

    /// Takes what the rule set bars near a placement out of the cells near `cells` of band
    /// `k` (placed `d`): digit `d` from the cells its move keeps apart, the digits
    /// consecutive to `d` from the cells touching them. Placed cells too: one of them
    /// holding such a digit then leaves a row without it, which settling finds. Kept out
    /// of line so other searches carry none of its code.
    #[inline(never)]
    fn clear_near<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
        d: usize,
        k: usize,
        cells: u64,
    ) {
        let t = self.tables;
        let mut m = cells;
        while m != 0 {
            let cell = k * Shape::<N, BR, DB>::BAND_CELLS + m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(apart) = t.apart.get(cell) {
                self.clear_cells(b, d, apart);
            }
            if let Some(touching) = t.neighbours.get(cell) {
                for e in [d.wrapping_sub(1), d + 1].into_iter().filter(|&e| e < N) {
                    self.clear_cells(b, e, touching);
                }
            }
        }
    }

    /// Settles digit-band word `i`: keeps the row/box pairs some permutation uses, and
    /// places the digit in rows left with one cell. `false` on contradiction.
    #[inline(always)]
    fn settle<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
        i: usize,
    ) -> bool {
        let t = self.tables;
        let row_mask = Shape::<N, BR, DB>::ROW;
        let mut a = b.cand[i];
        let k = Shape::<N, BR, DB>::BAND_OF[i & 63] as usize;
        if a & b.open[k] == 0 {
            // Only placed cells are left: fine when there is one in every row.
            return a.count_ones() as usize == BR;
        }
        let mut pattern = 0usize;
        for r in 0..BR {
            let row = ((a >> (r * N)) & row_mask) as u16;
            pattern |= (t.boxes_of_row[row as usize] as usize) << (r * BR);
        }
        let keep = t.band_keep[pattern & Shape::<N, BR, DB>::PATTERN];
        if keep == 0 {
            return false;
        }
        let mut singles = 0u64;
        if SINGLES_ONLY {
            for cells in t.band_box.iter().take(BR) {
                let cells = a & cells;
                if cells.is_power_of_two() {
                    singles |= cells;
                }
            }
        } else {
            a &= keep;
        }
        for r in 0..BR {
            let row = (a >> (r * N)) & row_mask;
            // Branch-free: the row is never empty here (a permutation uses it).
            let single = (row & row.wrapping_sub(1) == 0) as u64;
            singles |= (row & single.wrapping_neg()) << (r * N);
        }
        self.stale |= ((a != b.cand[i]) as u64) << i;
        b.cand[i] = a;
        let new = singles & b.open[k];
        if new != 0 {
            let d = Shape::<N, BR, DB>::DIGIT_OF[i & 63] as usize;
            self.place::<N, BR, DB, BANDS>(b, d, k, new, true);
        }
        true
    }

    /// Settles changed words and places naked singles until nothing follows; `false` on
    /// contradiction.
    fn propagate<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
    ) -> bool {
        loop {
            while self.dirty != 0 {
                let i = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                if !self.settle::<N, BR, DB, BANDS>(b, i) {
                    return false;
                }
            }
            for k in 0..BANDS {
                let open = b.open[k];
                if open == 0 {
                    continue;
                }
                let (mut once, mut twice) = (0u64, 0u64);
                for d in 0..N {
                    let m = b.cand[d * BANDS + k];
                    twice |= once & m;
                    once |= m;
                }
                if open & !once != 0 {
                    return false;
                }
                let mut singles = open & !twice;
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles &= singles - 1;
                    // Its digit, without a branch per digit. A placement earlier in this loop
                    // may have taken the cell's last digit.
                    let digits = b.digits_of::<N>(k, bit);
                    if digits == 0 {
                        return false;
                    }
                    let d = digits.trailing_zeros() as usize;
                    // A naked single: no other digit is left in the cell.
                    self.place::<N, BR, DB, BANDS>(b, d, k, bit, false);
                }
            }
            if self.extra_units
                && self.dirty == 0
                && !self.settle_extra_units::<N, BR, DB, BANDS>(b)
            {
                return false;
            }
            if !SINGLES_ONLY
                && self.cages.is_some()
                && self.dirty == 0
                && !self.settle_cages::<N, BR, DB, BANDS>(b)
            {
                return false;
            }
            if self.dirty == 0 && !self.settle_stacks::<N, BR, DB, BANDS>(b) {
                return false;
            }
            if self.neighbour_support && self.dirty == 0 {
                let changed = support::settle::<N, BR, DB, BANDS>(b);
                self.dirty |= changed;
                self.stale |= changed;
            }
            if self.dirty == 0 {
                return true;
            }
        }
    }

    /// The stacks' counterpart of [`Self::settle`], for every digit: reduces each stack's
    /// bands × columns pattern to the union of its permutations (pointing along columns,
    /// claiming in columns), then places the digit in columns left with one cell. `false`
    /// on contradiction.
    #[inline]
    fn settle_stacks<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
    ) -> bool {
        let t = self.tables;
        let spread = Shape::<N, BR, DB>::SPREAD;
        // A stack is `box_cols` columns wide and crosses as many bands (one box in each).
        let bc = BANDS;
        let col_mask = (1u64 << bc) - 1;
        let band_words = (1u64 << BANDS) - 1;
        let stale = std::mem::take(&mut self.stale);
        // The digits with a changed word, found without a branch per digit.
        let mut digits = (0..N).fold(0u32, |m, d| {
            m | (((stale >> (d * BANDS)) & band_words != 0) as u32) << d
        });
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            // Columns (N bits) of each band that still hold the digit.
            let columns: [u64; BANDS] =
                std::array::from_fn(|k| Shape::<N, BR, DB>::columns(b.cand[d * BANDS + k]));
            let mut allowed = [0u64; BANDS];
            for s in 0..N / bc {
                let mut pattern = 0usize;
                for (k, &cols) in columns.iter().enumerate() {
                    pattern |= (((cols >> (s * bc)) & col_mask) as usize) << (k * bc);
                }
                let mut kept = t.stack_permutations[pattern & 0xFFFF] as u64;
                if kept == 0 {
                    return false;
                }
                if SINGLES_ONLY {
                    kept = pattern as u64;
                }
                for (k, cols) in allowed.iter_mut().enumerate() {
                    *cols |= ((kept >> (k * bc)) & col_mask) << (s * bc);
                }
            }
            let (mut once, mut twice) = (0u64, 0u64);
            for &cols in &allowed {
                twice |= once & cols;
                once |= cols;
            }
            let single = once & !twice;
            for (k, &allowed) in allowed.iter().enumerate() {
                let i = d * BANDS + k;
                let old = b.cand[i];
                let new = old & allowed.wrapping_mul(spread);
                if new != old {
                    b.cand[i] = new;
                    self.dirty |= 1 << i;
                    self.stale |= 1 << i;
                }
                // Column singles: open cells alone in their column. Found without a
                // branch per column (those branches were the search's worst predicted).
                let a = b.cand[i] & (allowed & single).wrapping_mul(spread);
                let (mut once, mut twice) = (0u64, 0u64);
                for r in 0..BR {
                    let row = (a >> (r * N)) & Shape::<N, BR, DB>::ROW;
                    twice |= once & row;
                    once |= row;
                }
                let new = a & !twice.wrapping_mul(spread) & b.open[k];
                if new != 0 {
                    if !Shape::<N, BR, DB>::one_per_row_and_box(new, &t.band_box) {
                        return false; // the digit would go twice in a row or box
                    }
                    self.place::<N, BR, DB, BANDS>(b, d, k, new, true);
                }
            }
        }
        true
    }

    /// The rule of the rule set's extra units (the diagonals, …), for every digit with a
    /// changed word: a digit placed in an extra unit leaves the rest of it; a digit left
    /// with one open cell in one (and not placed there) goes there. `false` on
    /// contradiction: the digit twice in a unit, or nowhere left in it. Leaves `stale` for
    /// the stacks' pass. Kept out of line so classic searches carry none of its code.
    #[inline(never)]
    fn settle_extra_units<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
    ) -> bool {
        let units = self.units;
        let band_words = (1u64 << BANDS) - 1;
        let mut digits = (0..N).fold(0u32, |m, d| {
            m | (((self.stale >> (d * BANDS)) & band_words != 0) as u32) << d
        });
        // One bit a unit: at most 16 (asserted where the search takes them), at least one
        // (or the pass would not run).
        let all = u16::MAX >> (16 - units.len());
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if self.settling_units {
                // Only units meeting a band whose word of the digit changed.
                let changed = (self.stale >> (d * BANDS)) & band_words;
                let touched = (0..BANDS)
                    .filter(|&k| changed >> k & 1 != 0)
                    .fold(0, |m, k| m | self.band_units[k]);
                let mut todo = all & touched & !self.units_settled[d];
                while todo != 0 {
                    let x = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    match self.settle_unit::<N, BR, DB, BANDS>(b, d, &units[x]) {
                        None => return false,
                        Some(true) => self.units_settled[d] |= 1 << x,
                        Some(false) => {}
                    }
                }
            } else if units
                .iter()
                .any(|unit| self.settle_unit::<N, BR, DB, BANDS>(b, d, unit).is_none())
            {
                return false;
            }
        }
        true
    }

    /// [`Self::settle_extra_units`] for digit `d` in one unit: `None` on contradiction, else
    /// whether the unit is settled (the digit placed in it and gone from its other cells).
    #[inline(always)]
    fn settle_unit<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
        d: usize,
        unit: &[u64; 4],
    ) -> Option<bool> {
        let (mut placed, mut open) = (0u32, 0u32);
        for (k, &on) in unit.iter().enumerate().take(BANDS) {
            let m = b.cand[d * BANDS + k] & on;
            placed += (m & !b.open[k]).count_ones();
            open += (m & b.open[k]).count_ones();
        }
        match (placed, open) {
            (0, 0) | (2.., _) => return None,
            (1, 0) => return Some(true),
            (1, _) => {
                for (k, &on) in unit.iter().enumerate().take(BANDS) {
                    self.clear_open(b, d, k, on);
                }
                return Some(true);
            }
            (0, 1) => {
                let k = (0..BANDS)
                    .find(|&k| b.cand[d * BANDS + k] & unit[k] & b.open[k] != 0)
                    .expect("one open cell");
                let cell = b.cand[d * BANDS + k] & unit[k] & b.open[k];
                self.place::<N, BR, DB, BANDS>(b, d, k, cell, true);
            }
            (0, _) if self.unit_pointing => self.point_from_unit::<N, BR, DB, BANDS>(b, unit, d),
            (0, _) => {}
        }
        Some(false)
    }

    /// Locked candidates from an extra unit: digit `d`'s open places in `unit` (two or
    /// more, none placed) that share a row, or a column, hold the digit in that line, so
    /// it leaves the line's other cells. The band patterns settle this for fixed boxes;
    /// a jigsaw's regions need it here.
    #[inline(always)]
    fn point_from_unit<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
        unit: &[u64; 4],
        d: usize,
    ) {
        let (mut bands, mut band, mut columns) = (0u32, 0, 0u64);
        for (k, &on) in unit.iter().enumerate().take(BANDS) {
            let places = b.cand[d * BANDS + k] & on & b.open[k];
            if places != 0 {
                bands += 1;
                band = k;
                columns |= Shape::<N, BR, DB>::columns(places);
            }
        }
        if columns.is_power_of_two() {
            let column = columns.wrapping_mul(Shape::<N, BR, DB>::SPREAD);
            for (k, &on) in unit.iter().enumerate().take(BANDS) {
                self.clear_open(b, d, k, column & !on);
            }
        }
        if bands == 1 {
            let places = b.cand[d * BANDS + band] & unit[band] & b.open[band];
            for r in 0..BR {
                let row = Shape::<N, BR, DB>::ROW << (r * N);
                if places & !row == 0 {
                    self.clear_open(b, d, band, row & !unit[band]);
                }
            }
        }
    }

    /// Takes digit `d` out of the open cells among `cells` of band `k`, marking its word
    /// changed when that removes something.
    #[inline(always)]
    fn clear_open<const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
        d: usize,
        k: usize,
        cells: u64,
    ) {
        let i = d * BANDS + k;
        let cleared = b.cand[i] & cells & b.open[k];
        if cleared != 0 {
            b.cand[i] &= !cleared;
            self.dirty |= 1 << i;
            self.stale |= 1 << i;
        }
    }

    /// The candidates of every cell (bit `d` for digit `d + 1`, cells in grid order) once
    /// propagation has run on `b`; `None` on a contradiction.
    pub(super) fn propagated<
        const N: usize,
        const BR: usize,
        const DB: usize,
        const BANDS: usize,
    >(
        &mut self,
        b: &mut Board<DB, BANDS>,
    ) -> Option<Vec<u16>> {
        if !self.propagate::<N, BR, DB, BANDS>(b) {
            return None;
        }
        let mut masks = vec![0u16; Shape::<N, BR, DB>::BAND_CELLS * BANDS];
        b.each_candidate::<N, BR>(|cell, d| masks[cell] |= 1 << d);
        Some(masks)
    }

    /// Whether propagation alone places every cell of `b`.
    pub(super) fn settles<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
    ) -> bool {
        self.propagate::<N, BR, DB, BANDS>(b) && b.open.iter().all(|&open| open == 0)
    }

    /// Explores `b` and its branches, counting solutions up to the limit.
    pub(super) fn run<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
    ) {
        self.stats.nodes += 1;
        if let Some(deadline) = self.deadline {
            // Checked at the first node too, so an expired deadline aborts at once.
            if self.stats.nodes % DEADLINE_CHECK_INTERVAL == 1 && Instant::now() >= deadline {
                self.aborted = true;
            }
        }
        if self.stats.nodes > self.node_budget {
            self.over_budget = true;
            self.aborted = true;
        }
        if self.aborted {
            return;
        }
        if !self.propagate::<N, BR, DB, BANDS>(b) {
            self.dead_end();
            return;
        }
        if self.branches_on_configurations::<N, BR>()
            && b.open.iter().map(|o| o.count_ones()).sum::<u32>() > FEW_OPEN_CELLS
        {
            let Some(places) = self.settle_triads::<N, BR, DB, BANDS>(b) else {
                self.dead_end();
                return;
            };
            if let Some(c) = Configurations::to_branch_on(b, &self.tables.band_box, &places) {
                self.branch::<N, BR, DB, BANDS>(b, c.count, |s, child, j| {
                    s.clear_cells(child, c.digit, &c.clears[j])
                });
                return;
            }
        }
        let Some((k, bit)) = branch_cell::<N, DB, BANDS>(b) else {
            self.solved::<N, BR, DB, BANDS>(b);
            return;
        };
        let mask = b.digits_of::<N>(k, bit);
        let mut digits = [0u16; 16];
        let count = self.order.order(mask, &mut digits);
        self.branch::<N, BR, DB, BANDS>(b, count, |s, child, j| {
            let d = digits[j].trailing_zeros() as usize;
            s.place::<N, BR, DB, BANDS>(child, d, k, bit, true);
        });
    }

    /// Whether this search branches on configurations ([`Self::with_configuration_branching`])
    /// and settles minirows ([`triads`]): a 9×9 grid whose boxes bind, without cages.
    #[inline(always)]
    fn branches_on_configurations<const N: usize, const BR: usize>(&self) -> bool {
        N == 9
            && BR == 3
            && self.configurations
            && self.cages.is_none()
            && self.tables.band_box[0] != 0
    }

    /// Gives up a node that has no solution.
    fn dead_end(&mut self) {
        self.dirty = 0;
        self.stale = 0;
        self.stats.backtracks += 1;
    }

    /// The minirow rule ([`triads`]) and propagation in turn until neither finds more: each
    /// digit's places then, or `None` on a contradiction.
    fn settle_triads<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
    ) -> Option<triads::Places> {
        loop {
            let (places, changed) = triads::settle(b)?;
            if changed == 0 {
                return Some(places);
            }
            self.dirty |= changed;
            self.stale |= changed;
            if !self.propagate::<N, BR, DB, BANDS>(b) {
                return None;
            }
        }
    }

    /// Searches the `count` children of `b` in turn, `make(self, child, j)` turning a copy
    /// of `b` into child `j` (the last is `b` itself, which needs no copy then), until
    /// the limit or the deadline. Each child starts from the cage pass's memory of `b`.
    #[inline(always)]
    fn branch<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &mut Board<DB, BANDS>,
        count: usize,
        mut make: impl FnMut(&mut Self, &mut Board<DB, BANDS>, usize),
    ) {
        let seen = self.cage_seen.as_deref().copied();
        let settled = self.settling_units.then_some(self.units_settled);
        for j in 0..count {
            self.stats.guesses += 1;
            if let (Some(seen), Some(now)) = (seen, self.cage_seen.as_deref_mut()) {
                *now = seen;
            }
            if let Some(settled) = settled {
                self.units_settled = settled;
            }
            if j + 1 == count {
                make(self, b, j);
                self.run::<N, BR, DB, BANDS>(b);
                return;
            }
            let mut child = *b;
            make(self, &mut child, j);
            self.run::<N, BR, DB, BANDS>(&mut child);
            if self.count >= self.limit || self.aborted {
                return;
            }
        }
    }

    /// Records a full board as a solution.
    fn solved<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
        &mut self,
        b: &Board<DB, BANDS>,
    ) {
        self.count += 1;
        let keep_all = self.all.is_some();
        if !keep_all && (self.second.is_some() || !self.keep_first) {
            return;
        }
        let mut values = vec![0u8; Shape::<N, BR, DB>::BAND_CELLS * BANDS];
        b.each_candidate::<N, BR>(|cell, d| values[cell] = d as u8 + 1);
        if let Some(all) = &mut self.all {
            if all.is_empty() {
                self.node_budget = self.stats.nodes.saturating_add(self.after_first);
            }
            all.push(values);
        } else if self.first.is_none() {
            self.first = Some(values);
        } else {
            self.second = Some(values);
        }
    }

    /// What the search found; `Err(Aborted)` when the deadline cut it short, `Ok(None)`
    /// when it ran out of nodes ([`Self::within_nodes`]) before any solution it keeps
    /// all of ([`Self::keeping_all`]).
    pub(super) fn found(self) -> Result<Option<Found>, Aborted> {
        let all = self.all.unwrap_or_default();
        if self.over_budget {
            if all.is_empty() {
                return Ok(None);
            }
        } else if self.aborted {
            return Err(Aborted);
        }
        Ok(Some(Found {
            count: self.count,
            first: self.first,
            second: self.second,
            all,
            stats: self.stats,
        }))
    }
}

/// Per band, the units of `units` (band words, one bit a unit) with a cell in it.
fn band_units(units: &[[u64; 4]]) -> [u16; 4] {
    let mut per_band = [0u16; 4];
    for (x, unit) in units.iter().enumerate().take(16) {
        for (k, &cells) in unit.iter().enumerate() {
            per_band[k] |= u16::from(cells != 0) << x;
        }
    }
    per_band
}

/// The open cell to branch on, as (band, cell bit): the first with two candidates in the
/// band with the most open cells (measured: fewer nodes and less time than the first such
/// cell anywhere), else the first with the fewest. `None` when every cell is placed.
#[inline]
fn branch_cell<const N: usize, const DB: usize, const BANDS: usize>(
    b: &Board<DB, BANDS>,
) -> Option<(usize, u64)> {
    let (mut pick, mut pick_open) = (None, 0);
    // Per band, the open cells and those with at least one to four candidates.
    let mut at_least = [[0u64; 5]; BANDS];
    for (k, levels) in at_least.iter_mut().enumerate() {
        let (mut once, mut twice, mut thrice, mut four) = (0u64, 0u64, 0u64, 0u64);
        for d in 0..N {
            let m = b.cand[d * BANDS + k] & b.open[k];
            four |= thrice & m;
            thrice |= twice & m;
            twice |= once & m;
            once |= m;
        }
        *levels = [b.open[k], once, twice, thrice, four];
        let pairs = twice & !thrice;
        let open = b.open[k].count_ones();
        if pairs != 0 && (pick.is_none() || open > pick_open) {
            pick = Some((k, pairs & pairs.wrapping_neg()));
            pick_open = open;
        }
    }
    if pick.is_some() {
        return pick;
    }
    // No cell with two: the first with the fewest, read off the levels up to three (after
    // propagation no open cell has fewer than two, but the order holds for any count).
    for count in [0, 1, 3] {
        for (k, levels) in at_least.iter().enumerate() {
            let exactly = levels[count] & !levels[count + 1];
            if exactly != 0 {
                return Some((k, exactly & exactly.wrapping_neg()));
            }
        }
    }
    // Four or more candidates in every open cell: count them.
    let mut best = None;
    let mut best_count = u32::MAX;
    for k in 0..BANDS {
        let mut open = b.open[k];
        while open != 0 {
            let bit = open & open.wrapping_neg();
            open &= open - 1;
            let count = (0..N)
                .map(|d| (b.cand[d * BANDS + k] & bit != 0) as u32)
                .sum::<u32>();
            if count < best_count {
                best = Some((k, bit));
                best_count = count;
            }
        }
    }
    best
}

/// A random grid of `g` found by the solver, and the clues left when each cell stays
/// with odds `keep` in the grid's cells: boards for the passes' tests.
#[cfg(test)]
fn random_clues(
    g: crate::grid::Geometry,
    rng: &mut crate::rng::Rand,
    keep: u32,
) -> (crate::grid::Grid, Vec<u8>) {
    let solution = super::Solver::new()
        .random_solution(&crate::grid::Grid::empty(g), rng)
        .unwrap()
        .unwrap();
    let cells = g.cells() as u32;
    let clues = (0..g.cells())
        .map(|c| match rng.below(cells) < keep {
            true => solution.get(c),
            false => 0,
        })
        .collect();
    (solution, clues)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rand;

    /// A board built from clues: `None` exactly when two clues of a digit share a row,
    /// column or box; otherwise every digit may go in its clue cells and in the open cells
    /// that see no clue of it. Random clue sets on every size, against the layout's peers.
    #[test]
    fn boards_from_clues_block_the_clues_peers() {
        use crate::grid::Geometry;
        use crate::solver::band_tables::band_tables;
        fn check<const N: usize, const BR: usize, const DB: usize, const BANDS: usize>(
            rng: &mut Rand,
        ) -> (usize, usize) {
            let g = Geometry::for_size(N).unwrap();
            let layout = g.layout();
            let mut s = Search::<_, false>::new(band_tables(g), Ascending, 1, None);
            let (mut clashing, mut built) = (0, 0);
            let solution = crate::generate::pattern_grid(g);
            for trial in 0..200 {
                // Half of a solution's cells (never clashing), or random digits in a
                // quarter of the cells (mostly clashing).
                let clues: Vec<u8> = (0..N * N)
                    .map(|c| match (trial % 2, rng.below(4)) {
                        (0, 0 | 1) => solution.get(c),
                        (1, 0) => 1 + rng.below(N as u32) as u8,
                        _ => 0,
                    })
                    .collect();
                let sees =
                    |cell: usize, d: u8| layout.peers(cell).iter().any(|&p| clues[p as usize] == d);
                let clash = (0..N * N).any(|c| clues[c] != 0 && sees(c, clues[c]));
                let board = s.board::<N, BR, DB, BANDS>(&clues);
                assert_eq!(board.is_none(), clash, "{clues:?}");
                let Some(b) = board else {
                    clashing += 1;
                    continue;
                };
                built += 1;
                let mut expected = vec![0u16; N * N];
                for (cell, mask) in expected.iter_mut().enumerate() {
                    *mask = match clues[cell] {
                        0 => (1..=N as u8)
                            .filter(|&d| !sees(cell, d))
                            .fold(0, |m, d| m | 1 << (d - 1)),
                        d => 1 << (d - 1),
                    };
                }
                let mut masks = vec![0u16; N * N];
                b.each_candidate::<N, BR>(|cell, d| masks[cell] |= 1 << d);
                assert_eq!(masks, expected, "{clues:?}");
            }
            (clashing, built)
        }
        let mut rng = Rand::new(11);
        for (clashing, built) in [
            check::<4, 2, 8, 2>(&mut rng),
            check::<6, 2, 18, 3>(&mut rng),
            check::<9, 3, 27, 3>(&mut rng),
            check::<12, 3, 48, 4>(&mut rng),
            check::<16, 4, 64, 4>(&mut rng),
        ] {
            assert!(
                clashing > 0 && built > 0,
                "{clashing} clashing, {built} built"
            );
        }
    }

    /// The branch cell is the one the rule names, read cell by cell: a two-candidate cell
    /// of the band with the most open cells (the first such band), else the first cell
    /// with the fewest candidates. Boards of random clues, unpropagated, so that cells of
    /// every count occur.
    #[test]
    fn branch_cells_follow_the_rule() {
        use crate::grid::Geometry;
        use crate::solver::band_tables::band_tables;
        let g = Geometry::CLASSIC;
        let solution = crate::generate::pattern_grid(g);
        let mut s = Search::<_, false>::new(band_tables(g), Ascending, 1, None);
        let mut rng = Rand::new(5);
        let mut by_count = [0usize; 10];
        for trial in 0..2000 {
            let clues: Vec<u8> = (0..81)
                .map(|c| match rng.below(100) {
                    x if x < trial % 60 => solution.get(c),
                    _ => 0,
                })
                .collect();
            let b = s.board::<9, 3, 27, 3>(&clues).unwrap();
            let count = |cell: usize| {
                (0..9)
                    .filter(|&d| {
                        let (k, bit) = Shape::<9, 3, 27>::band_and_bit(cell);
                        b.cand[d * 3 + k] & bit != 0
                    })
                    .count()
            };
            let open: Vec<usize> = (0..81).filter(|&c| clues[c] == 0).collect();
            let band_open = |k: usize| open.iter().filter(|&&c| c / 27 == k).count();
            let expected = match (0..3)
                .filter(|&k| open.iter().any(|&c| c / 27 == k && count(c) == 2))
                .fold(None, |best: Option<usize>, k| match best {
                    Some(j) if band_open(j) >= band_open(k) => Some(j),
                    _ => Some(k),
                }) {
                Some(k) => open.iter().copied().find(|&c| c / 27 == k && count(c) == 2),
                None => open.iter().copied().min_by_key(|&c| count(c)),
            };
            if let Some(cell) = expected {
                by_count[count(cell)] += 1;
            }
            let got =
                branch_cell::<9, 27, 3>(&b).map(|(k, bit)| k * 27 + bit.trailing_zeros() as usize);
            assert_eq!(got, expected, "{clues:?}");
        }
        assert!(
            by_count[2] > 0 && by_count[3] > 0 && by_count[4..].iter().sum::<usize>() > 0,
            "{by_count:?}"
        );
    }
}
