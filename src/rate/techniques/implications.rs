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

use crate::grid::CellSet;
use crate::rate::board::{digits, Board};
use crate::rate::step::Link;

/// A candidate assumed on (`2 * candidate + 1`) or off (`2 * candidate`). Candidates are
/// the open cells' candidates of the board, numbered from 0 in cell and digit order (see
/// [`Implications::potential`]), so bit sets are as small as the board's candidates.
pub type Potential = u32;

/// Which links an assumption is followed along.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Off→on links from the changing board (naked and hidden singles) rather than from
    /// the board as it stands.
    pub dynamic: bool,
    /// Follow only links on the assumption's digit (Nishio): no links inside a cell.
    pub one_digit: bool,
}

/// A set of potentials: the off half, then the on half, one bit per candidate each.
/// Owned (`Vec`) or borrowed from a larger store (a slice).
#[derive(Clone, Debug, PartialEq)]
pub struct PotentialSet<W = Vec<u64>>(W);

/// A set of potentials borrowed from a larger store.
pub type PotentialSlice<'a> = PotentialSet<&'a [u64]>;

impl<W: AsRef<[u64]>> PotentialSet<W> {
    fn words(&self) -> &[u64] {
        self.0.as_ref()
    }

    /// Whether the set holds `p`.
    pub fn contains(&self, p: Potential) -> bool {
        let i = self.index(p);
        self.words()[i / 64] & (1 << (i % 64)) != 0
    }

    /// The candidates in the set both on and off, as candidate bit set words.
    fn both_ways(&self) -> impl Iterator<Item = u64> + '_ {
        let (off, on) = self.words().split_at(self.words().len() / 2);
        off.iter().zip(on).map(|(a, b)| a & b)
    }

    /// Whether some candidate is in the set both on and off: the assumptions behind it
    /// contradict each other.
    pub fn contradicts(&self) -> bool {
        self.both_ways().any(|w| w != 0)
    }

    /// Bit position of `p`: its candidate, in the on half when on.
    fn index(&self, p: Potential) -> usize {
        (p as usize / 2) + (p as usize % 2) * (self.words().len() / 2) * 64
    }

    /// Whether `other` holds every potential of this set.
    #[cfg(test)]
    pub fn is_subset<V: AsRef<[u64]>>(&self, other: &PotentialSet<V>) -> bool {
        self.words()
            .iter()
            .zip(other.words())
            .all(|(a, b)| a & !b == 0)
    }

    /// The potentials in the set, in order of candidate, offs first.
    pub fn iter(&self) -> impl Iterator<Item = Potential> + '_ {
        let half = self.words().len() / 2;
        self.words().iter().enumerate().flat_map(move |(w, &word)| {
            let on = u32::from(w >= half);
            let base = ((w % half) * 64) as u32;
            ones(word).map(move |b| 2 * (base + b) + on)
        })
    }

    /// An owned copy.
    #[cfg(test)]
    pub fn to_owned_set(&self) -> PotentialSet {
        PotentialSet(self.words().to_vec())
    }
}

impl<'a> PotentialSlice<'a> {
    /// A set borrowed from a store of sets.
    pub fn borrowed(words: &'a [u64]) -> PotentialSlice<'a> {
        PotentialSet(words)
    }
}

impl<W: AsMut<[u64]> + AsRef<[u64]>> PotentialSet<W> {
    /// Makes this set equal to `other` (of the same width).
    pub fn assign<V: AsRef<[u64]>>(&mut self, other: &PotentialSet<V>) {
        self.0.as_mut().copy_from_slice(other.words());
    }

    /// Keeps only the potentials also in `other`.
    pub fn retain_common<V: AsRef<[u64]>>(&mut self, other: &PotentialSet<V>) {
        for (a, b) in self.0.as_mut().iter_mut().zip(other.words()) {
            *a &= b;
        }
    }

    /// Adds the potentials of `other`.
    pub fn add_all<V: AsRef<[u64]>>(&mut self, other: &PotentialSet<V>) {
        for (a, b) in self.0.as_mut().iter_mut().zip(other.words()) {
            *a |= b;
        }
    }

