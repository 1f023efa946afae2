//! The nightly job: quotas, time limits, signals, crashes, concurrency, verify, export, import.

use crate::common::{bank, stderr, stdout};
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A config of small quotas alone, written into `dir`: the rest is the embedded default's.
fn small_quota_config(dir: &Path) -> PathBuf {
    let path = dir.join("quotas.toml");
    std::fs::write(
        &path,
        "[quota.9]\neasy = 150\nmedium = 100\nhard = 50\n\n[quota.4]\neasy = 10\n",
    )
    .unwrap();
    path
}

fn spawn_bank(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_bank"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn count(db: impl AsRef<Path>, sql: &str) -> i64 {
    crate::common::scalar(db.as_ref().to_str().unwrap(), sql)
}

/// Integrity, foreign keys, and no puzzle without its run or base grid (PostgreSQL
/// enforces its own integrity and foreign keys: the orphan check is the same).
fn assert_consistent(db: impl AsRef<Path>) {
    let db = db.as_ref();
    let orphans = "SELECT count(*) FROM puzzles p WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = p.run_id)
               OR (p.source = 'generated' AND NOT EXISTS (SELECT 1 FROM base_grids g WHERE g.id = p.base_grid_id))";
    if crate::common::is_postgres(db.to_str().unwrap()) {
        // A worker killed while it created the schema left none of it (one transaction).
        let tables = "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'";
        if count(db, tables) == 0 {
            return;
        }
        assert_eq!(count(db, orphans), 0);
        return;
    }
    let conn = Connection::open(db).unwrap();
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    // A worker killed before its migration committed left no table (one transaction).
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    if tables == 0 {
        return;
    }
    let orphans: i64 = conn
        .query_row(
            "SELECT count(*) FROM puzzles p WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = p.run_id)
               OR (p.source = 'generated' AND NOT EXISTS (SELECT 1 FROM base_grids g WHERE g.id = p.base_grid_id))",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(orphans, 0);
    let fk: i64 = conn
        .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(fk, 0);
}

#[test]
fn quota_fills_the_deficit_then_does_nothing() {
    for (dir, db) in crate::common::banks() {
        quota_fills_the_deficit_on(dir.path(), &db);
    }
}

fn quota_fills_the_deficit_on(dir: &Path, db_s: &str) {
    let config = small_quota_config(dir);
    let db = db_s;
    let config_s = config.to_str().unwrap();
    let summary = dir.join("summary.json");
    let o = bank(
        &[
            "nightly",
            "--db",
            db_s,
            "--config",
            config_s,
            "--seed",
            "1",
            "--summary-json",
            summary.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        count(
            db,
            "SELECT count(*) FROM puzzles WHERE size = 9 AND tier = 'easy'"
        ),
        150
    );
    assert_eq!(
        count(
            db,
            "SELECT count(*) FROM puzzles WHERE size = 9 AND tier = 'hard'"
        ),
        50
    );
    assert_eq!(count(db, "SELECT count(*) FROM puzzles WHERE size = 4"), 10);
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(s["status"], "completed");
    assert_eq!(s["counts"]["accepted"], 310);
    assert_eq!(s["items"].as_array().unwrap().len(), 4);
    assert!(s["rate_per_s"].as_f64().unwrap() > 0.0);

    // As if the worker had been killed after storing its last puzzles but before closing
    // its run: a fill that finds the quota met still closes it.
    crate::common::execute(
        db,
        "UPDATE runs SET status = 'running', pid = 2147483646 WHERE id = 1",
    );
    let o = bank(
        &["fill", "--quota", "--db", db_s, "--config", config_s],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("quota met: nothing to add"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        count(db, "SELECT count(*) FROM runs"),
        1,
        "a second run made no run"
    );
    assert_eq!(
        crate::common::texts(db, "SELECT status FROM runs"),
        ["interrupted"],
        "{db}"
    );
}

#[test]
fn max_duration_stops_cleanly_keeping_what_was_made() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite");
    let o = bank(
        &[
            "fill",
            "--count",
            "10000000",
            "--tier",
            "easy",
            "--max-duration",
            "1s",
            "--db",
            db.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("time limit reached"), "{}", stderr(&o));
    let (status, accepted): (String, i64) = Connection::open(&db)
        .unwrap()
        .query_row("SELECT status, accepted FROM runs", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(status, "interrupted");
    assert!(accepted > 0);
    assert_eq!(accepted, count(&db, "SELECT count(*) FROM puzzles"));
    assert_consistent(&db);
}

/// Starts an endless fill of `tier` into `db`, lets it work 1.5 s, sends it `signals`
/// (5 ms apart) and returns its exit code and stderr.
fn fill_then_signal(db: &Path, tier: &str, signals: &[&str]) -> (Option<i32>, String) {
    let child = spawn_bank(&[
        "fill",
        "--count",
        "10000000",
        "--tier",
        tier,
        "--db",
        db.to_str().unwrap(),
    ]);
    std::thread::sleep(Duration::from_millis(1500));
    for &signal in signals {
        let sent = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn sigint_and_sigterm_mark_the_run_interrupted() {
    for signal in ["-INT", "-TERM"] {
        for (_dir, db) in crate::common::banks() {
            let (code, err) = fill_then_signal(Path::new(&db), "easy", &[signal]);
            assert_eq!(code, Some(1), "{signal} {db}: {err}");
            assert_eq!(
                crate::common::texts(&db, "SELECT status FROM runs"),
                ["interrupted"],
                "{signal} {db}"
            );
            assert_consistent(&db);
        }
    }
}

#[test]
fn a_second_ctrl_c_exits_at_once_without_damage() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite");
    let (code, err) = fill_then_signal(&db, "hard", &["-INT", "-INT"]);
    assert_eq!(code, Some(130), "{err}");
    assert_consistent(&db);
    // The run the process could not close is marked interrupted by the next fill.
    let o = bank(
        &[
            "fill",
            "--count",
            "1",
            "--tier",
            "easy",
            "--db",
            db.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        count(&db, "SELECT count(*) FROM runs WHERE status = 'running'"),
        0
    );
}

#[test]
fn kill_9_at_random_moments_never_damages_the_bank() {
    for (dir, db) in crate::common::banks() {
        kill_9_on(dir.path(), &db);
    }
}

fn kill_9_on(dir: &Path, db_s: &str) {
    let config = small_quota_config(dir);
    let db = db_s;
    let config_s = config.to_str().unwrap();
    let mut rng = sudoku_bank::rng::Rand::new(99);
    for round in 0..10 {
        let seed = round.to_string();
        let mut child = spawn_bank(&[
            "nightly", "--db", db_s, "--config", config_s, "--seed", &seed,
        ]);
        std::thread::sleep(Duration::from_millis(20 + u64::from(rng.below(300))));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        assert_consistent(db);
    }
    let o = bank(
        &[
            "nightly", "--db", db_s, "--config", config_s, "--seed", "100",
        ],
        None,
    );
    assert!(o.status.code().is_some_and(|c| c <= 1), "{}", stderr(&o));
    let o = bank(&["nightly", "--db", db_s, "--config", config_s], None);
    assert!(stderr(&o).contains("quota met"), "{}", stderr(&o));
    assert_eq!(
        count(db, "SELECT count(*) FROM runs WHERE status = 'running'"),
        0,
        "{db}: {:?}",
        crate::common::texts(
            db,
            "SELECT id || ' ' || status || ' ' || coalesce(pid, 0) || ' ' || run_seed FROM runs"
        )
    );
    assert_eq!(
        count(db, "SELECT count(*) FROM puzzles WHERE size = 9"),
        300
    );
    assert_eq!(
        count(
            db,
            "SELECT count(*) - count(DISTINCT fingerprint) FROM puzzles"
        ),
        0
    );
    assert_consistent(db);
}

#[test]
fn two_fills_at_once_both_finish_without_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite");
    let db_s = db.to_str().unwrap();
    let a = spawn_bank(&[
        "fill",
        "--count",
        "300",
        "--seed",
        "1",
        "--db",
        db_s,
        "--threads",
        "1",
    ]);
    let b = spawn_bank(&[
        "fill",
        "--count",
        "300",
        "--seed",
        "2",
        "--db",
        db_s,
        "--threads",
        "1",
    ]);
    for child in [a, b] {
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert!(!err.contains("locked"), "{err}");
    }
    assert_eq!(count(&db, "SELECT count(*) FROM puzzles"), 600);
    assert_eq!(
        count(&db, "SELECT count(DISTINCT fingerprint) FROM puzzles"),
        600
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM runs WHERE status = 'completed'"),
        2
    );
    assert_consistent(&db);
}

#[test]
fn verify_export_and_import() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite");
    let db_s = db.to_str().unwrap();
    assert!(bank(
        &["fill", "--count", "80", "--seed", "4", "--db", db_s],
        None
    )
    .status
    .success());
    let o = bank(&["verify", "--db", db_s], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim(),
        "verified 80 puzzles: 0 corrupt, 0 drifted"
    );

    let o = bank(
        &["export", "--db", db_s, "--format", "txt", "--tier", "hard"],
        None,
    );
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 20);
    let o = bank(
        &["export", "--db", db_s, "--format", "csv", "--limit", "3"],
        None,
    );
    assert_eq!(stdout(&o).lines().count(), 4);
    assert!(stdout(&o).starts_with("id,size,box_rows,box_cols,puzzle,solution,tier"));
    let out = dir.path().join("p.jsonl");
    bank(
        &["export", "--db", db_s, "--out", out.to_str().unwrap()],
        None,
    );
    let first: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["id"], 1);
    assert_eq!(first["source"], "generated");
    let o = bank(
        &["export", "--db", db_s, "--format", "sdk", "--limit", "2"],
        None,
    );
    let text = stdout(&o);
    let grids: Vec<&str> = text
        .split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .collect();
    assert_eq!(grids.len(), 2);
    assert!(grids
        .iter()
        .all(|g| g.lines().count() == 9 && g.lines().all(|l| l.len() == 9)));

    // Import: the exported hard puzzles are duplicates; reference puzzles are new; bad lines skipped.
    let hardest = std::fs::read_to_string(crate::common::data("solver/hardest_1106.txt")).unwrap();
    let mut input: Vec<String> = hardest.lines().take(30).map(String::from).collect();
    input.extend(lines.iter().take(5).cloned());
    input.push("not a puzzle".into());
    input.push(format!("55{}", &lines[0][2..]));
    input.push(
        std::fs::read_to_string(crate::common::data("solver/serg_multi_solution.txt"))
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .into(),
    );
    let file = dir.path().join("in.txt");
    std::fs::write(&file, input.join("\n")).unwrap();
    let o = bank(&["import", file.to_str().unwrap(), "--db", db_s], None);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("line 36: 3 cells"), "{err}");
    assert!(err.contains("line 37: digit 5 appears twice"), "{err}");
    assert!(
        err.contains("line 38: puzzle has more than one solution"),
        "{err}"
    );
    assert!(err.contains("imported 30 puzzles"), "{err}");
    assert!(
        err.contains("5 already in the bank, 3 lines skipped"),
        "{err}"
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM puzzles WHERE source = 'import' AND seed IS NULL"
        ),
        30
    );
    let o = bank(&["reproduce", "81", "--db", db_s], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("imported, not generated"),
        "{}",
        stderr(&o)
    );

    // Corruption is found and told apart from drift.
    let conn = Connection::open(&db).unwrap();
    conn.execute(
        "UPDATE puzzles SET solution = replace(solution, '1', 'x') WHERE id = 2",
        [],
    )
    .unwrap();
    conn.execute("UPDATE puzzles SET tier = 'easy' WHERE id = 70", [])
        .unwrap();
    let o = bank(&["verify", "--db", db_s], None);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(
        text.contains("puzzle 2: corrupt: stored solution is not the puzzle's solution"),
        "{text}"
    );
    assert!(text.contains("puzzle 70: drift: tier now"), "{text}");
    assert!(text.contains("1 corrupt, 1 drifted"), "{text}");
}

