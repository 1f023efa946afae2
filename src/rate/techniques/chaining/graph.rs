//! The link graph of one board, built once: for every candidate, the candidates its
//! being on turns off (a bit set, so a whole peer group is taken in a few word
//! operations) and, for static rules, the candidates its being off turns on.

use super::potentials::{Potential, PotentialSet};
use super::NONE;
use crate::grid::Candidate;
use crate::rate::board::{digits, two_bits, Board};
use arrayvec::ArrayVec;

/// Which links an assumption is followed along.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Off→on links from the changing board (naked and hidden singles) rather than from
    /// the board as it stands.
    pub dynamic: bool,
    /// Follow only links on the assumption's digit (Nishio): no links inside a cell.
    pub one_digit: bool,
}

/// What [`super::Links`] holds apart from the board: the candidates, numbered, and their
/// links.
#[derive(Clone)]
pub struct LinkGraph {
    pub(super) rules: Rules,
    pub(super) n: usize,
    /// Words of a candidate bit set.
    pub(super) words: usize,
    /// Number of each board candidate `cell * n + digit - 1` (`NONE` when not open).
    pub(super) number: Vec<u32>,
    /// Cell and digit of each numbered candidate.
    pub(super) candidate: Vec<(u16, u8)>,
    /// `kills[k * words..]`: candidates turned off when candidate `k` is on.
    pub(super) kills: Vec<u64>,
    /// Static rules: candidates turned on when candidate `k` is off (bivalue cell partner,
    /// other place of a digit with two places in a unit), `strong[strong_at[k]..]`.
    pub(super) strong: Vec<u32>,
    pub(super) strong_at: Vec<u32>,
    /// Dynamic rules: the places of each digit in each unit on the board as it stands
    /// (`places_at_start[u * n + digit - 1]`); empty for static rules, which never read it.
    pub(super) places_at_start: Vec<u8>,
    /// Dynamic rules: per candidate, its digit's place count in each unit of its cell
    /// (row, column, box, then any diagonals) as an index into `places_at_start` (empty
    /// for static rules, like `places_at_start`). Worked out once here, as every off
    /// reached by a dynamic run reads and counts down these.
    pub(super) place_slots: Vec<PlaceSlots>,
    /// Dynamic rules: the candidates of each place count's unit and digit, by slot
    /// (`slot_candidates[slot_start[slot]..slot_start[slot + 1]]`), so a run finds the
    /// one place left without going through the unit's cells.
    slot_start: Vec<u32>,
    slot_candidates: Vec<u32>,
}

/// A candidate's [`LinkGraph::place_slots`]: a cell lies on three units, or on five at the
/// centre of a diagonal grid.
pub(super) type PlaceSlots = ArrayVec<u16, 5>;

/// `kills[k * words..]` for every candidate `k` of `candidates` (numbered in cell order):
/// the candidates of its digit in the cells that share a unit with its cell and, unless
/// the rules follow one digit, its cell's other candidates. Built from one bit set per
/// unit and per digit, so a candidate takes a few word operations rather than a visit of
/// each peer (which was most of building the links, and the links are built at every
/// step of a hard rating). The sets are fixed arrays of the smallest of a few widths
/// that holds `words`, so the word loops unroll.
fn kills(board: &Board, rules: Rules, candidates: &[(u16, u8)], words: usize) -> Vec<u64> {
    match words {
        0..=4 => kills_within::<4>(board, rules, candidates, words),
        5..=12 => kills_within::<12>(board, rules, candidates, words),
        _ => kills_within::<64>(board, rules, candidates, words),
    }
}

