//! Replays every saved fuzz input (the seeds and the regressions, cases the fuzzers in
//! `fuzz/` once found) through the same entry points the fuzz targets call, on stable.

use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut replayed = 0;
    for kind in ["seeds", "regressions"] {
        let dir = root.join(kind).join(target);
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.file_name().is_some_and(|n| n == ".gitkeep") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| check(&bytes));
            assert!(outcome.is_ok(), "{} broke an invariant", path.display());
            replayed += 1;
        }
    }
    replayed
}

#[test]
fn puzzle_lines_replay() {
    assert!(replay("puzzle_line", sudoku_bank::fuzz::puzzle_line) >= 3);
}

#[test]
fn config_texts_replay() {
    assert!(replay("config_text", sudoku_bank::fuzz::config_text) >= 1);
}

#[test]
fn import_lines_replay() {
    assert!(replay("import_lines", sudoku_bank::fuzz::import_lines) >= 2);
}

#[test]
fn export_rows_replay() {
    assert!(replay("export_rows", sudoku_bank::fuzz::export_rows) >= 2);
}
