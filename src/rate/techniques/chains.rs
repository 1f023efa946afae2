//! X-chains: one digit, alternating strong and weak links. The shortest chain with an
//! elimination is taken; its score grows with length as in Sudoku Explainer. (Chains of
//! bivalue cells are scored as the reference does: as forcing chains, or as cycles.)

use super::common::holding_each_digit;
use super::Technique;
use crate::grid::CellSet;
use crate::rate::board::{digits, Board};
use crate::rate::memo::{DigitSearch, Trail};
use crate::rate::step::{length_bonus, Step};

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

/// Four-cell X-chains (two strong links) are rated by shape as Sukaku Explainer's strong
/// links are: skyscraper (two parallel strong lines) 4.0, any other (a row and a column,
/// or a box link: two-string kite, turbot fish) 4.1; longer chains by
/// [`long_x_chain_score`].
fn x_chain_score(b: &Board, chain: &[usize]) -> f64 {
    if chain.len() != 4 {
        return long_x_chain_score(chain.len());
    }
    let n = b.n();
    let line = |a: usize, z: usize| {
        if a / n == z / n {
            Some(0)
        } else if a % n == z % n {
            Some(1)
        } else {
            None
        }
    };
    match (line(chain[0], chain[1]), line(chain[2], chain[3])) {
        (Some(x), Some(y)) if x == y => SKYSCRAPER,
        _ => 4.1,
    }
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
        Some(s) if s.cells.len() == 4 && s.score > SKYSCRAPER + 1e-9 => 4,
        Some(s) => s.cells.len() - 1,
    }
}

/// The cells of `holding` (the open cells holding the chain's digit) that see both ends
/// `a` and `z` (never the ends themselves: a cell is not its own peer).
fn seen_by_both(b: &Board, a: usize, z: usize, holding: CellSet) -> CellSet {
    b.peer_set(a).and(b.peer_set(z)).and(holding)
}

/// `digit` out of `cells`, as eliminations.
fn eliminations(cells: CellSet, digit: u8) -> Vec<(usize, u8)> {
    cells.iter().map(|c| (c, digit)).collect()
}

/// The shortest X-chain on any digit (of the shortest, the lowest-scoring): A = ... = Z
/// with strong links at both ends; the digit leaves cells seeing both A and Z. Only chains
/// scoring below `below` are looked for.
pub fn x_chain(b: &Board, below: f64) -> Option<Step> {
    // Four cells score 4.0-4.1; longer chains more, the longer the more.
    if below <= SKYSCRAPER + 1e-9 {
        return None;
    }
    let longest = if below == f64::INFINITY {
        usize::MAX
    } else {
        (6..)
            .step_by(2)
            .take_while(|&k| long_x_chain_score(k) < below - 1e-9)
            .last()
            .unwrap_or(4)
    };
    let n = b.n();
    let cells = b.cells();
    let mut best: Option<Step> = None;
    let mut trail = Trail::new(cells * 2);
    let holding = holding_each_digit(b);
    // Strong partners of each cell: the other place of the digit in a unit where it has
    // two (at most one per unit: three, or five on the centre of a diagonal grid).
    let mut strong = vec![[0usize; 5]; cells];
    let mut strong_len = vec![0usize; cells];
    for d in 1..=n as u8 {
        // The most nodes a chain of this digit may have: a digit that had none within that
        // many and has not changed since is passed over.
        let within = longest.min(most_useful_nodes(&best));
        let key = d as usize - 1;
        if b.digit_found_nothing_within(DigitSearch::XChain, key, d, within) {
            continue;
        }
        let mut found_any = false;
        strong_len.fill(0);
        for u in 0..b.unit_count() {
            let places = b.positions(u, d);
            if places.count_ones() == 2 {
                let mut ends = digits(places).map(|i| b.unit(u)[i as usize - 1] as usize);
                let (x, y) = (ends.next().unwrap(), ends.next().unwrap());
                strong[x][strong_len[x]] = y;
                strong_len[x] += 1;
                strong[y][strong_len[y]] = x;
                strong_len[y] += 1;
            }
        }
        let nodes = holding[d as usize];
        for start in nodes.iter().filter(|&c| strong_len[c] > 0) {
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
                    b.peer_set(cell).and(nodes).minus(weak_seen)
                };
                for t in strong_targets.chain(weak.iter().map(|x| x * 2 + 1)) {
                    if t / 2 == start || !trail.reach(t, s) {
                        continue;
                    }
                    if t % 2 == 1 {
                        weak_seen.insert(t / 2);
                    } else {
                        if trail.length(t) > most_useful_nodes(&best) {
                            continue;
                        }
                        let seen = seen_by_both(b, start, t / 2, nodes);
                        if !seen.is_empty() {
                            found_any = true;
                            let chain = trail.path(t, 2);
                            let score = x_chain_score(b, &chain);
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
    best
}
