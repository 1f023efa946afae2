//! The techniques: one row each in [`REGISTRY`] (name, base score, finder), one file per
//! family. The rater tries them in registry order (forcing chains earlier once the bank's
//! path has set a high score: `rate::Path`) and takes the step the reference takes
//! (`rate::order`).

pub mod bug;
pub mod chaining;
pub mod chains;
pub mod common;
pub mod consecutive;
pub mod cycles;
pub mod direct;
pub mod exclusion;
pub mod fish;
pub mod forcing;
pub mod grouped;
pub mod intersections;
pub mod killer;
pub mod loops;
pub mod single_digit;
pub mod singles;
pub mod step;
pub mod subsets;
pub mod uniqueness;
pub mod wings;

use super::board::Board;
use crate::grid::{DeadlyPatterns, Geometry, RuleSet};
use serde::Serialize;
use step::Step;

/// A technique's finder: the first deduction it sees on the board, if any.
pub type Finder = fn(&Board, Wanted) -> Option<Step>;

/// Which steps the rater wants of a finder. Chains search less with it; the other
/// finders ignore it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wanted {
    /// Only steps scoring below this matter.
    pub below: f64,
    /// A step scoring at most this serves as well as the lowest one (the puzzle's score
    /// is already that high), so the finder may stop at the first such step it sees.
    pub enough: f64,
}

impl Wanted {
    /// The lowest-scoring step, whatever it scores.
    pub const LOWEST: Wanted = Wanted::below(f64::INFINITY);

    /// The lowest-scoring step below `below`.
    pub const fn below(below: f64) -> Wanted {
        Wanted { below, enough: 0.0 }
    }
}

/// A technique's row: everything the rater and the outputs know of it.
pub struct Entry {
    /// The technique (its row is `REGISTRY[technique as usize]`).
    pub technique: Technique,
    /// Its name in outputs and the bank.
    pub name: &'static str,
    /// What it is: its doc line in the list below (`bank rate --list-techniques`).
    pub summary: &'static str,
    /// The lowest Sudoku Explainer score it can have (chains score by shape and length
    /// from there).
    pub base_score: f64,
    /// Its finder.
    pub finder: Finder,
}

