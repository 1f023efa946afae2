//! The SQLite backend: one file, WAL, a 30 s busy timeout, foreign keys on. Opening and
//! error wording here; runs, puzzles and stats each in their own file.

mod puzzles;
mod runs;
mod schema;
mod stats;
mod stock;

pub use schema::SCHEMA_VERSION;

use super::columns::{copy_statement, samples_from, SAMPLE_COLUMNS};
use super::quota::{Inserted, StockCaps};
use super::row::Column;
use super::stats::ALARM_COLUMNS;
use super::stock::{Claim, Day, DayRecord, Pruned, Retired, StockLevel, DAYS_QUERY, RETIRED_QUERY};
use super::{
    stats::Stats, Batch, PuzzleFilter, RunEnd, RunRecord, Store, StoredPuzzle, TierOutcome,
};
use anyhow::{bail, Context, Result};
use rusqlite::{Connection, ErrorCode, OpenFlags};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::Duration;

/// How long a connection waits for another writer before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The current time as SQLite writes it into `*_at` columns (UTC, RFC 3339).
const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ','now')";

/// A bank in a SQLite file.
pub struct SqliteBank {
    conn: Connection,
}

impl SqliteBank {
    /// Opens (creating if needed) the bank at `path` for writing, migrating its schema.
    /// A new bank is built under a temporary name and linked into place whole, so
    /// processes that create the same bank at once all open one complete bank; an
    /// existing file is checked to be a SQLite database of a schema this binary knows
    /// before anything in it changes.
    pub fn open(path: &Path) -> Result<SqliteBank> {
        let origin = path.display().to_string();
        if path.is_dir() {
            bail!("bank path '{origin}' is a directory: give a file path such as bank.sqlite");
        }
        let parent = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if !parent.is_dir() {
            bail!(
                "cannot create bank '{origin}': folder '{}' does not exist",
                parent.display()
            );
        }
        if path.exists() {
            check_header(path, &origin)?;
            if path.metadata().is_ok_and(|m| m.permissions().readonly()) {
                bail!("bank '{origin}' is read-only: fix its permissions (chmod u+w) or give another --db path");
            }
        } else {
            if !writable(parent) {
                bail!(
                    "cannot create bank '{origin}': folder '{}' is not writable",
                    parent.display()
                );
            }
            create(path, parent, &origin)?;
        }
        let mut bank = SqliteBank::connect(path, &origin)?;
        // Nothing is written, not even the journal mode, before the schema is known.
        schema::known_version(&bank.conn, &origin).map_err(|e| explain(e, &origin))?;
        bank.configure(&origin)?;
        schema::migrate(&mut bank.conn, &origin).map_err(|e| explain(e, &origin))?;
        Ok(bank)
    }

    /// A connection to `path` with the busy timeout set.
    fn connect(path: &Path, origin: &str) -> Result<SqliteBank> {
        let conn =
            Connection::open(path).with_context(|| format!("cannot open bank '{origin}'"))?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        Ok(SqliteBank { conn })
    }

    /// WAL, foreign keys, normal syncs.
    fn configure(&self, origin: &str) -> Result<()> {
        let set = || -> rusqlite::Result<()> {
            self.conn.pragma_update(None, "journal_mode", "WAL")?;
            self.conn.pragma_update(None, "foreign_keys", true)?;
            self.conn.pragma_update(None, "synchronous", "NORMAL")?;
            Ok(())
        };
        set().map_err(|e| explain(e.into(), origin))
    }

    /// An error naming the fix when no bank file is at `path`.
    pub fn check_exists(path: &Path) -> Result<()> {
        if !path.is_file() {
            bail!(
                "no bank at '{}': run `bank fill` first, or pass --db PATH",
                path.display()
            );
        }
        Ok(())
    }

    /// Opens an existing bank read-only (for `show`, `stats`, `reproduce`, `export`).
    pub fn open_existing(path: &Path) -> Result<SqliteBank> {
        let origin = path.display().to_string();
        Self::check_exists(path)?;
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .with_context(|| format!("cannot open bank '{origin}'"))?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let v = schema::known_version(&conn, &origin).map_err(|e| explain(e, &origin))?;
        if v < SCHEMA_VERSION {
            bail!("bank '{origin}' has schema version {v}: open it once with `bank fill --count 0` to upgrade");
        }
        Ok(SqliteBank { conn })
    }
}

impl Store for SqliteBank {
    fn close_stale_runs(&self) -> Result<usize> {
        runs::close_stale(&self.conn)
    }

