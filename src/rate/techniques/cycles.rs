//! Bidirectional cycles, as Sudoku Explainer finds them (`Chaining.doCycles`): a loop of
//! alternating inferences that holds whichever way round it is read, so along each weak
//! link one end is on and the other off. A candidate outside the loop that sees an on node
//! and an off node of the same digit goes.
//!
//! Three kinds, by the links allowed: X-cycles (one digit, strong links are a digit's two
//! places in a unit), Y-cycles (bivalue cells, strong links inside a cell) score 6.5, and
//! cycles mixing both 7.0, each plus the chain length bonus over the loop's nodes.
//!
//! X-cycles of fewer than [`SHORTEST_X_LOOP`] nodes are not looked for: one that removes
//! a digit from a cell seeing an on node A and an off node B holds, read from A the other
//! way round to B, an X-chain A = ... = B of no more nodes that removes the same digit
//! and scores less (`chains`: 5.4 to 6.6 up to 12 nodes, against 6.5 plus the bonus).
//! The rater tries X-chains first and keeps the lowest score, so such a loop could never
//! be its step. For the same reason no X-cycle is walked on a digit where that X-chain
//! search found no chain within the loop's length ([`without_x_chain`]): at most steps
//! past X-chains it found none on any digit, and X-walks were about a tenth of this
//! search's time.
//!
//! A loop removes a digit d from a cell X only when X assumed d implies X without d along
//! the same static links: X = d turns off the on node A of d that X sees, the loop read
//! the other way round from A turns the off node B of d on, and B turns X's d off. And
//! every node S of the loop goes with A and against B: read from S assumed on, the loop
//! turns A on and B off; read from S assumed off, A off and B on. So a walk starts only
//! from a candidate S for which some cell X, not in S's cell, sees a candidate of d that
//! goes with S and one that goes against it, and holds a d that S either way turns off
//! and that implies its own removal ([`loop_starts`], from the
//! [closures](super::chaining::Links::shared_closures) the forcing chains of the same
//! step built already); on most boards there is none, and no loop is looked for.
//!
//! The search finds the reference's loops: from every candidate assumed on, a
//! breadth-first walk that reaches each on node once (by its shortest path); a loop closes
//! when an off node turns the start back on. The reference walks an off node again from
//! every on node that reaches it; here only the start's strong partners are (the other
//! repeats turn on nothing new).

use super::chaining::{ones, Closures, LinkGraph, Links, Potential};
use super::common::holding_each_digit;
use super::Technique;
use crate::grid::{Candidate, CellSet};
use crate::rate::board::{digits, two_bits, Board};
use crate::rate::memo::DigitSearch;
use crate::rate::techniques::step::{length_bonus, most_nodes_below, Link, Step};

/// Which links a cycle may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// One digit: links between cells only.
    X,
    /// Bivalue cells: strong links inside a cell only.
    Y,
    /// Both.
    Mixed,
}

impl Kind {
    /// Strong links inside a bivalue cell, and weak links from a cell's digit to its
    /// other candidates.
    fn in_cell(self) -> bool {
        self != Kind::X
    }

    /// Strong links between a digit's two places in a unit.
    fn in_unit(self) -> bool {
        self != Kind::Y
    }

    /// The fewest nodes of a loop of this kind that can be the rater's step.
    fn shortest(self) -> usize {
        match self {
            Kind::X => SHORTEST_X_LOOP,
            Kind::Y | Kind::Mixed => SHORTEST_LOOP,
        }
    }

    /// The score of a loop of no more than four nodes.
    fn base(self) -> f64 {
        match self {
            Kind::X | Kind::Y => Technique::Cycle.base_score(),
            Kind::Mixed => MIXED_CYCLE,
        }
    }
}

/// Score of a cycle whose links are of both kinds.
const MIXED_CYCLE: f64 = 7.0;

/// The fewest nodes of a loop (the reference closes loops from the second round on).
const SHORTEST_LOOP: usize = 4;

/// The fewest nodes of an X-cycle that can score less than the X-chain it holds (see the
/// module's doc): 14 nodes score 6.9, their X-chain 7.0.
const SHORTEST_X_LOOP: usize = 14;

/// A candidate as a number: `cell * n + digit - 1`.
type Cand = usize;

/// An off node of the walk: its candidate and the on node it came from.
#[derive(Clone, Copy)]
struct Off {
    cand: Cand,
    parent: Cand,
}

