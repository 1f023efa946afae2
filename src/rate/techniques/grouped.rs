//! Grouped X-chains: X-chains whose nodes may also be groups, the two or more places of a
//! digit where a box meets a line. A group is true when the digit is in one of its cells.
//! Strong links: a unit whose places fall into exactly two nodes (a line's places in two
//! boxes, a box's in two rows or two columns). Weak links: a node to another whose every
//! cell sees every cell of the first. Sukaku Explainer prices a strong-link chain with a
//! grouped link 0.3 above the plain one: two links 4.3, three 5.7. Chains of up to three
//! links are looked for.

use super::common::cells_at;
use super::Technique;
use crate::grid::CellSet;
use crate::rate::board::Board;
use crate::rate::memo::{DigitSearch, Trail};
use crate::rate::step::Step;
use std::cell::Cell;

/// The longest grouped chain looked for: three strong links, as far as Sukaku Explainer's
/// grouped strong links matter on the reference ratings (longer ones score 6.1 and up,
/// where forcing chains find the same eliminations).
const MOST_NODES: usize = 6;

/// What a grouped link adds to a chain's score.
const GROUPED: f64 = 0.3;

/// Scores of the two- and three-link chains (4 and 6 nodes).
fn score(nodes: usize) -> f64 {
    if nodes <= 4 {
        4.0 + GROUPED
    } else {
        5.4 + GROUPED
    }
}

/// One node of a digit's chains: a cell, or a group of two or more.
struct Node {
    cells: CellSet,
    group: bool,
    /// Cells that see every cell of the node.
    sees_all: CellSet,
}

/// The nodes and links of one digit (rebuilt in place for the next digit).
#[derive(Default)]
struct Graph {
    nodes: Vec<Node>,
    /// Each strong link once, as a pair of nodes.
    strong: Vec<(usize, usize)>,
    /// Per node: the nodes a strong link joins to it (in the order of `strong`), then the
    /// nodes whose every cell sees every cell of it (in node order), at
    /// `linked[at[2 * node]..at[2 * node + 1]]` and `linked[at[2 * node + 1]..at[2 * node + 2]]`.
    linked: Vec<usize>,
    at: Vec<usize>,
}

impl Graph {
    /// The node with exactly these cells, added when new.
    fn node(&mut self, b: &Board, cells: CellSet) -> usize {
        if let Some(i) = self.nodes.iter().position(|x| x.cells == cells) {
            return i;
        }
        let mut list = cells.iter();
        let first = list.next().expect("a node has a cell");
        let (sees_all, group) = list.fold((b.peer_set(first), false), |(s, _), c| {
            (s.and(b.peer_set(c)), true)
        });
        self.nodes.push(Node {
            cells,
            group,
            sees_all,
        });
        self.nodes.len() - 1
    }

    /// Lists each node's links, once every node and strong link is in.
    fn link(&mut self) {
        let count = self.nodes.len();
        self.at.push(0);
        for x in 0..count {
            let partners = self
                .strong
                .iter()
                .filter_map(|&(a, z)| (a == x).then_some(z).or((z == x).then_some(a)));
            self.linked.extend(partners);
            self.at.push(self.linked.len());
            let sees_all = self.nodes[x].sees_all;
            let seen = |y: &usize| self.nodes[*y].cells.minus(sees_all).is_empty();
            self.linked.extend((0..count).filter(seen));
            self.at.push(self.linked.len());
        }
    }

    /// The nodes a strong link joins to `node`, or those a weak link does.
    fn links_from(&self, node: usize, strong: bool) -> &[usize] {
        let k = 2 * node + usize::from(!strong);
        &self.linked[self.at[k]..self.at[k + 1]]
    }
}

/// Builds `g` afresh as the nodes and strong links of digit `d` (its lists keep their room).
fn graph(b: &Board, d: u8, g: &mut Graph) {
    g.nodes.clear();
    g.strong.clear();
    g.linked.clear();
    g.at.clear();
    // Rows, columns and boxes: a diagonal's places split by box into groups that are not
    // box-line intersections, so diagonals take no part (fewer chains, none unsound).
    for u in b.layout().lines().chain(b.layout().boxes()) {
        let positions = b.positions(u, d);
        if positions.count_ones() < 2 {
            continue;
        }
        let places = || cells_at(b, u, positions);
        // The ways to split the unit's places: by box for a line, by row and by column for
        // a box.
        let first = places().next().expect("two places");
        let kind = b
            .units_of(first)
            .iter()
            .position(|&x| x == u)
            .expect("its unit");
        let splits: &[usize] = if kind == 2 { &[0, 1] } else { &[2] };
        for &by in splits {
            let home = b.units_of(first)[by];
            let (mut one, mut other) = (CellSet::default(), CellSet::default());
            let mut other_home = None;
            let mut two_parts = true;
            for c in places() {
                let key = b.units_of(c)[by];
                if key == home {
                    one.insert(c);
                } else if other_home.is_none_or(|h| h == key) {
                    other_home = Some(key);
                    other.insert(c);
                } else {
                    two_parts = false;
                    break;
                }
            }
            if two_parts && other_home.is_some() {
                let (a, z) = (g.node(b, one), g.node(b, other));
                if !g.strong.contains(&(a, z)) && !g.strong.contains(&(z, a)) {
                    g.strong.push((a, z));
                }
            }
        }
    }
}