    fn start_run(&self, run_seed: u64, config_json: &str, generator_version: u32) -> Result<i64> {
        runs::start(&self.conn, run_seed, config_json, generator_version)
    }

    fn heartbeat(&self, run_id: i64) -> Result<()> {
        runs::heartbeat(&self.conn, run_id)
    }

    fn finish_run(&self, run_id: i64, end: &RunEnd) -> Result<()> {
        runs::finish(&self.conn, run_id, end)
    }

    fn recent_tiers(&self, runs: usize) -> Result<Vec<TierOutcome>> {
        runs::recent_tiers(&self.conn, runs)
    }

    fn insert_batch(&mut self, run_id: i64, batch: &Batch, caps: &StockCaps) -> Result<Inserted> {
        puzzles::insert_batch(&mut self.conn, run_id, batch, caps)
    }

    fn fingerprint_prefixes(&self) -> Result<HashSet<[u8; 16]>> {
        puzzles::fingerprint_prefixes(&self.conn)
    }

    fn full_fingerprint_prefixes(&self) -> Result<HashSet<[u8; 16]>> {
        puzzles::full_fingerprint_prefixes(&self.conn)
    }

    fn class_counts(&self) -> Result<HashMap<[u8; 16], u32>> {
        puzzles::class_counts(&self.conn)
    }

    fn stock(&self, since: Option<&str>) -> Result<Vec<StockLevel>> {
        stock::levels(&self.conn, since)
    }

    fn last_run_start(&self) -> Result<Option<String>> {
        stock::last_run_start(&self.conn)
    }

    fn take(&mut self, claim: &Claim) -> Result<Vec<StoredPuzzle>> {
        stock::take(&mut self.conn, claim)
    }

    fn daily(&mut self, day: &Day) -> Result<Option<(StoredPuzzle, bool)>> {
        stock::daily(&mut self.conn, day)
    }

    fn prune(&mut self, before: &str) -> Result<Pruned> {
        stock::prune(&mut self.conn, before)
    }

    fn retired(&self) -> Result<Vec<Retired>> {
        select_rows(&self.conn, RETIRED_QUERY, [])
    }

    fn retire(&mut self, fingerprints: &[Retired]) -> Result<u64> {
        copy_rows(&mut self.conn, stock::RETIRE, fingerprints)
    }

    fn days(&self) -> Result<Vec<DayRecord>> {
        select_rows(&self.conn, DAYS_QUERY, [])
    }

    fn record_days(&mut self, days: &[DayRecord]) -> Result<u64> {
        copy_rows(&mut self.conn, stock::RECORD_DAYS, days)
    }

    fn runs(&self) -> Result<Vec<RunRecord>> {
        runs::all(&self.conn)
    }

    fn copy_run(&self, run: &RunRecord) -> Result<i64> {
        runs::copy(&self.conn, run)
    }

    fn alarms(&self) -> Result<Vec<super::stats::AlarmRow>> {
        runs::alarms(&self.conn, "ORDER BY id")
    }

    fn copy_alarms(&mut self, alarms: &[super::stats::AlarmRow]) -> Result<u64> {
        let sql = copy_statement('?', "alarms", ALARM_COLUMNS);
        copy_rows(&mut self.conn, &sql, alarms)
    }

    fn samples(&self, first_run: i64) -> Result<Vec<crate::bank::SampleRow>> {
        select_rows(&self.conn, &samples_from('?'), [first_run])
    }

    fn copy_samples(&mut self, samples: &[crate::bank::SampleRow]) -> Result<u64> {
        let sql = copy_statement('?', "run_samples", SAMPLE_COLUMNS);
        copy_rows(&mut self.conn, &sql, samples)
    }

    fn puzzle(&self, id: i64) -> Result<Option<StoredPuzzle>> {
        puzzles::by_id(&self.conn, id)
    }

    fn scan(
        &self,
        filter: &PuzzleFilter,
        visit: &mut dyn FnMut(StoredPuzzle) -> Result<()>,
    ) -> Result<()> {
        puzzles::scan(&self.conn, filter, visit)
    }

    fn count(&self, filter: &PuzzleFilter) -> Result<u64> {
        puzzles::count(&self.conn, filter)
    }

    fn stats(&self, runs: usize) -> Result<Stats> {
        stats::collect(&self.conn, runs)
    }
}

/// Every row `sql` selects for `params`, read as `T`.
pub(super) fn select_rows<T: Column>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<T>> {
    let mut stmt = conn.prepare(sql)?;
    let mut rows = stmt.query(params)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        out.push(T::read_at(r, 0)?);
    }
    Ok(out)
}

