//! Aligned exclusion, Sudoku Explainer's `AlignedExclusion`:
//!
//! - pair (6.2): two cells with two or more candidates each, and the bivalue cells that
//!   see both (at least two of them). A pair of values for the two cells is excluded when
//!   the cells see each other and the values are equal, or when it would take both
//!   candidates of one of those bivalue cells. A candidate of either cell that is in no
//!   remaining pair goes.
//! - triple (7.5): the same over three cells and the cells of two or three candidates that
//!   see all three; the third cell is one of those that the first two see.
//!
//! As in the reference, the cells need not share a unit, and a cell next to an open cell
//! with one candidate is passed over.

use super::Technique;
use crate::grid::CellSet;
use crate::rate::board::{digits, Board};
use crate::rate::memo::PairSearch;
use crate::rate::techniques::step::Step;

/// The base cells of an aligned exclusion of `degree` cells: open, two or more
/// candidates, no single among their peers; each with its excluders, the peers with two to
/// `degree` candidates (at least one). With them, whether no open cell has one candidate:
/// then what a pair of base cells finds depends on what [`PairSearch`] says alone, and
/// the board's pair memo may pass over pairs that found nothing.
fn bases(b: &Board, degree: u32) -> (Vec<(usize, CellSet)>, bool) {
    let open = (0..b.cells()).filter(|&c| b.is_open(c));
    let (mut single, mut small) = (CellSet::default(), CellSet::default());
    for c in open.clone() {
        match b.cand(c).count_ones() {
            1 => single.insert(c),
            k if k <= degree => small.insert(c),
            _ => {}
        }
    }
    // Room for every cell at once (growing the list showed in profiles).
    let mut bases = Vec::with_capacity(b.cells());
    bases.extend(
        open.filter(|&c| b.cand(c).count_ones() >= 2)
            .filter(|&c| b.peer_set(c).and(single).is_empty())
            .map(|c| (c, b.peer_set(c).and(small)))
            .filter(|(_, excluders)| !excluders.is_empty()),
    );
    (bases, single.is_empty())
}

/// The cells of `among` that see two or more of `excluders`: the base cells that share at
/// least two excluders with a base (or the common excluders of two bases) `excluders`,
/// since a base's excluders are its peers of few candidates. A pair or triple with fewer
/// common excluders excludes nothing, so the searches visit only these, in cell order.
fn seeing_two(b: &Board, excluders: CellSet, among: CellSet) -> CellSet {
    let (mut once, mut twice) = (CellSet::default(), CellSet::default());
    for m in excluders.iter() {
        let seen = b.peer_set(m).and(among);
        twice = twice.or(once.and(seen));
        once = once.or(seen);
    }
    twice
}

/// Per cell: its index among `bases` (`usize::MAX` for other cells).
fn index_by_cell(b: &Board, bases: &[(usize, CellSet)]) -> Vec<usize> {
    let mut index_of = vec![usize::MAX; b.cells()];
    for (i, &(c, _)) in bases.iter().enumerate() {
        index_of[c] = i;
    }
    index_of
}