/// Scratch state of one walk, kept across starts.
struct Walk {
    n: usize,
    /// Per candidate: the walk (start number) that reached it on, its off node and depth
    /// (nodes from the start, itself included).
    reached_in: Vec<u32>,
    /// Per candidate: the walk that reached it off.
    off_in: Vec<u32>,
    on_parent: Vec<u32>,
    depth: Vec<u32>,
    /// The off nodes of the current walk, as reached (an on node's parent indexes here).
    offs: Vec<Off>,
    /// Open cells holding each digit (`[d]`).
    holding: Vec<CellSet>,
    /// Per kind, per digit: the cells where the digit assumed off turns something on
    /// (the others are dead ends of a walk).
    leads_on: [Vec<CellSet>; 3],
    /// Per candidate: the other candidate of its cell when the cell is bivalue (`NONE`).
    cell_partner: Vec<u32>,
    /// Per candidate: the digit's other place in each unit where it has two, at
    /// `unit_partners[unit_at[k]..unit_at[k + 1]]` (each place once).
    unit_partners: Vec<u32>,
    unit_at: Vec<u32>,
    /// The number of the current walk (marks in `reached_in` and `off_in`).
    walk: u32,
    /// Scratch lists of a walk: the on nodes of the next round, the off nodes of this
    /// one, the links out of a node, the start's strong partners.
    next_on: Vec<Cand>,
    offs_from: Vec<usize>,
    out: Vec<Cand>,
    closers: Vec<Cand>,
}

/// No candidate.
const NONE: u32 = u32::MAX;

/// No off node: the start.
const ROOT: u32 = u32::MAX;

impl Walk {
    fn new(b: &Board) -> Walk {
        let n = b.n();
        let holding = holding_each_digit(b);
        let size = b.cells() * n;
        let mut cell_partner = vec![NONE; size];
        // Reserved at once (growing these showed in profiles): a candidate has a few
        // unit partners at most, a walk reaches each candidate once on and once off.
        let mut unit_partners = Vec::with_capacity(2 * size);
        let mut unit_at = Vec::with_capacity(size + 1);
        for (k, partner) in cell_partner.iter_mut().enumerate() {
            unit_at.push(unit_partners.len() as u32);
            let Candidate { cell, digit } = Candidate::at(k, n);
            let cands = b.cand(cell);
            if !b.is_open(cell) || cands & (1 << (digit - 1)) == 0 {
                continue;
            }
            if two_bits(cands) {
                let other = (cands & !(1 << (digit - 1))).trailing_zeros() as u8 + 1;
                *partner = Candidate::new(cell, other).index(n) as u32;
            }
            let first = unit_partners.len();
            for u in b.layout().all_units_of(cell) {
                let places = b.positions(u, digit);
                if two_bits(places) {
                    for i in digits(places) {
                        let other = b.unit(u)[i as usize - 1] as usize;
                        let partner = Candidate::new(other, digit).index(n) as u32;
                        if other != cell && !unit_partners[first..].contains(&partner) {
                            unit_partners.push(partner);
                        }
                    }
                }
            }
        }
        unit_at.push(unit_partners.len() as u32);
        let mut leads_on: [Vec<CellSet>; 3] =
            std::array::from_fn(|_| vec![CellSet::default(); n + 1]);
        for k in (0..size).filter(|&k| unit_at[k] != unit_at[k + 1] || cell_partner[k] != NONE) {
            let Candidate { cell, digit } = Candidate::at(k, n);
            for kind in [Kind::X, Kind::Y, Kind::Mixed] {
                let leads = (kind.in_cell() && cell_partner[k] != NONE)
                    || (kind.in_unit() && unit_at[k] != unit_at[k + 1]);
                if leads {
                    leads_on[kind as usize][digit as usize].insert(cell);
                }
            }
        }
        Walk {
            walk: 0,
            next_on: Vec::with_capacity(size),
            offs_from: Vec::with_capacity(size),
            out: Vec::with_capacity(4 * n),
            closers: Vec::with_capacity(8),
            leads_on,
            n,
            cell_partner,
            unit_partners,
            unit_at,
            reached_in: vec![u32::MAX; size],
            off_in: vec![u32::MAX; size],
            on_parent: vec![ROOT; size],
            depth: vec![0; size],
            offs: Vec::with_capacity(size),
            holding,
        }
    }

