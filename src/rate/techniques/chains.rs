//! X-chains: one digit, alternating strong and weak links. The shortest chain with an
//! elimination is taken; its score grows with length as in Sudoku Explainer. (Chains of
//! bivalue cells are scored as the reference does: as forcing chains, or as cycles.)

use super::common::holding_each_digit;
use super::Technique;
use crate::grid::{self, CellSet};
use crate::rate::board::{digits, two_bits, Board};
use crate::rate::memo::{DigitSearch, Trail};
use crate::rate::techniques::step::{length_bonus, most_nodes_below, Step};
use std::cell::Cell;

/// An X-chain of `nodes` nodes (two per strong link) past two links, as Sukaku Explainer
/// scores its strong-link chains (`StrongLinksHint`: three links 5.4, four 5.8, five 6.2,
/// six 6.6, their plain shapes); longer ones are its forcing X-chains, 6.6 plus the length
/// bonus. Never less for more nodes, so the shortest chain is the lowest-scoring.
pub(super) fn long_x_chain_score(nodes: usize) -> f64 {
    match nodes {
        0..=6 => 5.4,
        8 => 5.8,
        10 => 6.2,
        12 => 6.6,
        _ => 6.6 + length_bonus(nodes),
    }
}

/// X-chains of two to six strong links are rated by shape as Sukaku Explainer rates its
/// strong-link chains (`StrongLinksHint`): the plain score of their length (two links
/// 4.0, longer ones [`long_x_chain_score`]), a tenth more when a link lies in a box only,
/// a tenth more when the lines run both ways (a skyscraper 4.0, a two-string kite or
/// turbot fish 4.1, three links through a box, a row and a column 5.6). Longer chains
/// score by length alone. Under a rule set rated the generalized way, a chain with a
/// strong link that only an extra unit (a diagonal) gives scores 0.3 over the plainest
/// shape of its length, whatever its shape, as the reference scores a strong link in a
/// variant region.
fn x_chain_score(b: &Board, chain: &[usize], digit: u8) -> f64 {
    let plain = plain_x_chain_score(chain.len());
    if b.geometry().variant().rules().generalized_rating
        && chain
            .chunks(2)
            .any(|link| !classic_strong_link(b, link[0], link[1], digit))
    {
        return plain + EXTRA_UNIT_LINK;
    }
    if chain.len() > MOST_SHAPED_NODES {
        return plain;
    }
    let n = b.n();
    let (mut boxed, mut rows, mut columns) = (false, false, false);
    for link in chain.chunks(2) {
        let (a, z) = (grid::Cell::at(link[0], n), grid::Cell::at(link[1], n));
        if a.row == z.row {
            rows = true;
        } else if a.col == z.col {
            columns = true;
        } else {
            boxed = true;
        }
    }
    let tenths = u8::from(boxed) + u8::from(rows && columns);
    ((plain * 10.0).round() + f64::from(tenths)) / 10.0
}

/// The most nodes of a chain scored by shape: six strong links, the reference's longest
/// strong-link chain (longer ones are its forcing X-chains).
const MOST_SHAPED_NODES: usize = 12;

/// The score of the plainest X-chain of `nodes` nodes (a skyscraper for four).
fn plain_x_chain_score(nodes: usize) -> f64 {
    match nodes {
        4 => SKYSCRAPER,
        _ => long_x_chain_score(nodes),
    }
}

/// What a strong link in a unit beyond rows, columns and boxes adds to a chain's score
/// (Sukaku Explainer's `StrongLinksHint`: 0.3 over the plain shapes).
const EXTRA_UNIT_LINK: f64 = 0.3;

/// Whether `a` and `z` are the only places of `digit` in a row, column or box they share.
fn classic_strong_link(b: &Board, a: usize, z: usize, digit: u8) -> bool {
    let (ua, uz) = (b.units_of(a), b.units_of(z));
    ua.iter()
        .zip(uz)
        .any(|(&u, v)| u == v && b.positions(u, digit).count_ones() == 2)
}

/// The lowest score a chain can have (a skyscraper).
const SKYSCRAPER: f64 = 4.0;