/// The first aligned pair exclusion that removes something.
pub fn aligned_pair_exclusion(b: &Board) -> Option<Step> {
    // Their excluders are the bivalue peers.
    let (bases, remember) = bases(b, 2);
    let stamps = b.pair_stamps();
    // A value of one cell goes only when every value of the other cell (but an equal one)
    // meets a bivalue cell holding both, so that other cell has at most one candidate more
    // than it has bivalue peers: a pair where neither cell is so is passed over.
    let coverable =
        |c: usize, excluders: CellSet| b.cand(c).count_ones() as usize <= excluders.len() + 1;
    let base_set: CellSet = bases.iter().map(|&(c, _)| c).collect();
    let index_of = index_by_cell(b, &bases);
    for &(c1, ex1) in &bases {
        let cover1 = coverable(c1, ex1);
        let earlier = seeing_two(b, ex1, base_set)
            .iter()
            .take_while(|&c0| c0 < c1);
        for c0 in earlier {
            let ex0 = bases[index_of[c0]].1;
            if !cover1 && !coverable(c0, ex0) {
                continue;
            }
            let common = ex0.and(ex1);
            let fewest = b.cand(c0).count_ones().min(b.cand(c1).count_ones()) as usize;
            if common.len() < 2 || common.len() + 1 < fewest {
                continue;
            }
            let search = PairSearch::AlignedPair;
            if remember && b.pair_found_nothing_since(search, &stamps, c0, c1) {
                continue;
            }
            let [keep0, keep1] = pair_allowed_values(b, c0, c1, common);
            let elims: Vec<(usize, u8)> = [(c0, keep0), (c1, keep1)]
                .into_iter()
                .flat_map(|(c, keep)| digits(b.cand(c) & !keep).map(move |d| (c, d)))
                .collect();
            if !elims.is_empty() {
                let mut cells = vec![c0, c1];
                cells.extend(common.iter());
                return Some(Step::new(Technique::AlignedPairExclusion, cells).eliminating(elims));
            }
            if remember {
                b.pair_found_nothing(search, &stamps, c0, c1);
            }
        }
    }
    None
}

/// The values each of the base cells `c0` and `c1` keeps: those in some pair of values not
/// excluded by the bivalue cells `excluders` (a pair equal to one of them takes both its
/// candidates) or, when the cells see each other, by being equal.
///
/// Per value v: the values an excluder pairs v with. A value v of one cell stays when the
/// other cell has a value neither paired with v nor, in a shared unit, v itself.
fn pair_allowed_values(b: &Board, c0: usize, c1: usize, excluders: CellSet) -> [u16; 2] {
    // Digits 1 to 16 (candidate masks are `u16`).
    let mut paired = [0u16; 17];
    for m in excluders.iter() {
        let pair = b.cand(m);
        for v in digits(pair) {
            paired[v as usize] |= pair & !(1 << (v - 1));
        }
    }
    let same_unit = b.sees(c0, c1);
    let keeps = |cell: usize, other: usize| {
        digits(b.cand(cell))
            .filter(|&v| {
                let equal = if same_unit { 1 << (v - 1) } else { 0 };
                b.cand(other) & !(paired[v as usize] | equal) != 0
            })
            .fold(0u16, |keep, v| keep | 1 << (v - 1))
    };
    [keeps(c0, c1), keeps(c1, c0)]
}

/// The first aligned triple exclusion that removes something.
///
/// Triples are visited as a pair of base cells (in base order) and a third that one of
/// them sees, so one triple `a < b < c` (by base order) can come up three times: as
/// (a, b) + c, then (a, c) + b, then (b, c) + a. Whether a triple removes anything does
/// not depend on its order, so a visit after one that already tried it is skipped: the
/// first step found is the same.
pub fn aligned_triple_exclusion(b: &Board) -> Option<Step> {
    let (bases, remember) = bases(b, 3);
    let stamps = b.pair_stamps();
    let index_of = index_by_cell(b, &bases);
    let base_set: CellSet = bases.iter().map(|&(c, _)| c).collect();
    // Whether the visit (x, y) + z happens: z is an excluder of x or of y.
    let visited = |x: usize, y: usize, z: usize| {
        bases[x].1.contains(bases[z].0) || bases[y].1.contains(bases[z].0)
    };
    for (i, &(c0, ex0)) in bases.iter().enumerate() {
        let later = seeing_two(b, ex0, base_set)
            .iter()
            .skip_while(|&c1| c1 <= c0);
        for c1 in later {
            let j = index_of[c1];
            let ex1 = bases[j].1;
            let common01 = ex0.and(ex1);
            let search = PairSearch::AlignedTriple;
            if remember && b.pair_found_nothing_since(search, &stamps, c0, c1) {
                continue;
            }
            // The third cell: a base cell the first two see between them (an excluder of
            // one of them) that sees two or more of their common excluders (fewer exclude
            // nothing). Its excluders are its peers of two or three candidates, as the
            // common ones are, so those it shares are the common ones it sees.
            let mut thirds = ex0.or(ex1).and(base_set);
            thirds.remove(c0);
            thirds.remove(c1);
            for c2 in seeing_two(b, common01, thirds).iter() {
                let k = index_of[c2];
                let tried = match k {
                    k if k > j => false,
                    k if k > i => visited(i, k, j),
                    k => visited(k, i, j) || visited(k, j, i),
                };
                if tried {
                    continue;
                }
                let common = common01.and(bases[k].1);
                debug_assert!(common.len() >= 2);
                if let Some(step) = exclude(b, [c0, c1, c2], common) {
                    return Some(step);
                }
            }
            if remember {
                b.pair_found_nothing(search, &stamps, c0, c1);
            }
        }
    }
    None
}

