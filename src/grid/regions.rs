//! Jigsaw regions: `n` connected groups of `n` cells that take the place of the boxes,
//! drawn per puzzle and carried with it (like a killer puzzle's cages).
//!
//! A layout is written one symbol per cell, row by row, region `k` (from 0) as the digit
//! symbol of `k + 1` (`1`–`9`, then `A`–`G`); regions are numbered in order of first
//! appearance, so one layout has one text.

use super::{
    cell_name, cells_of, digit_char, orthogonal_neighbours, CellSet, Geometry, Layout, Symmetry,
};
use std::fmt;
use std::sync::OnceLock;

/// A puzzle's regions, with the layout (units, peers) they make.
pub struct Regions {
    geometry: Geometry,
    /// Region of each cell, numbered by first appearance.
    of: Box<[u8]>,
    /// Rows, columns and the regions as the box units, built when first asked for: the
    /// reshaping's intermediate layouts are only searched, which needs the regions alone.
    layout: OnceLock<Layout>,
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
        let flood = Flood::new(n);
        for k in 0..n as u8 {
            if let Some(cell) = flood.cut_off(labels, k) {
                return Err(RegionError::Disconnected {
                    symbol: symbol(k),
                    cell: cell_name(n, cell),
                });
            }
        }
        Ok(Regions::checked(g, labels))
    }

    /// The regions labelled `labels`, known to be `n` connected regions of `n` cells,
    /// renumbered by first appearance.
    fn checked(g: Geometry, labels: &[u8]) -> Regions {
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
        Regions {
            geometry: g,
            of,
            layout: OnceLock::new(),
        }
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
        let flood = Flood::new(n);
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
            if flood.cut_off(&labels, ra).is_some() || flood.cut_off(&labels, rb).is_some() {
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
        let flood = Flood::new(n);
        let mut members = [CellSet::default(); 16];
        for (c, &k) in labels.iter().enumerate() {
            members[k as usize].insert(c);
        }
        let rings = Rings::new(n);
        let mut cycle: Vec<(usize, u8)> = Vec::with_capacity(n);
        for _ in 0..moves {
            let first = below(g.cells() as u32) as usize;
            let d = digits[first] as usize - 1;
            let home = labels[first];
            // (cell, the region it moves into)
            cycle.clear();
            // The regions the cycle's cells leave, as bits.
            let mut left = 0u32;
            let mut at = first;
            let closed = loop {
                // The other regions touching `at`, each once, in the order of its sides.
                let (mut touching, mut count, mut seen) = ([0u8; 4], 0, 0u32);
                let own = labels[at];
                for c in rings.sides(at) {
                    let r = labels[c];
                    if r != own && seen & 1 << r == 0 {
                        seen |= 1 << r;
                        touching[count] = r;
                        count += 1;
                    }
                }
                if count == 0 {
                    break false;
                }
                let into = touching[below(count as u32) as usize];
                cycle.push((at, into));
                left |= 1 << own;
                if into == home {
                    break true;
                }
                if cycle.len() == n || left & 1 << into != 0 {
                    break false;
                }
                at = cell_of[into as usize * n + d];
            };
            if !closed {
                continue;
            }
            // Moves each cell of the cycle into its region (`forward`) or back.
            let move_cycle = |labels: &mut [u8], members: &mut [CellSet], forward: bool| {
                let mut from = home;
                for &(c, into) in &cycle {
                    let (out_of, to) = if forward { (from, into) } else { (into, from) };
                    members[out_of as usize].remove(c);
                    members[to as usize].insert(c);
                    labels[c] = to;
                    from = into;
                }
            };
            move_cycle(&mut labels, &mut members, true);
            // Each region of the cycle gained the cell that moved into it and lost the
            // next cell of the cycle (the last region, the first cell).
            let whole = (0..cycle.len()).all(|j| {
                let (joined, into) = cycle[j];
                let left = cycle[(j + 1) % cycle.len()].0;
                let region = members[into as usize];
                rings
                    .stays_whole(region, joined, left)
                    .unwrap_or_else(|| flood.reached(region, joined) == region)
            });
            if !whole {
                // Each cell goes back to the region the one before it moved into.
                move_cycle(&mut labels, &mut members, false);
                continue;
            }
            for &(c, into) in &cycle {
                cell_of[into as usize * n + d] = c;
            }
        }
        debug_assert!(
            Regions::new(g, &labels).is_ok(),
            "cycles keep regions whole"
        );
        Regions::checked(g, &labels)
    }

    /// The side of the grid.
    pub fn n(&self) -> usize {
        self.geometry.n()
    }

    /// The region of a cell (from 0, by first appearance).
    #[inline]
    pub fn region_of(&self, cell: usize) -> usize {
        self.of[cell] as usize
    }

    /// The layout the regions make: rows, columns, then the regions where the boxes are.
    #[inline]
    pub fn layout(&self) -> &Layout {
        self.layout
            .get_or_init(|| Layout::with_regions(self.geometry, &self.of))
    }

    /// The region map, one symbol per cell.
    pub fn to_text(&self) -> String {
        self.of.iter().map(|&k| digit_char(k + 1)).collect()
    }

    /// The same layout moved by symmetry `s`.
    pub fn mapped(&self, g: Geometry, s: Symmetry) -> Regions {
        let mut labels = vec![0u8; self.of.len()];
        for (cell, &k) in self.of.iter().enumerate() {
            labels[s.map_cell(self.n(), cell)] = k;
        }
        Regions::new(g, &labels).expect("a symmetry keeps regions whole")
    }

    /// Whether the regions are the boxes of `g`.
    pub fn are_boxes(&self, g: Geometry) -> bool {
        *self == Regions::boxes(g)
    }
}

