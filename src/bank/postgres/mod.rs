//! The PostgreSQL backend: one bank shared by many machines. The synchronous `postgres`
//! client fits the program's shape: one writer thread owns the connection while the
//! rayon pool generates, so nothing here needs an async runtime of its own.
//!
//! What makes many workers safe: fingerprints are UNIQUE and inserts `ON CONFLICT DO
//! NOTHING` (the loser counts a duplicate); a quota run counts the stock of each size and
//! tier under a transaction-scoped advisory lock before it stores ([`crate::bank::quota`]);
//! `take` claims rows with `FOR UPDATE SKIP LOCKED`; runs carry a heartbeat, and a run
//! whose worker stopped writing for [`crate::bank::liveness::LEASE`] is closed by the
//! others.

mod puzzles;
mod runs;
mod schema;
mod stats;
mod stock;

use super::columns::{copy_statement, samples_from, SAMPLE_COLUMNS};
use super::quota::{Inserted, StockCaps};
use super::row::{Column, Value};
use super::stats::ALARM_COLUMNS;
use super::stock::{Claim, Day, DayRecord, Pruned, Retired, StockLevel, DAYS_QUERY, RETIRED_QUERY};
use super::{
    stats::Stats, Batch, PostgresUrl, PuzzleFilter, RunEnd, RunRecord, Store, StoredPuzzle,
    TierOutcome,
};
use anyhow::{bail, Result};
use postgres::types::ToSql;
use postgres::{Client, GenericClient, NoTls};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// The current time as the bank writes it into `*_at` columns: UTC, RFC 3339 with
/// milliseconds, the text SQLite writes, so both backends read and sort alike.
const NOW: &str =
    "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')";

/// A bank in a PostgreSQL database.
pub struct PostgresBank {
    /// The store's readers take `&self`; one connection serves them in turn.
    client: RefCell<Client>,
}

impl PostgresBank {
    /// Connects to the bank at `url` for writing, creating or migrating its schema.
    pub fn open(url: &PostgresUrl) -> Result<PostgresBank> {
        let origin = url.to_string();
        let mut client = connect(url)?;
        schema::migrate(&mut client, &origin).map_err(|e| explain(e, &origin))?;
        Ok(PostgresBank {
            client: RefCell::new(client),
        })
    }

    /// Connects to an existing bank read-only (for `show`, `stats`, `export`, …).
    pub fn open_existing(url: &PostgresUrl) -> Result<PostgresBank> {
        let origin = url.to_string();
        let mut client = connect(url)?;
        match schema::known_version(&mut client, &origin).map_err(|e| explain(e, &origin))? {
            None => bail!(
                "no bank in '{origin}': run `bank fill --db {origin}` first (the database \
                 exists but holds no bank tables)"
            ),
            Some(v) if v < crate::bank::SCHEMA_VERSION => bail!(
                "bank '{origin}' has schema version {v}: open it once with `bank fill \
                 --count 0 --db {origin}` to upgrade"
            ),
            Some(_) => {}
        }
        client.batch_execute("SET default_transaction_read_only = on")?;
        Ok(PostgresBank {
            client: RefCell::new(client),
        })
    }

    fn client(&self) -> std::cell::RefMut<'_, Client> {
        self.client.borrow_mut()
    }
}

/// A connection, with errors that name the server and the fix.
fn connect(url: &PostgresUrl) -> Result<Client> {
    let origin = url.to_string();
    let mut config = url.config();
    if config.get_application_name().is_none() {
        config.application_name("sudoku-bank");
    }
    if config.get_ssl_mode() == postgres::config::SslMode::Require {
        bail!(
            "PostgreSQL bank '{origin}' asks for sslmode=require, but bank connects without \
             TLS: reach the server over a unix socket or a trusted network and drop \
             sslmode (or set sslmode=prefer)"
        );
    }
    config.connect(NoTls).map_err(|e| {
        if e.as_db_error().is_some() {
            explain(e.into(), &origin)
        } else {
            anyhow::anyhow!(
                "cannot reach PostgreSQL bank '{origin}': {e}: check that the server is \
                 running and the host, port or socket folder in the URL"
            )
        }
    })
}

