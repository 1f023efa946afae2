//! `bank solve` and `bank canon` through the binary.

use crate::common::{bank, data, stderr, stdout};

const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

#[test]
fn solve_prints_solution_none_or_multiple() {
    let mut none = String::from("12345678.........9");
    none.push_str(&".".repeat(63));
    let input = format!("{HARD}\n{none}\n{}\n", ".".repeat(81));
    let o = bank(&["solve"], Some(&input));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{SOLUTION}\nnone\nmultiple\n"));
}

#[test]
fn solve_counts_and_reports_stats() {
    let o = bank(
        &["solve", "--count", "--limit", "1000", "-"],
        Some(&format!("{HARD}\n{}\n", ".".repeat(16))),
    );
    assert_eq!(stdout(&o), "1\n288\n");
    let o = bank(&["solve", "--stats"], Some(HARD));
    assert!(
        stdout(&o).starts_with(&format!("{SOLUTION}\tnodes=")),
        "{}",
        stdout(&o)
    );
}

#[test]
fn solve_reads_a_file_with_zeros_and_ratings() {
    let path = data("rating/se_calibration.txt");
    let o = bank(&["solve", path.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 11_791);
    assert!(lines.iter().all(|l| l.len() == 81 && !l.contains('.')));
}

#[test]
fn malformed_lines_are_named_and_skipped() {
    let input = format!("{HARD}\n55{}\n123\n", &HARD[2..]);
    let o = bank(&["solve"], Some(&input));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), format!("{SOLUTION}\n"));
    let err = stderr(&o);
    assert!(
        err.contains("<stdin>: line 2: digit 5 appears twice in row 1"),
        "{err}"
    );
    assert!(
        err.contains("line 3: 3 cells, expected 16, 36, 81, 144 or 256"),
        "{err}"
    );
    assert!(!err.contains("panicked"));
}

#[test]
fn missing_file_and_directory_are_refused() {
    let o = bank(&["solve", "/no/such/file.txt"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read '/no/such/file.txt'"));
    let o = bank(&["solve", "/tmp"], None);
    assert!(stderr(&o).contains("is a directory"));
}

#[test]
fn canon_gives_one_fingerprint_to_transformed_copies() {
    // HARD, and HARD mirrored left-right with digits relabelled d -> 10 - d.
    let mirrored: String = HARD
        .as_bytes()
        .chunks(9)
        .flat_map(|row| row.iter().rev())
        .map(|&b| {
            if b == b'.' {
                '.'
            } else {
                (b'0' + 10 - (b - b'0')) as char
            }
        })
        .collect();
    let o = bank(&["canon"], Some(&format!("{HARD}\n{mirrored}\n")));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0], lines[1]);
    let (canon, fp) = lines[0].split_once('\t').unwrap();
    assert_eq!(canon.len(), 81);
    assert_eq!(fp.len(), 64);
}

#[test]
fn explicit_size_is_enforced() {
    let mut four = String::from("1234");
    four.push_str(&".".repeat(12));
    let o = bank(
        &["solve", "--size", "4", "--count"],
        Some(&format!("{four}\n{HARD}\n")),
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "12\n");
    assert!(
        stderr(&o).contains("line 2: 81 cells, expected 16 for 4x4"),
        "{}",
        stderr(&o)
    );
    let o = bank(&["rate", "--size", "7"], Some(HARD));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unsupported --size 7"),
        "{}",
        stderr(&o)
    );
}
