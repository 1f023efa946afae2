//! Storage: the SQLite bank behind a small interface.
//!
//! Only the writer thread of a fill holds a connection for writing; readers (`show`,
//! `stats`, `reproduce`) open their own.

mod schema;

pub use schema::SCHEMA_VERSION;

use anyhow::{bail, Context, Result};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use serde::Serialize;
use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

/// How long a connection waits for another writer before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// An open bank.
pub struct Bank {
    conn: Connection,
}

/// A base grid row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseGridRow {
    /// Content hash.
    pub id: String,
    /// Grid side.
    pub size: usize,
    /// Rows per box.
    pub box_rows: usize,
    /// Columns per box.
    pub box_cols: usize,
    /// Route name.
    pub route: String,
    /// One-line grid.
    pub grid: String,
    /// Seed of the route's stream.
    pub seed: u64,
}

/// A puzzle to store, with its base grid.
#[derive(Clone, Debug)]
pub struct NewPuzzle {
    /// The base grid it was dug from (inserted if new); `None` for an imported puzzle.
    pub base: Option<BaseGridRow>,
    /// Grid side.
    pub size: usize,
    /// Rows per box.
    pub box_rows: usize,
    /// Columns per box.
    pub box_cols: usize,
    /// One-line puzzle.
    pub puzzle: String,
    /// One-line solution.
    pub solution: String,
    /// Filled cells.
    pub clues: usize,
    /// Tier name.
    pub tier: String,
    /// The human-technique rating.
    pub rating: RatingRow,
    /// Solver backtracks to prove uniqueness.
    pub backtracks: u64,
    /// Solver guesses to prove uniqueness.
    pub guesses: u64,
    /// Seed of the digging stream (`None`: imported).
    pub seed: Option<u64>,
    /// Strategy name (`None`: imported).
    pub dig_strategy: Option<String>,
    /// Clue target, `None` for minimal or imported.
    pub target_clues: Option<usize>,
    /// Generator version that made (or rated) it.
    pub generator_version: u32,
    /// Canonical fingerprint.
    pub fingerprint: String,
    /// Time of the successful attempt, µs.
    pub generation_us: u64,
}

impl NewPuzzle {
    /// `generated` or `import`.
    pub fn source(&self) -> &'static str {
        if self.base.is_some() {
            "generated"
        } else {
            "import"
        }
    }
}

/// The rating columns of a puzzle.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RatingRow {
    /// SE-scale score (a lower bound when not completed).
    pub score: f64,
    /// Name of the hardest technique.
    pub hardest_technique: String,
    /// Whether the rater solved the whole grid.
    pub completed: bool,
    /// JSON object: steps per technique.
    pub techniques: String,
}

impl RatingRow {
    /// The columns for a rating.
    pub fn from_rating(r: &crate::rate::Rating) -> RatingRow {
        RatingRow {
            score: (r.score * 10.0).round() / 10.0,
            hardest_technique: r.hardest_name(),
            completed: r.completed,
            techniques: serde_json::to_string(&r.technique_counts()).expect("map serialises"),
        }
    }
}

/// A stored puzzle with its metadata.
#[derive(Clone, Debug, Serialize)]
pub struct StoredPuzzle {
    /// Row id.
    pub id: i64,
    /// Run that made it.
    pub run_id: i64,
    /// `generated` or `import`.
    pub source: String,
    /// Base grid id (`None`: imported).
    pub base_grid_id: Option<String>,
    /// Base grid route.
    pub route: Option<String>,
    /// Base grid seed.
    pub grid_seed: Option<String>,
    /// Base grid cells.
    pub base_grid: Option<String>,
    /// Grid side.
    pub size: usize,
    /// Rows per box.
    pub box_rows: usize,
    /// Columns per box.
    pub box_cols: usize,
    /// One-line puzzle.
    pub puzzle: String,
    /// One-line solution.
    pub solution: String,
    /// Filled cells.
    pub clues: usize,
    /// Tier name.
    pub tier: String,
    /// Rating (`None` for rows stored before schema version 2).
    pub rating: Option<RatingRow>,
    /// Solver backtracks.
    pub backtracks: u64,
    /// Solver guesses.
    pub guesses: u64,
    /// Digging seed (decimal; `None`: imported).
    pub seed: Option<String>,
    /// Strategy name.
    pub dig_strategy: Option<String>,
    /// Clue target.
    pub target_clues: Option<usize>,
    /// Generator version.
    pub generator_version: u32,
    /// Fingerprint.
    pub fingerprint: String,
    /// Generation time, µs.
    pub generation_us: u64,
    /// When stored.
    pub created_at: String,
}

