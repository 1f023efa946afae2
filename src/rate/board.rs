//! The rater's candidate grid: what a person pencils in, updated step by step.

use super::memo::{Carried, DigitSearch, PairSearch, SearchMemo, UnitDerived, UnitSearch};
use crate::grid::{Cages, CellSet, Layout, Regions};
use crate::grid::{Geometry, Grid};
use std::sync::Arc;

/// The most candidates of a cell the pair searches read beyond their two cells (the
/// aligned exclusions' excluders and third cells have two or three).
pub const FEW_CANDIDATES: u32 = 3;

/// Per unit, the candidates its cells of at most [`FEW_CANDIDATES`] have lost (a placed
/// cell counts as one candidate left): a sum that only grows as candidates go, and grows
/// whenever such a cell changes or a cell comes down to so few. Per cell, the candidates
/// it lost, the stamps of its units and the losses of the cells a move keeps apart from
/// it (anti-knight, anti-king) added up: a pair's stamp is its two cells' sum.
pub struct PairStamps {
    cells: Vec<u32>,
}

/// The layout of a board whose geometry's layout is `fixed`, with `regions` (a jigsaw
/// puzzle's, if any): a function of the two fields, so that a board's other fields stay
/// free to change while it is read.
#[inline]
fn layout_of<'a>(fixed: &'a Layout, regions: &'a Option<Arc<Regions>>) -> &'a Layout {
    match regions {
        Some(regions) => regions.layout(),
        None => fixed,
    }
}

/// Candidates and placed digits of a grid being solved by hand.
#[derive(Clone)]
pub struct Board {
    geometry: Geometry,
    /// The geometry's layout, kept at hand: techniques ask for units all the time, and
    /// finding it by geometry cost a classic expert fill about 7 % of its instructions.
    fixed: &'static Layout,
    /// A jigsaw puzzle's regions, whose layout stands for the geometry's.
    regions: Option<Arc<Regions>>,
    /// Candidate digits per cell (bit `d-1`); a placed cell keeps only its digit.
    cand: Vec<u16>,
    /// Placed digit per cell, `0` while open.
    value: Vec<u8>,
    /// `places[place_slot(u, d - 1, n)]`: open cells of unit `u` holding digit `d`, as a
    /// mask over the unit's positions. Kept up to date by `place` and `eliminate`, since techniques
    /// ask for it all the time.
    places: Vec<u16>,
    /// Digits placed in each unit.
    placed: Vec<u16>,
    /// Per unit, how many times one of its cells lost a candidate.
    unit_changes: Vec<u32>,
    /// Per digit, how many times a cell lost it as a candidate.
    digit_changes: Vec<u32>,
    /// The two candidates of each open cell that came down to two, in order.
    bivalue_births: Vec<u16>,
    /// Candidates lost so far: the version of the board that derived values are kept for.
    version: u32,
    /// What searches remember of this board (see [`SearchMemo`]).
    memo: SearchMemo,
    /// A killer puzzle's cages: a digit placed in a cage leaves its other cells too.
    cages: Option<Arc<Cages>>,
    /// Whether steps found on this board get their notes in words ([`Step::describe`]).
    notes: bool,
}

impl Board {
    /// The same board, whose steps get no notes (for a fill, which reads scores only).
    pub fn without_notes(mut self) -> Board {
        self.notes = false;
        self
    }

    /// Whether steps found on this board get their notes in words.
    pub fn notes(&self) -> bool {
        self.notes
    }

