//! A run: one assumption followed along the links, with the scratch state that runs
//! reuse (what was reached and why, the board as the assumptions change it).

use super::links::Links;
use super::potentials::{Potential, PotentialSlice};
use crate::rate::board::digits;
use crate::rate::techniques::step::Link;
use std::collections::VecDeque;
use std::ops::Deref;

/// Where a run may stop before following everything.
#[derive(Clone, Copy, Debug)]
pub enum RunStop {
    /// Follow everything.
    AtEnd,
    /// Stop at the first potential reached both on and off (see
    /// [`Run::conflict`]).
    AtConflict,
    /// Stop once this potential is reached, or once no chain to it of at most this many
    /// nodes is left to find.
    AtReaching(Potential, usize),
}

/// A run kept for later (see [`Run::trace`]).
#[derive(Default)]
pub struct Trace {
    reached: Vec<(Potential, Cause)>,
    conflict: Option<Potential>,
}

/// Why a potential was reached: the potential that implied it, or for dynamic rules the
/// cell or unit left with one place (its causes are every off that emptied the rest). A
/// unit is named by its place count's slot, `unit * n + digit - 1` (see
/// [`Links::place_slots`]).
#[derive(Clone, Copy, Debug)]
enum Cause {
    Start,
    By(Potential),
    LastInCell,
    LastInUnit(u16),
}

/// Runs over one board's links, with reusable buffers.
pub struct Run<'l, 'b> {
    links: &'l Links<'b>,
    /// Candidates reached off and on by the current assumption.
    off: Vec<u64>,
    on: Vec<u64>,
    /// Static rules: the candidates runs may go through (see [`Self::only_through`]).
    allowed: Vec<u64>,
    /// Per potential reached: why.
    cause: Vec<Cause>,
    /// Potentials in the order reached (breadth first, so chains are shortest).
    order: Vec<Potential>,
    /// Dynamic rules: candidates left once the implied offs are taken out, and the places
    /// left for each digit in each unit (`places[u * n + digit - 1]`).
    left: Vec<u16>,
    places: Vec<u8>,
    /// The first potential reached whose opposite was reached too.
    conflict: Option<Potential>,
    /// Per potential reached: its links from the start ([`Self::round_trip`]'s scratch).
    depth: Vec<u32>,
    /// Ancestor walk: visit stamps, stack and causes.
    stamp: Vec<u32>,
    current: u32,
    stack: Vec<Potential>,
    parents: Vec<Potential>,
    /// Dynamic rules: the offs and the ons reached and not yet followed, in the
    /// reference's order ([`Self::run_ons_first`]).
    pending: [VecDeque<Potential>; 2],
}

impl<'b> Deref for Run<'_, 'b> {
    type Target = Links<'b>;
    fn deref(&self) -> &Links<'b> {
        self.links
    }
}

impl<'l, 'b> Run<'l, 'b> {
    /// Runs over `links`.
    pub fn new(links: &'l Links<'b>) -> Run<'l, 'b> {
        let (words, potentials) = (links.words, 2 * links.candidates());
        Run {
            links,
            off: vec![0; words],
            on: vec![0; words],
            allowed: vec![u64::MAX; words],
            cause: vec![Cause::Start; potentials],
            order: Vec::with_capacity(potentials),
            left: links.board.candidates().to_vec(),
            places: links.places_at_start.clone(),
            conflict: None,
            depth: vec![0; potentials],
            stamp: vec![0; potentials],
            current: 0,
            stack: Vec::new(),
            parents: Vec::new(),
            pending: [VecDeque::new(), VecDeque::new()],
        }
    }

    /// Limits the next static runs to the candidates `closure` holds both on and off, or
    /// lifts the limit (`None`).
    ///
    /// With `closure` what the start implies, that is every potential on a path from the
    /// start to its opposite: static links are symmetric (q implies r exactly when not r
    /// implies not q), so a potential leading to the opposite has its own opposite implied
    /// by the start. A run so limited reaches the opposite at the same depth, through the
    /// same causes, as an unlimited one, with far less work.
    pub fn only_through(&mut self, closure: Option<PotentialSlice>) {
        debug_assert!(!self.links.rules.dynamic, "dynamic links are not symmetric");
        match closure {
            Some(c) => {
                for (a, both) in self.allowed.iter_mut().zip(c.both_ways()) {
                    *a = both;
                }
            }
            None => self.allowed.fill(u64::MAX),
        }
    }

