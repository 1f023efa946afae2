//! The techniques: one row each in [`REGISTRY`] (name, base score, finder), one file per
//! family. The rater tries them in registry order and takes the lowest-scoring step.

pub mod chaining;
pub mod chains;
pub mod common;
pub mod fish;
pub mod forcing;
pub mod intersections;
pub mod singles;
pub mod subsets;
pub mod uniqueness;
pub mod wings;

use super::board::Board;
use super::step::Step;
use serde::Serialize;

/// A solving technique, in the order the rater tries them (easiest first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Technique {
    /// The last open cell of a unit.
    FullHouse,
    /// A digit with one place left in a box.
    HiddenSingleBox,
    /// A digit with one place left in a row or column.
    HiddenSingleLine,
    /// A cell with one candidate left.
    NakedSingle,
    /// A digit confined to one line inside a box (locked candidates type 1).
    Pointing,
    /// A digit confined to one box inside a line (locked candidates type 2).
    Claiming,
    /// Two cells of a unit holding the same two candidates.
    NakedPair,
    /// A two-line fish.
    XWing,
    /// Two digits confined to the same two cells of a unit.
    HiddenPair,
    /// Three cells of a unit holding three candidates between them.
    NakedTriple,
    /// A three-line fish.
    Swordfish,
    /// Three digits confined to the same three cells of a unit.
    HiddenTriple,
    /// A bivalue pivot with two bivalue pincers.
    XyWing,
    /// A trivalue pivot with two bivalue pincers.
    XyzWing,
    /// Unique rectangle type 1: one corner with extra candidates.
    UniqueRectangle1,
    /// Unique rectangle type 2: two corners with the same extra candidate.
    UniqueRectangle2,
    /// Unique rectangle type 3: the roof's extras form a naked pair with another cell.
    UniqueRectangle3,
    /// Unique rectangle type 4: a rectangle digit locked in the roof's unit.
    UniqueRectangle4,
    /// Four cells of a unit holding four candidates between them.
    NakedQuad,
    /// A four-line fish.
    Jellyfish,
    /// Four digits confined to the same four cells of a unit.
    HiddenQuad,
    /// Bivalue universal grave plus one cell.
    BugPlusOne,
    /// An alternating chain on one digit.
    XChain,
    /// A chain of bivalue cells.
    XyChain,
    /// An assumption that implies its own opposite (an alternating inference chain).
    ForcingChain,
    /// A digit assumed in a cell contradicts itself along that digit's links.
    Nishio,
    /// Cell, region, double or contradiction forcing chains on static links.
    MultipleForcingChains,
    /// Cell, region, double or contradiction forcing chains with the board updated as the
    /// assumptions go.
    DynamicForcingChains,
}

/// A technique's finder: the first deduction it sees on the board, if any.
///
/// The bound says which steps matter: only those scoring below it (chains use it to
/// search less; the others ignore it).
pub type Finder = fn(&Board, f64) -> Option<Step>;

/// A technique's row: everything the rater and the outputs know of it.
pub struct Entry {
    /// The technique (its row is `REGISTRY[technique as usize]`).
    pub technique: Technique,
    /// Its name in outputs and the bank.
    pub name: &'static str,
    /// The lowest Sudoku Explainer score it can have (chains score by shape and length
    /// from there).
    pub base_score: f64,
    /// Its finder.
    pub finder: Finder,
}