/// Whether a chain of `nodes` nodes scoring `score` replaces `best`: shorter, or as short
/// and lower (four-cell chains differ by shape).
fn replaces(best: &Option<Step>, nodes: usize, score: f64) -> bool {
    best.as_ref()
        .is_none_or(|s| nodes < s.cells.len() || (nodes == s.cells.len() && score < s.score - 1e-9))
}

/// The most nodes a chain that could still replace `best` may have.
fn most_useful_nodes(best: &Option<Step>) -> usize {
    match best {
        None => usize::MAX,
        Some(s) if s.score > plain_x_chain_score(s.cells.len()) + 1e-9 => s.cells.len(),
        Some(s) => s.cells.len() - 1,
    }
}

/// The cells of `holding` (the open cells holding the chain's digit) that see both ends
/// `a` and `z` (never the ends themselves: a cell is not its own peer).
fn seen_by_both(b: &Board, a: usize, z: usize, holding: CellSet) -> CellSet {
    b.peer_set(a).and(b.peer_set(z)).and(holding)
}

/// The cells that see one or more of `cells`.
fn seen_by_any(b: &Board, cells: CellSet) -> CellSet {
    cells
        .iter()
        .fold(CellSet::default(), |seen, c| seen.or(b.peer_set(c)))
}

/// The most nodes of an X-loop the chain search closes (the fewest are four: two strong
/// links): Sukaku Explainer's strong-link chains (two to four links, `StrongLinks`) close
/// into loops; longer loops are cycles.
const MOST_LOOP_NODES: usize = 8;

/// What an X-chain whose ends see each other removes besides what sees both ends: the
/// chain is then a loop, each of its weak links is strong too, and the digit leaves the
/// cells of `holding` that see both cells of a weak link.
fn loop_links_seen(b: &Board, chain: &[usize], holding: CellSet) -> CellSet {
    let on_chain: CellSet = chain.iter().copied().collect();
    chain[1..chain.len() - 1]
        .chunks(2)
        .fold(CellSet::default(), |seen, weak| {
            seen.or(seen_by_both(b, weak[0], weak[1], holding))
        })
        .minus(on_chain)
}

/// `digit` out of `cells`, as eliminations.
fn eliminations(cells: CellSet, digit: u8) -> Vec<(usize, u8)> {
    cells.iter().map(|c| (c, digit)).collect()
}

/// Fills each cell's strong partners on `d` (`strong[c][..strong_len[c]]`): the other
/// place of the digit in a unit where it has two (at most one per unit: three, or five on
/// the centre of a diagonal grid).
fn strong_partners(b: &Board, d: u8, strong: &mut [[usize; 5]], strong_len: &mut [usize]) {
    strong_len.fill(0);
    for u in 0..b.unit_count() {
        let places = b.positions(u, d);
        if two_bits(places) {
            let mut ends = digits(places).map(|i| b.unit(u)[i as usize - 1] as usize);
            let (x, y) = (ends.next().unwrap(), ends.next().unwrap());
            strong[x][strong_len[x]] = y;
            strong_len[x] += 1;
            strong[y][strong_len[y]] = x;
            strong_len[y] += 1;
        }
    }
}

/// One digit's links: its places (`nodes`, weak links between those that see each
/// other) and each cell's strong partners (`strong[c][..strong_len[c]]`).
struct DigitLinks<'a> {
    nodes: CellSet,
    strong: &'a [[usize; 5]],
    strong_len: &'a [usize],
}

/// The search's bounds: chains of at most `most_nodes` nodes, going on from a cell only
/// while its chain has fewer than `expand_below`.
#[derive(Clone, Copy)]
struct Reach {
    most_nodes: usize,
    expand_below: usize,
}