    fn cand(&self, cell: usize, digit: u8) -> Cand {
        Candidate::new(cell, digit).index(self.n)
    }

    fn split(&self, k: Cand) -> (usize, u8) {
        let Candidate { cell, digit } = Candidate::at(k, self.n);
        (cell, digit)
    }

    /// Walks from `start` on, closing loops of at most `longest` nodes: the first loop
    /// with an elimination that scores below `bound`.
    fn walk_from(
        &mut self,
        b: &Board,
        kind: Kind,
        start: Cand,
        longest: usize,
        bound: f64,
    ) -> Option<Step> {
        // The off nodes that turn the start back on, where every loop ends: the strong
        // partners of the start (the links are symmetric).
        let mut closers = std::mem::take(&mut self.closers);
        closers.clear();
        turned_on(self, kind, start, &mut closers);
        let mut found = None;
        if !closers.is_empty() {
            self.walk += 1;
            self.offs.clear();
            self.reached_in[start] = self.walk;
            self.on_parent[start] = ROOT;
            self.depth[start] = 1;
            let mut next_on = std::mem::take(&mut self.next_on);
            let mut offs_from = std::mem::take(&mut self.offs_from);
            let mut out = std::mem::take(&mut self.out);
            next_on.clear();
            next_on.push(start);
            while !next_on.is_empty() && found.is_none() {
                offs_from.clear();
                for &p in &next_on {
                    // A loop through `p` has one node more than the path to it.
                    let nodes = self.depth[p] as usize + 1;
                    out.clear();
                    if nodes + 2 > longest {
                        // The last level: only the closers matter.
                        if nodes >= kind.shortest() && nodes <= longest {
                            let closing =
                                closers.iter().filter(|&&q| turns_off(b, self, kind, p, q));
                            out.extend(closing);
                        }
                    } else {
                        turned_off(b, self, kind, p, &mut out);
                    }
                    for &q in &out {
                        // The reference walks an off node again from every on node that
                        // reaches it, but only the first walk turns anything on: later
                        // ones matter only where they close a loop. (An off node not
                        // reached yet is on no path.)
                        let again = self.off_in[q] == self.walk;
                        if !again || (closers.contains(&q) && !self.on_path(p, q)) {
                            self.off_in[q] = self.walk;
                            offs_from.push(self.offs.len());
                            self.offs.push(Off { cand: q, parent: p });
                        }
                    }
                }
                next_on.clear();
                for &i in &offs_from {
                    let Off { cand: q, parent: p } = self.offs[i];
                    out.clear();
                    turned_on(self, kind, q, &mut out);
                    for &r in &out {
                        let nodes = self.depth[p] as usize + 1;
                        if r == start && nodes >= kind.shortest() && found.is_none() {
                            let score = kind.base() + length_bonus(nodes);
                            if score < bound - 1e-9 {
                                found = closed_loop(b, self, i, score);
                            }
                        }
                        if self.reached_in[r] != self.walk {
                            self.reached_in[r] = self.walk;
                            self.on_parent[r] = i as u32;
                            self.depth[r] = self.depth[p] + 2;
                            next_on.push(r);
                        }
                    }
                }
            }
            self.next_on = next_on;
            self.offs_from = offs_from;
            self.out = out;
        }
        self.closers = closers;
        found
    }

    /// Whether the off candidate `q` is on the path that reached the on node `p`.
    fn on_path(&self, p: Cand, q: Cand) -> bool {
        let mut at = self.on_parent[p];
        while at != ROOT {
            let off = self.offs[at as usize];
            if off.cand == q {
                return true;
            }
            at = self.on_parent[off.parent];
        }
        false
    }

    /// The nodes of the loop closed by off node `last`, each once, from `last` back to
    /// the start: each off node, then the on node it came from.
    fn loop_nodes(&self, last: usize) -> impl Iterator<Item = Link> + '_ {
        let offs = std::iter::successors(Some(last as u32), move |&at| {
            Some(self.on_parent[self.offs[at as usize].parent]).filter(|&up| up != ROOT)
        });
        offs.flat_map(move |at| {
            let off = self.offs[at as usize];
            [(off.cand, false), (off.parent, true)].map(|(k, on)| {
                let (cell, digit) = self.split(k);
                Link { cell, digit, on }
            })
        })
    }

    /// The loop closed by off node `last` back to the start, as links from the start
    /// round to it again.
    fn loop_links(&self, last: usize) -> Vec<Link> {
        let mut links: Vec<Link> = self.loop_nodes(last).collect();
        links.reverse();
        links.push(links[0]);
        links
    }
}

