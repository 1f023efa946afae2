//! The line permutations of [`super::Symmetries::Lines`]: for each axis, the box-keeping
//! permutations of its lines that map every extra unit onto an extra unit and every
//! pair of cells the rule set relates by position (a move apart, touching) onto such a
//! pair.

use super::slots::{per_geometry, PerGeometry, GEOMETRY_SLOTS};
use super::Symmetries;
use crate::grid::Geometry;
use std::collections::HashSet;
use std::sync::OnceLock;

/// The line permutations that keep a rule set's extra units, per axis: any row
/// permutation with any column permutation (and transposition when it keeps the units
/// too) is a transformation of the rule set.
#[derive(Debug)]
pub struct LineGroup {
    /// Row permutations: row `r` of the image is row `rows[r]` of the source.
    pub rows: Vec<Vec<u8>>,
    /// Column permutations, likewise.
    pub cols: Vec<Vec<u8>>,
    /// Whether transposing keeps the extra units.
    pub transpose: bool,
}

impl Geometry {
    /// The line group of the rule set (meaningful under [`Symmetries::Lines`]), found once
    /// per geometry by a search over the box-keeping permutations of each axis that prunes
    /// on the extra units two lines share. On 9×9: 8 row permutations for windoku, 36 for
    /// disjoint groups, 48 for box centres, 4 for the asterisk and the girandola.
    pub fn line_group(self) -> &'static LineGroup {
        static GROUPS: PerGeometry<LineGroup> = [const { OnceLock::new() }; GEOMETRY_SLOTS];
        per_geometry(&GROUPS, self, |g| {
            let rules = g.variant().rules();
            debug_assert_eq!(rules.symmetries, Symmetries::Lines);
            // (Without units every box-keeping permutation would be listed.)
            assert!(
                rules.made_in(g.n()),
                "{} is not made in {}",
                rules.name,
                g.n()
            );
            let units = rules.units.cells(g);
            let n = g.n();
            let transposed = |c: u16| ((c as usize % n) * n + c as usize / n) as u16;
            let unit_set: HashSet<Vec<u16>> = units.iter().map(|u| sorted(u.clone())).collect();
            let apart = PairedCells::of(g);
            let transpose = g.square_boxes()
                && units.iter().all(|u| {
                    unit_set.contains(&sorted(u.iter().map(|&c| transposed(c)).collect()))
                })
                && apart.kept_by(|c| transposed(c as u16) as usize);
            LineGroup {
                rows: AxisSearch::new(g, &units, &apart, Axis::Rows).run(),
                cols: AxisSearch::new(g, &units, &apart, Axis::Columns).run(),
                transpose,
            }
        })
    }
}

impl Geometry {
    /// Calls `f(rows, cols)` for each line map of the rule set's group (rows of the image
    /// from `rows` of the source, columns from `cols`), for a rule set whose symmetries are
    /// [`Symmetries::Mirrored`] or [`Symmetries::Lines`]; transposition comes on top when
    /// [`Geometry::group_transposes`] says so.
    pub fn for_each_line_map(self, mut f: impl FnMut(&[u8], &[u8])) {
        match self.variant().rules().symmetries {
            Symmetries::Mirrored => {
                let n = self.n();
                let mut mirrored = [0u8; 16];
                for pi in self.mirrored_permutations() {
                    f(pi, pi);
                    // The column mirror swaps the two diagonals.
                    for (m, &p) in mirrored.iter_mut().zip(pi) {
                        *m = (n - 1) as u8 - p;
                    }
                    f(pi, &mirrored[..n]);
                }
            }
            Symmetries::Lines => {
                let group = self.line_group();
                for rows in &group.rows {
                    for cols in &group.cols {
                        f(rows, cols);
                    }
                }
            }
            Symmetries::Square => {
                let n = self.n();
                let kept: Vec<u8> = (0..n as u8).collect();
                let reversed: Vec<u8> = (0..n as u8).rev().collect();
                for rows in [&kept, &reversed] {
                    for cols in [&kept, &reversed] {
                        f(rows, cols);
                    }
                }
            }
            Symmetries::Sudoku => unreachable!("the sudoku group is searched, not listed"),
        }
    }

    /// Whether the rule set's group holds transposition.
    pub fn group_transposes(self) -> bool {
        match self.variant().rules().symmetries {
            Symmetries::Lines => self.line_group().transpose,
            Symmetries::Square => true,
            Symmetries::Sudoku | Symmetries::Mirrored => self.square_boxes(),
        }
    }
}

fn sorted(mut cells: Vec<u16>) -> Vec<u16> {
    cells.sort_unstable();
    cells
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Axis {
    Rows,
    Columns,
}

/// The search for one axis's permutations `π` (line `i` of the source goes to line
/// `π(i)`; the result lists their inverses, as sources per image line).
struct AxisSearch<'a> {
    n: usize,
    /// Lines per band along this axis.
    band: usize,
    axis: Axis,
    /// The extra units through each cell, as a bit mask.
    mask: Vec<u64>,
    units: HashSet<Vec<u16>>,
    unit_list: Vec<Vec<u16>>,
    apart: &'a PairedCells,
}

