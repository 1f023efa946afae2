//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use sudoku_bank::grid::{parse_line, Grid};

/// The reference data folder beside the project.
pub fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(rel)
}

/// Every puzzle of a reference file (first token of each line).
pub fn puzzles(rel: &str) -> Vec<Grid> {
    let text = std::fs::read_to_string(data(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| parse_line(l).unwrap_or_else(|e| panic!("{rel}: {l}: {e}")))
        .collect()
}

/// Runs the `bank` binary with `args` (and optional stdin).
pub fn bank(args: &[&str], stdin: Option<&str>) -> Output {
    use std::io::Write;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bank"));
    cmd.args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().expect("spawn bank");
    {
        let mut input = child.stdin.take().unwrap();
        if let Some(s) = stdin {
            // A command refusing its arguments exits without reading its input: the pipe
            // may then be closed before everything is written.
            match input.write_all(s.as_bytes()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                r => r.unwrap(),
            }
        }
    }
    child.wait_with_output().unwrap()
}

/// Stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `bank` with `args`, asserts it succeeded, and returns its stdout.
pub fn ok(args: &[&str]) -> String {
    let o = bank(args, None);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The single integer a query on the bank at `db` returns.
pub fn scalar(db: &str, sql: &str) -> i64 {
    rusqlite::Connection::open(db)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// A temp dir and the path of a bank file in it (the dir lives as long as the first value).
pub fn temp_db() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite").to_str().unwrap().to_string();
    (dir, db)
}
