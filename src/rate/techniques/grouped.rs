//! Grouped X-chains: X-chains whose nodes may also be groups, the two or more places of a
//! digit where a box meets a line or an extra unit (a diagonal). A group is true when the
//! digit is in one of its cells. Strong links: a unit whose places fall into exactly two
//! nodes (a line's places in two boxes, a box's in two rows or two columns, an extra
//! unit's in two boxes, or rows, or columns), and an extra unit's two places. Weak links: a node to another whose every
//! cell sees every cell of the first. Sukaku Explainer prices a strong-link chain with a
//! grouped link 0.3 above the plain one: two links 4.3, three 5.7. Chains of up to three
//! links are looked for.

use super::Technique;
use crate::grid::CellSet;
use crate::rate::board::Board;
use crate::rate::memo::{DigitSearch, Trail};
use crate::rate::techniques::step::Step;
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
    /// Cells that share a unit with every cell of the node (a weak link runs in a unit).
    shares_all: CellSet,
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
    /// Per node, as node masks (when there are at most 64 nodes): the nodes a strong link
    /// joins to it, and those a weak link does; and the groups.
    strong_to: Vec<u64>,
    weak_to: Vec<u64>,
    groups: u64,
}

impl Graph {
    /// The node with exactly these cells, added when new.
    fn node(&mut self, b: &Board, cells: CellSet) -> usize {
        if let Some(i) = self.nodes.iter().position(|x| x.cells == cells) {
            return i;
        }
        let mut list = cells.iter();
        let first = list.next().expect("a node has a cell");
        let (mut sees_all, mut shares_all) = (b.peer_set(first), b.unit_peer_set(first));
        for c in list {
            sees_all = sees_all.and(b.peer_set(c));
            shares_all = shares_all.and(b.unit_peer_set(c));
        }
        self.nodes.push(Node {
            cells,
            group: cells.len() > 1,
            sees_all,
            shares_all,
        });
        self.nodes.len() - 1
    }

    /// The strong link between the nodes of `one` and `other`, added once.
    fn strong_link(&mut self, b: &Board, one: CellSet, other: CellSet) {
        let (a, z) = (self.node(b, one), self.node(b, other));
        if !self.strong.contains(&(a, z)) && !self.strong.contains(&(z, a)) {
            self.strong.push((a, z));
        }
    }

    /// Each node's links as node masks ([`Graph::strong_to`]), once every node and strong
    /// link is in; `false` (and no masks) when there are more than 64 nodes.
    fn link_masks(&mut self) -> bool {
        let count = self.nodes.len();
        if count > 64 {
            return false;
        }
        self.strong_to.clear();
        self.strong_to.resize(count, 0);
        for &(a, z) in &self.strong {
            self.strong_to[a] |= 1 << z;
            self.strong_to[z] |= 1 << a;
        }
        self.weak_to.clear();
        self.groups = 0;
        for x in 0..count {
            let weak = (0..count)
                .filter(|&y| weakly_linked(&self.nodes, x, y))
                .fold(0u64, |m, y| m | 1 << y);
            self.weak_to.push(weak);
            self.groups |= u64::from(self.nodes[x].group) << x;
        }
        true
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
            let nodes = &self.nodes;
            let weak = (0..count).filter(|&y| weakly_linked(nodes, x, y));
            self.linked.extend(weak);
            self.at.push(self.linked.len());
        }
    }

    /// The nodes a strong link joins to `node`, or those a weak link does.
    fn links_from(&self, node: usize, strong: bool) -> &[usize] {
        let k = 2 * node + usize::from(!strong);
        &self.linked[self.at[k]..self.at[k + 1]]
    }
}

/// Whether a weak link joins node `x` to node `y`: every cell of `y` shares a unit with every cell of
/// `x` (so `y` is off once `x` is on).
fn weakly_linked(nodes: &[Node], x: usize, y: usize) -> bool {
    nodes[y].cells.minus(nodes[x].shares_all).is_empty()
}

