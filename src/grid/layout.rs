//! The layout of a geometry: its units (the groups of cells that hold each digit once),
//! each cell's units, peers and place, flattened into tables built once per process.
//! The unit list is the one place that says what a unit is: the rater and the digger
//! read it from here (a variant's extra units come from its rule set, [`super::ExtraUnits`]).

use super::{per_geometry, Geometry, Mark, PerGeometry, GEOMETRY_SLOTS};
use std::ops::Range;
use std::sync::OnceLock;

/// Units and peers of one geometry, flattened for the hot path. Units are numbered rows
/// first (`0..n`), then columns (`n..2n`), then boxes (`2n..3n`), then the rule set's
/// extra units (`3n..`, e.g. the main diagonal and the anti-diagonal), each in the order
/// [`super::ExtraUnits::cells`] lists it.
pub struct Layout {
    /// Peers of each cell: `peers[peer_start[cell]..peer_start[cell + 1]]`.
    peers: Vec<u16>,
    peer_start: Vec<u32>,
    /// Cells of each unit (rows, columns, boxes, extra units), `n` per unit.
    units: Vec<u16>,
    n: usize,
    /// For each cell, a bit mask of the units it belongs to.
    pub cell_units: Vec<u64>,
    /// For each cell, its peers as a cell set.
    pub peer_sets: Vec<CellSet>,
    /// For each cell, the cells sharing a unit with it (its peers less those a move
    /// keeps apart): a weak link of a strong-link chain runs inside a unit.
    pub unit_peer_sets: Vec<CellSet>,
    /// For each cell, the peers the rule set's move adds ([`super::Apart`]): cells a
    /// move away that share no unit with it (none under most rule sets).
    pub apart_sets: Vec<CellSet>,
    /// For each cell, the cells touching it whose digits the rule set restricts beyond
    /// differing ([`super::Neighbours`]; none under most rule sets).
    pub neighbour_sets: Vec<CellSet>,
    /// For each unit, its cells as a cell set.
    unit_sets: Vec<CellSet>,
    /// For each cell, where it sits (no divisions on the rater's hot path).
    pub places: Vec<CellPlace>,
    /// For each cell, its row, column and box as unit numbers.
    cell_unit_ids: Vec<[u16; 3]>,
    /// For each cell, the extra units through it (none under classic rules).
    cell_extra: Vec<ExtraUnitsOf>,
}

/// The most extra units through one cell (both diagonals through the centre).
const MOST_EXTRA_PER_CELL: usize = 2;

/// The extra units through a cell and the cell's position in each.
#[derive(Clone, Copy, Debug, Default)]
struct ExtraUnitsOf {
    units: [u16; MOST_EXTRA_PER_CELL],
    at: [u8; MOST_EXTRA_PER_CELL],
    count: u8,
}

/// One extra unit through a cell: the unit's number and the cell's position in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtraUnitPlace {
    /// The unit number (`3n..`).
    pub unit: usize,
    /// The cell's position in the unit's listing.
    pub at: usize,
}

/// Where a cell sits: its row, column and box (each numbered from 0) and its position
/// within the box (row-major).
#[derive(Clone, Copy, Debug)]
pub struct CellPlace {
    /// Row, from 0.
    pub row: u8,
    /// Column, from 0.
    pub col: u8,
    /// Box, row-major, from 0.
    pub bx: u8,
    /// Position within the box, row-major.
    pub in_box: u8,
}

impl Layout {
    fn build(g: Geometry) -> Layout {
        let n = g.n();
        let boxes: Vec<u8> = (0..g.cells())
            .map(|c| g.box_of(c / n, c % n) as u8)
            .collect();
        Layout::with_boxes(g, &boxes)
    }

    /// The layout of a jigsaw puzzle: its regions (`regions[cell]`, each of `n` cells)
    /// where the boxes are.
    pub(super) fn with_regions(g: Geometry, regions: &[u8]) -> Layout {
        Layout::with_boxes(g, regions)
    }

