//! Entry points for fuzzing the parts that read outside input: puzzle lines, config files
//! and the import line reader. The cargo-fuzz targets in `fuzz/` call these with raw
//! bytes, and `tests/it/fuzz_corpus.rs` replays every saved input through them, so a case
//! the fuzzer once found stays a test. Each checks invariants and panics when one breaks.

use crate::canon::fingerprint;
use crate::config::Settings;
use crate::formats::lines;
use crate::grid::{parse_line, parse_line_with, Geometry, Variant, SUPPORTED_SIZES};
use crate::solver::Solver;
use std::io::Cursor;
use std::time::{Duration, Instant};

/// A puzzle line: whatever parses prints back as a line that parses to the same grid,
/// with no digit twice in a unit, under its own size and only under it.
pub fn puzzle_line(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let Ok(grid) = parse_line(&text) else {
        return;
    };
    assert!(grid.find_conflict().is_none(), "{text}");
    let line = grid.to_line();
    assert_eq!(parse_line(&line).as_ref(), Ok(&grid), "{text}");
    for n in SUPPORTED_SIZES {
        let g = Geometry::for_size(n).expect("supported");
        assert_eq!(
            parse_line_with(&text, g).is_ok(),
            g == grid.geometry(),
            "{text}"
        );
    }
}

/// A config file: refused with a message or resolved into settings whose every size
/// either has strategies to dig with or says why not.
pub fn config_text(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let Ok(settings) = Settings::parse(&text, "fuzz.toml") else {
        return;
    };
    for n in SUPPORTED_SIZES {
        let g = Geometry::for_size(n).expect("supported");
        let _ = settings.generation.strategies_for(g);
        // Killer is made in its own sizes only.
        let variants = Variant::ALL.into_iter().filter(|v| v.rules().made_in(n));
        for v in variants {
            let tiers = settings.tiers(g.with_variant(v));
            assert!(
                !tiers.is_empty(),
                "no tiers for {}",
                g.with_variant(v).label()
            );
            for tier in tiers {
                let (low, high) = tier.clue_range(g);
                assert!(low <= high && high <= g.cells(), "{}", tier.name);
            }
        }
    }
}

/// The import reader: every line is a puzzle or a numbered reason; a puzzle with one
/// solution is fingerprinted (rating is left to the rater's own tests: it is slow on the
/// puzzles fuzzing makes).
pub fn import_lines(bytes: &[u8]) {
    let mut last = 0;
    for line in lines::puzzles(
        Box::new(Cursor::new(bytes.to_vec())),
        None,
        Variant::default(),
    ) {
        let line = line.expect("reading from memory cannot fail");
        assert!(line.number > last, "line numbers ascend");
        last = line.number;
        if let Ok(p) = line.puzzle {
            // As `bank import` does, with a budget: some sparse large grids take the
            // solver exponential time to prove they have no solution.
            let deadline = Some(Instant::now() + Duration::from_secs(1));
            if let Ok(counted) = Solver::with_deadline(deadline).count(&p, 2) {
                if counted.count == 1 {
                    assert_eq!(fingerprint(&p).len(), 64);
                }
            }
        }
    }
}

/// The export rows `bank import` reads: CSV lines split by RFC 4180 rules (a line without
/// quotes splits at every comma and joins back the same) and JSON objects whose fields are
/// read as text and parsed into their types, never panicking.
pub fn export_rows(bytes: &[u8]) {
    use crate::formats::exchange::{csv_split, Row};
    let text = String::from_utf8_lossy(bytes);
    for line in text.lines() {
        if let Ok(cells) = csv_split(line) {
            if !line.contains('"') {
                assert_eq!(
                    cells.join(","),
                    line,
                    "a plain CSV line splits at its commas"
                );
            }
        }
        if let Ok(serde_json::Value::Object(map)) = serde_json::from_str(line) {
            let row = Row::Json(map);
            for name in [
                "puzzle",
                "seed",
                "grid_seed",
                "route",
                "dig_strategy",
                "size",
            ] {
                let _ = row.text(name);
                let _ = row.parsed::<u64>(name);
                let _ = row.parsed::<crate::generate::Route>(name);
                let _ = row.parsed::<crate::generate::Strategy>(name);
            }
        }
    }
}
