//! Geometry, grids, parsing and printing.
//!
//! A grid of side `N = box_rows × box_cols` holds `N²` cells, numbered row by row.
//! Cell values are `0` for empty and `1..=N` for digits. In text, empty is `.` or `0`,
//! digits are `1`–`9`, then `A`–`G` for 10–16.

mod cages;
mod cell;
mod layout;
mod parse;
mod regions;
mod rules;
#[cfg(test)]
pub(crate) mod samples;
mod symmetry;

pub use cages::{sum_range, CageBreak, CageError, Cages, Combinations, MAX_CAGES};
pub use cell::{
    cell_name, cell_names, cells_of, orthogonal_neighbours, parse_cell_name, Candidate, Cell,
};
pub use layout::{CellPlace, CellSet, ExtraUnitPlace, Layout, UnitKind};
pub use parse::{parse_cells_with, parse_line, parse_line_in, parse_line_with, ParseError};
pub use regions::{RegionError, Regions};
pub use rules::{
    per_geometry, Apart, Boxes, DeadlyPatterns, ExtraUnits, GridSearch, LineGroup, Mark,
    Neighbours, PerGeometry, Relabelling, RuleSet, Symmetries, UnknownVariant, Variant,
    GEOMETRY_SLOTS, MOTHER_BATCH, RESTART_NODES, STEADY_NODES_PER_CELL,
};
pub use symmetry::Symmetry;

use std::fmt;
use std::sync::Arc;

/// The shape of a grid and the rules it follows: boxes of `box_rows × box_cols` cells,
/// side `box_rows × box_cols`, and the variant (which adds units such as the diagonals).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    box_rows: u8,
    box_cols: u8,
    variant: Variant,
}

/// Grid sides the engine supports, each with its box shape.
pub const SUPPORTED_SIZES: [usize; 5] = [4, 6, 9, 12, 16];

impl Geometry {
    /// 9×9 with 3×3 boxes.
    pub const CLASSIC: Geometry = Geometry {
        box_rows: 3,
        box_cols: 3,
        variant: Variant::Classic,
    };

    /// The classic geometry of every supported side, smallest first.
    pub fn each_size() -> impl Iterator<Item = Geometry> {
        SUPPORTED_SIZES
            .into_iter()
            .map(|n| Geometry::for_size(n).expect("a supported side"))
    }

    /// The standard geometry for a grid side: 4 (2×2), 6 (2×3), 9 (3×3), 12 (3×4), 16 (4×4).
    pub fn for_size(size: usize) -> Option<Geometry> {
        let (box_rows, box_cols) = match size {
            4 => (2, 2),
            6 => (2, 3),
            9 => (3, 3),
            12 => (3, 4),
            16 => (4, 4),
            _ => return None,
        };
        Some(Geometry {
            box_rows,
            box_cols,
            variant: Variant::Classic,
        })
    }

    /// The same shape under the rules of `variant`.
    #[inline]
    pub fn with_variant(self, variant: Variant) -> Geometry {
        Geometry { variant, ..self }
    }

    /// The rules the grid follows.
    #[inline]
    pub fn variant(self) -> Variant {
        self.variant
    }

    /// The geometry of a stored row's `size`, `box_rows` and `box_cols`, if supported.
    pub fn from_columns(size: usize, box_rows: usize, box_cols: usize) -> Option<Geometry> {
        Geometry::for_size(size).filter(|g| g.box_rows() == box_rows && g.box_cols() == box_cols)
    }

    /// The geometry whose grid has `cells` cells, if supported.
    pub fn for_cell_count(cells: usize) -> Option<Geometry> {
        SUPPORTED_SIZES
            .iter()
            .find(|&&n| n * n == cells)
            .and_then(|&n| Geometry::for_size(n))
    }

    /// Side of the grid (number of digits).
    #[inline]
    pub fn n(self) -> usize {
        self.box_rows as usize * self.box_cols as usize
    }

    /// Number of cells.
    #[inline]
    pub fn cells(self) -> usize {
        self.n() * self.n()
    }

    /// Rows per box.
    #[inline]
    pub fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns per box.
    #[inline]
    pub fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// Whether boxes are square (then transposition and the diagonal symmetries keep boxes).
    pub fn square_boxes(self) -> bool {
        self.box_rows == self.box_cols
    }