/// Whether the search from `start` may reach, by a strong link, an end whose chain
/// removes something: a cell that sees a place of the digit the start sees, reached
/// within the search's bounds. `false` means the search from `start` finds no chain, so
/// it need not run.
///
/// The search goes breadth first, so the cells it reaches at each length are the ones
/// reached here a whole length at a time, as cell sets, without its queue and trail
/// (most starts of most digits find nothing).
fn may_end_usefully(b: &Board, start: usize, links: &DigitLinks, reach: Reach) -> bool {
    let Reach {
        most_nodes,
        expand_below,
    } = reach;
    // An end removes something when it sees a place the start sees: when the cells seeing
    // the ends reached include one of those places.
    let places_seen = b.peer_set(start).and(links.nodes);
    // Cells reached by a weak and by a strong link (the start is never reached again).
    let (mut by_weak, mut by_strong) = (CellSet::default(), CellSet::default());
    by_weak.insert(start);
    by_strong.insert(start);
    let (mut weak_front, mut length) = (by_weak, 1);
    loop {
        let mut strong_front = CellSet::default();
        for c in weak_front.iter() {
            links.strong[c][..links.strong_len[c]]
                .iter()
                .for_each(|&x| strong_front.insert(x));
        }
        strong_front = strong_front.minus(by_strong);
        length += 1;
        if strong_front.is_empty() {
            return false;
        }
        let seen = seen_by_any(b, strong_front);
        // An end seeing the start closes a loop, which removes along its weak links.
        let closes =
            (4..=MOST_LOOP_NODES).contains(&length) && !strong_front.and(places_seen).is_empty();
        if length <= most_nodes && (closes || !seen.and(places_seen).is_empty()) {
            return true;
        }
        if length >= expand_below {
            return false;
        }
        by_strong = by_strong.or(strong_front);
        weak_front = seen.and(links.nodes).minus(by_weak);
        length += 1;
        if weak_front.is_empty() || length >= expand_below {
            return false;
        }
        by_weak = by_weak.or(weak_front);
    }
}

/// The most nodes of an X-chain scoring below `below` (4 when only the shortest can):
/// the shapes up to 12 nodes, then forcing X-chains by the length bonus.
fn most_x_chain_nodes(below: f64) -> usize {
    if below == f64::INFINITY {
        return usize::MAX;
    }
    let shapes = (6..=12)
        .step_by(2)
        .take_while(|&k| long_x_chain_score(k) < below - 1e-9)
        .last()
        .unwrap_or(4);
    if shapes < 12 {
        return shapes;
    }
    // Past 12 nodes: the most (even) nodes scoring below.
    (most_nodes_below(below, long_x_chain_score(12), 1) & !1).max(12)
}

