//! Faults and odd input, run against the real binary: a full disk, banks created and
//! filled by several processes at once, bytes that are not text, files that are not
//! banks, banks of a newer schema, an unwritable stderr. Each test checks what the tool
//! reports against what the bank holds.

use crate::common::{bank, stderr, stdout};
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn count(db: &Path, sql: &str) -> i64 {
    Connection::open(db)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

/// The `N stored` figure of a fill's summary line.
fn stored_in_summary(err: &str) -> i64 {
    let line = err
        .lines()
        .find(|l| l.starts_with("run ") && l.contains(" stored "))
        .unwrap_or_else(|| panic!("no summary line in: {err}"));
    let before = &line[..line.find(" stored ").unwrap()];
    before.rsplit(' ').next().unwrap().parse().unwrap()
}

/// Runs `bank` through `sh` with a file-size limit of `blocks` 512-byte blocks and SIGXFSZ
/// ignored, so that writes past the limit fail as on a full disk.
fn bank_with_file_limit(blocks: u32, args: &[&str]) -> Output {
    let script = format!("trap '' XFSZ; ulimit -f {blocks}; exec \"$0\" \"$@\"");
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_bank"))
        .args(args)
        .output()
        .unwrap()
}

/// Flags of a quick fill: 4x4 grids reach only the easy tier.
const EASY_4X4: &[&str] = &["--size", "4", "--tier", "easy"];

/// A new bank `b.sqlite` in a temporary folder, filled by `fill` with `args`.
fn filled_bank(args: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite");
    let mut all = vec!["fill", "--db", db.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = bank(&all, None);
    assert!(o.status.success(), "{}", stderr(&o));
    (dir, db)
}

#[test]
fn a_full_disk_is_a_storage_error_with_true_counts() {
    // A first small fill makes the bank; the second runs into the limit.
    let (_dir, db) = filled_bank(&["--count", "10", "--tier", "easy"]);
    let db_s = db.to_str().unwrap();
    let o = bank_with_file_limit(
        1200,
        &[
            "fill",
            "--count",
            "20000",
            "--tier",
            "easy",
            "--seed",
            "3",
            "--db",
            db_s,
            "--summary-json",
            "/dev/stdout",
        ],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "a storage error is exit 2: {err}");
    assert!(err.contains("the bank refused a write"), "{err}");
    assert!(
        err.contains("full") || err.contains("I/O"),
        "the cause is named: {err}"
    );
    let rows = count(&db, "SELECT count(*) FROM puzzles WHERE run_id = 2");
    assert!(rows > 0 && rows < 20_000, "{rows}");
    assert_eq!(stored_in_summary(&err), rows, "{err}");
    let row_accepted = count(&db, "SELECT accepted FROM runs WHERE id = 2");
    assert_eq!(row_accepted, rows, "the runs row counts what is stored");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["status"], "failed");
    assert_eq!(json["counts"]["accepted"].as_i64(), Some(rows));
    assert_eq!(json["items"][0]["accepted"].as_i64(), Some(rows));
    assert!(json["message"]
        .as_str()
        .unwrap()
        .contains("refused a write"));
    assert_eq!(
        Connection::open(&db)
            .unwrap()
            .query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
            .unwrap(),
        "ok"
    );
}

#[test]
fn processes_creating_one_new_bank_at_once_all_succeed() {
    let dir = tempfile::tempdir().unwrap();
    for round in 0..50 {
        let db = dir.path().join(format!("new{round}.sqlite"));
        let db_s = db.to_str().unwrap().to_string();
        let children: Vec<_> = (0..4)
            .map(|seed| {
                Command::new(env!("CARGO_BIN_EXE_bank"))
                    .args(["fill", "--count", "1", "--size", "4", "--tier", "easy"])
                    .args(["--seed", &seed.to_string(), "--db", &db_s])
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let o = child.wait_with_output().unwrap();
            assert!(o.status.success(), "round {round}: {}", stderr(&o));
        }
        assert_eq!(count(&db, "SELECT count(*) FROM runs"), 4);
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".new"))
            .collect();
        assert!(left.is_empty(), "temporary files left: {left:?}");
    }
}

