//! Chaining, after Sudoku Explainer: what an assumption implies, the engine behind
//! forcing chains. [`potentials`] are candidates assumed on or off; [`links`] is the
//! fixed link graph of one board; [`closures`] are everything each potential implies
//! under static rules; a [`run`] follows one assumption with reusable scratch state.
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

pub mod closures;
pub mod graph;
pub mod links;
pub mod potentials;
pub mod run;

pub use closures::Closures;
pub use graph::{LinkGraph, Rules};
pub use links::Links;
pub use potentials::{ones, Potential, PotentialSet, PotentialSlice};
pub use run::{Run, RunStop, Trace};

/// Not a number: no candidate, no component.
const NONE: u32 = u32::MAX;

/// Links as the board stands, on every digit: forcing chains, static multiple forcing
/// chains and bidirectional cycles.
pub const STATIC: Rules = Rules {
    dynamic: false,
    one_digit: false,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_line;
    use crate::rate::board::{digits, Board};
    use std::rc::Rc;

    fn board() -> Board {
        // A puzzle that needs chains (SE 7.0 in the calibration file).
        Board::new(
            &parse_line(
                "050890000004002305010004020045706003700000004600405710020300050503600900000057030",
            )
            .unwrap(),
        )
    }

    /// The sample board's static links: their closures and a run over them.
    fn with_static_run(test: impl FnOnce(&Closures, &mut Run)) {
        let b = board();
        let links = links(&b, false);
        test(&links.closures(), &mut Run::new(&links));
    }

    fn links(b: &Board, dynamic: bool) -> Links<'_> {
        Links::new(
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
        let imp = links(&b, false);
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
        let links = links(&b, false);
        let mut imp = Run::new(&links);
        imp.run(imp.potential(cell, digit, true), RunStop::AtEnd);
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
        with_static_run(|closures, imp| {
            for p in 0..2 * imp.candidates() as Potential {
                imp.run(p, RunStop::AtEnd);
                assert_eq!(
                    closures.of(p).to_owned_set(),
                    imp.reached_set(),
                    "potential {p}"
                );
            }
        });
    }

    /// The static links and closures kept on a board are those built afresh, shared by
    /// every finder of a step, and built again once the board changes.
    #[test]
    fn static_links_are_kept_until_the_board_changes() {
        let mut b = board();
        for round in 0..2 {
            let (kept, fresh) = (Links::shared_static(&b), links(&b, false));
            assert_eq!(kept.candidate, fresh.candidate);
            assert_eq!(kept.kills, fresh.kills);
            assert_eq!(kept.strong, fresh.strong);
            assert_eq!(kept.strong_at, fresh.strong_at);
            let closures = Links::shared_static(&b).shared_closures();
            assert!(Rc::ptr_eq(&closures, &kept.shared_closures()));
            assert!(Rc::ptr_eq(&closures, &fresh.shared_closures()));
            let built = fresh.closures();
            for p in 0..2 * fresh.candidates() as Potential {
                assert_eq!(
                    closures.of(p).to_owned_set(),
                    built.of(p).to_owned_set(),
                    "round {round}, potential {p}"
                );
            }
            // A change makes another board version.
            let cell = (0..81).find(|&c| b.is_open(c)).unwrap();
            b.eliminate(cell, digits(b.cand(cell)).next().unwrap());
            let changed = Links::shared_static(&b).shared_closures();
            assert!(!Rc::ptr_eq(&closures, &changed));
        }
    }

    /// The one-digit engine derived from the static one has the links of one built anew.
    #[test]
    fn derived_one_digit_links_match_built_ones() {
        let b = board();
        let built = Links::new(
            &b,
            Rules {
                dynamic: false,
                one_digit: true,
            },
        );
        let derived = links(&b, false).one_digit();
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

    /// Dynamic links derived from the shared static ones are those built afresh, on every
    /// digit and on one, and runs over them reach the same potentials.
    #[test]
    fn derived_dynamic_links_match_built_ones() {
        let b = board();
        for one_digit in [false, true] {
            let built = Links::new(
                &b,
                Rules {
                    dynamic: true,
                    one_digit,
                },
            );
            let derived = Links::dynamic(&b, one_digit);
            assert_eq!(derived.candidate, built.candidate);
            assert_eq!(derived.kills, built.kills);
            assert_eq!(derived.strong, built.strong);
            assert_eq!(derived.strong_at, built.strong_at);
            assert_eq!(derived.places_at_start, built.places_at_start);
            assert_eq!(derived.place_slots, built.place_slots);
            for slot in 0..built.places_at_start.len() as u16 {
                assert_eq!(derived.slot_candidates(slot), built.slot_candidates(slot));
            }
            let (mut a, mut c) = (Run::new(&derived), Run::new(&built));
            for p in 0..2 * built.candidates() as Potential {
                a.run(p, RunStop::AtConflict);
                c.run(p, RunStop::AtConflict);
                assert_eq!(a.reached_set(), c.reached_set(), "potential {p}");
                assert_eq!(a.conflict(), c.conflict(), "potential {p}");
            }
        }
    }

    /// A run limited to what leads back to the start's opposite finds the same chain to it
    /// as an unlimited run, for every start that reaches its opposite.
    #[test]
    fn a_limited_run_finds_the_same_chain() {
        let mut starts = 0;
        with_static_run(|closures, imp| {
            for p in 0..2 * imp.candidates() as Potential {
                if !closures.of(p).contains(p ^ 1) {
                    continue;
                }
                starts += 1;
                imp.only_through(None);
                imp.run(p, RunStop::AtReaching(p ^ 1, usize::MAX));
                let (chain, nodes) = (imp.chain(p ^ 1), imp.ancestors(p ^ 1));
                imp.only_through(Some(closures.of(p)));
                imp.run(p, RunStop::AtReaching(p ^ 1, usize::MAX));
                assert!(imp.reached(p ^ 1), "potential {p}");
                assert_eq!(imp.chain(p ^ 1), chain, "potential {p}");
                assert_eq!(imp.ancestors(p ^ 1), nodes, "potential {p}");
            }
        });
        assert!(starts > 0, "the board has forcing chains");
    }

    /// A run of `h` links knows the start's shortest chain to its opposite from
    /// [`Run::round_trip`] whenever that chain has at most `2h` links, and never reports a
    /// shorter one: every start of every step's board while rating chain-level
    /// calibration puzzles, with and without the limit to the start's closure.
    #[test]
    fn a_half_deep_run_knows_the_shortest_chain() {
        let (mut known, mut beyond) = (0, 0);
        for puzzle in crate::rate::calibration_puzzles(7.0, 12) {
            let mut b = Board::new(&puzzle);
            while let Some(step) = crate::rate::next_step(&b, f64::INFINITY) {
                let links = links(&b, false);
                let closures = links.closures();
                let mut imp = Run::new(&links);
                for p in 0..2 * imp.candidates() as Potential {
                    if !closures.of(p).contains(p ^ 1) {
                        continue;
                    }
                    for limited in [false, true] {
                        imp.only_through(limited.then(|| closures.of(p)));
                        imp.run(p, RunStop::AtReaching(p ^ 1, usize::MAX));
                        let shortest = imp.ancestors(p ^ 1).0 - 1;
                        for h in 1..=shortest {
                            imp.run(p, RunStop::AtReaching(p ^ 1, h + 1));
                            if imp.reached(p ^ 1) {
                                assert!(shortest <= h, "potential {p}, {h} links");
                                continue;
                            }
                            let trip = imp.round_trip();
                            if shortest <= 2 * h {
                                assert_eq!(trip, Some(shortest), "potential {p}, {h} links");
                                known += 1;
                            } else {
                                assert!(trip.is_none_or(|t| t > 2 * h), "potential {p}");
                                beyond += 1;
                            }
                        }
                    }
                }
                crate::rate::apply(&mut b, &step);
            }
        }
        assert!(
            known > 1000 && beyond > 1000,
            "{known} known, {beyond} beyond"
        );
    }

    /// Without a contradiction, the dynamic rules reach at least what the static rules reach.
    #[test]
    fn dynamic_rules_reach_more() {
        let b = board();
        let (static_links, dynamic_links) = (links(&b, false), links(&b, true));
        let (mut fixed, mut dynamic) = (Run::new(&static_links), Run::new(&dynamic_links));
        let mut compared = 0;
        for p in 0..2 * fixed.candidates() as Potential {
            fixed.run(p, RunStop::AtEnd);
            dynamic.run(p, RunStop::AtEnd);
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
        let links = links(&b, true);
        let mut imp = Run::new(&links);
        let start = (0..2 * imp.candidates() as Potential)
            .find(|&p| {
                imp.run(p, RunStop::AtConflict);
                imp.conflict().is_some()
            })
            .expect("some assumption contradicts itself");
        imp.run(start, RunStop::AtConflict);
        let (trace, set, conflict) = (imp.trace(), imp.reached_set(), imp.conflict());
        let nodes = imp.ancestors(conflict.unwrap());
        imp.run(start ^ 1, RunStop::AtConflict);
        imp.restore(&trace);
        assert_eq!(imp.reached_set(), set);
        assert_eq!(imp.conflict(), conflict);
        assert_eq!(imp.ancestors(conflict.unwrap()), nodes);
    }
}
