//! Every tier of the large sizes, and what a run says of each tier: what it made, how long
//! it took, and up front when a tier will be slow.

use crate::common::{
    bank, classic_count, execute, fill_cli, in_default_band, scalar, stderr, stdout, temp_db, texts,
};
use sudoku_bank::grid::{parse_line, Geometry};

/// 12x12 and 16x16 fills over every tier store each tier's share, every puzzle rated into
/// its tier's band and unique by the test's own counter; the default quotas name every
/// 12x12 and 16x16 tier.
#[test]
fn large_sizes_fill_every_tier() {
    let four = Geometry::for_size(4).unwrap();
    assert_eq!(
        classic_count(four, &[0; 16], 1000),
        288,
        "the counter counts"
    );
    for size in ["12", "16"] {
        let (_dir, db) = temp_db();
        let o = fill_cli(&db, &["--size", size, "--count", "8", "--seed", "9"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let per_tier = texts(
            &db,
            "SELECT tier || '=' || count(*) FROM puzzles GROUP BY tier ORDER BY min(id)",
        );
        assert_eq!(
            per_tier,
            ["easy=2", "medium=2", "hard=2", "expert=2"],
            "{size}"
        );
        let g = Geometry::for_size(size.parse().unwrap()).unwrap();
        for row in texts(
            &db,
            "SELECT tier || ' ' || score || ' ' || puzzle FROM puzzles",
        ) {
            let [tier, score, line] = row.split(' ').collect::<Vec<_>>()[..] else {
                panic!("{row}")
            };
            assert!(in_default_band(tier, score), "{size} {tier} rated {score}");
            let cells = parse_line(line).unwrap().cells().to_vec();
            assert_eq!(classic_count(g, &cells, 2), 1, "{line}");
        }
    }
    let config = stdout(&bank(&["config", "--print"], None));
    for size in ["12", "16"] {
        let table = config
            .split(&format!("[quota.{size}]\n"))
            .nth(1)
            .and_then(|rest| rest.split("\n\n").next())
            .unwrap_or_else(|| panic!("no [quota.{size}] in:\n{config}"));
        let mut tiers: Vec<&str> = table
            .lines()
            .map(|l| l.split(' ').next().unwrap())
            .collect();
        tiers.sort_unstable();
        assert_eq!(
            tiers,
            ["easy", "expert", "hard", "medium"],
            "{size}: {table}"
        );
    }
}

/// The run summary names each tier with its share of the run's time, the run row keeps
/// them (counters adding up to the run's), and `stats` shows them under the run.
#[test]
fn a_run_records_what_each_tier_made_and_how_long_it_took() {
    let (_dir, db) = temp_db();
    let o = fill_cli(&db, &["--size", "6", "--count", "20", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let said = stderr(&o);
    let lines: Vec<&str> = said.lines().filter(|l| l.starts_with("  6x6 ")).collect();
    assert_eq!(lines.len(), 4, "{said}");
    for l in &lines {
        assert!(l.contains(" in ") && l.contains("/s); attempts "), "{l}");
    }
    let json = texts(&db, "SELECT tiers FROM runs")[0].clone();
    let tiers: serde_json::Value = serde_json::from_str(&json).unwrap();
    let tiers = tiers.as_array().unwrap();
    assert_eq!(tiers.len(), 4);
    let sum = |key: &str| tiers.iter().map(|t| t[key].as_u64().unwrap()).sum::<u64>();
    assert_eq!(sum("accepted"), 20);
    assert_eq!(
        sum("attempts") as i64,
        scalar(&db, "SELECT attempts FROM runs")
    );
    assert!(tiers.iter().all(|t| t["worker_ms"].as_u64().is_some()));
    assert!(tiers.iter().all(|t| t["workers"].as_u64().unwrap() >= 1));
    let stats = stdout(&bank(&["stats", "--db", &db], None));
    for l in &lines {
        assert!(stats.contains(l.trim()), "{l} not in stats:\n{stats}");
    }
}

/// A tier whose last run was slow is named before the fill starts, with the time it
/// will take at that pace on this run's workers; a fast one is not.
#[test]
fn a_fill_says_up_front_when_a_tier_will_be_slow() {
    let (_dir, db) = temp_db();
    let args = ["--size", "9", "--tier", "easy", "--threads", "2"];
    let first = fill_cli(&db, &[&args[..], &["--count", "5", "--seed", "1"]].concat());
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(!stderr(&first).contains("is slow"), "{}", stderr(&first));
    // As if the last run made 2 puzzles in 100 s on 2 workers: 0.02/s.
    execute(
        &db,
        r#"UPDATE runs SET tiers = '[{"size":9,"variant":"classic","tier":"easy","wanted":5,
            "attempts":9,"accepted":2,"duplicates":0,"rejected":7,"timeouts":0,"retries":0,
            "alarms":0,"worker_ms":200000,"workers":2}]'"#,
    );
    let second = fill_cli(
        &db,
        &[&args[..], &["--count", "30", "--seed", "2"]].concat(),
    );
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    let said = stderr(&second);
    assert!(
        said.contains(
            "9x9 easy is slow: about 25 min for 30 puzzles at 0.02/s (its last run made 2 in \
             100.0 s)"
        ),
        "{said}"
    );
    // The second run recorded its own, fast pace: the next fill says nothing.
    let third = fill_cli(&db, &[&args[..], &["--count", "5", "--seed", "3"]].concat());
    assert!(!stderr(&third).contains("is slow"), "{}", stderr(&third));
}

/// 6x6 medium and expert, where one attempt in about 500 rates into the band, fill to the
/// count: the tier stops only after a dry spell longer than any it has had (counting jobs
/// that gave up stopped 6x6 medium after 18 of 200). 4x4 medium, which no dig reaches,
/// still fails after 4,000 attempts, saying so.
#[test]
fn rare_tiers_fill_and_unreachable_ones_stop_saying_how_many_attempts() {
    let (_dir, db) = temp_db();
    for tier in ["medium", "expert"] {
        let o = fill_cli(
            &db,
            &[
                "--size", "6", "--tier", tier, "--count", "60", "--seed", "9",
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{tier}: {}", stderr(&o));
    }
    assert_eq!(scalar(&db, "SELECT count(*) FROM puzzles"), 120);
    let o = fill_cli(
        &db,
        &[
            "--size", "4", "--tier", "medium", "--count", "5", "--seed", "9",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "tier 'medium': its last 4000 attempts found no puzzle (score band [2.4, 3.4], \
             target 5 clues; 0 stored before)"
        ),
        "{}",
        stderr(&o)
    );
}