/// Turns the client's errors into messages that name the bank and the fix.
fn explain(e: anyhow::Error, origin: &str) -> anyhow::Error {
    let pg = e.chain().find_map(|c| c.downcast_ref::<postgres::Error>());
    let Some(pg) = pg else {
        return e.context(format!("bank '{origin}'"));
    };
    if let Some(db) = pg.as_db_error() {
        use postgres::error::SqlState;
        let fix = match *db.code() {
            SqlState::INVALID_CATALOG_NAME => {
                " (create the database first, e.g. `createdb NAME`, then run the command again)"
            }
            SqlState::INVALID_PASSWORD | SqlState::INVALID_AUTHORIZATION_SPECIFICATION => {
                " (check the user and password in the URL)"
            }
            SqlState::INSUFFICIENT_PRIVILEGE => {
                " (the user needs CREATE on the schema to make the bank's tables)"
            }
            _ => "",
        };
        return anyhow::anyhow!("PostgreSQL bank '{origin}': {}{fix}", db.message());
    }
    anyhow::anyhow!("PostgreSQL bank '{origin}': {pg:#}")
}

/// Values bound as parameters.
pub(super) struct Params(pub(super) Vec<Box<dyn ToSql + Sync>>);

impl Params {
    /// The parameter slice the client takes.
    pub(super) fn refs(&self) -> Vec<&(dyn ToSql + Sync)> {
        self.0.iter().map(|b| b.as_ref()).collect()
    }
}

/// `values` as parameters.
pub(super) fn params(values: &[Value]) -> Params {
    Params(
        values
            .iter()
            .map(|v| -> Box<dyn ToSql + Sync> {
                match v.clone() {
                    Value::Int(n) => Box::new(n),
                    Value::Real(x) => Box::new(x),
                    Value::Bool(b) => Box::new(b),
                    Value::Text(t) => Box::new(t),
                }
            })
            .collect(),
    )
}

/// Every row `sql` selects for `args`, read as `T`.
pub(super) fn select_rows<T: Column>(
    c: &mut impl GenericClient,
    sql: &str,
    args: &[&(dyn ToSql + Sync)],
) -> Result<Vec<T>> {
    c.query(sql, args)?
        .iter()
        .map(|r| T::read_at(r, 0))
        .collect()
}

/// Copies rows from another bank: runs `sql` once per row, bound to its values, in one
/// transaction; returns how many rows it changed.
fn copy_rows<T: Column>(client: &mut Client, sql: &str, items: &[T]) -> Result<u64> {
    let mut tx = client.transaction()?;
    let stmt = tx.prepare(sql)?;
    let mut changed = 0;
    for item in items {
        let mut values = Vec::with_capacity(T::WIDTH);
        item.push_values(&mut values);
        changed += tx.execute(&stmt, &params(&values).refs())?;
    }
    tx.commit()?;
    Ok(changed)
}

/// The SQL type a value binds as, for casts where PostgreSQL cannot infer one.
pub(super) fn sql_type(v: &Value) -> &'static str {
    match v {
        Value::Int(_) => "bigint",
        Value::Real(_) => "double precision",
        Value::Bool(_) => "boolean",
        Value::Text(_) => "text",
    }
}

crate::bank::row::read_row_by!(postgres::Row, try_get);

impl Store for PostgresBank {
    fn close_stale_runs(&self) -> Result<usize> {
        runs::close_stale(&mut *self.client())
    }

    fn start_run(&self, run_seed: u64, config_json: &str, generator_version: u32) -> Result<i64> {
        runs::start(
            &mut *self.client(),
            run_seed,
            config_json,
            generator_version,
        )
    }

    fn heartbeat(&self, run_id: i64) -> Result<()> {
        runs::heartbeat(&mut *self.client(), run_id)
    }

    fn finish_run(&self, run_id: i64, end: &RunEnd) -> Result<()> {
        runs::finish(&mut self.client(), run_id, end)
    }

    fn recent_tiers(&self, runs: usize) -> Result<Vec<TierOutcome>> {
        runs::recent_tiers(&mut *self.client(), runs)
    }

