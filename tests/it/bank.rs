//! The bank: a real fill into a real SQLite file, then every invariant checked.

use crate::common::{bank, fill_cli, stderr, stdout};
use rusqlite::Connection;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use sudoku_bank::bank::RunStatus;
use sudoku_bank::canon::fingerprint;
use sudoku_bank::config::Settings;
use sudoku_bank::grid::{parse_line, Geometry};
use sudoku_bank::pipeline::{fill, Deadlines, FillRequest, NoProgress};
use sudoku_bank::solver::count_solutions;

#[test]
fn fill_stores_unique_reproducible_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bank.sqlite");
    let db = db.to_str().unwrap();
    let o = fill_cli(db, &["--count", "120", "--seed", "42", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("run 1 completed: 120 stored"),
        "{}",
        stderr(&o)
    );

    let conn = Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare("SELECT id, puzzle, solution, clues, fingerprint, tier, target_clues FROM puzzles")
        .unwrap();
    let rows: Vec<(i64, String, String, usize, String, String, usize)> = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
            ))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows.len(), 120);
    let mut fingerprints = HashSet::new();
    let mut tiers = HashSet::new();
    for (id, puzzle, solution, clues, fp, tier, target) in &rows {
        let p = parse_line(puzzle).unwrap();
        let r = count_solutions(&p, 2);
        assert_eq!(r.count, 1, "puzzle {id}");
        assert_eq!(r.first.unwrap().to_line(), *solution, "puzzle {id}");
        assert_eq!(p.clue_count(), *clues);
        // Digging goes on below the target while the puzzle rates too easy for its tier, and
        // stops above it when no orbit is left; targets lie in the tiers' ranges.
        assert!((25..=40).contains(target), "puzzle {id}: target {target}");
        assert_eq!(fingerprint(&p), *fp);
        assert!(fingerprints.insert(fp.clone()), "duplicate fingerprint");
        tiers.insert(tier.clone());
    }
    assert_eq!(tiers.len(), 4, "the default mix fills every tier");
    let status: String = conn
        .query_row("SELECT status FROM runs WHERE id = 1", [], |r| r.get(0))
        .unwrap();
    assert_eq!(status, "completed");
    assert_eq!(
        conn.query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
            .unwrap(),
        "ok"
    );

    // Every stored puzzle reproduces identically.
    let bank_handle = sudoku_bank::bank::open_existing(&db.parse().unwrap()).unwrap();
    for (id, ..) in &rows {
        let stored = bank_handle.puzzle(*id).unwrap().unwrap();
        assert!(
            sudoku_bank::pipeline::reproduce::reproduce(&stored)
                .unwrap()
                .identical,
            "puzzle {id}"
        );
    }
    let o = bank(&["reproduce", "7", "--db", db], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("puzzle 7: identical"));

    // An altered row is reported as different with exit 1.
    drop(bank_handle);
    conn.execute("UPDATE puzzles SET seed = '12345' WHERE id = 3", [])
        .unwrap();
    let o = bank(&["reproduce", "3", "--db", db], None);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("puzzle 3: different"));

    // Unknown id: a clear error, exit 2.
    let o = bank(&["reproduce", "99999", "--db", db], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no puzzle with id 99999"),
        "{}",
        stderr(&o)
    );

    // show and stats read the same bank.
    let o = bank(&["show", "5", "--db", db], None);
    assert!(stdout(&o).contains("fingerprint"), "{}", stderr(&o));
    let o = bank(&["stats", "--db", db, "--json"], None);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["total"], 120);
}