/// Four fills with one seed make the same puzzles: each stores what the others did not
/// store first. Each reports exactly what it stored itself, and exits 0 only when it
/// stored all it was asked for ("met" means stored by this run).
#[test]
fn concurrent_fills_report_what_each_stored() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite");
    let db_s = db.to_str().unwrap().to_string();
    let o = bank(
        &["fill", "--count", "1", "--size", "4", "--db", &db_s],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let children: Vec<_> = (0..4)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_bank"))
                .args(["fill", "--count", "400", "--tier", "easy", "--seed", "77"])
                .args(["--db", &db_s, "--summary-json"])
                .arg(dir.path().join(format!("s{}.json", rand_name())))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut total = 0;
    for child in children {
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        let stored = stored_in_summary(&err);
        total += stored;
        let run: i64 = err["run ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let rows = count(
            &db,
            &format!("SELECT count(*) FROM puzzles WHERE run_id = {run}"),
        );
        assert_eq!(stored, rows, "run {run}: {err}");
        let accepted = count(&db, &format!("SELECT accepted FROM runs WHERE id = {run}"));
        assert_eq!(accepted, rows, "run {run}");
        assert!(err.contains(&format!("9x9 easy={rows}/400")), "{err}");
        let expected = if rows == 400 { 0 } else { 1 };
        assert_eq!(o.status.code(), Some(expected), "{err}");
    }
    assert_eq!(
        total,
        count(&db, "SELECT count(*) FROM puzzles WHERE run_id > 1")
    );
    let mut summaries = 0;
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let run = v["run_id"].as_i64().unwrap();
            let rows = count(
                &db,
                &format!("SELECT count(*) FROM puzzles WHERE run_id = {run}"),
            );
            assert_eq!(v["counts"]["accepted"].as_i64(), Some(rows));
            assert_eq!(v["items"][0]["accepted"].as_i64(), Some(rows));
            summaries += 1;
        }
    }
    assert_eq!(summaries, 4);
}

fn rand_name() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::SeqCst)
}

/// Three good puzzles; one with bytes that are not text in a trailing field (still good);
/// one with them in its cells; one with a NUL byte.
fn mixed_input() -> Vec<u8> {
    let good = [
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
        "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
    ];
    let mut bytes = Vec::new();
    bytes.extend_from_slice(good[0].as_bytes());
    bytes.push(b'\n');
    bytes.extend_from_slice(good[1].as_bytes());
    bytes.extend_from_slice(b" rated \xff\xfe by someone\n");
    bytes.extend_from_slice(
        b"4.....8.5.3..\xc3(.......7......2.....6.....8.4......1.......6.3.7.5..2.....1.4.....\n",
    );
    bytes.extend_from_slice(
        b"4.....8.5.3...\x00......7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
    );
    bytes.extend_from_slice(good[2].as_bytes());
    bytes.push(b'\n');
    bytes
}

#[test]
fn bytes_that_are_not_text_are_reported_by_line_in_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.txt");
    std::fs::write(&file, mixed_input()).unwrap();
    let file = file.to_str().unwrap();
    for command in ["solve", "canon", "rate"] {
        let o = bank(&[command, file], None);
        let (out, err) = (stdout(&o), stderr(&o));
        assert_eq!(o.status.code(), Some(2), "{command}: {err}");
        assert_eq!(out.lines().count(), 3, "{command}: {out}");
        assert!(
            err.contains("line 3: ") && err.contains("not UTF-8"),
            "{command}: {err}"
        );
        assert!(err.contains("line 4: "), "{command}: {err}");
        assert!(
            !err.contains("line 2:"),
            "a trailing field is ignored: {err}"
        );
    }
    let db = dir.path().join("b.sqlite");
    let o = bank(&["import", file, "--db", db.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("imported 3 puzzles"), "{}", stderr(&o));
    assert_eq!(count(&db, "SELECT count(*) FROM puzzles"), 3);
    assert_eq!(
        count(&db, "SELECT count(*) FROM runs WHERE status = 'completed'"),
        1
    );
    // A config that is not text is refused by name before the bank is touched.
    let config = dir.path().join("bad.toml");
    let mut text = sudoku_bank::config::DEFAULT_CONFIG.as_bytes().to_vec();
    text.extend_from_slice(b"\n# \xff\x00\n");
    std::fs::write(&config, text).unwrap();
    let fresh = dir.path().join("fresh.sqlite");
    let o = bank(
        &["fill", "--count", "1", "--config", config.to_str().unwrap()]
            .into_iter()
            .chain(["--db", fresh.to_str().unwrap()])
            .collect::<Vec<_>>(),
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("bad.toml"), "{}", stderr(&o));
    assert!(!fresh.exists());
}

#[test]
fn tiny_and_empty_files_are_not_banks() {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in [
        ("empty.sqlite", &b""[..]),
        ("one.sqlite", b"x"),
        ("short.sqlite", b"SQLite format 3\0"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        let o = bank(
            &["fill", "--count", "1", "--db", path.to_str().unwrap()],
            None,
        );
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("is not a SQLite bank"),
            "{}",
            stderr(&o)
        );
        assert_eq!(std::fs::read(&path).unwrap(), content, "{name} untouched");
    }
}