    /// Box index (row-major over boxes) of a cell at `(row, col)`.
    #[inline]
    pub fn box_of(self, row: usize, col: usize) -> usize {
        let stacks = self.n() / self.box_cols();
        (row / self.box_rows()) * stacks + col / self.box_cols()
    }

    /// The (row, column) of box `b`'s top-left cell (boxes row-major).
    pub fn box_origin(self, b: usize) -> (usize, usize) {
        let stacks = self.n() / self.box_cols();
        (
            (b / stacks) * self.box_rows(),
            (b % stacks) * self.box_cols(),
        )
    }

    /// The boxes right of box `b` and below it, where there are such boxes.
    pub fn boxes_right_and_below(self, b: usize) -> [Option<usize>; 2] {
        let stacks = self.n() / self.box_cols();
        [
            (b % stacks + 1 < stacks).then_some(b + 1),
            (b + stacks < self.n()).then_some(b + stacks),
        ]
    }

    /// Short label such as `9x9 (3x3 boxes)`, or `diagonal 9x9 (3x3 boxes)` for a variant.
    pub fn label(self) -> String {
        format!("{} ({} boxes)", self.short_label(), self.box_shape())
    }

    /// The side as `9x9`, after the variant unless classic: `diagonal 9x9`.
    pub fn short_label(self) -> String {
        let n = self.n();
        match self.variant.rules().is_plain() {
            true => format!("{n}x{n}"),
            false => format!("{} {n}x{n}", self.variant),
        }
    }

    /// [`Geometry::short_label`] of a size and variant as the bank stores them: a size no
    /// geometry has (a foreign or damaged row) still reads as `NxN`.
    pub fn short_label_of(n: usize, variant: Variant) -> String {
        Geometry::for_size(n).map_or_else(
            || format!("{n}x{n}"),
            |g| g.with_variant(variant).short_label(),
        )
    }

    /// The rules a printed page states for its puzzles of this geometry, e.g.
    /// `diagonal 9x9: place 1-9 once in every row, column and box, and in each of the two
    /// shaded main diagonals.`
    pub fn rules_line(self) -> String {
        let n = self.n();
        let digits = if n <= 9 {
            format!("1-{n}")
        } else {
            format!("1-9 and A-{}", digit_char(n as u8))
        };
        let rules = self.variant.rules();
        let boxes = match rules.boxes {
            Boxes::Fixed => "box",
            Boxes::PerPuzzle => "outlined region",
        };
        format!(
            "{}: place {digits} once in every row, column and {boxes}{}.",
            self.short_label(),
            rules.rule
        )
    }

    /// The box shape as `RxC`, e.g. `3x3`.
    pub fn box_shape(self) -> String {
        format!("{}x{}", self.box_rows, self.box_cols)
    }
}

/// Written as its three columns (`size`, `box_rows`, `box_cols`), as the bank stores it.
impl serde::Serialize for Geometry {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Geometry", 3)?;
        st.serialize_field("size", &self.n())?;
        st.serialize_field("box_rows", &self.box_rows())?;
        st.serialize_field("box_cols", &self.box_cols())?;
        st.end()
    }
}

/// A grid: geometry plus cell values (`0` empty, `1..=N` digits), for a killer puzzle
/// its cages and for a jigsaw one its regions (shared: digging and solving clone grids
/// often).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    geometry: Geometry,
    cells: Vec<u8>,
    cages: Option<Arc<Cages>>,
    regions: Option<Arc<Regions>>,
}

impl Grid {
    /// An empty grid.
    pub fn empty(geometry: Geometry) -> Grid {
        Grid {
            geometry,
            cells: vec![0; geometry.cells()],
            cages: None,
            regions: None,
        }
    }

    /// A grid from raw values; the caller guarantees the length and range.
    ///
    /// # Panics
    /// When the length is not `N²` or a value exceeds `N` (a programming error).
    pub fn from_cells(geometry: Geometry, cells: Vec<u8>) -> Grid {
        assert_eq!(cells.len(), geometry.cells(), "cell count");
        assert!(
            cells.iter().all(|&v| (v as usize) <= geometry.n()),
            "cell value out of range"
        );
        Grid {
            geometry,
            cells,
            cages: None,
            regions: None,
        }
    }

