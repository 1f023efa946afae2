//! What a rule set says of the digits of orthogonal neighbours (non-consecutive: they never
//! differ by one), and the digit maps that keep such a rule.

use crate::grid::Geometry;

/// What the digits of two orthogonally touching cells may be, beyond differing (they
/// share a row or a column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Neighbours {
    /// Any two different digits.
    Free,
    /// Never two digits that differ by one (1 and the largest digit are not consecutive).
    NonConsecutive,
}

impl Neighbours {
    /// Whether the rule set says anything of neighbours' digits.
    pub fn any(self) -> bool {
        self != Neighbours::Free
    }

    /// The cells orthogonally touching `cell` on geometry `g`, ascending; none when the
    /// rule set says nothing of them.
    pub fn cells(self, g: Geometry, cell: usize) -> Vec<usize> {
        if !self.any() {
            return Vec::new();
        }
        let n = g.n();
        let (r, c) = (cell / n, cell % n);
        let mut cells = Vec::with_capacity(4);
        if r > 0 {
            cells.push(cell - n);
        }
        if c > 0 {
            cells.push(cell - 1);
        }
        if c + 1 < n {
            cells.push(cell + 1);
        }
        if r + 1 < n {
            cells.push(cell + n);
        }
        cells
    }

    /// The digits a neighbour of a cell holding `digit` may not hold for this rule, as a
    /// candidate mask (bit `d - 1` for digit `d`) on side `n`: the digit's two
    /// consecutive ones (one for 1 and `n`).
    #[inline]
    pub fn barred(self, digit: u8, n: usize) -> u16 {
        if !self.any() || digit == 0 {
            return 0;
        }
        self.barred_by(1u32 << (digit - 1), n)
    }

    /// [`Self::barred`] for every digit of `digits` (bit `d - 1` for digit `d`) at once.
    #[inline]
    pub fn barred_by(self, digits: u32, n: usize) -> u16 {
        if !self.any() {
            return 0;
        }
        (((digits << 1) | (digits >> 1)) & ((1u32 << n) - 1)) as u16
    }
}

/// The relabellings of digits that map every grid of a rule set to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relabelling {
    /// Any permutation of the digits.
    Any,
    /// The identity and the reversal `d ↦ n + 1 − d`, the only ones keeping which digits
    /// are consecutive.
    Reversal,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_touch_and_bar_consecutive_digits() {
        let g = Geometry::CLASSIC;
        let nc = Neighbours::NonConsecutive;
        assert_eq!(nc.cells(g, 0), [1, 9]);
        assert_eq!(nc.cells(g, 40), [31, 39, 41, 49]);
        assert_eq!(nc.cells(g, 80), [71, 79]);
        assert!(Neighbours::Free.cells(g, 40).is_empty());
        assert_eq!(nc.barred(1, 9), 0b10);
        assert_eq!(nc.barred(5, 9), 0b10_1000);
        assert_eq!(nc.barred(9, 9), 0b1000_0000);
        assert_eq!(nc.barred(16, 16), 1 << 14);
        assert_eq!(Neighbours::Free.barred(5, 9), 0);
    }
}