#[test]
fn a_newer_schema_is_refused_byte_for_byte_untouched() {
    let dir = tempfile::tempdir().unwrap();
    for mode in ["DELETE", "WAL"] {
        let db = dir.path().join(format!("{mode}.sqlite"));
        let o = bank(
            &[
                &["fill", "--count", "2"],
                EASY_4X4,
                &["--db", db.to_str().unwrap()],
            ]
            .concat(),
            None,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        {
            let conn = Connection::open(&db).unwrap();
            let _: String = conn
                .query_row(&format!("PRAGMA journal_mode = {mode}"), [], |r| r.get(0))
                .unwrap();
            conn.pragma_update(None, "user_version", 99).unwrap();
        }
        let before = std::fs::read(&db).unwrap();
        for args in [
            &["fill", "--count", "1"][..],
            &["import", "/dev/null"],
            &["stats"],
        ] {
            let mut all = args.to_vec();
            all.extend(["--db", db.to_str().unwrap()]);
            let o = bank(&all, None);
            assert_eq!(o.status.code(), Some(2), "{mode} {args:?}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("newer than this binary"),
                "{}",
                stderr(&o)
            );
            assert_eq!(
                std::fs::read(&db).unwrap(),
                before,
                "{mode} {args:?}: bytes changed"
            );
        }
    }
}

#[test]
fn an_unwritable_stderr_does_not_change_the_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_bank"))
        .args(
            [
                &["fill", "--count", "3"],
                EASY_4X4,
                &["--db", db.to_str().unwrap()],
            ]
            .concat(),
        )
        .stderr(full)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(count(&db, "SELECT count(*) FROM puzzles"), 3);
}

#[test]
fn verify_calls_a_puzzle_with_several_solutions_corrupt_not_drifted() {
    let (_dir, db) = filled_bank(&["--count", "4", "--tier", "easy", "--seed", "2"]);
    let db_s = db.to_str().unwrap();
    // Clearing every clue leaves a puzzle with many solutions.
    Connection::open(&db)
        .unwrap()
        .execute(
            "UPDATE puzzles SET puzzle = replace(replace(replace(puzzle, '1', '.'), '2', '.'), '3', '.') WHERE id = 1",
            [],
        )
        .unwrap();
    let o = bank(&["verify", "--db", db_s], None);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("puzzle 1: corrupt: puzzle has more than one solution"),
        "{out}"
    );
    assert!(!out.contains("puzzle 1: drift"), "{out}");
}

/// `solve --count` prints each answer once it is known, not all at the end.
#[test]
fn solve_count_streams_its_answers() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_bank"))
        .args(["solve", "--count", "--limit", "100000000", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        // A puzzle with a few hundred thousand solutions, then an empty grid (far more
        // than the limit: the count runs until the limit).
        writeln!(
            input,
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        )
        .unwrap();
        writeln!(input, "{}", ".".repeat(81)).unwrap();
    }
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert_eq!(first, "1");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the first answer came before the second was counted"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}

/// A writable bank in a folder the user cannot write is named as a folder problem (WAL
/// keeps files beside the bank). Root may write anywhere, so as root the bank runs as
/// `nobody` through `runuser`.
#[test]
fn a_read_only_folder_is_named_as_the_problem() {
    use std::os::unix::fs::PermissionsExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    if root && !Path::new("/usr/sbin/runuser").exists() {
        eprintln!("SKIPPED a_read_only_folder_is_named_as_the_problem: root without runuser");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let folder = dir.path().join("ro");
    std::fs::create_dir(&folder).unwrap();
    let db = folder.join("b.sqlite");
    let db_s = db.to_str().unwrap();
    let o = bank(
        &[
            "fill", "--count", "2", "--size", "4", "--tier", "easy", "--db", db_s,
        ],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // A copy of the binary that `nobody` can run wherever the build lives.
    let binary = dir.path().join("bank");
    std::fs::copy(env!("CARGO_BIN_EXE_bank"), &binary).unwrap();
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    let binary = binary.to_str().unwrap();
    let fill = [&[binary, "fill", "--count", "1"], EASY_4X4, &["--db", db_s]].concat();
    if root {
        let chown = Command::new("chown").args(["nobody", db_s]).status();
        assert!(chown.unwrap().success());
    }
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).unwrap();
    let o = if root {
        Command::new("runuser")
            .args(["-u", "nobody", "--"])
            .args(&fill)
            .output()
            .unwrap()
    } else {
        Command::new(fill[0]).args(&fill[1..]).output().unwrap()
    };
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("its folder is not writable"),
        "{}",
        stderr(&o)
    );
}
