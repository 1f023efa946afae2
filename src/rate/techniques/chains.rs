//! Chains: X-chains (one digit, alternating strong and weak links) and XY-chains
//! (bivalue cells). The shortest chain with an elimination is taken; its score grows with
//! length as in Sudoku Explainer.

use crate::rate::board::{digits, Board};
use crate::rate::step::{length_bonus, Step, Technique};
use std::collections::VecDeque;

/// Score of a longer X-chain before the length bonus (calibrated on the reference ratings).
const X_CHAIN_BASE: f64 = 5.4;

/// Four-cell X-chains are rated by shape as the reference ratings do: skyscraper (two
/// parallel strong lines) 4.0, two-string kite (a row and a column joined in a box) 4.1,
/// other turbot fish 4.2; longer chains from [`X_CHAIN_BASE`] plus the length bonus.
fn x_chain_score(b: &Board, chain: &[usize]) -> f64 {
    if chain.len() != 4 {
        return X_CHAIN_BASE + length_bonus(chain.len());
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
        (Some(x), Some(y)) if x == y => 4.0,
        (Some(_), Some(_)) => 4.1,
        _ => 4.2,
    }
}

/// Open cells holding `digit` that see both `a` and `z`, except the chain's ends.
fn seen_by_both(b: &Board, a: usize, z: usize, digit: u8) -> Vec<(usize, u8)> {
    let bit = 1u16 << (digit - 1);
    (0..b.cells())
        .filter(|&c| {
            c != a && c != z && b.is_open(c) && b.cand(c) & bit != 0 && b.sees(c, a) && b.sees(c, z)
        })
        .map(|c| (c, digit))
        .collect()
}

/// The path to `end` through `parent` links, start first.
fn path(parent: &[Option<usize>], end: usize, width: usize) -> Vec<usize> {
    let mut out = vec![end];
    let mut at = end;
    while let Some(p) = parent[at] {
        out.push(p);
        at = p;
    }
    out.reverse();
    out.into_iter().map(|s| s / width).collect()
}

fn better(best: &Option<Step>, nodes: usize) -> bool {
    best.as_ref().is_none_or(|s| s.cells.len() > nodes)
}

/// The shortest X-chain on any digit: A = ... = Z with strong links at both ends; the digit
/// leaves cells seeing both A and Z.
pub fn x_chain(b: &Board) -> Option<Step> {
    let n = b.n();
    let cells = b.cells();
    let mut best: Option<Step> = None;
    for d in 1..=n as u8 {
        let bit = 1u16 << (d - 1);
        let holds = |c: usize| b.is_open(c) && b.cand(c) & bit != 0;
        // Strong partners: the other place of `d` in a unit where it has two.
        let mut strong: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for u in 0..b.unit_count() {
            let places = b.positions(u, d);
            if places.count_ones() == 2 {
                let ends: Vec<usize> = digits(places)
                    .map(|i| b.unit(u)[i as usize - 1] as usize)
                    .collect();
                strong[ends[0]].push(ends[1]);
                strong[ends[1]].push(ends[0]);
            }
        }
        let nodes: Vec<usize> = (0..cells).filter(|&c| holds(c)).collect();
        for &start in nodes.iter().filter(|&&c| !strong[c].is_empty()) {
            // State s = cell * 2 + (0: arrived by a strong link, 1: by a weak link).
            let mut parent: Vec<Option<usize>> = vec![None; cells * 2];
            let mut seen = vec![false; cells * 2];
            let mut queue = VecDeque::new();
            seen[start * 2 + 1] = true;
            queue.push_back(start * 2 + 1);
            while let Some(s) = queue.pop_front() {
                let (cell, by_weak) = (s / 2, s % 2 == 1);
                let next: Vec<usize> = if by_weak {
                    strong[cell].iter().map(|&x| x * 2).collect()
                } else {
                    nodes
                        .iter()
                        .filter(|&&x| b.sees(cell, x))
                        .map(|&x| x * 2 + 1)
                        .collect()
                };
                for t in next {
                    if seen[t] || t / 2 == start {
                        continue;
                    }
                    seen[t] = true;
                    parent[t] = Some(s);
                    if t % 2 == 0 {
                        let chain = path(&parent, t, 2);
                        if !better(&best, chain.len()) {
                            continue;
                        }
                        let elims = seen_by_both(b, start, t / 2, d);
                        if !elims.is_empty() {
                            let mut step = Step::new(Technique::XChain, chain.clone());
                            step.score = x_chain_score(b, &chain);
                            step.eliminations = elims;
                            best = Some(step);
                        }
                    }
                    queue.push_back(t);
                }
            }
        }
    }
    best
}

/// The shortest XY-chain: bivalue cells A .. Z linked by shared digits, where A's other
/// digit x is also Z's last: x leaves cells seeing both A and Z.
pub fn xy_chain(b: &Board) -> Option<Step> {
    let n = b.n();
    let cells = b.cells();
    let width = n + 1;
    let pairs: Vec<usize> = (0..cells)
        .filter(|&c| b.is_open(c) && b.cand(c).count_ones() == 2)
        .collect();
    let mut best: Option<Step> = None;
    for &start in &pairs {
        for x in digits(b.cand(start)) {
            // State s = cell * width + the digit the cell is forced to if the chain holds.
            let other =
                |c: usize, d: u8| (b.cand(c) & !(1u16 << (d - 1))).trailing_zeros() as u8 + 1;
            let first = start * width + other(start, x) as usize;
            let mut parent: Vec<Option<usize>> = vec![None; cells * width];
            let mut seen = vec![false; cells * width];
            seen[first] = true;
            let mut queue = VecDeque::from([first]);
            while let Some(s) = queue.pop_front() {
                let (cell, forced) = (s / width, (s % width) as u8);
                let bit = 1u16 << (forced - 1);
                for &next in pairs
                    .iter()
                    .filter(|&&c| c != start && b.cand(c) & bit != 0 && b.sees(cell, c))
                {
                    let out = other(next, forced);
                    let t = next * width + out as usize;
                    if seen[t] {
                        continue;
                    }
                    seen[t] = true;
                    parent[t] = Some(s);
                    if out == x {
                        let chain = path(&parent, t, width);
                        let nodes = 2 * chain.len();
                        if better(&best, chain.len()) {
                            let elims = seen_by_both(b, start, next, x);
                            if !elims.is_empty() {
                                let mut step = Step::new(Technique::XyChain, chain);
                                step.score = Technique::XyChain.base_score() + length_bonus(nodes);
                                step.eliminations = elims;
                                best = Some(step);
                            }
                        }
                    }
                    queue.push_back(t);
                }
            }
        }
    }
    best
}