/// Candidates an on node turns off that turn something on in turn (the others end the
/// walk there): the cell's other candidates (when links inside a cell are allowed) and the
/// digit in every peer.
fn turned_off(b: &Board, w: &Walk, kind: Kind, k: Cand, out: &mut Vec<Cand>) {
    let (cell, digit) = w.split(k);
    let leads_on = &w.leads_on[kind as usize];
    if kind.in_cell() {
        let others = b.cand(cell) & !(1 << (digit - 1));
        let live = digits(others).filter(|&e| leads_on[e as usize].contains(cell));
        out.extend(live.map(|e| w.cand(cell, e)));
    }
    // In the reference's order, which decides the first way to each node and so which
    // loops close: the box, the row, the column, then what else the rule set links.
    // (A box's, a row's and a column's cells in unit order are in cell order.)
    let mut rest = b.peer_set(cell).and(leads_on[digit as usize]);
    let layout = b.layout();
    let [row, column, bx] = b.units_of(cell);
    for u in [bx, row, column] {
        let here = rest.and(layout.unit_set(u));
        out.extend(here.iter().map(|p| w.cand(p, digit)));
        rest = rest.minus(here);
    }
    out.extend(rest.iter().map(|p| w.cand(p, digit)));
}

/// Candidates an off node turns on: a bivalue cell's other candidate, the digit's other
/// place in a unit where it has two.
fn turned_on(w: &Walk, kind: Kind, k: Cand, out: &mut Vec<Cand>) {
    if kind.in_cell() && w.cell_partner[k] != NONE {
        out.push(w.cell_partner[k] as Cand);
    }
    if kind.in_unit() {
        let partners = &w.unit_partners[w.unit_at[k] as usize..w.unit_at[k + 1] as usize];
        out.extend(partners.iter().map(|&p| p as Cand));
    }
}

/// Whether on node `p` turns off candidate `q` (a candidate of the board).
fn turns_off(b: &Board, w: &Walk, kind: Kind, p: Cand, q: Cand) -> bool {
    let ((pc, pd), (qc, qd)) = (w.split(p), w.split(q));
    if pc == qc {
        kind.in_cell() && pd != qd
    } else {
        pd == qd && b.peer_set(pc).contains(qc)
    }
}

/// Digits and none: candidate masks are `u16`, so no grid has more than 16 digits.
const DIGIT_SLOTS: usize = 17;

/// The eliminations of the loop closed by off node `last`: a digit leaves a cell off the
/// loop that sees one of the loop's cells where the digit is on and one where it is off.
/// Most loops a walk closes remove nothing, so this reads the walk without building the
/// loop's links.
fn loop_eliminations(b: &Board, w: &Walk, last: usize) -> Vec<(usize, u8)> {
    let mut on_loop = CellSet::default();
    // Per digit: the cells holding it that see the loop where it is off, where on.
    let mut seen = [[CellSet::default(); 2]; DIGIT_SLOTS];
    for l in w.loop_nodes(last) {
        on_loop.insert(l.cell);
        let d = l.digit as usize;
        let side = &mut seen[d][usize::from(l.on)];
        *side = side.or(b.peer_set(l.cell).and(w.holding[d]));
    }
    (1..=b.n() as u8)
        .flat_map(|d| {
            let [off, on] = seen[d as usize];
            on.and(off).minus(on_loop).iter().map(move |c| (c, d))
        })
        .collect()
}

/// The lowest-scoring bidirectional cycle with an elimination (of equal scores, the
/// first found), scoring below `below`.
pub fn cycle(b: &Board, below: f64) -> Option<Step> {
    let links = Links::shared_static(b);
    let starts = loop_starts(b, &links, &links.shared_closures())?;
    loops(b, below, |k| starts[k])
}

