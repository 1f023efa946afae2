//! Helpers shared by the integration tests.

pub mod pg;
pub mod tools;
pub mod webdriver;

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

/// Solutions of `cells` (row-major, 0 for empty) up to `limit`, by plain backtracking on
/// the open cell with the fewest digits left: a counter written apart from the
/// production solver, to check what it stores. Knows the extra units of each variant
/// ([`extra_groups`]), the cells its chess move keeps apart ([`kept_apart`]) and the
/// touching cells that may not hold consecutive digits ([`consecutive_beside`]).
pub fn brute_count(g: sudoku_bank::grid::Geometry, cells: &mut [u8], limit: u64) -> u64 {
    let n = g.n();
    let fits = |cells: &[u8], cell: usize, d: u8| {
        let (r, c) = (cell / n, cell % n);
        let groups = extra_groups(g, r, c);
        !(0..cells.len()).any(|o| {
            let (ro, co) = (o / n, o % n);
            (cells[o] != 0 && consecutive_beside(g, (r, c), (ro, co)) && cells[o].abs_diff(d) == 1)
                || cells[o] == d
                    && (ro == r
                        || co == c
                        || g.box_of(ro, co) == g.box_of(r, c)
                        || extra_groups(g, ro, co).iter().any(|k| groups.contains(k))
                        || kept_apart(g, (r, c), (ro, co)))
        })
    };
    let mut best: Option<(usize, Vec<u8>)> = None;
    for cell in (0..cells.len()).filter(|&i| cells[i] == 0) {
        let digits: Vec<u8> = (1..=n as u8).filter(|&d| fits(cells, cell, d)).collect();
        if best.as_ref().is_none_or(|(_, b)| digits.len() < b.len()) {
            best = Some((cell, digits));
        }
    }
    let Some((open, digits)) = best else {
        return 1;
    };
    let mut found = 0;
    for d in digits {
        cells[open] = d;
        found += brute_count(g, cells, limit - found);
        cells[open] = 0;
        if found >= limit {
            break;
        }
    }
    found
}

/// Whether `score` (as stored, text) lies in the band of the embedded config's tier `tier`.
pub fn in_default_band(tier: &str, score: &str) -> bool {
    let band = match tier {
        "easy" => 1.0..=2.3,
        "medium" => 2.4..=3.4,
        "hard" => 3.5..=5.9,
        _ => 6.0..=20.0,
    };
    band.contains(&score.parse::<f64>().unwrap())
}

/// Solutions of a classic grid `cells` up to `limit`: [`region_count`] over the boxes.
pub fn classic_count(g: sudoku_bank::grid::Geometry, cells: &[u8], limit: u64) -> u64 {
    let n = g.n();
    let boxes: Vec<usize> = (0..n * n).map(|i| g.box_of(i / n, i % n)).collect();
    region_count(n, &boxes, cells, limit)
}

/// Solutions of an `n`x`n` grid `cells` up to `limit` under rows, columns and the regions
/// `region[cell]` (0-based: the boxes, or a jigsaw's map): [`brute_count`]'s search
/// (fewest digits first, no other deduction) over row, column and region bitmasks, fast
/// enough for 16x16 puzzles that the cell-by-cell scan takes minutes on. Written apart
/// from the production solver too.
pub fn region_count(n: usize, region: &[usize], cells: &[u8], limit: u64) -> u64 {
    struct Count {
        n: usize,
        bx: Vec<usize>,
        rows: Vec<u32>,
        cols: Vec<u32>,
        boxes: Vec<u32>,
        open: Vec<usize>,
    }
    impl Count {
        fn free(&self, cell: usize) -> u32 {
            let (r, c) = (cell / self.n, cell % self.n);
            !(self.rows[r] | self.cols[c] | self.boxes[self.bx[cell]]) & ((1 << self.n) - 1)
        }
        fn flip(&mut self, cell: usize, bit: u32) {
            let (r, c) = (cell / self.n, cell % self.n);
            self.rows[r] ^= bit;
            self.cols[c] ^= bit;
            self.boxes[self.bx[cell]] ^= bit;
        }
        fn count(&mut self, depth: usize, limit: u64) -> u64 {
            if depth == self.open.len() {
                return 1;
            }
            let best = (depth..self.open.len())
                .min_by_key(|&i| self.free(self.open[i]).count_ones())
                .unwrap();
            self.open.swap(depth, best);
            let cell = self.open[depth];
            let mut free = self.free(cell);
            let mut found = 0;
            while free != 0 && found < limit {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                self.flip(cell, bit);
                found += self.count(depth + 1, limit - found);
                self.flip(cell, bit);
            }
            found
        }
    }
    let mut s = Count {
        n,
        bx: region.to_vec(),
        rows: vec![0; n],
        cols: vec![0; n],
        boxes: vec![0; n],
        open: Vec::new(),
    };
    for (i, &d) in cells.iter().enumerate() {
        if d == 0 {
            s.open.push(i);
        } else if s.free(i) & 1 << (d - 1) == 0 {
            return 0; // a digit twice in a unit
        } else {
            s.flip(i, 1 << (d - 1));
        }
    }
    s.count(0, limit)
}

