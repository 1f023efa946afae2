//! Jigsaw regions: `n` connected groups of `n` cells that take the place of the boxes,
//! drawn per puzzle and carried with it (like a killer puzzle's cages).
//!
//! A layout is written one symbol per cell, row by row, region `k` (from 0) as the digit
//! symbol of `k + 1` (`1`–`9`, then `A`–`G`); regions are numbered in order of first
//! appearance, so one layout has one text.

use super::{cell_name, digit_char, orthogonal_neighbours, Geometry, Layout, Symmetry};
use std::fmt;

/// A puzzle's regions, with the layout (units, peers) they make.
pub struct Regions {
    n: usize,
    /// Region of each cell, numbered by first appearance.
    of: Box<[u8]>,
    /// Rows, columns and the regions as the box units.
    layout: Layout,
}

/// Why a region text is not a jigsaw layout.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegionError {
    /// Not one symbol per cell.
    #[error("the region map has {found} symbols; a {n}x{n} grid needs {expected}, one per cell")]
    Length {
        /// Symbols found.
        found: usize,
        /// Cells of the grid.
        expected: usize,
        /// Side of the grid.
        n: usize,
    },
    /// A symbol that names no region.
    #[error("`{symbol}` at {cell} names no region: use 1-{last} for the {n} regions")]
    Symbol {
        /// The symbol.
        symbol: char,
        /// Where it is.
        cell: String,
        /// The last region symbol.
        last: char,
        /// How many regions there are.
        n: usize,
    },
    /// A region with the wrong number of cells.
    #[error("region {symbol} has {cells} cells; each of the {n} regions needs {n}")]
    Size {
        /// The region's symbol as written.
        symbol: char,
        /// Its cells.
        cells: usize,
        /// The side.
        n: usize,
    },
    /// A region in two or more pieces.
    #[error("region {symbol} is not connected: {cell} does not touch the rest of it side by side")]
    Disconnected {
        /// The region's symbol as written.
        symbol: char,
        /// A cell cut off from the region's first cell.
        cell: String,
    },
}

impl Regions {
    /// The regions labelled `labels` (one per cell, any numbering), checked: `n` regions
    /// of `n` connected cells each.
    pub fn new(g: Geometry, labels: &[u8]) -> Result<Regions, RegionError> {
        let n = g.n();
        let symbol = |label: u8| digit_char(label + 1);
        if labels.len() != g.cells() {
            return Err(RegionError::Length {
                found: labels.len(),
                expected: g.cells(),
                n,
            });
        }
        let mut count = [0usize; 16];
        for (cell, &label) in labels.iter().enumerate() {
            match count
                .get_mut(label as usize)
                .filter(|_| (label as usize) < n)
            {
                Some(c) => *c += 1,
                None => {
                    return Err(RegionError::Symbol {
                        symbol: symbol(label),
                        cell: cell_name(n, cell),
                        last: digit_char(n as u8),
                        n,
                    })
                }
            }
        }
        if let Some(k) = (0..n).find(|&k| count[k] != n) {
            return Err(RegionError::Size {
                symbol: symbol(k as u8),
                cells: count[k],
                n,
            });
        }
        for k in 0..n as u8 {
            if let Some(cell) = cut_off(n, labels, k) {
                return Err(RegionError::Disconnected {
                    symbol: symbol(k),
                    cell: cell_name(n, cell),
                });
            }
        }
        let mut renamed = [u8::MAX; 16];
        let mut next = 0u8;
        let of: Box<[u8]> = labels
            .iter()
            .map(|&label| {
                let slot = &mut renamed[label as usize];
                if *slot == u8::MAX {
                    *slot = next;
                    next += 1;
                }
                *slot
            })
            .collect();
        let layout = Layout::with_regions(g, &of);
        Ok(Regions { n, of, layout })
    }

    /// Reads a region map: one symbol per cell (`1`–`9`, `A`–`G`), spaces ignored.
    pub fn parse(g: Geometry, text: &str) -> Result<Regions, RegionError> {
        let n = g.n();
        let symbols: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        if symbols.len() != g.cells() {
            return Err(RegionError::Length {
                found: symbols.len(),
                expected: g.cells(),
                n,
            });
        }
        let labels = symbols
            .iter()
            .enumerate()
            .map(|(cell, &c)| {
                c.to_digit(17)
                    .filter(|&d| (1..=n as u32).contains(&d))
                    .map(|d| d as u8 - 1)
                    .ok_or_else(|| RegionError::Symbol {
                        symbol: c,
                        cell: cell_name(n, cell),
                        last: digit_char(n as u8),
                        n,
                    })
            })
            .collect::<Result<Vec<u8>, _>>()?;
        Regions::new(g, &labels)
    }

    /// The boxes of `g` as regions (where a random layout starts).
    pub fn boxes(g: Geometry) -> Regions {
        let n = g.n();
        let labels: Vec<u8> = (0..g.cells())
            .map(|c| g.box_of(c / n, c % n) as u8)
            .collect();
        Regions::new(g, &labels).expect("boxes are regions")
    }

