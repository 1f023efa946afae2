//! Pictures checked as a person would see them: print sheets read back from the PDF
//! (the grids drawn, with lopdf; the words and where they landed, with poppler's
//! pdftotext) and rendered to PNG; the HTML pages loaded in a real headless Chromium.

use crate::common::tools::{artifacts, available};
use crate::common::webdriver::Browser;
use crate::common::{bank, fill_variant, ok, stderr, temp_db};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// A word on a page, by its centre (points, y downwards).
#[derive(Debug)]
struct Word {
    page: usize,
    text: String,
    x: f32,
    y: f32,
}

/// A square drawn with the grid outline's pen: one grid.
#[derive(Debug, Clone, Copy)]
struct Square {
    page: usize,
    x: f32,
    y: f32,
    side: f32,
}

/// One number attribute of a pdftotext -bbox tag.
fn attr(tag: &str, name: &str) -> f32 {
    let start = tag.find(&format!("{name}=\"")).expect("attribute") + name.len() + 2;
    let end = start + tag[start..].find('"').expect("closing quote");
    tag[start..end].parse().expect("a number")
}

/// Every word of the PDF with its page (1-based) and centre, as pdftotext sees them.
fn words(pdf: &Path) -> Vec<Word> {
    let out = Command::new("pdftotext")
        .args(["-bbox"])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext");
    assert!(
        out.status.success(),
        "pdftotext failed on {}",
        pdf.display()
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut page = 0;
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("<page ") {
            page += 1;
        } else if let Some(rest) = line.strip_prefix("<word ") {
            let (tag, tail) = rest.split_once('>').unwrap();
            let word = tail.trim_end_matches("</word>").to_string();
            found.push(Word {
                page,
                text: word,
                x: (attr(tag, "xMin") + attr(tag, "xMax")) / 2.0,
                y: (attr(tag, "yMin") + attr(tag, "yMax")) / 2.0,
            });
        }
    }
    found
}

/// The squares stroked with the widest pen on each page (the grids' outlines), from the
/// PDF's content streams, in top-down coordinates.
fn squares(pdf: &Path) -> Vec<Square> {
    let doc = lopdf::Document::load(pdf).expect("a PDF lopdf can read");
    let mut found = Vec::new();
    for (page, id) in doc.get_pages() {
        let height = page_height(&doc, id);
        let ops = lopdf::content::Content::decode(&doc.get_page_content(id))
            .expect("a content stream")
            .operations;
        let mut width = 0.0;
        let mut rects = Vec::new();
        for op in ops {
            let nums: Vec<f32> = op
                .operands
                .iter()
                .filter_map(|o| o.as_float().ok())
                .collect();
            match op.operator.as_str() {
                "w" => width = nums[0],
                "re" => rects.push((width, nums)),
                _ => {}
            }
        }
        let widest = rects.iter().map(|r| r.0).fold(0.0, f32::max);
        for (w, r) in rects {
            if w == widest && (r[2] - r[3]).abs() < 0.01 {
                found.push(Square {
                    page: page as usize,
                    x: r[0],
                    y: height - r[1] - r[3],
                    side: r[2],
                });
            }
        }
    }
    found
}

fn page_height(doc: &lopdf::Document, page: lopdf::ObjectId) -> f32 {
    let dict = doc.get_dictionary(page).unwrap();
    let media = dict.get(b"MediaBox").unwrap().as_array().unwrap();
    media[3].as_float().unwrap()
}

/// The grid a square shows: each one-character word inside it put in its cell.
fn read_grid(square: &Square, words: &[Word], n: usize) -> String {
    let cell = square.side / n as f32;
    let mut cells = vec!['.'; n * n];
    for w in words.iter().filter(|w| w.page == square.page) {
        let (dx, dy) = (w.x - square.x, w.y - square.y);
        if dx < 0.0 || dy < 0.0 || dx > square.side || dy > square.side {
            continue;
        }
        assert_eq!(w.text.chars().count(), 1, "one symbol a cell: {w:?}");
        let (r, c) = ((dy / cell) as usize, (dx / cell) as usize);
        // The digit's centre sits near the cell's centre, not on a line.
        let off = ((dx / cell).fract() - 0.5)
            .abs()
            .max(((dy / cell).fract() - 0.5).abs());
        assert!(off < 0.25, "{w:?} is off its cell's centre by {off} cells");
        assert_eq!(cells[r * n + c], '.', "two symbols in r{}c{}", r + 1, c + 1);
        cells[r * n + c] = w.text.chars().next().unwrap();
    }
    cells.into_iter().collect()
}

/// The caption's first two words above a square: `Puzzle 12` or `Solution 12`.
fn caption(square: &Square, words: &[Word]) -> (String, String) {
    let mut above: Vec<&Word> = words
        .iter()
        .filter(|w| {
            w.page == square.page
                && w.y < square.y
                && w.y > square.y - 20.0
                && w.x > square.x - 5.0
                && w.x < square.x + square.side
        })
        .collect();
    above.sort_by(|a, b| a.x.total_cmp(&b.x));
    assert!(above.len() >= 2, "a caption above {square:?}");
    (above[0].text.clone(), above[1].text.clone())
}

/// The bank's puzzles by id: (size, puzzle, solution, tier), from a jsonl export.
fn exported(db: &str) -> BTreeMap<i64, (usize, String, String, String)> {
    ok(&["export", "--db", db])
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["id"].as_i64().unwrap(),
                (
                    v["size"].as_u64().unwrap() as usize,
                    v["puzzle"].as_str().unwrap().replace('0', "."),
                    v["solution"].as_str().unwrap().to_string(),
                    v["tier"].as_str().unwrap().to_string(),
                ),
            )
        })
        .collect()
}