    /// Follows `start` as far as the rules go, or until `stop`.
    pub fn run(&mut self, start: Potential, stop: RunStop) {
        self.off.fill(0);
        self.on.fill(0);
        self.order.clear();
        self.conflict = None;
        if self.links.rules.dynamic {
            self.left.copy_from_slice(self.links.board.candidates());
            self.places.copy_from_slice(&self.links.places_at_start);
        }
        self.reach(start, Cause::Start);
        if self.links.rules.dynamic {
            self.run_ons_first(stop);
            return;
        }
        let links = self.links;
        // Potentials order[..level_end] are `depth` links or fewer from the start.
        let (mut next, mut level_end, mut depth) = (0, 1, 0);
        while next < self.order.len() && !self.stops(stop) {
            if next == level_end {
                depth += 1;
                level_end = self.order.len();
            }
            if let RunStop::AtReaching(_, nodes) = stop {
                // Following a potential `depth` links away makes chains of depth + 2 nodes.
                if depth + 2 > nodes {
                    break;
                }
            }
            let p = self.order[next];
            next += 1;
            let k = p as usize / 2;
            if p % 2 == 1 {
                self.on_to_off(p, k);
            } else {
                for &j in links.strong(k) {
                    let j = j as usize;
                    if self.allowed[j / 64] & (1 << (j % 64)) != 0 {
                        self.reach(2 * j as Potential + 1, Cause::By(p));
                    }
                }
            }
        }
    }

    /// Follows a dynamic run in Sukaku Explainer's order (its `doChaining`): every pending
    /// on before the next off, each on's offs in its cell then in its box, row and
    /// column, and an off takes its candidate out of the board when it is followed, not
    /// when reached. Which contradiction a run meets first, and through which causes,
    /// hangs on this order; the reference's dynamic chains score by those causes.
    fn run_ons_first(&mut self, stop: RunStop) {
        debug_assert!(
            !matches!(stop, RunStop::AtReaching(_, n) if n < usize::MAX),
            "dynamic runs have no depth"
        );
        while !self.stops(stop) {
            if let Some(p) = self.pending[1].pop_front() {
                self.on_to_off_in_order(p);
            } else if let Some(p) = self.pending[0].pop_front() {
                let k = p as usize / 2;
                self.take_out(k);
                self.dynamic_off_to_on(k);
            } else {
                break;
            }
        }
        self.pending[0].clear();
        self.pending[1].clear();
    }

    fn stops(&self, stop: RunStop) -> bool {
        match stop {
            RunStop::AtEnd => false,
            RunStop::AtConflict => self.conflict.is_some(),
            RunStop::AtReaching(p, _) => self.reached(p),
        }
    }

    /// The fewest links from the start to its opposite by way of a potential the last
    /// static run reached both on and off, if it reached one.
    ///
    /// Static links are symmetric (q implies r exactly when not r implies not q), so a
    /// path from the start to q and one from the start to not q make a chain from the
    /// start through q to its opposite, and the middle potential of the start's shortest
    /// chain is reached both ways within half its links. A run half as deep as a chain
    /// may be long thus tells whether there is one, for a fraction of the work.
    pub fn round_trip(&mut self) -> Option<usize> {
        debug_assert!(!self.links.rules.dynamic, "dynamic causes are not single");
        // Breadth first: a cause comes before what it implies.
        for &q in &self.order {
            self.depth[q as usize] = match self.cause[q as usize] {
                Cause::By(p) => self.depth[p as usize] + 1,
                _ => 0,
            };
        }
        self.order
            .iter()
            .filter(|&&q| self.reached(q ^ 1))
            .map(|&q| (self.depth[q as usize] + self.depth[q as usize ^ 1]) as usize)
            .min()
    }

    /// Whether the last run reached `p`.
    pub fn reached(&self, p: Potential) -> bool {
        let set = if p % 2 == 1 { &self.on } else { &self.off };
        let k = p as usize / 2;
        set[k / 64] & (1 << (k % 64)) != 0
    }

    /// The first potential the last run reached both on and off, if any.
    pub fn conflict(&self) -> Option<Potential> {
        self.conflict
    }

    /// The last run, kept to be restored later without following it again.
    pub fn trace(&self) -> Trace {
        Trace {
            reached: self
                .order
                .iter()
                .map(|&p| (p, self.cause[p as usize]))
                .collect(),
            conflict: self.conflict,
        }
    }

