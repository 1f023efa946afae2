//! Killer cages grown on a solution grid: the killer variant's step between the solution
//! grid and digging.
//!
//! Cages are grown from cells in a random order, each toward a random size within the
//! configured range, by adding a random free orthogonal neighbour whose digit the cage
//! does not hold yet. A cage boxed in below the smallest size is merged into a neighbour
//! when their digits differ and the union stays within the largest size; otherwise it
//! stays small. The sums are the solution's.
//!
//! When the cages alone leave more than one solution, the dig (see
//! [`crate::generate::Digger`]) splits a cage where a second solution differs from the
//! base grid ([`split_at`]), a few times, before it falls back to givens: killer puzzles
//! are usually given without digits, and a split near the ambiguity most often removes it.
//! How often zero givens are reached: `docs/benchmarks.md`, History. A puzzle that
//! rates below its tier has two neighbouring cages merged ([`crate::generate::Digger::merge_cages`]).

use crate::grid::{orthogonal_neighbours, CageError, Cages, Grid, MAX_CAGES};
use crate::rng::Rand;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// The range of cage sizes to grow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CageSizes {
    /// Smallest size aimed at (a boxed-in cage may end smaller).
    pub min: u8,
    /// Largest size.
    pub max: u8,
}

impl CageSizes {
    /// The default: cages of 2 to 5 cells.
    pub const DEFAULT: CageSizes = CageSizes { min: 2, max: 5 };

    /// Sizes `[min, max]`, checked against the largest grid side `n`.
    pub fn new(min: usize, max: usize, n: usize) -> Result<CageSizes, String> {
        if min == 0 || min > max || max > n {
            return Err(format!(
                "cage sizes [{min}, {max}] must satisfy 1 <= min <= max <= {n}"
            ));
        }
        Ok(CageSizes {
            min: min as u8,
            max: max as u8,
        })
    }
}

impl fmt::Display for CageSizes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.min, self.max)
    }
}

impl FromStr for CageSizes {
    type Err = String;
    /// `2-5`, as [`CageSizes`] prints itself.
    fn from_str(s: &str) -> Result<CageSizes, String> {
        let parse = |t: &str| t.trim().parse::<usize>().ok();
        match s.split_once('-').map(|(a, b)| (parse(a), parse(b))) {
            Some((Some(min), Some(max))) => CageSizes::new(min, max, 16),
            _ => Err(format!(
                "cage sizes '{s}' must be written MIN-MAX, e.g. 2-5"
            )),
        }
    }
}

/// Grows cages on the full grid `solution` (its digits give the sums). `None` when the
/// partition needs more cages than a puzzle may have ([`MAX_CAGES`]); the caller then
/// tries another seed.
pub fn grow_cages(solution: &Grid, sizes: CageSizes, rng: &mut Rand) -> Option<Arc<Cages>> {
    let g = solution.geometry();
    let (n, cells) = (g.n(), g.cells());
    // A grid smaller than the largest size caps it at its side.
    let sizes = CageSizes {
        min: sizes.min.min(n as u8),
        max: sizes.max.min(n as u8),
    };
    let digit = |c: usize| 1u32 << solution.get(c);
    let mut order: Vec<usize> = (0..cells).collect();
    rng.shuffle(&mut order);
    let mut label = vec![usize::MAX; cells];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    for &start in &order {
        if label[start] != usize::MAX {
            continue;
        }
        let k = cages.len();
        let span = u32::from(sizes.max - sizes.min) + 1;
        let target = sizes.min as usize + rng.below(span) as usize;
        let (mut cage, mut held) = (vec![start], digit(start));
        label[start] = k;
        let mut frontier = Vec::new();
        while cage.len() < target {
            frontier.clear();
            for &c in &cage {
                for next in orthogonal_neighbours(n, c) {
                    if label[next] == usize::MAX
                        && held & digit(next) == 0
                        && !frontier.contains(&next)
                    {
                        frontier.push(next);
                    }
                }
            }
            if frontier.is_empty() {
                break;
            }
            let next = frontier[rng.below(frontier.len() as u32) as usize];
            label[next] = k;
            held |= digit(next);
            cage.push(next);
        }
        cages.push(cage);
    }
    merge_small(solution, sizes, &mut cages, &mut label);
    if cages.iter().filter(|c| !c.is_empty()).count() > MAX_CAGES {
        return None;
    }
    let sums_by_label: Vec<u32> = cages
        .iter()
        .map(|c| c.iter().map(|&x| u32::from(solution.get(x))).sum())
        .collect();
    let made: Result<Cages, CageError> = Cages::from_labels(g, &label, |l| sums_by_label[l]);
    Some(Arc::new(made.expect(
        "grown cages are connected, digit-distinct and summed",
    )))
}

