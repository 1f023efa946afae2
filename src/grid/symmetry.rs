//! The 8 symmetries of the square (the dihedral group D4) acting on cells.

use super::Geometry;

/// One symmetry of the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No change.
    Identity,
    /// Quarter turn clockwise.
    Rot90,
    /// Half turn.
    Rot180,
    /// Quarter turn anticlockwise.
    Rot270,
    /// Left-right reflection (columns reversed).
    Mirror,
    /// Top-bottom reflection (rows reversed).
    Flip,
    /// Reflection in the main diagonal (rows become columns).
    Transpose,
    /// Reflection in the anti-diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rot90,
        Symmetry::Rot180,
        Symmetry::Rot270,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Whether this symmetry maps boxes onto boxes for the geometry: all eight for square
    /// boxes; only identity, half turn and the two reflections for oblong boxes; all
    /// eight where the boxes are a puzzle's own regions (which move with the grid).
    pub fn keeps_boxes(self, geometry: Geometry) -> bool {
        geometry.square_boxes()
            || geometry.variant().rules().regions_per_puzzle()
            || matches!(
                self,
                Symmetry::Identity | Symmetry::Rot180 | Symmetry::Mirror | Symmetry::Flip
            )
    }

    /// The symmetries that keep the box shape of `geometry`.
    pub fn group(geometry: Geometry) -> impl Iterator<Item = Symmetry> {
        Symmetry::ALL
            .into_iter()
            .filter(move |s| s.keeps_boxes(geometry))
    }

    /// Image of `(row, col)` in a grid of side `n`.
    #[inline]
    pub fn map(self, n: usize, row: usize, col: usize) -> (usize, usize) {
        let m = n - 1;
        match self {
            Symmetry::Identity => (row, col),
            Symmetry::Rot90 => (col, m - row),
            Symmetry::Rot180 => (m - row, m - col),
            Symmetry::Rot270 => (m - col, row),
            Symmetry::Mirror => (row, m - col),
            Symmetry::Flip => (m - row, col),
            Symmetry::Transpose => (col, row),
            Symmetry::AntiTranspose => (m - col, m - row),
        }
    }

    /// Image of a cell index in a grid of side `n`.
    #[inline]
    pub fn map_cell(self, n: usize, cell: usize) -> usize {
        let (r, c) = self.map(n, cell / n, cell % n);
        r * n + c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_map_is_a_permutation() {
        for n in [4, 6, 9] {
            for s in Symmetry::ALL {
                let mut seen = vec![false; n * n];
                for cell in 0..n * n {
                    seen[s.map_cell(n, cell)] = true;
                }
                assert!(seen.iter().all(|&x| x), "{s:?} on {n}");
            }
        }
    }

    #[test]
    fn rot90_four_times_is_identity() {
        for cell in 0..81 {
            let mut c = cell;
            for _ in 0..4 {
                c = Symmetry::Rot90.map_cell(9, c);
            }
            assert_eq!(c, cell);
        }
        assert_eq!(Symmetry::Rot90.map_cell(9, 0), 8);
    }

    #[test]
    fn kept_symmetries_really_keep_boxes() {
        for size in crate::grid::SUPPORTED_SIZES {
            let g = Geometry::for_size(size).unwrap();
            let n = g.n();
            for s in Symmetry::ALL {
                // A symmetry keeps boxes iff cells of one box land in one box.
                let keeps = (0..n * n).all(|a| {
                    (0..n * n).all(|b| {
                        let same = g.box_of(a / n, a % n) == g.box_of(b / n, b % n);
                        let (ia, ib) = (s.map_cell(n, a), s.map_cell(n, b));
                        !same || g.box_of(ia / n, ia % n) == g.box_of(ib / n, ib % n)
                    })
                });
                assert_eq!(keeps, s.keeps_boxes(g), "{s:?} on {size}");
            }
        }
    }
}
