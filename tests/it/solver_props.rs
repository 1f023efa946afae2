//! The band solver against a plain backtracking counter, on random partial grids of the
//! small sizes (and well-filled 9x9 ones), clashing clues included, under the classic
//! and the diagonal rules.

use crate::common::brute_count;
use proptest::prelude::*;
use sudoku_bank::generate::{generate, DigStop, Route, Spec, Strategy};
use sudoku_bank::grid::{Geometry, Grid, Variant};
use sudoku_bank::solver::count_solutions;

/// A solution grid of `size` with each cell kept with probability `keep` (per mille),
/// then one cell overwritten with `digit` when `tamper` (possibly a clash or a dead end).
fn partial(size: usize, seed: u64, keep: u32, tamper: Option<(usize, u8)>) -> Grid {
    let g = Geometry::for_size(size).unwrap();
    let spec = Spec {
        geometry: g,
        route: Route::Transform,
        strategy: Strategy::Random,
        stop: DigStop::Clues(g.cells() - 1),
        failure_budget: None,
        cage_sizes: sudoku_bank::generate::CageSizes::DEFAULT,
    };
    let solution = generate(&spec, seed, None).unwrap().solution;
    let mut state = seed | 1;
    let mut cells: Vec<u8> = solution
        .cells()
        .iter()
        .map(|&v| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if (state % 1000) < keep as u64 {
                v
            } else {
                0
            }
        })
        .collect();
    if let Some((cell, digit)) = tamper {
        cells[cell % g.cells()] = digit % size as u8 + 1;
    }
    Grid::from_cells(g, cells)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]
    #[test]
    fn counts_match_plain_backtracking(
        size in prop::sample::select(vec![4usize, 6, 9]),
        seed in any::<u64>(),
        keep in 0u32..1000,
        tamper in prop::option::of((0usize..81, any::<u8>())),
        variant in prop::sample::select(Variant::ALL.to_vec()),
    ) {
        // 9x9 keeps at least 55 % so the plain counter stays quick.
        let keep = if size == 9 { 550 + keep * 45 / 100 } else { keep };
        let mut p = partial(size, seed, keep, tamper);
        // Every rule set made in the size, but cages (their sums need their own counter)
        // and jigsaw regions (tests/it/jigsaw.rs has their counter).
        if variant.rules().made_in(size) && !variant.has_cages() && !variant.rules().regions_per_puzzle() {
            p = p.with_variant(variant);
        }
        let limit = 40;
        let expected = if p.find_conflict().is_some() {
            0 // clashing clues: the plain counter only checks the digits it places
        } else {
            brute_count(p.geometry(), &mut p.cells().to_vec(), limit)
        };
        let counted = count_solutions(&p, limit);
        prop_assert_eq!(counted.count, expected, "{}", p);
        if let Some(first) = &counted.first {
            prop_assert!(first.is_full() && first.find_conflict().is_none());
            prop_assert!(p.is_consistent_with(first));
        }
    }
}