    /// The layout whose box units are the cells of each `boxes[cell]`, listed row by row.
    fn with_boxes(g: Geometry, boxes: &[u8]) -> Layout {
        let n = g.n();
        let cells = g.cells();
        let mut units = Vec::with_capacity(3 * n * n);
        for r in 0..n {
            units.extend((0..n).map(|c| (r * n + c) as u16));
        }
        for c in 0..n {
            units.extend((0..n).map(|r| (r * n + c) as u16));
        }
        for b in 0..n {
            units.extend(
                (0..cells)
                    .filter(|&c| boxes[c] as usize == b)
                    .map(|c| c as u16),
            );
        }
        debug_assert_eq!(units.len(), 3 * n * n, "every box holds n cells");
        for unit in g.variant().rules().units.cells(g) {
            debug_assert_eq!(unit.len(), n, "an extra unit holds every digit once");
            units.extend(unit);
        }
        let unit_count = units.len() / n;
        debug_assert!(unit_count <= 64, "unit masks are u64");
        let mut cell_units = vec![0u64; cells];
        let mut cell_extra = vec![ExtraUnitsOf::default(); cells];
        for (u, unit) in units.chunks(n).enumerate() {
            for (at, &cell) in unit.iter().enumerate() {
                cell_units[cell as usize] |= 1u64 << u;
                if u >= 3 * n {
                    let e = &mut cell_extra[cell as usize];
                    assert!(
                        (e.count as usize) < MOST_EXTRA_PER_CELL,
                        "at most {MOST_EXTRA_PER_CELL} extra units through a cell"
                    );
                    e.units[e.count as usize] = u as u16;
                    e.at[e.count as usize] = at as u8;
                    e.count += 1;
                }
            }
        }
        let apart = g.variant().rules().apart;
        let apart_sets: Vec<CellSet> = (0..cells)
            .map(|cell| {
                apart
                    .cells(g, cell)
                    .into_iter()
                    .filter(|&other| cell_units[cell] & cell_units[other] == 0)
                    .collect()
            })
            .collect();
        let neighbours = g.variant().rules().neighbours;
        let neighbour_sets = (0..cells)
            .map(|cell| neighbours.cells(g, cell).into_iter().collect())
            .collect();
        let unit_sets: Vec<CellSet> = units
            .chunks(n)
            .map(|unit| unit.iter().map(|&c| c as usize).collect())
            .collect();
        // A cell's peers: the cells of its units and those kept apart from it (the union
        // of a few sets, where testing every other cell cost a jigsaw grid n^4 steps).
        let peer_sets: Vec<CellSet> = (0..cells)
            .map(|cell| {
                let mut set = apart_sets[cell];
                let mut its = cell_units[cell];
                while its != 0 {
                    set = set.or(unit_sets[its.trailing_zeros() as usize]);
                    its &= its - 1;
                }
                set.remove(cell);
                set
            })
            .collect();
        let mut peers = Vec::new();
        let mut peer_start = Vec::with_capacity(cells + 1);
        for set in &peer_sets {
            peer_start.push(peers.len() as u32);
            peers.extend(set.iter().map(|p| p as u16));
        }
        peer_start.push(peers.len() as u32);
        let unit_peer_sets = (0..cells)
            .map(|cell| peer_sets[cell].minus(apart_sets[cell]))
            .collect();
        let mut seen_in_box = [0u8; 16];
        let places = (0..cells)
            .map(|cell| {
                let bx = boxes[cell];
                let in_box = seen_in_box[bx as usize];
                seen_in_box[bx as usize] += 1;
                CellPlace {
                    row: (cell / n) as u8,
                    col: (cell % n) as u8,
                    bx,
                    in_box,
                }
            })
            .collect::<Vec<CellPlace>>();
        // Rows are units 0..n, columns n..2n, boxes 2n..3n.
        let cell_unit_ids = places
            .iter()
            .map(|at| {
                [
                    at.row as u16,
                    (n + at.col as usize) as u16,
                    (2 * n + at.bx as usize) as u16,
                ]
            })
            .collect();
        Layout {
            peers,
            peer_start,
            peer_sets,
            unit_peer_sets,
            apart_sets,
            neighbour_sets,
            unit_sets,
            places,
            cell_unit_ids,
            cell_extra,
            units,
            n,
            cell_units,
        }
    }