/// The shortest grouped X-chain (one that uses a group) scoring below `below`: the digit
/// leaves the cells that see every cell of both end nodes.
pub fn grouped_x_chain(b: &Board, below: f64) -> Option<Step> {
    if below <= score(4) + 1e-9 {
        return None;
    }
    let longest = (4..=MOST_NODES)
        .step_by(2)
        .take_while(|&k| score(k) < below - 1e-9)
        .last()
        .unwrap_or(0);
    // The best chain and its count of nodes.
    let mut best: Option<(Step, usize)> = None;
    let mut g = SPARE.take().unwrap_or_default();
    for d in 1..=b.n() as u8 {
        // A digit that had no chain within that many nodes and has not changed since is
        // passed over.
        let within = best.as_ref().map_or(longest, |(_, k)| (*k).min(longest));
        let key = d as usize - 1;
        if b.digit_found_nothing_within(DigitSearch::GroupedXChain, key, d, within) {
            continue;
        }
        let mut found_any = false;
        let holding: CellSet = (0..b.cells())
            .filter(|&c| b.is_open(c) && b.cand(c) & (1 << (d - 1)) != 0)
            .collect();
        graph(b, d, &mut g);
        let count = g.nodes.len();
        if !g.nodes.iter().any(|x| x.group) {
            b.digit_found_nothing_up_to(DigitSearch::GroupedXChain, key, d, within);
            continue;
        }
        g.link();
        // State = node * 4 + grouped used * 2 + (1: arrived by a weak link or the start).
        let mut trail = Trail::new(count * 4);
        for start in (0..count).filter(|&s| !g.links_from(s, true).is_empty()) {
            let limit = best.as_ref().map_or(longest, |(_, k)| (*k).min(longest));
            let first = start * 4 + (g.nodes[start].group as usize) * 2 + 1;
            trail.start(first);
            while let Some(s) = trail.queue.pop_front() {
                let (node, grouped, by_weak) = (s / 4, s / 2 % 2 == 1, s % 2 == 1);
                let length = trail.length(s);
                if length >= limit {
                    continue;
                }
                // After a weak link comes a strong one; after a strong one, a weak link to a
                // node whose cells all see all of this node's cells.
                for &t in g.links_from(node, by_weak) {
                    let now_grouped = grouped || g.nodes[t].group;
                    let state = t * 4 + (now_grouped as usize) * 2 + (!by_weak) as usize;
                    if t == start || !trail.reach(state, s) {
                        continue;
                    }
                    if by_weak && now_grouped {
                        // Arrived by a strong link: start false implies t true.
                        let nodes = trail.length(state);
                        let seen = g.nodes[start]
                            .sees_all
                            .and(g.nodes[t].sees_all)
                            .and(holding);
                        found_any |= !seen.is_empty();
                        if !seen.is_empty() && best.as_ref().is_none_or(|(_, k)| nodes < *k) {
                            let path = trail.path(state, 4);
                            let cells: Vec<usize> =
                                path.iter().flat_map(|&x| g.nodes[x].cells.iter()).collect();
                            let mut step = Step::new(Technique::GroupedXChain, cells);
                            step.score = score(nodes);
                            step.eliminations = seen.iter().map(|c| (c, d)).collect();
                            if step.score < below - 1e-9 {
                                best = Some((step, nodes));
                            }
                        }
                    }
                    trail.queue.push_back(state);
                }
            }
        }
        if !found_any {
            b.digit_found_nothing_up_to(DigitSearch::GroupedXChain, key, d, within);
        }
    }
    SPARE.set(Some(g));
    best.map(|(step, _)| step)
}

thread_local! {
    /// The last search's graph, for the next one: its lists keep their room (growing them
    /// afresh at every search showed in profiles).
    static SPARE: Cell<Option<Graph>> = const { Cell::new(None) };
}
