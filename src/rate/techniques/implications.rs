//! What an assumption implies: the engine behind forcing chains, after Sudoku Explainer.
//!
//! A *potential* is a candidate assumed true ("on") or false ("off"). From an on potential
//! follow "off" for the cell's other candidates and for the digit in every peer. From an
//! off potential follow "on" for a cell or a unit left with one place:
//! - static rules look at the board as it stands: a bivalue cell, a digit with two places
//!   in a unit;
//! - dynamic rules look at the board as the assumptions change it: a naked or hidden
//!   single once the implied offs are taken out.
//!
//! Every potential reached keeps the potentials that caused it, so a conclusion's chains
//! can be measured (their node count drives the score) and shown.

use crate::rate::board::{digits, Board};

/// A candidate `cell * n + digit - 1` assumed on (`2 * candidate + 1`) or off
/// (`2 * candidate`).
pub type Potential = u32;

/// The potential of `digit` in `cell`.
pub fn potential(n: usize, cell: usize, digit: u8, on: bool) -> Potential {
    ((cell * n + digit as usize - 1) * 2 + usize::from(on)) as Potential
}

/// The cell, digit and polarity of a potential.
pub fn split(n: usize, p: Potential) -> (usize, u8, bool) {
    let candidate = p as usize / 2;
    (candidate / n, (candidate % n) as u8 + 1, p % 2 == 1)
}

/// Which links an assumption is followed along.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Off→on links from the changing board (naked and hidden singles) rather than from
    /// the board as it stands.
    pub dynamic: bool,
    /// Follow only links on this digit (Nishio); all digits when `None`.
    pub digit: Option<u8>,
}

/// The consequences of one assumption, with reusable buffers.
pub struct Implications<'b> {
    board: &'b Board,
    rules: Rules,
    n: usize,
    /// Per potential: reached by the current assumption.
    reached: Vec<bool>,
    /// Per reached potential: its causes, `parent_len` entries of `arena` from `parent_at`.
    parent_at: Vec<u32>,
    parent_len: Vec<u8>,
    arena: Vec<Potential>,
    /// Potentials in the order reached (breadth first, so chains are shortest).
    order: Vec<Potential>,
    /// Dynamic rules: candidates left once the implied offs are taken out.
    cand: Vec<u16>,
    /// The first potential reached whose opposite was reached too.
    conflict: Option<Potential>,
    /// Ancestor walk: visit stamps and stack.
    stamp: Vec<u32>,
    current: u32,
    stack: Vec<Potential>,
}

