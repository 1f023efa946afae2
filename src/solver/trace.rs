//! A search a person can watch: plain backtracking, one cell at a time, the cell with the
//! fewest candidates first, digits in ascending order, every try and undo recorded.
//!
//! This is not the production search (that one works on digit-bands and settles many
//! cells per step, which cannot be followed by eye); it is the textbook algorithm a
//! reader of a sudoku-solving article expects to see animated, over the same rules: the
//! variant's units, and for killer the cages (no digit twice, a sum still reachable).

use crate::grid::{sum_range, Cages, Grid};
use serde::Serialize;
use std::sync::Arc;

/// One thing the search did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Event {
    /// Wrote `digit` into `cell`.
    Try { cell: u16, digit: u8 },
    /// `cell` has no digit left: this branch is dead.
    DeadEnd { cell: u16 },
    /// Took the digit out of `cell` again (every digit of it failed below).
    Undo { cell: u16 },
}

/// The recorded search.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Trace {
    /// Events in order, at most the limit asked for.
    pub events: Vec<Event>,
    /// Digits written.
    pub tries: u64,
    /// Digits taken back.
    pub backtracks: u64,
    /// Whether the search reached a solution before the limit.
    pub solved: bool,
    /// Whether the limit cut the search short.
    pub truncated: bool,
}

/// Searches `puzzle` for its first solution, recording at most `limit` events.
pub fn trace(puzzle: &Grid, limit: usize) -> Trace {
    let mut search = Watched {
        n: puzzle.geometry().n(),
        peers: puzzle.layout(),
        values: puzzle.cells().to_vec(),
        cages: puzzle.cages().cloned(),
        trace: Trace::default(),
        limit,
    };
    search.trace.solved = search.solve();
    search.trace
}

struct Watched<'p> {
    n: usize,
    peers: &'p crate::grid::Layout,
    values: Vec<u8>,
    cages: Option<Arc<Cages>>,
    trace: Trace,
    limit: usize,
}

impl Watched<'_> {
    fn record(&mut self, event: Event) -> bool {
        if self.trace.events.len() >= self.limit {
            self.trace.truncated = true;
            return false;
        }
        self.trace.events.push(event);
        true
    }

    /// Digits `cell` may take, as bits `d - 1`.
    fn candidates(&self, cell: usize) -> u32 {
        let mut used = 0u32;
        for &p in self.peers.peers(cell) {
            let v = self.values[p as usize];
            if v != 0 {
                used |= 1 << (v - 1);
            }
        }
        let open = ((1u32 << self.n) - 1) & !used;
        match &self.cages {
            Some(cages) => open & self.cage_allows(cages, cell),
            None => open,
        }
    }

    /// Digits the cell's cage leaves it: none already in the cage, and only those after
    /// which the cage's other open cells can still make its sum with distinct digits.
    fn cage_allows(&self, cages: &Cages, cell: usize) -> u32 {
        let k = cages.cage_of(cell);
        let (mut used, mut total, mut open) = (0u32, 0u32, 0usize);
        for &c in cages.cells(k) {
            match self.values[c as usize] {
                0 => open += 1,
                v => {
                    used |= 1 << (v - 1);
                    total += u32::from(v);
                }
            }
        }
        let (least, most) = sum_range(self.n, open - 1);
        let sum = cages.sum(k);
        (1..=self.n as u32)
            .filter(|&d| used & 1 << (d - 1) == 0)
            .filter(|&d| total + d + least <= sum && total + d + most >= sum)
            .fold(0, |mask, d| mask | 1 << (d - 1))
    }

    /// Fills the grid; false on a dead end or when the limit is reached.
    fn solve(&mut self) -> bool {
        let mut best: Option<(usize, u32)> = None;
        for cell in 0..self.values.len() {
            if self.values[cell] != 0 {
                continue;
            }
            let cand = self.candidates(cell);
            if best.is_none_or(|(_, b)| cand.count_ones() < b.count_ones()) {
                best = Some((cell, cand));
                if cand.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((cell, mut cand)) = best else {
            return true;
        };
        if cand == 0 {
            self.record(Event::DeadEnd { cell: cell as u16 });
            return false;
        }
        while cand != 0 {
            let digit = cand.trailing_zeros() as u8 + 1;
            cand &= cand - 1;
            if !self.record(Event::Try {
                cell: cell as u16,
                digit,
            }) {
                return false;
            }
            self.trace.tries += 1;
            self.values[cell] = digit;
            if self.solve() {
                return true;
            }
            self.values[cell] = 0;
            if self.trace.truncated {
                return false;
            }
            self.trace.backtracks += 1;
            self.record(Event::Undo { cell: cell as u16 });
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_line;
    use crate::grid::samples::HARD;
    use crate::solver::count_solutions;

    #[test]
    fn replaying_the_events_gives_the_solution() {
        let p = parse_line(HARD).unwrap();
        let t = trace(&p, 1_000_000);
        assert!(t.solved && !t.truncated);
        let mut grid = p.clone();
        let (mut tries, mut undos) = (0, 0);
        for e in &t.events {
            match *e {
                Event::Try { cell, digit } => {
                    assert_eq!(grid.get(cell as usize), 0, "a try on an empty cell");
                    grid.set(cell as usize, digit);
                    tries += 1;
                }
                Event::Undo { cell } => {
                    assert_ne!(grid.get(cell as usize), 0);
                    grid.set(cell as usize, 0);
                    undos += 1;
                }
                Event::DeadEnd { cell } => assert_eq!(grid.get(cell as usize), 0),
            }
        }
        assert_eq!((tries, undos), (t.tries, t.backtracks));
        assert!(t.backtracks > 0, "this puzzle needs backtracking");
        assert_eq!(Some(&grid), count_solutions(&p, 2).unique());
    }

    #[test]
    fn a_killer_search_keeps_the_cages() {
        // No givens: only the cages make the solution unique.
        let p = crate::grid::parse_line_in(
            "................ AAAABCDEBBFEGHFE 10,9,4,1,8,5,1,2",
            crate::grid::Variant::Killer,
        )
        .unwrap();
        let t = trace(&p, 1_000_000);
        assert!(t.solved && !t.truncated);
        let mut grid = p.clone();
        for e in &t.events {
            match *e {
                Event::Try { cell, digit } => grid.set(cell as usize, digit),
                Event::Undo { cell } => grid.set(cell as usize, 0),
                Event::DeadEnd { .. } => {}
            }
        }
        assert_eq!(Some(&grid), count_solutions(&p, 2).unique());
    }

    #[test]
    fn the_limit_cuts_the_search_short() {
        let p = parse_line(HARD).unwrap();
        let t = trace(&p, 50);
        assert_eq!(t.events.len(), 50);
        assert!(t.truncated && !t.solved);
    }
}