/// What the aligned triple `cells` with common excluders `common` removes: the values of
/// each cell in no combination left allowed.
///
/// A combination is impossible when it takes every candidate of an excluder. For fixed
/// values of the first two cells, an excluder `m` forbids the third cell's values `v` with
/// `m ⊆ {v0, v1, v}`: every value when `m ⊆ {v0, v1}`, the one value left when one is, none
/// otherwise. So the third cell's allowed values come as one mask per (v0, v1).
fn exclude(b: &Board, cells: [usize; 3], common: CellSet) -> Option<Step> {
    let cand = cells.map(|c| b.cand(c));
    // Only an excluder whose candidates all lie among the three cells' can be taken whole
    // (about half of them where the rater gets this far). Filled in place: at most a
    // cell's peers, under 70 on 16×16 with diagonals (collecting moved the whole array).
    let union = cand[0] | cand[1] | cand[2];
    let mut locks = arrayvec::ArrayVec::<u16, 128>::new();
    for c in common.iter() {
        if b.cand(c) & !union == 0 {
            locks.push(b.cand(c));
        }
    }
    let sees = [
        b.sees(cells[0], cells[1]),
        b.sees(cells[0], cells[2]),
        b.sees(cells[1], cells[2]),
    ];
    let keep = allowed_values(cand, sees, &locks)?;
    let elims: Vec<(usize, u8)> = cells
        .iter()
        .zip(keep)
        .flat_map(|(&c, keep)| digits(b.cand(c) & !keep).map(move |d| (c, d)))
        .collect();
    if elims.is_empty() {
        return None;
    }
    let mut pattern = cells.to_vec();
    pattern.extend(common.iter());
    Some(Step::new(Technique::AlignedTripleExclusion, pattern).eliminating(elims))
}