    /// The peers of a cell (cells sharing a unit with it or kept apart from it by the
    /// rule set's move), ascending.
    #[inline]
    pub fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize]
    }

    /// The cells of unit `u` (0..n rows, n..2n columns, 2n..3n boxes, then diagonals).
    #[inline]
    pub fn unit(&self, u: usize) -> &[u16] {
        &self.units[u * self.n..(u + 1) * self.n]
    }

    /// The cells of unit `u`, as a cell set.
    #[inline]
    pub fn unit_set(&self, u: usize) -> CellSet {
        self.unit_sets[u]
    }

    /// How many units there are.
    #[inline]
    pub fn unit_count(&self) -> usize {
        self.units.len() / self.n
    }

    /// The row, column and box of a cell, as unit numbers.
    #[inline]
    pub fn units_of(&self, cell: usize) -> [usize; 3] {
        self.cell_unit_ids[cell].map(usize::from)
    }

    /// The extra units through a cell (none under classic rules).
    #[inline]
    pub fn extra_units_of(&self, cell: usize) -> &[u16] {
        let e = &self.cell_extra[cell];
        &e.units[..e.count as usize]
    }

    /// The extra units through a cell, each with the cell's position in it.
    #[inline]
    pub fn extra_places_of(&self, cell: usize) -> impl Iterator<Item = ExtraUnitPlace> + '_ {
        let e = &self.cell_extra[cell];
        (0..e.count as usize).map(|i| ExtraUnitPlace {
            unit: e.units[i] as usize,
            at: e.at[i] as usize,
        })
    }

    /// Every unit of a cell: row, column, box, then any extra units.
    pub fn all_units_of(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.units_of(cell)
            .into_iter()
            .chain(self.extra_units_of(cell).iter().map(|&u| u as usize))
    }

    /// The unit number of row `r`.
    #[inline]
    pub fn row(&self, r: usize) -> usize {
        r
    }

    /// The unit number of column `c`.
    #[inline]
    pub fn column(&self, c: usize) -> usize {
        self.n + c
    }

    /// The unit number of box `b`.
    #[inline]
    pub fn box_unit(&self, b: usize) -> usize {
        2 * self.n + b
    }

    /// The row units.
    #[inline]
    pub fn rows(&self) -> Range<usize> {
        0..self.n
    }

    /// The column units.
    #[inline]
    pub fn columns(&self) -> Range<usize> {
        self.n..2 * self.n
    }

    /// What unit `u` is, and its index among the units of its kind (row 3, box 0, …).
    #[inline]
    pub fn kind_of(&self, u: usize) -> (UnitKind, usize) {
        let n = self.n;
        match u / n {
            0 => (UnitKind::Row, u),
            1 => (UnitKind::Column, u - n),
            2 => (UnitKind::Box, u - 2 * n),
            _ => (UnitKind::Extra, u - 3 * n),
        }
    }

    /// Extra unit `u`'s index among the extra units.
    #[inline]
    pub fn extra_index(&self, u: usize) -> usize {
        debug_assert!(u >= 3 * self.n, "an extra unit");
        u - 3 * self.n
    }

    /// The row and column units.
    #[inline]
    pub fn lines(&self) -> Range<usize> {
        0..2 * self.n
    }

    /// The box units.
    #[inline]
    pub fn boxes(&self) -> Range<usize> {
        2 * self.n..3 * self.n
    }

    /// The box (a jigsaw's region) a cell lies in, numbered from 0.
    #[inline]
    pub fn box_containing(&self, cell: usize) -> usize {
        self.units_of(cell)[2] - 2 * self.n
    }

    /// Pictures draw a thick line where two cells side by side lie in different boxes:
    /// for each line between cells (`horizontal`: below row `k - 1`), the runs
    /// `(from, to, thick)` along it, in cell units, each run one pen.
    pub fn border_runs(&self, k: usize, horizontal: bool) -> Vec<(usize, usize, bool)> {
        let n = self.n;
        let parts = |j: usize| {
            let (a, b) = if horizontal {
                ((k - 1) * n + j, k * n + j)
            } else {
                (j * n + k - 1, j * n + k)
            };
            self.box_containing(a) != self.box_containing(b)
        };
        let mut runs: Vec<(usize, usize, bool)> = Vec::new();
        for j in 0..n {
            let thick = parts(j);
            match runs.last_mut() {
                Some(run) if run.2 == thick => run.1 = j + 1,
                _ => runs.push((j, j + 1, thick)),
            }
        }
        runs
    }

    /// The extra units (none under classic rules).
    #[inline]
    pub fn extra_units(&self) -> Range<usize> {
        3 * self.n..self.unit_count()
    }
}