/// Every technique in the order the rater tries them: by base score, except that a
/// technique whose steps can score above a later one's base is tried before it.
pub const REGISTRY: [Entry; 28] = [
    Entry {
        technique: Technique::FullHouse,
        name: "full house",
        base_score: 1.0,
        finder: |b, _| singles::full_house(b),
    },
    Entry {
        technique: Technique::HiddenSingleBox,
        name: "hidden single (box)",
        base_score: 1.2,
        finder: |b, _| singles::hidden_single(b, true),
    },
    Entry {
        technique: Technique::HiddenSingleLine,
        name: "hidden single (row/column)",
        base_score: 1.5,
        finder: |b, _| singles::hidden_single(b, false),
    },
    Entry {
        technique: Technique::NakedSingle,
        name: "naked single",
        base_score: 2.3,
        finder: |b, _| singles::naked_single(b),
    },
    Entry {
        technique: Technique::Pointing,
        name: "pointing",
        base_score: 2.6,
        finder: |b, _| intersections::pointing(b),
    },
    Entry {
        technique: Technique::Claiming,
        name: "claiming",
        base_score: 2.8,
        finder: |b, _| intersections::claiming(b),
    },
    Entry {
        technique: Technique::NakedPair,
        name: "naked pair",
        base_score: 3.0,
        finder: |b, _| subsets::naked(b, 2),
    },
    Entry {
        technique: Technique::XWing,
        name: "x-wing",
        base_score: 3.2,
        finder: |b, _| fish::fish(b, 2),
    },
    Entry {
        technique: Technique::HiddenPair,
        name: "hidden pair",
        base_score: 3.4,
        finder: |b, _| subsets::hidden(b, 2),
    },
    Entry {
        technique: Technique::NakedTriple,
        name: "naked triple",
        base_score: 3.6,
        finder: |b, _| subsets::naked(b, 3),
    },
    Entry {
        technique: Technique::Swordfish,
        name: "swordfish",
        base_score: 3.8,
        finder: |b, _| fish::fish(b, 3),
    },
    Entry {
        technique: Technique::HiddenTriple,
        name: "hidden triple",
        base_score: 4.0,
        finder: |b, _| subsets::hidden(b, 3),
    },
    Entry {
        technique: Technique::XyWing,
        name: "xy-wing",
        base_score: 4.2,
        finder: |b, _| wings::xy_wing(b),
    },
    Entry {
        technique: Technique::XyzWing,
        name: "xyz-wing",
        base_score: 4.4,
        finder: |b, _| wings::xyz_wing(b),
    },
    Entry {
        technique: Technique::UniqueRectangle1,
        name: "unique rectangle type 1",
        base_score: 4.5,
        finder: |b, _| uniqueness::unique_rectangle_1(b),
    },
    Entry {
        technique: Technique::UniqueRectangle2,
        name: "unique rectangle type 2",
        base_score: 4.6,
        finder: |b, _| uniqueness::unique_rectangle_2(b),
    },
    Entry {
        technique: Technique::UniqueRectangle3,
        name: "unique rectangle type 3",
        base_score: 4.6,
        finder: |b, _| uniqueness::unique_rectangle_3(b),
    },
    Entry {
        technique: Technique::UniqueRectangle4,
        name: "unique rectangle type 4",
        base_score: 4.6,
        finder: |b, _| uniqueness::unique_rectangle_4(b),
    },
    Entry {
        technique: Technique::NakedQuad,
        name: "naked quad",
        base_score: 5.0,
        finder: |b, _| subsets::naked(b, 4),
    },
    Entry {
        technique: Technique::Jellyfish,
        name: "jellyfish",
        base_score: 5.2,
        finder: |b, _| fish::fish(b, 4),
    },
    Entry {
        technique: Technique::HiddenQuad,
        name: "hidden quad",
        base_score: 5.4,
        finder: |b, _| subsets::hidden(b, 4),
    },
    Entry {
        technique: Technique::BugPlusOne,
        name: "bug+1",
        base_score: 5.6,
        finder: |b, _| uniqueness::bug_plus_one(b),
    },
    Entry {
        technique: Technique::XChain,
        name: "x-chain",
        base_score: 4.0,
        finder: chains::x_chain,
    },
    Entry {
        technique: Technique::XyChain,
        name: "xy-chain",
        base_score: 6.5,
        finder: chains::xy_chain,
    },
    Entry {
        technique: Technique::ForcingChain,
        name: "forcing chain",
        base_score: 6.6,
        finder: forcing::forcing_chain,
    },
    Entry {
        technique: Technique::Nishio,
        name: "nishio forcing chain",
        base_score: 7.5,
        finder: |b, _| forcing::nishio(b),
    },
    Entry {
        technique: Technique::MultipleForcingChains,
        name: "multiple forcing chains",
        base_score: 8.0,
        finder: |b, _| forcing::multiple_forcing_chains(b),
    },
    Entry {
        technique: Technique::DynamicForcingChains,
        name: "dynamic forcing chains",
        base_score: 8.5,
        finder: |b, _| forcing::dynamic_forcing_chains(b),
    },
];

impl Technique {
    /// The technique's row.
    pub fn entry(self) -> &'static Entry {
        &REGISTRY[self as usize]
    }

    /// Every technique, in the order tried.
    pub fn all() -> impl Iterator<Item = Technique> {
        REGISTRY.iter().map(|e| e.technique)
    }

    /// The lowest Sudoku Explainer score the technique can have.
    pub fn base_score(self) -> f64 {
        self.entry().base_score
    }

    /// A readable name.
    pub fn name(self) -> &'static str {
        self.entry().name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_is_at_its_technique() {
        for (i, e) in REGISTRY.iter().enumerate() {
            assert_eq!(e.technique as usize, i, "{}", e.name);
        }
        let mut names: Vec<&str> = REGISTRY.iter().map(|e| e.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), REGISTRY.len(), "names are unique");
    }
}
