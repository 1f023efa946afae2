//! The full-group forms as properties: a solution grid and any image of it under the
//! sudoku group share one form; a puzzle and any image of it share one `--full-puzzle`
//! form. Images are made here, apart from the production code: random band, row, stack
//! and column orders, transposition and relabelling.

use proptest::prelude::*;
use sudoku_bank::canon::{minlex_puzzle, minlex_solution};
use sudoku_bank::generate::mother_grid;
use sudoku_bank::grid::{Geometry, Grid};

/// A permutation of `0..k` from a list of swaps.
fn order(k: usize, swaps: &[usize]) -> Vec<usize> {
    let mut v: Vec<usize> = (0..k).collect();
    for (i, &s) in swaps.iter().enumerate() {
        v.swap(i % k, s % k);
    }
    v
}

/// The image of `grid` under the element the numbers in `pick` choose.
fn image(grid: &Grid, pick: &[usize]) -> Grid {
    let g = grid.geometry();
    let n = g.n();
    let (br, bc) = (g.box_rows(), g.box_cols());
    let bands = order(n / br, &pick[0..4]);
    let stacks = order(n / bc, &pick[4..8]);
    let rows: Vec<usize> = bands
        .iter()
        .enumerate()
        .flat_map(|(i, &b)| {
            order(br, &pick[8 + i * 2..10 + i * 2])
                .into_iter()
                .map(move |r| b * br + r)
        })
        .collect();
    let cols: Vec<usize> = stacks
        .iter()
        .enumerate()
        .flat_map(|(i, &s)| {
            order(bc, &pick[16 + i * 2..18 + i * 2])
                .into_iter()
                .map(move |c| s * bc + c)
        })
        .collect();
    let digits = order(n, &pick[24..40]);
    let transpose = g.square_boxes() && pick[40] % 2 == 1;
    let cells = (0..n * n)
        .map(|i| {
            let (r, c) = (rows[i / n], cols[i % n]);
            let (r, c) = if transpose { (c, r) } else { (r, c) };
            match grid.get(r * n + c) {
                0 => 0,
                d => digits[d as usize - 1] as u8 + 1,
            }
        })
        .collect();
    Grid::from_cells(g, cells)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_grid_and_its_images_share_one_form(
        size in prop::sample::select(vec![4usize, 6, 9, 12]),
        seed in 0u64..1_000_000,
        pick in prop::collection::vec(0usize..1000, 41),
    ) {
        let g = Geometry::for_size(size).unwrap();
        let grid = mother_grid(g, seed, None).unwrap();
        prop_assert_eq!(minlex_solution(&grid), minlex_solution(&image(&grid, &pick)));
    }

    #[test]
    fn a_puzzle_and_its_images_share_one_form(
        size in prop::sample::select(vec![4usize, 6, 9]),
        seed in 0u64..1_000_000,
        holes in prop::collection::vec(any::<bool>(), 81),
        pick in prop::collection::vec(0usize..1000, 41),
    ) {
        let g = Geometry::for_size(size).unwrap();
        let full = mother_grid(g, seed, None).unwrap();
        let cells = full.cells().iter().zip(holes.iter().cycle())
            .map(|(&d, &hole)| if hole { 0 } else { d }).collect();
        let puzzle = Grid::from_cells(g, cells);
        prop_assert_eq!(minlex_puzzle(&puzzle), minlex_puzzle(&image(&puzzle, &pick)));
    }
}
