//! Where a killer puzzle's cages are drawn: each cage's outline as dashed lines set a
//! little inside its cells, and its sum in the top-left corner of its first cell, as
//! printed killer puzzles show them.
//!
//! Everything is in cell units (the grid spans `0..n` both ways, y downwards), so the
//! print sheet and the solving page scale the same drawing to their own sizes.

use super::canvas::text_width;
use crate::grid::{cells_of, Cages};
use serde::Serialize;

/// One straight piece of a cage's outline, in cell units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Segment {
    pub from: (f32, f32),
    pub to: (f32, f32),
}

/// A cage's sum and the cell whose top-left corner it is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SumLabel {
    pub cell: usize,
    pub sum: u32,
}

/// The drawing of a partition into cages.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CageOutline {
    pub segments: Vec<Segment>,
    pub sums: Vec<SumLabel>,
}

/// How far inside the cell lines the outline runs, in cells.
pub const INSET: f32 = 0.09;

/// The label's font size in cells: the sums stay readable beside centred givens.
pub const SUM_SIZE: f32 = 0.24;

/// Where a sum's baseline starts, from its cell's top-left corner, in cells.
pub const LABEL_AT: (f32, f32) = (1.3 * INSET, INSET + 0.8 * SUM_SIZE);

impl CageOutline {
    /// The outline of `cages`, leaving room at each first cell's top-left corner for its
    /// sum, written at [`LABEL_AT`] in Helvetica (or a font of its metrics) of
    /// [`SUM_SIZE`]: no dash runs through a sum.
    pub fn new(cages: &Cages) -> CageOutline {
        CageOutline::with_gaps(cages, |sum| {
            let width = text_width(&sum.to_string(), SUM_SIZE);
            (LABEL_AT.0 + width + INSET, INSET + 1.2 * SUM_SIZE)
        })
    }

    /// The outline with `label_gap(sum)` (width, height in cells) kept free of dashes at
    /// each first cell's top-left corner.
    fn with_gaps(cages: &Cages, label_gap: impl Fn(u32) -> (f32, f32)) -> CageOutline {
        let n = cages.n();
        let d = INSET;
        let mut horizontal = Vec::new();
        let mut vertical = Vec::new();
        for (cell, place) in cells_of(n) {
            let k = cages.cage_of(cell);
            let same = |rows: isize, cols: isize| {
                let near = place.offset(rows, cols, n);
                near.is_some_and(|near| cages.cage_of(near.index(n)) == k)
            };
            // An end of an edge runs `d` short where the outline turns outwards (the next
            // cell along is another cage), `d` past where it turns inwards round a corner
            // cell of its own cage, and flush where the outline goes straight on.
            let end = |along: bool, corner: bool| match (along, corner) {
                (false, _) => d,
                (true, true) => -d,
                (true, false) => 0.0,
            };
            let (x, y) = (place.col as f32, place.row as f32);
            let first = cages.cells(k)[0] as usize == cell;
            // The first cell's top-left corner always turns outwards: its label's room is
            // taken off the two edges that start there.
            let (gap_w, gap_h) = if first {
                let (w, h) = label_gap(cages.sum(k));
                (x + w, y + h)
            } else {
                (f32::MIN, f32::MIN)
            };
            if !same(-1, 0) {
                let start = x + end(same(0, -1), same(-1, -1));
                let stop = x + 1.0 - end(same(0, 1), same(-1, 1));
                horizontal.push((y + d, start.max(gap_w), stop));
            }
            if !same(1, 0) {
                let start = x + end(same(0, -1), same(1, -1));
                let stop = x + 1.0 - end(same(0, 1), same(1, 1));
                horizontal.push((y + 1.0 - d, start, stop));
            }
            if !same(0, -1) {
                let start = y + end(same(-1, 0), same(-1, -1));
                let stop = y + 1.0 - end(same(1, 0), same(1, -1));
                vertical.push((x + d, start.max(gap_h), stop));
            }
            if !same(0, 1) {
                let start = y + end(same(-1, 0), same(-1, 1));
                let stop = y + 1.0 - end(same(1, 0), same(1, 1));
                vertical.push((x + 1.0 - d, start, stop));
            }
        }
        let mut segments: Vec<Segment> = merge(horizontal)
            .into_iter()
            .map(|(y, a, b)| Segment {
                from: (a, y),
                to: (b, y),
            })
            .collect();
        segments.extend(merge(vertical).into_iter().map(|(x, a, b)| Segment {
            from: (x, a),
            to: (x, b),
        }));
        let sums = (0..cages.count())
            .map(|k| SumLabel {
                cell: cages.cells(k)[0] as usize,
                sum: cages.sum(k),
            })
            .collect();
        CageOutline { segments, sums }
    }
}

