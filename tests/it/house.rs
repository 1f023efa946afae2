//! The house: the module map that opens `docs/design-notes.md` against the tree under
//! `src/` and the imports of its code (test modules and comments aside).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// One row of the map: the modules it is about, its text, and the modules it may use
/// (`None`: every row above it).
struct Row {
    modules: Vec<String>,
    text: String,
    may_use: Option<Vec<String>>,
}

fn map_rows() -> Vec<Row> {
    let notes = std::fs::read_to_string(Path::new(ROOT).join("docs/design-notes.md")).unwrap();
    let start = notes.find("## Module map").expect("the map's heading");
    let rows: Vec<Row> = notes[start..]
        .lines()
        .skip_while(|l| !l.starts_with("| module"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
            assert_eq!(cells.len(), 3, "a map row has three cells: {line}");
            let modules = backticked(cells[0])
                .map(|m| m.trim_end_matches('/').trim_end_matches(".rs").to_string())
                .collect();
            let may_use = match cells[2].trim() {
                "—" => Some(Vec::new()),
                "everything above" => None,
                list => Some(list.split(", ").map(str::to_string).collect()),
            };
            Row {
                modules,
                text: cells[1].to_string(),
                may_use,
            }
        })
        .collect();
    assert!(rows.len() > 10, "the map has its rows");
    rows
}

/// The `code` spans of a line of Markdown.
fn backticked(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

/// Every file under `dir`, as paths relative to `src/`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(
                path.strip_prefix(Path::new(ROOT).join("src"))
                    .unwrap()
                    .into(),
            );
        }
    }
}

fn src_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    files(&Path::new(ROOT).join("src"), &mut out);
    out.sort();
    out
}

/// A source file's code outside its test module, without comments.
fn code(rel: &Path) -> String {
    let text = std::fs::read_to_string(Path::new(ROOT).join("src").join(rel)).unwrap();
    let cut = text.find("#[cfg(test)]\nmod tests").unwrap_or(text.len());
    text[..cut]
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module path of a source file: `rate/techniques/step.rs` → `rate::techniques::step`,
/// a folder's `mod.rs` → the folder.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Every path a piece of code names from `crate`, `super` or `self`, made absolute (use
/// trees expanded), as module path segments.
fn paths_named(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let (other, uses) = use_declarations(code);
    let mut flat = other;
    for (_, tree) in uses {
        for path in expand(&tree) {
            flat.push_str(&path);
            flat.push('\n');
        }
    }
    let mut out = Vec::new();
    let bytes = flat.as_bytes();
    for anchor in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(found) = flat[from..].find(anchor) {
            let at = from + found;
            from = at + anchor.len();
            // Part of a longer name, or the tail of a longer path (`super::super::`), which
            // is read from its start.
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            if at > 1 && &flat[at - 2..at] == "::" {
                continue;
            }
            let len = flat[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(flat.len() - at);
            let path: Vec<&str> = flat[at..at + len]
                .split("::")
                .filter(|s| !s.is_empty())
                .collect();
            let mut abs: Vec<String> = Vec::new();
            let mut segments = path.iter().peekable();
            match path[0] {
                "crate" => {
                    segments.next();
                }
                "self" => {
                    abs.extend(module.iter().cloned());
                    segments.next();
                }
                _ => {
                    abs.extend(module.iter().cloned());
                    while segments.peek() == Some(&&"super") {
                        abs.pop();
                        segments.next();
                    }
                }
            }
            abs.extend(segments.map(|s| s.to_string()));
            out.push(abs);
        }
    }
    out
}

/// The use declarations of some code (which may span lines), as their lead (`use `,
/// `pub use `...) and tree, and the code without them.
fn use_declarations(code: &str) -> (String, Vec<(&'static str, String)>) {
    let (mut other, mut uses) = (String::new(), Vec::new());
    let mut lines = code.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        let found = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
            .into_iter()
            .find_map(|lead| Some((lead, trimmed.strip_prefix(lead)?)));
        let Some((lead, tree)) = found else {
            other.push_str(line);
            other.push('\n');
            continue;
        };
        let mut tree = tree.to_string();
        while !tree.contains(';') {
            let Some(more) = lines.next() else { break };
            tree.push_str(more);
        }
        uses.push((lead, tree.trim_end().trim_end_matches(';').to_string()));
    }
    (other, uses)
}

/// A use tree's paths: `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap().trim();
        return vec![path.to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap()];
    let (mut depth, mut start, mut out) = (0, 0, Vec::new());
    for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                let part = inner[start..i].trim();
                if !part.is_empty() {
                    out.extend(expand(part).into_iter().map(|p| format!("{prefix}{p}")));
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}

#[test]
fn every_folder_and_file_under_src_is_on_the_map() {
    let rows = map_rows();
    let mut missing = Vec::new();
    for rel in src_files() {
        let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into()).collect();
        let top = parts[0].trim_end_matches(".rs");
        let Some(row) = rows.iter().find(|r| r.modules.iter().any(|m| m == top)) else {
            missing.push(format!("{}: no row for `{top}`", rel.display()));
            continue;
        };
        let named: BTreeSet<&str> = backticked(&row.text).collect();
        let mentions = |name: &str| named.iter().any(|n| n.split([' ', ',']).any(|w| w == name));
        for folder in parts.iter().take(parts.len() - 1).skip(1) {
            if !mentions(&format!("{folder}/")) {
                missing.push(format!(
                    "{}: the row of `{top}` names no `{folder}/`",
                    rel.display()
                ));
            }
        }
        let file = parts.last().unwrap();
        if parts.len() > 1 && file != "mod.rs" && !mentions(file) {
            missing.push(format!(
                "{}: the row of `{top}` names no `{file}`",
                rel.display()
            ));
        }
    }
    assert!(
        missing.is_empty(),
        "docs/design-notes.md's map misses:\n{}",
        missing.join("\n")
    );
}