/// The kinds of unit in a layout's numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box (a jigsaw's region).
    Box,
    /// One of the rule set's extra units.
    Extra,
}

/// A set of cells of any supported grid (up to 256 cells).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellSet([u64; 4]);

impl FromIterator<usize> for CellSet {
    fn from_iter<I: IntoIterator<Item = usize>>(cells: I) -> CellSet {
        let mut set = CellSet::default();
        for cell in cells {
            set.insert(cell);
        }
        set
    }
}

impl CellSet {
    /// Adds a cell.
    #[inline]
    pub fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    /// This set with `cell` added, built in registers: `insert` on a copy writes one
    /// word to memory that the next whole-set operation reads back at a store-forwarding
    /// stall (a fifth of Locked NC's samples when it intersected that way).
    #[inline]
    pub fn with(self, cell: usize) -> CellSet {
        let bit = |i: usize| if i == cell / 64 { 1 << (cell % 64) } else { 0 };
        CellSet(std::array::from_fn(|i| self.0[i] | bit(i)))
    }

    /// Removes a cell.
    #[inline]
    pub fn remove(&mut self, cell: usize) {
        self.0[cell / 64] &= !(1 << (cell % 64));
    }

    /// Whether the set holds `cell`.
    #[inline]
    pub fn contains(&self, cell: usize) -> bool {
        self.0[cell / 64] & (1 << (cell % 64)) != 0
    }