    /// Adds the off potentials of the candidates `cands` (a candidate bit set).
    fn add_offs(&mut self, cands: &[u64]) {
        for (a, b) in self.0.as_mut().iter_mut().zip(cands) {
            *a |= b;
        }
    }

    /// Adds one potential.
    pub fn insert(&mut self, p: Potential) {
        let i = self.index(p);
        self.0.as_mut()[i / 64] |= 1 << (i % 64);
    }
}

/// The set bits of a word, lowest first.
fn ones(mut word: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let b = word.trailing_zeros();
            word &= word - 1;
            b
        })
    })
}

/// Not a number: no candidate, no component.
const NONE: u32 = u32::MAX;

/// Where a run may stop before following everything.
#[derive(Clone, Copy, Debug)]
pub enum Stop {
    /// Follow everything.
    AtEnd,
    /// Stop at the first potential reached both on and off (see
    /// [`Implications::conflict`]).
    AtConflict,
    /// Stop once this potential is reached, or once no chain to it of at most this many
    /// nodes is left to find.
    AtReaching(Potential, usize),
}

/// A run kept for later (see [`Implications::trace`]).
#[derive(Default)]
pub struct Trace {
    reached: Vec<(Potential, Cause)>,
    conflict: Option<Potential>,
}

/// Everything each potential implies under static rules (see [`Implications::closures`]).
pub struct Closures {
    /// Component of each potential.
    comp: Vec<u32>,
    /// What each component implies, `width` words each.
    sets: Vec<u64>,
    width: usize,
}

impl Closures {
    /// What `p` implies, itself included.
    pub fn of(&self, p: Potential) -> PotentialSlice<'_> {
        let at = self.comp[p as usize] as usize * self.width;
        PotentialSet(&self.sets[at..at + self.width])
    }
}

/// Why a potential was reached: the potential that implied it, or for dynamic rules the
/// cell or unit left with one place (its causes are every off that emptied the rest).
#[derive(Clone, Copy, Debug)]
enum Cause {
    Start,
    By(Potential),
    LastInCell,
    LastInUnit(u16),
}

/// The consequences of one assumption on one board, with reusable buffers.
#[derive(Clone)]
///
/// The links of the board are built once: for every candidate, the candidates its being
/// on turns off (as a bit set, so a whole peer group is taken in a few word operations)
/// and, for static rules, the candidates its being off turns on.
pub struct Implications<'b> {
    board: &'b Board,
    rules: Rules,
    n: usize,
    /// Words of a candidate bit set.
    words: usize,
    /// Number of each board candidate `cell * n + digit - 1` (`NONE` when not open).
    number: Vec<u32>,
    /// Cell and digit of each numbered candidate.
    candidate: Vec<(u16, u8)>,
    /// `kills[k * words..]`: candidates turned off when candidate `k` is on.
    kills: Vec<u64>,
    /// Static rules: candidates turned on when candidate `k` is off (bivalue cell partner,
    /// other place of a digit with two places in a unit), `strong[strong_at[k]..]`.
    strong: Vec<u32>,
    strong_at: Vec<u32>,
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
    /// left for each digit in each unit (`places[u * n + digit - 1]`, `places_at_start`
    /// on the board as it stands).
    left: Vec<u16>,
    places: Vec<u8>,
    places_at_start: Vec<u8>,
    /// The row, column and box of each candidate's cell.
    units: Vec<[u16; 3]>,
    /// The first potential reached whose opposite was reached too.
    conflict: Option<Potential>,
    /// Ancestor walk: visit stamps, stack and causes.
    stamp: Vec<u32>,
    current: u32,
    stack: Vec<Potential>,
    parents: Vec<Potential>,
}

