//! The rule sets: what each variant adds to classic sudoku, declared once in [`RULES`].
//!
//! Everything outside this folder asks a variant's [`RuleSet`] (its extra units, whether
//! it has cages, which symmetries keep it, how the rater prices it, how a picture marks
//! it) and never matches on the variant's name. Adding a variant is a row of [`RULES`],
//! an [`ExtraUnits`] shape when it adds units, and tests (see `docs/design-notes.md`).

mod apart;
mod lines;
mod mirrored;
mod neighbours;
mod slots;
mod units;

pub use apart::Apart;
pub use lines::LineGroup;
pub use neighbours::{Neighbours, Relabelling};
pub use slots::{per_geometry, PerGeometry, GEOMETRY_SLOTS};
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
    /// Classic rules plus the windows (hyper sudoku): four shaded 3×3 squares, each holding
    /// every digit once.
    Windoku,
    /// Classic rules plus the disjoint groups: the cells at one position of every box hold
    /// every digit once.
    DisjointGroups,
    /// Classic rules plus the nine asterisk cells of 9×9, holding every digit once.
    Asterisk,
    /// Classic rules plus the nine girandola cells of 9×9, holding every digit once.
    Girandola,
    /// Classic rules plus the box centres, holding every digit once.
    CenterDot,
    /// Classic rules, and no two cells a knight's move apart hold the same digit.
    AntiKnight,
    /// Classic rules, and no two diagonally touching cells hold the same digit.
    AntiKing,
    /// Classic rules, and no two orthogonally touching cells hold consecutive digits.
    NonConsecutive,
    /// Rows, columns and irregular regions in place of the boxes: `n` connected groups of
    /// `n` cells, drawn per puzzle and carried with it.
    Jigsaw,
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
    /// Any row permutation with any column permutation from the rule set's
    /// [`LineGroup`] (the box-keeping permutations of each axis that map the extra units
    /// onto extra units), transposition when it keeps them, and relabelling.
    Lines,
    /// The eight symmetries of the square, the puzzle's own regions moving with the grid
    /// (no line permutation keeps a jigsaw layout), and relabelling.
    Square,
}

/// Where a grid's boxes come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boxes {
    /// The geometry's `box_rows × box_cols` boxes.
    Fixed,
    /// The puzzle's own regions ([`crate::grid::Regions`]), which replace the boxes.
    PerPuzzle,
}

/// Which deadly patterns the rater may rely on (the puzzle has one solution, so a pattern
/// that would allow two is ruled out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadlyPatterns {
    /// Unique rectangles and BUG+1.
    Hold,
    /// Unique rectangles that every extra unit meets in no corner or in one side's two
    /// (so swapping the pair keeps every unit whole, as the reference checks its loops);
    /// not BUG+1, whose parity argument counts rows, columns and boxes.
    RectanglesKeepingUnits,
    /// None: cages break them (a swap changes no sum only by chance). Diagonal keeps
    /// this too: its stored puzzles were rated so (generator version 6), and rectangles
    /// would move some of their ratings.
    Never,
}

/// How a picture (print sheet, solving page) marks what a variant adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Nothing beyond rows, columns and boxes (box lines follow the layout, so a
    /// jigsaw's region borders are drawn thick without a mark of their own).
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
    /// A short tag after the side where tables are narrow (`stats`: `9d`); empty for the
    /// classic rules.
    pub tag: &'static str,
    /// The grid sides it is made in.
    pub sizes: &'static [usize],
    /// Where its boxes come from.
    pub boxes: Boxes,
    /// The units it adds to rows, columns and boxes.
    pub units: ExtraUnits,
    /// The move that keeps two cells from holding the same digit, if any.
    pub apart: Apart,
    /// What it says of the digits of orthogonal neighbours.
    pub neighbours: Neighbours,
    /// Whether puzzles carry cages with sums.
    pub cages: bool,
    /// The transformations that keep the rule.
    pub symmetries: Symmetries,
    /// The relabellings of digits that keep it.
    pub relabelling: Relabelling,
    /// Whether the rater prices steps as the reference rater prices a grid with units
    /// beyond rows, columns and boxes: locked candidates as generalized intersections
    /// (2.9) in any unit, naked sets as generalized naked sets (eliminating from every cell
    /// that sees the set's cells holding a digit), a strong link in an extra unit 0.3 dearer.
    pub generalized_rating: bool,
    /// Which uniqueness techniques hold: a deadly pattern is only deadly when no rule
    /// beyond rows, columns and boxes breaks it.
    pub deadly_patterns: DeadlyPatterns,
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
    /// How the solver's random search for a solution grid runs.
    pub grid_search: GridSearch,
    /// The fewest givens a 9x9 tier's clue range may name (scaled for other sides): 17
    /// under the classic rule, which no unique puzzle goes below; none where the variant's
    /// own rule pins digits too (a non-consecutive puzzle rates expert at 10-12 givens).
    pub fewest_clues: usize,
}