    /// The cells in both sets.
    #[inline]
    pub fn and(self, other: CellSet) -> CellSet {
        CellSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// The cells in either set.
    #[inline]
    pub fn or(self, other: CellSet) -> CellSet {
        CellSet(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// The cells of this set not in `other`.
    #[inline]
    pub fn minus(self, other: CellSet) -> CellSet {
        CellSet(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// The number of cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Every cell moved `by` numbers up (down when negative, `|by| < 64`); cells moved
    /// past either end are lost. On an `n`×`n` grid, `by = ±n` moves a row, `±1` a
    /// column (leaving the caller to drop what wrapped into the next row).
    #[inline]
    pub fn shifted(self, by: isize) -> CellSet {
        let s = by.unsigned_abs() as u32;
        debug_assert!(s > 0 && s < 64);
        let w = self.0;
        CellSet(std::array::from_fn(|i| match by > 0 {
            true => w[i] << s | if i > 0 { w[i - 1] >> (64 - s) } else { 0 },
            false => w[i] >> s | if i < 3 { w[i + 1] << (64 - s) } else { 0 },
        }))
    }

    /// The first cell, if any.
    #[inline]
    pub fn first(self) -> Option<usize> {
        self.iter().next()
    }

    /// The cells, ascending.
    #[inline]
    pub fn iter(self) -> Cells {
        Cells {
            words: self.0,
            at: 0,
        }
    }
}

/// The cells of a [`CellSet`], ascending: a plain loop over its words (cheaper than
/// flattening one iterator per word; the rater walks cell sets at every step).
#[derive(Clone, Debug)]
pub struct Cells {
    /// The words still to walk; each loses its bits as they are read.
    words: [u64; 4],
    /// The word being read.
    at: usize,
}

impl Iterator for Cells {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.at < 4 {
            let word = self.words[self.at];
            if word != 0 {
                self.words[self.at] = word & (word - 1);
                return Some(self.at * 64 + word.trailing_zeros() as usize);
            }
            self.at += 1;
        }
        None
    }
}

impl Geometry {
    /// The layout of this geometry, built once per process.
    pub fn layout(self) -> &'static Layout {
        static LAYOUTS: PerGeometry<Layout> = [const { OnceLock::new() }; GEOMETRY_SLOTS];
        per_geometry(&LAYOUTS, self, Layout::build)
    }

    /// The cells a picture shades for the rule set ([`Mark::ShadeExtraUnits`]), ascending;
    /// none for the other marks.
    pub fn shaded_cells(self) -> Vec<usize> {
        let rules = self.variant().rules();
        if rules.mark != Mark::ShadeExtraUnits {
            return Vec::new();
        }
        let layout = self.layout();
        let printed = rules.units.printed(self);
        let shaded: CellSet = layout
            .extra_units()
            .take(printed)
            .flat_map(|u| layout.unit(u).iter().map(|&c| c as usize))
            .collect();
        shaded.iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Variant, SUPPORTED_SIZES};

    #[test]
    fn classic_counts() {
        let t = Geometry::CLASSIC.layout();
        assert_eq!(t.peers(0).len(), 20);
        assert_eq!(t.unit(18), &[0, 1, 2, 9, 10, 11, 18, 19, 20]);
        assert_eq!(t.cell_units.len(), 81);
        assert_eq!(t.units_of(10), [1, 10, 18]);
    }

    /// Pictures shade the printed windows of windoku (not the hidden ones), the nine
    /// cells of the asterisk, girandola and box centres, and nothing for disjoint groups.
    #[test]
    fn shaded_cells_follow_the_mark() {
        let shaded = |name: &str| {
            let v: Variant = name.parse().unwrap();
            Geometry::CLASSIC.with_variant(v).shaded_cells()
        };
        let windoku = shaded("windoku");
        assert_eq!(windoku.len(), 36);
        assert!(windoku.contains(&10) && !windoku.contains(&0) && !windoku.contains(&40));
        for nine in ["asterisk", "girandola", "center-dot"] {
            assert_eq!(shaded(nine).len(), 9, "{nine}");
        }
        assert!(shaded("disjoint-groups").is_empty());
        assert_eq!(shaded("diagonal").len(), 17);
    }

    #[test]
    fn diagonal_units_follow_the_classic_ones() {
        let g = Geometry::CLASSIC.with_variant(Variant::Diagonal);
        let t = g.layout();
        assert_eq!(t.unit_count(), 29);
        assert_eq!(t.unit(27), &[0, 10, 20, 30, 40, 50, 60, 70, 80]);
        assert_eq!(t.unit(28), &[8, 16, 24, 32, 40, 48, 56, 64, 72]);
        assert_eq!(t.extra_units_of(40), &[27, 28]);
        assert_eq!(t.extra_units_of(1), &[] as &[u16]);
        let places: Vec<ExtraUnitPlace> = t.extra_places_of(8).collect();
        assert_eq!(places, [ExtraUnitPlace { unit: 28, at: 0 }]);
        assert_eq!(
            t.peers(0).len(),
            20 + 6,
            "r1c1 also sees the rest of its diagonal"
        );
        assert_eq!(t.peers(40).len(), 20 + 12);
        assert_eq!(t.peers(1).len(), 20);
        assert!(Geometry::CLASSIC.layout().extra_units().is_empty());
    }

    /// Every layout's peers are the other cells that share a unit with the cell or that
    /// the move keeps apart from it, ascending; on each size and variant, and on random
    /// jigsaw regions.
    #[test]
    fn every_size_has_consistent_peers() {
        let geometries = SUPPORTED_SIZES
            .into_iter()
            .flat_map(|n| Variant::ALL.map(|v| Geometry::for_size(n).unwrap().with_variant(v)));
        let jigsaws: Vec<crate::grid::Regions> = [6, 9, 16]
            .map(|n| {
                let g = Geometry::for_size(n).unwrap().with_variant(Variant::Jigsaw);
                crate::grid::Regions::random(g, crate::grid::samples::draws(n as u64))
            })
            .into();
        let layouts = geometries.map(|g| (g, g.layout())).chain(
            jigsaws
                .iter()
                .map(|r| (Geometry::for_size(r.n()).unwrap(), r.layout())),
        );
        for (g, t) in layouts {
            let n = g.n();
            for cell in 0..g.cells() {
                let expected: Vec<u16> = (0..g.cells())
                    .filter(|&o| {
                        o != cell
                            && (t.cell_units[cell] & t.cell_units[o] != 0
                                || t.apart_sets[cell].contains(o))
                    })
                    .map(|o| o as u16)
                    .collect();
                assert_eq!(t.peers(cell), &expected[..], "{g:?} cell {cell}");
                let set: CellSet = expected.iter().map(|&o| usize::from(o)).collect();
                assert_eq!(t.peer_sets[cell], set);
                for u in 0..t.unit_count() {
                    let cells = t.unit(u);
                    assert_eq!(cells.len(), n);
                    assert_eq!(
                        cells.contains(&(cell as u16)),
                        t.cell_units[cell] >> u & 1 == 1
                    );
                }
            }
        }
    }
}