fn page_count(pdf: &Path) -> usize {
    let out = Command::new("pdfinfo").arg(pdf).output().expect("pdfinfo");
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .expect("a page count")
        .trim()
        .parse()
        .unwrap()
}

/// Runs `bank print` with `args` into `pdf` and returns the label of each grid drawn
/// (`12` for `Puzzle 12`), in page order.
fn printed_labels(db: &str, pdf: &Path, args: &[&str]) -> Vec<String> {
    let mut full = vec!["print", "--db", db, "--out", pdf.to_str().unwrap()];
    full.extend_from_slice(args);
    ok(&full);
    let words = words(pdf);
    squares(pdf).iter().map(|s| caption(s, &words).1).collect()
}

/// A bank of 9×9 puzzles of every tier plus 4×4, 12×12 and 16×16 ones.
fn mixed_bank() -> (tempfile::TempDir, String) {
    let (dir, db) = temp_db();
    ok(&["fill", "--count", "10", "--seed", "3", "--db", &db]);
    for size in ["4", "12", "16"] {
        ok(&[
            "fill", "--count", "1", "--size", size, "--seed", "4", "--db", &db,
        ]);
    }
    (dir, db)
}

#[test]
fn print_puts_every_given_in_its_cell_and_solutions_after_the_puzzles() {
    if !available(&["pdftotext", "pdfinfo", "pdftoppm"], "poppler-utils") {
        return;
    }
    let (dir, db) = mixed_bank();
    let puzzles = exported(&db);
    assert_eq!(puzzles.len(), 13);
    for (per_page, paper) in [("4", "a4"), ("1", "letter"), ("6", "a4")] {
        let pdf = dir.path().join(format!("book-{per_page}.pdf"));
        ok(&[
            "print",
            "--db",
            &db,
            "--count",
            "13",
            "--per-page",
            per_page,
            "--paper",
            paper,
            "--solutions",
            "--out",
            pdf.to_str().unwrap(),
        ]);
        let per: usize = per_page.parse().unwrap();
        let solution_pages = 13usize.div_ceil((per * 2).clamp(6, 12));
        let puzzle_pages = 13usize.div_ceil(per);
        assert_eq!(
            page_count(&pdf),
            puzzle_pages + solution_pages,
            "{per_page} a page"
        );
        let words = words(&pdf);
        let squares = squares(&pdf);
        assert_eq!(squares.len(), 26, "13 puzzles and 13 solutions drawn");
        let mut order = Vec::new();
        for square in &squares {
            let (kind, label) = caption(square, &words);
            let id: i64 = label.parse().unwrap();
            let (n, puzzle, solution, tier) = &puzzles[&id];
            let shown = read_grid(square, &words, *n);
            match kind.as_str() {
                "Puzzle" => {
                    assert!(
                        square.page <= puzzle_pages,
                        "puzzle {id} on page {}",
                        square.page
                    );
                    assert_eq!(&shown, puzzle, "puzzle {id}'s givens as printed");
                    let line = words.iter().filter(|w| w.page == square.page);
                    assert!(line.clone().any(|w| &w.text == tier), "tier of {id} shown");
                }
                "Solution" => {
                    assert!(
                        square.page > puzzle_pages,
                        "solution {id} on page {}",
                        square.page
                    );
                    assert_eq!(&shown, solution, "solution {id} as printed");
                }
                other => panic!("unexpected caption {other}"),
            }
            order.push((kind, id));
        }
        // Puzzles in id order, then their solutions in the same order.
        let ids: Vec<i64> = puzzles.keys().copied().collect();
        let expected: Vec<(String, i64)> = ids
            .iter()
            .map(|&i| ("Puzzle".to_string(), i))
            .chain(ids.iter().map(|&i| ("Solution".to_string(), i)))
            .collect();
        assert_eq!(order, expected);
        let pages: Vec<&str> = words
            .iter()
            .filter(|w| w.text == "page")
            .map(|_| "page")
            .collect();
        assert_eq!(
            pages.len(),
            puzzle_pages + solution_pages,
            "a page number a page"
        );
    }
    // What a reader sees: the first page rendered, kept as an artifact.
    let png = artifacts().join("print-sheet");
    let status = Command::new("pdftoppm")
        .args(["-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile"])
        .arg(dir.path().join("book-4.pdf"))
        .arg(&png)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(std::fs::metadata(png.with_extension("png")).unwrap().len() > 5_000);
}

/// What a killer grid shows: the centred digits, and the small sums in cells' top-left
/// corners (by cell index).
fn read_killer_grid(
    square: &Square,
    words: &[Word],
    n: usize,
) -> (String, BTreeMap<usize, String>) {
    let cell = square.side / n as f32;
    let mut digits = vec!['.'; n * n];
    let mut sums = BTreeMap::new();
    for w in words.iter().filter(|w| w.page == square.page) {
        let (dx, dy) = (w.x - square.x, w.y - square.y);
        if dx < 0.0 || dy < 0.0 || dx > square.side || dy > square.side {
            continue;
        }
        let (r, c) = ((dy / cell) as usize, (dx / cell) as usize);
        let (fx, fy) = ((dx / cell).fract(), (dy / cell).fract());
        if fx < 0.45 && fy < 0.4 {
            assert!(
                sums.insert(r * n + c, w.text.clone()).is_none(),
                "two sums in r{}c{}",
                r + 1,
                c + 1
            );
        } else {
            assert!(
                (fx - 0.5).abs().max((fy - 0.5).abs()) < 0.25,
                "{w:?} is neither a sum nor a digit"
            );
            assert_eq!(digits[r * n + c], '.', "two digits in r{}c{}", r + 1, c + 1);
            digits[r * n + c] = w.text.chars().next().unwrap();
        }
    }
    (digits.into_iter().collect(), sums)
}

