//! A board's links as the finders share them: the static graph and its closures kept on
//! the board for its version, and the one-digit and dynamic graphs derived from it.

use super::closures::Closures;
use super::graph::{LinkGraph, Rules};
use super::STATIC;
use crate::grid::Candidate;
use crate::rate::board::Board;
use std::cell::OnceCell;
use std::ops::Deref;
use std::rc::Rc;

/// The links of one board under one set of rules; runs ([`super::Run`]) follow them. The
/// graph itself is shared: the static one of a board as it stands is built once for the
/// finders of a step that read it ([`Links::shared_static`]).
#[derive(Clone)]
pub struct Links<'b> {
    pub(super) board: &'b Board,
    graph: Rc<LinkGraph>,
}

impl Deref for Links<'_> {
    type Target = LinkGraph;
    fn deref(&self) -> &LinkGraph {
        &self.graph
    }
}

/// The static links of a board as it stands, kept on the board for its version with
/// their closures once some finder asks for them (see [`Links::shared_closures`]).
struct StaticLinks {
    graph: Rc<LinkGraph>,
    closures: OnceCell<Rc<Closures>>,
}

impl<'b> Links<'b> {
    /// The links of `board` under `rules`, built afresh.
    pub fn new(board: &'b Board, rules: Rules) -> Links<'b> {
        Links {
            board,
            graph: Rc::new(LinkGraph::new(board, rules)),
        }
    }

    /// The links of `board` under [`STATIC`] rules, built once per board version and
    /// shared by the finders of one step (cycles, forcing chains, multiple forcing
    /// chains each read them).
    pub fn shared_static(board: &'b Board) -> Links<'b> {
        let kept = Self::kept_static(board, || Rc::new(LinkGraph::new(board, STATIC)));
        Links {
            board,
            graph: Rc::clone(&kept.graph),
        }
    }

    /// The static links kept on `board`, `graph` when none are kept yet.
    fn kept_static(board: &Board, graph: impl FnOnce() -> Rc<LinkGraph>) -> Rc<StaticLinks> {
        board.derived(|| StaticLinks {
            graph: graph(),
            closures: OnceCell::new(),
        })
    }

    /// [`LinkGraph::closures`] of the static links on every digit, kept on the board for
    /// its version (see [`Links::shared_closures`]).
    pub fn shared_closures(&self) -> Rc<Closures> {
        debug_assert!(!self.rules.dynamic && !self.rules.one_digit);
        let kept = Self::kept_static(self.board, || Rc::clone(&self.graph));
        Rc::clone(kept.closures.get_or_init(|| Rc::new(kept.graph.closures())))
    }

    /// The same board's engine under static rules on one digit, derived from this static
    /// one instead of built again: the same candidates and numbering, without the links
    /// inside a cell (a cell's candidates are numbered in a row).
    pub fn one_digit(&self) -> Links<'b> {
        Links {
            board: self.board,
            graph: Rc::new(self.one_digit_graph()),
        }
    }

    /// The links of `board` under dynamic rules (on every digit, or on one), derived from
    /// the board's shared static links rather than built again: the same candidates and
    /// kills, with the place counts the dynamic rules read instead of the strong links.
    /// Nishio and dynamic forcing chains take them where the forcing chains of the same
    /// step have built the static ones already.
    pub fn dynamic(board: &'b Board, one_digit: bool) -> Links<'b> {
        let shared = Self::shared_static(board);
        let mut graph = if one_digit {
            shared.without_cell_kills()
        } else {
            (*shared.graph).clone()
        };
        graph.rules.dynamic = true;
        graph.strong.clear();
        graph.strong_at.fill(0);
        graph.count_places(board);
        Links {
            board,
            graph: Rc::new(graph),
        }
    }

    /// [`Self::one_digit`]'s graph: without the kills inside a cell, and without the
    /// strong links inside one.
    fn one_digit_graph(&self) -> LinkGraph {
        let mut derived = self.without_cell_kills();
        derived.strong.clear();
        derived.strong_at.clear();
        for (k, &(cell, _)) in self.candidate.iter().enumerate() {
            derived.strong_at.push(derived.strong.len() as u32);
            let others = self.strong(k).iter().copied();
            derived
                .strong
                .extend(others.filter(|&j| self.candidate[j as usize].0 != cell));
        }
        derived.strong_at.push(derived.strong.len() as u32);
        derived
    }

    /// This static graph on one digit as far as the kills go: a candidate on turns off
    /// its digit in the peers only, not the cell's other candidates (numbered in a row).
    /// The strong links are still this graph's.
    fn without_cell_kills(&self) -> LinkGraph {
        debug_assert!(!self.rules.dynamic && !self.rules.one_digit);
        let mut derived = (*self.graph).clone();
        derived.rules.one_digit = true;
        let words = self.words;
        for (k, &(cell, _)) in self.candidate.iter().enumerate() {
            let cell_cands = self.board.cand(cell as usize);
            let lowest = cell_cands.trailing_zeros() as u8 + 1;
            let first = self.number[Candidate::new(cell as usize, lowest).index(self.n)];
            let kill = &mut derived.kills[k * words..(k + 1) * words];
            for j in first as usize..first as usize + cell_cands.count_ones() as usize {
                kill[j / 64] &= !(1 << (j % 64));
            }
        }
        derived
    }
}
