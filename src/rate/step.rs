//! Techniques, their Sudoku Explainer scores, and the step type they all produce.

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

impl Technique {
    /// Every technique, in the order tried.
    pub const ALL: [Technique; 28] = [
        Technique::FullHouse,
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::NakedSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::UniqueRectangle1,
        Technique::UniqueRectangle2,
        Technique::UniqueRectangle3,
        Technique::UniqueRectangle4,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::BugPlusOne,
        Technique::XChain,
        Technique::XyChain,
        Technique::ForcingChain,
        Technique::Nishio,
        Technique::MultipleForcingChains,
        Technique::DynamicForcingChains,
    ];

    /// The lowest Sudoku Explainer score the technique can have (chains score by shape
    /// and length from there).
    pub fn base_score(self) -> f64 {
        match self {
            Technique::FullHouse => 1.0,
            Technique::HiddenSingleBox => 1.2,
            Technique::HiddenSingleLine => 1.5,
            Technique::NakedSingle => 2.3,
            Technique::Pointing => 2.6,
            Technique::Claiming => 2.8,
            Technique::NakedPair => 3.0,
            Technique::XWing => 3.2,
            Technique::HiddenPair => 3.4,
            Technique::NakedTriple => 3.6,
            Technique::Swordfish => 3.8,
            Technique::HiddenTriple => 4.0,
            Technique::XyWing => 4.2,
            Technique::XyzWing => 4.4,
            Technique::UniqueRectangle1 => 4.5,
            Technique::UniqueRectangle2 => 4.6,
            Technique::UniqueRectangle3 => 4.6,
            Technique::UniqueRectangle4 => 4.6,
            Technique::NakedQuad => 5.0,
            Technique::Jellyfish => 5.2,
            Technique::HiddenQuad => 5.4,
            Technique::BugPlusOne => 5.6,
            Technique::XChain => 4.0,
            Technique::XyChain => 6.5,
            Technique::ForcingChain => 6.6,
            Technique::Nishio => 7.5,
            Technique::MultipleForcingChains => 8.0,
            Technique::DynamicForcingChains => 8.5,
        }
    }

    /// A readable name.
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "full house",
            Technique::HiddenSingleBox => "hidden single (box)",
            Technique::HiddenSingleLine => "hidden single (row/column)",
            Technique::NakedSingle => "naked single",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked pair",
            Technique::XWing => "x-wing",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden triple",
            Technique::XyWing => "xy-wing",
            Technique::XyzWing => "xyz-wing",
            Technique::UniqueRectangle1 => "unique rectangle type 1",
            Technique::UniqueRectangle2 => "unique rectangle type 2",
            Technique::UniqueRectangle3 => "unique rectangle type 3",
            Technique::UniqueRectangle4 => "unique rectangle type 4",
            Technique::NakedQuad => "naked quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden quad",
            Technique::BugPlusOne => "bug+1",
            Technique::XChain => "x-chain",
            Technique::XyChain => "xy-chain",
            Technique::ForcingChain => "forcing chain",
            Technique::Nishio => "nishio forcing chain",
            Technique::MultipleForcingChains => "multiple forcing chains",
            Technique::DynamicForcingChains => "dynamic forcing chains",
        }
    }
}

/// One deduction: the technique, the cells that make the pattern, and what it concludes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// Its score (chains: with the length bonus).
    pub score: f64,
    /// Cells forming the pattern.
    pub cells: Vec<usize>,
    /// Digits placed: (cell, digit).
    pub placements: Vec<(usize, u8)>,
    /// Candidates removed: (cell, digit).
    pub eliminations: Vec<(usize, u8)>,
    /// Forcing chains: each chain from its assumption to what it implies (empty for the
    /// other techniques).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chains: Vec<Vec<Link>>,
}

/// One node of a forcing chain: a candidate taken as true (`on`) or false.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Link {
    /// The cell.
    pub cell: usize,
    /// The digit.
    pub digit: u8,
    /// Whether the digit is taken as placed (true) or removed (false).
    pub on: bool,
}

impl Step {
    /// A step at the technique's base score.
    pub fn new(technique: Technique, cells: Vec<usize>) -> Step {
        Step {
            technique,
            score: technique.base_score(),
            cells,
            placements: Vec::new(),
            eliminations: Vec::new(),
            chains: Vec::new(),
        }
    }
}

/// The most nodes a chain scored `base + length_bonus(nodes * per_node)` may have to score
/// less than `below` (0 when none can; unbounded when `below` is infinite).
pub fn most_nodes_below(below: f64, base: f64, per_node: usize) -> usize {
    if below == f64::INFINITY {
        return usize::MAX;
    }
    (0..)
        .find(|&k| base + length_bonus((k + 1) * per_node) >= below - 1e-9)
        .expect("the length bonus grows without bound")
}

/// Sudoku Explainer's length bonus for chains of `nodes` nodes: +0.1 each time the length
/// passes the next of the ceilings 4, 6, 8, 10, 15, 20, 30, ...
pub fn length_bonus(nodes: usize) -> f64 {
    let length = nodes.saturating_sub(2);
    let (mut ceil, mut added, mut odd) = (4usize, 0.0, false);
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}