/// The shortest X-chain on any digit (of the shortest, the lowest-scoring): A = ... = Z
/// with strong links at both ends; the digit leaves cells seeing both A and Z. Only chains
/// scoring below `below` are looked for.
pub fn x_chain(b: &Board, below: f64) -> Option<Step> {
    // Four cells score 4.0-4.1; longer chains more, the longer the more.
    if below <= SKYSCRAPER + 1e-9 {
        return None;
    }
    let longest = most_x_chain_nodes(below);
    let n = b.n();
    let cells = b.cells();
    let mut best: Option<Step> = None;
    let mut trail = Trail::new(cells * 2);
    let holding = holding_each_digit(b);
    // Strong partners of each cell (see `strong_partners`), in this thread's spare lists.
    let (mut strong, mut strong_len) = SPARE.take().unwrap_or_default();
    strong.resize(cells, [0; 5]);
    strong_len.resize(cells, 0);
    for d in 1..=n as u8 {
        // The most nodes a chain of this digit may have: a digit that had none within that
        // many and has not changed since is passed over.
        let within = longest.min(most_useful_nodes(&best));
        let key = d as usize - 1;
        if b.digit_found_nothing_within(DigitSearch::XChain, key, d, within) {
            continue;
        }
        let mut found_any = false;
        strong_partners(b, d, &mut strong, &mut strong_len);
        let nodes = holding[d as usize];
        let links = DigitLinks {
            nodes,
            strong: &strong,
            strong_len: &strong_len,
        };
        for start in nodes.iter().filter(|&c| strong_len[c] > 0) {
            let most_nodes = most_useful_nodes(&best);
            let reach = Reach {
                most_nodes,
                expand_below: longest.min(most_nodes),
            };
            if !may_end_usefully(b, start, &links, reach) {
                continue;
            }
            // State s = cell * 2 + (0: arrived by a strong link, 1: by a weak link).
            trail.start(start * 2 + 1);
            // Cells reached by a weak link so far (a bit set finds the new ones at once).
            let mut weak_seen = CellSet::default();
            weak_seen.insert(start);
            while let Some(s) = trail.queue.pop_front() {
                let (cell, by_weak) = (s / 2, s % 2 == 1);
                // After a weak link comes a strong one, and the other way round.
                let strong_end = if by_weak { strong_len[cell] } else { 0 };
                let strong_targets = strong[cell][..strong_end].iter().map(|&x| x * 2);
                let weak = if by_weak {
                    CellSet::default()
                } else {
                    b.unit_peer_set(cell).and(nodes).minus(weak_seen)
                };
                for t in strong_targets.chain(weak.iter().map(|x| x * 2 + 1)) {
                    if t / 2 == start {
                        continue;
                    }
                    if !trail.reach(t, s) {
                        // An end reached before by a chain as long may be reached here by
                        // one of a plainer shape, which the reference takes.
                        let again = t % 2 == 0 && trail.length(t) == trail.length(s) + 1;
                        if again && trail.length(t) <= MOST_SHAPED_NODES {
                            let seen = seen_by_both(b, start, t / 2, nodes);
                            let mut chain = trail.path(s, 2);
                            chain.push(t / 2);
                            let score = x_chain_score(b, &chain, d);
                            let loop_ends = b.shares_unit(start, t / 2);
                            if !seen.is_empty() && !loop_ends && replaces(&best, chain.len(), score)
                            {
                                let mut step = Step::new(Technique::XChain, chain);
                                step.score = score;
                                step.eliminations = eliminations(seen, d);
                                best = Some(step);
                            }
                        }
                        continue;
                    }
                    if t % 2 == 1 {
                        weak_seen.insert(t / 2);
                    } else {
                        if trail.length(t) > most_useful_nodes(&best) {
                            continue;
                        }
                        let mut seen = seen_by_both(b, start, t / 2, nodes);
                        let closes = (4..=MOST_LOOP_NODES).contains(&trail.length(t))
                            && b.shares_unit(start, t / 2);
                        // A loop's path is read once, for its weak links and the step.
                        let path = closes.then(|| trail.path(t, 2));
                        if let Some(path) = &path {
                            seen = seen.or(loop_links_seen(b, path, nodes));
                        }
                        if !seen.is_empty() {
                            found_any = true;
                            let chain = path.unwrap_or_else(|| trail.path(t, 2));
                            let score = x_chain_score(b, &chain, d);
                            if replaces(&best, chain.len(), score) {
                                let mut step = Step::new(Technique::XChain, chain);
                                step.score = score;
                                step.eliminations = eliminations(seen, d);
                                best = Some(step);
                            }
                        }
                    }
                    if trail.length(t) < longest.min(most_useful_nodes(&best)) {
                        trail.queue.push_back(t);
                    }
                }
            }
        }
        if !found_any {
            b.digit_found_nothing_up_to(DigitSearch::XChain, key, d, within);
        }
    }
    SPARE.set(Some((strong, strong_len)));
    best
}

/// Each cell's strong partners and their count (see [`strong_partners`]).
type StrongPartners = (Vec<[usize; 5]>, Vec<usize>);