/// Whether `g`'s variant forbids the same digit in cells `a` and `b` (row, column) for
/// a chess move between them, as the anti-knight and anti-king rules state it.
pub fn kept_apart(g: sudoku_bank::grid::Geometry, a: (usize, usize), b: (usize, usize)) -> bool {
    let (dr, dc) = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
    match g.variant().name() {
        "anti-knight" => (dr, dc) == (1, 2) || (dr, dc) == (2, 1),
        "anti-king" => dr == 1 && dc == 1,
        _ => false,
    }
}

/// Whether `g`'s variant forbids consecutive digits in cells `a` and `b` (row, column):
/// orthogonally touching cells under the non-consecutive rule.
pub fn consecutive_beside(
    g: sudoku_bank::grid::Geometry,
    a: (usize, usize),
    b: (usize, usize),
) -> bool {
    g.variant().name() == "non-consecutive" && a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1
}

/// The extra units through cell (`r`, `c`) under `g`'s variant, as keys that two cells
/// share when they share a unit, written from the rules as puzzle books state them (and
/// the reference rater's region maps), not from the production layout.
pub fn extra_groups(g: sudoku_bank::grid::Geometry, r: usize, c: usize) -> Vec<(u8, usize)> {
    let n = g.n();
    let (br, bc) = (g.box_rows(), g.box_cols());
    // The nine-cell shapes of 9x9, row by row.
    const ASTERISK: &str =
        ".........|....#....|..#...#..|.........|.#..#..#.|.........|..#...#..|....#....|.........";
    const GIRANDOLA: &str =
        "#.......#|....#....|.........|.........|.#..#..#.|.........|.........|....#....|#.......#";
    let on = |map: &str| {
        map.split('|')
            .nth(r)
            .is_some_and(|row| row.as_bytes()[c] == b'#')
    };
    let mut keys = Vec::new();
    match g.variant().name() {
        "diagonal" => {
            if r == c {
                keys.push((0, 0));
            }
            if r + c == n - 1 {
                keys.push((0, 1));
            }
        }
        "windoku" => {
            // Lines 1-3 and 5-7 (on 9x9) hold the printed windows; 0, 4, 8 the hidden ones.
            let class = |line: usize| {
                if line.is_multiple_of(br + 1) {
                    br
                } else {
                    line / (br + 1)
                }
            };
            keys.push((1, class(r) * (br + 1) + class(c)));
        }
        "disjoint-groups" => keys.push((2, (r % br) * bc + c % bc)),
        "asterisk" if on(ASTERISK) => keys.push((3, 0)),
        "girandola" if on(GIRANDOLA) => keys.push((4, 0)),
        "center-dot" if r % br == br / 2 && c % bc == bc / 2 => keys.push((5, 0)),
        _ => {}
    }
    keys
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

/// Whether `db` is a PostgreSQL URL rather than a SQLite file.
pub fn is_postgres(db: &str) -> bool {
    db.starts_with("postgres")
}

/// The single integer a query on the bank at `db` (either backend) returns.
pub fn scalar(db: &str, sql: &str) -> i64 {
    if is_postgres(db) {
        let mut c = postgres::Client::connect(db, postgres::NoTls).unwrap();
        let row = c
            .query_one(sql, &[])
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
        return row
            .try_get::<_, i64>(0)
            .or_else(|_| row.try_get::<_, bool>(0).map(i64::from))
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    rusqlite::Connection::open(db)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// Like [`scalar`], but `None` while the bank does not exist yet or cannot answer (it
/// never creates a file, so a bank being created is left to its creator).
pub fn try_scalar(db: &str, sql: &str) -> Option<i64> {
    if is_postgres(db) {
        let mut c = postgres::Client::connect(db, postgres::NoTls).ok()?;
        return c.query_one(sql, &[]).ok()?.try_get::<_, i64>(0).ok();
    }
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    rusqlite::Connection::open_with_flags(db, flags)
        .ok()?
        .query_row(sql, [], |r| r.get(0))
        .ok()
}

/// The first column of every row a query returns, as text (NULL as "NULL").
pub fn texts(db: &str, sql: &str) -> Vec<String> {
    if is_postgres(db) {
        let mut c = postgres::Client::connect(db, postgres::NoTls).unwrap();
        return c
            .query(sql, &[])
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
            .iter()
            .map(|r| r.get::<_, Option<String>>(0).unwrap_or("NULL".into()))
            .collect();
    }
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn.prepare(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    stmt.query_map([], |r| r.get::<_, Option<String>>(0))
        .unwrap()
        .map(|r| r.unwrap().unwrap_or("NULL".into()))
        .collect()
}

/// Runs a statement that changes the bank behind the program's back (to damage it).
pub fn execute(db: &str, sql: &str) {
    if is_postgres(db) {
        let mut c = postgres::Client::connect(db, postgres::NoTls).unwrap();
        c.batch_execute(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
        return;
    }
    rusqlite::Connection::open(db)
        .unwrap()
        .execute_batch(sql)
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

/// A PostgreSQL bank in a database of its own, with a temp dir for files beside it, or
/// `None` when no server can run here (see [`pg`]).
pub fn postgres_db() -> Option<(tempfile::TempDir, String)> {
    let database = pg::database()?;
    Some((tempfile::tempdir().unwrap(), database.socket_url()))
}

/// The same bank reached over TCP on 127.0.0.1 (a SQLite path stays as it is).
pub fn over_tcp(db: &str) -> String {
    let Some(rest) = db.strip_prefix("postgres:///") else {
        return db.to_string();
    };
    let (name, query) = rest.split_once('?').expect("a socket URL of pg::Database");
    let port = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("port="))
        .expect("a port");
    format!("postgres://postgres@127.0.0.1:{port}/{name}")
}

/// A bank of each backend: a SQLite file in a temp dir, and a PostgreSQL database when a
/// server can run here. The same test runs on each.
pub fn banks() -> Vec<(tempfile::TempDir, String)> {
    let mut all = vec![temp_db()];
    all.extend(postgres_db());
    all
}

/// A temp dir and the path of a bank file in it (the dir lives as long as the first value).
pub fn temp_db() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.sqlite").to_str().unwrap().to_string();
    (dir, db)
}

/// `bank fill --db DB` with `extra` flags, its output whatever the exit status.
pub fn fill_cli(db: &str, extra: &[&str]) -> Output {
    let mut args = vec!["fill", "--db", db];
    args.extend_from_slice(extra);
    bank(&args, None)
}

/// Fills `count` puzzles of `variant` (the default mix of tiers) into `db`, seed `seed`.
pub fn fill_variant(db: &str, variant: &str, count: &str, seed: &str) {
    fill_with(db, variant, count, seed, &[]);
}

/// Fills `count` easy puzzles of each of `variants` into `db`, seed `seed`.
pub fn fill_easy(db: &str, variants: &[&str], count: &str, seed: &str) {
    for variant in variants {
        fill_with(db, variant, count, seed, &["--tier", "easy"]);
    }
}

fn fill_with(db: &str, variant: &str, count: &str, seed: &str, more: &[&str]) {
    let mut args = vec![
        "fill",
        "--variant",
        variant,
        "--count",
        count,
        "--seed",
        seed,
        "--db",
        db,
    ];
    args.extend(more);
    ok(&args);
}

/// The puzzles of `fixture` (an export by an older binary) reproduce with the engine of
/// their stored generator version; claimed as version `claimed` they come out otherwise,
/// so the fixture exercises the switch.
pub fn reproduce_with_their_engine(fixture: &str, count: usize, claimed: u32) {
    let fixture = format!("{}/tests/data/{fixture}", env!("CARGO_MANIFEST_DIR"));
    let (_dir, db) = temp_db();
    let out = bank(&["import", &fixture, "--db", &db], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ids = texts(&db, "SELECT CAST(id AS TEXT) FROM puzzles ORDER BY id");
    assert_eq!(ids.len(), count);
    for id in &ids {
        let out = ok(&["reproduce", id, "--db", &db]);
        assert!(out.contains(&format!("puzzle {id}: identical")), "{out}");
    }
    execute(
        &db,
        &format!("UPDATE puzzles SET generator_version = {claimed}"),
    );
    for id in &ids {
        let o = bank(&["reproduce", id, "--db", &db], None);
        assert_eq!(o.status.code(), Some(1), "puzzle {id}: {}", stdout(&o));
        // The stored puzzle is drawn as `show` draws it (with its regions, if any), from
        // below its heading to its solution's.
        let shown = ok(&["show", id, "--db", &db]);
        let drawing: Vec<&str> = shown
            .lines()
            .skip(1)
            .take_while(|line| *line != "solution")
            .collect();
        assert!(
            stdout(&o).contains(&format!("stored:\n{}\n", drawing.join("\n"))),
            "{}",
            stdout(&o)
        );
    }
}