/// Counters of a run, as kept in `runs`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RunCounts {
    /// Attempts made.
    pub attempts: u64,
    /// Puzzles stored.
    pub accepted: u64,
    /// Puzzles already in the bank (by fingerprint).
    pub duplicates: u64,
    /// Attempts whose puzzle fell outside the tier's band or missed the clue target.
    pub rejected: u64,
    /// Attempts cut by the deadline.
    pub timeouts: u64,
    /// Attempts after the first of a job.
    pub retries: u64,
    /// Alarms raised.
    pub alarms: u64,
}

/// An alarm row.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct AlarmRow {
    /// Grid side.
    pub size: usize,
    /// Tier name.
    pub tier: String,
    /// Window length.
    pub window_size: usize,
    /// Timed-out attempts in the window.
    pub timeouts_in_window: usize,
    /// Target before.
    pub old_target: usize,
    /// Target after, `None` when it could not move.
    pub new_target: Option<usize>,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// Still going (or crashed: fixed on the next open).
    Running,
    /// Made what was asked.
    Completed,
    /// Stopped by a signal or a crash.
    Interrupted,
    /// Stopped by an error or an alarm at the limit.
    Failed,
}

impl RunStatus {
    /// The database name.
    pub fn name(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Completed => "completed",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Failed => "failed",
        }
    }
}

impl Bank {
    /// Opens (creating if needed) the bank at `path` for writing, migrating its schema.
    pub fn open(path: &Path) -> Result<Bank> {
        let origin = path.display().to_string();
        if path.is_dir() {
            bail!("bank path '{origin}' is a directory: give a file path such as bank.sqlite");
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            if !parent.is_dir() {
                bail!(
                    "cannot create bank '{origin}': folder '{}' does not exist",
                    parent.display()
                );
            }
            let readonly = |p: &Path| p.metadata().is_ok_and(|m| m.permissions().readonly());
            if !path.exists() && readonly(parent) {
                bail!(
                    "cannot create bank '{origin}': folder '{}' is not writable",
                    parent.display()
                );
            }
        }
        if path.metadata().is_ok_and(|m| m.permissions().readonly()) {
            bail!("bank '{origin}' is read-only: fix its permissions (chmod u+w) or give another --db path");
        }
        let conn =
            Connection::open(path).with_context(|| format!("cannot open bank '{origin}'"))?;
        let mut bank = Bank::configure(conn, &origin)?;
        schema::migrate(&mut bank.conn, &origin).map_err(|e| explain(e, &origin))?;
        Ok(bank)
    }

