//! Many workers on one bank: several `nightly` processes at once, one killed with
//! `kill -9` early in the fill and started again. Together they add exactly what the
//! quotas lack, never a puzzle twice, and the bank verifies clean. Runs on both backends;
//! on PostgreSQL one worker reaches the server over TCP on 127.0.0.1.

use crate::common::{banks, scalar, stderr, texts};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Quotas per tier of 9x9 (every other size's quota removed).
const QUOTAS: [(&str, i64); 3] = [("easy", 900), ("medium", 1200), ("hard", 300)];

fn config(dir: &Path) -> String {
    let text = sudoku_bank::config::DEFAULT_CONFIG;
    // Small batches, so the count grows steadily and the kill lands mid-way: with the
    // default 500 a poll could see nothing until the workers were nearly done.
    let base =
        text[..text.find("[quota.6]").unwrap()].replace("batch_size = 500", "batch_size = 20");
    assert!(
        base.contains("batch_size = 20"),
        "the default config's batch size moved"
    );
    let quotas: String = QUOTAS
        .iter()
        .map(|(tier, n)| format!("{tier} = {n}\n"))
        .collect();
    let path = dir.join("workers.toml");
    std::fs::write(&path, format!("{base}[quota.9]\n{quotas}")).unwrap();
    path.to_str().unwrap().to_string()
}

fn worker(config: &str, db: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_bank"))
        .args(["nightly", "--threads", "1", "--config", config, "--db", db])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until the bank holds `n` puzzles (or a minute passed), looking every 10 ms.
fn wait_for(db: &str, n: i64) {
    let started = Instant::now();
    while crate::common::try_scalar(db, "SELECT count(*) FROM puzzles").unwrap_or(0) < n
        && started.elapsed().as_secs() < 60
    {
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn workers_meet_every_quota_exactly_through_a_kill_9() {
    for (dir, db) in banks() {
        // On PostgreSQL the second worker connects over TCP rather than the socket.
        let tcp = crate::common::over_tcp(&db);
        let config = config(dir.path());
        let total: i64 = QUOTAS.iter().map(|(_, n)| n).sum();
        let a = worker(&config, &db);
        let b = worker(&config, &tcp);
        let c = worker(&config, &db);
        // Early, so that the kill lands well before the end: the three workers fill these
        // quotas in about a second, and two go on while the third is killed.
        wait_for(&db, total / 10);
        let mut c = c;
        c.kill().unwrap(); // SIGKILL
        c.wait().unwrap();
        let killed_at = scalar(&db, "SELECT count(*) FROM puzzles");
        let again = worker(&config, &db);
        for (name, child) in [("a", a), ("b (tcp)", b), ("c again", again)] {
            let o = child.wait_with_output().unwrap();
            assert_eq!(
                o.status.code(),
                Some(0),
                "{db} worker {name}: {}",
                stderr(&o)
            );
        }
        assert!(
            killed_at < total,
            "{db}: killed before the end ({killed_at})"
        );
        for (tier, quota) in QUOTAS {
            assert_eq!(
                scalar(
                    &db,
                    &format!(
                        "SELECT count(*) FROM puzzles WHERE tier = '{tier}' AND served_at IS NULL"
                    )
                ),
                quota,
                "{db}: 9x9 {tier} quota met exactly"
            );
        }
        assert_eq!(
            scalar(&db, "SELECT count(DISTINCT fingerprint) FROM puzzles"),
            total,
            "{db}: no fingerprint twice"
        );
        // A row per worker with host and pid; the killed one closed as interrupted. The
        // restarted worker has a row of its own unless the others had met every quota
        // by the time it looked ("quota met: nothing to add" starts no run).
        let statuses = texts(&db, "SELECT status FROM runs ORDER BY id");
        assert!(
            statuses.len() == 3 || statuses.len() == 4,
            "{db}: {statuses:?}"
        );
        assert_eq!(
            statuses.iter().filter(|s| *s == "completed").count(),
            statuses.len() - 1,
            "{db}: {statuses:?}"
        );
        assert_eq!(
            scalar(
                &db,
                "SELECT count(*) FROM runs WHERE status = 'interrupted' AND host IS NOT NULL AND pid IS NOT NULL"
            ),
            1,
            "{db}: {statuses:?}"
        );
        let o = crate::common::bank(&["verify", "--db", &db], None);
        assert!(o.status.success(), "{db}: {}", stderr(&o));
        // Nothing left to do: a fourth worker adds nothing.
        let o = crate::common::bank(&["nightly", "--config", &config, "--db", &tcp], None);
        assert!(
            o.status.success() && stderr(&o).contains("quota met: nothing to add"),
            "{db}: {}",
            stderr(&o)
        );
    }
}

/// A run left `running` by a worker of another host that stopped writing is closed by
/// the next worker once its lease has run out; a fresh one is left alone.
#[test]
fn runs_of_silent_workers_elsewhere_are_closed_after_their_lease() {
    for (_dir, db) in banks() {
        crate::common::ok(&[
            "fill", "--count", "4", "--size", "4", "--seed", "1", "--db", &db,
        ]);
        let stale = "2000-01-01T00:00:00.000Z";
        let fresh = "2999-01-01T00:00:00.000Z";
        crate::common::execute(
            &db,
            &format!(
                "INSERT INTO runs (started_at, heartbeat_at, status, run_seed, config_json,
                                   generator_version, pid, host)
                 VALUES ('{stale}', '{stale}', 'running', '1', '{{}}', 3, 1, 'elsewhere'),
                        ('{stale}', '{fresh}', 'running', '2', '{{}}', 3, 1, 'elsewhere')"
            ),
        );
        crate::common::ok(&[
            "fill", "--count", "4", "--size", "4", "--seed", "2", "--db", &db,
        ]);
        assert_eq!(
            texts(
                &db,
                "SELECT status FROM runs WHERE host = 'elsewhere' ORDER BY id"
            ),
            ["interrupted", "running"],
            "{db}"
        );
    }
}