/// How the solver's random search for a solution grid of a rule set runs: restarting
/// where one search from an empty grid is heavy-tailed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridSearch {
    /// One search to its end.
    Once,
    /// Restarts from a budget of [`RESTART_NODES`], doubling it each time (jigsaw: a
    /// layout may admit no grid, and the growing budget reaches the cap that gives it up).
    Doubling,
    /// Restarts at the same budget, [`STEADY_NODES_PER_CELL`] nodes a cell, with support
    /// under the neighbours rule (non-consecutive, whose empty grid has solutions).
    Steady,
}

/// The first node budget of a [`GridSearch::Doubling`] search.
pub const RESTART_NODES: u64 = 256;

/// The budget of each [`GridSearch::Steady`] search, per cell of the grid. Measured
/// (`generate --variant non-consecutive --route enumerate --count 300`, one thread):
/// 9×9 fastest at about 2.4 a cell (192 nodes), 12×12 at about 2.7 (384); see the
/// design notes, "Grid searches that restart".
pub const STEADY_NODES_PER_CELL: f64 = 2.5;

/// Grids the transform route takes from one mother search of a [`GridSearch::Steady`]
/// rule set: distinct solutions of its searches, each its own solution class. A search's
/// first costs restarts, its next far less (non-consecutive 9×9: one grid 2.7 ms, a batch
/// of 32 about 14 ms), where a search for each grid made its grids most of an easy fill's
/// time.
pub const MOTHER_BATCH: u64 = 32;

impl RuleSet {
    /// Whether puzzles of this rule set are made in side `n`.
    pub fn made_in(&self, n: usize) -> bool {
        self.sizes.contains(&n)
    }