impl<'b> Implications<'b> {
    /// The links of `board` under `rules`.
    pub fn new(board: &'b Board, rules: Rules) -> Implications<'b> {
        let n = board.n();
        let mut number = vec![NONE; board.cells() * n];
        // Reserved at once (growing these showed in profiles).
        let mut candidate = Vec::with_capacity(board.cells() * n);
        // Open cells holding each digit.
        let mut holding = vec![CellSet::default(); n + 1];
        for cell in (0..board.cells()).filter(|&c| board.is_open(c)) {
            for digit in digits(board.cand(cell)) {
                number[cell * n + digit as usize - 1] = candidate.len() as u32;
                candidate.push((cell as u16, digit));
                holding[digit as usize].insert(cell);
            }
        }
        let candidates = candidate.len();
        let words = candidates.div_ceil(64).max(1);
        let id = |cell: usize, digit: u8| number[cell * n + digit as usize - 1] as usize;
        let mut kills = vec![0u64; candidates * words];
        // A candidate has at most four strong partners: its cell's other digit, and one in
        // each unit.
        let mut strong = Vec::with_capacity(4 * candidates);
        let mut strong_at = Vec::with_capacity(candidates + 1);
        for (k, &(cell, digit)) in candidate.iter().enumerate() {
            let cell = cell as usize;
            let bit = 1u16 << (digit - 1);
            let kill = &mut kills[k * words..(k + 1) * words];
            let mut set = |j: usize| kill[j / 64] |= 1 << (j % 64);
            if !rules.one_digit {
                digits(board.cand(cell) & !bit).for_each(|e| set(id(cell, e)));
            }
            for peer in board.peer_set(cell).and(holding[digit as usize]).iter() {
                set(id(peer, digit));
            }
            strong_at.push(strong.len() as u32);
            if rules.dynamic {
                continue;
            }
            if !rules.one_digit && board.cand(cell).count_ones() == 2 {
                let other = (board.cand(cell) & !bit).trailing_zeros() as u8 + 1;
                strong.push(id(cell, other) as u32);
            }
            for u in board.units_of(cell) {
                let places = board.positions(u, digit);
                if places.count_ones() == 2 {
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
        let mut places_at_start = Vec::with_capacity(board.unit_count() * n);
        places_at_start
            .extend((0..board.unit_count()).flat_map(|u| {
                (1..=n as u8).map(move |d| board.positions(u, d).count_ones() as u8)
            }));
        let units = candidate
            .iter()
            .map(|&(cell, _)| board.units_of(cell as usize).map(|u| u as u16))
            .collect();
        Implications {
            board,
            rules,
            n,
            words,
            number,
            candidate,
            kills,
            strong,
            strong_at,
            off: vec![0; words],
            on: vec![0; words],
            allowed: vec![u64::MAX; words],
            cause: vec![Cause::Start; 2 * candidates],
            order: Vec::with_capacity(2 * candidates),
            left: board.candidates().to_vec(),
            places: places_at_start.clone(),
            places_at_start,
            units,
            conflict: None,
            stamp: vec![0; 2 * candidates],
            current: 0,
            stack: Vec::new(),
            parents: Vec::new(),
        }
    }

    /// The same board's engine under static rules on one digit, derived from this static
    /// one instead of built again: the same candidates and numbering, without the links
    /// inside a cell (a cell's candidates are numbered in a row).
    pub fn one_digit(&self) -> Implications<'b> {
        debug_assert!(!self.rules.dynamic && !self.rules.one_digit);
        let mut derived = self.clone();
        derived.rules.one_digit = true;
        let words = self.words;
        derived.strong.clear();
        derived.strong_at.clear();
        for (k, &(cell, _)) in self.candidate.iter().enumerate() {
            let cell_cands = self.board.cand(cell as usize);
            let first = self.number[cell as usize * self.n + cell_cands.trailing_zeros() as usize];
            let kill = &mut derived.kills[k * words..(k + 1) * words];
            for j in first as usize..first as usize + cell_cands.count_ones() as usize {
                kill[j / 64] &= !(1 << (j % 64));
            }
            derived.strong_at.push(derived.strong.len() as u32);
            let others = self.strong(k).iter().copied();
            derived
                .strong
                .extend(others.filter(|&j| self.candidate[j as usize].0 != cell));
        }
        derived.strong_at.push(derived.strong.len() as u32);
        derived
    }

    /// Everything each potential implies under static rules, to the end (through any
    /// contradiction), for all potentials at once: each strongly connected component of
    /// the link graph implies its members and whatever its successors imply, and Tarjan's
    /// algorithm completes the successors first.
    ///
    /// An off potential without a strong link implies nothing further, so the graph keeps
    /// no edge to it: an on potential takes in every candidate it kills as one bit set,
    /// and only the kills that lead on as edges.
    pub fn closures(&self) -> Closures {
        debug_assert!(!self.rules.dynamic, "closures follow static links");
        let potentials = self.cause.len();
        let words = self.words;
        // Candidates whose off potential leads on (has a strong link).
        let mut leads_on = vec![0u64; words];
        for k in 0..self.candidates() {
            if !self.strong(k).is_empty() {
                leads_on[k / 64] |= 1 << (k % 64);
            }
        }
        // Reserved at once (growing these showed in profiles); a potential has a few
        // successors on average.
        let mut first = Vec::with_capacity(potentials + 1);
        let mut edges = Vec::with_capacity(4 * potentials);
        for p in 0..potentials as Potential {
            first.push(edges.len() as u32);
            self.successors(p, &leads_on, &mut edges);
        }
        first.push(edges.len() as u32);
        let mut index = vec![NONE; potentials];
        let mut low = vec![0u32; potentials];
        let mut comp = vec![NONE; potentials];
        let mut stack = Vec::with_capacity(potentials);
        let mut calls = Vec::with_capacity(potentials);
        let mut members = Vec::with_capacity(potentials);
        let width = 2 * self.words;
        // At most one set per potential: reserved at once, the store never moves.
        let mut sets: Vec<u64> = Vec::with_capacity(potentials * width);
        // Per component: the last component whose set took it in (each is taken once).
        let mut added: Vec<u32> = Vec::with_capacity(potentials);
        let mut counter = 0;
        for root in 0..potentials {
            if index[root] != NONE {
                continue;
            }
            index[root] = counter;
            low[root] = counter;
            counter += 1;
            stack.push(root as u32);
            calls.push((root, first[root]));
            while let Some(&mut (v, ref mut next)) = calls.last_mut() {
                if *next < first[v + 1] {
                    let w = edges[*next as usize] as usize;
                    *next += 1;
                    if index[w] == NONE {
                        index[w] = counter;
                        low[w] = counter;
                        counter += 1;
                        stack.push(w as u32);
                        calls.push((w, first[w]));
                    } else if comp[w] == NONE {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(u, _)) = calls.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] != index[v] {
                    continue;
                }
                let c = added.len() as u32;
                members.clear();
                loop {
                    let m = stack.pop().expect("the root is on the stack");
                    comp[m as usize] = c;
                    members.push(m);
                    if m as usize == v {
                        break;
                    }
                }
                // The component's set goes at the end of the store; the sets it takes in
                // are earlier ones.
                added.push(c);
                let at = sets.len();
                sets.resize(at + width, 0);
                let (done, set) = sets.split_at_mut(at);
                let mut set = PotentialSet(set);
                for &m in &members {
                    set.insert(m);
                    if m % 2 == 1 {
                        let at = (m as usize / 2) * words;
                        set.add_offs(&self.kills[at..at + words]);
                    }
                    let m = m as usize;
                    for &w in &edges[first[m] as usize..first[m + 1] as usize] {
                        let to = comp[w as usize] as usize;
                        if added[to] != c {
                            added[to] = c;
                            set.add_all(&PotentialSet(&done[to * width..(to + 1) * width]));
                        }
                    }
                }
            }
        }
        Closures { comp, sets, width }
    }

    /// The potentials `p` implies directly under static rules that lead on: for an on
    /// potential, the offs of the candidates it kills among `leads_on`.
    fn successors(&self, p: Potential, leads_on: &[u64], out: &mut Vec<Potential>) {
        let k = p as usize / 2;
        if p % 2 == 1 {
            let at = k * self.words;
            for (w, (&word, &on)) in self.kills[at..at + self.words]
                .iter()
                .zip(leads_on)
                .enumerate()
            {
                out.extend(ones(word & on).map(|b| 2 * (w as u32 * 64 + b)));
            }
        } else {
            out.extend(self.strong(k).iter().map(|&j| 2 * j + 1));
        }
    }

    /// Number of candidates (potentials are twice as many).
    pub fn candidates(&self) -> usize {
        self.candidate.len()
    }

    /// The potential of `digit` in `cell`, which must be an open cell's candidate.
    pub fn potential(&self, cell: usize, digit: u8, on: bool) -> Potential {
        let k = self.number[cell * self.n + digit as usize - 1];
        debug_assert!(k != NONE, "not a candidate");
        2 * k + u32::from(on)
    }

    /// The cell, digit and polarity of a potential.
    pub fn split(&self, p: Potential) -> (usize, u8, bool) {
        let (cell, digit) = self.candidate[p as usize / 2];
        (cell as usize, digit, p % 2 == 1)
    }

    /// Static rules: candidates turned on when candidate `k` is off.
    fn strong(&self, k: usize) -> &[u32] {
        &self.strong[self.strong_at[k] as usize..self.strong_at[k + 1] as usize]
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
        debug_assert!(!self.rules.dynamic, "dynamic links are not symmetric");
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
    pub fn run(&mut self, start: Potential, stop: Stop) {
        self.off.fill(0);
        self.on.fill(0);
        self.order.clear();
        self.conflict = None;
        if self.rules.dynamic {
            self.left.copy_from_slice(self.board.candidates());
            self.places.copy_from_slice(&self.places_at_start);
        }
        self.reach(start, Cause::Start);
        // Potentials order[..level_end] are `depth` links or fewer from the start.
        let (mut next, mut level_end, mut depth) = (0, 1, 0);
        while next < self.order.len() && !self.stops(stop) {
            if next == level_end {
                depth += 1;
                level_end = self.order.len();
            }
            if let Stop::AtReaching(_, nodes) = stop {
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
            } else if self.rules.dynamic {
                self.dynamic_off_to_on(k);
            } else {
                for i in self.strong_at[k]..self.strong_at[k + 1] {
                    let j = self.strong[i as usize] as usize;
                    if self.allowed[j / 64] & (1 << (j % 64)) != 0 {
                        self.reach(2 * j as Potential + 1, Cause::By(p));
                    }
                }
            }
        }
    }

    fn stops(&self, stop: Stop) -> bool {
        match stop {
            Stop::AtEnd => false,
            Stop::AtConflict => self.conflict.is_some(),
            Stop::AtReaching(p, _) => self.reached(p),
        }
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

    /// Words of a potential set of this engine (offs, then ons).
    pub fn set_width(&self) -> usize {
        2 * self.words
    }

    /// An empty potential set of this engine.
    pub fn empty_set(&self) -> PotentialSet {
        PotentialSet(vec![0; self.set_width()])
    }

    /// Writes the potentials reached by the last run into `out` (`set_width` words).
    pub fn write_reached(&self, out: &mut [u64]) {
        let (off, on) = out.split_at_mut(self.words);
        off.copy_from_slice(&self.off);
        on.copy_from_slice(&self.on);
    }

    /// Potentials reached by the last run.
    #[cfg(test)]
    pub fn reached_set(&self) -> PotentialSet {
        let mut set = self.empty_set();
        self.write_reached(&mut set.0);
        set
    }

    /// Nodes of the chains that lead to `p` (itself and every potential it rests on), and
    /// whether they all concern one digit.
    pub fn ancestors(&mut self, p: Potential) -> (usize, bool) {
        self.current += 1;
        self.stack.clear();
        self.stack.push(p);
        self.stamp[p as usize] = self.current;
        let digit = self.split(p).1;
        let (mut count, mut one_digit) = (0, true);
        let mut parents = std::mem::take(&mut self.parents);
        while let Some(q) = self.stack.pop() {
            count += 1;
            one_digit &= self.split(q).1 == digit;
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
            let (cell, digit, on) = self.split(q);
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
        let b = self.board;
        let (cell, digit, _) = self.split(q);
        match self.cause[q as usize] {
            Cause::Start => {}
            Cause::By(p) => out.push(p),
            Cause::LastInCell => out.extend(
                digits(b.cand(cell) & !(1 << (digit - 1))).map(|d| self.potential(cell, d, false)),
            ),
            Cause::LastInUnit(u) => {
                let unit = b.unit(u as usize);
                out.extend(
                    digits(b.positions(u as usize, digit))
                        .map(|i| unit[i as usize - 1] as usize)
                        .filter(|&c| c != cell)
                        .map(|c| self.potential(c, digit, false)),
                );
            }
        }
    }

    #[inline]
    fn reach(&mut self, q: Potential, cause: Cause) {
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
        if self.rules.dynamic && q.is_multiple_of(2) {
            self.take_out(k);
        }
    }

    /// Candidate `k` is on: every candidate it kills is off.
    fn on_to_off(&mut self, p: Potential, k: usize) {
        let words = self.words;
        let at = k * words;
        for w in 0..words {
            // Offs new to this run, taken as a whole word: none was reached before.
            let mut fresh = self.kills[at + w] & !self.off[w] & self.allowed[w];
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
                if self.rules.dynamic {
                    self.take_out(j);
                }
            }
        }
    }

    /// Dynamic: after candidate `k` went off, a naked single in its cell or a hidden single
    /// of its digit in one of its units is on.
    fn dynamic_off_to_on(&mut self, k: usize) {
        let b = self.board;
        let (cell, digit) = self.candidate[k];
        let cell = cell as usize;
        let bit = 1u16 << (digit - 1);
        let left = self.left[cell];
        if !self.rules.one_digit && left.count_ones() == 1 {
            let single = left.trailing_zeros() as u8 + 1;
            self.reach(self.potential(cell, single, true), Cause::LastInCell);
        }
        for u in self.units[k] {
            let u = u as usize;
            if self.places[u * self.n + digit as usize - 1] != 1 {
                continue;
            }
            let unit = b.unit(u);
            let only = digits(b.positions(u, digit))
                .map(|i| unit[i as usize - 1] as usize)
                .find(|&c| self.left[c] & bit != 0)
                .expect("one place is left");
            self.reach(
                self.potential(only, digit, true),
                Cause::LastInUnit(u as u16),
            );
        }
    }

    /// Dynamic rules: candidate `k` is off, so its cell and its units have one place less.
    #[inline]
    fn take_out(&mut self, k: usize) {
        let (cell, digit) = self.candidate[k];
        self.left[cell as usize] &= !(1 << (digit - 1));
        for u in self.units[k] {
            self.places[u as usize * self.n + digit as usize - 1] -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_line;

    fn board() -> Board {
        // A puzzle that needs chains (SE 7.0 in the calibration file).
        Board::new(
            &parse_line(
                "050890000004002305010004020045706003700000004600405710020300050503600900000057030",
            )
            .unwrap(),
        )
    }

    fn engine(b: &Board, dynamic: bool) -> Implications<'_> {
        Implications::new(
            b,
            Rules {
                dynamic,
                one_digit: false,
            },
        )
    }

    #[test]
    fn potentials_number_every_open_candidate_once() {
        let b = board();
        let imp = engine(&b, false);
        let mut count = 0;
        for cell in (0..81).filter(|&c| b.is_open(c)) {
            for digit in digits(b.cand(cell)) {
                for on in [true, false] {
                    assert_eq!(imp.split(imp.potential(cell, digit, on)), (cell, digit, on));
                }
                count += 1;
            }
        }
        assert_eq!(imp.candidates(), count);
    }

    /// An on potential turns off the digit in every open peer and the cell's other
    /// candidates; every reached potential's chain leads back to the assumption.
    #[test]
    fn on_implies_off_for_peers_and_the_cell() {
        let b = board();
        let cell = (0..81).find(|&c| b.is_open(c)).unwrap();
        let digit = digits(b.cand(cell)).next().unwrap();
        let mut imp = engine(&b, false);
        imp.run(imp.potential(cell, digit, true), Stop::AtEnd);
        for &peer in b.peers(cell) {
            let peer = peer as usize;
            if b.is_open(peer) && b.cand(peer) & (1 << (digit - 1)) != 0 {
                assert!(imp.reached(imp.potential(peer, digit, false)));
            }
        }
        for other in digits(b.cand(cell) & !(1 << (digit - 1))) {
            assert!(imp.reached(imp.potential(cell, other, false)));
        }
        for p in imp.reached_set().iter() {
            let chain = imp.chain(p);
            assert_eq!(
                (chain[0].cell, chain[0].digit, chain[0].on),
                (cell, digit, true)
            );
            assert_eq!(imp.split(p), {
                let last = chain[chain.len() - 1];
                (last.cell, last.digit, last.on)
            });
        }
    }

    /// The closures of the whole link graph agree with following each potential.
    #[test]
    fn closures_match_one_run_per_potential() {
        let b = board();
        let mut imp = engine(&b, false);
        let closures = imp.closures();
        for p in 0..2 * imp.candidates() as Potential {
            imp.run(p, Stop::AtEnd);
            assert_eq!(
                closures.of(p).to_owned_set(),
                imp.reached_set(),
                "potential {p}"
            );
        }
    }

    /// The one-digit engine derived from the static one has the links of one built anew.
    #[test]
    fn derived_one_digit_links_match_built_ones() {
        let b = board();
        let built = Implications::new(
            &b,
            Rules {
                dynamic: false,
                one_digit: true,
            },
        );
        let derived = engine(&b, false).one_digit();
        assert_eq!(derived.kills, built.kills);
        assert_eq!(derived.strong, built.strong);
        assert_eq!(derived.strong_at, built.strong_at);
        let (a, c) = (derived.closures(), built.closures());
        for p in 0..2 * built.candidates() as Potential {
            assert_eq!(
                a.of(p).to_owned_set(),
                c.of(p).to_owned_set(),
                "potential {p}"
            );
        }
    }

    /// A run limited to what leads back to the start's opposite finds the same chain to it
    /// as an unlimited run, for every start that reaches its opposite.
    #[test]
    fn a_limited_run_finds_the_same_chain() {
        let b = board();
        let mut imp = engine(&b, false);
        let closures = imp.closures();
        let mut starts = 0;
        for p in 0..2 * imp.candidates() as Potential {
            if !closures.of(p).contains(p ^ 1) {
                continue;
            }
            starts += 1;
            imp.only_through(None);
            imp.run(p, Stop::AtReaching(p ^ 1, usize::MAX));
            let (chain, nodes) = (imp.chain(p ^ 1), imp.ancestors(p ^ 1));
            imp.only_through(Some(closures.of(p)));
            imp.run(p, Stop::AtReaching(p ^ 1, usize::MAX));
            assert!(imp.reached(p ^ 1), "potential {p}");
            assert_eq!(imp.chain(p ^ 1), chain, "potential {p}");
            assert_eq!(imp.ancestors(p ^ 1), nodes, "potential {p}");
        }
        assert!(starts > 0, "the board has forcing chains");
    }

    /// Without a contradiction, the dynamic rules reach at least what the static rules reach.
    #[test]
    fn dynamic_rules_reach_more() {
        let b = board();
        let (mut fixed, mut dynamic) = (engine(&b, false), engine(&b, true));
        let mut compared = 0;
        for p in 0..2 * fixed.candidates() as Potential {
            fixed.run(p, Stop::AtEnd);
            dynamic.run(p, Stop::AtEnd);
            if dynamic.conflict().is_none() {
                assert!(fixed.reached_set().is_subset(&dynamic.reached_set()));
                compared += 1;
            }
        }
        assert!(compared > 10, "only {compared} runs without a conflict");
    }

    /// A traced run comes back whole: the same potentials, conflict and chains.
    #[test]
    fn a_restored_trace_is_the_run() {
        let b = board();
        let mut imp = engine(&b, true);
        let start = (0..2 * imp.candidates() as Potential)
            .find(|&p| {
                imp.run(p, Stop::AtConflict);
                imp.conflict().is_some()
            })
            .expect("some assumption contradicts itself");
        imp.run(start, Stop::AtConflict);
        let (trace, set, conflict) = (imp.trace(), imp.reached_set(), imp.conflict());
        let nodes = imp.ancestors(conflict.unwrap());
        imp.run(start ^ 1, Stop::AtConflict);
        imp.restore(&trace);
        assert_eq!(imp.reached_set(), set);
        assert_eq!(imp.conflict(), conflict);
        assert_eq!(imp.ancestors(conflict.unwrap()), nodes);
    }
}
