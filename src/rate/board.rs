//! The rater's candidate grid: what a person pencils in, updated step by step.

use crate::grid::{Geometry, Grid};
use crate::solver::{tables, Tables};

/// Candidates and placed digits of a grid being solved by hand.
#[derive(Clone)]
pub struct Board {
    geometry: Geometry,
    tables: &'static Tables,
    /// Candidate digits per cell (bit `d-1`); a placed cell keeps only its digit.
    cand: Vec<u16>,
    /// Placed digit per cell, `0` while open.
    value: Vec<u8>,
}

impl Board {
    /// The board of a puzzle with every candidate not excluded by a clue.
    pub fn new(puzzle: &Grid) -> Board {
        let g = puzzle.geometry();
        let all = ((1u32 << g.n()) - 1) as u16;
        let mut b = Board {
            geometry: g,
            tables: tables(g),
            cand: vec![all; g.cells()],
            value: vec![0; g.cells()],
        };
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                b.place(cell, v);
            }
        }
        b
    }

    /// The geometry.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Grid side.
    pub fn n(&self) -> usize {
        self.geometry.n()
    }

    /// Candidate mask of a cell.
    #[inline]
    pub fn cand(&self, cell: usize) -> u16 {
        self.cand[cell]
    }

    /// Placed digit (0 when open).
    #[inline]
    pub fn value(&self, cell: usize) -> u8 {
        self.value[cell]
    }

    /// Whether the cell is still open.
    #[inline]
    pub fn is_open(&self, cell: usize) -> bool {
        self.value[cell] == 0
    }

    /// Whether every cell is placed.
    pub fn solved(&self) -> bool {
        self.value.iter().all(|&v| v != 0)
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.cand.len()
    }

    /// Places `digit` and removes it from the peers' candidates.
    pub fn place(&mut self, cell: usize, digit: u8) {
        let bit = 1u16 << (digit - 1);
        self.value[cell] = digit;
        self.cand[cell] = bit;
        for &p in self.tables.peers(cell) {
            if self.value[p as usize] == 0 {
                self.cand[p as usize] &= !bit;
            }
        }
    }

    /// Removes `digit` from an open cell's candidates.
    pub fn eliminate(&mut self, cell: usize, digit: u8) {
        if self.value[cell] == 0 {
            self.cand[cell] &= !(1u16 << (digit - 1));
        }
    }

    /// The cells of unit `u` (rows, then columns, then boxes).
    pub fn unit(&self, u: usize) -> &'static [u16] {
        self.tables.unit(u)
    }

    /// Number of units (3N).
    pub fn unit_count(&self) -> usize {
        3 * self.n()
    }

    /// Whether two different cells share a row, column or box.
    #[inline]
    pub fn sees(&self, a: usize, b: usize) -> bool {
        let cu = &self.tables.cell_units;
        a != b && cu[a] & cu[b] != 0
    }

    /// The grid of placed digits.
    pub fn to_grid(&self) -> Grid {
        Grid::from_cells(self.geometry, self.value.clone())
    }

    /// Open cells of a unit holding `digit` as a candidate, as a bit mask over the unit's
    /// positions.
    pub fn positions(&self, u: usize, digit: u8) -> u16 {
        let bit = 1u16 << (digit - 1);
        let mut m = 0;
        for (i, &c) in self.unit(u).iter().enumerate() {
            if self.is_open(c as usize) && self.cand[c as usize] & bit != 0 {
                m |= 1 << i;
            }
        }
        m
    }

    /// Digits placed in a unit, as a mask.
    pub fn placed_in(&self, u: usize) -> u16 {
        self.unit(u)
            .iter()
            .filter(|&&c| !self.is_open(c as usize))
            .fold(0, |m, &c| m | self.cand[c as usize])
    }
}

/// Iterates the digits (1-based) of a mask.
pub fn digits(mut mask: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let d = mask.trailing_zeros() as u8 + 1;
            mask &= mask - 1;
            d
        })
    })
}