    /// The board of a puzzle with every candidate not excluded by a clue (the clues must
    /// not clash, as parsing ensures).
    pub fn new(puzzle: &Grid) -> Board {
        let g = puzzle.geometry();
        let n = g.n();
        let all = ((1u32 << n) - 1) as u16;
        let units = puzzle.layout().unit_count();
        let mut b = Board {
            geometry: g,
            fixed: g.layout(),
            regions: puzzle.regions().cloned(),
            cand: vec![0; g.cells()],
            value: puzzle.cells().to_vec(),
            places: vec![0; units * n],
            placed: vec![0; units],
            unit_changes: vec![0; units],

            digit_changes: vec![0; n],
            bivalue_births: Vec::new(),
            version: 0,
            memo: SearchMemo::new(units, n),
            cages: puzzle.cages().cloned(),
            notes: true,
        };
        // Digits placed in each unit, then each open cell's candidates in one pass (less
        // the clues the rule set's move keeps apart and the digits it bars beside the
        // clues touching it): what placing the clues one by one
        // would leave, without the peer-by-peer eliminations.
        let regions = b.regions.clone();
        let layout = layout_of(b.fixed, &regions);
        let neighbours = g.variant().rules().neighbours;
        for (cell, &v) in puzzle.cells().iter().enumerate().filter(|(_, &v)| v != 0) {
            for u in layout.all_units_of(cell) {
                b.placed[u] |= 1 << (v - 1);
            }
        }
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                b.cand[cell] = 1 << (v - 1);
                continue;
            }
            let units = b.units_of(cell);
            let mut open = all & !layout.all_units_of(cell).fold(0, |m, u| m | b.placed[u]);
            for other in layout.apart_sets[cell].iter() {
                open &= !(((1u32 << puzzle.get(other)) >> 1) as u16);
            }
            for other in layout.neighbour_sets[cell].iter() {
                open &= !neighbours.barred(puzzle.get(other), n);
            }
            if let Some(cages) = &b.cages {
                let k = cages.cage_of(cell);
                for &mate in cages.cells(k) {
                    let v = puzzle.get(mate as usize);
                    if v != 0 {
                        open &= !(1 << (v - 1));
                    }
                }
            }
            b.cand[cell] = open;
            let at = b.layout().places[cell];
            for d in digits(open) {
                let d = d as usize - 1;
                b.places[place_slot(units[0], d, n)] |= 1 << at.col;
                b.places[place_slot(units[1], d, n)] |= 1 << at.row;
                b.places[place_slot(units[2], d, n)] |= 1 << at.in_box;
                for e in layout.extra_places_of(cell) {
                    b.places[place_slot(e.unit, d, n)] |= 1 << e.at;
                }
            }
        }
        b
    }

    /// The geometry.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Grid side.
    pub fn n(&self) -> usize {
        self.geometry.n()
    }

    /// Candidate mask of a cell.
    #[inline]
    pub fn cand(&self, cell: usize) -> u16 {
        self.cand[cell]
    }

    /// Candidate masks of every cell, in cell order.
    pub fn candidates(&self) -> &[u16] {
        &self.cand
    }

    /// Placed digits of every cell (0 when open), in cell order.
    pub fn values(&self) -> &[u8] {
        &self.value
    }

    /// Placed digit (0 when open).
    #[inline]
    pub fn value(&self, cell: usize) -> u8 {
        self.value[cell]
    }

    /// Whether the cell is still open.
    #[inline]
    pub fn is_open(&self, cell: usize) -> bool {
        self.value[cell] == 0
    }

    /// Whether every cell is placed.
    pub fn solved(&self) -> bool {
        self.value.iter().all(|&v| v != 0)
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.cand.len()
    }

    /// Places `digit` and removes it from the peers' candidates (and the digits the rule
    /// set bars beside it from the cells touching it).
    pub fn place(&mut self, cell: usize, digit: u8) {
        let bit = 1u16 << (digit - 1);
        for d in digits(self.cand[cell]) {
            self.unmark(cell, d);
        }
        self.value[cell] = digit;
        self.cand[cell] = bit;
        let regions = self.regions.clone();
        let layout = layout_of(self.fixed, &regions);
        for u in layout.all_units_of(cell) {
            self.placed[u] |= bit;
        }
        for &p in layout.peers(cell) {
            self.eliminate(p as usize, digit);
        }
        let barred = self.barred_beside(digit);
        for other in layout.neighbour_sets[cell].iter() {
            for e in digits(barred) {
                self.eliminate(other, e);
            }
        }
        if let Some(cages) = self.cages.clone() {
            for &mate in cages.cells(cages.cage_of(cell)) {
                self.eliminate(mate as usize, digit);
            }
        }
    }

    /// A jigsaw puzzle's regions, which stand for the boxes.
    #[inline]
    pub fn regions(&self) -> Option<&Regions> {
        self.regions.as_deref()
    }

    /// A killer puzzle's cages.
    #[inline]
    pub fn cages(&self) -> Option<&Cages> {
        self.cages.as_deref()
    }

    /// Removes `digit` from an open cell's candidates.
    pub fn eliminate(&mut self, cell: usize, digit: u8) {
        let bit = 1u16 << (digit - 1);
        if self.value[cell] == 0 && self.cand[cell] & bit != 0 {
            self.cand[cell] &= !bit;
            if two_bits(self.cand[cell]) {
                self.bivalue_births.push(self.cand[cell]);
            }
            self.unmark(cell, digit);
        }
    }

    /// Clears open `cell` from the places of `digit` in its units.
    fn unmark(&mut self, cell: usize, digit: u8) {
        let n = self.n();
        let l = layout_of(self.fixed, &self.regions);
        let at = l.places[cell];
        let (r, c, bx) = (at.row as usize, at.col as usize, at.bx as usize);
        let d = digit as usize - 1;
        let (row, col, bx) = (l.row(r), l.column(c), l.box_unit(bx));
        self.places[place_slot(row, d, n)] &= !(1 << c);
        self.places[place_slot(col, d, n)] &= !(1 << r);
        self.places[place_slot(bx, d, n)] &= !(1 << at.in_box);
        for u in [row, col, bx] {
            self.unit_changes[u] += 1;
        }
        // (The rule set is asked first so that classic boards skip the lookup.)
        if self.geometry.variant().rules().units.any() {
            for e in l.extra_places_of(cell) {
                self.places[place_slot(e.unit, d, n)] &= !(1 << e.at);
                self.unit_changes[e.unit] += 1;
            }
        }
        self.digit_changes[d] += 1;
        self.version = self.version.wrapping_add(1);
    }

    /// Whether `search` found nothing for `key` (below units × n) and no cell lost `digit`
    /// since.
    #[inline]
    pub fn digit_found_nothing_since(&self, search: DigitSearch, key: usize, digit: u8) -> bool {
        self.digit_found_nothing_within(search, key, digit, 0)
    }

    /// Records that `search` found nothing for `key` with `digit`'s candidates as they are.
    #[inline]
    pub fn digit_found_nothing(&self, search: DigitSearch, key: usize, digit: u8) {
        self.digit_found_nothing_up_to(search, key, digit, 0);
    }

    /// The digits (bit `d - 1`) for which `search`, keyed by digit alone, found nothing
    /// and which no cell lost since: a search over every unit can pass over them at the
    /// cost of one test per digit instead of one per unit and digit.
    pub fn digits_found_nothing_since(&self, search: DigitSearch) -> u16 {
        self.digits_found_nothing_within(search, 0)
    }

    /// [`Board::digits_found_nothing_since`] for a search that looked at least `within`
    /// far (chain nodes).
    pub fn digits_found_nothing_within(&self, search: DigitSearch, within: usize) -> u16 {
        (1..=self.n() as u8)
            .filter(|&d| self.digit_found_nothing_within(search, d as usize - 1, d, within))
            .fold(0, |m, d| m | 1 << (d - 1))
    }

    /// Records that `search`, keyed by digit alone, found nothing for the digits `mask`.
    pub fn digits_found_nothing(&self, search: DigitSearch, mask: u16) {
        for d in digits(mask) {
            self.digit_found_nothing(search, d as usize - 1, d);
        }
    }

    /// Whether `search` looked at least `within` far for `key` and found nothing, and no
    /// cell lost `digit` since.
    #[inline]
    pub fn digit_found_nothing_within(
        &self,
        search: DigitSearch,
        key: usize,
        digit: u8,
        within: usize,
    ) -> bool {
        let changes = self.digit_changes[digit as usize - 1];
        self.memo.digit_found_nothing(search, key, changes, within)
    }

    /// Records that `search` looked `within` far for `key` and found nothing, with
    /// `digit`'s candidates as they are.
    #[inline]
    pub fn digit_found_nothing_up_to(
        &self,
        search: DigitSearch,
        key: usize,
        digit: u8,
        within: usize,
    ) {
        let changes = self.digit_changes[digit as usize - 1];
        self.memo
            .set_digit_found_nothing(search, key, changes, within);
    }

    /// Whether `search` found nothing in unit `u` and the unit has not changed since.
    #[inline]
    pub fn found_nothing_since(&self, search: UnitSearch, u: usize) -> bool {
        self.memo
            .unit_found_nothing(search, u, self.unit_changes[u])
            .is_some()
    }

    /// [`Self::found_nothing_since`] for a search that also reads the bivalue cells
    /// anywhere (the ALS wings): no cell came down to two candidates since, unless
    /// `relevant` says its pair cannot matter. Passing over the irrelevant ones, the
    /// memo moves on past them.
    pub fn als_found_nothing_since(
        &self,
        search: UnitSearch,
        u: usize,
        relevant: impl FnOnce(&[u16]) -> bool,
    ) -> bool {
        let changes = self.unit_changes[u];
        let Some(seen) = self.memo.unit_found_nothing(search, u, changes) else {
            return false;
        };
        let born = &self.bivalue_births[seen as usize..];
        if born.is_empty() {
            return true;
        }
        if relevant(born) {
            return false;
        }
        self.found_nothing(search, u);
        true
    }

    /// Records that `search` found nothing in unit `u` as it is now.
    #[inline]
    pub fn found_nothing(&self, search: UnitSearch, u: usize) {
        let births = self.bivalue_births.len() as u32;
        self.memo
            .set_unit_found_nothing(search, u, self.unit_changes[u], births);
    }

    /// The value `build` derives from the puzzle itself (not the candidates), built once
    /// per puzzle and shared by the board's copies.
    pub fn puzzle_derived<T: 'static>(&self, build: impl FnOnce() -> T) -> std::rc::Rc<T> {
        self.memo.puzzle_derived(build)
    }

    /// What the pair searches read of the board as it stands, per unit (see
    /// [`PairStamps`]); built once per search.
    pub fn pair_stamps(&self) -> PairStamps {
        let n = self.n() as u32;
        let lost = |c: u16| {
            let k = self.cand[c as usize].count_ones();
            if k <= FEW_CANDIDATES {
                n - k
            } else {
                0
            }
        };
        let units: Vec<u32> = (0..self.unit_count())
            .map(|u| self.unit(u).iter().map(|&c| lost(c)).sum())
            .collect();
        let layout = self.layout();
        // The cells a rule set's move keeps apart from a cell are its peers in no unit of
        // its, so they are excluders too and count as its units' cells do.
        let apart = self.geometry.variant().rules().apart.any();
        let cells = (0..self.cells()).map(|c| {
            let own = n - self.cand[c].count_ones();
            let in_units = layout.all_units_of(c).fold(own, |s, u| s + units[u]);
            match apart {
                true => {
                    in_units
                        + layout.apart_sets[c]
                            .iter()
                            .map(|m| lost(m as u16))
                            .sum::<u32>()
                }
                false => in_units,
            }
        });
        PairStamps {
            cells: cells.collect(),
        }
    }

    /// Whether `search` found nothing for the cells `a` and `b` and nothing it reads
    /// changed since (see [`PairSearch`]).
    #[inline]
    pub fn pair_found_nothing_since(
        &self,
        search: PairSearch,
        stamps: &PairStamps,
        a: usize,
        b: usize,
    ) -> bool {
        let (cells, stamp) = (self.cells(), self.pair_stamp(stamps, a, b));
        self.memo
            .pair_found_nothing(search, a * cells + b, cells, stamp)
    }

    /// Records that `search` found nothing for the cells `a` and `b` as the board is.
    #[inline]
    pub fn pair_found_nothing(&self, search: PairSearch, stamps: &PairStamps, a: usize, b: usize) {
        let (cells, stamp) = (self.cells(), self.pair_stamp(stamps, a, b));
        self.memo
            .set_pair_found_nothing(search, a * cells + b, cells, stamp);
    }

    /// The candidates `a` and `b` lost and the stamps of their units, added up: every
    /// term only grows, and grows whenever what it covers changes, so the sum changes
    /// exactly when something the pair's search reads does (a shared unit counts twice).
    fn pair_stamp(&self, stamps: &PairStamps, a: usize, b: usize) -> u32 {
        stamps.cells[a] + stamps.cells[b]
    }

    /// The value of `what`, which `update` brings up to date from its last value (see
    /// [`SearchMemo::carried`]).
    pub fn carried<T: 'static>(
        &self,
        what: Carried,
        update: impl FnOnce(Option<std::rc::Rc<T>>) -> std::rc::Rc<T>,
    ) -> std::rc::Rc<T> {
        self.memo.carried(what, update)
    }

    /// The value `build` derives from unit `u`'s candidates, kept until the unit changes.
    pub fn unit_derived<T: 'static>(
        &self,
        what: UnitDerived,
        u: usize,
        build: impl FnOnce() -> T,
    ) -> std::rc::Rc<T> {
        self.memo.unit_derived(what, u, self.unit_changes[u], build)
    }

    /// The same board with nothing remembered of earlier searches.
    #[cfg(test)]
    pub fn forgetting_searches(&self) -> Board {
        let b = self.clone();
        b.memo.forget();
        b
    }

    /// The cells of unit `u` (rows, then columns, then boxes, then any extra units).
    pub fn unit(&self, u: usize) -> &[u16] {
        self.layout().unit(u)
    }

    /// The row, column and box of a cell, as unit numbers.
    #[inline]
    pub fn units_of(&self, cell: usize) -> [usize; 3] {
        self.layout().units_of(cell)
    }

    /// Number of units.
    #[inline]
    pub fn unit_count(&self) -> usize {
        self.layout().unit_count()
    }

    /// The value `build` derives from the board as it stands, kept in the memo until
    /// the board changes.
    pub fn derived<T: 'static>(&self, build: impl FnOnce() -> T) -> std::rc::Rc<T> {
        self.memo.derived(self.version, build)
    }

    /// The grid's layout: which unit is which (a jigsaw puzzle's regions are its boxes).
    #[inline]
    pub fn layout(&self) -> &Layout {
        layout_of(self.fixed, &self.regions)
    }

    /// The cells sharing a unit with `cell`, in ascending order.
    pub fn peers(&self, cell: usize) -> &[u16] {
        self.layout().peers(cell)
    }

    /// The peers of a cell as a set.
    #[inline]
    pub fn peer_set(&self, cell: usize) -> CellSet {
        self.layout().peer_sets[cell]
    }

    /// The cells sharing a unit with `cell`: its peers less those the rule set's move
    /// keeps apart (the same set under most rule sets).
    #[inline]
    pub fn unit_peer_set(&self, cell: usize) -> CellSet {
        self.layout().unit_peer_sets[cell]
    }

    /// Whether two different cells share a unit.
    #[inline]
    pub fn shares_unit(&self, a: usize, b: usize) -> bool {
        let cu = &self.layout().cell_units;
        a != b && cu[a] & cu[b] != 0
    }

    /// Whether two different cells are peers: they share a unit, or the rule set's move
    /// keeps them apart.
    #[inline]
    pub fn sees(&self, a: usize, b: usize) -> bool {
        let cu = &self.layout().cell_units;
        a != b && (cu[a] & cu[b] != 0 || self.layout().apart_sets[a].contains(b))
    }

    /// The digits the rule set bars from the cells touching a cell that holds `digit`
    /// (non-consecutive: its consecutive digits), as a candidate mask; 0 under most rules.
    #[inline]
    pub fn barred_beside(&self, digit: u8) -> u16 {
        self.geometry
            .variant()
            .rules()
            .neighbours
            .barred(digit, self.n())
    }

    /// The cells touching `cell` whose digits the rule set restricts ([`Self::barred_beside`]).
    #[inline]
    pub fn neighbour_set(&self, cell: usize) -> CellSet {
        self.layout().neighbour_sets[cell]
    }

    /// The grid of placed digits.
    pub fn to_grid(&self) -> Grid {
        Grid::from_cells(self.geometry, self.value.clone())
    }

    /// Open cells of a unit holding `digit` as a candidate, as a bit mask over the unit's
    /// positions.
    #[inline]
    pub fn positions(&self, u: usize, digit: u8) -> u16 {
        self.places[place_slot(u, digit as usize - 1, self.n())]
    }

    /// Digits placed in a unit, as a mask.
    #[inline]
    pub fn placed_in(&self, u: usize) -> u16 {
        self.placed[u]
    }
}