    /// Opens an existing bank read-only (for `show`, `stats`, `reproduce`).
    pub fn open_existing(path: &Path) -> Result<Bank> {
        let origin = path.display().to_string();
        if !path.is_file() {
            bail!("no bank at '{origin}': run `bank fill` first, or pass --db PATH");
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .with_context(|| format!("cannot open bank '{origin}'"))?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let v = schema::version(&conn).map_err(|e| explain(e, &origin))?;
        if v > SCHEMA_VERSION {
            bail!("bank '{origin}' has schema version {v}, newer than this binary's {SCHEMA_VERSION}: use a newer `bank`");
        }
        if v < SCHEMA_VERSION {
            bail!("bank '{origin}' has schema version {v}: open it once with `bank fill --count 0` to upgrade");
        }
        Ok(Bank { conn })
    }

    fn configure(conn: Connection, origin: &str) -> Result<Bank> {
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let check = || -> rusqlite::Result<()> {
            conn.pragma_update(None, "journal_mode", "WAL")?;
            conn.pragma_update(None, "foreign_keys", true)?;
            conn.pragma_update(None, "synchronous", "NORMAL")?;
            Ok(())
        };
        check().map_err(|e| explain(e.into(), origin))?;
        Ok(Bank { conn })
    }

    /// The connection, for queries the interface does not cover (tests, stats).
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Marks runs left `running` by a process of this host that no longer exists as
    /// `interrupted`; returns how many. Runs of live processes (a concurrent fill) and of
    /// other hosts are left alone.
    pub fn close_stale_runs(&self) -> Result<usize> {
        let host = host_name();
        let stale: Vec<i64> = self
            .conn
            .prepare("SELECT id, pid, host FROM runs WHERE status = 'running'")?
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, Option<u32>>(1)?,
                    r.get::<_, Option<String>>(2)?,
                ))
            })?
            .filter_map(|row| row.ok())
            .filter(|(_, pid, h)| {
                h.as_deref() == Some(host.as_str()) && !pid.is_some_and(process_alive)
            })
            .map(|(id, ..)| id)
            .collect();
        for id in &stale {
            self.conn.execute(
                "UPDATE runs SET status = 'interrupted', finished_at = strftime('%Y-%m-%dT%H:%M:%fZ','now'),
                        message = coalesce(message, 'process ended without closing the run')
                 WHERE id = ?1 AND status = 'running'",
                [id],
            )?;
        }
        Ok(stale.len())
    }

    /// Stored puzzles per (size, tier).
    pub fn tier_counts(&self) -> Result<std::collections::HashMap<(usize, String), u64>> {
        let mut stmt = self
            .conn
            .prepare("SELECT size, tier, count(*) FROM puzzles GROUP BY size, tier")?;
        let rows = stmt.query_map([], |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Records a new run and returns its id.
    pub fn start_run(
        &self,
        run_seed: u64,
        config_json: &str,
        generator_version: u32,
    ) -> Result<i64> {
        self.conn.execute(
            "INSERT INTO runs (started_at, status, run_seed, config_json, generator_version, pid, host)
             VALUES (strftime('%Y-%m-%dT%H:%M:%fZ','now'), 'running', ?1, ?2, ?3, ?4, ?5)",
            params![run_seed.to_string(), config_json, generator_version, std::process::id(), host_name()],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Stores the run's counters (called inside each batch so a crash keeps them close).
    fn update_counts(tx: &rusqlite::Transaction, run_id: i64, c: &RunCounts) -> Result<()> {
        tx.execute(
            "UPDATE runs SET attempts = ?2, accepted = ?3, duplicates = ?4, rejected = ?5,
                    timeouts = ?6, retries = ?7, alarms = ?8 WHERE id = ?1",
            params![
                run_id,
                c.attempts,
                c.accepted,
                c.duplicates,
                c.rejected,
                c.timeouts,
                c.retries,
                c.alarms
            ],
        )?;
        Ok(())
    }

    /// Closes a run with its final status, counters and message.
    pub fn finish_run(
        &self,
        run_id: i64,
        status: RunStatus,
        counts: &RunCounts,
        message: Option<&str>,
    ) -> Result<()> {
        let tx = self.conn.unchecked_transaction()?;
        Bank::update_counts(&tx, run_id, counts)?;
        tx.execute(
            "UPDATE runs SET status = ?2, message = ?3, finished_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?1",
            params![run_id, status.name(), message],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// The 16-byte prefixes of every stored fingerprint, for duplicate checks in memory.
    pub fn fingerprint_prefixes(&self) -> Result<HashSet<[u8; 16]>> {
        let mut stmt = self.conn.prepare("SELECT fingerprint FROM puzzles")?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
        let mut set = HashSet::new();
        for fp in rows {
            set.insert(fingerprint_prefix(&fp?));
        }
        Ok(set)
    }

    /// Inserts a batch of puzzles and alarms in one transaction, with the run's counters.
    /// Returns how many puzzles were new (the rest were duplicates by fingerprint).
    pub fn insert_batch(
        &mut self,
        run_id: i64,
        puzzles: &[NewPuzzle],
        alarms: &[AlarmRow],
        counts: &RunCounts,
    ) -> Result<usize> {
        // IMMEDIATE: take the write lock up front so two fills never deadlock on an upgrade.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut inserted = 0;
        {
            let mut grid_stmt = tx.prepare_cached(
                "INSERT OR IGNORE INTO base_grids (id, size, box_rows, box_cols, route, grid, seed)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            let mut puzzle_stmt = tx.prepare_cached(
                "INSERT OR IGNORE INTO puzzles (run_id, base_grid_id, size, box_rows, box_cols, puzzle,
                    solution, clues, tier, backtracks, guesses, seed, dig_strategy, target_clues,
                    generator_version, fingerprint, generation_us, source, score, hardest_technique,
                    rater_completed, techniques, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                    ?18, ?19, ?20, ?21, ?22, strftime('%Y-%m-%dT%H:%M:%fZ','now'))",
            )?;
            for p in puzzles {
                if let Some(b) = &p.base {
                    grid_stmt.execute(params![
                        b.id,
                        b.size,
                        b.box_rows,
                        b.box_cols,
                        b.route,
                        b.grid,
                        b.seed.to_string()
                    ])?;
                }
                inserted += puzzle_stmt.execute(params![
                    run_id,
                    p.base.as_ref().map(|b| &b.id),
                    p.size,
                    p.box_rows,
                    p.box_cols,
                    p.puzzle,
                    p.solution,
                    p.clues,
                    p.tier,
                    p.backtracks,
                    p.guesses,
                    p.seed.map(|s| s.to_string()),
                    p.dig_strategy,
                    p.target_clues,
                    p.generator_version,
                    p.fingerprint,
                    p.generation_us,
                    p.source(),
                    p.rating.score,
                    p.rating.hardest_technique,
                    p.rating.completed,
                    p.rating.techniques
                ])?;
            }
            let mut alarm_stmt = tx.prepare_cached(
                "INSERT INTO alarms (run_id, at, size, tier, window_size, timeouts_in_window, old_target, new_target)
                 VALUES (?1, strftime('%Y-%m-%dT%H:%M:%fZ','now'), ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            for a in alarms {
                alarm_stmt.execute(params![
                    run_id,
                    a.size,
                    a.tier,
                    a.window_size,
                    a.timeouts_in_window,
                    a.old_target,
                    a.new_target
                ])?;
            }
        }
        Bank::update_counts(&tx, run_id, counts)?;
        tx.commit()?;
        Ok(inserted)
    }

    /// A stored puzzle with its base grid, or `None` for an unknown id.
    pub fn puzzle(&self, id: i64) -> Result<Option<StoredPuzzle>> {
        let sql = format!("{PUZZLE_SELECT} WHERE p.id = ?1");
        Ok(self.conn.query_row(&sql, [id], stored_puzzle).optional()?)
    }

    /// Calls `visit` on each stored puzzle that `filter` selects, streaming (memory stays
    /// flat whatever the count). Stops at the first error `visit` returns.
    pub fn scan(
        &self,
        filter: &PuzzleFilter,
        mut visit: impl FnMut(StoredPuzzle) -> Result<()>,
    ) -> Result<()> {
        let mut sql = format!(
            "{PUZZLE_SELECT} WHERE (?1 IS NULL OR p.tier = ?1) AND (?2 IS NULL OR p.size = ?2)"
        );
        sql.push_str(if filter.random_order {
            " ORDER BY random()"
        } else {
            " ORDER BY p.id"
        });
        sql.push_str(" LIMIT ?3");
        let mut stmt = self.conn.prepare(&sql)?;
        let limit = filter.limit.map_or(-1, |l| l as i64);
        let mut rows = stmt.query(params![filter.tier, filter.size, limit])?;
        while let Some(row) = rows.next()? {
            visit(stored_puzzle(row)?)?;
        }
        Ok(())
    }

    /// How many puzzles `filter` selects.
    pub fn count(&self, filter: &PuzzleFilter) -> Result<u64> {
        let n: u64 = self.conn.query_row(
            "SELECT count(*) FROM puzzles WHERE (?1 IS NULL OR tier = ?1) AND (?2 IS NULL OR size = ?2)",
            params![filter.tier, filter.size],
            |r| r.get(0),
        )?;
        Ok(filter.limit.map_or(n, |l| l.min(n)))
    }
}

/// Which puzzles `scan` visits.
#[derive(Clone, Debug, Default)]
pub struct PuzzleFilter {
    /// Only this tier.
    pub tier: Option<String>,
    /// Only this grid side.
    pub size: Option<usize>,
    /// At most this many.
    pub limit: Option<u64>,
    /// A random sample rather than id order.
    pub random_order: bool,
}

/// The columns `stored_puzzle` reads, with the base grid joined.
const PUZZLE_SELECT: &str =
    "SELECT p.id, p.run_id, p.base_grid_id, g.route, g.seed, g.grid, p.size, p.box_rows,
        p.box_cols, p.puzzle, p.solution, p.clues, p.tier, p.backtracks, p.guesses,
        p.seed, p.dig_strategy, p.target_clues, p.generator_version, p.fingerprint,
        p.generation_us, p.created_at, p.source, p.score, p.hardest_technique, p.rater_completed,
        p.techniques
 FROM puzzles p LEFT JOIN base_grids g ON g.id = p.base_grid_id";

fn stored_puzzle(r: &rusqlite::Row) -> rusqlite::Result<StoredPuzzle> {
    Ok(StoredPuzzle {
        id: r.get(0)?,
        run_id: r.get(1)?,
        base_grid_id: r.get(2)?,
        route: r.get(3)?,
        grid_seed: r.get(4)?,
        base_grid: r.get(5)?,
        size: r.get(6)?,
        box_rows: r.get(7)?,
        box_cols: r.get(8)?,
        puzzle: r.get(9)?,
        solution: r.get(10)?,
        clues: r.get(11)?,
        tier: r.get(12)?,
        backtracks: r.get(13)?,
        guesses: r.get(14)?,
        seed: r.get(15)?,
        dig_strategy: r.get(16)?,
        target_clues: r.get(17)?,
        generator_version: r.get(18)?,
        fingerprint: r.get(19)?,
        generation_us: r.get(20)?,
        created_at: r.get(21)?,
        source: r.get(22)?,
        rating: match r.get::<_, Option<f64>>(23)? {
            Some(score) => Some(RatingRow {
                score,
                hardest_technique: r.get(24)?,
                completed: r.get(25)?,
                techniques: r.get(26)?,
            }),
            None => None,
        },
    })
}

/// This machine's name, to tell whose `running` runs can be checked for liveness.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .or_else(|_| std::env::var("HOSTNAME"))
        .unwrap_or_else(|_| "unknown".into())
}

/// Whether a process of this host is alive (Linux `/proc`; elsewhere assumed alive).
fn process_alive(pid: u32) -> bool {
    let proc_root = Path::new("/proc");
    !proc_root.is_dir() || proc_root.join(pid.to_string()).exists()
}

/// The first 16 bytes of a hex fingerprint.
pub fn fingerprint_prefix(hex: &str) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = hex
            .get(2 * i..2 * i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(0);
    }
    out
}

/// Turns SQLite's terse errors into messages that name the file and the fix.
fn explain(e: anyhow::Error, origin: &str) -> anyhow::Error {
    let text = format!("{e:#}");
    if text.contains("file is not a database") {
        anyhow::anyhow!(
            "'{origin}' is not a SQLite bank (file is not a database): give another --db path"
        )
    } else if text.contains("readonly") || text.contains("read-only") {
        anyhow::anyhow!(
            "bank '{origin}' is read-only: fix its permissions or give another --db path"
        )
    } else if text.contains("unable to open") {
        anyhow::anyhow!("cannot open bank '{origin}': check the folder exists and is writable")
    } else if text.contains(origin) {
        e
    } else {
        e.context(format!("bank '{origin}'"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrates_and_refuses_newer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.sqlite");
        let bank = Bank::open(&path).unwrap();
        assert_eq!(schema::version(bank.conn()).unwrap(), SCHEMA_VERSION);
        bank.conn()
            .pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        drop(bank);
        let err = Bank::open(&path).err().unwrap().to_string();
        assert!(err.contains("newer than this binary"), "{err}");
    }

    #[test]
    fn refuses_a_non_database() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "hello, this is not sqlite at all, just some text").unwrap();
        let err = Bank::open(&path).err().unwrap().to_string();
        assert!(err.contains("is not a SQLite bank"), "{err}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "hello, this is not sqlite at all, just some text"
        );
    }

    #[test]
    fn prefix_parses_hex() {
        let p = fingerprint_prefix("00ff10");
        assert_eq!(&p[..3], &[0, 255, 16]);
    }
}
