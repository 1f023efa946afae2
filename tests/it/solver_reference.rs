//! The solver against the public puzzle sets in ../shared/data/solver.

use crate::common::{data, puzzles};
use sudoku_bank::grid::parse_line;
use sudoku_bank::solver::count_solutions;

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
    }
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
    }
}

#[test]
#[ignore = "slow (80 s): .ci/run runs it with --include-ignored"]
fn exact_counts_agree_with_reference() {
    let text = std::fs::read_to_string(data("solver/multi_solution_counts.tsv")).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let (puzzle, count) = line.split_once('\t').unwrap();
        let count: u64 = count.trim().parse().unwrap();
        let p = parse_line(puzzle).unwrap();
        // Counts of 1,000,000 are capped in the reference: reaching the cap agrees.
        let limit = if count >= 1_000_000 {
            1_000_000
        } else {
            count + 1
        };
        assert_eq!(count_solutions(&p, limit).count, count, "{puzzle}");
        checked += 1;
    }
    assert_eq!(checked, 200);
}