    /// The geometry.
    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The same cells under the rules of `variant` (a killer grid keeps its cages only
    /// while it stays killer).
    pub fn with_variant(mut self, variant: Variant) -> Grid {
        self.geometry = self.geometry.with_variant(variant);
        if !variant.has_cages() {
            self.cages = None;
        }
        if !variant.rules().regions_per_puzzle() {
            self.regions = None;
        }
        self
    }

    /// The same cells with jigsaw `regions` (of this grid's side) in place of the boxes,
    /// under the rule set whose boxes are the puzzle's own.
    pub fn with_regions(mut self, regions: Arc<Regions>) -> Grid {
        debug_assert_eq!(regions.n(), self.geometry.n());
        if !self.geometry.variant().rules().regions_per_puzzle() {
            self.geometry = self.geometry.with_variant(Variant::jigsaw());
        }
        self.regions = Some(regions);
        self
    }

    /// The regions of a jigsaw grid (`None` for the other variants).
    #[inline]
    pub fn regions(&self) -> Option<&Arc<Regions>> {
        self.regions.as_ref()
    }

    /// The grid's units and peers: its regions' layout on a jigsaw grid, else its
    /// geometry's.
    #[inline]
    pub fn layout(&self) -> &Layout {
        match &self.regions {
            Some(regions) => regions.layout(),
            None => self.geometry.layout(),
        }
    }

    /// The same cells with the shape (cages, regions) of `other`.
    pub fn shaped_like(mut self, other: &Grid) -> Grid {
        self.geometry = other.geometry;
        self.cages = other.cages.clone();
        self.regions = other.regions.clone();
        self
    }

    /// The same cells with `cages` (of this grid's side), under the rule set with cages
    /// unless the grid's own has them.
    pub fn with_cages(mut self, cages: Arc<Cages>) -> Grid {
        debug_assert_eq!(cages.n(), self.geometry.n());
        if !self.geometry.variant().has_cages() {
            self.geometry = self.geometry.with_variant(Variant::caged());
        }
        self.cages = Some(cages);
        self
    }

    /// The cages of a killer grid (`None` for the other variants, and for a killer grid
    /// whose cages are not known, such as a bare solution).
    #[inline]
    pub fn cages(&self) -> Option<&Arc<Cages>> {
        self.cages.as_ref()
    }

    /// The values only, as a grid with no cages (the solution grid under them); a jigsaw
    /// grid keeps its regions, without which its values make no grid.
    pub fn without_cages(&self) -> Grid {
        Grid {
            cages: None,
            ..self.clone()
        }
    }

    /// Cell values, row by row.
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Value of one cell.
    #[inline]
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Value of one cell, by row and column.
    #[inline]
    pub fn at(&self, cell: Cell) -> u8 {
        self.cells[cell.index(self.geometry.n())]
    }

    /// Sets one cell (`0` clears it).
    #[inline]
    pub fn set(&mut self, cell: usize, value: u8) {
        debug_assert!((value as usize) <= self.geometry.n());
        self.cells[cell] = value;
    }

    /// Empties every cell (a killer grid keeps its cages).
    pub fn set_all_empty(&mut self) {
        self.cells.fill(0);
    }

    /// Number of filled cells.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Whether this full or partial grid agrees with `solution` on every filled cell.
    pub fn is_consistent_with(&self, solution: &Grid) -> bool {
        self.geometry == solution.geometry
            && self
                .cells
                .iter()
                .zip(&solution.cells)
                .all(|(&a, &b)| a == 0 || a == b)
    }

    /// The first conflict (a digit twice in one unit: row, column, box, or an extra unit
    /// of the rule set; twice a move apart; consecutive digits in touching cells; a
    /// killer cage repeating a digit or missing its sum), if any.
    pub fn find_conflict(&self) -> Option<Conflict> {
        let g = self.geometry;
        let layout = self.layout();
        // A jigsaw grid whose regions are not known (a bare solution) has no boxes.
        let boxes_bind = self.regions.is_some() || g.variant().rules().boxes == Boxes::Fixed;
        let binds = |u: &usize| boxes_bind || !layout.boxes().contains(u);
        let mut seen = vec![0u32; layout.unit_count()];
        for (cell, &v) in self.cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let bit = 1u32 << v;
            if let Some(u) = layout
                .all_units_of(cell)
                .filter(binds)
                .find(|&u| seen[u] & bit != 0)
            {
                return Some(Conflict::Repeat {
                    digit: v,
                    unit: Unit::of(g, u),
                });
            }
            for u in layout.all_units_of(cell) {
                seen[u] |= bit;
            }
            if let Some(other) = layout.apart_sets[cell]
                .iter()
                .find(|&other| other < cell && self.cells[other] == v)
            {
                return Some(Conflict::Apart {
                    digit: v,
                    cells: format!("{} and {}", cell_name(g.n(), other), cell_name(g.n(), cell)),
                    apart: g.variant().rules().apart,
                });
            }
            let barred = g.variant().rules().neighbours.barred(v, g.n());
            if let Some(other) = layout.neighbour_sets[cell].iter().find(|&other| {
                other < cell && u32::from(barred) & (1u32 << self.cells[other]) >> 1 != 0
            }) {
                return Some(Conflict::Consecutive {
                    digits: (self.cells[other], v),
                    cells: format!("{} and {}", cell_name(g.n(), other), cell_name(g.n(), cell)),
                });
            }
        }
        let cages = self.cages.as_ref()?;
        cages.find_broken(&self.cells).map(|broken| match broken {
            CageBreak::Repeat { cage, digit } => Conflict::Repeat {
                digit,
                unit: Unit::Cage(cage),
            },
            CageBreak::Sum { cage, found } => Conflict::CageSum {
                cage,
                cells: cages.cell_list(cage),
                sum: cages.sum(cage),
                found,
            },
        })
    }

