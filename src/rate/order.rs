//! Which of two steps the rater takes: the one Sukaku Explainer reaches first.
//!
//! The reference runs its techniques ("producers") in a fixed order and takes the first
//! step of the first one that finds any, the lowest-scoring of that producer's. Its order
//! follows base scores, with these exceptions that decide ratings:
//! - the strong-link chains of one length run as one producer just after the techniques
//!   of their base score: two links (4.0 to 4.3, grouped and empty rectangles included)
//!   after the hidden triple and before the XY-wing, three (5.4 to 5.7) before the
//!   WXYZ-wing, four (5.8 to 6.1) before the VWXYZ-wing, five (6.2 to 6.5) after the
//!   aligned pair exclusion;
//! - cycles, forcing chains and longer X-chains run as one producer after every wing
//!   (the UVWXYZ-wing at 6.6 comes before a cycle at 6.5);
//! - nishio, multiple and dynamic forcing chains run each as one producer, whatever their
//!   length bonus (a nishio chain at 8.3 comes before a multiple chain at 8.0);
//! - unique rectangles and loops run as one producer at 4.5 (a loop of ten cells at 5.0
//!   comes before a naked quad at 5.0), the BUG types as one at 5.6 (a type 3 at 5.9
//!   before a chain of four strong links at 5.8).
//!
//! Elsewhere the lowest score comes first, as before any of this.

use super::techniques::Technique;

/// Scores closer than this are equal (scores are tenths).
const EPS: f64 = 1e-9;

/// The strong-link chains of two to five links: the lowest and highest score of each
/// length (the plain shape, and 0.3 more for a grouped link or a link only a variant's
/// unit gives).
const STRONG_LINK_LENGTHS: [(f64, f64); 4] = [(4.0, 4.3), (5.4, 5.7), (5.8, 6.1), (6.2, 6.5)];

/// A strong-link producer's place: just after the producers of its lowest score.
const AFTER: f64 = 0.01;

/// The place of the producer of cycles and forcing chains (and X-chains of six links
/// or more): after the UVWXYZ-wing (6.6), before the aligned triple exclusion (7.5).
const CHAINING: f64 = 6.65;

/// How a technique's steps are placed in the reference's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Producer {
    /// By its score alone.
    Score,
    /// By the length of its strong-link chain (read from the score).
    StrongLinks,
    /// With the cycles and forcing chains.
    Chaining,
    /// At this many tenths, whatever its score.
    Base(u8),
}

impl Producer {
    fn of(technique: Technique) -> Producer {
        match technique {
            Technique::XChain | Technique::GroupedXChain | Technique::EmptyRectangle => {
                Producer::StrongLinks
            }
            Technique::Cycle | Technique::ForcingChain => Producer::Chaining,
            Technique::UniqueRectangle1
            | Technique::UniqueRectangle2
            | Technique::UniqueRectangle3
            | Technique::UniqueRectangle4
            | Technique::UniqueLoop1
            | Technique::UniqueLoop2
            | Technique::UniqueLoop3
            | Technique::UniqueLoop4 => Producer::Base(45),
            Technique::BugPlusOne
            | Technique::BugType2
            | Technique::BugType3
            | Technique::BugType4 => Producer::Base(56),
            Technique::Nishio => Producer::Base(75),
            Technique::MultipleForcingChains => Producer::Base(80),
            Technique::DynamicForcingChains => Producer::Base(85),
            _ => Producer::Score,
        }
    }

    /// The place of this producer's step scoring `score`.
    fn place(self, score: f64) -> f64 {
        match self {
            Producer::Score => score,
            Producer::StrongLinks => STRONG_LINK_LENGTHS
                .iter()
                .find(|&&(_, high)| score <= high + EPS)
                .map_or(CHAINING, |&(low, _)| low + AFTER),
            Producer::Chaining => CHAINING,
            Producer::Base(tenths) => f64::from(tenths) / 10.0,
        }
    }
}

/// Where a step stands in the reference's order: its producer's place, then its score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rank {
    place: f64,
    score: f64,
}

impl Rank {
    /// The rank of a step of `technique` scoring `score`.
    pub fn of(technique: Technique, score: f64) -> Rank {
        Rank {
            place: Producer::of(technique).place(score),
            score,
        }
    }

    /// Whether a step of this rank is taken before one of rank `other`.
    pub fn before(self, other: Rank) -> bool {
        self.place < other.place - EPS
            || (self.place < other.place + EPS && self.score < other.score - EPS)
    }

    /// Whether some technique may offer a step taken before this one that scores more
    /// than `enough`: only strong links, unique loops and BUG type 3, cycles and forcing
    /// chains can (a step of a technique placed by its score is taken first only when it
    /// scores less).
    pub fn may_yield_above(self, enough: f64) -> bool {
        [
            Technique::XChain,
            Technique::UniqueLoop3,
            Technique::BugType3,
            Technique::ForcingChain,
            Technique::Nishio,
            Technique::MultipleForcingChains,
            Technique::DynamicForcingChains,
        ]
        .iter()
        .any(|&t| self.beaten_below(t) > enough + EPS)
    }

