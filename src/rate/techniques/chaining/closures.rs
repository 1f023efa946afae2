//! Everything each potential implies under static rules, for all potentials at once.

use super::graph::LinkGraph;
use super::potentials::{ones, Potential, PotentialSet, PotentialSlice};
use super::NONE;

/// Everything each potential implies under static rules (see [`Implications::closures`]).
pub struct Closures {
    /// Component of each potential.
    comp: Vec<u32>,
    /// What each component implies, `width` words each.
    sets: Vec<u64>,
    width: usize,
    /// Cell and digit of each candidate, as the links number them.
    candidate: Vec<(u16, u8)>,
}

impl Closures {
    /// What `p` implies, itself included.
    pub fn of(&self, p: Potential) -> PotentialSlice<'_> {
        let at = self.comp[p as usize] as usize * self.width;
        PotentialSet(&self.sets[at..at + self.width])
    }

    /// Whether candidate `k` assumed on implies itself off (a static chain removes it).
    pub fn on_implies_off(&self, k: usize) -> bool {
        let on = 2 * k as Potential + 1;
        self.of(on).contains(on ^ 1)
    }

    /// The candidates that `p` and its opposite both imply off (whichever way `p` goes,
    /// they go), as candidate bit set words.
    pub fn off_either_way(&self, p: Potential) -> impl Iterator<Item = u64> + '_ {
        let half = self.width / 2;
        let (this, other) = (self.of(p), self.of(p ^ 1));
        this.0[..half]
            .iter()
            .zip(&other.0[..half])
            .map(|(a, b)| a & b)
    }

    /// The candidates that go as `p` goes and those that go the other way, as pairs of
    /// candidate bit set words: on when `p` is and off when `p` is not, and the reverse,
    /// along the implications of `p` and of its opposite.
    pub fn alike_and_opposite(&self, p: Potential) -> impl Iterator<Item = (u64, u64)> + '_ {
        let half = self.width / 2;
        let (this, other) = (self.of(p), self.of(p ^ 1));
        let ((this_off, this_on), (other_off, other_on)) =
            (this.0.split_at(half), other.0.split_at(half));
        let (alike, opposite) = if p % 2 == 1 {
            (this_on.iter().zip(other_off), this_off.iter().zip(other_on))
        } else {
            (this_off.iter().zip(other_on), this_on.iter().zip(other_off))
        };
        alike.zip(opposite).map(|((a, b), (c, d))| (a & b, c & d))
    }

    /// Number of candidates (potentials are twice as many).
    pub fn candidates(&self) -> usize {
        self.candidate.len()
    }

    /// The cell and digit of candidate `k`.
    pub fn candidate(&self, k: usize) -> (usize, u8) {
        let (cell, digit) = self.candidate[k];
        (cell as usize, digit)
    }
}

impl LinkGraph {
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
        let potentials = 2 * self.candidates();
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
            'visit: while let Some(&(v, next)) = calls.last() {
                // v's edges from `next` on, up to the first that leads somewhere new.
                for at in next..first[v + 1] {
                    let w = edges[at as usize] as usize;
                    if index[w] == NONE {
                        calls.last_mut().expect("v is being visited").1 = at + 1;
                        index[w] = counter;
                        low[w] = counter;
                        counter += 1;
                        stack.push(w as u32);
                        calls.push((w, first[w]));
                        continue 'visit;
                    }
                    if comp[w] == NONE {
                        low[v] = low[v].min(index[w]);
                    }
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
                        set.add_offs(self.kills_of(m as usize / 2));
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
        Closures {
            comp,
            sets,
            width,
            candidate: self.candidate.clone(),
        }
    }

    /// The potentials `p` implies directly under static rules that lead on: for an on
    /// potential, the offs of the candidates it kills among `leads_on`.
    fn successors(&self, p: Potential, leads_on: &[u64], out: &mut Vec<Potential>) {
        let k = p as usize / 2;
        if p % 2 == 1 {
            for (w, (&word, &on)) in self.kills_of(k).iter().zip(leads_on).enumerate() {
                out.extend(ones(word & on).map(|b| 2 * (w as u32 * 64 + b)));
            }
        } else {
            out.extend(self.strong(k).iter().map(|&j| 2 * j + 1));
        }
    }
}