thread_local! {
    /// The last search's strong-partner lists, for the next one (allocating and zeroing
    /// them at every search showed in profiles).
    static SPARE: Cell<Option<StrongPartners>> = const { Cell::new(None) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Three-link chains score by shape as the reference scores them (its steps on these
    /// puzzles: "3 Strong links 0102", a box, a row and a column, 5.6; "3 Strong links
    /// 0011", a box and two parallel lines, 5.5).
    #[test]
    fn long_chains_score_by_shape() {
        for (line, score) in [
            (
                "000907804400068570000500020007000651000000000156000400060005000041870002803406000",
                5.6,
            ),
            (
                "000321000000000000070904030050030040014609380300000001002000800790000015045000920",
                5.5,
            ),
        ] {
            let r = crate::rate::rate(&crate::grid::parse_line(line).unwrap());
            assert_eq!(
                (r.score, r.hardest),
                (score, Some(Technique::XChain)),
                "{line}"
            );
        }
    }

    /// The longest chain looked for is the last even node count, from 6 up, scoring
    /// below the bound (counted one count at a time, as before the ceiling-wise bound).
    #[test]
    fn most_x_chain_nodes_counts_as_trying_every_length() {
        // Up to 9.0: a bonus of 2.3 past 6.6, some 12,000 nodes to count.
        for tenths in 35..=90 {
            let below = f64::from(tenths) / 10.0;
            let counted = (6..)
                .step_by(2)
                .take_while(|&k| long_x_chain_score(k) < below - 1e-9)
                .last()
                .unwrap_or(4);
            assert_eq!(most_x_chain_nodes(below), counted, "below {below}");
        }
    }

    /// Whether the search from `start` reaches, by a strong link, an end whose chain
    /// removes something or closes a loop, followed one state at a time as the search
    /// does (state: cell, and whether it was reached by a weak link), within the same
    /// bounds.
    fn reaches_useful_end(b: &Board, start: usize, links: &DigitLinks, reach: Reach) -> bool {
        let Reach {
            most_nodes,
            expand_below,
        } = reach;
        let mut length = vec![[0usize; 2]; b.cells()];
        length[start][1] = 1;
        let mut queue = VecDeque::from([(start, true)]);
        while let Some((cell, by_weak)) = queue.pop_front() {
            let here = length[cell][usize::from(by_weak)];
            let next: Vec<usize> = if by_weak {
                links.strong[cell][..links.strong_len[cell]].to_vec()
            } else {
                b.peer_set(cell).and(links.nodes).iter().collect()
            };
            for t in next {
                let slot = &mut length[t][usize::from(!by_weak)];
                if t == start || *slot != 0 {
                    continue;
                }
                *slot = here + 1;
                if !by_weak {
                    if here + 1 < expand_below {
                        queue.push_back((t, true));
                    }
                    continue;
                }
                if here + 1 > most_nodes {
                    continue;
                }
                // An end seeing the start may close a loop that removes along its weak
                // links.
                let closes = (4..=MOST_LOOP_NODES).contains(&(here + 1)) && b.sees(start, t);
                if closes || !seen_by_both(b, start, t, links.nodes).is_empty() {
                    return true;
                }
                if here + 1 < expand_below {
                    queue.push_back((t, false));
                }
            }
        }
        false
    }

    /// Wherever the search from a start reaches an end that removes something,
    /// [`may_end_usefully`] says it may, under several bounds: every start of every digit
    /// at every step of rating calibration puzzles. And it rules out most starts.
    #[test]
    fn starts_passed_over_reach_no_useful_end() {
        let (mut useful, mut passed_over) = (0, 0);
        let bounds = [(usize::MAX, usize::MAX), (12, 12), (8, 6), (6, 6), (4, 4)];
        let mut strong = Vec::new();
        let mut strong_len = Vec::new();
        crate::rate::each_digit_on_the_way(4.0, 30, |p, b, d, nodes| {
            strong.resize(b.cells(), [0; 5]);
            strong_len.resize(b.cells(), 0);
            strong_partners(b, d, &mut strong, &mut strong_len);
            let links = DigitLinks {
                nodes,
                strong: &strong,
                strong_len: &strong_len,
            };
            for start in links.nodes.iter().filter(|&c| strong_len[c] > 0) {
                for (most_nodes, expand_below) in bounds {
                    let reach = Reach {
                        most_nodes,
                        expand_below,
                    };
                    let (most, below) = (most_nodes, expand_below);
                    let may = may_end_usefully(b, start, &links, reach);
                    if reaches_useful_end(b, start, &links, reach) {
                        useful += 1;
                        assert!(may, "{p}: digit {d}, start {start}, {most}/{below}");
                    }
                    passed_over += usize::from(!may);
                }
            }
        });
        // Seen: 31,530 useful, 294,100 passed over.
        assert!(useful > 1000, "{useful} starts reach a useful end");
        assert!(passed_over > 4 * useful, "{passed_over} passed over");
    }
}