impl<'b> Implications<'b> {
    /// Buffers for `board` under `rules`.
    pub fn new(board: &'b Board, rules: Rules) -> Implications<'b> {
        let potentials = board.cells() * board.n() * 2;
        Implications {
            board,
            rules,
            n: board.n(),
            reached: vec![false; potentials],
            parent_at: vec![0; potentials],
            parent_len: vec![0; potentials],
            arena: Vec::new(),
            order: Vec::with_capacity(potentials),
            cand: board.candidates().to_vec(),
            conflict: None,
            stamp: vec![0; potentials],
            current: 0,
            stack: Vec::new(),
        }
    }

    /// Follows `start` as far as the rules go; with `stop_at_conflict`, stops at the first
    /// potential reached both on and off (see [`conflict`](Self::conflict)).
    pub fn run(&mut self, start: Potential, stop_at_conflict: bool) {
        for &p in &self.order {
            self.reached[p as usize] = false;
        }
        self.order.clear();
        self.arena.clear();
        self.conflict = None;
        if self.rules.dynamic {
            self.cand.copy_from_slice(self.board.candidates());
        }
        self.reach(start, &[]);
        let mut next = 0;
        while next < self.order.len() && !(stop_at_conflict && self.conflict.is_some()) {
            let p = self.order[next];
            next += 1;
            let (cell, digit, on) = split(self.n, p);
            if on {
                self.on_to_off(p, cell, digit);
            } else if self.rules.dynamic {
                self.dynamic_off_to_on(cell, digit);
            } else {
                self.static_off_to_on(p, cell, digit);
            }
        }
    }

    /// Grid side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Whether the last run reached `p`.
    pub fn reached(&self, p: Potential) -> bool {
        self.reached[p as usize]
    }

    /// The first potential the last run reached both on and off, if any.
    pub fn conflict(&self) -> Option<Potential> {
        self.conflict
    }

    /// Potentials reached by the last run, as a bit set over all potentials.
    pub fn reached_set(&self) -> Vec<u64> {
        let mut set = vec![0u64; self.reached.len().div_ceil(64)];
        for &p in &self.order {
            set[p as usize / 64] |= 1 << (p % 64);
        }
        set
    }

    /// Nodes of the chain that leads to `p` (itself and every potential it rests on), and
    /// whether they all concern one digit.
    pub fn ancestors(&mut self, p: Potential) -> (usize, bool) {
        self.current += 1;
        self.stack.clear();
        self.stack.push(p);
        self.stamp[p as usize] = self.current;
        let digit = split(self.n, p).1;
        let (mut count, mut one_digit) = (0, true);
        while let Some(q) = self.stack.pop() {
            count += 1;
            one_digit &= split(self.n, q).1 == digit;
            let at = self.parent_at[q as usize] as usize;
            for i in at..at + self.parent_len[q as usize] as usize {
                let parent = self.arena[i];
                if self.stamp[parent as usize] != self.current {
                    self.stamp[parent as usize] = self.current;
                    self.stack.push(parent);
                }
            }
        }
        (count, one_digit)
    }

    /// The cells along the chain to `p` through first causes, the assumption first.
    pub fn chain_cells(&self, p: Potential) -> Vec<usize> {
        let mut cells = vec![split(self.n, p).0];
        let mut at = p as usize;
        while self.parent_len[at] > 0 {
            at = self.arena[self.parent_at[at] as usize] as usize;
            let cell = split(self.n, at as Potential).0;
            if cells.last() != Some(&cell) {
                cells.push(cell);
            }
        }
        cells.reverse();
        cells
    }

    fn reach(&mut self, q: Potential, parents: &[Potential]) {
        let i = q as usize;
        if self.reached[i] {
            return;
        }
        if self.conflict.is_none() && self.reached[i ^ 1] {
            self.conflict = Some(q);
        }
        self.reached[i] = true;
        self.parent_at[i] = self.arena.len() as u32;
        self.parent_len[i] = parents.len() as u8;
        self.arena.extend_from_slice(parents);
        self.order.push(q);
        if self.rules.dynamic && q % 2 == 0 {
            let (cell, digit, _) = split(self.n, q);
            self.cand[cell] &= !(1 << (digit - 1));
        }
    }

    /// `digit` in `cell` is on: off for the cell's other candidates and the peers' digit.
    fn on_to_off(&mut self, p: Potential, cell: usize, digit: u8) {
        let (b, n) = (self.board, self.n);
        let bit = 1u16 << (digit - 1);
        if self.rules.digit.is_none() {
            for other in digits(b.cand(cell) & !bit) {
                self.reach(potential(n, cell, other, false), &[p]);
            }
        }
        for &peer in b.peers(cell) {
            let peer = peer as usize;
            if b.is_open(peer) && b.cand(peer) & bit != 0 {
                self.reach(potential(n, peer, digit, false), &[p]);
            }
        }
    }

    /// Static: `digit` off in `cell` makes the other candidate of a bivalue cell on, and the
    /// other place of a digit with two places in a unit.
    fn static_off_to_on(&mut self, p: Potential, cell: usize, digit: u8) {
        let (b, n) = (self.board, self.n);
        let bit = 1u16 << (digit - 1);
        if self.rules.digit.is_none() && b.cand(cell).count_ones() == 2 {
            let other = (b.cand(cell) & !bit).trailing_zeros() as u8 + 1;
            self.reach(potential(n, cell, other, true), &[p]);
        }
        for u in b.units_of(cell) {
            let places = b.positions(u, digit);
            if places.count_ones() == 2 {
                for i in digits(places) {
                    let other = b.unit(u)[i as usize - 1] as usize;
                    if other != cell {
                        self.reach(potential(n, other, digit, true), &[p]);
                    }
                }
            }
        }
    }

    /// Dynamic: after `digit` went off in `cell`, a naked single in the cell or a hidden
    /// single of the digit in one of its units is on, caused by every off that made it.
    fn dynamic_off_to_on(&mut self, cell: usize, digit: u8) {
        let (b, n) = (self.board, self.n);
        let bit = 1u16 << (digit - 1);
        let mut parents: Vec<Potential> = Vec::new();
        let left = self.cand[cell];
        if self.rules.digit.is_none() && left.count_ones() == 1 {
            let single = left.trailing_zeros() as u8 + 1;
            parents.extend(digits(b.cand(cell) & !left).map(|d| potential(n, cell, d, false)));
            self.reach(potential(n, cell, single, true), &parents);
        }
        for u in b.units_of(cell) {
            let unit = b.unit(u);
            let places = b.positions(u, digit);
            let mut left = digits(places)
                .map(|i| unit[i as usize - 1] as usize)
                .filter(|&c| self.cand[c] & bit != 0);
            let (Some(only), None) = (left.next(), left.next()) else {
                continue;
            };
            parents.clear();
            parents.extend(
                digits(places)
                    .map(|i| unit[i as usize - 1] as usize)
                    .filter(|&c| c != only)
                    .map(|c| potential(n, c, digit, false)),
            );
            self.reach(potential(n, only, digit, true), &parents);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_line;

    fn board() -> Board {
        // A puzzle that needs chains (SE 7.x in the calibration file).
        Board::new(
            &parse_line(
                "050890000004002305010004020045706003700000004600405710020300050503600900000057030",
            )
            .unwrap(),
        )
    }

    #[test]
    fn potentials_round_trip() {
        for (cell, digit, on) in [(0, 1, true), (80, 9, false), (40, 5, true)] {
            assert_eq!(split(9, potential(9, cell, digit, on)), (cell, digit, on));
        }
    }

    /// An on potential turns off the digit in every open peer and the cell's other
    /// candidates; every reached potential's chain leads back to the assumption.
    #[test]
    fn on_implies_off_for_peers_and_the_cell() {
        let b = board();
        let cell = (0..81).find(|&c| b.is_open(c)).unwrap();
        let digit = digits(b.cand(cell)).next().unwrap();
        let start = potential(9, cell, digit, true);
        let mut imp = Implications::new(
            &b,
            Rules {
                dynamic: false,
                digit: None,
            },
        );
        imp.run(start, false);
        for &peer in b.peers(cell) {
            let peer = peer as usize;
            if b.is_open(peer) && b.cand(peer) & (1 << (digit - 1)) != 0 {
                assert!(imp.reached(potential(9, peer, digit, false)));
            }
        }
        for other in digits(b.cand(cell) & !(1 << (digit - 1))) {
            assert!(imp.reached(potential(9, cell, other, false)));
        }
        let reached: Vec<Potential> = imp.order.clone();
        for p in reached {
            assert_eq!(imp.chain_cells(p)[0], cell);
        }
    }

    /// Without a contradiction, the dynamic rules reach at least what the static rules reach.
    #[test]
    fn dynamic_rules_reach_more() {
        let b = board();
        let mut fixed = Implications::new(
            &b,
            Rules {
                dynamic: false,
                digit: None,
            },
        );
        let mut dynamic = Implications::new(
            &b,
            Rules {
                dynamic: true,
                digit: None,
            },
        );
        for cell in (0..81).filter(|&c| b.is_open(c)) {
            for digit in digits(b.cand(cell)) {
                let start = potential(9, cell, digit, true);
                fixed.run(start, false);
                dynamic.run(start, false);
                if dynamic.conflict().is_none() {
                    let (f, d) = (fixed.reached_set(), dynamic.reached_set());
                    assert!(f.iter().zip(&d).all(|(f, d)| f & !d == 0));
                }
            }
        }
    }
}