#[test]
fn same_seed_same_bank_on_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut banks = Vec::new();
    for threads in ["1", "2"] {
        let db = dir.path().join(format!("t{threads}.sqlite"));
        let o = fill_cli(
            db.to_str().unwrap(),
            &[
                "--count",
                "60",
                "--seed",
                "9",
                "--threads",
                threads,
                "--tier",
                "medium",
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let conn = Connection::open(&db).unwrap();
        let rows: Vec<String> = conn
            .prepare("SELECT puzzle || seed FROM puzzles ORDER BY id")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        banks.push(rows);
    }
    assert_eq!(banks[0].len(), 60);
    assert_eq!(banks[0], banks[1]);
}

#[test]
fn a_second_fill_never_stores_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite");
    let db = db.to_str().unwrap();
    for _ in 0..2 {
        let o = fill_cli(
            db,
            &[
                "--count", "30", "--seed", "5", "--tier", "easy", "--size", "4",
            ],
        );
        assert!(
            o.status.success() || o.status.code() == Some(2),
            "{}",
            stderr(&o)
        );
    }
    let conn = Connection::open(db).unwrap();
    let (n, distinct): (i64, i64) = conn
        .query_row(
            "SELECT count(*), count(DISTINCT fingerprint) FROM puzzles",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(n, distinct);
    let dups: i64 = conn
        .query_row("SELECT duplicates FROM runs WHERE id = 2", [], |r| r.get(0))
        .unwrap();
    assert!(
        dups > 0,
        "the same seed again must meet its own puzzles as duplicates"
    );
}

/// Attempts below 28 clues time out at once; from 28 on they have no deadline.
struct SlowBelow28;

impl Deadlines for SlowBelow28 {
    fn deadline(&self, _tier: &str, target: usize) -> Option<Instant> {
        (target < 28).then(Instant::now)
    }
}

#[test]
fn alarm_lowers_the_target_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("alarm.sqlite");
    let settings = Settings::embedded();
    let request = FillRequest::split(
        &settings,
        20,
        &[settings.tier("hard", Geometry::CLASSIC).unwrap().clone()],
        Geometry::CLASSIC,
        3,
    )
    .unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let report = fill(
        &pool,
        sudoku_bank::bank::open(&sudoku_bank::bank::Location::Sqlite(path.clone())).unwrap(),
        &request,
        &settings,
        &SlowBelow28,
        &NoProgress,
        &AtomicBool::new(false),
    )
    .unwrap();
    assert_eq!(report.status, RunStatus::Completed, "{:?}", report.message);
    assert_eq!(report.counts.accepted, 20);
    // Targets 25, 26, 27 each fill a window of 100 timed-out attempts, then alarm.
    assert_eq!(report.counts.alarms, 3);
    let conn = Connection::open(&path).unwrap();
    let moves: Vec<(i64, i64)> = conn
        .prepare("SELECT old_target, new_target FROM alarms ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(moves, vec![(25, 26), (26, 27), (27, 28)]);
    let min: i64 = conn
        .query_row("SELECT min(target_clues) FROM puzzles", [], |r| r.get(0))
        .unwrap();
    assert_eq!(
        min, 28,
        "every stored puzzle was dug after the target moved to 28"
    );
}

#[test]
fn alarm_at_the_top_of_the_range_fails_the_run_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite");
    let o = fill_cli(
        db.to_str().unwrap(),
        &["--count", "5", "--tier", "easy", "--deadline-ms", "0"],
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "a failed run is an early stop, not an input error"
    );
    let err = stderr(&o);
    assert!(err.contains("failed"), "{err}");
    assert!(err.contains("timed out even at 40 clues"), "{err}");
    let conn = Connection::open(&db).unwrap();
    let (status, alarms): (String, i64) = conn
        .query_row("SELECT status, alarms FROM runs", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(status, "failed");
    assert_eq!(alarms, 5, "36 -> 37 -> 38 -> 39 -> 40, then one at the top");
}

#[test]
fn bad_input_is_refused_and_the_bank_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let not_db = dir.path().join("notes.sqlite");
    std::fs::write(
        &not_db,
        "just text, not a database, long enough to have a header",
    )
    .unwrap();
    let o = fill_cli(not_db.to_str().unwrap(), &["--count", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is not a SQLite bank"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&not_db).unwrap(),
        "just text, not a database, long enough to have a header"
    );

    let db = dir.path().join("b.sqlite");
    let db = db.to_str().unwrap();
    let o = fill_cli(db, &["--count", "1", "--tier", "nightmare"]);
    assert!(
        stderr(&o).contains("unknown tier 'nightmare'"),
        "{}",
        stderr(&o)
    );
    let o = fill_cli(db, &["--count", "1", "--size", "8"]);
    assert!(
        stderr(&o).contains("unsupported --size 8"),
        "{}",
        stderr(&o)
    );
    let o = fill_cli(db, &["--count", "1", "--config", "/no/such.toml"]);
    assert!(
        stderr(&o).contains("cannot read config '/no/such.toml'"),
        "{}",
        stderr(&o)
    );
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        sudoku_bank::config::DEFAULT_CONFIG.replace("step = 1", "step = 1\nstpe = 2"),
    )
    .unwrap();
    let o = fill_cli(db, &["--count", "1", "--config", bad.to_str().unwrap()]);
    assert!(
        stderr(&o).contains("unknown field `stpe`"),
        "{}",
        stderr(&o)
    );
    let o = fill_cli(dir.path().to_str().unwrap(), &["--count", "1"]);
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
    let o = bank(&["show", "1", "--db", "/no/such.sqlite"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no bank at '/no/such.sqlite'"));
    // Serving from a mistyped path is an error, not a new empty bank.
    let missing = dir.path().join("typo.sqlite");
    let m = missing.to_str().unwrap();
    for args in [
        vec!["take", "--tier", "easy", "--db", m],
        vec!["daily", "--tier", "easy", "--db", m],
        vec!["prune", "--served-before", "2026-01-01", "--db", m],
    ] {
        let o = bank(&args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("no bank at"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(!missing.exists(), "{args:?} created a bank");
    }
    // A variant in a size it is never made in is named as such, not as a short stock.
    for cmd in ["take", "daily"] {
        let o = bank(
            &[
                cmd,
                "--tier",
                "easy",
                "--variant",
                "killer",
                "--size",
                "12",
                "--db",
                m,
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        assert!(
            stderr(&o).contains("killer sudoku is made in sizes 4, 6 and 9"),
            "{cmd}: {}",
            stderr(&o)
        );
    }
}

/// Configs and flags that once panicked or hung are refused up front: exit 2, a message
/// naming the value, and no bank file created.
#[test]
fn bad_configs_and_flags_never_reach_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite");
    let db = db.to_str().unwrap();
    let square_only = dir.path().join("square.toml");
    std::fs::write(
        &square_only,
        // Without the quotas of oblong sizes (6x6, and the variants' other sizes).
        sudoku_bank::config::DEFAULT_CONFIG
            .split("\n# Other sizes")
            .next()
            .unwrap()
            .replace(
                "strategies = { random = 6, rot180 = 2, rot90 = 0, mirror = 1, flip = 1, diagonal = 0 }",
                "strategies = { rot90 = 1, diagonal = 1 }",
            )
            .replace("[quota.6]\neasy = 2000\nmedium = 500\nhard = 500\nexpert = 500", "")
            .replace("[quota.12]\neasy = 1000\nmedium = 1000\nhard = 500\nexpert = 500\n", ""),
    )
    .unwrap();
    let square_only = square_only.to_str().unwrap();
    for size in ["6", "12"] {
        let o = fill_cli(
            db,
            &["--count", "4", "--size", size, "--config", square_only],
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let want = format!("diagonal, rot90 cannot dig {size}x{size}");
        assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    }
    let bad_flags: [&[&str]; 5] = [
        &["--count", "1", "--threads", "100000"],
        &["--count", "1", "--threads", "0"],
        &["--count", "1", "--max-duration", "18446744073709551615s"],
        &["--count", "1", "--max-duration", "5124095576030431h"],
        &["--count", "1", "--deadline-ms", "18446744073709551615"],
    ];
    for flags in bad_flags {
        let o = fill_cli(db, flags);
        assert_eq!(o.status.code(), Some(2), "{flags:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(flags[3]), "{}", stderr(&o));
    }
    assert!(!std::path::Path::new(db).exists(), "no bank was created");
    // The same configs work where they fit: 9x9 digs with quarter turns.
    let o = fill_cli(
        db,
        &["--count", "2", "--tier", "easy", "--config", square_only],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A typo in a tier name or a size without a quota does nothing silently in no command:
/// exit 2 with the known names, before the bank is touched.
#[test]
fn unknown_names_are_errors_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite");
    let db = db.to_str().unwrap();
    let o = fill_cli(db, &["--count", "2", "--size", "4", "--tier", "easy"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let before = std::fs::read(db).unwrap();
    let commands: [&[&str]; 8] = [
        &["export", "--tier", "Hard"],
        &["verify", "--tier", "Hard"],
        &["nightly", "--tier", "Hard"],
        &["fill", "--count", "1", "--tier", "Hard"],
        &["take", "--tier", "Hard"],
        &["daily", "--tier", "Hard"],
        &["stats", "--tier", "Hard"],
        &["export", "--unserved", "--tier", "Hard"],
    ];
    for args in commands {
        let o = bank(&[args, &["--db", db]].concat(), None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o)
                .contains("unknown tier 'Hard': the config defines easy, medium, hard, expert"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    for args in [
        &["take", "--tier", "easy", "--size", "10"][..],
        &["daily", "--tier", "easy", "--size", "8"],
        &["stats", "--size", "7"],
        &["export", "--size", "0"],
    ] {
        let o = bank(&[args, &["--db", db]].concat(), None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("use 4, 6, 9, 12 or 16"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let o = bank(&["nightly", "--size", "4", "--db", db], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no quota for 4x4") && stderr(&o).contains("sizes 6, 9, 12, 16"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(db).unwrap(), before, "the bank is untouched");
}

/// A size that never rates into a tier skips it with the measured figure (4x4 rates
/// nothing above easy): the note names the attempts that missed, the share goes to easy,
/// and what was stored agrees with it.
#[test]
fn an_unreachable_tier_is_skipped_naming_the_attempts() {
    let (_dir, db) = crate::common::temp_db();
    let o = fill_cli(&db, &["--count", "20", "--size", "4", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let said = format!("{}{}", stdout(&o), stderr(&o));
    for tier in ["medium", "hard", "expert"] {
        let start = said
            .find(&format!("skipped tier '{tier}' on 4x4: none of its "))
            .unwrap_or_else(|| panic!("no skip note for {tier}: {said}"));
        let rest = &said[start..];
        let attempts: u64 = rest["skipped tier '' on 4x4: none of its ".len() + tier.len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            attempts >= 1000,
            "{tier}: skipped after {attempts} attempts"
        );
        assert!(rest.contains("attempts rated into its band"), "{rest}");
    }
    let tiers = crate::common::texts(&db, "SELECT DISTINCT tier FROM puzzles");
    assert_eq!(tiers, ["easy"]);
    assert_eq!(
        crate::common::scalar(&db, "SELECT count(*) FROM puzzles"),
        20
    );
}
