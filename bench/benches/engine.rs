//! Criterion benchmarks of the hot path: uniqueness checks on the public sets, one
//! random minimal 9×9 puzzle, and one 16×16 puzzle at 55 % clues.
//! For whole-file throughput figures use `bank bench solve` and `bank bench generate`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use sudoku_bank::generate::{generate, DigStop, Route, Spec, Strategy};
use sudoku_bank::grid::{parse_line, Geometry, Grid};
use sudoku_bank::solver::Solver;

fn sample(file: &str, n: usize) -> Vec<Grid> {
    let path = format!(
        "{}/../../shared/data/solver/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .take(n)
        .map(|l| parse_line(l).unwrap())
        .collect()
}

fn solver(c: &mut Criterion) {
    let solver = Solver::new();
    for file in [
        "17_clue.txt",
        "magictour_top1465.txt",
        "forum_hardest_1905_11plus.txt",
    ] {
        let puzzles = sample(file, 1000);
        c.bench_function(&format!("unique/{file} x1000"), |b| {
            b.iter(|| {
                for p in &puzzles {
                    black_box(solver.count(p, 2).unwrap().count);
                }
            })
        });
    }
}

fn generator(c: &mut Criterion) {
    let minimal = Spec {
        geometry: Geometry::CLASSIC,
        route: Route::Transform,
        strategy: Strategy::Random,
        stop: DigStop::Minimal,
        failure_budget: None,
        cage_sizes: sudoku_bank::generate::CageSizes::DEFAULT,
    };
    let mut seed = 0u64;
    c.bench_function("generate/9x9 minimal random", |b| {
        b.iter_batched(
            || {
                seed += 1;
                seed
            },
            |s| black_box(generate(&minimal, s, None)),
            BatchSize::SmallInput,
        )
    });
    let big = Spec {
        geometry: Geometry::for_size(16).unwrap(),
        stop: DigStop::Clues(141),
        ..minimal
    };
    let mut group = c.benchmark_group("generate-16");
    group.sample_size(10);
    group.bench_function("16x16 at 55% clues", |b| {
        b.iter_batched(
            || {
                seed += 1;
                seed
            },
            |s| black_box(generate(&big, s, None)),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, solver, generator);
criterion_main!(benches);