    /// The sides it is made in, listed for people: `4, 6 and 9` (`conjunction` "and"),
    /// `4, 6 or 9` ("or").
    pub fn sizes_listed(&self, conjunction: &str) -> String {
        let sizes: Vec<String> = self.sizes.iter().map(usize::to_string).collect();
        match sizes.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} {conjunction} {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    /// Whether each puzzle brings its own regions in place of the boxes (jigsaw).
    pub fn regions_per_puzzle(&self) -> bool {
        self.boxes == Boxes::PerPuzzle
    }

    /// Whether cells can see each other pairwise without all sharing one unit: three
    /// such cells exist once extra units, a move that keeps cells apart, or irregular
    /// regions join rows, columns and boxes (under those alone, pairwise peers share a
    /// unit). The rater's almost locked sets then come from such groups as well as units.
    pub fn peers_span_units(&self) -> bool {
        !matches!(self.units, ExtraUnits::None) || self.apart.any() || self.regions_per_puzzle()
    }

    /// Whether the rule set adds nothing to rows, columns and boxes (the classic one):
    /// keys and labels written before variants existed stay as they were for it.
    pub fn is_plain(&self) -> bool {
        matches!(self.units, ExtraUnits::None)
            && self.boxes == Boxes::Fixed
            && !self.apart.any()
            && !self.neighbours.any()
            && !self.cages
    }
}

/// What the rule sets that add units of one shape (not diagonals) share, as the reference
/// rates them; each row says its name, shape and what else differs. As it stands, a nine-cell
/// shape of 9x9 shaded on paper.
const SHADED_UNITS: RuleSet = RuleSet {
    name: "",
    tag: "",
    sizes: &[9],
    boxes: Boxes::Fixed,
    units: ExtraUnits::None,
    apart: Apart::None,
    neighbours: Neighbours::Free,
    cages: false,
    symmetries: Symmetries::Lines,
    relabelling: Relabelling::Any,
    generalized_rating: true,
    deadly_patterns: DeadlyPatterns::RectanglesKeepingUnits,
    mark: Mark::ShadeExtraUnits,
    rule: ", and among the nine shaded cells",
    settle_first_from: Some(6.0),
    grid_search: GridSearch::Once,
    fewest_clues: 0,
};

/// What the rule sets that forbid pairs of digits in nearby cells share (anti-knight,
/// anti-king, non-consecutive: the reference's "forbidden pairs"), as the reference rates
/// them: the cells a move away are peers like those of a unit (generalized rating), and a
/// deadly pattern holds unless a nearby cell holds a digit the rule bars beside it.
const FORBIDDEN_PAIRS: RuleSet = RuleSet {
    deadly_patterns: DeadlyPatterns::Hold,
    mark: Mark::Plain,
    rule: "",
    settle_first_from: Some(3.5),
    ..SHADED_UNITS
};

/// Every variant's rule set, at its index.
const RULES: [RuleSet; 12] = [
    RuleSet {
        name: "classic",
        tag: "",
        sizes: &SUPPORTED_SIZES,
        boxes: Boxes::Fixed,
        units: ExtraUnits::None,
        apart: Apart::None,
        neighbours: Neighbours::Free,
        cages: false,
        symmetries: Symmetries::Sudoku,
        relabelling: Relabelling::Any,
        generalized_rating: false,
        deadly_patterns: DeadlyPatterns::Hold,
        mark: Mark::Plain,
        rule: "",
        settle_first_from: None,
        grid_search: GridSearch::Once,
        fewest_clues: 17,
    },
    RuleSet {
        name: "diagonal",
        tag: "d",
        sizes: &SUPPORTED_SIZES,
        boxes: Boxes::Fixed,
        units: ExtraUnits::Diagonals,
        apart: Apart::None,
        neighbours: Neighbours::Free,
        cages: false,
        symmetries: Symmetries::Mirrored,
        relabelling: Relabelling::Any,
        generalized_rating: true,
        deadly_patterns: DeadlyPatterns::Never,
        mark: Mark::ShadeExtraUnits,
        rule: ", and in each of the two shaded main diagonals",
        settle_first_from: Some(6.0),
        grid_search: GridSearch::Once,
        fewest_clues: 0,
    },
    RuleSet {
        name: "killer",
        tag: "k",
        // Cages grow on up to 9 digits: the sums of larger grids are beyond the rater.
        sizes: &[4, 6, 9],
        boxes: Boxes::Fixed,
        units: ExtraUnits::None,
        apart: Apart::None,
        neighbours: Neighbours::Free,
        cages: true,
        symmetries: Symmetries::Sudoku,
        relabelling: Relabelling::Any,
        generalized_rating: false,
        deadly_patterns: DeadlyPatterns::Never,
        mark: Mark::Cages,
        rule: "; the digits of each dashed cage do not repeat and add up to its sum",
        settle_first_from: Some(2.6),
        grid_search: GridSearch::Once,
        fewest_clues: 0,
    },
    RuleSet {
        name: "windoku",
        tag: "w",
        sizes: &[9, 16],
        units: ExtraUnits::Windows,
        rule: ", and in each shaded window",
        settle_first_from: Some(3.5),
        ..SHADED_UNITS
    },
    RuleSet {
        name: "disjoint-groups",
        tag: "dg",
        sizes: &SUPPORTED_SIZES,
        units: ExtraUnits::DisjointGroups,
        // Every cell is in a group: shading would mark the whole grid.
        mark: Mark::Plain,
        rule: ", and among the cells at the same position within each box",
        ..SHADED_UNITS
    },
    RuleSet {
        name: "asterisk",
        tag: "a",
        units: ExtraUnits::Asterisk,
        ..SHADED_UNITS
    },
    RuleSet {
        name: "girandola",
        tag: "g",
        units: ExtraUnits::Girandola,
        ..SHADED_UNITS
    },
    RuleSet {
        name: "center-dot",
        tag: "cd",
        units: ExtraUnits::CenterDots,
        rule: ", and among the nine shaded box centres",
        ..SHADED_UNITS
    },
    RuleSet {
        name: "anti-knight",
        tag: "an",
        // No 16x16: its first grid took minutes (2 timeouts in 16 attempts, 5 puzzles
        // in 186 s).
        sizes: &[4, 6, 9, 12],
        apart: Apart::Knight,
        rule: "; no two cells a knight's move apart hold the same digit",
        ..FORBIDDEN_PAIRS
    },
    RuleSet {
        name: "anti-king",
        tag: "ak",
        // No 4x4 grid keeps the rule; 16x16 as slow as anti-knight's.
        sizes: &[6, 9, 12],
        apart: Apart::King,
        rule: "; no two diagonally touching cells hold the same digit",
        ..FORBIDDEN_PAIRS
    },
    RuleSet {
        name: "non-consecutive",
        tag: "nc",
        // No 4x4 grid keeps the rule.
        sizes: &[6, 9, 12],
        neighbours: Neighbours::NonConsecutive,
        // Digits keep which are consecutive only under reversal; lines keep which cells
        // touch only under the mirrors.
        relabelling: Relabelling::Reversal,
        // The reference rates it with the classic techniques (no generalized ones), its
        // own two (locked and forcing-cell non-consecutive) and links between neighbours.
        generalized_rating: false,
        rule: "; no two orthogonally touching cells hold consecutive digits",
        grid_search: GridSearch::Steady,
        ..FORBIDDEN_PAIRS
    },
    RuleSet {
        name: "jigsaw",
        tag: "j",
        // Regions need room to bend: 4x4 layouts are few and mostly boxes. 16x16 grids
        // keep more of their boxes than 9x9 ones (see `generate::base::regions_around`).
        sizes: &[6, 9, 12, 16],
        boxes: Boxes::PerPuzzle,
        units: ExtraUnits::None,
        apart: Apart::None,
        neighbours: Neighbours::Free,
        cages: false,
        symmetries: Symmetries::Square,
        relabelling: Relabelling::Any,
        // No reference rates jigsaw: the classic scale, the regions standing for boxes.
        generalized_rating: false,
        deadly_patterns: DeadlyPatterns::Hold,
        mark: Mark::Plain,
        rule: "",
        settle_first_from: Some(3.5),
        grid_search: GridSearch::Doubling,
        fewest_clues: 0,
    },
];

impl Variant {
    /// Every variant, in the order of their index.
    pub const ALL: [Variant; 12] = [
        Variant::Classic,
        Variant::Diagonal,
        Variant::Killer,
        Variant::Windoku,
        Variant::DisjointGroups,
        Variant::Asterisk,
        Variant::Girandola,
        Variant::CenterDot,
        Variant::AntiKnight,
        Variant::AntiKing,
        Variant::NonConsecutive,
        Variant::Jigsaw,
    ];

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

    /// The variant whose boxes are each puzzle's own regions (jigsaw), for a grid given
    /// regions.
    pub fn jigsaw() -> Variant {
        Variant::ALL
            .into_iter()
            .find(|v| v.rules().regions_per_puzzle())
            .expect("a rule set with regions")
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

impl<'de> serde::Deserialize<'de> for Variant {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let name = String::deserialize(d)?;
        name.parse()
            .map_err(|_| serde::de::Error::custom(format!("unknown variant {name}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_tell_variants_apart() {
        let mut tags: Vec<&str> = Variant::ALL.map(|v| v.rules().tag).to_vec();
        tags.sort_unstable();
        tags.dedup();
        assert_eq!(tags.len(), Variant::ALL.len());
    }

    #[test]
    fn names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(Variant::ALL[v.index()], v);
        }
        let err = "killer9".parse::<Variant>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown variant `killer9`: use one of classic, diagonal, killer, windoku, \
             disjoint-groups, asterisk, girandola, center-dot, anti-knight, anti-king, \
             non-consecutive, jigsaw"
        );
    }
}
