//! Generation: every puzzle unique, symmetric, minimal when asked, deterministic.

use crate::common::{bank, stderr, stdout};
use proptest::prelude::*;
use proptest::strategy::Strategy as _;
use sudoku_bank::generate::{generate, is_minimal, DigError, DigStop, Route, Spec, Strategy};
use sudoku_bank::grid::{parse_line, Geometry, Grid, SUPPORTED_SIZES};
use sudoku_bank::solver::count_solutions;

fn respects_symmetry(p: &Grid, strategy: Strategy) -> bool {
    let n = p.geometry().n();
    match strategy.symmetry() {
        None => true,
        Some(s) => (0..n * n).all(|c| (p.get(c) == 0) == (p.get(s.map_cell(n, c)) == 0)),
    }
}

fn any_spec() -> impl proptest::strategy::Strategy<Value = Spec> {
    (
        prop::sample::select(SUPPORTED_SIZES.to_vec()),
        prop::sample::select(Route::ALL.to_vec()),
        prop::sample::select(Strategy::ALL.to_vec()),
        prop::bool::ANY,
    )
        .prop_filter_map(
            "strategy fits the boxes",
            |(size, route, strategy, minimal)| {
                let geometry = Geometry::for_size(size).unwrap();
                strategy.check(geometry).ok()?;
                // Minimal 12x12 and 16x16 digs are slow: those sizes dig to 60 % clues.
                let stop = if minimal && size <= 9 {
                    DigStop::Minimal
                } else {
                    DigStop::Clues(geometry.cells() * 3 / 5)
                };
                Some(Spec {
                    geometry,
                    route,
                    strategy,
                    stop,
                    failure_budget: None,
                    cage_sizes: sudoku_bank::generate::CageSizes::DEFAULT,
                })
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, .. ProptestConfig::default() })]

    #[test]
    fn generated_puzzles_are_unique_symmetric_and_minimal(spec in any_spec(), seed in any::<u64>()) {
        // Randomized grid routes on 16x16 have a heavy tail: a rare seed runs for minutes.
        // The fill gives each attempt a deadline and retries; so does this test.
        let deadline = Some(std::time::Instant::now() + std::time::Duration::from_secs(5));
        let made = match generate(&spec, seed, deadline) {
            Ok(m) => m,
            Err(DigError::Aborted) => return Ok(()),
            // A clue target can be out of reach for a seed (symmetric orbits); that is an answer too.
            Err(e) => { prop_assert!(matches!(spec.stop, DigStop::Clues(_)), "{e}"); return Ok(()); }
        };
        let r = count_solutions(&made.puzzle, 2);
        prop_assert_eq!(r.count, 1);
        prop_assert_eq!(r.first.as_ref(), Some(&made.solution));
        prop_assert!(respects_symmetry(&made.puzzle, spec.strategy));
        match spec.stop {
            DigStop::Minimal => prop_assert!(is_minimal(&made.puzzle, &made.solution, spec.strategy)),
            DigStop::Clues(k) => prop_assert_eq!(made.puzzle.clue_count(), k),
        }
    }
}

#[test]
fn same_seed_same_puzzle() {
    let spec = Spec {
        geometry: Geometry::CLASSIC,
        route: Route::Backtrack,
        strategy: Strategy::Rot180,
        stop: DigStop::Minimal,
        failure_budget: None,
        cage_sizes: sudoku_bank::generate::CageSizes::DEFAULT,
    };
    assert_eq!(generate(&spec, 77, None), generate(&spec, 77, None));
    assert_ne!(generate(&spec, 77, None), generate(&spec, 78, None));
}

#[test]
fn cli_output_is_the_same_on_any_thread_count() {
    let args = |t: &'static str| {
        vec![
            "generate",
            "--count",
            "40",
            "--seed",
            "11",
            "--route",
            "enumerate",
            "--strategy",
            "mirror",
            "--threads",
            t,
        ]
    };
    let one = bank(&args("1"), None);
    let two = bank(&args("2"), None);
    let four = bank(&args("4"), None);
    assert!(one.status.success(), "{}", stderr(&one));
    assert_eq!(stdout(&one).lines().count(), 40);
    assert_eq!(stdout(&one), stdout(&two));
    assert_eq!(stdout(&one), stdout(&four));
    for line in stdout(&one).lines() {
        assert_eq!(count_solutions(&parse_line(line).unwrap(), 2).count, 1);
    }
}

