//! Schema migrations: numbered SQL files from `migrations/`, applied in order inside one
//! transaction; the version lives in `PRAGMA user_version`. A new bank takes the schema
//! they leave in one script instead (`migrations/schema.sql`, held to them by a test).

use anyhow::{bail, Context, Result};
use rusqlite::Connection;

/// The migrations, in order; the schema version is their count.
const MIGRATIONS: &[&str] = &[
    include_str!("../../../migrations/0001_initial.sql"),
    include_str!("../../../migrations/0002_rating.sql"),
    include_str!("../../../migrations/0003_stock.sql"),
    include_str!("../../../migrations/0004_variety.sql"),
    include_str!("../../../migrations/0005_workers.sql"),
    include_str!("../../../migrations/0006_samples.sql"),
    include_str!("../../../migrations/0007_variants.sql"),
    include_str!("../../../migrations/0008_variant_days_and_alarms.sql"),
    include_str!("../../../migrations/0009_open_variants.sql"),
    include_str!("../../../migrations/0010_regions.sql"),
    include_str!("../../../migrations/0011_run_tiers.sql"),
];

/// The schema [`MIGRATIONS`] leave, for a bank that has none yet.
const SCHEMA: &str = include_str!("../../../migrations/schema.sql");

/// Schema version this binary writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The schema version of an open database.
pub fn version(conn: &Connection) -> Result<i64> {
    Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
}

/// The schema version, refused (without a change to the bank) when it is newer than
/// this binary's.
pub fn known_version(conn: &Connection, origin: &str) -> Result<i64> {
    let v = version(conn)?;
    if v > SCHEMA_VERSION {
        bail!(
            "bank '{origin}' has schema version {v}, newer than this binary's \
             {SCHEMA_VERSION}: use a newer `bank` (the bank was left untouched)"
        );
    }
    Ok(v)
}

/// Brings the schema up to date; refuses a newer one without touching it.
pub fn migrate(conn: &mut Connection, origin: &str) -> Result<()> {
    if version(conn)? == SCHEMA_VERSION {
        return Ok(());
    }
    // A migration that rebuilds a table drops it while others refer to it: SQLite's
    // procedure for that is foreign keys off (which only works outside a transaction)
    // and a `foreign_key_check` before commit.
    let enforced: bool = conn.pragma_query_value(None, "foreign_keys", |r| r.get(0))?;
    conn.pragma_update(None, "foreign_keys", false)?;
    let result = apply_migrations(conn, origin);
    conn.pragma_update(None, "foreign_keys", enforced)?;
    result
}

/// The migrations from the bank's version on, in one transaction.
fn apply_migrations(conn: &mut Connection, origin: &str) -> Result<()> {
    // IMMEDIATE: a concurrent opener waits here, then sees the migrated version.
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let current = known_version(&tx, origin)?;
    if current == SCHEMA_VERSION {
        return Ok(());
    }
    if current == 0 && is_empty(&tx)? {
        tx.execute_batch(SCHEMA)
            .with_context(|| format!("creating the schema of '{origin}'"))?;
    } else {
        apply_from(&tx, current, origin)?;
    }
    if current < 4 {
        backfill_solution_classes(&tx)
            .with_context(|| format!("computing solution classes in '{origin}'"))?;
    }
    let broken: i64 = tx.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
        r.get(0)
    })?;
    if broken > 0 {
        bail!("migrating '{origin}' would leave {broken} rows referring to none (left untouched)");
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    tx.commit()?;
    Ok(())
}

/// Whether the database holds no table, index or view yet.
fn is_empty(conn: &Connection) -> Result<bool> {
    let objects: i64 = conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
    Ok(objects == 0)
}

/// The migrations after version `current`, in order.
fn apply_from(conn: &Connection, current: i64, origin: &str) -> Result<()> {
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        conn.execute_batch(sql)
            .with_context(|| format!("applying migration {} to '{origin}'", i + 1))?;
    }
    Ok(())
}

/// Migration 4: the solution class of every puzzle stored before it (computed once per
/// distinct solution; a row whose solution does not parse keeps NULL, which `verify`
/// reports).
fn backfill_solution_classes(conn: &Connection) -> Result<()> {
    use crate::grid::{parse_line_with, Geometry};
    use std::collections::HashMap;
    let rows: Vec<(i64, String, usize, usize, usize)> = conn
        .prepare("SELECT id, solution, size, box_rows, box_cols FROM puzzles WHERE solution_class IS NULL")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut classes: HashMap<String, Option<String>> = HashMap::new();
    let mut update = conn.prepare("UPDATE puzzles SET solution_class = ?2 WHERE id = ?1")?;
    for (id, solution, size, rows_, cols) in rows {
        let class = classes
            .entry(solution.clone())
            .or_insert_with(|| {
                let g = Geometry::from_columns(size, rows_, cols)?;
                crate::canon::solution_class(&parse_line_with(&solution, g).ok()?)
            })
            .clone();
        update.execute(rusqlite::params![id, class])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schema's objects, as SQLite keeps their text, in creation order.
    fn objects(conn: &Connection) -> Vec<(String, String, String)> {
        conn.prepare(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
    }

    /// `schema.sql` makes, object by object and to the letter, what the migrations make.
    #[test]
    fn the_new_bank_schema_is_what_the_migrations_leave() {
        let migrated = Connection::open_in_memory().unwrap();
        migrated.pragma_update(None, "foreign_keys", false).unwrap();
        apply_from(&migrated, 0, "migrated").unwrap();
        let mut fresh = Connection::open_in_memory().unwrap();
        migrate(&mut fresh, "fresh").unwrap();
        assert_eq!(version(&fresh).unwrap(), SCHEMA_VERSION);
        let (want, got) = (objects(&migrated), objects(&fresh));
        let text: String = want
            .iter()
            .map(|(_, _, sql)| format!("{sql};\n\n"))
            .collect();
        assert_eq!(
            got, want,
            "migrations/schema.sql is not what the migrations leave; its statements should read:\n{text}"
        );
    }
}