/// Where `places` keeps unit `u`'s places of the digit `d + 1`: unit by unit, digit by
/// digit.
#[inline(always)]
fn place_slot(u: usize, d: usize, n: usize) -> usize {
    u * n + d
}

/// Whether a mask has exactly two bits: a bivalue cell, a digit with two places. Tested
/// at every candidate while the link graphs and chains are built; the build targets
/// x86-64 without a population count instruction, where `count_ones() == 2` takes a
/// dozen instructions and this four.
#[inline]
pub fn two_bits(mask: u16) -> bool {
    let rest = mask & mask.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// Iterates the digits (1-based) of a mask.
pub fn digits(mut mask: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let d = mask.trailing_zeros() as u8 + 1;
            mask &= mask - 1;
            d
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_line;

    /// `two_bits` says what `count_ones() == 2` says, on every mask.
    #[test]
    fn two_bits_counts_to_two() {
        for mask in 0..=u16::MAX {
            assert_eq!(two_bits(mask), mask.count_ones() == 2, "{mask:#b}");
        }
    }

    /// A search's "nothing here" holds until its unit (or digit) loses a candidate.
    #[test]
    fn remembered_searches_end_when_their_part_changes() {
        let mut b = Board::new(&parse_line(&".".repeat(81)).unwrap());
        let naked = UnitSearch::Naked(2);
        b.found_nothing(naked, 0);
        b.found_nothing(naked, 9 + 8);
        assert!(b.found_nothing_since(naked, 0));
        assert!(!b.found_nothing_since(UnitSearch::Hidden(2), 0));
        b.eliminate(0, 5); // row 0, column 0, box 0
        assert!(!b.found_nothing_since(naked, 0));
        assert!(
            b.found_nothing_since(naked, 9 + 8),
            "column 8 did not change"
        );

        let fish = DigitSearch::Fish(2);
        b.digit_found_nothing(fish, 3, 2);
        b.digit_found_nothing_up_to(DigitSearch::XChain, 1, 2, 8);
        assert!(b.digit_found_nothing_since(fish, 3, 2));
        assert!(b.digit_found_nothing_within(DigitSearch::XChain, 1, 2, 6));
        assert!(!b.digit_found_nothing_within(DigitSearch::XChain, 1, 2, 9));
        b.eliminate(40, 7);
        assert!(
            b.digit_found_nothing_since(fish, 3, 2),
            "digit 7 is not digit 2"
        );
        b.eliminate(40, 2);
        assert!(!b.digit_found_nothing_since(fish, 3, 2));
        assert!(!b.forgetting_searches().found_nothing_since(naked, 9 + 8));
    }

    /// A board built from the clues at once is the board of placing them one by one.
    #[test]
    fn new_board_is_the_clues_placed_one_by_one() {
        use crate::generate::{generate, DigStop, Route, Spec, Strategy};
        for n in crate::grid::SUPPORTED_SIZES {
            let g = Geometry::for_size(n).unwrap();
            let spec = Spec {
                geometry: g,
                route: Route::Transform,
                strategy: Strategy::Random,
                stop: DigStop::Clues(g.cells() * 2 / 5),
                failure_budget: None,
                cage_sizes: crate::generate::CageSizes::DEFAULT,
            };
            let puzzle = generate(&spec, 7, None).unwrap().puzzle;
            let fast = Board::new(&puzzle);
            let mut slow = Board::new(&Grid::empty(g));
            for (cell, &v) in puzzle.cells().iter().enumerate().filter(|(_, &v)| v != 0) {
                slow.place(cell, v);
            }
            assert_eq!(fast.cand, slow.cand, "size {n}");
            assert_eq!(fast.value, slow.value, "size {n}");
            assert_eq!(fast.places, slow.places, "size {n}");
            assert_eq!(fast.placed, slow.placed, "size {n}");
        }
    }

    /// The cached places and placed digits agree with a scan of the cells after every
    /// step of a rating.
    #[test]
    fn cached_places_match_the_cells() {
        let p = parse_line(crate::grid::samples::HARD).unwrap();
        let check = |b: &Board| {
            for u in 0..b.unit_count() {
                let cells = b.unit(u);
                for d in 1..=9u8 {
                    let scan = cells.iter().enumerate().fold(0u16, |m, (i, &c)| {
                        let c = c as usize;
                        m | (((b.is_open(c) && b.cand(c) & 1 << (d - 1) != 0) as u16) << i)
                    });
                    assert_eq!(b.positions(u, d), scan, "unit {u} digit {d}");
                }
                let placed = cells
                    .iter()
                    .filter(|&&c| !b.is_open(c as usize))
                    .fold(0, |m, &c| m | b.cand(c as usize));
                assert_eq!(b.placed_in(u), placed);
            }
        };
        let mut b = Board::new(&p);
        check(&b);
        for step in crate::rate::rate(&p).steps {
            crate::rate::apply(&mut b, &step);
            check(&b);
        }
    }
}
