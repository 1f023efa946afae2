//! The rule sets: what each variant adds to classic sudoku, declared once in [`RULES`].
//!
//! Everything outside this folder asks a variant's [`RuleSet`] (its extra units, whether
//! it has cages, which symmetries keep it, how the rater prices it, how a picture marks
//! it) and never matches on the variant's name. Adding a variant is a row of [`RULES`],
//! an [`ExtraUnits`] shape when it adds units, and tests (see `docs/design-notes.md`).

mod mirrored;
mod units;

pub use units::ExtraUnits;

use super::SUPPORTED_SIZES;
use std::fmt;
use std::str::FromStr;

/// Which rules a grid follows. A variant is part of a [`super::Geometry`], so every grid,
/// layout, solver call and stored row carries it with its shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Rows, columns and boxes.
    #[default]
    Classic,
    /// Classic rules plus the two main diagonals, each holding every digit once.
    Diagonal,
    /// Classic rules plus cages: connected groups of cells whose digits do not repeat and
    /// add up to the cage's sum. The cages belong to the puzzle, not to the geometry.
    Killer,
}

/// The transformations that map every valid grid of a rule set to another: what the
/// base-grid route draws from and what the fingerprints range over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetries {
    /// The whole sudoku group: rows within bands, bands, columns within stacks, stacks,
    /// transposition when boxes are square, relabelling.
    Sudoku,
    /// The line permutations that, applied to rows and columns alike, keep bands and
    /// stacks and commute with the mirror `i ↦ N−1−i` (see
    /// [`super::Geometry::mirrored_permutations`]), the column mirror, transposition and
    /// relabelling: the group that keeps both main diagonals.
    Mirrored,
}

/// How a picture (print sheet, solving page) marks what a variant adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Nothing beyond rows, columns and boxes.
    Plain,
    /// The cells of the extra units shaded, as printed X-sudoku and windoku mark them.
    ShadeExtraUnits,
    /// Each cage's dashed outline with its sum in the corner.
    Cages,
}

/// What a variant adds to the grid and what follows from it, declared once: the layout,
/// solver, rater, digger, canonicalizer, pictures and store ask this row.
#[derive(Clone, Copy, Debug)]
pub struct RuleSet {
    /// The name used on the command line, in config and in the bank.
    pub name: &'static str,
    /// The grid sides it is made in.
    pub sizes: &'static [usize],
    /// The units it adds to rows, columns and boxes.
    pub units: ExtraUnits,
    /// Whether puzzles carry cages with sums.
    pub cages: bool,
    /// The transformations that keep the rule.
    pub symmetries: Symmetries,
    /// Whether the rater prices steps as the reference rater prices a grid with units
    /// beyond rows, columns and boxes: locked candidates as generalized intersections
    /// (2.9) in any unit, naked sets as generalized naked sets (eliminating from every cell
    /// that sees the set's cells holding a digit), a strong link in an extra unit 0.3 dearer.
    pub generalized_rating: bool,
    /// Whether the uniqueness techniques (unique rectangles, BUG+1) hold: a deadly pattern
    /// is only deadly when no rule beyond rows, columns and boxes can break it.
    pub uniqueness_techniques: bool,
    /// How pictures mark it.
    pub mark: Mark,
    /// What the variant adds to the classic rule, as the end of a printed rules line
    /// (after "once in every row, column and box").
    pub rule: &'static str,
    /// The lowest tier score from which a fill asks the solver whether a dug puzzle
    /// settles below the tier before rating it (`None`: never). Worth it where most dug
    /// puzzles rate below the tier and a rating costs most: measured per variant (see
    /// the design notes, "Settling before rating").
    pub settle_first_from: Option<f64>,
}

impl RuleSet {
    /// Whether puzzles of this rule set are made in side `n`.
    pub fn made_in(&self, n: usize) -> bool {
        self.sizes.contains(&n)
    }

    /// Whether the rule set adds nothing to rows, columns and boxes (the classic one):
    /// keys and labels written before variants existed stay as they were for it.
    pub fn is_plain(&self) -> bool {
        matches!(self.units, ExtraUnits::None) && !self.cages
    }
}

/// Every variant's rule set, at its index.
const RULES: [RuleSet; 3] = [
    RuleSet {
        name: "classic",
        sizes: &SUPPORTED_SIZES,
        units: ExtraUnits::None,
        cages: false,
        symmetries: Symmetries::Sudoku,
        generalized_rating: false,
        uniqueness_techniques: true,
        mark: Mark::Plain,
        rule: "",
        settle_first_from: None,
    },
    RuleSet {
        name: "diagonal",
        sizes: &SUPPORTED_SIZES,
        units: ExtraUnits::Diagonals,
        cages: false,
        symmetries: Symmetries::Mirrored,
        generalized_rating: true,
        uniqueness_techniques: false,
        mark: Mark::ShadeExtraUnits,
        rule: ", and in each of the two shaded main diagonals",
        settle_first_from: Some(6.0),
    },
    RuleSet {
        name: "killer",
        // Cages grow on up to 9 digits: the sums of larger grids are beyond the rater.
        sizes: &[4, 6, 9],
        units: ExtraUnits::None,
        cages: true,
        symmetries: Symmetries::Sudoku,
        generalized_rating: false,
        uniqueness_techniques: false,
        mark: Mark::Cages,
        rule: "; the digits of each dashed cage do not repeat and add up to its sum",
        settle_first_from: Some(2.6),
    },
];

impl Variant {
    /// Every variant, in the order of their index.
    pub const ALL: [Variant; 3] = [Variant::Classic, Variant::Diagonal, Variant::Killer];

    /// The variant's rule set.
    #[inline]
    pub fn rules(self) -> &'static RuleSet {
        &RULES[self as usize]
    }

    /// The name used on the command line, in config and in the bank.
    pub fn name(self) -> &'static str {
        self.rules().name
    }

    /// The variant called `name`, if any.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// Whether puzzles carry cages with sums.
    #[inline]
    pub fn has_cages(self) -> bool {
        self.rules().cages
    }

    /// The variant whose rule set has cages (killer), for a grid given cages.
    pub fn caged() -> Variant {
        Variant::ALL
            .into_iter()
            .find(|v| v.has_cages())
            .expect("a rule set with cages")
    }

    /// Position in [`Variant::ALL`].
    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// The names of every variant, for messages: `classic, diagonal, killer`.
    pub fn names() -> String {
        Variant::ALL.map(Variant::name).join(", ")
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not one of ours.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant `{0}`: use one of {names}", names = Variant::names())]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::from_name(s).ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

impl serde::Serialize for Variant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(Variant::ALL[v.index()], v);
        }
        let err = "killer9".parse::<Variant>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown variant `killer9`: use one of classic, diagonal, killer"
        );
    }
}