/// Declares the techniques, one row each, in the order the rater tries them: the enum
/// variant with its doc, then its name, base score and finder. The enum and
/// [`REGISTRY`] both come from this one list.
macro_rules! techniques {
    ($($(#[doc = $doc:literal])+ $technique:ident => ($name:literal, $score:literal, $finder:expr),)+) => {
        /// A solving technique, in the order the rater tries them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        pub enum Technique {
            $($(#[doc = $doc])+ $technique,)+
        }

        /// Every technique in the order the rater tries them: by base score, except that
        /// a technique whose steps can score above a later one's base is tried before it.
        pub const REGISTRY: [Entry; [$(Technique::$technique),+].len()] = [
            $(Entry {
                technique: Technique::$technique,
                name: $name,
                summary: concat!($($doc),+),
                base_score: $score,
                finder: $finder,
            },)+
        ];
    };
}

techniques! {
    /// The last open cell of a unit.
    FullHouse => ("full house", 1.0, |b, _| singles::full_house(b)),
    /// A digit with one place left in a box.
    HiddenSingleBox => ("hidden single (box)", 1.2, |b, _| singles::hidden_single(b, true)),
    /// A digit with one place left in a row or column.
    HiddenSingleLine => ("hidden single (row/column)", 1.5, |b, _| singles::hidden_single(b, false)),
    /// A pointing whose removals would leave a hidden single in a box.
    DirectPointing => ("direct pointing", 1.7, |b, _| direct::locked(b, true)),
    /// A claiming whose removals would leave a hidden single in a line.
    DirectClaiming => ("direct claiming", 1.9, |b, _| direct::locked(b, false)),
    /// A hidden pair whose removals would leave a hidden single in its unit.
    DirectHiddenPair => ("direct hidden pair", 2.0, |b, _| direct::hidden(b, 2)),
    /// Killer: a cage's cells keep the digits of the combinations that make its sum (or a
    /// digit every combination needs goes in its one place in the cage).
    CageCombination => ("cage combination", 2.0, |b, _| killer::cage_combination(b)),
    /// A cell with one candidate left.
    NakedSingle => ("naked single", 2.3, |b, _| singles::naked_single(b)),
    /// Non-consecutive: a cell whose two or three candidates lie within one of a digit
    /// keeps that digit out of the cells touching it.
    NcForcingCell => ("nc forcing cell", 2.4, |b, _| consecutive::forcing_cell(b)),
    /// Non-consecutive: a digit's places in a unit that all touch a cell (or are it) keep
    /// its consecutive digits out of that cell.
    LockedNc => ("locked nc", 2.5, |b, _| consecutive::locked(b)),
    /// A hidden triple whose removals would leave a hidden single in its unit.
    DirectHiddenTriple => ("direct hidden triple", 2.5, |b, _| direct::hidden(b, 3)),
    /// Killer: the innies or outies of whole rows, columns or boxes make a known sum (2.5
    /// over one unit, 0.5 more per further unit).
    Innies45 => ("45 rule", 2.5, |b, w| killer::innies_outies(b, w.below)),
    /// A digit confined to one line inside a box (locked candidates type 1).
    Pointing => ("pointing", 2.6, |b, _| intersections::pointing(b)),
    /// Killer: a digit a cage must hold, whose places in the cage share a unit.
    CageLocked => ("cage in unit", 2.7, |b, _| killer::cage_locked(b)),
    /// A digit confined to one box inside a line (locked candidates type 2).
    Claiming => ("claiming", 2.8, |b, _| intersections::claiming(b)),
    /// On grids with extra units: a digit's two to six places in a unit all see a cell
    /// (pointing and claiming generalized).
    GeneralizedIntersection => ("generalized intersection", 2.9, |b, _| intersections::generalized(b)),
    /// Two cells of a unit holding the same two candidates.
    NakedPair => ("naked pair", 3.0, |b, _| subsets::naked(b, 2)),
    /// On grids with extra units: a naked pair whose digits leave every cell seeing the
    /// pair's cells that hold them.
    GeneralizedNakedPair => ("generalized naked pair", 3.0, |b, _| subsets::generalized_naked(b, 2)),
    /// Killer: the cages wholly inside a unit and its other cells hold disjoint digits.
    CageClash => ("cage clash", 3.0, |b, _| killer::cage_clash(b)),
    /// A two-line fish.
    XWing => ("x-wing", 3.2, |b, _| fish::fish(b, 2)),
    /// Two digits confined to the same two cells of a unit.
    HiddenPair => ("hidden pair", 3.4, |b, _| subsets::hidden(b, 2)),
    /// Three cells of a unit holding three candidates between them.
    NakedTriple => ("naked triple", 3.6, |b, _| subsets::naked(b, 3)),
    /// On grids with extra units: a naked triple eliminating as a generalized naked pair.
    GeneralizedNakedTriple => ("generalized naked triple", 3.6, |b, _| subsets::generalized_naked(b, 3)),
    /// A three-line fish.
    Swordfish => ("swordfish", 3.8, |b, _| fish::fish(b, 3)),
    /// Three digits confined to the same three cells of a unit.
    HiddenTriple => ("hidden triple", 4.0, |b, _| subsets::hidden(b, 3)),
    /// A bivalue pivot with two bivalue pincers.
    XyWing => ("xy-wing", 4.2, |b, _| wings::xy_wing(b)),
    /// A digit on one row and one column of a box, with a strong link outside it.
    EmptyRectangle => ("empty rectangle", 4.3, |b, _| single_digit::empty_rectangle(b)),
    /// A trivalue pivot with two bivalue pincers.
    XyzWing => ("xyz-wing", 4.4, |b, _| wings::xyz_wing(b)),
    /// Unique rectangle type 1: one corner with extra candidates.
    UniqueRectangle1 => ("unique rectangle type 1", 4.5, |b, _| uniqueness::unique_rectangle_1(b)),
    /// Unique rectangle type 2: two corners with the same extra candidate.
    UniqueRectangle2 => ("unique rectangle type 2", 4.5, |b, _| uniqueness::unique_rectangle_2(b)),
    /// Unique rectangle type 4: a rectangle digit locked in the roof's unit.
    UniqueRectangle4 => ("unique rectangle type 4", 4.5, |b, _| uniqueness::unique_rectangle_4(b)),
    /// Unique rectangle type 3: the roof's extras form a naked set with other cells, or
    /// the pair a hidden set with a roof corner.
    UniqueRectangle3 => ("unique rectangle type 3", 4.5, |b, _| uniqueness::unique_rectangle_3(b)),
    /// Unique loop (six cells or more) type 1: the pair leaves the one rescue cell.
    UniqueLoop1 => ("unique loop type 1", 4.6, |b, _| loops::unique_loop_1(b)),
    /// Unique loop type 2: the rescue cells' one extra digit leaves cells seeing them all.
    UniqueLoop2 => ("unique loop type 2", 4.6, |b, _| loops::unique_loop_2(b)),
    /// Unique loop type 4: a pair digit locked in the rescue cells' unit.
    UniqueLoop4 => ("unique loop type 4", 4.6, |b, _| loops::unique_loop_4(b)),
    /// Unique loop type 3: the rescue cells' extras make a naked set with cells of their
    /// unit, or the pair a hidden set with a rescue cell.
    UniqueLoop3 => ("unique loop type 3", 4.6, |b, _| loops::unique_loop_3(b)),
    /// Four cells of a unit holding four candidates between them.
    NakedQuad => ("naked quad", 5.0, |b, _| subsets::naked(b, 4)),
    /// On grids with extra units: a naked quad eliminating as a generalized naked pair.
    GeneralizedNakedQuad => ("generalized naked quad", 5.0, |b, _| subsets::generalized_naked(b, 4)),
    /// A four-line fish.
    Jellyfish => ("jellyfish", 5.2, |b, _| fish::fish(b, 4)),
    /// Four digits confined to the same four cells of a unit.
    HiddenQuad => ("hidden quad", 5.4, |b, _| subsets::hidden(b, 4)),
    /// A bivalue cell and an almost locked set of three cells (4 digits).
    WxyzWing => ("wxyz-wing", 5.5, |b, w| wings::als_wing(b, 3, w.below)),
    /// Bivalue universal grave plus one cell (BUG type 1): the cell keeps an extra digit.
    BugPlusOne => ("bug+1", 5.6, |b, _| bug::bug_plus_one(b)),
    /// BUG type 2: one extra digit in several cells, so it leaves the cells seeing them all.
    BugType2 => ("bug type 2", 5.7, |b, _| bug::bug_type_2(b)),
    /// BUG type 4: two BUG cells of a unit sharing one more digit lose their others.
    BugType4 => ("bug type 4", 5.7, |b, _| bug::bug_type_4(b)),
    /// BUG type 3: the BUG cells' extra digits make a naked set with cells of their unit.
    BugType3 => ("bug type 3", 5.8, |b, _| bug::bug_type_3(b)),
    /// A bivalue cell and an almost locked set of four cells (5 digits).
    VwxyzWing => ("vwxyz-wing", 6.2, |b, w| wings::als_wing(b, 4, w.below)),
    /// An alternating chain on one digit.
    XChain => ("x-chain", 4.0, |b, w| chains::x_chain(b, w.below)),
    /// Two cells whose pairs of values the bivalue cells seeing both rule out.
    AlignedPairExclusion => ("aligned pair exclusion", 6.2, |b, _| exclusion::aligned_pair_exclusion(b)),
    /// An X-chain with a group node (a digit's places where a box meets a line).
    GroupedXChain => ("grouped x-chain", 4.3, |b, w| grouped::grouped_x_chain(b, w.below)),
    /// A bivalue cell and an almost locked set of five cells (6 digits).
    UvwxyzWing => ("uvwxyz-wing", 6.6, |b, w| wings::als_wing(b, 5, w.below)),
    /// An assumption that implies its own opposite (an alternating inference chain).
    ForcingChain => ("forcing chain", 6.6, forcing::forcing_chain),
    /// A loop of alternating links that holds either way round (X-, Y- or mixed cycle).
    Cycle => ("bidirectional cycle", 6.5, |b, w| cycles::cycle(b, w.below)),
    /// Three cells whose triples of values the cells of two or three candidates seeing
    /// all three rule out.
    AlignedTripleExclusion => ("aligned triple exclusion", 7.5, |b, _| exclusion::aligned_triple_exclusion(b)),
    /// A digit assumed in a cell contradicts itself along that digit's links.
    Nishio => ("nishio forcing chain", 7.5, |b, w| forcing::nishio(b, w.enough)),
    /// Cell, region, double or contradiction forcing chains on static links.
    MultipleForcingChains => ("multiple forcing chains", 8.0, |b, w| forcing::multiple_forcing_chains(b, w.enough)),
    /// Cell, region, double or contradiction forcing chains with the board updated as the
    /// assumptions go.
    DynamicForcingChains => ("dynamic forcing chains", 8.5, |b, w| forcing::dynamic_forcing_chains(b, w.enough)),
}

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

    /// Its name on a grid of geometry `g`: where the puzzle's own regions replace the boxes
    /// (jigsaw), a technique named after the box is named after the region.
    pub fn name_in(self, g: Geometry) -> &'static str {
        match self {
            Technique::HiddenSingleBox if g.variant().rules().regions_per_puzzle() => {
                "hidden single (region)"
            }
            _ => self.name(),
        }
    }

    /// Whether the technique reads killer cages (it finds nothing on other boards).
    pub fn needs_cages(self) -> bool {
        matches!(
            self,
            Technique::CageCombination
                | Technique::Innies45
                | Technique::CageLocked
                | Technique::CageClash
        )
    }

    /// Whether the rater uses the technique on a grid under `rules`. Grids with units
    /// beyond rows, columns and boxes are rated as the reference rates them: generalized
    /// intersections and naked sets in place of locked candidates and naked sets; and the
    /// uniqueness techniques only where the rule set says deadly patterns hold.
    pub fn applies_under(self, rules: &RuleSet) -> bool {
        use Technique::*;
        match self {
            Pointing | Claiming | NakedPair | NakedTriple | NakedQuad => !rules.generalized_rating,
            GeneralizedIntersection
            | GeneralizedNakedPair
            | GeneralizedNakedTriple
            | GeneralizedNakedQuad => rules.generalized_rating,
            UniqueRectangle1 | UniqueRectangle2 | UniqueRectangle3 | UniqueRectangle4 => {
                rules.deadly_patterns != DeadlyPatterns::Never
            }
            UniqueLoop1 | UniqueLoop2 | UniqueLoop3 | UniqueLoop4 => {
                rules.deadly_patterns == DeadlyPatterns::Hold
            }
            BugPlusOne | BugType2 | BugType3 | BugType4 => {
                rules.deadly_patterns == DeadlyPatterns::Hold
            }
            NcForcingCell | LockedNc => rules.neighbours.any(),
            _ => !self.needs_cages() || rules.cages,
        }
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