/// The cells the rule set relates to each cell by position, as sorted lists per
/// relation: those its move keeps apart, those whose digits it restricts beside it.
struct PairedCells([Vec<Vec<usize>>; 2]);

impl PairedCells {
    fn of(g: Geometry) -> PairedCells {
        let rules = g.variant().rules();
        PairedCells([
            (0..g.cells()).map(|c| rules.apart.cells(g, c)).collect(),
            (0..g.cells())
                .map(|c| rules.neighbours.cells(g, c))
                .collect(),
        ])
    }

    /// How `a` and `b` are related, per relation.
    fn relation(&self, a: usize, b: usize) -> [bool; 2] {
        self.0
            .each_ref()
            .map(|related| related[a].binary_search(&b).is_ok())
    }

    /// Whether the cell map `f` maps every related pair onto a pair related alike.
    fn kept_by(&self, f: impl Fn(usize) -> usize) -> bool {
        self.0.iter().all(|related| {
            related.iter().enumerate().all(|(cell, others)| {
                let mut images: Vec<usize> = others.iter().map(|&o| f(o)).collect();
                images.sort_unstable();
                images == related[f(cell)]
            })
        })
    }
}

impl AxisSearch<'_> {
    fn new<'a>(
        g: Geometry,
        units: &[Vec<u16>],
        apart: &'a PairedCells,
        axis: Axis,
    ) -> AxisSearch<'a> {
        assert!(units.len() <= 64, "at most 64 extra units");
        let mut mask = vec![0u64; g.cells()];
        for (u, unit) in units.iter().enumerate() {
            for &c in unit {
                mask[c as usize] |= 1 << u;
            }
        }
        AxisSearch {
            n: g.n(),
            band: match axis {
                Axis::Rows => g.box_rows(),
                Axis::Columns => g.box_cols(),
            },
            axis,
            mask,
            units: units.iter().map(|u| sorted(u.clone())).collect(),
            unit_list: units.to_vec(),
            apart,
        }
    }

    /// The cell at `pos` along line `line`.
    fn cell(&self, line: usize, pos: usize) -> usize {
        match self.axis {
            Axis::Rows => line * self.n + pos,
            Axis::Columns => pos * self.n + line,
        }
    }

    fn run(&self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        self.extend(0, &mut vec![u8::MAX; self.n], &mut out);
        out
    }

    /// Extends `pi`, fixed on lines `0..i`, in every way that keeps bands and the extra
    /// units shared between lines; pushes each complete one that maps units onto units.
    fn extend(&self, i: usize, pi: &mut [u8], out: &mut Vec<Vec<u8>>) {
        let n = self.n;
        if i == n {
            if self.keeps_units(pi) && self.apart.kept_by(|c| self.image(pi, c)) {
                let mut sources = vec![0u8; n];
                for (line, &to) in pi.iter().enumerate() {
                    sources[to as usize] = line as u8;
                }
                out.push(sources);
            }
            return;
        }
        for v in 0..n {
            if pi[..i].contains(&(v as u8)) {
                continue;
            }
            pi[i] = v as u8;
            if self.consistent(pi, i) {
                self.extend(i + 1, pi, out);
            }
        }
        pi[i] = u8::MAX;
    }

    /// Whether line `i`'s new image keeps bands and, cell by cell against every line
    /// placed so far, which cells are in extra units, which share one and which the rule
    /// set relates by position (a map that breaks one never passes [`Self::extend`]'s
    /// final test: without the last, a non-consecutive search listed every box-keeping
    /// permutation, 1,296 a 9×9 axis, 133 M instructions at a fill's start).
    fn consistent(&self, pi: &[u8], i: usize) -> bool {
        let v = pi[i] as usize;
        let alike = |from: usize, a: usize, to: usize, b: usize| {
            (self.mask[from] & self.mask[a] != 0) == (self.mask[to] & self.mask[b] != 0)
                && self.apart.relation(from, a) == self.apart.relation(to, b)
        };
        (0..=i).all(|b| {
            let w = pi[b] as usize;
            (i / self.band == b / self.band) == (v / self.band == w / self.band)
                && (0..self.n).all(|x| {
                    let (from, to) = (self.cell(i, x), self.cell(v, x));
                    (self.mask[from] != 0) == (self.mask[to] != 0)
                        && (0..self.n).all(|y| alike(from, self.cell(b, y), to, self.cell(w, y)))
                })
        })
    }

    /// Where `pi` sends `cell`.
    fn image(&self, pi: &[u8], cell: usize) -> usize {
        let (n, (r, c)) = (self.n, (cell / self.n, cell % self.n));
        match self.axis {
            Axis::Rows => pi[r] as usize * n + c,
            Axis::Columns => r * n + pi[c] as usize,
        }
    }

    /// Whether the complete `pi` maps every extra unit onto one.
    fn keeps_units(&self, pi: &[u8]) -> bool {
        self.unit_list.iter().all(|unit| {
            let image = unit
                .iter()
                .map(|&c| self.image(pi, c as usize) as u16)
                .collect();
            self.units.contains(&sorted(image))
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::grid::{Geometry, Symmetries, Variant, SUPPORTED_SIZES};

    /// Every element maps the units onto units (so a valid grid onto a valid grid), and
    /// the groups have the sizes worked out by hand on 9×9.
    #[test]
    fn line_groups_keep_the_units() {
        for v in Variant::ALL {
            let rules = v.rules();
            if rules.symmetries != Symmetries::Lines {
                continue;
            }
            for n in SUPPORTED_SIZES.into_iter().filter(|&n| rules.made_in(n)) {
                let g = Geometry::for_size(n).unwrap().with_variant(v);
                let group = g.line_group();
                let layout = g.layout();
                let mut units: Vec<Vec<u16>> = layout
                    .extra_units()
                    .map(|u| {
                        let mut cells = layout.unit(u).to_vec();
                        cells.sort_unstable();
                        cells
                    })
                    .collect();
                units.sort();
                for rows in &group.rows {
                    for cols in [&group.cols[0], group.cols.last().unwrap()] {
                        let mut images: Vec<Vec<u16>> = units
                            .iter()
                            .map(|u| {
                                let mut image: Vec<u16> = u
                                    .iter()
                                    .map(|&c| {
                                        let (r, c) = (c as usize / n, c as usize % n);
                                        let r = rows.iter().position(|&s| s as usize == r).unwrap();
                                        let c = cols.iter().position(|&s| s as usize == c).unwrap();
                                        (r * n + c) as u16
                                    })
                                    .collect();
                                image.sort_unstable();
                                image
                            })
                            .collect();
                        images.sort();
                        assert_eq!(images, units, "{v} {n}x{n}");
                        let at = |cell: usize| {
                            let (r, c) = (cell / n, cell % n);
                            let r = rows.iter().position(|&s| s as usize == r).unwrap();
                            let c = cols.iter().position(|&s| s as usize == c).unwrap();
                            r * n + c
                        };
                        let (apart, touching) = (rules.apart, rules.neighbours);
                        for cell in 0..g.cells() {
                            for other in apart.cells(g, cell) {
                                assert!(apart.cells(g, at(cell)).contains(&at(other)), "{v}");
                            }
                            for other in touching.cells(g, cell) {
                                assert!(touching.cells(g, at(cell)).contains(&at(other)), "{v}");
                            }
                        }
                    }
                }
                if n == 9 {
                    let expected = match v.name() {
                        "windoku" => 8,
                        "disjoint-groups" => 36,
                        "center-dot" => 48,
                        // The identity and the mirror: a move's length is kept.
                        "anti-knight" | "anti-king" | "non-consecutive" => 2,
                        _ => 4,
                    };
                    assert_eq!(group.rows.len(), expected, "{v}");
                    assert_eq!(group.cols.len(), expected, "{v}");
                    assert!(group.transpose, "{v}");
                }
            }
        }
    }

    /// The pruned search lists exactly the box-keeping permutations that keep the units
    /// and the related pairs, in the same order: against a filter over all of them, on
    /// 6×6 and 9×9 (1,296 a 9×9 axis).
    #[test]
    fn the_pruned_search_lists_what_a_full_filter_does() {
        use super::{AxisSearch, PairedCells};
        fn every(band: usize, n: usize, pi: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            if pi.len() == n {
                return out.push(pi.clone());
            }
            let i = pi.len();
            for v in 0..n as u8 {
                let same_band = |b: usize| i / band == b / band;
                let kept = !pi.contains(&v)
                    && (0..i).all(|b| same_band(b) == (v as usize / band == pi[b] as usize / band));
                if kept {
                    pi.push(v);
                    every(band, n, pi, out);
                    pi.pop();
                }
            }
        }
        let mut lines = 0;
        for v in Variant::ALL
            .into_iter()
            .filter(|v| v.rules().symmetries == Symmetries::Lines)
        {
            for n in [6, 9].into_iter().filter(|&n| v.rules().made_in(n)) {
                let g = Geometry::for_size(n).unwrap().with_variant(v);
                let (units, apart) = (v.rules().units.cells(g), PairedCells::of(g));
                let group = g.line_group();
                for (axis, found) in [
                    (super::Axis::Rows, &group.rows),
                    (super::Axis::Columns, &group.cols),
                ] {
                    let search = AxisSearch::new(g, &units, &apart, axis);
                    let mut all = Vec::new();
                    every(search.band, n, &mut Vec::new(), &mut all);
                    let kept: Vec<Vec<u8>> = all
                        .into_iter()
                        .filter(|pi| {
                            search.keeps_units(pi) && apart.kept_by(|c| search.image(pi, c))
                        })
                        .map(|pi| {
                            let mut sources = vec![0u8; n];
                            for (line, &to) in pi.iter().enumerate() {
                                sources[to as usize] = line as u8;
                            }
                            sources
                        })
                        .collect();
                    assert_eq!(&kept, found, "{v} {n}x{n}");
                    lines += found.len();
                }
            }
        }
        assert!(lines > 100, "{lines}");
    }
}