    /// Makes a traced run the last run again.
    pub fn restore(&mut self, trace: &Trace) {
        self.off.fill(0);
        self.on.fill(0);
        self.order.clear();
        for &(p, cause) in &trace.reached {
            let k = p as usize / 2;
            let set = if p % 2 == 1 {
                &mut self.on
            } else {
                &mut self.off
            };
            set[k / 64] |= 1 << (k % 64);
            self.cause[p as usize] = cause;
            self.order.push(p);
        }
        self.conflict = trace.conflict;
    }

    /// Writes the potentials reached by the last run into `out` (`set_width` words): for
    /// a dynamic run, those reached before its contradiction, if it met one.
    pub fn write_reached(&self, out: &mut [u64]) {
        let (off, on) = out.split_at_mut(self.links.words);
        off.copy_from_slice(&self.off);
        on.copy_from_slice(&self.on);
        if let (true, Some(x)) = (self.links.rules.dynamic, self.conflict) {
            let k = x as usize / 2;
            let side = if x % 2 == 1 { on } else { off };
            side[k / 64] &= !(1 << (k % 64));
        }
    }

    /// Potentials reached by the last run.
    #[cfg(test)]
    pub fn reached_set(&self) -> super::PotentialSet {
        let mut set = self.links.empty_set();
        self.write_reached(&mut set.0);
        set
    }

    /// Nodes of the chains that lead to `p` (itself and every potential it rests on), and
    /// whether they are the reference's X-chain: on static links, no link inside a cell
    /// (so one digit throughout, but for the links a rule set adds between digits of
    /// touching cells); on dynamic ones, whether they all concern one digit.
    pub fn ancestors(&mut self, p: Potential) -> (usize, bool) {
        let digit = self.links.split(p).1;
        if !self.links.rules.dynamic {
            // Static causes are single: the chain back to the start, without the walk's
            // stack and stamps.
            let (mut count, mut x_chain, mut q) = (1, true, p);
            while let Cause::By(parent) = self.cause[q as usize] {
                count += 1;
                x_chain &= self.links.split(parent).0 != self.links.split(q).0;
                q = parent;
            }
            return (count, x_chain);
        }
        self.current += 1;
        self.stack.clear();
        self.stack.push(p);
        self.stamp[p as usize] = self.current;
        let (mut count, mut one_digit) = (0, true);
        let mut parents = std::mem::take(&mut self.parents);
        while let Some(q) = self.stack.pop() {
            count += 1;
            one_digit &= self.links.split(q).1 == digit;
            self.parents_of(q, &mut parents);
            for &parent in &parents {
                if self.stamp[parent as usize] != self.current {
                    self.stamp[parent as usize] = self.current;
                    self.stack.push(parent);
                }
            }
        }
        self.parents = parents;
        (count, one_digit)
    }

    /// The chain to `p` through first causes, the assumption first.
    pub fn chain(&self, p: Potential) -> Vec<Link> {
        let link = |q: Potential| {
            let (cell, digit, on) = self.links.split(q);
            Link { cell, digit, on }
        };
        let mut chain = vec![link(p)];
        let mut parents = Vec::new();
        let mut at = p;
        loop {
            self.parents_of(at, &mut parents);
            let Some(&first) = parents.first() else { break };
            at = first;
            chain.push(link(at));
        }
        chain.reverse();
        chain
    }

    /// The potentials that caused `q` in the last run.
    fn parents_of(&self, q: Potential, out: &mut Vec<Potential>) {
        out.clear();
        let b = self.links.board;
        let (cell, digit, _) = self.links.split(q);
        match self.cause[q as usize] {
            Cause::Start => {}
            Cause::By(p) => out.push(p),
            Cause::LastInCell => out.extend(
                digits(b.cand(cell) & !(1 << (digit - 1)))
                    .map(|d| self.links.potential(cell, d, false)),
            ),
            Cause::LastInUnit(slot) => {
                let u = slot as usize / self.links.n;
                let unit = b.unit(u);
                out.extend(
                    digits(b.positions(u, digit))
                        .map(|i| unit[i as usize - 1] as usize)
                        .filter(|&c| c != cell)
                        .map(|c| self.links.potential(c, digit, false)),
                );
            }
        }
    }

    #[inline]
    fn reach(&mut self, q: Potential, cause: Cause) {
        // A dynamic run stops at its contradiction, as the reference's does.
        if self.links.rules.dynamic && self.conflict.is_some() {
            return;
        }
        let k = q as usize / 2;
        let (word, bit) = (k / 64, 1u64 << (k % 64));
        let (set, opposite) = if q % 2 == 1 {
            (&mut self.on, &self.off)
        } else {
            (&mut self.off, &self.on)
        };
        if set[word] & bit != 0 {
            return;
        }
        set[word] |= bit;
        if opposite[word] & bit != 0 && self.conflict.is_none() {
            self.conflict = Some(q);
        }
        self.cause[q as usize] = cause;
        self.order.push(q);
        if self.links.rules.dynamic {
            self.pending[q as usize % 2].push_back(q);
        }
    }

