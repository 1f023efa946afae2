//! The shapes of the units a variant adds to rows, columns and boxes.

use crate::grid::Geometry;

/// The units a rule set adds, each a group of `N` cells holding every digit once. The
/// layout appends them after the boxes, in the order [`ExtraUnits::cells`] lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtraUnits {
    /// None.
    None,
    /// The main diagonal, then the anti-diagonal, each listed row by row.
    Diagonals,
    /// The windows of windoku (square boxes of side `k`): `k×k` squares one line in from
    /// each box corner, `(k−1)²` of them printed, and the hidden windows their rule
    /// implies, made of the lines between the printed ones (on 9×9, rows 0, 4, 8 and the
    /// columns of a printed window, …). The reference rater uses all nine as units; every
    /// cell is in exactly one. Printed ones first, each row by row.
    Windows,
    /// The disjoint groups: the cells at one position within every box, position by
    /// position (row-major within the box), each group box by box.
    DisjointGroups,
    /// The nine asterisk cells of 9×9, row by row.
    Asterisk,
    /// The nine girandola cells of 9×9 (corners, and the pinwheel around the centre),
    /// row by row.
    Girandola,
    /// The centre cell of every box (boxes of odd sides), box by box.
    CenterDots,
}

/// The asterisk cells of 9×9 as (row, column).
const ASTERISK: [(usize, usize); 9] = [
    (1, 4),
    (2, 2),
    (2, 6),
    (4, 1),
    (4, 4),
    (4, 7),
    (6, 2),
    (6, 6),
    (7, 4),
];

/// The girandola cells of 9×9 as (row, column).
const GIRANDOLA: [(usize, usize); 9] = [
    (0, 0),
    (0, 8),
    (1, 4),
    (4, 1),
    (4, 4),
    (4, 7),
    (7, 4),
    (8, 0),
    (8, 8),
];

impl ExtraUnits {
    /// Every shape, for tests and the shape list in messages.
    pub const ALL: [ExtraUnits; 7] = [
        ExtraUnits::None,
        ExtraUnits::Diagonals,
        ExtraUnits::Windows,
        ExtraUnits::DisjointGroups,
        ExtraUnits::Asterisk,
        ExtraUnits::Girandola,
        ExtraUnits::CenterDots,
    ];

    /// Whether the shape fits geometry `g`: windows need square boxes of side 3 or more,
    /// box centres boxes of odd sides, the asterisk and girandola 9×9.
    pub fn fits(self, g: Geometry) -> bool {
        match self {
            ExtraUnits::None | ExtraUnits::Diagonals | ExtraUnits::DisjointGroups => true,
            ExtraUnits::Windows => g.square_boxes() && g.box_rows() >= 3,
            ExtraUnits::Asterisk | ExtraUnits::Girandola => g.n() == 9,
            ExtraUnits::CenterDots => g.box_rows() % 2 == 1 && g.box_cols() % 2 == 1,
        }
    }

    /// The cells of each extra unit of geometry `g`, each unit in its listing order (a
    /// cell's position in a unit is its index in this list). Empty when the shape does not
    /// fit `g` ([`ExtraUnits::fits`]).
    pub fn cells(self, g: Geometry) -> Vec<Vec<u16>> {
        if !self.fits(g) {
            return Vec::new();
        }
        let n = g.n();
        let at = |r: usize, c: usize| (r * n + c) as u16;
        match self {
            ExtraUnits::None => Vec::new(),
            ExtraUnits::Diagonals => vec![
                (0..n).map(|r| at(r, r)).collect(),
                (0..n).map(|r| at(r, n - 1 - r)).collect(),
            ],
            ExtraUnits::Windows => {
                let lines = window_lines(g.box_rows());
                let mut units = Vec::with_capacity(n);
                for rows in &lines {
                    for cols in &lines {
                        units.push(
                            rows.iter()
                                .flat_map(|&r| cols.iter().map(move |&c| at(r, c)))
                                .collect(),
                        );
                    }
                }
                // Printed windows (neither line set the hidden one) first.
                let hidden = lines.len() - 1;
                let printed = |i: usize| i / lines.len() != hidden && i % lines.len() != hidden;
                let (mut first, rest): (Vec<_>, Vec<_>) = units
                    .into_iter()
                    .enumerate()
                    .partition(|&(i, _)| printed(i));
                first.extend(rest);
                first.into_iter().map(|(_, unit)| unit).collect()
            }
            ExtraUnits::DisjointGroups => (0..n)
                .map(|k| {
                    let (i, j) = (k / g.box_cols(), k % g.box_cols());
                    (0..n)
                        .map(|b| g.box_origin(b))
                        .map(|(r0, c0)| at(r0 + i, c0 + j))
                        .collect()
                })
                .collect(),
            ExtraUnits::Asterisk => vec![ASTERISK.iter().map(|&(r, c)| at(r, c)).collect()],
            ExtraUnits::Girandola => vec![GIRANDOLA.iter().map(|&(r, c)| at(r, c)).collect()],
            ExtraUnits::CenterDots => vec![(0..n)
                .map(|b| g.box_origin(b))
                .map(|(r0, c0)| at(r0 + g.box_rows() / 2, c0 + g.box_cols() / 2))
                .collect()],
        }
    }