/// The values of each of three cells (candidates `cand`; `sees` for the pairs 01, 02,
/// 12) that some allowed combination uses: one that repeats no value between cells that
/// see each other and takes every candidate of no excluder (`locks`). `None` as soon as
/// every value is used (nothing can go). The three masks are kept side by side in one
/// word, so "every value used" is one comparison.
fn allowed_values(cand: [u16; 3], sees: [bool; 3], locks: &[u16]) -> Option<[u16; 3]> {
    let packed = |m: [u16; 3]| u64::from(m[0]) | u64::from(m[1]) << 16 | u64::from(m[2]) << 32;
    let all = packed(cand);
    let mut keep = 0u64;
    for v0 in digits(cand[0]) {
        let bit0 = 1u16 << (v0 - 1);
        // Once this value and every value of the other two cells are used, its further
        // combinations can add nothing.
        let settled = packed([bit0, cand[1], cand[2]]);
        for v1 in digits(cand[1]) {
            if v0 == v1 && sees[0] {
                continue;
            }
            let bit1 = 1u16 << (v1 - 1);
            let pair = bit0 | bit1;
            let mut allowed = cand[2];
            if sees[1] {
                allowed &= !bit0;
            }
            if sees[2] {
                allowed &= !bit1;
            }
            for &m in locks {
                let rest = m & !pair;
                if rest == 0 {
                    allowed = 0;
                    break;
                }
                if rest.is_power_of_two() {
                    allowed &= !rest;
                }
            }
            if allowed != 0 {
                keep |= packed([bit0, bit1, allowed]);
                if keep == all {
                    return None;
                }
                if keep & settled == settled {
                    break;
                }
            }
        }
    }
    Some([keep as u16, (keep >> 16) as u16, (keep >> 32) as u16])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_line;
    use crate::rate::{apply, rate};

    /// The mask form of the combination check gives what trying every (v0, v1, v2)
    /// against every excluder gives.
    #[test]
    fn allowed_values_match_trying_every_combination() {
        let mut rng = crate::rng::Rand::new(11);
        let (mut narrowed, mut full) = (0, 0);
        for _ in 0..20_000 {
            let cand: [u16; 3] = std::array::from_fn(|_| {
                let mut m = 0u16;
                while m.count_ones() < 2 {
                    m |= 1 << rng.below(9);
                }
                m
            });
            let sees: [bool; 3] = std::array::from_fn(|_| rng.below(2) == 1);
            let locks: Vec<u16> = (0..2 + rng.below(3))
                .map(|_| {
                    let mut m = 0u16;
                    while m.count_ones() < 2 + rng.below(2) {
                        m |= 1 << rng.below(9);
                    }
                    m
                })
                .collect();
            let mut keep = [0u16; 3];
            for v0 in digits(cand[0]) {
                for v1 in digits(cand[1]) {
                    for v2 in digits(cand[2]) {
                        let clash =
                            (v0 == v1 && sees[0]) || (v0 == v2 && sees[1]) || (v1 == v2 && sees[2]);
                        let values = (1u16 << (v0 - 1)) | (1 << (v1 - 1)) | (1 << (v2 - 1));
                        if clash || locks.iter().any(|&m| m & !values == 0) {
                            continue;
                        }
                        keep[0] |= 1 << (v0 - 1);
                        keep[1] |= 1 << (v1 - 1);
                        keep[2] |= 1 << (v2 - 1);
                    }
                }
            }
            let expected = (keep != cand).then_some(keep);
            assert_eq!(
                allowed_values(cand, sees, &locks),
                expected,
                "cand {cand:?} sees {sees:?} locks {locks:?}"
            );
            match expected {
                Some(_) => narrowed += 1,
                None => full += 1,
            }
        }
        assert!(
            narrowed > 1000 && full > 1000,
            "{narrowed} narrowed, {full} full"
        );
    }

    /// The triple step of a reference puzzle (SE 7.5): three base cells, two or more cells
    /// of two or three candidates that see all three, and removals from the three only.
    #[test]
    fn aligned_triple_is_three_cells_and_their_common_excluders() {
        let line =
            "450010006030240000010009300900000700100408009005000008001500080000086010800030075";
        let puzzle = parse_line(line).unwrap();
        let mut b = Board::new(&puzzle);
        let mut seen = false;
        for step in rate(&puzzle).steps {
            if step.technique == Technique::AlignedTripleExclusion {
                seen = true;
                let (cells, excluders) = step.cells.split_at(3);
                assert!(excluders.len() >= 2);
                for &e in excluders {
                    assert!((2..=3).contains(&b.cand(e).count_ones()));
                    assert!(cells.iter().all(|&c| b.sees(c, e)));
                }
                for &(c, d) in &step.eliminations {
                    assert!(cells.contains(&c) && b.cand(c) & (1 << (d - 1)) != 0);
                }
                // The finder on that board gives the same step.
                assert_eq!(aligned_triple_exclusion(&b), Some(step.clone()));
            }
            apply(&mut b, &step);
        }
        assert!(seen, "the reference puzzle needs an aligned triple");
    }
}