#[test]
fn bad_input_gets_one_clear_line_and_the_bank_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite");
    let db_s = db.to_str().unwrap();
    assert!(bank(
        &["fill", "--count", "8", "--db", db_s, "--tier", "easy"],
        None
    )
    .status
    .success());
    let before = std::fs::read(&db).unwrap();

    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        sudoku_bank::config::DEFAULT_CONFIG.replace("threshold = 0.30", "threshold = 1.5"),
    )
    .unwrap();
    let o = bank(
        &[
            "fill",
            "--count",
            "1",
            "--db",
            db_s,
            "--config",
            bad.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("alarm.threshold = 1.5 must be in [0, 1)"),
        "{}",
        stderr(&o)
    );
    let o = bank(&["show", "12345", "--db", db_s], None);
    assert!(stderr(&o).contains("no puzzle with id 12345"));
    let o = bank(
        &["fill", "--count", "1", "--db", db_s, "--tier", "impossible"],
        None,
    );
    assert!(stderr(&o).contains("unknown tier 'impossible'"));
    for o in [
        bank(&["solve"], Some("12345\n")),
        bank(&["import", "-", "--db", db_s], Some("123\n")),
    ] {
        assert!(
            stderr(&o).contains("line 1: 5 cells") || stderr(&o).contains("line 1: 3 cells"),
            "{}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"));
    }

    // A read-only bank is refused for fill.
    let mut perms = std::fs::metadata(&db).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&db, perms.clone()).unwrap();
    let o = bank(&["fill", "--count", "1", "--db", db_s], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is read-only"), "{}", stderr(&o));
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&db, perms).unwrap();

    // A newer schema is refused, untouched.
    Connection::open(&db)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let newer = std::fs::read(&db).unwrap();
    for args in [
        vec!["fill", "--count", "1", "--db", db_s],
        vec!["stats", "--db", db_s],
    ] {
        let o = bank(&args, None);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("schema version 99, newer than this binary"),
            "{}",
            stderr(&o)
        );
        assert!(
            !stderr(&o).contains('\n') || stderr(&o).lines().count() == 1,
            "{}",
            stderr(&o)
        );
    }
    assert_eq!(std::fs::read(&db).unwrap(), newer);
    assert_ne!(before.len(), 0);
}
