//! PostgreSQL schema migrations: numbered SQL files from `migrations/postgres/`, the
//! same model as SQLite's at the same version, applied in one transaction under an
//! advisory lock (workers that start together wait for one of them to migrate). The
//! version lives in the table `bank_schema`.

use anyhow::{bail, Context, Result};
use postgres::{Client, GenericClient};

/// The migrations, in order; the schema version is their count.
const MIGRATIONS: &[&str] = &[
    include_str!("../../../migrations/postgres/0001_initial.sql"),
    include_str!("../../../migrations/postgres/0002_rating.sql"),
    include_str!("../../../migrations/postgres/0003_stock.sql"),
    include_str!("../../../migrations/postgres/0004_variety.sql"),
    include_str!("../../../migrations/postgres/0005_workers.sql"),
    include_str!("../../../migrations/postgres/0006_samples.sql"),
    include_str!("../../../migrations/postgres/0007_variants.sql"),
    include_str!("../../../migrations/postgres/0008_variant_days_and_alarms.sql"),
    include_str!("../../../migrations/postgres/0009_open_variants.sql"),
    include_str!("../../../migrations/postgres/0010_regions.sql"),
    include_str!("../../../migrations/postgres/0011_run_tiers.sql"),
];

/// Both backends are at the same version of one model.
const _: () = assert!(MIGRATIONS.len() as i64 == crate::bank::SCHEMA_VERSION);

/// The advisory lock key migrations hold ("sudoku-bank schema").
const MIGRATION_LOCK: i64 = 0x5355_444f_4b55_0001;

/// The bank's schema version; `None` when the database holds no bank yet.
pub fn version(c: &mut impl GenericClient) -> Result<Option<i64>> {
    let exists: bool = c
        .query_one("SELECT to_regclass('bank_schema') IS NOT NULL", &[])?
        .get(0);
    if !exists {
        return Ok(None);
    }
    let row = c.query_opt("SELECT max(version) FROM bank_schema", &[])?;
    Ok(row.and_then(|r| r.get(0)))
}

/// The schema version, refused (without a change to the bank) when it is newer than
/// this binary's.
pub fn known_version(c: &mut impl GenericClient, origin: &str) -> Result<Option<i64>> {
    let v = version(c)?;
    if let Some(v) = v.filter(|&v| v > crate::bank::SCHEMA_VERSION) {
        bail!(
            "bank '{origin}' has schema version {v}, newer than this binary's {}: use a \
             newer `bank` (the bank was left untouched)",
            crate::bank::SCHEMA_VERSION
        );
    }
    Ok(v)
}

/// Brings the schema up to date; refuses a newer one without touching it.
pub fn migrate(client: &mut Client, origin: &str) -> Result<()> {
    if known_version(client, origin)? == Some(crate::bank::SCHEMA_VERSION) {
        return Ok(());
    }
    // A session lock taken before the transaction: the transaction that follows sees
    // the catalog as the previous holder left it.
    client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])?;
    let migrated = apply(client, origin);
    client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])?;
    migrated
}

/// Applies the migrations the bank lacks, in one transaction.
fn apply(client: &mut Client, origin: &str) -> Result<()> {
    let mut tx = client.transaction()?;
    let current = known_version(&mut tx, origin)?.unwrap_or(0);
    if current == crate::bank::SCHEMA_VERSION {
        return Ok(());
    }
    if current == 0 {
        tx.batch_execute("CREATE TABLE bank_schema (version BIGINT NOT NULL)")?;
        tx.execute("INSERT INTO bank_schema (version) VALUES (0)", &[])?;
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        tx.batch_execute(sql)
            .with_context(|| format!("applying migration {} to '{origin}'", i + 1))?;
    }
    tx.execute(
        "UPDATE bank_schema SET version = $1",
        &[&crate::bank::SCHEMA_VERSION],
    )?;
    tx.commit()?;
    Ok(())
}