/// [`kills`] with sets of `W` words (`W >= words`; 64 words hold the 4,096 candidates of
/// an empty 16x16 board).
fn kills_within<const W: usize>(
    board: &Board,
    rules: Rules,
    candidates: &[(u16, u8)],
    words: usize,
) -> Vec<u64> {
    debug_assert!(words <= W);
    let layout = board.layout();
    let mut unit_sets = vec![[0u64; W]; board.unit_count()];
    let mut digit_sets = vec![[0u64; W]; board.n() + 1];
    for (k, &(cell, digit)) in candidates.iter().enumerate() {
        let (w, bit) = (k / 64, 1u64 << (k % 64));
        digit_sets[digit as usize][w] |= bit;
        for u in layout.all_units_of(cell as usize) {
            unit_sets[u][w] |= bit;
        }
    }
    let mut kills = vec![0u64; candidates.len() * words];
    let mut first = 0;
    while first < candidates.len() {
        let cell = candidates[first].0;
        let count = candidates[first..]
            .iter()
            .take_while(|&&(c, _)| c == cell)
            .count();
        // The candidates of the cells sharing a unit with this cell (itself included).
        let mut seen = [0u64; W];
        for u in layout.all_units_of(cell as usize) {
            for (s, x) in seen.iter_mut().zip(unit_sets[u]) {
                *s |= x;
            }
        }
        // Its own candidates.
        let mut own = [0u64; W];
        for j in first..first + count {
            own[j / 64] |= 1 << (j % 64);
        }
        for (k, &(_, digit)) in candidates.iter().enumerate().skip(first).take(count) {
            let mut kill = [0u64; W];
            for (i, out) in kill.iter_mut().enumerate() {
                *out = seen[i] & digit_sets[digit as usize][i];
                if !rules.one_digit {
                    *out |= own[i];
                }
            }
            kill[k / 64] &= !(1 << (k % 64));
            kills[k * words..(k + 1) * words].copy_from_slice(&kill[..words]);
        }
        first += count;
    }
    kills
}

/// Adds to `kills` what the rule set bars beyond units, on every digit as the reference's
/// chains do (Nishio's too): the digit in the cells its move keeps apart, the digits it
/// bars beside the digit (non-consecutive) in the cells touching it.
fn add_rule_kills(
    board: &Board,
    number: &[u32],
    candidates: &[(u16, u8)],
    words: usize,
    kills: &mut [u64],
) {
    let rules = board.geometry().variant().rules();
    if !rules.apart.any() && !rules.neighbours.any() {
        return;
    }
    let (layout, n) = (board.layout(), board.n());
    for (k, &(cell, digit)) in candidates.iter().enumerate() {
        let (cell, kill) = (cell as usize, &mut kills[k * words..(k + 1) * words]);
        let mut add = |other: usize, d: u8| {
            let j = number[Candidate::new(other, d).index(n)];
            if j != NONE {
                kill[j as usize / 64] |= 1 << (j % 64);
            }
        };
        for other in layout.apart_sets[cell].iter() {
            add(other, digit);
        }
        let barred = board.barred_beside(digit);
        for other in layout.neighbour_sets[cell].iter() {
            for e in digits(barred) {
                add(other, e);
            }
        }
    }
}

impl LinkGraph {
    /// The links of `board` under `rules`.
    pub(super) fn new(board: &Board, rules: Rules) -> LinkGraph {
        let n = board.n();
        let mut number = vec![NONE; board.cells() * n];
        // Reserved at once (growing these showed in profiles).
        let mut candidate = Vec::with_capacity(board.cells() * n);
        for cell in (0..board.cells()).filter(|&c| board.is_open(c)) {
            for digit in digits(board.cand(cell)) {
                number[Candidate::new(cell, digit).index(n)] = candidate.len() as u32;
                candidate.push((cell as u16, digit));
            }
        }
        let candidates = candidate.len();
        let words = candidates.div_ceil(64).max(1);
        let id = |cell: usize, digit: u8| number[Candidate::new(cell, digit).index(n)] as usize;
        let mut kills = kills(board, rules, &candidate, words);
        add_rule_kills(board, &number, &candidate, words, &mut kills);
        // A candidate has at most four strong partners: its cell's other digit, and one in
        // each unit.
        let mut strong = Vec::with_capacity(4 * candidates);
        let mut strong_at = Vec::with_capacity(candidates + 1);
        for &(cell, digit) in &candidate {
            let cell = cell as usize;
            let bit = 1u16 << (digit - 1);
            strong_at.push(strong.len() as u32);
            if rules.dynamic {
                continue;
            }
            if !rules.one_digit && two_bits(board.cand(cell)) {
                let other = (board.cand(cell) & !bit).trailing_zeros() as u8 + 1;
                strong.push(id(cell, other) as u32);
            }
            for u in board.layout().all_units_of(cell) {
                let places = board.positions(u, digit);
                if two_bits(places) {
                    for i in digits(places) {
                        let other = board.unit(u)[i as usize - 1] as usize;
                        if other != cell {
                            strong.push(id(other, digit) as u32);
                        }
                    }
                }
            }
        }
        strong_at.push(strong.len() as u32);
        let mut graph = LinkGraph {
            rules,
            n,
            words,
            number,
            candidate,
            kills,
            strong,
            strong_at,
            places_at_start: Vec::new(),
            place_slots: Vec::new(),
            slot_start: Vec::new(),
            slot_candidates: Vec::new(),
        };
        if rules.dynamic {
            graph.count_places(board);
        }
        graph
    }