#[test]
fn cli_generates_every_size_to_a_clue_target() {
    for (size, clues) in [
        ("4", "8"),
        ("6", "20"),
        ("9", "30"),
        ("12", "90"),
        ("16", "141"),
    ] {
        let o = bank(
            &[
                "generate",
                "--size",
                size,
                "--count",
                "2",
                "--clues",
                clues,
                "--with-solution",
            ],
            None,
        );
        assert!(o.status.success(), "{size}: {}", stderr(&o));
        for line in stdout(&o).lines() {
            let (p, s) = line.split_once('\t').unwrap();
            let (p, s) = (parse_line(p).unwrap(), parse_line(s).unwrap());
            assert_eq!(p.geometry().n().to_string(), size);
            assert_eq!(p.clue_count().to_string(), clues);
            assert_eq!(count_solutions(&p, 2).unique(), Some(&s));
        }
    }
}

#[test]
fn cli_refuses_quarter_turns_on_oblong_boxes() {
    let o = bank(&["generate", "--size", "6", "--strategy", "rot90"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("does not fit 2x3 boxes"),
        "{}",
        stderr(&o)
    );
    let o = bank(&["generate", "--size", "7"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unsupported --size 7"),
        "{}",
        stderr(&o)
    );
}

/// Applies symmetry `s` and the digit relabelling `map` (index = old digit) to `p`.
fn transformed(p: &Grid, s: sudoku_bank::grid::Symmetry, map: &[u8]) -> Grid {
    let n = p.geometry().n();
    let mut cells = vec![0u8; n * n];
    for (c, &v) in p.cells().iter().enumerate() {
        cells[s.map_cell(n, c)] = if v == 0 { 0 } else { map[v as usize] };
    }
    Grid::from_cells(p.geometry(), cells)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

    /// Invariant 3: every transformed copy of a puzzle (a box-keeping symmetry of the
    /// square and a relabelling of digits) has the same canonical form and fingerprint.
    #[test]
    fn canonical_form_is_the_same_for_every_transformed_copy(
        size in prop::sample::select(vec![4usize, 6, 9, 12]),
        seed in any::<u64>(),
        which in 0usize..8,
        shuffle_seed in any::<u64>(),
    ) {
        let geometry = Geometry::for_size(size).unwrap();
        let spec = Spec { geometry, route: Route::Transform, strategy: Strategy::Random,
            stop: DigStop::Clues(geometry.cells() * 3 / 5), failure_budget: None, cage_sizes: sudoku_bank::generate::CageSizes::DEFAULT };
        let p = generate(&spec, seed, None).unwrap().puzzle;
        let group: Vec<_> = sudoku_bank::grid::Symmetry::group(geometry).collect();
        let s = group[which % group.len()];
        let mut digits: Vec<u8> = (1..=size as u8).collect();
        sudoku_bank::rng::Rand::new(shuffle_seed).shuffle(&mut digits);
        let mut map = vec![0u8];
        map.extend(digits);
        let copy = transformed(&p, s, &map);
        prop_assert_eq!(sudoku_bank::canon::canonical(&copy), sudoku_bank::canon::canonical(&p));
        prop_assert_eq!(sudoku_bank::canon::fingerprint(&copy), sudoku_bank::canon::fingerprint(&p));
    }
}

#[test]
fn transformed_reference_puzzles_share_fingerprints_and_others_differ() {
    let set = crate::common::puzzles("solver/hardest_1106.txt");
    let mut seen = std::collections::HashSet::new();
    for (i, p) in set.iter().enumerate() {
        let map: Vec<u8> = std::iter::once(0).chain((1..=9).rev()).collect();
        let s = sudoku_bank::grid::Symmetry::ALL[i % 8];
        let f = sudoku_bank::canon::fingerprint(p);
        assert_eq!(sudoku_bank::canon::fingerprint(&transformed(p, s, &map)), f);
        seen.insert(f);
    }
    // The reference list holds no two puzzles equal under these moves.
    assert_eq!(seen.len(), set.len());
}