    /// The score below which a step of `technique` is taken before a step of this rank:
    /// what its finder is asked for (0 when no step of it is; the rater asks only when
    /// this is above the technique's base score).
    pub fn beaten_below(self, technique: Technique) -> f64 {
        let producer = Producer::of(technique);
        match producer {
            // Scores below the place, and the place itself when the step there scores
            // more (an aligned triple exclusion at 7.5 before a nishio chain at 8.2).
            Producer::Score if self.place < self.score - EPS => self.place + 0.05,
            Producer::Score => self.place,
            Producer::StrongLinks => {
                let mut below = 0.0;
                for &(low, high) in &STRONG_LINK_LENGTHS {
                    let place = low + AFTER;
                    if place < self.place - EPS {
                        below = high + 0.05;
                    } else {
                        if place < self.place + EPS {
                            below = self.score;
                        }
                        return below;
                    }
                }
                match CHAINING {
                    p if p < self.place - EPS => f64::INFINITY,
                    p if p < self.place + EPS => below.max(self.score),
                    _ => below,
                }
            }
            Producer::Chaining | Producer::Base(_) => {
                let place = producer.place(0.0);
                if place < self.place - EPS {
                    f64::INFINITY
                } else if place < self.place + EPS {
                    self.score
                } else {
                    0.0
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(t: Technique, score: f64) -> Rank {
        Rank::of(t, score)
    }

    #[test]
    fn strong_links_come_before_the_wings_of_their_length() {
        let grouped_kite = rank(Technique::GroupedXChain, 4.3);
        assert!(grouped_kite.before(rank(Technique::XyWing, 4.2)));
        assert!(rank(Technique::HiddenTriple, 4.0).before(rank(Technique::XChain, 4.0)));
        assert!(rank(Technique::Swordfish, 3.8).before(grouped_kite));
        assert!(rank(Technique::XChain, 5.7).before(rank(Technique::WxyzWing, 5.5)));
        assert!(rank(Technique::BugPlusOne, 5.6).before(rank(Technique::XChain, 5.8)));
        assert!(rank(Technique::XChain, 6.1).before(rank(Technique::VwxyzWing, 6.2)));
        // Shorter first within the strong links, lower first within one length.
        assert!(rank(Technique::XChain, 4.3).before(rank(Technique::XChain, 5.4)));
        assert!(rank(Technique::XChain, 4.0).before(rank(Technique::EmptyRectangle, 4.3)));
    }

    #[test]
    fn chains_come_after_every_wing_and_forcing_chains_by_kind() {
        let cycle = rank(Technique::Cycle, 6.5);
        assert!(rank(Technique::UvwxyzWing, 6.6).before(cycle));
        assert!(cycle.before(rank(Technique::ForcingChain, 6.6)));
        assert!(rank(Technique::XChain, 6.6).before(rank(Technique::ForcingChain, 6.7)));
        assert!(
            rank(Technique::ForcingChain, 7.9).before(rank(Technique::AlignedTripleExclusion, 7.5))
        );
        assert!(rank(Technique::Nishio, 8.3).before(rank(Technique::MultipleForcingChains, 8.0)));
        assert!(rank(Technique::MultipleForcingChains, 8.9)
            .before(rank(Technique::DynamicForcingChains, 8.5)));
        assert!(rank(Technique::Pointing, 2.6).before(rank(Technique::Claiming, 2.8)));
    }

    /// Steps of the techniques whose rank the order bends (length bonuses, forcing chains
    /// moved up), with scores on either side of the bends.
    const STEPS: [(Technique, f64); 11] = [
        (Technique::HiddenSingleBox, 1.2),
        (Technique::XyWing, 4.2),
        (Technique::GroupedXChain, 4.3),
        (Technique::WxyzWing, 5.5),
        (Technique::XChain, 5.7),
        (Technique::Cycle, 6.5),
        (Technique::UvwxyzWing, 6.6),
        (Technique::AlignedTripleExclusion, 7.5),
        (Technique::ForcingChain, 7.6),
        (Technique::Nishio, 8.2),
        (Technique::MultipleForcingChains, 8.4),
    ];

    /// When no technique may yield a step ranked before and scoring above `enough`, none
    /// of the registry does, at any score.
    #[test]
    fn no_step_above_enough_is_passed_over() {
        use crate::rate::techniques::REGISTRY;
        let mut quiet = 0;
        for (t, score) in STEPS {
            let found = rank(t, score);
            for enough in [score, 5.6, 7.0, 8.5] {
                if enough < score || found.may_yield_above(enough) {
                    continue;
                }
                quiet += 1;
                for entry in &REGISTRY {
                    for tenths in (enough * 10.0).round() as u32 + 1..=100 {
                        let s = f64::from(tenths) / 10.0;
                        assert!(
                            !rank(entry.technique, s).before(found),
                            "{:?} {s} before {found:?}",
                            entry.technique
                        );
                    }
                }
            }
        }
        assert!(quiet >= 6, "{quiet}");
    }

    /// A finder asked for steps below `beaten_below` finds exactly those ranked before.
    #[test]
    fn finders_are_asked_for_what_would_be_taken_first() {
        for (found, found_score) in STEPS {
            let found = rank(found, found_score);
            for (t, _) in STEPS {
                for tenths in 20..=100 {
                    let score = f64::from(tenths) / 10.0;
                    let asked = score < found.beaten_below(t) - EPS;
                    assert_eq!(
                        asked,
                        rank(t, score).before(found),
                        "{t:?} {score} against {found:?}"
                    );
                }
            }
        }
    }
}