    /// How many of the units [`ExtraUnits::cells`] lists, from the first, a picture marks:
    /// all but the hidden windows.
    pub fn printed(self, g: Geometry) -> usize {
        let all = self.cells(g).len();
        match self {
            ExtraUnits::Windows => (g.box_rows() - 1).pow(2),
            _ => all,
        }
    }

    /// The `i`th unit's name in messages, e.g. `the anti-diagonal`.
    pub fn unit_name(self, g: Geometry, i: usize) -> String {
        match self {
            ExtraUnits::Diagonals if i == 0 => "the main diagonal".into(),
            ExtraUnits::Diagonals => "the anti-diagonal".into(),
            ExtraUnits::Windows if i < self.printed(g) => format!("window {}", i + 1),
            ExtraUnits::Windows => format!("hidden window {}", i + 1 - self.printed(g)),
            ExtraUnits::DisjointGroups => format!("disjoint group {}", i + 1),
            ExtraUnits::Asterisk => "the asterisk".into(),
            ExtraUnits::Girandola => "the girandola".into(),
            ExtraUnits::CenterDots => "the box centres".into(),
            ExtraUnits::None => format!("extra unit {}", i + 1),
        }
    }

    /// Whether the reference rater treats these units as it treats boxes (every cell in
    /// exactly one, locked candidates between them and rows, columns and boxes, naked sets
    /// in them): windows and disjoint groups.
    pub fn box_like(self) -> bool {
        matches!(self, ExtraUnits::Windows | ExtraUnits::DisjointGroups)
    }

    /// Whether there are any.
    pub fn any(self) -> bool {
        self != ExtraUnits::None
    }
}

/// The line sets of windoku on boxes of side `k`: the `k−1` runs of `k` lines that
/// printed windows span (starting one line in, one line apart), then the hidden set, the
/// `k` lines between them (on 9×9: {1,2,3}, {5,6,7}, {0,4,8}).
fn window_lines(k: usize) -> Vec<Vec<usize>> {
    let mut lines: Vec<Vec<usize>> = (0..k - 1)
        .map(|w| (0..k).map(|i| 1 + w * (k + 1) + i).collect())
        .collect();
    lines.push((0..k).map(|i| i * (k + 1)).collect());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unit_holds_n_distinct_cells() {
        for g in Geometry::each_size() {
            for shape in ExtraUnits::ALL {
                let units = shape.cells(g);
                assert_eq!(units.is_empty(), !shape.fits(g) || !shape.any());
                for unit in units {
                    let mut sorted = unit.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    assert_eq!(sorted.len(), g.n(), "{shape:?} on {g:?}");
                    assert!(sorted.iter().all(|&c| (c as usize) < g.cells()));
                }
            }
        }
    }

    /// The shapes as the reference rater's region maps draw them on 9×9.
    #[test]
    fn nine_by_nine_shapes() {
        let g = Geometry::CLASSIC;
        let windows = ExtraUnits::Windows.cells(g);
        assert_eq!(windows.len(), 9);
        assert_eq!(windows[0], [10, 11, 12, 19, 20, 21, 28, 29, 30]);
        assert_eq!(windows[3], [50, 51, 52, 59, 60, 61, 68, 69, 70]);
        assert_eq!(windows[8], [0, 4, 8, 36, 40, 44, 72, 76, 80]);
        assert_eq!(ExtraUnits::Windows.printed(g), 4);
        assert_eq!(ExtraUnits::Windows.unit_name(g, 4), "hidden window 1");
        let groups = ExtraUnits::DisjointGroups.cells(g);
        assert_eq!(groups[4], [10, 13, 16, 37, 40, 43, 64, 67, 70]);
        assert_eq!(
            ExtraUnits::CenterDots.cells(g),
            [[10, 13, 16, 37, 40, 43, 64, 67, 70]]
        );
        assert_eq!(
            ExtraUnits::Asterisk.cells(g),
            [[13, 20, 24, 37, 40, 43, 56, 60, 67]]
        );
        assert_eq!(
            ExtraUnits::Girandola.cells(g),
            [[0, 8, 13, 37, 40, 43, 67, 72, 80]]
        );
        // Every cell is in exactly one window and one disjoint group.
        for units in [windows, groups] {
            let mut all: Vec<u16> = units.concat();
            all.sort_unstable();
            assert_eq!(all, (0..81).collect::<Vec<u16>>());
        }
    }
}