/// No cell there ([`Rings`]).
const OFF_GRID: u16 = u16::MAX;

/// The eight cells around each cell of an `n`×`n` grid, clockwise from the one above
/// (each side by side with the next), [`OFF_GRID`] past an edge: the reshaping reads
/// them thousands of times a grid.
struct Rings(Vec<[u16; 8]>);

impl Rings {
    /// The positions in a ring of the cells above, below, left and right: the order of
    /// [`orthogonal_neighbours`], on which the reshaping's draws depend.
    const SIDES: [usize; 4] = [0, 4, 6, 2];

    fn new(n: usize) -> Rings {
        const AROUND: [(isize, isize); 8] = [
            (-1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
            (1, 0),
            (1, -1),
            (0, -1),
            (-1, -1),
        ];
        Rings(
            cells_of(n)
                .map(|(_, cell)| {
                    AROUND.map(|(rows, cols)| {
                        cell.offset(rows, cols, n)
                            .map_or(OFF_GRID, |c| c.index(n) as u16)
                    })
                })
                .collect(),
        )
    }

    /// The cells side by side with `cell`, in the order of [`orthogonal_neighbours`].
    fn sides(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        Rings::SIDES
            .iter()
            .map(move |&i| self.0[cell][i])
            .filter(|&c| c != OFF_GRID)
            .map(usize::from)
    }

    /// Whether `region` (a region that was whole, then gained `joined` and lost `left`)
    /// is whole, when the cells around the two tell: `joined` touches none of the rest,
    /// so it is cut off; or `left`'s neighbours in the region meet around it without it
    /// and `joined` touches the rest, so nothing was cut. `None` when they do not tell
    /// (then only a flood does).
    fn stays_whole(&self, region: CellSet, joined: usize, left: usize) -> Option<bool> {
        if !self.sides(joined).any(|c| region.contains(c)) {
            return Some(false);
        }
        // The ring around `left`, in the region as it was without `left`.
        let ring = &self.0[left];
        let inside =
            ring.map(|c| c != OFF_GRID && c as usize != joined && region.contains(c.into()));
        // Runs of ring cells in the region that hold a side neighbour of `left`: each is
        // connected within the ring; more than one may be cut apart by its leaving.
        let Some(start) = (0..8).find(|&i| !inside[i]) else {
            return Some(true);
        };
        let (mut runs, mut in_run, mut has_side) = (0, false, false);
        for step in 1..=8 {
            let i = (start + step) % 8;
            if inside[i] {
                has_side |= i % 2 == 0;
                in_run = true;
            } else if in_run {
                runs += usize::from(has_side);
                (in_run, has_side) = (false, false);
            }
        }
        (runs <= 1).then_some(true)
    }
}

/// Floods through a region of an `n`×`n` grid, side by side, as operations on whole cell
/// sets (a region's cells advance together, a few word operations a step).
struct Flood {
    n: usize,
    /// Every cell but those of the first column, and of the last.
    not_first_column: CellSet,
    not_last_column: CellSet,
}

impl Flood {
    fn new(n: usize) -> Flood {
        let column = |c: usize| -> CellSet { (0..n).map(|r| r * n + c).collect() };
        let all: CellSet = (0..n * n).collect();
        Flood {
            n,
            not_first_column: all.minus(column(0)),
            not_last_column: all.minus(column(n - 1)),
        }
    }

