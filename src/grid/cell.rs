//! A cell by its row and column. Cells are numbered row by row (`row * n + col` on a grid
//! of side `n`); this is the one place that turns that number into a row and a column and
//! back, and that names cells as the outputs write them (`r3c5`).

use std::fmt;

/// A cell of a grid, by its row and column (each from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// Row, from 0 (top).
    pub row: usize,
    /// Column, from 0 (left).
    pub col: usize,
}

impl Cell {
    /// The cell in row `row` and column `col`.
    pub const fn new(row: usize, col: usize) -> Cell {
        Cell { row, col }
    }

    /// Cell number `index` of a grid of side `n`.
    #[inline]
    pub const fn at(index: usize, n: usize) -> Cell {
        Cell {
            row: index / n,
            col: index % n,
        }
    }

    /// Its number on a grid of side `n`.
    #[inline]
    pub const fn index(self, n: usize) -> usize {
        self.row * n + self.col
    }

    /// The cell with row and column swapped (its image under the transpose).
    pub const fn transposed(self) -> Cell {
        Cell {
            row: self.col,
            col: self.row,
        }
    }

    /// The transposed cell when `transpose`, else this one.
    #[inline]
    pub const fn transposed_if(self, transpose: bool) -> Cell {
        if transpose {
            self.transposed()
        } else {
            self
        }
    }

    /// The cell of a source grid whose value this cell of an image takes, when the image
    /// takes row `r` from row `rows[r]` and column `c` from column `cols[c]` (the line
    /// maps of a symmetry).
    #[inline]
    pub fn through_lines<L: Copy + Into<usize>>(self, rows: &[L], cols: &[L]) -> Cell {
        Cell::new(rows[self.row].into(), cols[self.col].into())
    }

    /// Whether `other` shares its row or its column.
    pub fn shares_a_line(self, other: Cell) -> bool {
        self.row == other.row || self.col == other.col
    }

    /// The cell `rows` down and `cols` right of it (negative: up, left), if on a grid of
    /// side `n`.
    pub fn offset(self, rows: isize, cols: isize, n: usize) -> Option<Cell> {
        let row = self.row.checked_add_signed(rows).filter(|&r| r < n)?;
        let col = self.col.checked_add_signed(cols).filter(|&c| c < n)?;
        Some(Cell { row, col })
    }

    /// The cells orthogonally next to it on a grid of side `n`.
    pub fn neighbours(self, n: usize) -> impl Iterator<Item = Cell> {
        [(-1, 0), (1, 0), (0, -1), (0, 1)]
            .into_iter()
            .filter_map(move |(rows, cols)| self.offset(rows, cols, n))
    }
}

/// A digit in a cell. Tables with an entry per candidate number them cell by cell, digit
/// by digit: `cell * n + digit - 1` on a grid of side `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Candidate {
    /// The cell's number.
    pub cell: usize,
    /// The digit, from 1.
    pub digit: u8,
}

impl Candidate {
    /// Digit `digit` (from 1) in cell number `cell`.
    #[inline]
    pub const fn new(cell: usize, digit: u8) -> Candidate {
        Candidate { cell, digit }
    }

    /// Candidate number `index` of a grid of side `n`.
    #[inline]
    pub const fn at(index: usize, n: usize) -> Candidate {
        Candidate {
            cell: index / n,
            digit: (index % n) as u8 + 1,
        }
    }

    /// Its number on a grid of side `n`.
    #[inline]
    pub const fn index(self, n: usize) -> usize {
        self.cell * n + self.digit as usize - 1
    }
}

/// `r3c5`: rows and columns from 1.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row + 1, self.col + 1)
    }
}

/// The numbers of every cell of a grid of side `n`, by row and column: `(cell, Cell)`.
pub fn cells_of(n: usize) -> impl Iterator<Item = (usize, Cell)> {
    (0..n * n).map(move |i| (i, Cell::at(i, n)))
}

/// `r3c5` for cell number `cell` of an `n`×`n` grid.
pub fn cell_name(n: usize, cell: usize) -> String {
    Cell::at(cell, n).to_string()
}

/// `r1c1+r1c2` for cells of an `n`×`n` grid, written into one string (the killer rater
/// names cages in every step it takes, and a string per cell showed in profiles).
pub fn cell_names(n: usize, cells: impl IntoIterator<Item = usize>) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(32);
    for (i, cell) in cells.into_iter().enumerate() {
        let sep = if i == 0 { "" } else { "+" };
        write!(out, "{sep}{}", Cell::at(cell, n)).expect("a string takes any text");
    }
    out
}

/// The cell named `r3c5` on an `n`×`n` grid, if inside it.
pub fn parse_cell_name(n: usize, name: &str) -> Option<usize> {
    let rest = name.trim().strip_prefix(['r', 'R'])?;
    let (row, col) = rest.split_once(['c', 'C'])?;
    let (row, col): (usize, usize) = (row.parse().ok()?, col.parse().ok()?);
    let inside = |x: usize| (1..=n).contains(&x);
    (inside(row) && inside(col)).then(|| Cell::new(row - 1, col - 1).index(n))
}

/// The numbers of the cells orthogonally next to cell number `cell` on an `n`×`n` grid.
pub fn orthogonal_neighbours(n: usize, cell: usize) -> impl Iterator<Item = usize> {
    Cell::at(cell, n).neighbours(n).map(move |c| c.index(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_rows_and_columns_and_names_agree() {
        for n in [4, 6, 9, 12, 16] {
            for (i, cell) in cells_of(n) {
                assert_eq!(cell.index(n), i);
                assert_eq!(parse_cell_name(n, &cell_name(n, i)), Some(i));
                assert_eq!(cell.transposed().transposed(), cell);
                assert_eq!(cell.transposed_if(false), cell);
                let near: Vec<usize> = orthogonal_neighbours(n, i).collect();
                assert!((2..=4).contains(&near.len()));
                assert!(near.iter().all(|&j| {
                    let other = Cell::at(j, n);
                    other.shares_a_line(cell)
                        && other.row.abs_diff(cell.row) + other.col.abs_diff(cell.col) == 1
                }));
            }
        }
        for k in 0..16 * 16 * 16 {
            assert_eq!(Candidate::at(k, 16).index(16), k);
        }
        assert_eq!(Candidate::at(13, 9), Candidate::new(1, 5));
        assert_eq!(Cell::at(13, 9).to_string(), "r2c5");
        assert_eq!(parse_cell_name(9, "r10c1"), None);
        assert_eq!(cell_names(9, [0, 80]), "r1c1+r9c9");
    }
}
