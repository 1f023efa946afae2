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
///
/// The bound says which steps matter: only those scoring below it (chains use it to
/// search less; the others ignore it).
pub type Finder = fn(&Board, f64) -> Option<Step>;

/// Every technique with its finder, easiest first: the rater applies the first that
/// makes progress.
pub const REGISTRY: [(Technique, Finder); 28] = [
    (Technique::FullHouse, |b, _| singles::full_house(b)),
    (Technique::HiddenSingleBox, |b, _| {
        singles::hidden_single(b, true)
    }),
    (Technique::HiddenSingleLine, |b, _| {
        singles::hidden_single(b, false)
    }),
    (Technique::NakedSingle, |b, _| singles::naked_single(b)),
    (Technique::Pointing, |b, _| intersections::pointing(b)),
    (Technique::Claiming, |b, _| intersections::claiming(b)),
    (Technique::NakedPair, |b, _| subsets::naked(b, 2)),
    (Technique::XWing, |b, _| fish::fish(b, 2)),
    (Technique::HiddenPair, |b, _| subsets::hidden(b, 2)),
    (Technique::NakedTriple, |b, _| subsets::naked(b, 3)),
    (Technique::Swordfish, |b, _| fish::fish(b, 3)),
    (Technique::HiddenTriple, |b, _| subsets::hidden(b, 3)),
    (Technique::XyWing, |b, _| wings::xy_wing(b)),
    (Technique::XyzWing, |b, _| wings::xyz_wing(b)),
    (Technique::UniqueRectangle1, |b, _| {
        uniqueness::unique_rectangle_1(b)
    }),
    (Technique::UniqueRectangle2, |b, _| {
        uniqueness::unique_rectangle_2(b)
    }),
    (Technique::UniqueRectangle3, |b, _| {
        uniqueness::unique_rectangle_3(b)
    }),
    (Technique::UniqueRectangle4, |b, _| {
        uniqueness::unique_rectangle_4(b)
    }),
    (Technique::NakedQuad, |b, _| subsets::naked(b, 4)),
    (Technique::Jellyfish, |b, _| fish::fish(b, 4)),
    (Technique::HiddenQuad, |b, _| subsets::hidden(b, 4)),
    (Technique::BugPlusOne, |b, _| uniqueness::bug_plus_one(b)),
    (Technique::XChain, chains::x_chain),
    (Technique::XyChain, chains::xy_chain),
    (Technique::ForcingChain, forcing::forcing_chain),
    (Technique::Nishio, |b, _| forcing::nishio(b)),
    (Technique::MultipleForcingChains, |b, _| {
        forcing::multiple_forcing_chains(b)
    }),
    (Technique::DynamicForcingChains, |b, _| {
        forcing::dynamic_forcing_chains(b)
    }),
];
