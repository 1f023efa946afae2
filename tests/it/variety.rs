//! Variety: routes that give different grids, solution classes kept apart, the full
//! canonical form, and the migration that adds classes to old banks.

use crate::common::{bank, ok, scalar, stderr, temp_db};
use rusqlite::Connection;
use sudoku_bank::grid::parse_line;

/// Puzzles in the bank's most common solution class.
fn largest_class(db: &str) -> i64 {
    scalar(
        db,
        "SELECT max(n) FROM (SELECT count(*) AS n FROM puzzles GROUP BY solution_class)",
    )
}

#[test]
fn a_default_fill_is_many_solution_grids_kept_apart() {
    let (_dir, db) = temp_db();
    let db = db.as_str();
    ok(&["fill", "--count", "4000", "--seed", "5", "--db", db]);
    // puzzles_per_grid 4 x mother_grid_uses 8.
    let largest = largest_class(db);
    assert!(largest <= 32, "largest class {largest}");
    let classes = scalar(db, "SELECT count(DISTINCT solution_class) FROM puzzles");
    // What the routes promise: a class per mother grid, a class per other base grid.
    let promised = scalar(
        db,
        "SELECT count(DISTINCT CASE WHEN g.mother_seed IS NOT NULL THEN 'm' || g.mother_seed
                                    ELSE 'g' || g.id END)
         FROM puzzles p JOIN base_grids g ON g.id = p.base_grid_id",
    );
    assert!(
        classes * 10 >= promised * 9,
        "{classes} classes of {promised} promised"
    );
    let close = scalar(
        db,
        "SELECT count(*) FROM puzzles a JOIN puzzles b
           ON a.solution_class = b.solution_class AND b.id > a.id AND b.id - a.id < 100",
    );
    assert_eq!(
        close, 0,
        "puzzles of one solution grid fewer than 100 ids apart"
    );
    // take never gives a client two puzzles of one class in a row.
    ok(&[
        "take", "--tier", "hard", "--count", "400", "--client", "c", "--db", db,
    ]);
    ok(&[
        "take", "--tier", "hard", "--count", "400", "--client", "c", "--db", db,
    ]);
    let repeats = scalar(
        db,
        "SELECT count(*) FROM (SELECT solution_class AS k,
                lag(solution_class) OVER (ORDER BY served_at, id) AS prev
                FROM puzzles WHERE served_to = 'c') WHERE k = prev",
    );
    assert_eq!(repeats, 0);
    let o = bank(&["verify", "--sample", "200", "--db", db], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let stats = ok(&["stats", "--db", db]);
    assert!(
        stats.contains("classes  largest  strategies  routes"),
        "{stats}"
    );
    // The variety `stats` reports is what the bank holds.
    let stats: serde_json::Value =
        serde_json::from_str(&ok(&["stats", "--json", "--db", db])).unwrap();
    let hard = stats["variety"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["tier"] == "hard")
        .unwrap();
    let of_hard = |sql: &str| scalar(db, &format!("{sql} FROM puzzles WHERE tier = 'hard'"));
    assert_eq!(
        hard["solution_classes"],
        of_hard("SELECT count(DISTINCT solution_class)")
    );
    assert_eq!(
        hard["dig_strategies"],
        of_hard("SELECT count(DISTINCT dig_strategy)")
    );
    assert_eq!(
        hard["largest_class"],
        scalar(
            db,
            "SELECT max(n) FROM (SELECT count(*) AS n FROM puzzles WHERE tier = 'hard' \
             GROUP BY solution_class)"
        )
    );
    assert_eq!(hard["routes"], 3, "transform, backtrack and enumerate");
}

#[test]
fn canon_full_gives_one_form_to_a_grid_its_images_and_its_puzzles() {
    let solution =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    // The same grid with digits 1 and 2 swapped and bands 1 and 3 swapped.
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| match c {
                '1' => '2',
                '2' => '1',
                c => c,
            })
            .collect()
    };
    let image = {
        let rows: Vec<&str> = (0..9).map(|r| &solution[r * 9..r * 9 + 9]).collect();
        let order = [6, 7, 8, 3, 4, 5, 0, 1, 2];
        swap(&order.iter().map(|&r| rows[r]).collect::<String>())
    };
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let out = ok(&["canon", "--full", solution, &image, puzzle]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], lines[1]);
    assert_eq!(lines[0], lines[2], "a puzzle has its solution's class");
    assert!(lines[0].starts_with("123456789"), "{}", lines[0]);
    // The puzzle's own full-group form: its image (bands swapped, digits swapped) agrees,
    // the dihedral fingerprint does not.
    let puzzle_image = {
        let rows: Vec<&str> = (0..9).map(|r| &puzzle[r * 9..r * 9 + 9]).collect();
        let order = [6, 7, 8, 3, 4, 5, 0, 1, 2];
        swap(&order.iter().map(|&r| rows[r]).collect::<String>())
    };
    let forms = ok(&["canon", "--full-puzzle", puzzle, &puzzle_image]);
    let forms: Vec<&str> = forms.lines().collect();
    assert_eq!(forms[0], forms[1]);
    // Its hash is the bank's full_fingerprint column.
    let stored = sudoku_bank::canon::full_fingerprint(&parse_line(puzzle).unwrap()).unwrap();
    assert_eq!(forms[0].split('\t').nth(1), Some(stored.as_str()));
    let dihedral = ok(&["canon", puzzle, &puzzle_image]);
    let dihedral: Vec<&str> = dihedral.lines().collect();
    assert_ne!(
        dihedral[0], dihedral[1],
        "bands swapped are not a dihedral image"
    );
    let other = ok(&[
        "canon",
        "--full",
        "123456789456789123789123456234567891567891234891234567345678912678912345912345678",
    ]);
    assert_ne!(other, lines[0]);
}