/// Builds `g` afresh as the nodes and strong links of digit `d`, whose places are
/// `holding` (its lists keep their room). A unit's places split into the part in the box
/// (or line) of its first place and the rest, which must lie in one: as cell sets, not
/// cell by cell.
fn graph(b: &Board, d: u8, holding: CellSet, g: &mut Graph) {
    g.nodes.clear();
    g.strong.clear();
    g.linked.clear();
    g.at.clear();
    let layout = b.layout();
    let extra_box_like = b.geometry().variant().rules().units.box_like();
    for u in 0..layout.unit_count() {
        if b.positions(u, d).count_ones() < 2 {
            continue;
        }
        let places = layout.unit_set(u).and(holding);
        let first = places.iter().next().expect("two places");
        // The ways to split the unit's places (units of a cell: row, column, box): by box
        // for a line, by row and by column for a box; as the reference does, every way
        // for an extra unit it does not treat as a box (an asterisk's places may fall
        // into one cell and a group on a row), by box for windows and disjoint groups.
        let splits: &[usize] = if layout.boxes().contains(&u) {
            &[0, 1]
        } else if layout.extra_units().contains(&u) && !extra_box_like {
            &[2, 0, 1]
        } else {
            &[2]
        };
        if layout.extra_units().contains(&u) && places.len() == 2 {
            // Two places in one box split by box into one node: link them as cells.
            let second = places.iter().nth(1).expect("two places");
            g.strong_link(b, CellSet::from_iter([first]), CellSet::from_iter([second]));
            continue;
        }
        for &by in splits {
            let one = places.and(layout.unit_set(layout.units_of(first)[by]));
            let rest = places.minus(one);
            let Some(second) = rest.iter().next() else {
                continue;
            };
            if rest
                .minus(layout.unit_set(layout.units_of(second)[by]))
                .is_empty()
            {
                g.strong_link(b, one, rest);
            }
        }
        if layout.boxes().contains(&u) {
            cross_links(b, places, g);
        }
    }
}