    /// One-line form: `.` for empty cells.
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|&v| digit_char(v)).collect()
    }

    /// A readable multi-line grid with box borders.
    pub fn to_pretty(&self) -> String {
        self.boxed(|cell| digit_char(self.cells[cell]))
    }

    /// A killer grid's cages in the boxed form of [`Grid::to_pretty`]: each cell shows
    /// its cage's symbol (as in the one-line cage map), then a line of each cage's sum
    /// (`A=21 B=16 …`); `None` for a grid without cages.
    pub fn cages_pretty(&self) -> Option<String> {
        let cages = self.cages.as_deref()?;
        let symbol = |k: usize| cages::CAGE_SYMBOLS[k] as char;
        let mut out = self.boxed(|cell| symbol(cages.cage_of(cell)));
        let sums: Vec<String> = (0..cages.count())
            .map(|k| format!("{}={}", symbol(k), cages.sum(k)))
            .collect();
        out.push_str(&sums.join(" "));
        out.push('\n');
        Some(out)
    }

    /// The grid in rows with box borders (a jigsaw grid's region borders), each cell drawn
    /// by `cell_char`.
    fn boxed(&self, cell_char: impl Fn(usize) -> char) -> String {
        if let Some(regions) = &self.regions {
            return outlined(regions, cell_char);
        }
        let g = self.geometry;
        let n = g.n();
        let mut sep = String::from("+");
        for _ in 0..n / g.box_cols() {
            sep.push_str(&"-".repeat(2 * g.box_cols() + 1));
            sep.push('+');
        }
        let mut out = String::new();
        for r in 0..n {
            if r % g.box_rows() == 0 {
                out.push_str(&sep);
                out.push('\n');
            }
            for c in 0..n {
                if c % g.box_cols() == 0 {
                    out.push_str("| ");
                }
                out.push(cell_char(r * n + c));
                out.push(' ');
            }
            out.push_str("|\n");
        }
        out.push_str(&sep);
        out.push('\n');
        out
    }
}

