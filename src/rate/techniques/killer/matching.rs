//! Digit sets that fit cells: the combinations of a sum, and which digit each cell takes
//! in some way of giving the cells a set (matchings by augmenting paths).

use crate::grid::Combinations;
use crate::rate::board::{digits, Board};

/// The combinations of distinct digits within `available` that make `sum` in the open
/// cells `open` and can go one to a cell among their candidates.
pub(super) fn fitting<'a>(
    b: &'a Board,
    open: &'a [usize],
    sum: u32,
    available: u16,
) -> impl Iterator<Item = u16> + 'a {
    within(b, open.len(), sum, available).filter(move |&set| fits(b, open, set))
}

/// The combinations of `size` distinct digits within `available` that make `sum`.
pub(super) fn within(
    b: &Board,
    size: usize,
    sum: u32,
    available: u16,
) -> impl Iterator<Item = u16> {
    Combinations::of(b.n())
        .of_size_and_sum(size, sum)
        .iter()
        .copied()
        .filter(move |&set| set & !available == 0)
}

/// Whether the digits of `set` (as many as `cells`) can go one to each cell of `cells`
/// among their candidates.
pub(super) fn fits(b: &Board, cells: &[usize], set: u16) -> bool {
    debug_assert_eq!(set.count_ones() as usize, cells.len());
    // Most often, early on: every cell can take every digit of the set.
    if cells.iter().all(|&c| b.cand(c) & set == set) {
        return true;
    }
    let (options, k) = options_within(b, cells, set);
    matching(&options[..k]).is_some()
}

/// Each cell's candidates within `set` (a digit per cell at most: `set` has at most 16).
pub(super) fn options_within(b: &Board, cells: &[usize], set: u16) -> ([u16; 16], usize) {
    let mut options = [0u16; 16];
    for (o, &c) in options.iter_mut().zip(cells) {
        *o = b.cand(c) & set;
    }
    (options, cells.len())
}

/// A digit of its `options` for each cell, all different, as each digit's cell (`owner`,
/// [`NO_CELL`] for digits no cell takes): a matching of cells to digits, grown one cell
/// at a time by augmenting paths (Kuhn's algorithm). Trying each digit of each cell in
/// turn took time exponential in the cells, and the 45 rule asks this of up to a unit's.
pub(super) fn matching(options: &[u16]) -> Option<[u8; 16]> {
    let mut padded = [0u16; 16];
    padded[..options.len()].copy_from_slice(options);
    let mut owner = [NO_CELL; 16];
    (0..options.len())
        .all(|i| augment(i, &padded, &mut owner, &mut 0))
        .then_some(owner)
}

/// For each of `cells`, the digits it takes in some way of giving the cells, one digit
/// each among their candidates, all the digits of one of `sets` (each as many digits as
/// cells; sets that cannot go to the cells so add nothing). Exact per cell, as the 45
/// rule's trial of every assignment is: a union over the sets alone would keep less the
/// more cells are placed, and a rule that can lose an elimination as the grid fills in
/// could leave a rating stuck where it once was not.
///
/// Per set, from one matching: cell `i` can take another digit `d` when `d`'s cell can
/// move on along the matching's alternating paths to the digit `i` gives up.
pub(super) fn taken_in(b: &Board, cells: &[usize], sets: impl Iterator<Item = u16>) -> Vec<u16> {
    let mut taken = vec![0u16; cells.len()];
    for set in sets {
        let (options, k) = options_within(b, cells, set);
        if options[..k].iter().all(|&o| o == set) {
            taken.iter_mut().for_each(|t| *t |= set);
            continue;
        }
        // A set can add only each cell's options: none new, no matching needed.
        if options[..k].iter().zip(&taken).all(|(&o, &t)| o & !t == 0) {
            continue;
        }
        let Some(owner) = matching(&options[..k]) else {
            continue;
        };
        // `reach[d]`: the digits the cell holding `d` can pass on to, directly or along
        // other cells in turn.
        let mut reach = [0u16; 16];
        for d in digits(set) {
            let d = usize::from(d - 1);
            reach[d] = options[usize::from(owner[d])];
        }
        loop {
            let mut grew = false;
            for d in digits(set) {
                let d = usize::from(d - 1);
                let wider = digits(reach[d]).fold(reach[d], |m, e| m | reach[usize::from(e - 1)]);
                grew |= wider != reach[d];
                reach[d] = wider;
            }
            if !grew {
                break;
            }
        }
        let mut held = [0u16; 16];
        for d in digits(set) {
            held[usize::from(owner[usize::from(d - 1)])] = 1 << (d - 1);
        }
        for i in 0..k {
            taken[i] |= held[i];
            for d in digits(options[i] & !held[i]) {
                if reach[usize::from(d - 1)] & held[i] != 0 {
                    taken[i] |= 1 << (d - 1);
                }
            }
        }
    }
    taken
}

/// No cell holds the digit yet (in [`augment`]'s `owner`).
pub(super) const NO_CELL: u8 = u8::MAX;

