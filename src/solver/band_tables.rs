//! Lookup tables of the band search, built once per geometry.
//!
//! A band is a stripe of `box_rows` rows; within it, bit `r * n + c` stands for the cell in
//! the band's row `r`, column `c` (at most 4 × 16 = 64 bits, so one `u64` per band). The
//! band's boxes number `n / box_cols = box_rows`, so the rows × boxes pattern of one digit
//! is a square of at most 4 × 4 bits.

use crate::grid::{cells_of, Boxes, Cell, CellSet, Geometry, Layout, Regions};
use crate::grid::{per_geometry, PerGeometry, GEOMETRY_SLOTS};
use std::ops::Range;
use std::sync::OnceLock;

/// Tables for one geometry. Indexes are masked to the table sizes, so lookups need no
/// bounds checks on the hot path.
pub(super) struct BandTables {
    /// Row of `n` bits -> the band's boxes (bit `k` for box `k`) that hold one of them.
    pub(super) boxes_of_row: Box<[u8; 1 << 16]>,
    /// Rows × boxes pattern (bit `r * box_rows + k`) -> the band cells (as in a band word)
    /// of the row/box pairs some permutation pattern inside it uses: the digit goes once
    /// in every row and once in every box of the band, so a pair outside every such
    /// permutation cannot hold it. Zero when there is no permutation (contradiction).
    pub(super) band_keep: Box<[u64]>,
    /// The same for a stack's bands × columns pattern (bit `band * box_cols + column`):
    /// a stack has `box_cols` columns and as many boxes.
    pub(super) stack_permutations: Box<[u16; 1 << 16]>,
    /// Box of a band -> its cells.
    pub(super) band_box: [u64; 4],
    /// `extra_units[x][k]`: the cells of band `k` in the rule set's extra unit `x` (the
    /// layout's unit `3n + x`); none under classic rules.
    pub(super) extra_units: Box<[[u64; 4]]>,
    /// `peers[cell][k]`: the cells of band `k` that share a row, column or box with
    /// `cell` or that the rule set's move keeps apart from it (not `cell` itself), so a
    /// board is built from its clues a clue at a time with one word operation per band.
    pub(super) peers: Box<[[u64; 4]]>,
    /// `apart[cell][k]`: the cells of band `k` that the rule set's move keeps apart from
    /// `cell` and that share no unit with it (a placement clears its units otherwise);
    /// empty when the rule set has no move.
    pub(super) apart: Box<[[u64; 4]]>,
    /// `neighbours[cell][k]`: the cells of band `k` touching `cell` whose digits the
    /// rule set restricts ([`crate::grid::Neighbours`]); empty when it restricts none.
    pub(super) neighbours: Box<[[u64; 4]]>,
}

