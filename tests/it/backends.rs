//! SQLite and PostgreSQL behind the same commands: the same seed makes the same bank on
//! both, every reader prints the same, stored puzzles pass an independent counter, and
//! bad addresses get one clear line with exit 2 and leave the bank untouched.

use crate::common::{bank, brute_count, ok, postgres_db, scalar, stderr, stdout, temp_db};
use sudoku_bank::grid::parse_line;

/// `export --format jsonl` without the columns that differ between two banks made at
/// different moments.
fn export(db: &str) -> Vec<serde_json::Value> {
    ok(&["export", "--format", "jsonl", "--db", db])
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            // Times: when it was stored and how long the attempt took.
            o.remove("created_at");
            o.remove("generation_us");
            v
        })
        .collect()
}

#[test]
fn the_same_seed_makes_the_same_bank_on_both_backends() {
    let Some((_pg_dir, pg)) = postgres_db() else {
        return;
    };
    let (_dir, lite) = temp_db();
    for (db, threads) in [(&lite, "1"), (&pg, "2")] {
        let o = bank(
            &[
                "fill",
                "--count",
                "48",
                "--seed",
                "31",
                "--threads",
                threads,
                "--db",
                db,
            ],
            None,
        );
        assert!(o.status.success(), "{db}: {}", stderr(&o));
        let o = bank(
            &[
                "fill", "--count", "8", "--size", "4", "--seed", "5", "--db", db,
            ],
            None,
        );
        assert!(o.status.success(), "{db}: {}", stderr(&o));
    }
    let rows = export(&lite);
    assert_eq!(rows.len(), 56);
    let same = export(&pg) == rows;
    assert!(
        same,
        "every column, ids included, is the same on both backends"
    );
    // Readers print the same on both.
    for args in [
        vec!["show", "9"],
        vec!["show", "9", "--json"],
        vec!["explain", "17"],
        vec!["reproduce", "40"],
        vec!["export", "--tier", "hard", "--format", "txt"],
        vec!["verify"],
    ] {
        let run = |db: &str| {
            let mut a = args.clone();
            a.extend(["--db", db]);
            let o = bank(&a, None);
            assert!(o.status.success(), "{a:?}: {}", stderr(&o));
            stdout(&o)
        };
        let (a, b) = (run(&lite), run(&pg));
        let strip = |t: &str| -> String {
            t.lines()
                .filter(|l| !l.contains("created") && !l.contains("generation"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let (a, b) = (strip(&a), strip(&b));
        let differ: Vec<(&str, &str)> = a.lines().zip(b.lines()).filter(|(x, y)| x != y).collect();
        assert!(
            differ.is_empty() && a.lines().count() == b.lines().count(),
            "{args:?}: {differ:?}"
        );
    }
    let stats = |db: &str| -> serde_json::Value {
        let mut v: serde_json::Value =
            serde_json::from_str(&ok(&["stats", "--json", "--db", db])).unwrap();
        for run in v["runs"].as_array_mut().unwrap() {
            run.as_object_mut().unwrap().remove("started_at");
            // Times and worker counts are the machine's; what each tier made is the seed's.
            for tier in run["tiers"].as_array_mut().unwrap() {
                let tier = tier.as_object_mut().unwrap();
                assert!(tier.remove("worker_ms").is_some() && tier.remove("workers").is_some());
            }
        }
        v
    };
    assert_eq!(stats(&pg), stats(&lite));
}

#[test]
fn puzzles_stored_in_postgres_pass_an_independent_counter() {
    let Some((_dir, pg)) = postgres_db() else {
        return;
    };
    for size in ["4", "6", "9"] {
        ok(&[
            "fill", "--count", "12", "--size", size, "--seed", "3", "--db", &pg,
        ]);
    }
    let rows = crate::common::texts(
        &pg,
        "SELECT puzzle || ' ' || solution FROM puzzles ORDER BY id",
    );
    assert_eq!(rows.len(), 36);
    for row in rows {
        let (puzzle, solution) = row.split_once(' ').unwrap();
        let p = parse_line(puzzle).unwrap();
        let mut cells: Vec<u8> = (0..p.geometry().cells()).map(|i| p.get(i)).collect();
        assert_eq!(brute_count(p.geometry(), &mut cells, 2), 1, "{puzzle}");
        let s = parse_line(solution).unwrap();
        assert!(s.is_full() && s.find_conflict().is_none() && p.is_consistent_with(&s));
    }
    // verify re-checks them, and reports a damaged row (exit 1).
    ok(&["verify", "--db", &pg]);
    crate::common::execute(
        &pg,
        "UPDATE puzzles SET solution = reverse(solution) WHERE id = 20",
    );
    let o = bank(&["verify", "--db", &pg], None);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("20"), "{}", stdout(&o));
}

#[test]
fn bad_postgres_addresses_are_one_clear_line_and_exit_2() {
    let expect = |args: &[&str], needle: &str| {
        let o = bank(args, None);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        // One line (a flag clap refuses adds its "For more information" hint).
        assert!(
            err.lines().next().unwrap_or("").contains(needle),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains("secret"),
            "the password is never shown: {err}"
        );
    };
    // Nothing listens on port 1.
    expect(
        &["stats", "--db", "postgres://u:secret@127.0.0.1:1/bank"],
        "cannot reach PostgreSQL bank 'postgres://u:***@127.0.0.1:1/bank'",
    );
    expect(
        &["fill", "--count", "1", "--db", "postgres://127.0.0.1"],
        "names no database",
    );
    expect(
        &[
            "stats",
            "--db",
            "postgres://u@127.0.0.1:1/bank?sslmode=require",
        ],
        "bank connects without TLS",
    );
    expect(
        &["stats", "--db", "mysql://127.0.0.1/bank"],
        "neither a file path nor a PostgreSQL URL",
    );
    let Some((_dir, pg)) = postgres_db() else {
        return;
    };
    let missing = pg.replace("postgres:///", "postgres:///no_such_");
    expect(
        &["fill", "--count", "1", "--db", &missing],
        "create the database first",
    );
    // A database without a bank: readers say so and create nothing.
    expect(&["show", "1", "--db", &pg], "no bank in");
    assert_eq!(
        scalar(
            &pg,
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
        ),
        0
    );
    // A newer schema is refused untouched.
    ok(&[
        "fill", "--count", "2", "--size", "4", "--seed", "1", "--db", &pg,
    ]);
    crate::common::execute(&pg, "UPDATE bank_schema SET version = version + 1");
    for args in [
        vec!["fill", "--count", "2", "--size", "4", "--db", &pg],
        vec!["stats", "--db", &pg],
    ] {
        expect(&args, "newer than this binary");
    }
    assert_eq!(scalar(&pg, "SELECT count(*) FROM puzzles"), 2);
    assert_eq!(scalar(&pg, "SELECT count(*) FROM runs"), 1);
}
