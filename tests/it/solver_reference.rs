//! The solver against the public puzzle sets in ../shared/data/solver.

use crate::common::{data, puzzles};
use sudoku_bank::grid::parse_line;
use sudoku_bank::solver::{count_solutions, Solver};

/// Both searches: the measured one (the bank's effort; its solution checked) and the
/// fastest (uniqueness checks, which keep no solution).
fn assert_all_unique(rel: &str) {
    let set = puzzles(rel);
    assert!(!set.is_empty());
    for p in &set {
        let r = count_solutions(p, 2);
        assert_eq!(r.count, 1, "{rel}: {p}");
        let s = r.first.unwrap();
        assert!(
            s.is_full() && s.find_conflict().is_none() && p.is_consistent_with(&s),
            "{rel}: {p}"
        );
        let fast = Solver::new().count_fast(p, 2).unwrap();
        assert_eq!((fast.count, fast.first), (1, None), "{rel}: {p}");
    }
}

/// The fastest search's tree is the smaller on hard puzzles: the reason it exists
/// (`search/configurations.rs`). Node counts, not times.
#[test]
fn the_fastest_search_takes_fewer_nodes_on_hard_puzzles() {
    let solver = Solver::new();
    let (mut measured, mut fastest) = (0, 0);
    for p in &puzzles("solver/magictour_top1465.txt") {
        measured += solver.count(p, 2).unwrap().stats.nodes;
        fastest += solver.count_fast(p, 2).unwrap().stats.nodes;
    }
    assert!(
        fastest * 10 < measured * 9,
        "{fastest} nodes against {measured}"
    );
}

#[test]
fn every_17_clue_puzzle_is_unique() {
    assert_all_unique("solver/17_clue.txt");
}

#[test]
fn every_top1465_puzzle_is_unique() {
    assert_all_unique("solver/magictour_top1465.txt");
}

#[test]
#[ignore = "slow (15 s): .ci/run runs it with --include-ignored"]
fn every_forum_hardest_puzzle_is_unique() {
    assert_all_unique("solver/forum_hardest_1905_11plus.txt");
}

#[test]
fn every_hardest_1106_puzzle_is_unique() {
    assert_all_unique("solver/hardest_1106.txt");
}

#[test]
fn every_serg_puzzle_has_several_solutions() {
    let set = puzzles("solver/serg_multi_solution.txt");
    assert_eq!(set.len(), 10_000, "the whole set is read");
    for p in &set {
        assert_eq!(count_solutions(p, 2).count, 2, "{p}");
        assert_eq!(Solver::new().count_fast(p, 2).unwrap().count, 2, "{p}");
    }
}

/// The reference's exact counts (`multi_solution_counts.tsv`): each puzzle with its count.
fn reference_counts() -> Vec<(String, sudoku_bank::grid::Grid, u64)> {
    let text = std::fs::read_to_string(data("solver/multi_solution_counts.tsv")).unwrap();
    let counts: Vec<_> = text
        .lines()
        .map(|line| {
            let (puzzle, count) = line.split_once('\t').unwrap();
            let p = parse_line(puzzle).unwrap();
            (puzzle.to_string(), p, count.trim().parse().unwrap())
        })
        .collect();
    assert_eq!(counts.len(), 200, "the whole file is read");
    counts
}

#[test]
#[ignore = "slow (80 s): .ci/run runs it with --include-ignored"]
fn exact_counts_agree_with_reference() {
    for (puzzle, p, count) in reference_counts() {
        // Counts of 1,000,000 are capped in the reference: reaching the cap agrees.
        let limit = if count >= 1_000_000 {
            1_000_000
        } else {
            count + 1
        };
        assert_eq!(count_solutions(&p, limit).count, count, "{puzzle}");
    }
}

/// The fastest search counts every solution once: the reference's exact counts up to
/// 100,000 (70 of them; the rest in the slow test above, for the measured search).
#[test]
fn the_fastest_search_counts_like_the_reference() {
    let small: Vec<_> = reference_counts()
        .into_iter()
        .filter(|&(_, _, count)| count <= 100_000)
        .collect();
    assert_eq!(small.len(), 70);
    for (puzzle, p, count) in small {
        let found = Solver::new().count_fast(&p, count + 1).unwrap();
        assert_eq!(found.count, count, "{puzzle}");
    }
}
