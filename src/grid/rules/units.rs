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
}

impl ExtraUnits {
    /// The cells of each extra unit of geometry `g`, each unit in its listing order (a
    /// cell's position in a unit is its index in this list).
    pub fn cells(self, g: Geometry) -> Vec<Vec<u16>> {
        let n = g.n();
        match self {
            ExtraUnits::None => Vec::new(),
            ExtraUnits::Diagonals => vec![
                (0..n).map(|r| (r * n + r) as u16).collect(),
                (0..n).map(|r| (r * n + n - 1 - r) as u16).collect(),
            ],
        }
    }

    /// The `i`th unit's name in messages, e.g. `the anti-diagonal`.
    pub fn unit_name(self, i: usize) -> String {
        match (self, i) {
            (ExtraUnits::Diagonals, 0) => "the main diagonal".into(),
            (ExtraUnits::Diagonals, _) => "the anti-diagonal".into(),
            (ExtraUnits::None, i) => format!("extra unit {}", i + 1),
        }
    }

    /// Whether there are any.
    pub fn any(self) -> bool {
        self != ExtraUnits::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unit_holds_n_distinct_cells() {
        for n in crate::grid::SUPPORTED_SIZES {
            let g = Geometry::for_size(n).unwrap();
            for shape in [ExtraUnits::None, ExtraUnits::Diagonals] {
                for unit in shape.cells(g) {
                    let mut sorted = unit.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    assert_eq!(sorted.len(), n, "{shape:?} on {n}x{n}");
                    assert!(sorted.iter().all(|&c| (c as usize) < g.cells()));
                }
            }
        }
    }
}
