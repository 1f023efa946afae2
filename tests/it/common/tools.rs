//! Outside programs that picture tests look through (poppler's pdftotext and pdftoppm,
//! Chromium and ChromeDriver), and where those tests keep what they saw.
//!
//! A missing program skips the test with a loud message, unless
//! `SUDOKU_BANK_REQUIRE_TOOLS=1` (set by `.ci/run`), which makes it a failure.

use std::path::PathBuf;
use std::process::Command;

/// The variable that turns a missing program into a failure.
pub const REQUIRE: &str = "SUDOKU_BANK_REQUIRE_TOOLS";

/// Whether every program runs; if not, says so loudly (or panics under [`REQUIRE`]).
pub fn available(programs: &[&str], package: &str) -> bool {
    let missing: Vec<&str> = programs
        .iter()
        .copied()
        .filter(|p| {
            Command::new(p).arg("--version").output().map_or(true, |o| {
                !o.status.success() && o.stdout.is_empty() && o.stderr.is_empty()
            })
        })
        .collect();
    if missing.is_empty() {
        return true;
    }
    if std::env::var(REQUIRE).is_ok_and(|v| v == "1") {
        panic!("{REQUIRE}=1 but {missing:?} cannot be run: apt-get install -y {package}");
    }
    eprintln!(
        "\n!!!!!!!! SKIPPING: {missing:?} not found\n\
         !!!!!!!! (apt-get install -y {package}, or set {REQUIRE}=1 to fail instead)\n"
    );
    false
}

/// A folder for screenshots and rendered pages that outlives the test:
/// `target/tmp/artifacts/`.
pub fn artifacts() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("artifacts");
    std::fs::create_dir_all(&dir).expect("create the artifacts folder");
    dir
}