impl BandTables {
    fn build(g: Geometry) -> BandTables {
        let (n, br, bc) = (g.n(), g.box_rows(), g.box_cols());
        debug_assert_eq!(n / bc, br, "a band holds as many boxes as rows");
        let mut boxes_of_row = Box::new([0u8; 1 << 16]);
        for (row, entry) in boxes_of_row.iter_mut().enumerate().take(1 << n) {
            *entry = (0..br)
                .filter(|k| (row >> (k * bc)) & ((1 << bc) - 1) != 0)
                .fold(0, |m, k| m | 1 << k);
        }
        debug_assert_eq!(n / br, bc, "a stack holds as many boxes as columns");
        // Set of a band's boxes -> the cells of one row (`n` bits) inside them.
        let mut row_cells_in_boxes = [0u64; 16];
        for (set, entry) in row_cells_in_boxes.iter_mut().enumerate().take(1 << br) {
            *entry = (0..n)
                .filter(|c| set >> (c / bc) & 1 == 1)
                .fold(0, |m, c| m | 1 << c);
        }
        // A jigsaw grid's regions are the puzzle's: the geometry's boxes bind nothing, and
        // the search settles the regions as units of the puzzle (`Search::with_regions`).
        let boxes = g.variant().rules().boxes == Boxes::Fixed;
        let mut band_box = [0u64; 4];
        for (k, entry) in band_box.iter_mut().enumerate().take(br).filter(|_| boxes) {
            *entry = (0..br * n)
                .filter(|&o| Cell::at(o, n).col / bc == k)
                .fold(0, |m, o| m | 1 << o);
        }
        let (unions, stack_permutations) = match boxes {
            true => (permutation_unions(br), permutation_unions(bc)),
            false => (every_row_used(br), every_column_used(bc)),
        };
        let band_keep = unions
            .iter()
            .take(1 << (br * br))
            .map(|&kept| {
                (0..br).fold(0, |keep, r| {
                    let boxes = (kept as usize >> (r * br)) & ((1 << br) - 1);
                    keep | row_cells_in_boxes[boxes] << (r * n)
                })
            })
            .collect();
        let band_cells = br * n;
        let layout = g.layout();
        let extra_units = unit_words(g, layout, layout.extra_units());
        // Each cell's set as band words, or nothing when the rule set has none.
        let per_cell = |any: bool, sets: &[CellSet]| -> Box<[[u64; 4]]> {
            match any {
                true => sets
                    .iter()
                    .map(|set| words_of(set.iter(), band_cells))
                    .collect(),
                false => Box::new([]),
            }
        };
        let rules = g.variant().rules();
        let apart = per_cell(rules.apart.any(), &layout.apart_sets);
        let neighbours = per_cell(rules.neighbours.any(), &layout.neighbour_sets);
        let box_of = |at: Cell| g.box_of(at.row, at.col);
        let peers = cells_of(n)
            .map(|(cell, at)| {
                let mut words = words_of(
                    cells_of(n)
                        .filter(|&(other, to)| {
                            let same_box = boxes && box_of(at) == box_of(to);
                            other != cell && (at.shares_a_line(to) || same_box)
                        })
                        .map(|(other, _)| other),
                    band_cells,
                );
                for (word, extra) in words.iter_mut().zip(apart.get(cell).unwrap_or(&[0; 4])) {
                    *word |= extra;
                }
                words
            })
            .collect();
        BandTables {
            peers,
            apart,
            neighbours,
            extra_units,
            band_box,
            boxes_of_row,
            band_keep,
            stack_permutations,
        }
    }
}

/// For every `k × k` pattern (bit `r * k + c`), itself when each of its rows has a bit,
/// else nothing: the union of the patterns with a bit in every row, when the columns
/// bind nothing (a band's rows × boxes without boxes).
fn every_row_used(k: usize) -> Box<[u16; 1 << 16]> {
    let row = (1usize << k) - 1;
    patterns_where(k, |p| (0..k).all(|r| (p >> (r * k)) & row != 0))
}

/// [`every_row_used`] for columns (a stack's bands × columns without boxes).
fn every_column_used(k: usize) -> Box<[u16; 1 << 16]> {
    let column = (0..k).fold(0usize, |m, r| m | 1 << (r * k));
    patterns_where(k, |p| (0..k).all(|c| (p >> c) & column != 0))
}

/// Each `k × k` pattern that `keep` accepts, as itself; the others as nothing.
fn patterns_where(k: usize, keep: impl Fn(usize) -> bool) -> Box<[u16; 1 << 16]> {
    let mut out = Box::new([0u16; 1 << 16]);
    for (pattern, entry) in out.iter_mut().enumerate().take(1 << (k * k)) {
        if keep(pattern) {
            *entry = pattern as u16;
        }
    }
    out
}

/// Adds cell number `cell` to band words whose bands hold `band_cells` cells each.
#[inline]
fn add_cell(words: &mut [u64; 4], cell: usize, band_cells: usize) {
    words[cell / band_cells] |= 1 << (cell % band_cells);
}

/// Cells as band words whose bands hold `band_cells` cells each.
fn words_of(cells: impl IntoIterator<Item = usize>, band_cells: usize) -> [u64; 4] {
    let mut words = [0u64; 4];
    for cell in cells {
        add_cell(&mut words, cell, band_cells);
    }
    words
}