/// The strong links of a box whose places lie on a cross, one row and one column of the
/// box: the places on the row against those on the column (Sukaku Explainer's grouped
/// strong link in a box, an empty rectangle's blades). The splits by rows or by columns
/// miss it when each blade holds two places. Where the cell they share (the heart) holds
/// the digit too, the reference counts it on both sides when both blades hold two: the
/// row's three places against the column's three, one of them true either way.
fn cross_links(b: &Board, places: CellSet, g: &mut Graph) {
    let layout = b.layout();
    for place in places.iter() {
        let row = layout.unit_set(layout.units_of(place)[0]);
        let on_row = places.and(row);
        let on_column = places.minus(on_row);
        let Some(other) = on_column.iter().next() else {
            continue;
        };
        let column = layout.unit_set(layout.units_of(other)[1]);
        if !on_column.minus(column).is_empty() {
            continue;
        }
        let heart = on_row.and(column);
        if heart.is_empty() {
            g.strong_link(b, on_row, on_column);
        } else if on_row.len() == 3 && on_column.len() == 2 {
            g.strong_link(b, on_row, on_column.or(heart));
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
        graph(b, d, holding, &mut g);
        let count = g.nodes.len();
        if !g.nodes.iter().any(|x| x.group) {
            b.digit_found_nothing_up_to(DigitSearch::GroupedXChain, key, d, within);
            continue;
        }
        let masks = g.link_masks();
        let mut linked = false;
        // State = node * 4 + grouped used * 2 + (1: arrived by a weak link or the start).
        let mut trail = Trail::new(count * 4);
        // Every node has a strong link (nodes come from them).
        for start in 0..count {
            let limit = best.as_ref().map_or(longest, |(_, k)| (*k).min(longest));
            if masks && !may_end_usefully(&g, start, holding, limit) {
                continue;
            }
            if !linked {
                g.link();
                linked = true;
            }
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
                    // Arrived by a strong link: start false implies t true. Ends that
                    // share a cell make no chain of the reference's.
                    let apart = g.nodes[start].cells.and(g.nodes[t].cells).is_empty();
                    if by_weak && now_grouped && apart {
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

/// Whether the search from `start` may reach, by a strong link on a chain with a group,
/// an end whose chain removes something (a place of the digit, of `holding`, seeing every
/// cell of both ends), going on only from states of fewer than `limit` nodes (the
/// search's own bound). `false` means the search from `start` finds no chain, so it need
/// not run.
///
/// The search goes breadth first, so the states it reaches at each length are the ones
/// reached here a whole length at a time, as node masks per kind of state (group used or
/// not, arrived by a strong or a weak link), without its queue and trail: most starts of
/// most digits find nothing.
fn may_end_usefully(g: &Graph, start: usize, holding: CellSet, limit: usize) -> bool {
    let removable = g.nodes[start].sees_all.and(holding);
    if removable.is_empty() {
        return false;
    }
    let others = !(1u64 << start);
    // [grouped][by_weak]: the states reached, and those reached last.
    let mut front = [[0u64; 2]; 2];
    front[usize::from(g.nodes[start].group)][1] = 1 << start;
    let mut seen = front;
    let mut length = 1;
    while length < limit {
        let mut next = [[0u64; 2]; 2];
        for (grouped, kinds) in front.iter().enumerate() {
            for (by_weak, &nodes) in kinds.iter().enumerate() {
                // After a weak link (or the start) comes a strong one, and the other way.
                let links = if by_weak == 1 {
                    &g.strong_to
                } else {
                    &g.weak_to
                };
                let mut to = 0u64;
                let mut rest = nodes;
                while rest != 0 {
                    to |= links[rest.trailing_zeros() as usize];
                    rest &= rest - 1;
                }
                to &= others;
                let arrived = 1 - by_weak;
                if grouped == 1 {
                    next[1][arrived] |= to;
                } else {
                    next[1][arrived] |= to & g.groups;
                    next[0][arrived] |= to & !g.groups;
                }
            }
        }
        length += 1;
        for (kinds, seen) in next.iter_mut().zip(&mut seen) {
            for (nodes, seen) in kinds.iter_mut().zip(seen) {
                *nodes &= !*seen;
                *seen |= *nodes;
            }
        }
        // A grouped chain ending on a strong link (each node arrives so at most once).
        let mut ends = next[1][0];
        while ends != 0 {
            let t = ends.trailing_zeros() as usize;
            if !g.nodes[t].sees_all.and(removable).is_empty() {
                return true;
            }
            ends &= ends - 1;
        }
        if next == [[0; 2]; 2] {
            return false;
        }
        front = next;
    }
    false
}

thread_local! {
    /// The last search's graph, for the next one: its lists keep their room (growing them
    /// afresh at every search showed in profiles).
    static SPARE: Cell<Option<Graph>> = const { Cell::new(None) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Whether the search from `start` reaches, by a strong link on a chain with a group,
    /// an end whose chain removes something, followed one state at a time along the link
    /// lists as the search does, going on only from states of fewer than `limit` nodes.
    fn reaches_useful_end(g: &Graph, start: usize, holding: CellSet, limit: usize) -> bool {
        // Nodes of the chain to each state: node * 4 + grouped * 2 + by_weak.
        let mut length = vec![0usize; g.nodes.len() * 4];
        let first = start * 4 + usize::from(g.nodes[start].group) * 2 + 1;
        length[first] = 1;
        let mut queue = VecDeque::from([first]);
        while let Some(s) = queue.pop_front() {
            let (node, grouped, by_weak) = (s / 4, s / 2 % 2 == 1, s % 2 == 1);
            if length[s] >= limit {
                continue;
            }
            for &t in g.links_from(node, by_weak) {
                let now_grouped = grouped || g.nodes[t].group;
                let state = t * 4 + usize::from(now_grouped) * 2 + usize::from(!by_weak);
                if t == start || length[state] != 0 {
                    continue;
                }
                length[state] = length[s] + 1;
                let removes = g.nodes[start]
                    .sees_all
                    .and(g.nodes[t].sees_all)
                    .and(holding);
                if by_weak && now_grouped && !removes.is_empty() {
                    return true;
                }
                queue.push_back(state);
            }
        }
        false
    }

    /// Wherever the search from a start reaches an end that removes something,
    /// [`may_end_usefully`] says it may, under every bound the search uses: every start
    /// of every digit at every step of rating calibration puzzles. And it rules out most
    /// starts.
    #[test]
    fn starts_passed_over_reach_no_useful_end() {
        let (mut useful, mut passed_over) = (0, 0);
        let mut g = Graph::default();
        crate::rate::each_digit_on_the_way(4.0, 40, |p, b, d, holding| {
            graph(b, d, holding, &mut g);
            assert!(g.link_masks(), "at most 64 nodes on 9x9");
            g.link();
            for start in 0..g.nodes.len() {
                for limit in [2, 4, MOST_NODES] {
                    let may = may_end_usefully(&g, start, holding, limit);
                    if reaches_useful_end(&g, start, holding, limit) {
                        useful += 1;
                        assert!(may, "{p}: digit {d}, start {start}, limit {limit}");
                    }
                    passed_over += usize::from(!may);
                }
            }
        });
        // Seen: 18,882 useful, 410,997 passed over.
        assert!(useful > 1000, "{useful} starts reach a useful end");
        assert!(passed_over > 4 * useful, "{passed_over} passed over");
    }
}
