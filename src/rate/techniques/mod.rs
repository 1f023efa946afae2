//! One file per technique family; [`REGISTRY`] orders them by score.

pub mod chains;
pub mod fish;
pub mod forcing;
pub mod implications;
pub mod intersections;
pub mod singles;
pub mod subsets;
pub mod uniqueness;
pub mod wings;

use super::board::Board;
use super::step::{Step, Technique};

/// A technique's finder: the first deduction it sees on the board, if any.
pub type Finder = fn(&Board) -> Option<Step>;

/// Every technique with its finder, easiest first: the rater applies the first that
/// makes progress.
pub const REGISTRY: [(Technique, Finder); 28] = [
    (Technique::FullHouse, singles::full_house),
    (Technique::HiddenSingleBox, |b| {
        singles::hidden_single(b, true)
    }),
    (Technique::HiddenSingleLine, |b| {
        singles::hidden_single(b, false)
    }),
    (Technique::NakedSingle, singles::naked_single),
    (Technique::Pointing, intersections::pointing),
    (Technique::Claiming, intersections::claiming),
    (Technique::NakedPair, |b| subsets::naked(b, 2)),
    (Technique::XWing, |b| fish::fish(b, 2)),
    (Technique::HiddenPair, |b| subsets::hidden(b, 2)),
    (Technique::NakedTriple, |b| subsets::naked(b, 3)),
    (Technique::Swordfish, |b| fish::fish(b, 3)),
    (Technique::HiddenTriple, |b| subsets::hidden(b, 3)),
    (Technique::XyWing, wings::xy_wing),
    (Technique::XyzWing, wings::xyz_wing),
    (Technique::UniqueRectangle1, uniqueness::unique_rectangle_1),
    (Technique::UniqueRectangle2, uniqueness::unique_rectangle_2),
    (Technique::UniqueRectangle3, uniqueness::unique_rectangle_3),
    (Technique::UniqueRectangle4, uniqueness::unique_rectangle_4),
    (Technique::NakedQuad, |b| subsets::naked(b, 4)),
    (Technique::Jellyfish, |b| fish::fish(b, 4)),
    (Technique::HiddenQuad, |b| subsets::hidden(b, 4)),
    (Technique::BugPlusOne, uniqueness::bug_plus_one),
    (Technique::XChain, chains::x_chain),
    (Technique::XyChain, chains::xy_chain),
    (Technique::ForcingChain, forcing::forcing_chain),
    (Technique::Nishio, forcing::nishio),
    (
        Technique::MultipleForcingChains,
        forcing::multiple_forcing_chains,
    ),
    (
        Technique::DynamicForcingChains,
        forcing::dynamic_forcing_chains,
    ),
];