/// Copies rows from another bank: runs `sql` once per row, bound to its values, in one
/// IMMEDIATE transaction; returns how many rows it changed.
fn copy_rows<T: Column>(conn: &mut Connection, sql: &str, items: &[T]) -> Result<u64> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let mut changed = 0;
    {
        let mut stmt = tx.prepare(sql)?;
        for item in items {
            let mut values = Vec::with_capacity(T::WIDTH);
            item.push_values(&mut values);
            changed += stmt.execute(rusqlite::params_from_iter(values))? as u64;
        }
    }
    tx.commit()?;
    Ok(changed)
}

/// Refuses a file that is not a SQLite database (a SQLite file is never shorter than its
/// 100-byte header, and starts with its magic string), leaving it as it is.
fn check_header(path: &Path, origin: &str) -> Result<()> {
    use std::io::Read;
    let mut head = [0u8; 16];
    let mut file =
        std::fs::File::open(path).with_context(|| format!("cannot read bank '{origin}'"))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len < 100 || file.read_exact(&mut head).is_err() || &head != b"SQLite format 3\0" {
        bail!(
            "'{origin}' is not a SQLite bank ({len} bytes without a SQLite header): give \
             another --db path, or remove the file to start a new bank there"
        );
    }
    Ok(())
}

/// Builds a new bank at `path`: under a temporary name in the same folder, then linked
/// into place. When another process linked its bank first, that one is kept.
fn create(path: &Path, folder: &Path, origin: &str) -> Result<()> {
    let name = path
        .file_name()
        .map_or("bank".into(), |n| n.to_string_lossy());
    let temp = folder.join(format!(".{name}.{}.new", std::process::id()));
    let remove_temp = || {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut p = temp.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    };
    remove_temp();
    let built = (|| {
        let mut bank = SqliteBank::connect(&temp, origin)?;
        bank.configure(origin)?;
        schema::migrate(&mut bank.conn, origin).map_err(|e| explain(e, origin))?;
        bank.conn
            .close()
            .map_err(|(_, e)| explain(e.into(), origin))?;
        std::fs::hard_link(&temp, path).or_else(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => Ok(()),
            _ => Err(anyhow::Error::new(e).context(format!("cannot create bank '{origin}'"))),
        })
    })();
    remove_temp();
    built
}

/// Whether this process may create files in `folder`.
fn writable(folder: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(folder.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

/// Turns SQLite's terse errors into messages that name the file and the fix, by the
/// error's code.
fn explain(e: anyhow::Error, origin: &str) -> anyhow::Error {
    let code = e
        .chain()
        .find_map(|c| c.downcast_ref::<rusqlite::Error>())
        .and_then(rusqlite::Error::sqlite_error_code);
    match code {
        Some(ErrorCode::NotADatabase) => anyhow::anyhow!(
            "'{origin}' is not a SQLite bank (file is not a database): give another --db path"
        ),
        Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen)
            if !writable(
                Path::new(origin)
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .unwrap_or(Path::new(".")),
            ) =>
        {
            anyhow::anyhow!(
                "bank '{origin}' cannot be written: its folder is not writable, and SQLite \
                 keeps the bank's -wal and -shm files beside it: make the folder writable \
                 or move the bank"
            )
        }
        Some(ErrorCode::ReadOnly) => anyhow::anyhow!(
            "bank '{origin}' is read-only: fix its permissions or give another --db path"
        ),
        Some(ErrorCode::CannotOpen) => {
            anyhow::anyhow!("cannot open bank '{origin}': check the folder exists and is writable")
        }
        _ if format!("{e:#}").contains(origin) => e,
        _ => e.context(format!("bank '{origin}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrates_and_refuses_newer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.sqlite");
        let bank = SqliteBank::open(&path).unwrap();
        assert_eq!(schema::version(&bank.conn).unwrap(), SCHEMA_VERSION);
        bank.conn
            .pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        drop(bank);
        let err = SqliteBank::open(&path).err().unwrap().to_string();
        assert!(err.contains("newer than this binary"), "{err}");
    }

    #[test]
    fn refuses_a_non_database() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "hello, this is not sqlite at all, just some text").unwrap();
        let err = SqliteBank::open(&path).err().unwrap().to_string();
        assert!(err.contains("is not a SQLite bank"), "{err}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "hello, this is not sqlite at all, just some text"
        );
    }
}
