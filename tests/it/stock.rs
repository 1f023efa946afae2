//! The bank as a stock: take, daily, prune, quotas of unserved puzzles, interleaved
//! fills, round trips through exports and merges, JSON logs. Each runs the real binary
//! against a real bank in a temp dir.

use crate::common::{bank, banks, ok, scalar, stderr, stdout, temp_db, texts};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};

/// A config with small 9x9 quotas, written into `dir`.
fn small_config(dir: &Path, easy: u64, medium: u64) -> String {
    let text = sudoku_bank::config::DEFAULT_CONFIG;
    let cut = text
        .find("[quota.6]")
        .expect("quota tables in the default config");
    let config = format!(
        "{}[quota.9]\neasy = {easy}\nmedium = {medium}\n",
        &text[..cut]
    );
    let path = dir.join("small.toml");
    std::fs::write(&path, config).unwrap();
    path.to_str().unwrap().to_string()
}

fn ids(text: &str) -> Vec<i64> {
    text.lines()
        .map(|l| l.split('\t').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn concurrent_takes_hand_out_disjoint_puzzles() {
    for (_dir, db) in banks() {
        concurrent_takes_on(&db);
    }
}

fn concurrent_takes_on(db: &str) {
    ok(&[
        "fill", "--count", "120", "--tier", "easy", "--seed", "1", "--db", db,
    ]);
    // 6 processes each take 25 of 120 at once: 120 are handed out, no puzzle twice.
    let children: Vec<_> = (0..6)
        .map(|i| {
            Command::new(env!("CARGO_BIN_EXE_bank"))
                .args(["take", "--tier", "easy", "--count", "25", "--db", db])
                .args(["--client", &format!("app{i}")])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut all = Vec::new();
    let mut short = 0;
    for child in children {
        let o = child.wait_with_output().unwrap();
        let taken = ids(&stdout(&o));
        match o.status.code() {
            Some(0) => assert_eq!(taken.len(), 25),
            Some(1) => {
                short += 1;
                assert!(taken.len() < 25);
                assert!(stderr(&o).contains("the stock is"), "{}", stderr(&o));
            }
            other => panic!("take exited {other:?}: {}", stderr(&o)),
        }
        all.extend(taken);
    }
    assert!(short >= 1, "150 asked of 120: someone came up short");
    let unique: BTreeSet<i64> = all.iter().copied().collect();
    assert_eq!(unique.len(), all.len(), "a puzzle was handed out twice");
    assert_eq!(all.len(), 120, "every puzzle left the stock once");
    assert_eq!(
        scalar(
            db,
            "SELECT count(*) FROM puzzles WHERE served_at IS NOT NULL"
        ),
        120
    );
    // served_at is UTC RFC 3339 and served_to names the client.
    let at = texts(
        db,
        &format!("SELECT served_at FROM puzzles WHERE id = {}", all[0]),
    )
    .remove(0);
    let to = texts(
        db,
        &format!("SELECT served_to FROM puzzles WHERE id = {}", all[0]),
    )
    .remove(0);
    assert!(
        at.len() >= 20 && at.ends_with('Z') && at.as_bytes()[10] == b'T',
        "{at}"
    );
    assert!(to.starts_with("app"), "{to}");
    let shown = ok(&["show", &all[0].to_string(), "--db", db]);
    assert!(
        shown.contains(&format!("served            {at} to {to}")),
        "{shown}"
    );
}

#[test]
fn take_prints_jsonl_and_daily_is_stable_and_never_taken() {
    for (_dir, db) in banks() {
        take_and_daily_on(&db);
    }
}

fn take_and_daily_on(db: &str) {
    ok(&[
        "fill", "--count", "10", "--tier", "easy", "--seed", "2", "--db", db,
    ]);
    let out = ok(&[
        "take", "--tier", "easy", "--count", "2", "--format", "jsonl", "--db", db,
    ]);
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        for key in ["id", "puzzle", "solution", "size", "tier", "score", "clues"] {
            assert!(!v[key].is_null(), "{key} missing in {line}");
        }
    }
    let taken: BTreeSet<i64> = out
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_i64()
                .unwrap()
        })
        .collect();
    let day = |date: &str| ok(&["daily", "--tier", "easy", "--date", date, "--db", db]);
    let first = day("2026-12-24");
    assert_eq!(day("2026-12-24"), first, "same date, same puzzle");
    let other = day("2026-12-25");
    assert_ne!(other, first, "another date, another puzzle");
    for d in [&first, &other] {
        assert!(!taken.contains(&ids(d)[0]), "daily gave a taken puzzle");
    }
    // A day's puzzle left the stock: take never hands it out.
    let rest = ids(&ok(&["take", "--tier", "easy", "--count", "6", "--db", db]));
    assert!(!rest.contains(&ids(&first)[0]) && !rest.contains(&ids(&other)[0]));
    let o = bank(
        &["take", "--tier", "easy", "--count", "5", "--db", db],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "the stock is empty");
    assert!(stderr(&o).contains("took 0 of 5"), "{}", stderr(&o));
    assert_eq!(
        day("2026-12-24"),
        first,
        "still the same after the stock ran out"
    );
    let o = bank(
        &[
            "daily",
            "--tier",
            "easy",
            "--date",
            "2026-12-26",
            "--db",
            db,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = bank(
        &[
            "daily",
            "--tier",
            "easy",
            "--date",
            "2026-02-30",
            "--db",
            db,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("has no day 30"), "{}", stderr(&o));
}

#[test]
fn nightly_refills_exactly_what_was_taken() {
    for (dir, db) in banks() {
        nightly_refills_on(dir.path(), &db);
    }
}

fn nightly_refills_on(dir: &Path, db: &str) {
    let config = small_config(dir, 40, 20);
    let nightly = |seed: &str| {
        let o = bank(
            &["nightly", "--seed", seed, "--config", &config, "--db", db],
            None,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        stderr(&o)
    };
    nightly("1");
    assert_eq!(scalar(db, "SELECT count(*) FROM puzzles"), 60);
    assert!(nightly("2").contains("quota met: nothing to add"));
    ok(&[
        "take", "--tier", "easy", "--count", "7", "--config", &config, "--db", db,
    ]);
    let out = nightly("3");
    assert!(
        out.contains("9x9 easy: wanted 40, unserved before 33, served since last run 7, added 7"),
        "{out}"
    );
    assert!(
        out.contains("9x9 medium: wanted 20, unserved before 20, served since last run 0, added 0"),
        "{out}"
    );
    assert_eq!(
        scalar(
            db,
            "SELECT count(*) FROM puzzles WHERE tier = 'easy' AND served_at IS NULL"
        ),
        40
    );
    assert_eq!(scalar(db, "SELECT count(*) FROM puzzles"), 67);
}

#[test]
fn pruned_puzzles_are_never_made_again() {
    for (_dir, db) in banks() {
        pruned_never_made_again_on(&db);
    }
}

fn pruned_never_made_again_on(db: &str) {
    let fill = |seed: &str| {
        bank(
            &[
                "fill", "--count", "30", "--tier", "easy", "--seed", seed, "--db", db,
            ],
            None,
        )
    };
    assert!(fill("7").status.success());
    ok(&["take", "--tier", "easy", "--count", "30", "--db", db]);
    let o = bank(
        &["prune", "--served-before", "2999-01-01", "--db", db],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("pruned 30 puzzles"), "{}", stderr(&o));
    assert_eq!(scalar(db, "SELECT count(*) FROM puzzles"), 0);
    assert_eq!(scalar(db, "SELECT count(*) FROM retired_fingerprints"), 30);
    // The same seed makes the same puzzles first: each is now a duplicate.
    let o = fill("7");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(scalar(db, "SELECT duplicates FROM runs ORDER BY id DESC LIMIT 1") >= 30);
    assert_eq!(
        scalar(
            db,
            "SELECT count(*) FROM puzzles WHERE fingerprint IN (SELECT fingerprint FROM retired_fingerprints)"
        ),
        0
    );
    let o = bank(
        &["prune", "--served-before", "2026-13-01", "--db", db],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_day_puzzle_survives_prune() {
    for (_dir, db) in banks() {
        day_survives_prune_on(&db);
    }
}

fn day_survives_prune_on(db: &str) {
    ok(&[
        "fill", "--count", "5", "--tier", "easy", "--seed", "3", "--db", db,
    ]);
    let first = ok(&[
        "daily",
        "--tier",
        "easy",
        "--date",
        "2026-01-01",
        "--db",
        db,
    ]);
    let o = bank(
        &["prune", "--served-before", "2999-01-01", "--db", db],
        None,
    );
    assert!(
        stderr(&o).contains("kept 1 that are some day's puzzle"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        ok(&[
            "daily",
            "--tier",
            "easy",
            "--date",
            "2026-01-01",
            "--db",
            db
        ]),
        first
    );
}

#[test]
fn exports_import_into_a_new_bank_and_reproduce() {
    for (dir, src) in banks() {
        export_import_on(dir.path(), &src);
    }
}

/// A second, empty bank of the same backend as `like`.
fn another_bank(dir: &Path, like: &str, name: &str) -> (Option<tempfile::TempDir>, String) {
    if crate::common::is_postgres(like) {
        let (d, url) = crate::common::postgres_db().expect("a server, as for the first bank");
        (Some(d), url)
    } else {
        (None, dir.join(name).to_str().unwrap().to_string())
    }
}

fn export_import_on(dir: &Path, src: &str) {
    ok(&["fill", "--count", "40", "--seed", "5", "--db", src]);
    ok(&[
        "take", "--tier", "hard", "--count", "2", "--client", "paper", "--db", src,
    ]);
    for format in ["jsonl", "csv"] {
        let file = dir.join(format!("out.{format}"));
        let file = file.to_str().unwrap();
        let (_keep, db) = another_bank(dir, src, &format!("{format}.sqlite"));
        let db = db.as_str();
        ok(&["export", "--format", format, "--out", file, "--db", src]);
        let o = bank(&["import", file, "--db", db], None);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        assert!(stderr(&o).contains("imported 40 puzzles"), "{}", stderr(&o));
        for id in 1..=40 {
            let o = bank(&["reproduce", &id.to_string(), "--db", db], None);
            assert!(o.status.success(), "{format} puzzle {id}: {}", stdout(&o));
            assert!(stdout(&o).contains("identical"), "{}", stdout(&o));
        }
        // Metadata and served state came along.
        assert_eq!(
            scalar(db, "SELECT count(*) FROM puzzles WHERE served_to = 'paper'"),
            2
        );
        assert_eq!(
            scalar(
                db,
                "SELECT count(*) FROM puzzles WHERE origin LIKE 'import %'"
            ),
            40
        );
        // Unserved export: 38.
        let o = bank(
            &["export", "--unserved", "--format", "txt", "--db", db],
            None,
        );
        assert_eq!(stdout(&o).lines().count(), 38);
    }
}

#[test]
fn merge_copies_runs_puzzles_and_retired_fingerprints_once() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.sqlite");
    let a = a.to_str().unwrap();
    let b = dir.path().join("b.sqlite");
    let b = b.to_str().unwrap();
    ok(&[
        "fill", "--count", "20", "--tier", "easy", "--seed", "8", "--db", a,
    ]);
    ok(&["take", "--tier", "easy", "--count", "2", "--db", a]);
    bank(&["prune", "--served-before", "2999-01-01", "--db", a], None);
    ok(&[
        "fill", "--count", "20", "--tier", "easy", "--seed", "9", "--db", b,
    ]);
    let o = bank(&["merge", a, "--db", b], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("18 puzzles copied"), "{}", stderr(&o));
    assert_eq!(scalar(b, "SELECT count(*) FROM puzzles"), 38);
    assert_eq!(scalar(b, "SELECT count(*) FROM retired_fingerprints"), 2);
    assert_eq!(
        scalar(b, "SELECT count(*) FROM runs WHERE origin IS NOT NULL"),
        1
    );
    let o = bank(&["merge", a, "--db", b], None);
    assert!(
        stderr(&o).contains("0 puzzles copied, 18 already here"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        scalar(b, "SELECT count(*) FROM runs"),
        2,
        "no run copied twice"
    );
    let last = scalar(b, "SELECT max(id) FROM puzzles");
    let o = bank(&["reproduce", &last.to_string(), "--db", b], None);
    assert!(stdout(&o).contains("identical"), "{}", stdout(&o));
}

/// A team starts on SQLite and moves to PostgreSQL, and back: `merge` copies every
/// column, so the exports of the three banks agree but for ids and creation times.
#[test]
fn merge_moves_a_bank_between_backends_with_every_column() {
    let Some((_pg_dir, pg)) = crate::common::postgres_db() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.sqlite");
    let a = a.to_str().unwrap();
    let back = dir.path().join("back.sqlite");
    let back = back.to_str().unwrap();
    ok(&["fill", "--count", "24", "--seed", "12", "--db", a]);
    ok(&[
        "take", "--tier", "hard", "--count", "2", "--client", "app", "--db", a,
    ]);
    ok(&["daily", "--tier", "easy", "--date", "2026-12-01", "--db", a]);
    ok(&["take", "--tier", "easy", "--count", "1", "--db", a]);
    bank(&["prune", "--served-before", "2000-01-01", "--db", a], None);
    crate::common::execute(
        a,
        "INSERT INTO alarms (run_id, at, size, tier, window_size, timeouts_in_window, old_target, new_target)
         VALUES (1, '2026-12-01T00:00:00.000Z', 9, 'hard', 100, 31, 25, 26)",
    );
    let o = bank(&["merge", a, "--db", &pg], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("24 puzzles copied"), "{}", stderr(&o));
    let o = bank(&["merge", &pg, "--db", back], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let export = |db: &str| -> Vec<serde_json::Value> {
        ok(&["export", "--format", "jsonl", "--db", db])
            .lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                let o = v.as_object_mut().unwrap();
                for volatile in ["id", "run_id", "created_at", "origin"] {
                    o.remove(volatile);
                }
                v
            })
            .collect()
    };
    let original = export(a);
    assert_eq!(original.len(), 24);
    assert_eq!(
        export(&pg),
        original,
        "SQLite -> PostgreSQL kept every column"
    );
    assert_eq!(
        export(back),
        original,
        "PostgreSQL -> SQLite kept every column"
    );
    let alarms = "SELECT at || ' ' || tier || ' ' || new_target FROM alarms";
    assert_eq!(
        crate::common::texts(&pg, alarms),
        ["2026-12-01T00:00:00.000Z hard 26"]
    );
    assert_eq!(
        crate::common::texts(back, alarms),
        crate::common::texts(&pg, alarms)
    );
    // The run's samples came along, every column.
    let samples = "SELECT at || ' ' || elapsed_ms || ' ' || attempts || ' ' || accepted || ' ' \
                   || attempt_times FROM run_samples ORDER BY elapsed_ms";
    let original_samples = crate::common::texts(a, samples);
    assert!(!original_samples.is_empty(), "the fill sampled its run");
    assert_eq!(crate::common::texts(&pg, samples), original_samples);
    assert_eq!(crate::common::texts(back, samples), original_samples);
    // The day's puzzle came along: the same puzzle on the same day in every bank.
    let day = |db: &str| {
        let line = ok(&[
            "daily",
            "--tier",
            "easy",
            "--date",
            "2026-12-01",
            "--db",
            db,
        ]);
        line.split('\t').nth(1).unwrap().to_string()
    };
    assert_eq!(day(&pg), day(a));
    assert_eq!(day(back), day(a));
    assert_eq!(
        scalar(&pg, "SELECT count(*) FROM runs WHERE origin IS NOT NULL"),
        1
    );
    let o = bank(&["verify", "--db", &pg], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = bank(&["reproduce", "5", "--db", &pg], None);
    assert!(stdout(&o).contains("identical"), "{}", stdout(&o));
}

#[test]
fn an_interrupted_fill_leaves_every_tier_about_equally_done() {
    let (_dir, db) = temp_db();
    let db = db.as_str();
    let child = Command::new(env!("CARGO_BIN_EXE_bank"))
        .args(["fill", "--count", "8000", "--seed", "4", "--db", db])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until a good share is stored, then Ctrl-C.
    let started = std::time::Instant::now();
    loop {
        std::thread::sleep(std::time::Duration::from_millis(200));
        let stored = rusqlite::Connection::open(db)
            .ok()
            .and_then(|c| {
                c.query_row("SELECT count(*) FROM puzzles", [], |r| r.get::<_, i64>(0))
                    .ok()
            })
            .unwrap_or(0);
        if stored >= 4000 || started.elapsed().as_secs() > 120 {
            break;
        }
    }
    // SAFETY: signalling our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let conn = rusqlite::Connection::open(db).unwrap();
    let shares: Vec<f64> = conn
        .prepare("SELECT count(*) FROM puzzles GROUP BY tier")
        .unwrap()
        .query_map([], |r| r.get::<_, i64>(0))
        .unwrap()
        .map(|n| n.unwrap() as f64 / 2000.0)
        .collect();
    assert_eq!(shares.len(), 4, "{shares:?}");
    let (lo, hi) = shares
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &s| (lo.min(s), hi.max(s)));
    assert!(lo > 0.2 && hi < 0.95, "stopped about half-way: {shares:?}");
    // Every tier within 5 % of its target of the same fraction.
    assert!(hi - lo <= 0.05, "shares {shares:?}");
}

#[test]
fn every_stderr_line_is_json_under_log_format_json() {
    let (_dir, db) = temp_db();
    let db = db.as_str();
    let runs: [&[&str]; 6] = [
        &[
            "fill", "--count", "8", "--size", "4", "--seed", "1", "--db", db,
        ],
        &["nightly", "--size", "6", "--max-duration", "1s", "--db", db],
        &["import", "-", "--db", db],
        &[
            "take", "--tier", "easy", "--size", "4", "--count", "99", "--db", db,
        ],
        &["fill", "--cont", "3"],
        &["export", "--tier", "nope", "--db", db],
    ];
    for args in runs {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_bank"))
            .env("RUST_LOG", "info")
            .arg("--log-format")
            .arg("json")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = stderr(&o);
        assert!(!err.trim().is_empty(), "{args:?} said nothing");
        for line in err.lines() {
            let v: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {line}"));
            assert!(v["fields"]["message"].is_string(), "{line}");
            if let Some(seed) = v["fields"].get("seed") {
                assert!(seed.is_string(), "seed as a string: {line}");
            }
        }
    }
}

/// Three easy puzzles of `variant` into `db`.
fn fill_easy(db: &str, variant: &str) {
    ok(&[
        "fill",
        "--variant",
        variant,
        "--tier",
        "easy",
        "--count",
        "3",
        "--seed",
        "2",
        "--db",
        db,
    ]);
}

/// `daily` of the easy tier of `variant` on `date`, printed as `format`.
fn easy_day(db: &str, variant: &str, date: &str, format: &str) -> String {
    ok(&[
        "daily",
        "--variant",
        variant,
        "--tier",
        "easy",
        "--date",
        date,
        "--format",
        format,
        "--db",
        db,
    ])
}

/// Each variant has its own puzzle of the day, of that variant, on both backends; the
/// diagonal puzzles come first in id order, where a day that ignored the variant would
/// pick them for classic.
#[test]
fn each_variant_has_its_own_puzzle_of_the_day() {
    for (_dir, db) in banks() {
        for variant in ["diagonal", "killer", "classic"] {
            fill_easy(&db, variant);
        }
        let day = |variant: &str| easy_day(&db, variant, "2026-12-24", "jsonl");
        let mut chosen = BTreeSet::new();
        for variant in ["classic", "diagonal", "killer"] {
            let first = day(variant);
            let v: serde_json::Value = serde_json::from_str(first.trim()).unwrap();
            assert_eq!(v["variant"], variant, "{first}");
            assert_eq!(v["cages"].is_array(), variant == "killer", "{first}");
            assert_eq!(day(variant), first, "{variant}: same day, same puzzle");
            assert!(chosen.insert(v["id"].as_i64().unwrap()));
        }
        assert_eq!(
            scalar(&db, "SELECT count(DISTINCT variant) FROM daily"),
            3,
            "one row a variant"
        );
    }
}

/// Schema 8 keys the day by variant: an old bank's days keep their puzzles, each under
/// its own puzzle's variant.
#[test]
fn the_migration_keys_old_days_by_their_puzzles_variant() {
    let (_dir, db) = temp_db();
    for variant in ["classic", "diagonal"] {
        fill_easy(&db, variant);
    }
    let day = |variant: &str, date: &str| ids(&easy_day(&db, variant, date, "txt"))[0];
    let classic = day("classic", "2026-12-24");
    let diagonal_id = scalar(
        &db,
        "SELECT min(id) FROM puzzles WHERE variant = 'diagonal'",
    );
    // Back to schema 7, with a day an old binary gave a diagonal puzzle as if classic.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch(&format!(
            "CREATE TABLE daily_v7 (day TEXT NOT NULL, size INTEGER NOT NULL,
                 tier TEXT NOT NULL, puzzle_id INTEGER NOT NULL REFERENCES puzzles(id),
                 PRIMARY KEY (day, size, tier));
             INSERT INTO daily_v7 SELECT day, size, tier, puzzle_id FROM daily;
             INSERT INTO daily_v7 VALUES ('2026-12-25', 9, 'easy', {diagonal_id});
             UPDATE puzzles SET served_at = '2026-12-25T00:00:00Z' WHERE id = {diagonal_id};
             DROP TABLE daily;
             ALTER TABLE daily_v7 RENAME TO daily;
             ALTER TABLE alarms DROP COLUMN variant;
             ALTER TABLE puzzles DROP COLUMN regions;
             ALTER TABLE runs DROP COLUMN tiers;
             PRAGMA user_version = 7;"
        ))
        .unwrap();
    assert_eq!(
        day("classic", "2026-12-24"),
        classic,
        "a classic day keeps its puzzle"
    );
    assert_eq!(
        day("diagonal", "2026-12-25"),
        diagonal_id,
        "the old row is the diagonal day"
    );
    let new_classic = day("classic", "2026-12-25");
    assert_ne!(new_classic, diagonal_id);
    assert_eq!(
        texts(
            &db,
            &format!("SELECT variant FROM puzzles WHERE id = {new_classic}")
        ),
        vec!["classic"]
    );
    assert_eq!(scalar(&db, "PRAGMA user_version"), 11);
}
