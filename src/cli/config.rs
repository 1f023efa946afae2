//! `bank config`: checks a config as the other commands would read it and, with
//! `--print`, writes the resolved settings: the file laid over the embedded default.

use super::args::ConfigArgs;
use anyhow::{Context, Result};
use clap::Args;

/// Check a config; print what it resolves to.
#[derive(Args, Debug)]
pub struct ConfigCommandArgs {
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Print the resolved settings as a complete TOML file: every value the commands will
    /// use, the embedded default's where the file says nothing.
    #[arg(long)]
    pub print: bool,
}

/// Exit 0 when the config resolves (error, exit 2, naming the value otherwise).
pub fn run(args: &ConfigCommandArgs) -> Result<()> {
    let settings = args.config.settings()?;
    let origin = match &args.config.config {
        Some(path) => format!("config '{}'", path.display()),
        None => "the embedded config/bank.toml".to_string(),
    };
    let file = settings.file();
    note!(
        "{origin} is valid: {} classic tiers, {} quotas",
        file.tiers.len(),
        settings.quotas().len()
    );
    if args.print {
        print!(
            "{}",
            toml::to_string(file).context("writing the settings as TOML")?
        );
    }
    Ok(())
}