/// A jigsaw grid in rows, each cell drawn by `cell_char` between the borders of its
/// region: `|` and `---` where two touching cells lie in different regions, `+` at a
/// corner one of them meets.
fn outlined(regions: &Regions, cell_char: impl Fn(usize) -> char) -> String {
    let n = regions.n();
    // Whether a border runs right of (below) cell (r, c); the grid's edge is one.
    let right = |r: usize, c: usize| {
        c + 1 == n || regions.region_of(r * n + c) != regions.region_of(r * n + c + 1)
    };
    let below = |r: usize, c: usize| {
        r + 1 == n || regions.region_of(r * n + c) != regions.region_of((r + 1) * n + c)
    };
    // The line above row `r` (`r == n`: the bottom edge).
    let rule = |r: usize| {
        let across = |c: usize| if r == 0 { true } else { below(r - 1, c) };
        let mut line = String::from("+");
        for c in 0..n {
            line.push_str(if across(c) { "---" } else { "   " });
            let down = (r > 0 && right(r - 1, c)) || (r < n && right(r, c));
            let corner = c + 1 == n || across(c) || across(c + 1) || down;
            line.push(if corner { '+' } else { ' ' });
        }
        line.push('\n');
        line
    };
    let mut out = String::new();
    for r in 0..n {
        out.push_str(&rule(r));
        out.push('|');
        for c in 0..n {
            out.push(' ');
            out.push(cell_char(r * n + c));
            out.push(' ');
            out.push(if right(r, c) { '|' } else { ' ' });
        }
        out.push('\n');
    }
    out.push_str(&rule(n));
    out
}

/// The one-line text form: the cells, and for a killer grid its cage map and sums after
/// them (`givens map sums`).
impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())?;
        if let Some(regions) = &self.regions {
            write!(f, " {}", regions.to_text())?;
        }
        match &self.cages {
            Some(cages) => write!(f, " {}", cages.to_text()),
            None => Ok(()),
        }
    }
}

/// A row, column, box, extra unit or cage, numbered from 1 in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Row index (0-based).
    Row(usize),
    /// Column index (0-based).
    Column(usize),
    /// Box index (0-based, row-major).
    Box(usize),
    /// Jigsaw region index (0-based, by first appearance row by row).
    Region(usize),
    /// One of the rule set's extra units of a geometry, by its index among them.
    Extra(Geometry, usize),
    /// Killer cage index (0-based, in the order cages first appear).
    Cage(usize),
}

impl Unit {
    /// Unit number `u` of geometry `g`'s layout.
    pub fn of(g: Geometry, u: usize) -> Unit {
        match g.layout().kind_of(u) {
            (UnitKind::Row, i) => Unit::Row(i),
            (UnitKind::Column, i) => Unit::Column(i),
            (UnitKind::Box, i) if g.variant().rules().regions_per_puzzle() => Unit::Region(i),
            (UnitKind::Box, i) => Unit::Box(i),
            (UnitKind::Extra, i) => Unit::Extra(g, i),
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(i) => write!(f, "row {}", i + 1),
            Unit::Column(i) => write!(f, "column {}", i + 1),
            Unit::Box(i) => write!(f, "box {}", i + 1),
            Unit::Region(i) => write!(f, "region {}", i + 1),
            Unit::Extra(g, i) => f.write_str(&g.variant().rules().units.unit_name(*g, *i)),
            Unit::Cage(i) => write!(f, "cage {}", i + 1),
        }
    }
}

/// Why values break the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conflict {
    /// A digit twice in one unit (or killer cage).
    Repeat {
        /// The repeated digit.
        digit: u8,
        /// Where it repeats.
        unit: Unit,
    },
    /// A digit in two cells the rule set's move keeps apart.
    Apart {
        /// The digit.
        digit: u8,
        /// The two cells, as `r1c1 and r2c3`.
        cells: String,
        /// The move.
        apart: Apart,
    },
    /// Consecutive digits in two touching cells (non-consecutive).
    Consecutive {
        /// The two digits, in the order of the cells.
        digits: (u8, u8),
        /// The two cells, as `r1c1 and r1c2`.
        cells: String,
    },
    /// A killer cage whose filled cells cannot make its sum.
    CageSum {
        /// The cage.
        cage: usize,
        /// Its cells, as `r1c1+r1c2`.
        cells: String,
        /// Its sum.
        sum: u32,
        /// What its filled cells add up to.
        found: u32,
    },
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Conflict::Repeat { digit, unit } => {
                write!(f, "digit {} appears twice in {unit}", digit_char(*digit))
            }
            Conflict::Apart {
                digit,
                cells,
                apart,
            } => write!(
                f,
                "digit {} is in {cells}, {} apart",
                digit_char(*digit),
                apart.name()
            ),
            Conflict::Consecutive { digits, cells } => write!(
                f,
                "digits {} and {} are in {cells}, touching, and consecutive",
                digit_char(digits.0),
                digit_char(digits.1)
            ),
            Conflict::CageSum {
                cage,
                cells,
                sum,
                found,
            } => write!(
                f,
                "cage {} ({cells}) must sum to {sum}, but its digits give {found}",
                cage + 1
            ),
        }
    }
}