/// Joins pieces on one line `(at, start, stop)` that touch end to start, so a dash
/// pattern runs on unbroken along a cage's side.
fn merge(mut pieces: Vec<(f32, f32, f32)>) -> Vec<(f32, f32, f32)> {
    pieces.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut joined: Vec<(f32, f32, f32)> = Vec::with_capacity(pieces.len());
    for p in pieces {
        match joined.last_mut() {
            Some(last) if last.0 == p.0 && (last.2 - p.1).abs() < 1e-4 => last.2 = p.2,
            _ => joined.push(p),
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Geometry;

    fn cages(map: &str, sums: &str) -> Cages {
        Cages::parse(Geometry::for_size(4).unwrap(), map, sums).unwrap()
    }

    fn no_gap(_: u32) -> (f32, f32) {
        (0.0, 0.0)
    }

    /// The outline's total length, in cells.
    fn length(o: &CageOutline) -> f32 {
        o.segments
            .iter()
            .map(|s| (s.to.0 - s.from.0).abs() + (s.to.1 - s.from.1).abs())
            .sum()
    }

    #[test]
    fn rectangles_are_four_sides_inside_their_cells() {
        // Four 2×2 boxes as cages: each a square of side 2 − 2d, four sides.
        let o = CageOutline::with_gaps(&cages("AABBAABBCCDDCCDD", "10,10,10,10"), no_gap);
        assert_eq!(o.segments.len(), 16);
        let side = 2.0 - 2.0 * INSET;
        assert!((length(&o) - 16.0 * side).abs() < 1e-4);
        for s in &o.segments {
            assert!(s.from.0 <= s.to.0 && s.from.1 <= s.to.1);
            assert!(
                (s.to.0 - s.from.0 - side).abs() < 1e-4 || (s.to.1 - s.from.1 - side).abs() < 1e-4
            );
        }
        let sums: Vec<(usize, u32)> = o.sums.iter().map(|s| (s.cell, s.sum)).collect();
        assert_eq!(sums, vec![(0, 10), (2, 10), (8, 10), (10, 10)]);
    }

    #[test]
    fn an_l_shape_turns_inwards_at_its_inner_corner() {
        // Cage A: r1c1, r2c1, r2c2 (an L); the rest are single cells and a bar.
        let o = CageOutline::with_gaps(
            &cages("ABCDAAEFGGHIJKLM", "6,1,2,3,4,1,5,2,3,4,1,2,3"),
            no_gap,
        );
        let inner: Vec<&Segment> = o
            .segments
            .iter()
            .filter(|s| s.from == (1.0 - INSET, INSET) || s.to == (1.0 - INSET, 1.0 + INSET))
            .collect();
        // The right side of r1c1 runs down past the cell to meet the top of r2c2.
        assert_eq!(inner.len(), 1);
        assert_eq!(inner[0].to, (1.0 - INSET, 1.0 + INSET));
        assert!(o
            .segments
            .iter()
            .any(|s| s.from == (1.0 - INSET, 1.0 + INSET) && s.to == (2.0 - INSET, 1.0 + INSET)));
    }

    #[test]
    fn the_sum_label_keeps_its_corner_free() {
        let c = cages("AABBAABBCCDDCCDD", "10,10,10,10");
        let o = CageOutline::with_gaps(&c, |_| (0.4, 0.3));
        let labelled = CageOutline::new(&c);
        assert!(length(&labelled) < length(&CageOutline::with_gaps(&c, no_gap)));
        for s in &o.segments {
            // No piece starts inside a label's box at a cage's top-left corner.
            for &(x, y) in &[(0.0, 0.0), (2.0, 0.0), (0.0, 2.0), (2.0, 2.0)] {
                let horizontal_hit = s.from.1 == y + INSET && s.from.0 < x + 0.4 && s.to.0 > x;
                let vertical_hit = s.from.0 == x + INSET && s.from.1 < y + 0.3 && s.to.1 > y;
                assert!(
                    !horizontal_hit && !vertical_hit,
                    "{s:?} runs through the label at {x},{y}"
                );
            }
        }
    }
}
