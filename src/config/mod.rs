//! Configuration: `config/bank.toml` read once at the edge ([`file`]) and resolved into
//! typed [`Settings`] that the rest of the program takes as plain values. Nothing past
//! this module parses a route, strategy or tier name again.

mod file;
mod settings;

pub use file::ConfigFile;
pub use settings::{
    check_variant_size, AlarmPolicy, ClueRange, Dedup, Generation, Quota, ScoreBand, Settings, Tier,
};

/// The configuration checked into `config/bank.toml`, embedded in the binary.
pub const DEFAULT_CONFIG: &str = include_str!("../../config/bank.toml");

/// Most worker threads a config or `--threads` may ask for (more only slows the start).
pub const MAX_THREADS: usize = 1024;