#[test]
fn the_migration_adds_solution_classes_to_an_old_bank() {
    let (_dir, db) = temp_db();
    let db = db.as_str();
    ok(&["fill", "--count", "60", "--seed", "2", "--db", db]);
    let before: Vec<String> = {
        let conn = Connection::open(db).unwrap();
        let classes = conn
            .prepare("SELECT solution_class FROM puzzles ORDER BY id")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(|c| c.unwrap())
            .collect();
        // Back to schema 3: no classes, no mother seeds, no heartbeats, no samples, no
        // variants.
        conn.execute_batch(
            "ALTER TABLE alarms DROP COLUMN variant;
             ALTER TABLE runs DROP COLUMN tiers;
             ALTER TABLE puzzles DROP COLUMN regions;
             DROP INDEX puzzles_by_variant;
             ALTER TABLE puzzles DROP COLUMN cages;
             ALTER TABLE puzzles DROP COLUMN variant;
             ALTER TABLE base_grids DROP COLUMN variant;
             DROP TABLE run_samples;
             ALTER TABLE runs DROP COLUMN heartbeat_at;
             DROP INDEX puzzles_by_class;
             DROP INDEX puzzles_by_full_fingerprint;
             ALTER TABLE puzzles DROP COLUMN full_fingerprint;
             ALTER TABLE puzzles DROP COLUMN solution_class;
             ALTER TABLE base_grids DROP COLUMN mother_seed;
             PRAGMA user_version = 3;",
        )
        .unwrap();
        classes
    };
    ok(&["fill", "--count", "0", "--db", db]);
    let conn = Connection::open(db).unwrap();
    let after: Vec<String> = conn
        .prepare("SELECT solution_class FROM puzzles ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|c| c.unwrap())
        .collect();
    assert_eq!(after, before, "the migration computes the same classes");
    let o = bank(&["verify", "--db", db], None);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn the_class_cap_holds_across_runs_and_names_itself_when_it_binds() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("cap.toml");
    std::fs::write(
        &config,
        sudoku_bank::config::DEFAULT_CONFIG
            .replace("max_per_solution_class = 0", "max_per_solution_class = 2"),
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let db = dir.path().join("b.sqlite");
    let db = db.to_str().unwrap();
    // 6x6 has few solution classes: two runs fill them to the cap and then stop.
    let fill = |seed: &str| {
        bank(
            &[
                "fill", "--size", "6", "--tier", "easy", "--count", "60", "--seed", seed,
                "--config", config, "--db", db,
            ],
            None,
        )
    };
    fill("1");
    let o = fill("2");
    let largest = largest_class(db);
    assert!(largest <= 2, "largest class {largest}");
    let stored = scalar(db, "SELECT count(*) FROM puzzles");
    if stored < 120 {
        assert_eq!(o.status.code(), Some(1));
        assert!(stderr(&o).contains("raise that cap"), "{}", stderr(&o));
    }
}

#[test]
fn dedup_full_refuses_a_puzzle_with_its_bands_swapped() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.toml");
    std::fs::write(
        &full,
        sudoku_bank::config::DEFAULT_CONFIG.replace("dedup = \"dihedral\"", "dedup = \"full\""),
    )
    .unwrap();
    let full = full.to_str().unwrap();
    let db = dir.path().join("b.sqlite");
    let db = db.to_str().unwrap();
    ok(&[
        "fill", "--count", "40", "--seed", "3", "--config", full, "--db", db,
    ]);
    let conn = Connection::open(db).unwrap();
    assert_eq!(
        scalar(
            db,
            "SELECT count(*) FROM puzzles WHERE full_fingerprint IS NULL"
        ),
        0
    );
    let puzzle: String = conn
        .query_row("SELECT puzzle FROM puzzles WHERE id = 1", [], |r| r.get(0))
        .unwrap();
    let rows: Vec<&str> = (0..9).map(|r| &puzzle[r * 9..r * 9 + 9]).collect();
    let image: String = [6, 7, 8, 3, 4, 5, 0, 1, 2]
        .iter()
        .map(|&r| rows[r])
        .collect();
    let file = dir.path().join("image.txt");
    std::fs::write(&file, format!("{image}\n")).unwrap();
    let file = file.to_str().unwrap();
    let o = bank(&["import", file, "--config", full, "--db", db], None);
    assert!(stderr(&o).contains("imported 0 puzzles"), "{}", stderr(&o));
    // Under the dihedral rule the same line is a new puzzle.
    let o = bank(&["import", file, "--db", db], None);
    assert!(stderr(&o).contains("imported 1 puzzles"), "{}", stderr(&o));
    let o = bank(&["verify", "--config", full, "--db", db], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = bank(
        &[
            "fill", "--size", "16", "--tier", "easy", "--count", "1", "--config", full, "--db", db,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("supports sizes up to 12x12"),
        "{}",
        stderr(&o)
    );
}