    /// Candidate `k` is on: every candidate it kills is off (static runs, breadth first).
    fn on_to_off(&mut self, p: Potential, k: usize) {
        let kills = self.links.kills_of(k);
        for (w, &kill) in kills.iter().enumerate() {
            // Offs new to this run, taken as a whole word: none was reached before.
            let mut fresh = kill & !self.off[w] & self.allowed[w];
            if fresh == 0 {
                continue;
            }
            self.off[w] |= fresh;
            if self.conflict.is_none() && fresh & self.on[w] != 0 {
                let j = w * 64 + (fresh & self.on[w]).trailing_zeros() as usize;
                self.conflict = Some(2 * j as Potential);
            }
            while fresh != 0 {
                let j = w * 64 + fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                let q = 2 * j as Potential;
                self.cause[q as usize] = Cause::By(p);
                self.order.push(q);
            }
        }
    }

    /// Dynamic: on `p` turns off, in the reference's order, its cell's other candidates
    /// (by digit), then its digit in its box, row and column (by place) and any other
    /// unit, then whatever else it kills (cells a move away, touching cells' barred
    /// digits).
    fn on_to_off_in_order(&mut self, p: Potential) {
        let links = self.links;
        let k = p as usize / 2;
        let (cell, digit) = links.candidate[k];
        let (cell, b) = (cell as usize, links.board);
        let kills = links.kills_of(k);
        let off = |run: &mut Self, j: usize| {
            if kills[j / 64] & (1 << (j % 64)) != 0 {
                run.reach(2 * j as Potential, Cause::By(p));
            }
        };
        if !links.rules.one_digit {
            for d in digits(b.cand(cell) & !(1 << (digit - 1))) {
                off(self, links.potential(cell, d, false) as usize / 2);
            }
        }
        let layout = b.layout();
        let [row, col, bx] = layout.units_of(cell);
        let units = [bx, row, col]
            .into_iter()
            .chain(layout.extra_units_of(cell).iter().map(|&u| u as usize));
        for u in units {
            let unit = layout.unit(u);
            for at in digits(b.positions(u, digit)) {
                let other = unit[at as usize - 1] as usize;
                if other != cell {
                    off(self, links.potential(other, digit, false) as usize / 2);
                }
            }
        }
        for (w, &kill) in kills.iter().enumerate() {
            let mut rest = kill & !self.off[w];
            while rest != 0 {
                let j = w * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                self.reach(2 * j as Potential, Cause::By(p));
            }
        }
    }

    /// Dynamic: after candidate `k` went off, a naked single in its cell or a hidden single
    /// of its digit in one of its units is on.
    fn dynamic_off_to_on(&mut self, k: usize) {
        let cell = self.links.candidate[k].0 as usize;
        let left = self.left[cell];
        if !self.links.rules.one_digit && left.count_ones() == 1 {
            let single = left.trailing_zeros() as u8 + 1;
            self.reach(self.links.potential(cell, single, true), Cause::LastInCell);
        }
        let links = self.links;
        // The reference's order: box, row, column, then any other unit.
        let slots = &links.place_slots[k];
        let in_order = [2, 0, 1]
            .into_iter()
            .chain(3..slots.len())
            .map(|i| slots[i]);
        // An off is followed once, so a count comes down to one once: no slot fires twice.
        for slot in in_order {
            if self.places[slot as usize] != 1 {
                continue;
            }
            // The one candidate of the slot still on the board (its off may be reached
            // and not yet followed: then the run meets a contradiction).
            let only = links
                .slot_candidates(slot)
                .iter()
                .copied()
                .find(|&j| {
                    let (cell, digit) = links.candidate[j as usize];
                    self.left[cell as usize] & (1 << (digit - 1)) != 0
                })
                .expect("one place is left");
            self.reach(2 * only + 1, Cause::LastInUnit(slot));
        }
    }

    /// Dynamic rules: candidate `k` is off, so its cell and its units have one place less.
    #[inline]
    fn take_out(&mut self, k: usize) {
        let (cell, digit) = self.links.candidate[k];
        self.left[cell as usize] &= !(1 << (digit - 1));
        for &slot in &self.links.place_slots[k] {
            self.places[slot as usize] -= 1;
        }
    }
}