/// Per board candidate `cell * n + digit - 1`: whether a loop through it can remove
/// anything (see the module's doc), or `None` when none can.
///
/// Read from a node S assumed on, a loop turns each of its nodes on or off; read from S
/// assumed off, the other way. So the loop's nodes go as S goes, or the other way, along
/// static links ([`Closures::alike_and_opposite`]). The loop removes d from a cell X that
/// sees one of its nodes of d of each kind, X is off the loop (not in S's cell), and X
/// assumed d implies X without d. Then S assumed on and S assumed off both imply X
/// without d: so X's d is among the few candidates that S either way turns off and that a
/// static chain removes, and only those are looked at, each against the candidates of
/// its digit in the cells that see X (what it kills, of its digit: `links`).
fn loop_starts(b: &Board, links: &LinkGraph, closures: &Closures) -> Option<Vec<bool>> {
    let (n, count) = (b.n(), closures.candidates());
    let words = count.div_ceil(64);
    // The candidates a static chain removes, as candidate bits.
    let mut removable = vec![0u64; words];
    for k in (0..count).filter(|&k| closures.on_implies_off(k)) {
        removable[k / 64] |= 1 << (k % 64);
    }
    if removable.iter().all(|&w| w == 0) {
        return None;
    }
    // Each digit's candidates, `words` words a digit.
    let mut of_digit = vec![0u64; (n + 1) * words];
    for k in 0..count {
        let digit = closures.candidate(k).1 as usize;
        of_digit[digit * words + k / 64] |= 1 << (k % 64);
    }
    let mut starts = vec![false; b.cells() * n];
    let (mut forced, mut alike, mut opposite) =
        (vec![0u64; words], vec![0u64; words], vec![0u64; words]);
    for k in 0..count {
        let (cell, digit) = closures.candidate(k);
        let on = 2 * k as Potential + 1;
        let either_way = closures.off_either_way(on).zip(&removable);
        for (f, (off, r)) in forced.iter_mut().zip(either_way) {
            *f = off & r;
        }
        // A cell's candidates are numbered in a row: X is not in the start's cell.
        let cands = b.cand(cell);
        let first = k - (cands & ((1 << (digit - 1)) - 1)).count_ones() as usize;
        (first..first + cands.count_ones() as usize)
            .for_each(|j| forced[j / 64] &= !(1 << (j % 64)));
        if forced.iter().all(|&w| w == 0) {
            continue;
        }
        for (w, (a, o)) in closures.alike_and_opposite(on).enumerate() {
            (alike[w], opposite[w]) = (a, o);
        }
        let meets = |side: &[u64], seen: &[u64], digit: &[u64]| {
            (0..words).any(|w| side[w] & seen[w] & digit[w] != 0)
        };
        starts[Candidate::new(cell, digit).index(n)] =
            forced.iter().enumerate().any(|(w, &word)| {
                ones(word).any(|bit| {
                    let x = w * 64 + bit as usize;
                    let d = closures.candidate(x).1 as usize;
                    let (seen, digit) = (links.kills_of(x), &of_digit[d * words..(d + 1) * words]);
                    meets(&alike, seen, digit) && meets(&opposite, seen, digit)
                })
            });
    }
    starts.contains(&true).then_some(starts)
}

/// [`cycle`]'s search itself, walking from the candidates `may_close` lets through.
fn loops(b: &Board, below: f64, may_close: impl Fn(Cand) -> bool) -> Option<Step> {
    let mut w = Walk::new(b);
    let mut best: Option<Step> = None;
    'kinds: for kind in [Kind::X, Kind::Y, Kind::Mixed] {
        // The most nodes a loop may have to score below the bound (kept while it holds),
        // and for X-cycles, the digits with no X-chain of that many nodes.
        let mut limit = (f64::NAN, 0, 0u16);
        for cell in (0..b.cells()).filter(|&c| b.is_open(c)) {
            // Loops through a cell with more candidates need a link between cells there.
            if !kind.in_unit() && b.cand(cell).count_ones() != 2 {
                continue;
            }
            for digit in digits(b.cand(cell)) {
                let bound = best.as_ref().map_or(below, |s| s.score);
                if limit.0 != bound {
                    let nodes = most_nodes_below(bound, kind.base(), 1);
                    let chainless = if kind == Kind::X {
                        without_x_chain(b, nodes)
                    } else {
                        0
                    };
                    limit = (bound, nodes, chainless);
                }
                if limit.2 & 1 << (digit - 1) != 0 {
                    continue;
                }
                if limit.1 < kind.shortest() {
                    if kind == Kind::X {
                        // Y-cycles score as X-cycles do, from fewer nodes.
                        continue 'kinds;
                    }
                    // Nothing shorter scores less, and the later kinds score more.
                    return best;
                }
                let start = w.cand(cell, digit);
                if may_close(start) {
                    best = w.walk_from(b, kind, start, limit.1, bound).or(best);
                }
            }
        }
    }
    best
}

