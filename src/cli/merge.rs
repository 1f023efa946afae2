//! `bank merge`: copy another bank into this one.

use super::args::BankArgs;
use crate::bank::{self, Location};
use anyhow::{bail, Result};
use clap::Args;

/// Copy another bank's runs, puzzles (deduplicated by fingerprint), base grids and
/// retired fingerprints into this one, keeping where each came from.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The bank to copy from (left unchanged): a SQLite file or a PostgreSQL URL, so a
    /// bank moves between backends with every column.
    #[arg(value_name = "PATH|URL")]
    pub other: Location,
    /// The bank to copy into (created if needed).
    #[command(flatten)]
    pub common: BankArgs,
}

/// Merges and prints what was copied.
pub fn run(args: &MergeArgs) -> Result<u8> {
    let same = match (&args.other, &args.common.db) {
        (Location::Sqlite(a), Location::Sqlite(b)) => match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        },
        (Location::Postgres(a), Location::Postgres(b)) => a.same_database(b),
        _ => false,
    };
    if same {
        bail!(
            "'{}' is the bank given with --db: merge another bank into it",
            args.other
        );
    }
    let from = bank::open_existing(&args.other)?;
    let mut into = bank::open(&args.common.db)?;
    let name = args.other.to_string();
    let m = bank::merge::merge(from.as_ref(), into.as_mut(), &name)?;
    note!(
        "merged {name} into {}: {} puzzles copied, {} already here (same fingerprint), \
         {} runs, {} alarms, {} retired fingerprints, {} days' puzzles",
        args.common.db,
        m.puzzles,
        m.duplicates,
        m.runs,
        m.alarms,
        m.retired,
        m.days
    );
    Ok(super::EXIT_OK)
}
