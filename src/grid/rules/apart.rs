//! Cells a rule set keeps apart: no two cells one chess move apart hold the same digit
//! (anti-knight, anti-king).

use crate::grid::Geometry;

/// The move that keeps two cells from holding the same digit, beyond sharing a row,
/// column, box or extra unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Apart {
    /// No move: only units keep digits apart.
    None,
    /// A king's move: the eight touching cells (the diagonal four are what the rule adds).
    King,
    /// A knight's move: two cells along one axis and one along the other.
    Knight,
}

const KING: [(i8, i8); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

const KNIGHT: [(i8, i8); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];

impl Apart {
    /// The moves as (rows, columns) offsets; symmetric under each sign flip and under
    /// swapping the axes.
    fn moves(self) -> &'static [(i8, i8)] {
        match self {
            Apart::None => &[],
            Apart::King => &KING,
            Apart::Knight => &KNIGHT,
        }
    }

    /// The cells one move from `cell` on geometry `g`, ascending (the board does not
    /// wrap around).
    pub fn cells(self, g: Geometry, cell: usize) -> Vec<usize> {
        let n = g.n() as isize;
        let (r, c) = (cell as isize / n, cell as isize % n);
        let mut cells: Vec<usize> = self
            .moves()
            .iter()
            .map(|&(dr, dc)| (r + dr as isize, c + dc as isize))
            .filter(|&(r, c)| (0..n).contains(&r) && (0..n).contains(&c))
            .map(|(r, c)| (r * n + c) as usize)
            .collect();
        cells.sort_unstable();
        cells
    }

    /// Whether the rule set keeps any cells apart.
    pub fn any(self) -> bool {
        self != Apart::None
    }

    /// The move's name in messages, e.g. `a knight's move`.
    pub fn name(self) -> &'static str {
        match self {
            Apart::None => "no move",
            Apart::King => "a king's move",
            Apart::Knight => "a knight's move",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_stay_on_the_board_and_are_mutual() {
        for g in Geometry::each_size() {
            for apart in [Apart::King, Apart::Knight] {
                for cell in 0..g.cells() {
                    for other in apart.cells(g, cell) {
                        assert!(other < g.cells());
                        assert!(apart.cells(g, other).contains(&cell), "{apart:?} {g:?}");
                    }
                }
            }
        }
        let g = Geometry::CLASSIC;
        assert_eq!(Apart::Knight.cells(g, 0), [11, 19]);
        assert_eq!(Apart::King.cells(g, 40), [30, 31, 32, 39, 41, 48, 49, 50]);
        assert!(Apart::None.cells(g, 40).is_empty());
    }
}