    fn insert_batch(&mut self, run_id: i64, batch: &Batch, caps: &StockCaps) -> Result<Inserted> {
        puzzles::insert_batch(self.client.get_mut(), run_id, batch, caps)
    }

    fn fingerprint_prefixes(&self) -> Result<HashSet<[u8; 16]>> {
        puzzles::prefixes(
            &mut self.client(),
            "SELECT fingerprint FROM puzzles UNION ALL SELECT fingerprint FROM retired_fingerprints",
        )
    }

    fn full_fingerprint_prefixes(&self) -> Result<HashSet<[u8; 16]>> {
        puzzles::prefixes(
            &mut self.client(),
            "SELECT full_fingerprint FROM puzzles WHERE full_fingerprint IS NOT NULL",
        )
    }

    fn class_counts(&self) -> Result<HashMap<[u8; 16], u32>> {
        puzzles::class_counts(&mut self.client())
    }

    fn stock(&self, since: Option<&str>) -> Result<Vec<StockLevel>> {
        stock::levels(&mut *self.client(), since)
    }

    fn last_run_start(&self) -> Result<Option<String>> {
        Ok(self
            .client()
            .query_one("SELECT max(started_at) FROM runs", &[])?
            .get(0))
    }

    fn take(&mut self, claim: &Claim) -> Result<Vec<StoredPuzzle>> {
        stock::take(self.client.get_mut(), claim)
    }

    fn daily(&mut self, day: &Day) -> Result<Option<(StoredPuzzle, bool)>> {
        stock::daily(self.client.get_mut(), day)
    }

    fn prune(&mut self, before: &str) -> Result<Pruned> {
        stock::prune(self.client.get_mut(), before)
    }

    fn retired(&self) -> Result<Vec<Retired>> {
        select_rows(&mut *self.client(), RETIRED_QUERY, &[])
    }

    fn retire(&mut self, fingerprints: &[Retired]) -> Result<u64> {
        copy_rows(self.client.get_mut(), stock::RETIRE, fingerprints)
    }

    fn days(&self) -> Result<Vec<DayRecord>> {
        select_rows(&mut *self.client(), DAYS_QUERY, &[])
    }

    fn record_days(&mut self, days: &[DayRecord]) -> Result<u64> {
        copy_rows(self.client.get_mut(), stock::RECORD_DAYS, days)
    }

    fn runs(&self) -> Result<Vec<RunRecord>> {
        runs::all(&mut *self.client())
    }

    fn copy_run(&self, run: &RunRecord) -> Result<i64> {
        runs::copy(&mut *self.client(), run)
    }

    fn alarms(&self) -> Result<Vec<super::stats::AlarmRow>> {
        runs::alarms(&mut *self.client(), "ORDER BY id")
    }

    fn copy_alarms(&mut self, alarms: &[super::stats::AlarmRow]) -> Result<u64> {
        let sql = copy_statement('$', "alarms", ALARM_COLUMNS);
        copy_rows(self.client.get_mut(), &sql, alarms)
    }

    fn samples(&self, first_run: i64) -> Result<Vec<crate::bank::SampleRow>> {
        select_rows(&mut *self.client(), &samples_from('$'), &[&first_run])
    }

    fn copy_samples(&mut self, samples: &[crate::bank::SampleRow]) -> Result<u64> {
        let sql = copy_statement('$', "run_samples", SAMPLE_COLUMNS);
        copy_rows(self.client.get_mut(), &sql, samples)
    }

    fn puzzle(&self, id: i64) -> Result<Option<StoredPuzzle>> {
        puzzles::by_id(&mut *self.client(), id)
    }

    fn scan(
        &self,
        filter: &PuzzleFilter,
        visit: &mut dyn FnMut(StoredPuzzle) -> Result<()>,
    ) -> Result<()> {
        puzzles::scan(&mut self.client(), filter, visit)
    }

    fn count(&self, filter: &PuzzleFilter) -> Result<u64> {
        puzzles::count(&mut *self.client(), filter)
    }

    fn stats(&self, runs: usize) -> Result<Stats> {
        stats::collect(&mut *self.client(), runs)
    }
}