/// Splits the cage of `cell` in two connected cages, one of them `cell` with a neighbour
/// in its cage (or `cell` alone when no such pair leaves the rest connected), sums from
/// `solution`. `None` when the cage is one cell, or no split keeps both parts connected,
/// or the grid would have too many cages.
pub fn split_at(cages: &Cages, solution: &Grid, cell: usize, rng: &mut Rand) -> Option<Cages> {
    let n = solution.geometry().n();
    let k = cages.cage_of(cell);
    let members: Vec<usize> = cages.cells(k).iter().map(|&c| c as usize).collect();
    if members.len() < 2 || cages.count() >= MAX_CAGES {
        return None;
    }
    let mut mates: Vec<usize> = orthogonal_neighbours(n, cell)
        .filter(|m| members.contains(m))
        .collect();
    rng.shuffle(&mut mates);
    let pieces = mates
        .into_iter()
        .map(|m| vec![cell, m])
        .chain(std::iter::once(vec![cell]));
    for piece in pieces {
        let rest: Vec<usize> = members
            .iter()
            .copied()
            .filter(|c| !piece.contains(c))
            .collect();
        if rest.is_empty() || !connected(n, &rest) {
            continue;
        }
        let mut labels: Vec<usize> = (0..solution.cells().len())
            .map(|c| cages.cage_of(c))
            .collect();
        for &c in &piece {
            labels[c] = cages.count();
        }
        let sum_of = |cells: &[usize]| cells.iter().map(|&c| u32::from(solution.get(c))).sum();
        let sums = |l: usize| match l {
            l if l == cages.count() => sum_of(&piece),
            l if l == k => sum_of(&rest),
            l => cages.sum(l),
        };
        return Cages::from_labels(solution.geometry(), &labels, sums).ok();
    }
    None
}

/// Whether `cells` form one orthogonally connected group.
fn connected(n: usize, cells: &[usize]) -> bool {
    let mut reached = vec![cells[0]];
    let mut i = 0;
    while i < reached.len() {
        let c = reached[i];
        i += 1;
        for next in orthogonal_neighbours(n, c) {
            if cells.contains(&next) && !reached.contains(&next) {
                reached.push(next);
            }
        }
    }
    reached.len() == cells.len()
}

/// Merges each cage below the smallest size into the smallest neighbouring cage whose
/// digits differ from its own and with which it stays within the largest size.
fn merge_small(solution: &Grid, sizes: CageSizes, cages: &mut [Vec<usize>], label: &mut [usize]) {
    let n = solution.geometry().n();
    let digits = |cage: &[usize]| cage.iter().fold(0u32, |m, &c| m | 1 << solution.get(c));
    for k in 0..cages.len() {
        let size = cages[k].len();
        if size == 0 || size >= sizes.min as usize {
            continue;
        }
        let mine = digits(&cages[k]);
        let mut best: Option<usize> = None;
        for &c in &cages[k] {
            for next in orthogonal_neighbours(n, c) {
                let other = label[next];
                let fits = other != k
                    && size + cages[other].len() <= sizes.max as usize
                    && digits(&cages[other]) & mine == 0;
                if fits && best.is_none_or(|b| cages[other].len() < cages[b].len()) {
                    best = Some(other);
                }
            }
        }
        if let Some(other) = best {
            let moved = std::mem::take(&mut cages[k]);
            for &c in &moved {
                label[c] = other;
            }
            cages[other].extend(moved);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::pattern_grid;
    use crate::grid::Geometry;

    #[test]
    fn cages_cover_the_grid_within_sizes_and_keep_digits_apart() {
        for n in [4, 6, 9] {
            let solution = pattern_grid(Geometry::for_size(n).unwrap());
            for seed in 0..20 {
                let cages = grow_cages(&solution, CageSizes::DEFAULT, &mut Rand::new(seed))
                    .expect("few cages");
                let mut seen = vec![0; solution.cells().len()];
                for k in 0..cages.count() {
                    let cells = cages.cells(k);
                    assert!(cells.len() <= 5.min(n), "{n}: cage of {}", cells.len());
                    let mut held = 0u32;
                    for &c in cells {
                        seen[c as usize] += 1;
                        let bit = 1 << solution.get(c as usize);
                        assert_eq!(held & bit, 0, "digit repeats in a cage");
                        held |= bit;
                    }
                    let sum: u32 = cells
                        .iter()
                        .map(|&c| u32::from(solution.get(c as usize)))
                        .sum();
                    assert_eq!(sum, cages.sum(k));
                }
                assert!(seen.iter().all(|&s| s == 1));
                let with = solution.clone().with_cages(cages);
                assert_eq!(with.find_conflict(), None);
            }
        }
    }

    #[test]
    fn same_seed_same_cages() {
        let solution = pattern_grid(Geometry::CLASSIC);
        let a = grow_cages(&solution, CageSizes::DEFAULT, &mut Rand::new(7));
        let b = grow_cages(&solution, CageSizes::DEFAULT, &mut Rand::new(7));
        let c = grow_cages(&solution, CageSizes::DEFAULT, &mut Rand::new(8));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn sizes_parse_and_refuse() {
        assert_eq!("2-5".parse(), Ok(CageSizes::DEFAULT));
        assert!("5-2".parse::<CageSizes>().is_err());
        assert!("0-3".parse::<CageSizes>().is_err());
        assert!("x".parse::<CageSizes>().unwrap_err().contains("MIN-MAX"));
    }
}
