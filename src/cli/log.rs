//! What goes to stderr: `tracing` logs and the command's own notes (summaries, skipped
//! lines, errors), as text for a person or, under `--log-format json`, one JSON object a
//! line in tracing's JSON shape (`timestamp`, `level`, `fields.message`, `target`) so a
//! log collector reads every line.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Log output format.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line (for the nightly job's log collector).
    Json,
}

static JSON: AtomicBool = AtomicBool::new(false);

/// Whether stderr carries JSON lines.
pub fn json() -> bool {
    JSON.load(Ordering::Relaxed)
}

/// Sets the format and starts `tracing` (level from `RUST_LOG`, default `warn`; colour
/// only for a person at a terminal).
pub fn init(format: LogFormat) {
    JSON.store(format == LogFormat::Json, Ordering::Relaxed);
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().init(),
    }
}

/// A note for the person running the command (level INFO in JSON).
pub fn note(message: &str) {
    emit("INFO", message, None);
}

/// An error line (level ERROR in JSON).
pub fn error(message: &str) {
    emit("ERROR", message, None);
}

/// A note with structured fields beside the message (JSON only; text shows the message).
pub fn note_with(message: &str, fields: serde_json::Value) {
    emit("INFO", message, Some(fields));
}

fn emit(level: &str, message: &str, fields: Option<serde_json::Value>) {
    let mut err = std::io::stderr().lock();
    if !json() {
        let _ = writeln!(err, "{message}");
        return;
    }
    let mut all = match fields {
        Some(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    all.insert("message".into(), message.into());
    let line = serde_json::json!({
        "timestamp": crate::date::now_rfc3339(),
        "level": level,
        "fields": all,
        "target": "bank",
    });
    let _ = writeln!(err, "{line}");
}

/// A command line clap refused: its message (as JSON when `--log-format json` was
/// asked for), exit 2; help and version print as usual.
pub fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) || !json_requested() {
        e.exit();
    }
    JSON.store(true, Ordering::Relaxed);
    error(e.render().to_string().trim_end());
    ExitCode::from(super::EXIT_ERROR)
}

/// Whether the raw arguments ask for JSON logs (read before clap has parsed them).
fn json_requested() -> bool {
    let args: Vec<String> = std::env::args().collect();
    args.iter().any(|a| a == "--log-format=json")
        || args
            .windows(2)
            .any(|w| w[0] == "--log-format" && w[1] == "json")
}