/// The digits (bit `d - 1`) on which the X-chain search found no chain of up to `nodes`
/// nodes, and whose candidates have not changed since: no X-cycle of up to `nodes` nodes
/// on them removes anything. (One that did would hold an X-chain of no more nodes that
/// removes the same, see the module's doc; the rater tries X-chains first, with no bound
/// where the board has no cheaper step.)
fn without_x_chain(b: &Board, nodes: usize) -> u16 {
    // The memo keeps how far a search looked as a `u32`.
    b.digits_found_nothing_within(DigitSearch::XChain, nodes.min(u32::MAX as usize))
}

/// The step of the loop closed by off node `last`, if it eliminates something.
fn closed_loop(b: &Board, w: &Walk, last: usize, score: f64) -> Option<Step> {
    let elims = loop_eliminations(b, w, last);
    if elims.is_empty() {
        return None;
    }
    let links = w.loop_links(last);
    let mut cells: Vec<usize> = Vec::new();
    for l in &links {
        if !cells.contains(&l.cell) {
            cells.push(l.cell);
        }
    }
    let mut step = Step::new(Technique::Cycle, cells);
    step.score = score;
    step.eliminations = elims;
    step.chains = vec![links];
    Some(step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_line;
    use crate::rate::techniques::chaining::{Links, STATIC};
    use crate::rate::techniques::chains::{long_x_chain_score, x_chain};
    use crate::rate::{apply, calibration_puzzles, next_step, rate};
    use crate::solver::count_solutions;

    /// What lets [`cycle`] pass over starts: every node of a loop that removes something
    /// is a start [`loop_starts`] lets through, so the search finds with that check what
    /// it finds without. Checked at every step of rating chain-level calibration puzzles.
    #[test]
    fn loops_pass_only_through_starts_that_can_remove() {
        let (mut loops_found, mut starts, mut passed_over) = (0, 0, 0);
        for p in calibration_puzzles(6.5, 40) {
            let mut b = Board::new(&p);
            while let Some(step) = next_step(&b, f64::INFINITY) {
                let links = Links::new(&b, STATIC);
                let may_close = loop_starts(&b, &links, &links.closures());
                let unchecked = loops(&b, f64::INFINITY, |_| true);
                if let Some(found) = &unchecked {
                    loops_found += 1;
                    let may_close = may_close.as_ref().expect("a loop removes something");
                    for l in &found.chains[0] {
                        let k = l.cell * b.n() + l.digit as usize - 1;
                        assert!(may_close[k], "{p}: a loop through {l:?}");
                    }
                }
                let checked = may_close
                    .as_ref()
                    .and_then(|m| loops(&b, f64::INFINITY, |k| m[k]));
                assert_eq!(format!("{checked:?}"), format!("{unchecked:?}"), "{p}");
                for cell in (0..b.cells()).filter(|&c| b.is_open(c)) {
                    for digit in digits(b.cand(cell)) {
                        starts += 1;
                        let k = cell * b.n() + digit as usize - 1;
                        passed_over += usize::from(may_close.as_ref().is_none_or(|m| !m[k]));
                    }
                }
                apply(&mut b, &step);
            }
        }
        assert!(
            loops_found > 100 && passed_over > 0,
            "{loops_found} loops, {passed_over} of {starts} starts passed over"
        );
    }

    /// X-cycles are not walked on digits the X-chain search found no chain on (see
    /// [`without_x_chain`]): the search finds what it finds walking them. Checked at every
    /// step of rating chain-level calibration puzzles, with no bound (the longest walks).
    #[test]
    fn x_cycles_pass_over_digits_without_x_chains() {
        let mut passed_over = 0;
        for p in calibration_puzzles(6.5, 40) {
            let mut b = Board::new(&p);
            while let Some(step) = next_step(&b, f64::INFINITY) {
                // What the rater knows when it reaches cycles: the X-chain search ran.
                let chain = x_chain(&b, f64::INFINITY);
                let chainless = without_x_chain(&b, usize::MAX);
                passed_over += chainless.count_ones();
                assert_eq!(chain.is_none(), chainless == u16::MAX >> (16 - b.n()));
                let skipping = loops(&b, f64::INFINITY, |_| true);
                let walking = loops(&b.forgetting_searches(), f64::INFINITY, |_| true);
                assert_eq!(format!("{skipping:?}"), format!("{walking:?}"), "{p}");
                apply(&mut b, &step);
            }
        }
        assert!(passed_over > 1000, "{passed_over} digits passed over");
    }

    /// An X-cycle of fewer than [`SHORTEST_X_LOOP`] nodes scores more than an X-chain of
    /// as many nodes; from there on, less.
    #[test]
    fn short_x_cycles_score_more_than_their_x_chains() {
        let cycle = |nodes: usize| Kind::X.base() + length_bonus(nodes);
        for nodes in (SHORTEST_LOOP..SHORTEST_X_LOOP).step_by(2) {
            assert!(
                long_x_chain_score(nodes) < cycle(nodes) - 1e-9,
                "{nodes} nodes"
            );
        }
        assert!(long_x_chain_score(SHORTEST_X_LOOP) > cycle(SHORTEST_X_LOOP) + 1e-9);
    }

    /// Every cycle the rater takes on these puzzles (SE 6.6-7.0 in the calibration file)
    /// is a closed loop of alternating links that hold on the board of its step, scored
    /// by its kind and node count, and removes no digit of the solution.
    #[test]
    fn cycles_are_closed_alternating_loops_that_remove_no_solution_digit() {
        let puzzles = [
            "050870040020004600060290000097050200000000000002060370000089020005300080010045090",
            "000000000800000002042000570090000080700206009501000407309010706200030001000769000",
            "050890000004002305010004020045706003700000004600405710020300050503600900000057030",
        ];
        let mut cycles = 0;
        for line in puzzles {
            let puzzle = parse_line(line).unwrap();
            let solution = count_solutions(&puzzle, 2).unique().cloned().unwrap();
            let mut b = Board::new(&puzzle);
            for step in rate(&puzzle).steps {
                if step.technique == Technique::Cycle {
                    cycles += 1;
                    let links = &step.chains[0];
                    assert!(
                        links.len() > SHORTEST_LOOP,
                        "{line}: a loop of four nodes or more"
                    );
                    assert_eq!(links[0], links[links.len() - 1], "{line}: not closed");
                    let mut in_cell = false;
                    let mut between = false;
                    for pair in links.windows(2) {
                        let (a, z) = (pair[0], pair[1]);
                        assert_ne!(a.on, z.on, "{line}: links alternate");
                        assert!(b.cand(a.cell) & (1 << (a.digit - 1)) != 0);
                        if a.cell == z.cell {
                            in_cell = true;
                            assert_ne!(a.digit, z.digit);
                            // Off to on inside a cell needs a bivalue cell.
                            assert!(a.on || b.cand(a.cell).count_ones() == 2);
                        } else {
                            between = true;
                            assert_eq!(a.digit, z.digit);
                            assert!(b.sees(a.cell, z.cell));
                            if !a.on {
                                // Off to on between cells: the digit's two places in a unit.
                                let two = b.layout().all_units_of(a.cell).any(|u| {
                                    b.positions(u, a.digit).count_ones() == 2
                                        && b.layout().unit(u).contains(&(z.cell as u16))
                                });
                                assert!(two, "{line}: no strong link {a:?} {z:?}");
                            }
                        }
                    }
                    // Strong links between cells are a digit's two places in a unit.
                    let unit_strong = links.windows(2).any(|p| p[0].cell != p[1].cell && !p[0].on);
                    let kind = match (in_cell, unit_strong) {
                        (false, _) => Kind::X,
                        (true, false) => Kind::Y,
                        (true, true) => Kind::Mixed,
                    };
                    assert!(between, "{line}: a loop joins cells");
                    let nodes = links.len() - 1;
                    let expected = kind.base() + length_bonus(nodes);
                    assert!(
                        (step.score - expected).abs() < 1e-9,
                        "{line}: {kind:?} {nodes}"
                    );
                    for &(c, d) in &step.eliminations {
                        assert_ne!(solution.get(c), d, "{line}: removed the solution");
                    }
                }
                apply(&mut b, &step);
            }
        }
        assert!(cycles >= 3, "only {cycles} cycles");
    }
}