/// Gives cell `i` one of its `options` (digit bits): a free digit, or one whose owner
/// can move to another digit in turn; `tried` marks the digits this search has visited.
pub(super) fn augment(
    i: usize,
    options: &[u16; 16],
    owner: &mut [u8; 16],
    tried: &mut u16,
) -> bool {
    loop {
        let free = options[i] & !*tried;
        if free == 0 {
            return false;
        }
        let bit = free & free.wrapping_neg();
        *tried |= bit;
        let d = bit.trailing_zeros() as usize;
        if owner[d] == NO_CELL || augment(owner[d] as usize, options, owner, tried) {
            owner[d] = i as u8;
            return true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rand;

    /// Whether some order of `set`'s digits goes one to a cell among `cand`: every order
    /// tried.
    fn brute_fits(cand: &[u16], set: u16) -> bool {
        let Some((&first, rest)) = cand.split_first() else {
            return set == 0;
        };
        digits(first & set).any(|d| brute_fits(rest, set & !(1 << (d - 1))))
    }

    /// `times` empty 9x9 boards, each with 1 to 9 cells, one per row, left random
    /// candidates: `test` gets the stream (for more draws), the board, the cells and their
    /// candidates.
    fn on_random_cells(
        seed: u64,
        times: usize,
        mut test: impl FnMut(&mut Rand, &Board, &[usize], &[u16]),
    ) {
        let mut rng = Rand::new(seed);
        for _ in 0..times {
            let (b, cells) = random_cells(&mut rng);
            let cand: Vec<u16> = cells.iter().map(|&c| b.cand(c)).collect();
            test(&mut rng, &b, &cells, &cand);
        }
    }

    fn random_cells(rng: &mut Rand) -> (Board, Vec<usize>) {
        let mut b = Board::new(&crate::grid::Grid::empty(crate::grid::Geometry::CLASSIC));
        let count = 1 + rng.below(9) as usize;
        let cells: Vec<usize> = (0..count)
            .map(|i| crate::grid::Cell::new(i, rng.below(9) as usize).index(9))
            .collect();
        for &c in &cells {
            let keep = 1 + rng.below(511) as u16;
            for d in digits(0x1ff & !keep) {
                b.eliminate(c, d);
            }
        }
        (b, cells)
    }

    /// A random set of `count` digits.
    fn random_set(rng: &mut Rand, count: usize) -> u16 {
        let mut set = 0u16;
        while (set.count_ones() as usize) < count {
            set |= 1 << rng.below(9);
        }
        set
    }

    #[test]
    fn fits_matches_trying_every_order() {
        let (mut yes, mut no) = (0, 0);
        on_random_cells(8, 5000, |rng, b, cells, cand| {
            let set = random_set(rng, cells.len());
            let expected = brute_fits(cand, set);
            assert_eq!(fits(b, cells, set), expected, "{cand:?} {set:#b}");
            if expected {
                yes += 1;
            } else {
                no += 1;
            }
        });
        assert!(yes > 500 && no > 500, "{yes} fit, {no} do not");
    }

    /// Each cell's digits in some order of `set`'s digits, one to a cell among `cand`:
    /// every order tried.
    fn brute_taken(cand: &[u16], set: u16, chosen: &mut Vec<u8>, taken: &mut [u16]) {
        let Some(&here) = cand.get(chosen.len()) else {
            for (t, &d) in taken.iter_mut().zip(chosen.iter()) {
                *t |= 1 << (d - 1);
            }
            return;
        };
        let used = chosen.iter().fold(0u16, |m, &d| m | 1 << (d - 1));
        for d in digits(here & set & !used) {
            chosen.push(d);
            brute_taken(cand, set, chosen, taken);
            chosen.pop();
        }
    }

    /// The 45 rule's per-cell digits for distinct cells match trying every order, on
    /// random candidates and sets (one set and two at a time).
    #[test]
    fn taken_in_matches_trying_every_order() {
        let (mut narrowed, mut cases) = (0, 0);
        on_random_cells(13, 4000, |rng, b, cells, cand| {
            let count = cells.len();
            let sets = [random_set(rng, count), random_set(rng, count)];
            for many in [1, 2] {
                let mut expected = vec![0u16; count];
                for &set in &sets[..many] {
                    brute_taken(cand, set, &mut Vec::new(), &mut expected);
                }
                let found = taken_in(b, cells, sets[..many].iter().copied());
                assert_eq!(found, expected, "{cand:?} {:?}", &sets[..many]);
                cases += 1;
                // Cells that keep less than a union over the fitting sets would.
                let union = sets[..many]
                    .iter()
                    .filter(|&&s| brute_fits(cand, s))
                    .fold(0, |m, &s| m | s);
                narrowed += usize::from(cand.iter().zip(&expected).any(|(&c, &t)| c & union != t));
            }
        });
        assert!(
            narrowed > 500,
            "only {narrowed} of {cases} cases kept less than the union"
        );
    }
}
