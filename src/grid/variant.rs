//! The rule set a grid follows: classic sudoku, or a variant that adds units.

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

/// What a variant adds to the grid and what follows from it, declared once. The rater,
/// the solver's "solved below" bound and the print sheets' rules line ask this row; the
/// layout, canonicalizer, digger and store still ask `has_diagonals`/`has_cages` (issue 53
/// moves them here).
#[derive(Clone, Copy, Debug)]
pub struct RuleSet {
    /// The name used on the command line, in config and in the bank.
    pub name: &'static str,
    /// Whether both main diagonals are units.
    pub diagonals: bool,
    /// Whether puzzles carry cages with sums.
    pub cages: bool,
    /// Whether the rater prices steps as the reference rater prices a grid with units
    /// beyond rows, columns and boxes: locked candidates as generalized intersections
    /// (2.9) in any unit, naked sets as generalized naked sets (eliminating from every cell
    /// that sees the set's cells holding a digit), a strong link in an extra unit 0.3 dearer.
    pub generalized_rating: bool,
    /// Whether the uniqueness techniques (unique rectangles, BUG+1) hold: a deadly pattern
    /// is only deadly when no rule beyond rows, columns and boxes can break it.
    pub uniqueness_techniques: bool,
    /// What the variant adds to the classic rule, as the end of a printed rules line
    /// (after "once in every row, column and box").
    pub rule: &'static str,
}

/// Every variant's rule set, at its index.
const RULES: [RuleSet; 3] = [
    RuleSet {
        name: "classic",
        diagonals: false,
        cages: false,
        generalized_rating: false,
        uniqueness_techniques: true,
        rule: "",
    },
    RuleSet {
        name: "diagonal",
        diagonals: true,
        cages: false,
        generalized_rating: true,
        uniqueness_techniques: false,
        rule: ", and in each of the two shaded main diagonals",
    },
    RuleSet {
        name: "killer",
        diagonals: false,
        cages: true,
        generalized_rating: false,
        uniqueness_techniques: false,
        rule: "; the digits of each dashed cage do not repeat and add up to its sum",
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

    /// Whether both main diagonals are units.
    #[inline]
    pub fn has_diagonals(self) -> bool {
        self.rules().diagonals
    }

    /// Whether puzzles carry cages with sums.
    #[inline]
    pub fn has_cages(self) -> bool {
        self.rules().cages
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