    /// The cells of `region` reached from its cell `member` side by side through it.
    fn reached(&self, region: CellSet, member: usize) -> CellSet {
        let n = self.n as isize;
        let mut reached = CellSet::default();
        reached.insert(member);
        loop {
            // A step right lands off the first column (what wrapped from the row above).
            let right = reached.shifted(1).and(self.not_first_column);
            let left = reached.shifted(-1).and(self.not_last_column);
            let rows = reached.shifted(n).or(reached.shifted(-n));
            let next = reached.or(right).or(left).or(rows).and(region);
            if next == reached || next == region {
                return next;
            }
            reached = next;
        }
    }

    /// A cell of region `k` that does not touch the region's first cell through the
    /// region, if any.
    fn cut_off(&self, labels: &[u8], k: u8) -> Option<usize> {
        let region: CellSet = (0..labels.len()).filter(|&c| labels[c] == k).collect();
        let reached = self.reached(region, region.first()?);
        region.minus(reached).first()
    }
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
    use crate::grid::samples::draws;

    fn nine() -> Geometry {
        Geometry::CLASSIC
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

    /// What the cells around a move tell of a region agrees with a flood of it, and
    /// tells often: a region of a random layout gains a cell touching it and loses one.
    #[test]
    fn rings_tell_what_a_flood_tells() {
        let (mut told, mut asked) = (0, 0);
        for n in [6, 9, 16] {
            let g = Geometry::for_size(n).unwrap();
            let (rings, flood) = (Rings::new(n), Flood::new(n));
            let mut draw = draws(n as u64);
            for seed in 0..40 {
                let layout = Regions::random(g, draws(seed));
                let k = draw(n as u32) as usize;
                let region: CellSet = (0..n * n).filter(|&c| layout.region_of(c) == k).collect();
                let members: Vec<usize> = region.iter().collect();
                let around: Vec<usize> = (0..n * n)
                    .filter(|&c| !region.contains(c) && rings.sides(c).any(|s| region.contains(s)))
                    .collect();
                for _ in 0..50 {
                    let left = members[draw(members.len() as u32) as usize];
                    let joined = around[draw(around.len() as u32) as usize];
                    let mut moved = region;
                    moved.remove(left);
                    moved.insert(joined);
                    let whole = flood.reached(moved, joined) == moved;
                    asked += 1;
                    if let Some(said) = rings.stays_whole(moved, joined, left) {
                        assert_eq!(
                            said, whole,
                            "{n}x{n} seed {seed}: {left} leaves, {joined} joins"
                        );
                        told += 1;
                    }
                }
            }
        }
        assert!(told * 3 > asked, "the rings told {told} of {asked}");
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