/// The cells of `layout`'s units `units`, each as band words of geometry `g`.
fn unit_words(g: Geometry, layout: &Layout, units: Range<usize>) -> Box<[[u64; 4]]> {
    let band_cells = g.box_rows() * g.n();
    units
        .map(|u| words_of(layout.unit(u).iter().map(|&c| usize::from(c)), band_cells))
        .collect()
}

/// A jigsaw puzzle's regions as band words, which the search settles as units (the
/// geometry's tables leave the boxes out under such a rule set). Read from the regions
/// themselves, in one pass over the cells: their layout is not built for a search alone.
pub(super) fn region_words(g: Geometry, regions: &Regions) -> Box<[[u64; 4]]> {
    let band_cells = g.box_rows() * g.n();
    let mut words = vec![[0u64; 4]; g.n()];
    for cell in 0..g.cells() {
        add_cell(&mut words[regions.region_of(cell)], cell, band_cells);
    }
    words.into()
}

/// For every `k × k` pattern, the union of the permutation patterns inside it.
fn permutation_unions(k: usize) -> Box<[u16; 1 << 16]> {
    let perms = permutations_of(k);
    let mut unions = Box::new([0u16; 1 << 16]);
    for (pattern, entry) in unions.iter_mut().enumerate().take(1 << (k * k)) {
        *entry = perms
            .iter()
            .filter(|&&p| pattern as u16 & p == p)
            .fold(0, |m, &p| m | p);
    }
    unions
}

/// Every permutation of `k` rows onto `k` boxes, as a `k × k` pattern (bit `r * k + box`).
fn permutations_of(k: usize) -> Vec<u16> {
    fn extend(k: usize, row: usize, used: usize, pattern: u16, out: &mut Vec<u16>) {
        if row == k {
            out.push(pattern);
            return;
        }
        for b in (0..k).filter(|b| used >> b & 1 == 0) {
            extend(k, row + 1, used | 1 << b, pattern | 1 << (row * k + b), out);
        }
    }
    let mut out = Vec::new();
    extend(k, 0, 0, 0, &mut out);
    out
}

/// The band tables for a supported geometry, built once per process.
pub(super) fn band_tables(g: Geometry) -> &'static BandTables {
    static TABLES: PerGeometry<BandTables> = [const { OnceLock::new() }; GEOMETRY_SLOTS];
    per_geometry(&TABLES, g, BandTables::build)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutation_counts() {
        assert_eq!(permutations_of(2).len(), 2);
        assert_eq!(permutations_of(3).len(), 6);
        assert_eq!(permutations_of(4).len(), 24);
    }

    /// The regions' words, read from the labels, are the words of their layout's box units.
    #[test]
    fn region_words_are_the_layout_boxes() {
        let mut rng = crate::rng::Rand::new(3);
        for n in [6, 9, 12, 16] {
            let g = Geometry::for_size(n)
                .unwrap()
                .with_variant(crate::grid::Variant::jigsaw());
            let regions = Regions::random(g, |k| rng.below(k));
            let layout = regions.layout();
            assert_eq!(
                region_words(g, &regions),
                unit_words(g, layout, layout.boxes())
            );
        }
    }

    #[test]
    fn classic_tables() {
        let t = band_tables(Geometry::CLASSIC);
        assert_eq!(t.boxes_of_row[0b000_010_001], 0b011);
        // Full pattern keeps everything; a row confined to one box frees the other rows of it.
        assert_eq!(t.band_keep[0x1FF], (1 << 27) - 1);
        let (first_box, rest) = (0b000_000_111u64, 0b111_111_000u64);
        assert_eq!(
            t.band_keep[0b111_111_001],
            first_box | rest << 9 | rest << 18
        );
        // Two rows confined to the same single box: no permutation.
        assert_eq!(t.band_keep[0b111_001_001], 0);
        assert_eq!(t.band_box[1], 0b111_000 | 0b111_000 << 9 | 0b111_000 << 18);
        // r1c1: the rest of row 1 and box 1 in the first band, column 1 below.
        let column = 1 | 1 << 9 | 1 << 18;
        assert_eq!(
            t.peers[0],
            [(0x1FF | 0b111 << 9 | 0b111 << 18) & !1, column, column, 0]
        );
    }
}