/// Killer sheets draw every cage dashed with its sum in the corner of its first cell
/// (reading order), on the puzzles and on their solutions.
#[test]
fn print_draws_killer_cages_with_their_sums() {
    if !available(&["pdftotext", "pdfinfo", "pdftoppm"], "poppler-utils") {
        return;
    }
    let (dir, db) = temp_db();
    fill_variant(&db, "killer", "4", "3");
    let mut expected = BTreeMap::new();
    for line in ok(&["export", "--db", &db]).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let first_cells: BTreeMap<usize, String> = v["cages"]
            .as_array()
            .expect("a killer export has cages")
            .iter()
            .map(|cage| {
                let first = cage["cells"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| sudoku_bank::grid::parse_cell_name(9, c.as_str().unwrap()).unwrap())
                    .min()
                    .unwrap();
                (first, cage["sum"].to_string())
            })
            .collect();
        expected.insert(
            v["id"].as_i64().unwrap(),
            (
                v["puzzle"].as_str().unwrap().replace('0', "."),
                v["solution"].as_str().unwrap().to_string(),
                first_cells,
            ),
        );
    }
    assert_eq!(expected.len(), 4);
    let pdf = dir.path().join("killer.pdf");
    let pdf_s = pdf.to_str().unwrap();
    ok(&[
        "print",
        "--db",
        &db,
        "--variant",
        "killer",
        "--per-page",
        "2",
        "--solutions",
        "--out",
        pdf_s,
    ]);
    let words = words(&pdf);
    let squares = squares(&pdf);
    assert_eq!(squares.len(), 8, "4 puzzles and 4 solutions");
    for square in &squares {
        let (kind, label) = caption(square, &words);
        let (puzzle, solution, sums) = &expected[&label.parse::<i64>().unwrap()];
        let (digits, shown_sums) = read_killer_grid(square, &words, 9);
        assert_eq!(
            &shown_sums, sums,
            "{kind} {label}: every cage's sum in its first cell"
        );
        let want = if kind == "Puzzle" { puzzle } else { solution };
        assert_eq!(&digits, want, "{kind} {label}'s digits");
    }
    // The cage lines are dashed: each page strokes with a dash pattern.
    let doc = lopdf::Document::load(&pdf).unwrap();
    for (page, id) in doc.get_pages() {
        let ops = lopdf::content::Content::decode(&doc.get_page_content(id))
            .unwrap()
            .operations;
        let dashed = ops
            .iter()
            .any(|op| op.operator == "d" && op.operands[0].as_array().is_ok_and(|a| !a.is_empty()));
        assert!(dashed, "page {page} draws dashed cages");
    }
    let png = artifacts().join("print-killer");
    let status = Command::new("pdftoppm")
        .args([
            "-png",
            "-r",
            "60",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            pdf_s,
        ])
        .arg(&png)
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn print_by_ids_keeps_their_order_and_svg_shows_the_same_grids() {
    if !available(&["pdftotext"], "poppler-utils") {
        return;
    }
    let (dir, db) = mixed_bank();
    let puzzles = exported(&db);
    let pdf = dir.path().join("ids.pdf");
    let labels = printed_labels(&db, &pdf, &["--ids", "12,3,13", "--per-page", "2"]);
    assert_eq!(labels, ["12", "3", "13"]);
    // SVG: the same grids, read from its <text> and outline <rect> elements.
    let svg = dir.path().join("ids.svg");
    ok(&[
        "print",
        "--db",
        &db,
        "--ids",
        "12,3,13",
        "--out",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<?xml"), "an SVG document");
    let svg_words: Vec<Word> = text
        .lines()
        .filter_map(|l| l.strip_prefix("<text "))
        .map(|l| {
            let (tag, rest) = l.split_once('>').unwrap();
            Word {
                page: 0,
                text: rest.trim_end_matches("</text>").to_string(),
                x: attr(tag, "x"),
                y: attr(tag, "y") - attr(tag, "font-size") * 0.36,
            }
        })
        .collect();
    let outlines: Vec<Square> = text
        .lines()
        .filter(|l| l.starts_with("<rect ") && l.contains("stroke-width=\"2\""))
        .map(|l| Square {
            page: 0,
            x: attr(l, "x"),
            y: attr(l, "y"),
            side: attr(l, "width"),
        })
        .collect();
    assert_eq!(outlines.len(), 3);
    for (square, id) in outlines.iter().zip([12, 3, 13]) {
        let (n, puzzle, _, _) = &puzzles[&id];
        assert_eq!(
            &read_grid(square, &svg_words, *n),
            puzzle,
            "svg puzzle {id}"
        );
    }
}

#[test]
fn print_refuses_bad_requests_without_writing() {
    let (dir, db) = temp_db();
    ok(&["fill", "--count", "3", "--seed", "1", "--db", &db]);
    let out = dir.path().join("x.pdf");
    let out_s = out.to_str().unwrap();
    for (args, says) in [
        (vec!["--ids", "1,99"], "no puzzle with id 99"),
        (vec!["--per-page", "3"], "use 1, 2, 4 or 6"),
        (vec!["--tier", "nope"], "nope"),
        (vec!["--size", "6"], "no puzzles match"),
        (vec!["--paper", "a3"], "a3"),
    ] {
        let mut full = vec!["print", "--db", &db, "--out", out_s];
        full.extend(args.iter().copied());
        let o = bank(&full, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(!out.exists(), "{args:?} wrote a file");
    }
    let o = bank(
        &[
            "print",
            "--db",
            &dir.path().join("none.sqlite").to_string_lossy(),
            "--out",
            out_s,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
}

/// Runs `f` with a browser, or skips loudly when Chromium or ChromeDriver is missing.
fn with_browser(f: impl FnOnce(&Browser)) {
    if !available(&["chromium", "chromedriver"], "chromium chromium-driver") {
        return;
    }
    f(&Browser::start());
}

/// The strings a script returns as a sorted list.
fn strings(browser: &Browser, script: &str) -> Vec<String> {
    let mut v: Vec<String> = browser
        .eval(script)
        .as_array()
        .unwrap_or_else(|| panic!("{script} gave no list"))
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

/// Generates one puzzle of `variant` (`generate --count 1` with `args` besides) and opens its
/// solving page, which must load without console errors: the puzzle line, and the
/// directory that holds the page.
fn open_solving_page(
    browser: &Browser,
    variant: &str,
    args: &[&str],
) -> (tempfile::TempDir, String) {
    let mut generate = vec!["generate", "--variant", variant, "--count", "1"];
    generate.extend(args);
    let line = ok(&generate).trim().to_string();
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join(format!("{variant}.html"));
    let html = page.to_str().unwrap();
    ok(&["explain", "--variant", variant, &line, "--html", html]);
    browser.open(&page);
    assert_eq!(browser.console_errors(), Vec::<String>::new());
    (dir, line)
}

/// What the page highlights: pattern cells, placed candidates, removed candidates.
fn highlighted(browser: &Browser) -> (Vec<String>, Vec<String>, Vec<String>) {
    let cands = |class: &str, sign: &str| {
        format!(
            "return [...document.querySelectorAll('#grid .cand.{class}')]\
             .map(e => e.closest('.cell').dataset.cell + '{sign}' + e.textContent)"
        )
    };
    (
        strings(
            browser,
            "return [...document.querySelectorAll('#grid .cell.pattern')].map(e => e.dataset.cell)",
        ),
        strings(browser, &cands("placing", "=")),
        strings(browser, &cands("removed", "<>")),
    )
}

/// A step of `bank explain`'s text: pattern cells, placements, eliminations.
fn text_step(line: &str) -> (Vec<String>, Vec<String>, Vec<String>) {
    let words = |after: &str| -> Vec<String> {
        let mut v: Vec<String> = line
            .split(": ")
            .find_map(|part| part.strip_prefix(after))
            .map(|rest| rest.split_whitespace().map(String::from).collect())
            .unwrap_or_default();
        v.sort();
        v
    };
    let mut cells: Vec<String> = line
        .split_once(") on ")
        .map(|(_, rest)| {
            rest.split(':')
                .next()
                .unwrap()
                .split_whitespace()
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    cells.sort();
    (cells, words("place "), words("remove "))
}

/// Plays the search tab's replay at full speed until it says `solved`.
fn play_search_to_the_end(browser: &Browser) {
    browser.eval("document.getElementById('sspeed').value = 10");
    browser.click("#splay");
    let started = std::time::Instant::now();
    while browser.eval("return document.getElementById('search-status').textContent") != "solved" {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the search replay ends"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A puzzle whose solution needs a forcing chain (SE 7.2 in the calibration set).
const CHAINED: &str =
    "000000000800000002042000570090000080700206009501000407309010706200030001000769000";

#[test]
fn solving_page_steps_through_the_explained_solution_in_a_browser() {
    with_browser(|browser| {
        let dir = tempfile::tempdir().unwrap();
        let page = dir.path().join("solve.html");
        ok(&["explain", CHAINED, "--html", page.to_str().unwrap()]);
        let text = ok(&["explain", CHAINED]);
        let steps: Vec<&str> = text.lines().filter(|l| l.starts_with("step ")).collect();
        let page_text = std::fs::read_to_string(&page).unwrap();
        for external in ["src=", "href=", "<link", "@import", "url("] {
            assert!(
                !page_text.contains(external),
                "the page loads nothing: found {external}"
            );
        }
        browser.open(&page);
        assert_eq!(browser.console_errors(), Vec::<String>::new());
        // "Next" three times: the third step, as the text explains it.
        for _ in 0..3 {
            browser.click("#next");
        }
        assert_eq!(
            browser.eval("return document.getElementById('counter').textContent"),
            format!("step 3 of {}", steps.len())
        );
        let (_, place, remove) = text_step(steps[2]);
        let (_, shown_place, shown_remove) = highlighted(browser);
        assert_eq!((shown_place, shown_remove), (place, remove), "{}", steps[2]);
        // Jump from the list to the first step that removes candidates.
        let k = steps
            .iter()
            .position(|l| l.contains(": remove "))
            .expect("an elimination");
        browser.click(&format!("#step-list li[data-step=\"{k}\"]"));
        let (cells, place, remove) = text_step(steps[k]);
        assert_eq!(highlighted(browser), (cells, place, remove), "{}", steps[k]);
        // The right arrow key moves on one step.
        browser.press("\u{E014}");
        assert_eq!(
            browser.eval("return document.getElementById('counter').textContent"),
            format!("step {} of {}", k + 2, steps.len())
        );
        // A chain step draws its links one after another.
        let c = text
            .lines()
            .position(|l| l.starts_with("    "))
            .expect("a chain");
        let chain_step = text
            .lines()
            .take(c)
            .filter(|l| l.starts_with("step "))
            .count()
            - 1;
        browser.click(&format!("#step-list li[data-step=\"{chain_step}\"]"));
        let links = |b: &Browser| {
            b.eval("return document.querySelectorAll('#overlay line.link').length")
                .as_u64()
                .unwrap()
        };
        let early = links(browser);
        std::thread::sleep(Duration::from_millis(1500));
        let later = links(browser);
        assert!(
            later > early,
            "links appear one by one: {early} then {later}"
        );
        browser.screenshot(&artifacts().join("solving-page.png"));
        // The search tab: five events, then played to the end.
        browser.click("[data-tab=\"search\"]");
        for _ in 0..5 {
            browser.click("#snext");
        }
        let count = |id: &str| -> u64 {
            browser
                .eval(&format!(
                    "return document.getElementById('{id}').textContent"
                ))
                .as_str()
                .unwrap()
                .parse()
                .unwrap()
        };
        assert_eq!(count("event"), 5);
        let filled = browser
            .eval("return document.querySelectorAll('#sgrid .cell.tried').length")
            .as_u64()
            .unwrap();
        assert_eq!(
            filled,
            count("tries") - count("backtracks"),
            "tries less undos are on the board"
        );
        play_search_to_the_end(browser);
        assert!(count("backtracks") > 0, "this puzzle needs backtracking");
        let total = browser.eval("return document.getElementById('search-total').textContent");
        assert!(
            total.as_str().unwrap().contains(&format!(
                "{} tries, {} backtracks",
                count("tries"),
                count("backtracks")
            )),
            "{total}"
        );
        let board = browser.eval(
            "return [...document.querySelectorAll('#sgrid .cell')].map(e => e.textContent).join('')",
        );
        let solved = crate::common::stdout(&bank(&["solve"], Some(CHAINED)));
        assert_eq!(
            board.as_str().unwrap(),
            solved.trim(),
            "the replay ends on the solution"
        );
        browser.screenshot(&artifacts().join("solving-page-search.png"));
        assert_eq!(browser.console_errors(), Vec::<String>::new());
    });
}

/// A killer solving page draws each cage's sum at its first cell, keeps its cells square
/// under the cage lines, and replays a search that keeps the cages to the solution.
#[test]
fn solving_page_draws_killer_cages() {
    with_browser(|browser| {
        let (_dir, line) = open_solving_page(browser, "killer", &["--size", "6", "--seed", "5"]);
        let line = line.as_str();
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (map, sums) = (
            fields[1].as_bytes(),
            fields[2].split(',').collect::<Vec<_>>(),
        );
        // The first cell of each cage in reading order, with its sum.
        let mut want = Vec::new();
        let mut seen = Vec::new();
        for (cell, symbol) in map.iter().enumerate() {
            if !seen.contains(symbol) {
                want.push(format!(
                    "r{}c{}={}",
                    cell / 6 + 1,
                    cell % 6 + 1,
                    sums[seen.len()]
                ));
                seen.push(*symbol);
            }
        }
        want.sort();
        let shown = strings(
            browser,
            "return [...document.querySelectorAll('#grid ~ .rules text.sum')]\
             .map(t => t.dataset.cell + '=' + t.textContent)",
        );
        assert_eq!(shown, want, "every cage's sum at its first cell");
        let dashes = browser
            .eval("return document.querySelectorAll('#grid ~ .rules line.cage').length")
            .as_u64()
            .unwrap();
        assert!(
            dashes as usize >= seen.len() * 4 / 2,
            "{dashes} cage lines for {} cages",
            seen.len()
        );
        let square = browser.eval(
            "const g = document.getElementById('grid'); \
             return Math.abs(g.offsetWidth - g.offsetHeight) <= 1",
        );
        assert_eq!(
            square,
            serde_json::Value::Bool(true),
            "candidates do not stretch the cells"
        );
        browser.screenshot(&artifacts().join("solving-page-killer.png"));
        browser.click("[data-tab=\"search\"]");
        play_search_to_the_end(browser);
        let board = browser.eval(
            "return [...document.querySelectorAll('#sgrid .cell')].map(e => e.textContent).join('')",
        );
        let solved = ok(&["solve", "--variant", "killer", line]);
        assert_eq!(
            board.as_str().unwrap(),
            solved.trim(),
            "the replay keeps the cages"
        );
        assert_eq!(browser.console_errors(), Vec::<String>::new());
    });
}

/// An anti-knight solving page, which shades nothing, states the rule above the board.
#[test]
fn solving_page_states_an_unshaded_variants_rule() {
    with_browser(|browser| {
        let _page = open_solving_page(browser, "anti-knight", &["--seed", "5"]);
        let summary = browser.eval("return document.getElementById('summary').textContent");
        assert!(
            summary.as_str().unwrap().starts_with(
                "anti-knight 9x9: place 1-9 once in every row, column and box; \
                 no two cells a knight's move apart hold the same digit. Score "
            ),
            "{summary}"
        );
        assert_eq!(browser.console_errors(), Vec::<String>::new());
    });
}

/// A bank with a run that timed out into alarms (deadline 0) and a normal run.
fn bank_with_alarms(db: &str) {
    let o = bank(
        &[
            "fill",
            "--db",
            db,
            "--count",
            "20",
            "--tier",
            "hard",
            "--deadline-ms",
            "0",
            "--seed",
            "2",
        ],
        None,
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "the timed-out run fails: {}",
        stderr(&o)
    );
    ok(&["fill", "--db", db, "--count", "400", "--seed", "2"]);
}

#[test]
fn report_records_samples_on_both_backends_and_refuses_bad_selections() {
    for (dir, db) in crate::common::banks() {
        bank_with_alarms(&db);
        let samples = crate::common::scalar(&db, "SELECT count(*) FROM run_samples");
        assert!(
            samples >= 2,
            "{db}: a sample per run at least, got {samples}"
        );
        // The last sample of a run holds its final counters.
        let last = crate::common::scalar(
            &db,
            "SELECT accepted FROM run_samples WHERE run_id = 2 ORDER BY elapsed_ms DESC LIMIT 1",
        );
        assert_eq!(last, 400, "{db}");
        let timed = crate::common::scalar(&db, "SELECT count(*) FROM run_samples WHERE run_id = 1");
        assert!(timed >= 1);
        let out = dir.path().join("r.html");
        let out_s = out.to_str().unwrap();
        let o = bank(&["report", "--db", &db, "--run", "1", "--out", out_s], None);
        assert!(o.status.success(), "{db}: {}", stderr(&o));
        let page = std::fs::read_to_string(&out).unwrap();
        assert_eq!(
            page.matches("class=\"marker\"").count(),
            12,
            "{db}: 6 alarms on two charts"
        );
        std::fs::remove_file(&out).unwrap();
        for (args, says) in [
            (vec!["--run", "9"], "no run 9"),
            (vec!["--since", "2999-01-01"], "no run"),
            (vec!["--since", "2026-13-01"], "not a date"),
            (
                vec!["--run", "1", "--since", "2026-01-01"],
                "cannot be used with",
            ),
        ] {
            let mut full = vec!["report", "--db", &db, "--out", out_s];
            full.extend(args.iter().copied());
            let o = bank(&full, None);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
            assert!(!out.exists(), "{args:?} wrote a file");
        }
    }
}

/// Writes the report on every run of `db` into `dir`; returns its path.
fn report_of_every_run(db: &str, dir: &Path) -> std::path::PathBuf {
    let out = dir.join("report.html");
    let out_s = out.to_str().unwrap();
    ok(&[
        "report",
        "--db",
        db,
        "--since",
        "2000-01-01",
        "--out",
        out_s,
    ]);
    out
}

/// The report, stats and the alarms table keep variants apart: a diagonal tier is its
/// own row, and its alarms name it.
#[test]
fn report_keeps_variants_apart() {
    for (dir, db) in crate::common::banks() {
        for variant in ["classic", "diagonal"] {
            ok(&[
                "fill",
                "--db",
                &db,
                "--variant",
                variant,
                "--tier",
                "easy",
                "--count",
                "5",
                "--seed",
                "2",
            ]);
        }
        let o = bank(
            &[
                "fill",
                "--db",
                &db,
                "--variant",
                "diagonal",
                "--tier",
                "hard",
                "--count",
                "5",
                "--deadline-ms",
                "0",
                "--seed",
                "2",
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(1), "{db}: {}", stderr(&o));
        assert!(
            crate::common::scalar(
                &db,
                "SELECT count(*) FROM alarms WHERE variant = 'diagonal'"
            ) > 0,
            "{db}: the alarms name their variant"
        );
        assert_eq!(
            crate::common::scalar(
                &db,
                "SELECT count(*) FROM alarms WHERE variant <> 'diagonal'"
            ),
            0
        );
        let stats = ok(&["stats", "--db", &db]);
        assert!(stats.contains(" size 9d tier hard: "), "{db}: {stats}");
        let page = std::fs::read_to_string(report_of_every_run(&db, dir.path())).unwrap();
        for row in [
            "<tr><td>9x9 easy</td><td>5</td><td>5</td>",
            "<tr><td>diagonal 9x9 easy</td><td>5</td><td>5</td>",
            "<tr><td>diagonal 9x9 hard</td><td>5</td><td>0</td>",
        ] {
            assert!(page.contains(row), "{db}: no {row} in the mix table");
        }
        assert!(
            page.contains("<td>diagonal 9x9</td><td>hard</td>"),
            "{db}: alarm rows"
        );
        assert!(page.contains("diagonal 9x9: puzzles by score"), "{db}");
    }
}

#[test]
fn report_shows_its_charts_in_a_browser() {
    with_browser(|browser| {
        let (dir, db) = temp_db();
        bank_with_alarms(&db);
        let out = report_of_every_run(&db, dir.path());
        browser.open(&out);
        assert_eq!(browser.console_errors(), Vec::<String>::new());
        let charts = browser
            .eval("return document.querySelectorAll('svg.chart').length")
            .as_u64()
            .unwrap();
        assert!(
            charts >= 6,
            "pace, timeouts, tier mix, scores, clues, attempt times: {charts}"
        );
        assert_eq!(
            browser.eval("return document.body.dataset.charts"),
            charts.to_string()
        );
        // Every chart drew something: a line with points, or bars.
        let empty = browser.eval(
            "return [...document.querySelectorAll('svg.chart')].filter(s => \
             !s.querySelector('path.series[d^=\"M\"], rect.bar')).map(s => s.querySelector('title').textContent)",
        );
        assert_eq!(empty, serde_json::json!([]), "charts without data");
        // Alarms: marked on both time charts and listed.
        let markers = browser.eval("return document.querySelectorAll('g.marker').length");
        assert_eq!(markers, 12, "6 alarms on two charts");
        let rows = browser.eval("return document.querySelectorAll('#alarms tr').length");
        assert_eq!(rows, 7, "a header and 6 alarms");
        let stored = browser.eval(
            "return [...document.querySelectorAll('#totals tr')].find(r => \
             r.cells[0].textContent === 'puzzles stored' || r.querySelector('th').textContent === 'puzzles stored')\
             .querySelector('td').textContent",
        );
        assert_eq!(stored, "400");
        let timed = browser.eval("return document.querySelector('#attempt-times td').textContent");
        assert_eq!(
            timed,
            (600 + crate::common::scalar(&db, "SELECT attempts FROM runs WHERE id = 2"))
                .to_string()
        );
        browser.screenshot(&artifacts().join("run-report.png"));
    });
}

#[test]
fn print_unserved_leaves_out_what_was_handed_out() {
    if !available(&["pdftotext"], "poppler-utils") {
        return;
    }
    let (dir, db) = temp_db();
    ok(&[
        "fill", "--count", "8", "--tier", "easy", "--seed", "4", "--db", &db,
    ]);
    let taken: Vec<String> = ok(&["take", "--tier", "easy", "--count", "3", "--db", &db])
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    assert_eq!(taken, ["1", "2", "3"]);
    let pdf = dir.path().join("unserved.pdf");
    let labels = printed_labels(&db, &pdf, &["--unserved", "--count", "4"]);
    assert_eq!(
        labels,
        ["4", "5", "6", "7"],
        "the first four not handed out"
    );
    // Printing hands nothing out.
    assert_eq!(
        crate::common::scalar(&db, "SELECT count(*) FROM puzzles WHERE served_at IS NULL"),
        5
    );
}

#[test]
fn report_defaults_to_the_newest_run_and_explain_html_refuses_what_it_cannot_solve() {
    let (dir, db) = temp_db();
    ok(&["fill", "--count", "20", "--seed", "1", "--db", &db]);
    ok(&["fill", "--count", "12", "--seed", "2", "--db", &db]);
    let out = dir.path().join("newest.html");
    let o = bank(
        &["report", "--db", &db, "--out", out.to_str().unwrap()],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("Run 2 (the newest)"), "{}", stderr(&o));
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(
        page.contains("<th>puzzles stored</th><td>12</td>"),
        "run 2 stored 12"
    );
    // The stock against the embedded config's quota (9x9 easy: 20,000).
    assert!(
        page.contains("<td>9x9 easy</td>"),
        "the tier mix lists 9x9 easy"
    );
    assert!(page.contains("<td>20000</td>"), "with its quota");
    let empty = dir.path().join("empty.sqlite");
    ok(&["fill", "--count", "0", "--db", empty.to_str().unwrap()]);
    // A bank whose only run stored nothing still gets a page, with empty charts said so.
    ok(&[
        "report",
        "--db",
        empty.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("These runs stored no puzzles"));
    let html = dir.path().join("x.html");
    let empty_grid = ".".repeat(81);
    for puzzle in [empty_grid.as_str(), "not a puzzle"] {
        // Many solutions, or none to speak of: nothing to explain.
        let o = bank(&["explain", puzzle, "--html", html.to_str().unwrap()], None);
        assert_eq!(o.status.code(), Some(2), "{puzzle}: {}", stderr(&o));
        assert!(!html.exists());
    }
}

/// A sheet names each puzzle's variant in its caption and states the rules of every kind
/// of puzzle on its page; the diagonal variant's cells are shaded (17 on a 9×9 grid), not
/// struck through by lines over the givens.
#[test]
fn print_names_the_variant_shades_diagonals_and_states_the_rules() {
    let (dir, db) = temp_db();
    crate::common::fill_easy(&db, &["diagonal", "killer"], "2", "6");
    let svg = dir.path().join("variants.svg");
    let out = svg.to_str().unwrap();
    ok(&["print", "--db", &db, "--per-page", "4", "--out", out]);
    let text = std::fs::read_to_string(&svg).unwrap();
    // The shade's grey (0.86 of white), apart from the page's white background.
    let shaded = text
        .lines()
        .filter(|l| l.starts_with("<rect") && l.contains(r#"fill="rgb(219,219,219)""#))
        .count();
    assert_eq!(shaded, 2 * 17, "two diagonal grids' diagonal cells shaded");
    for words in [
        ">Puzzle 1 - diagonal 9x9 - ",
        ">Puzzle 3 - killer 9x9 - 0 givens - easy - ",
        ">diagonal 9x9: place 1-9 once in every row, column and box, and in each of the two shaded main diagonals.<",
        ">killer 9x9: place 1-9 once in every row, column and box; the digits of each dashed cage do not repeat and add up to its sum.<",
    ] {
        assert!(text.contains(words), "{words} missing from the sheet");
    }
}

/// The solving page shades the cells of a variant's extra units as the print sheet does:
/// the 17 diagonal cells of a diagonal 9×9, on both boards.
#[test]
fn solving_page_shades_the_diagonals() {
    with_browser(|browser| {
        let _page = open_solving_page(browser, "diagonal", &["--seed", "3"]);
        let shaded = strings(
            browser,
            "return [...document.querySelectorAll('#grid .cell.shaded')].map(e => e.dataset.cell)",
        );
        let mut want: Vec<String> = (0..81)
            .filter(|c| c / 9 == c % 9 || c / 9 + c % 9 == 8)
            .map(|c| format!("r{}c{}", c / 9 + 1, c % 9 + 1))
            .collect();
        want.sort();
        assert_eq!(shaded, want);
        browser.screenshot(&artifacts().join("solving-page-diagonal.png"));
    });
}

/// The edges between side-by-side cells of different regions in a jigsaw map (one symbol
/// per cell): `(horizontal, k, j)`, the line below row (or right of column) `k - 1`, at
/// cell `j` along it.
fn region_borders(n: usize, map: &[u8]) -> Vec<(bool, usize, usize)> {
    let mut edges = Vec::new();
    for k in 1..n {
        for j in 0..n {
            if map[(k - 1) * n + j] != map[k * n + j] {
                edges.push((true, k, j));
            }
            if map[j * n + k - 1] != map[j * n + k] {
                edges.push((false, k, j));
            }
        }
    }
    edges.sort_unstable();
    edges
}

/// A jigsaw's sheet draws its region borders with the box pen, where a classic sheet
/// draws its box lines: read back from the SVG, the thick lines inside the outline are
/// exactly the stored map's borders.
#[test]
fn print_draws_jigsaw_region_borders_thick() {
    let (dir, db) = temp_db();
    fill_variant(&db, "jigsaw", "1", "4");
    let row = crate::common::texts(&db, "SELECT id || ' ' || regions FROM puzzles");
    let (id, map) = row[0].split_once(' ').unwrap();
    let svg = dir.path().join("jigsaw.svg");
    ok(&[
        "print",
        "--db",
        &db,
        "--ids",
        id,
        "--per-page",
        "1",
        "--out",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    let outline = text
        .lines()
        .find(|l| l.starts_with("<rect") && l.contains(r#"stroke-width="2""#))
        .expect("the grid's outline");
    let (x0, y0, side) = (
        attr(outline, "x"),
        attr(outline, "y"),
        attr(outline, "width"),
    );
    let cell = side / 9.0;
    let at = |v: f32, origin: f32| ((v - origin) / cell).round() as usize;
    let mut drawn = Vec::new();
    for l in text
        .lines()
        .filter(|l| l.starts_with("<line") && l.contains(r#"stroke-width="1.4""#))
    {
        let (x1, y1, x2, y2) = (attr(l, "x1"), attr(l, "y1"), attr(l, "x2"), attr(l, "y2"));
        let horizontal = (y1 - y2).abs() < 0.01;
        let (k, from, to) = if horizontal {
            (at(y1, y0), at(x1, x0), at(x2, x0))
        } else {
            (at(x1, x0), at(y1, y0), at(y2, y0))
        };
        drawn.extend((from..to).map(|j| (horizontal, k, j)));
    }
    drawn.sort_unstable();
    let want = region_borders(9, map.as_bytes());
    assert!(want.len() > 18, "a jigsaw map is not the boxes: {map}");
    assert_eq!(drawn, want, "thick lines of {map}");
    assert!(text.contains(">jigsaw 9x9: place 1-9 once in every row, column and outlined region.<"));
}

/// The solving page parts a jigsaw's regions with the thick box border, as print does.
#[test]
fn solving_page_draws_jigsaw_regions() {
    with_browser(|browser| {
        let (_dir, line) = open_solving_page(browser, "jigsaw", &["--seed", "6"]);
        let map = line.split(' ').nth(1).expect("a region map");
        let name = |(horizontal, k, j): (bool, usize, usize)| {
            let (r, c) = if horizontal { (k - 1, j) } else { (j, k - 1) };
            format!("{}r{}c{}", if horizontal { "b" } else { "r" }, r + 1, c + 1)
        };
        let mut want: Vec<String> = region_borders(9, map.as_bytes())
            .into_iter()
            .map(name)
            .collect();
        want.sort();
        let drawn = strings(
            browser,
            "return [...document.querySelectorAll('#grid .cell')].flatMap(e => \
             [e.classList.contains('box-right') ? 'r' + e.dataset.cell : null, \
              e.classList.contains('box-bottom') ? 'b' + e.dataset.cell : null]).filter(x => x)",
        );
        assert_eq!(drawn, want, "thick borders of {map}");
        browser.screenshot(&artifacts().join("solving-page-jigsaw.png"));
    });
}

/// A 16x16 solving page takes the room the window has (the test browser's, 1280 by about
/// 760 inside): the whole board in the window, its candidates at least 9 px high, where at
/// a 9×9 board's size they would be under 7; a 9×9 page keeps its size.
#[test]
fn solving_page_gives_a_16x16_grid_readable_candidates() {
    with_browser(|browser| {
        let measure = |b: &Browser| {
            let got = b.eval(
                "const c = document.querySelector('#grid .cand'); \
                 const board = document.querySelector('#steps-view .board').getBoundingClientRect(); \
                 return [parseFloat(getComputedStyle(c).fontSize), board.width, board.right, \
                         board.bottom <= window.innerHeight ? 1 : 0, window.innerWidth];",
            );
            let v: Vec<f64> = got
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            assert_eq!(v[3], 1.0, "the board ends inside the window");
            (v[0], v[1], v[2], v[4])
        };
        let (_dir, _) = open_solving_page(browser, "classic", &["--size", "16", "--clues", "150"]);
        let (font, width, right, window) = measure(browser);
        let height = browser.eval("return window.innerHeight");
        assert!(
            font >= 9.0,
            "16x16 candidates at {font} px ({width} px board, window {window} by {height})"
        );
        assert!(
            width > 560.0 && right <= window,
            "board {width} px wide, ends at {right} of {window}"
        );
        browser.screenshot(&artifacts().join("solving-page-16x16.png"));
        let (_dir9, _) = open_solving_page(browser, "classic", &["--clues", "40"]);
        let (font9, width9, _, _) = measure(browser);
        assert_eq!(width9, 560.0, "a 9x9 board keeps its size");
        assert!(font9 >= 9.0, "9x9 candidates at {font9} px");
    });
}

/// A 16x16 book at four a page prints two a page (four would make cells 14.5 points
/// wide), each grid's cells at least 17 points (6 mm): the third 16x16 shares its page
/// with a 9x9, and the other 9x9 puzzles go four a page again.
#[test]
fn print_gives_16x16_grids_room_to_write_in() {
    let (dir, db) = temp_db();
    ok(&[
        "fill", "--size", "16", "--count", "3", "--seed", "2", "--db", &db,
    ]);
    ok(&["fill", "--count", "4", "--seed", "2", "--db", &db]);
    let pdf = dir.path().join("sixteen.pdf");
    ok(&[
        "print",
        "--db",
        &db,
        "--count",
        "7",
        "--out",
        pdf.to_str().unwrap(),
    ]);
    let squares = squares(&pdf);
    assert_eq!(squares.len(), 7);
    let pages: Vec<usize> = squares.iter().map(|s| s.page).collect();
    assert_eq!(
        pages,
        [1, 1, 2, 2, 3, 3, 3],
        "16x16 two a page, then 9x9 four"
    );
    for s in &squares[..3] {
        assert!(
            s.side / 16.0 >= 17.0,
            "a 16x16 cell {} points wide",
            s.side / 16.0
        );
    }
}
