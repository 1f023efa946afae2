//! The README against the binary: every flag its command table names exists in that
//! command's `--help` and every flag of `--help` is in the table; every example runs.

use crate::common::{bank, stderr};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

/// `--flag` words of some text.
fn flags(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("--") {
        let name: String = rest[at + 2..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
            .collect();
        if !name.is_empty() && name.chars().next().unwrap().is_ascii_lowercase() {
            out.insert(name.trim_end_matches('-').to_string());
        }
        rest = &rest[at + 2..];
    }
    out
}

/// The command table: each command (its words after `bank`) and the flags its synopses
/// name, over every row that shows it.
fn table() -> BTreeMap<Vec<String>, BTreeSet<String>> {
    let text = readme();
    let start = text.find("## Commands").unwrap();
    let mut out: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    for row in text[start..]
        .lines()
        .skip(4)
        .take_while(|l| l.starts_with('|'))
    {
        let first = row.trim_start_matches('|').split(" | ").next().unwrap();
        for synopsis in first.split('`').skip(1).step_by(2) {
            for one in synopsis.split(" / ") {
                let Some(rest) = one.trim().strip_prefix("bank ") else {
                    continue;
                };
                let words: Vec<String> = rest
                    .split_whitespace()
                    .take_while(|w| w.chars().all(|c| c.is_ascii_lowercase()))
                    .map(str::to_string)
                    .collect();
                out.entry(words).or_default().extend(flags(one));
            }
        }
    }
    assert!(
        out.len() > 20,
        "the table has its commands: {:?}",
        out.keys()
    );
    out
}

/// The long flags a command's `--help` lists.
fn help_flags(words: &[String]) -> BTreeSet<String> {
    let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
    args.push("--help");
    let out = bank(&args, None);
    assert!(
        out.status.success(),
        "bank {}: {}",
        args.join(" "),
        stderr(&out)
    );
    let help = String::from_utf8_lossy(&out.stdout).to_string();
    help.lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("--") || (l.starts_with('-') && l.get(2..6) == Some(", --")))
        .filter_map(|l| flags(l.split_whitespace().find(|w| w.starts_with("--"))?).pop_first())
        .filter(|f| !["help", "version", "log-format"].contains(&f.as_str()))
        .collect()
}

#[test]
fn the_command_table_names_every_flag_and_only_real_ones() {
    let mut wrong = Vec::new();
    for (words, named) in table() {
        let real = help_flags(&words);
        let cmd = format!("bank {}", words.join(" "));
        for f in named.difference(&real) {
            wrong.push(format!(
                "{cmd}: the README names --{f}, which --help does not list"
            ));
        }
        for f in real.difference(&named) {
            wrong.push(format!(
                "{cmd}: --{f} is in --help but not in the README's table"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_command_of_the_help_is_in_the_table() {
    let out = bank(&["--help"], None);
    let help = String::from_utf8_lossy(&out.stdout).to_string();
    let listed: BTreeSet<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect();
    let table: BTreeSet<String> = table().keys().filter_map(|w| w.first().cloned()).collect();
    let missing: Vec<_> = listed.difference(&table).collect();
    assert!(
        missing.is_empty(),
        "commands missing from the README's table: {missing:?}"
    );
}

/// Every example line of the README's code blocks: those that need a server or run for
/// minutes are only parsed (`--help` appended), the rest run in a temp dir in order, with
/// `| tee FILE` and `"$(cat FILE)"` done as a shell would.
#[test]
fn every_readme_example_runs() {
    let dir = tempfile::tempdir().unwrap();
    let text = readme();
    let mut in_block = false;
    let mut ran = 0;
    for line in text.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        let line = line.trim_start_matches("$ ");
        let Some(args) = line
            .strip_prefix("bank ")
            .or_else(|| line.strip_prefix("cargo run --release -- "))
            .filter(|_| in_block)
        else {
            continue;
        };
        let args = args
            .split(" # ")
            .next()
            .unwrap()
            .split("  #")
            .next()
            .unwrap()
            .trim();
        let (args, tee) = match args.split_once(" | tee ") {
            Some((a, file)) => (a, Some(file.trim())),
            None => (args, None),
        };
        // `"$(cat FILE)"`: the file's text as one argument.
        let mut pasted = None;
        let mut args = args.to_string();
        if let Some(at) = args.find("\"$(cat ") {
            let end = at + args[at..].find(")\"").expect("a closed $(cat ...)") + 2;
            let file = &args[at + 7..end - 2];
            pasted = Some(std::fs::read_to_string(dir.path().join(file)).unwrap());
            args.replace_range(at..end, "\u{1}");
        }
        let mut words: Vec<String> = args
            .split_whitespace()
            .map(|w| match (w, &pasted) {
                ("\u{1}", Some(text)) => text.trim().to_string(),
                _ => w.to_string(),
            })
            .collect();
        // A server elsewhere, a benchmark over every public set, or the nightly job on the
        // default quotas (tens of thousands of puzzles): parsed, not run.
        let parse_only =
            args.contains("db.example") || ["bench", "nightly"].contains(&words[0].as_str());
        if parse_only {
            words.push("--help".into());
        }
        let out = Command::new(env!("CARGO_BIN_EXE_bank"))
            .args(&words)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README example `{line}` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some(file) = tee {
            std::fs::write(dir.path().join(file), &out.stdout).unwrap();
        }
        ran += 1;
    }
    assert!(ran >= 10, "only {ran} examples found");
}