    /// A random layout: from the boxes, exchanges of two cells between touching regions
    /// that keep both connected, each choice drawn by `below(k)` (a number below `k`,
    /// from the caller's stream).
    pub fn random(g: Geometry, mut below: impl FnMut(u32) -> u32) -> Regions {
        let n = g.n();
        let mut labels: Vec<u8> = Regions::boxes(g).of.to_vec();
        // Enough exchanges that no trace of the boxes is left (measured on 9x9: the
        // share of cells still in their box levels off near 1/n after ~4 n² tries).
        let tries = 4 * g.cells();
        for _ in 0..tries {
            let a = below(g.cells() as u32) as usize;
            let ra = labels[a];
            // A cell of another region touching `a`, then a cell of `a`'s region touching
            // that one's region: moving each into the other's keeps both at n cells.
            let others: Vec<usize> = orthogonal_neighbours(n, a)
                .filter(|&c| labels[c] != ra)
                .collect();
            if others.is_empty() {
                continue;
            }
            let rb = labels[others[below(others.len() as u32) as usize]];
            let back: Vec<usize> = (0..g.cells())
                .filter(|&c| {
                    labels[c] == rb && orthogonal_neighbours(n, c).any(|d| labels[d] == ra)
                })
                .collect();
            let b = back[below(back.len() as u32) as usize];
            labels[a] = rb;
            labels[b] = ra;
            if cut_off(n, &labels, ra).is_some() || cut_off(n, &labels, rb).is_some() {
                labels[a] = ra;
                labels[b] = rb;
            }
        }
        Regions::new(g, &labels).expect("exchanges keep regions connected and whole")
    }

    /// A random layout near this one that `digits`, a grid under this layout, keeps,
    /// drawn by `below(k)`: `moves` tries of cycles of cells of one digit, each moving
    /// into the next one's region (a cell of digit d joins region R, R's own d moves on,
    /// until one moves into the first cell's region), kept when every region they touch
    /// stays connected. Each region still holds each digit once, so the grid keeps the
    /// layout.
    pub fn reshaped_around(
        &self,
        g: Geometry,
        digits: &[u8],
        moves: usize,
        mut below: impl FnMut(u32) -> u32,
    ) -> Regions {
        let n = g.n();
        let mut labels: Vec<u8> = self.of.to_vec();
        // Where each region holds each digit: cell_of[region * n + digit - 1].
        let mut cell_of = vec![0usize; n * n];
        for (c, &d) in digits.iter().enumerate() {
            cell_of[labels[c] as usize * n + d as usize - 1] = c;
        }
        let mut cycle: Vec<(usize, u8)> = Vec::with_capacity(n);
        for _ in 0..moves {
            let first = below(g.cells() as u32) as usize;
            let d = digits[first] as usize - 1;
            let home = labels[first];
            // (cell, the region it moves into)
            cycle.clear();
            let mut at = first;
            let closed = loop {
                let mut touching = [0u8; 4];
                let mut count = 0;
                for c in orthogonal_neighbours(n, at) {
                    let r = labels[c];
                    if r != labels[at] && !touching[..count].contains(&r) {
                        touching[count] = r;
                        count += 1;
                    }
                }
                if count == 0 {
                    break false;
                }
                let into = touching[below(count as u32) as usize];
                cycle.push((at, into));
                if into == home {
                    break true;
                }
                if cycle.len() == n || cycle.iter().any(|&(c, _)| labels[c] == into) {
                    break false;
                }
                at = cell_of[into as usize * n + d];
            };
            if !closed {
                continue;
            }
            for &(c, into) in &cycle {
                labels[c] = into;
            }
            // Each region of the cycle gained the cell that moved into it.
            if !cycle
                .iter()
                .all(|&(c, into)| holds_together(n, &labels, into, c))
            {
                // Each cell goes back to the region the one before it moved into.
                let mut back = home;
                for &(c, into) in &cycle {
                    labels[c] = back;
                    back = into;
                }
                continue;
            }
            for &(c, into) in &cycle {
                cell_of[into as usize * n + d] = c;
            }
        }
        Regions::new(g, &labels).expect("cycles keep regions connected and whole")
    }

    /// The side of the grid.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The region of a cell (from 0, by first appearance).
    #[inline]
    pub fn region_of(&self, cell: usize) -> usize {
        self.of[cell] as usize
    }

    /// The layout the regions make: rows, columns, then the regions where the boxes are.
    #[inline]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The region map, one symbol per cell.
    pub fn to_text(&self) -> String {
        self.of.iter().map(|&k| digit_char(k + 1)).collect()
    }

    /// The same layout moved by symmetry `s`.
    pub fn mapped(&self, g: Geometry, s: Symmetry) -> Regions {
        let mut labels = vec![0u8; self.of.len()];
        for (cell, &k) in self.of.iter().enumerate() {
            labels[s.map_cell(self.n, cell)] = k;
        }
        Regions::new(g, &labels).expect("a symmetry keeps regions whole")
    }