/// Every order of three things: `ORDERS_OF_THREE[p][i]` is the one that goes to place `i`
/// in order `p` (cage matching's digit orders; the canonicalizer's brute-force check).
pub const ORDERS_OF_THREE: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The character for a cell value: `.` for 0, `1`–`9`, then `A`… for 10 and up.
pub fn digit_char(v: u8) -> char {
    match v {
        0 => '.',
        1..=9 => (b'0' + v) as char,
        _ => (b'A' + v - 10) as char,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_have_expected_boxes() {
        for &n in &SUPPORTED_SIZES {
            let g = Geometry::for_size(n).unwrap();
            assert_eq!(g.n(), n);
            assert_eq!(Geometry::for_cell_count(n * n), Some(g));
        }
        assert_eq!(Geometry::for_size(6).unwrap().box_shape(), "2x3");
        assert_eq!(Geometry::for_size(12).unwrap().box_shape(), "3x4");
        assert!(Geometry::for_size(8).is_none());
    }

    #[test]
    fn box_index_is_row_major() {
        let g = Geometry::for_size(6).unwrap();
        assert_eq!(g.box_of(0, 0), 0);
        assert_eq!(g.box_of(0, 3), 1);
        assert_eq!(g.box_of(2, 0), 2);
        assert_eq!(g.box_of(5, 5), 5);
    }

    #[test]
    fn pretty_has_box_borders() {
        let g = Grid::empty(Geometry::for_size(4).unwrap());
        let text = g.to_pretty();
        assert_eq!(text.lines().count(), 4 + 3);
        assert!(text.starts_with("+-----+-----+"));
    }

    #[test]
    fn conflict_names_unit() {
        let mut g = Grid::empty(Geometry::CLASSIC);
        g.set(0, 5);
        g.set(10, 5);
        let c = g.find_conflict().unwrap();
        assert_eq!(c.to_string(), "digit 5 appears twice in box 1");
    }

    #[test]
    fn diagonal_conflicts_only_under_the_diagonal_rule() {
        let mut g = Grid::empty(Geometry::CLASSIC);
        g.set(0, 4); // r1c1
        g.set(80, 4); // r9c9
        assert_eq!(g.find_conflict(), None);
        let mut d = Grid::empty(Geometry::CLASSIC.with_variant(Variant::Diagonal));
        d.set(0, 4);
        d.set(80, 4);
        assert_eq!(
            d.find_conflict().unwrap().to_string(),
            "digit 4 appears twice in the main diagonal"
        );
        d.set(80, 0);
        d.set(8, 7); // r1c9
        d.set(72, 7); // r9c1
        assert_eq!(
            d.find_conflict().unwrap().to_string(),
            "digit 7 appears twice in the anti-diagonal"
        );
        assert_eq!(
            Geometry::CLASSIC.with_variant(Variant::Diagonal).label(),
            "diagonal 9x9 (3x3 boxes)"
        );
    }

    #[test]
    fn consecutive_neighbours_conflict_only_under_their_rule() {
        let g = Geometry::CLASSIC.with_variant(Variant::NonConsecutive);
        let mut d = Grid::empty(g);
        d.set(10, 5); // r2c2
        d.set(11, 7);
        d.set(12, 6); // r2c4, touching r2c3
        d.set(20, 8); // r3c3, touching r2c3 above
        assert_eq!(
            d.find_conflict().unwrap().to_string(),
            "digits 7 and 6 are in r2c3 and r2c4, touching, and consecutive"
        );
        d.set(12, 9);
        assert_eq!(
            d.find_conflict().unwrap().to_string(),
            "digits 7 and 8 are in r2c3 and r3c3, touching, and consecutive"
        );
        d.set(20, 4); // r3c3: diagonally touching r2c2's 5 is allowed
        assert_eq!(d.find_conflict(), None);
        d.set(20, 6);
        assert_eq!(
            Grid::from_cells(Geometry::CLASSIC, d.cells().to_vec()).find_conflict(),
            None
        );
    }

    #[test]
    fn letters_past_nine() {
        assert_eq!(digit_char(10), 'A');
        assert_eq!(digit_char(16), 'G');
    }
}