    /// Dynamic rules: the place counts of `board` and, per candidate, its slots among them
    /// (see [`LinkGraph::place_slots`]).
    pub(super) fn count_places(&mut self, board: &Board) {
        let n = self.n;
        self.places_at_start = (0..board.unit_count())
            .flat_map(|u| (1..=n as u8).map(move |d| board.positions(u, d).count_ones() as u8))
            .collect();
        self.place_slots = self
            .candidate
            .iter()
            .map(|&(cell, digit)| {
                let units = board.layout().all_units_of(cell as usize);
                units
                    .map(|u| (u * n + digit as usize - 1) as u16)
                    .collect::<PlaceSlots>()
            })
            .collect();
        // A slot holds as many candidates as its count at the start.
        self.slot_start = Vec::with_capacity(self.places_at_start.len() + 1);
        self.slot_start.push(0);
        for &count in &self.places_at_start {
            let last = self.slot_start.last().copied().unwrap_or(0);
            self.slot_start.push(last + u32::from(count));
        }
        let mut filled = self.slot_start.clone();
        self.slot_candidates = vec![0; filled.pop().unwrap_or(0) as usize];
        for (k, slots) in self.place_slots.iter().enumerate() {
            for &slot in slots {
                self.slot_candidates[filled[slot as usize] as usize] = k as u32;
                filled[slot as usize] += 1;
            }
        }
    }

    /// Dynamic rules: the candidates a place count's `slot` counts.
    pub(super) fn slot_candidates(&self, slot: u16) -> &[u32] {
        let slot = slot as usize;
        &self.slot_candidates[self.slot_start[slot] as usize..self.slot_start[slot + 1] as usize]
    }

    /// Number of candidates (potentials are twice as many).
    pub fn candidates(&self) -> usize {
        self.candidate.len()
    }

    /// The potential of `digit` in `cell`, which must be an open cell's candidate.
    pub fn potential(&self, cell: usize, digit: u8, on: bool) -> Potential {
        let k = self.number[Candidate::new(cell, digit).index(self.n)];
        debug_assert!(k != NONE, "not a candidate");
        2 * k + u32::from(on)
    }

    /// The cell, digit and polarity of a potential.
    pub fn split(&self, p: Potential) -> (usize, u8, bool) {
        let (cell, digit) = self.candidate[p as usize / 2];
        (cell as usize, digit, p % 2 == 1)
    }

    /// The candidates turned off when candidate `k` is on, as bit set words.
    pub fn kills_of(&self, k: usize) -> &[u64] {
        &self.kills[k * self.words..(k + 1) * self.words]
    }

    /// Static rules: candidates turned on when candidate `k` is off.
    pub(super) fn strong(&self, k: usize) -> &[u32] {
        &self.strong[self.strong_at[k] as usize..self.strong_at[k + 1] as usize]
    }

    /// Words of a potential set of this engine (offs, then ons).
    pub fn set_width(&self) -> usize {
        2 * self.words
    }

    /// An empty potential set of this engine.
    pub fn empty_set(&self) -> PotentialSet {
        PotentialSet(vec![0; self.set_width()])
    }
}