    /// Whether the regions are the boxes of `g`.
    pub fn are_boxes(&self, g: Geometry) -> bool {
        *self == Regions::boxes(g)
    }
}

/// Whether region `k`, which holds `member`, is n cells connected side by side: the
/// reshaping's check, called for every region a cycle touches.
fn holds_together(n: usize, labels: &[u8], k: u8, member: usize) -> bool {
    let reached: u32 = flood(n, labels, k, member)
        .iter()
        .map(|w| w.count_ones())
        .sum();
    reached as usize == n
}

/// A cell of region `k` that does not touch the region's first cell through the region,
/// if any.
fn cut_off(n: usize, labels: &[u8], k: u8) -> Option<usize> {
    let first = labels.iter().position(|&l| l == k)?;
    let reached = flood(n, labels, k, first);
    (0..labels.len()).find(|&c| labels[c] == k && reached[c / 64] & (1 << (c % 64)) == 0)
}

/// The cells of region `k` (of at most n cells) reached from `member` side by side
/// through the region, as a bit set (a flood without heap).
fn flood(n: usize, labels: &[u8], k: u8, member: usize) -> [u64; 4] {
    let mut seen = [0u64; 4];
    let mut stack = [0u16; 16];
    seen[member / 64] |= 1 << (member % 64);
    stack[0] = member as u16;
    let mut len = 1;
    while len > 0 {
        len -= 1;
        let cell = stack[len] as usize;
        for next in orthogonal_neighbours(n, cell) {
            if labels[next] == k && seen[next / 64] & (1 << (next % 64)) == 0 {
                seen[next / 64] |= 1 << (next % 64);
                stack[len] = next as u16;
                len += 1;
            }
        }
    }
    seen
}

impl PartialEq for Regions {
    fn eq(&self, other: &Regions) -> bool {
        self.of == other.of
    }
}

impl Eq for Regions {}

impl std::hash::Hash for Regions {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.of.hash(state);
    }
}

impl fmt::Debug for Regions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Regions({})", self.to_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nine() -> Geometry {
        Geometry::CLASSIC
    }

    /// Draws from a small generator of the test's own (the grid layer uses no streams).
    fn draws(seed: u64) -> impl FnMut(u32) -> u32 {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        move |k| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % u64::from(k)) as u32
        }
    }

    #[test]
    fn boxes_round_trip_as_text() {
        let boxes = Regions::boxes(nine());
        let text = boxes.to_text();
        assert!(text.starts_with("111222333111222333111222333444555666"));
        assert_eq!(Regions::parse(nine(), &text).unwrap(), boxes);
        assert!(boxes.are_boxes(nine()));
    }

    #[test]
    fn bad_maps_name_the_problem() {
        let g = nine();
        let boxes = Regions::boxes(g).to_text();
        let err = |text: &str| Regions::parse(g, text).unwrap_err().to_string();
        assert_eq!(
            err(&boxes[1..]),
            "the region map has 80 symbols; a 9x9 grid needs 81, one per cell"
        );
        let mut bad = boxes.clone();
        bad.replace_range(4..5, "0");
        assert_eq!(
            err(&bad),
            "`0` at r1c5 names no region: use 1-9 for the 9 regions"
        );
        // r1c4 moved from region 2 into region 1: 10 cells against 8.
        let mut big = boxes.clone();
        big.replace_range(3..4, "1");
        assert_eq!(
            err(&big),
            "region 1 has 10 cells; each of the 9 regions needs 9"
        );
        // r1c1 and r9c9 swap regions: both cut off.
        let mut cut = boxes.into_bytes();
        cut.swap(0, 80);
        assert_eq!(
            err(std::str::from_utf8(&cut).unwrap()),
            "region 1 is not connected: r9c9 does not touch the rest of it side by side"
        );
    }

    #[test]
    fn random_layouts_are_connected_and_move_away_from_the_boxes() {
        for n in [4, 6, 9, 12, 16] {
            let g = Geometry::for_size(n).unwrap();
            for seed in 0..5 {
                let r = Regions::random(g, draws(seed));
                // Rebuilding from the text checks every region again.
                assert_eq!(Regions::parse(g, &r.to_text()).unwrap(), r);
                assert!(!r.are_boxes(g) || n == 4, "{n} {seed}");
            }
        }
        let a = Regions::random(nine(), draws(1));
        assert_eq!(a, Regions::random(nine(), draws(1)));
        assert_ne!(a, Regions::random(nine(), draws(2)));
    }

    #[test]
    fn symmetries_move_the_layout() {
        let g = nine();
        let r = Regions::random(g, draws(5));
        for s in Symmetry::ALL {
            let moved = r.mapped(g, s);
            for cell in 0..81 {
                let (a, b) = (cell, s.map_cell(9, cell));
                for other in 0..81 {
                    let same = r.region_of(a) == r.region_of(other);
                    let same_moved = moved.region_of(b) == moved.region_of(s.map_cell(9, other));
                    assert_eq!(same, same_moved);
                }
            }
        }
    }
}