#[test]
fn each_module_uses_only_what_its_row_allows() {
    let rows = map_rows();
    let mut wrong = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let above: BTreeSet<&str> = rows[..i]
            .iter()
            .flat_map(|r| &r.modules)
            .map(String::as_str)
            .collect();
        if let Some(list) = &row.may_use {
            for m in list.iter().filter(|m| !above.contains(m.as_str())) {
                wrong.push(format!(
                    "the row of {:?} allows `{m}`, which is not above it",
                    row.modules
                ));
            }
        }
    }
    for rel in src_files()
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
    {
        let module = module_of(&rel);
        let top = module.first().cloned().unwrap_or_else(|| "lib".into());
        let row_at = rows
            .iter()
            .position(|r| r.modules.contains(&top))
            .expect("on the map");
        let allowed: BTreeSet<&str> = match &rows[row_at].may_use {
            Some(list) => list.iter().map(String::as_str).collect(),
            None => rows[..row_at]
                .iter()
                .flat_map(|r| &r.modules)
                .map(String::as_str)
                .collect(),
        };
        for path in paths_named(&code(&rel), &module) {
            let Some(used) = path.first() else { continue };
            if *used != top
                && !allowed.contains(used.as_str())
                && rows.iter().any(|r| r.modules.contains(used))
            {
                wrong.push(format!(
                    "{} uses `{}`: not in its row's \"may use\"",
                    rel.display(),
                    path.join("::")
                ));
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_two_files_of_a_folder_use_each_other() {
    let files: Vec<PathBuf> = src_files()
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
        .collect();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    // Items a folder re-exports from a child (`pub use child::{Item}`), by folder and name.
    let mut exported: BTreeMap<(Vec<String>, String), String> = BTreeMap::new();
    for rel in files.iter().filter(|f| f.ends_with("mod.rs")) {
        let folder = module_of(rel);
        let (_, uses) = use_declarations(&code(rel));
        for (_, tree) in uses.iter().filter(|(lead, _)| *lead == "pub use ") {
            for path in expand(tree) {
                let parts: Vec<&str> = path.split("::").collect();
                if parts.len() >= 2
                    && modules.contains(&[folder.clone(), vec![parts[0].to_string()]].concat())
                {
                    exported.insert(
                        (folder.clone(), parts.last().unwrap().to_string()),
                        parts[0].to_string(),
                    );
                }
            }
        }
    }
    // Edges between the children of each folder.
    let mut edges: BTreeMap<Vec<String>, BTreeSet<(String, String)>> = BTreeMap::new();
    for rel in &files {
        let module = module_of(rel);
        for mut path in paths_named(&code(rel), &module) {
            // Through a folder's re-export to the child that defines the item.
            for len in (1..path.len()).rev() {
                let folder = path[..len].to_vec();
                if modules.contains(&folder) && !modules.contains(&path[..len + 1]) {
                    if let Some(child) = exported.get(&(folder.clone(), path[len].clone())) {
                        path = [folder, vec![child.clone()]].concat();
                    }
                    break;
                }
            }
            let common = module.iter().zip(&path).take_while(|(a, b)| a == b).count();
            if common < module.len() && common < path.len() {
                let folder = module[..common].to_vec();
                let to = path[common].clone();
                if modules.contains(&[folder.clone(), vec![to.clone()]].concat()) {
                    edges
                        .entry(folder)
                        .or_default()
                        .insert((module[common].clone(), to));
                }
            }
        }
    }
    let mut cycles = Vec::new();
    for (folder, pairs) in &edges {
        for (a, b) in pairs {
            if reaches(pairs, b, a, &mut BTreeSet::new()) {
                cycles.push(format!("src/{}: {a} → {b} → … → {a}", folder.join("/")));
            }
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

/// Whether `to` is reachable from `from` along `edges`.
fn reaches<'a>(
    edges: &'a BTreeSet<(String, String)>,
    from: &'a str,
    to: &str,
    seen: &mut BTreeSet<&'a str>,
) -> bool {
    if from == to {
        return true;
    }
    if !seen.insert(from) {
        return false;
    }
    edges
        .iter()
        .filter(|(a, _)| a == from)
        .any(|(_, b)| reaches(edges, b, to, seen))
}

/// A variant is one rule set: outside `grid/rules/`, no code names a particular variant
/// (`Variant::Killer`, …) but the default, classic (test modules aside); everything else
/// asks the variant's `RuleSet`. So adding a variant of a kind the rule sets already
/// declare (extra units, a move kept apart, a neighbours rule, cages, regions) is a row
/// in that folder, its default quota, tests and docs (taking center dot's row and shape
/// out of `grid/rules/` leaves every target compiling).
#[test]
fn variants_are_named_in_the_rule_set_folder() {
    use sudoku_bank::grid::Variant;
    let naming: Vec<String> = src_files()
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs") && !f.starts_with("grid/rules"))
        .filter_map(|f| {
            let code = code(&f);
            let named: Vec<String> = Variant::ALL
                .iter()
                .filter(|&&v| v != Variant::Classic)
                .map(|v| format!("Variant::{v:?}"))
                .filter(|v| {
                    code.match_indices(v.as_str()).any(|(at, _)| {
                        !code[at + v.len()..]
                            .chars()
                            .next()
                            .is_some_and(char::is_alphanumeric)
                    })
                })
                .collect();
            (!named.is_empty()).then(|| format!("{}: {}", f.display(), named.join(", ")))
        })
        .collect();
    assert!(
        naming.is_empty(),
        "code outside grid/rules/ names a variant: {naming:?}"
    );
}

/// Cells are numbered row by row and units rows, columns, boxes, extra units; `grid/`
/// turns those numbers into rows, columns, boxes and kinds (`Cell`, `Candidate`,
/// `Layout::kind_of`) and nothing else does that arithmetic: no `cell / n`, `r * n + c`
/// or `2 * n + bx` outside it.
#[test]
fn no_cell_or_unit_arithmetic_outside_the_grid() {
    let sides = ["n", "self.n", "size", "side"];
    let cells = [
        "cell", "i", "c", "p", "q", "k", "o", "x", "y", "a", "z", "other", "index",
    ];
    let rows = ["r", "row", "r1", "r2", "x", "a", "b", "l", "top", "cell"];
    let mut patterns: Vec<String> = Vec::new();
    for side in sides {
        for op in ["/", "%"] {
            patterns.extend(cells.iter().map(|c| format!("{c} {op} {side}")));
        }
        patterns.extend(rows.iter().map(|r| format!("{r} * {side} +")));
    }
    patterns.extend(["2 * n", "3 * n", "2 * self.n", "3 * self.n"].map(String::from));
    let word = |ch: Option<char>| ch.is_some_and(|ch| ch.is_alphanumeric() || ch == '_');
    let mut found = Vec::new();
    for f in src_files() {
        if f.extension().is_none_or(|e| e != "rs") || f.starts_with("grid") {
            continue;
        }
        for (i, line) in code(&f).lines().enumerate() {
            let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
            for p in &patterns {
                let hit = line.match_indices(p.as_str()).any(|(at, _)| {
                    !word(line[..at].chars().next_back())
                        && !word(line[at + p.len()..].chars().next())
                });
                if hit {
                    found.push(format!("{}:{}: `{p}` in {line}", f.display(), i + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "index arithmetic outside grid/:\n{}",
        found.join("\n")
    );
}
