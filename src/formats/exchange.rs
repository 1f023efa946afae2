//! The row format of `export --format jsonl|csv`, which `import` reads back: one list of
//! fields, written here and read here, so a bank round-trips through a file with its
//! metadata (seed, strategy, target, base grid, served state).

use crate::bank::StoredPuzzle;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::str::FromStr;

/// The field names, in CSV column order. The first twenty are the columns of earlier
/// exports, in their old order, so scripts that cut columns by position keep working.
const FIELD_NAMES: [&str; 37] = [
    "id",
    "size",
    "box_rows",
    "box_cols",
    "puzzle",
    "solution",
    "tier",
    "score",
    "hardest_technique",
    "clues",
    "guesses",
    "backtracks",
    "source",
    "run_id",
    "seed",
    "dig_strategy",
    "target_clues",
    "generator_version",
    "fingerprint",
    "created_at",
    "rater_completed",
    "base_grid_id",
    "route",
    "grid_seed",
    "base_grid",
    "generation_us",
    "served_at",
    "served_to",
    "origin",
    "techniques",
    "mother_seed",
    "solution_class",
    "full_fingerprint",
    "variant",
    "cages",
    "cage_sizes",
    "regions",
];

/// A stored puzzle's values, in [`FIELD_NAMES`] order. Seeds are text (JSON readers lose
/// digits above 2^53).
fn values(p: &StoredPuzzle) -> [Value; 37] {
    let rating = p.rating.as_ref();
    let base = p.base.as_ref();
    [
        json!(p.id),
        json!(p.geometry.n()),
        json!(p.geometry.box_rows()),
        json!(p.geometry.box_cols()),
        json!(p.puzzle),
        json!(p.solution),
        json!(p.tier),
        json!(rating.map(|r| r.score)),
        json!(rating.map(|r| &r.hardest_technique)),
        json!(p.clues),
        json!(p.guesses),
        json!(p.backtracks),
        json!(p.source.name()),
        json!(p.run_id),
        json!(p.seed.map(|s| s.to_string())),
        json!(p.dig_strategy.map(|s| s.name())),
        json!(p.target_clues),
        json!(p.generator_version),
        json!(p.fingerprint),
        json!(p.created_at),
        json!(rating.map(|r| r.completed)),
        json!(base.map(|b| &b.id)),
        json!(base.map(|b| b.route.name())),
        json!(base.map(|b| b.seed.to_string())),
        json!(base.map(|b| &b.grid)),
        json!(p.generation_us),
        json!(p.served_at),
        json!(p.served_to),
        json!(p.origin),
        rating.map_or(Value::Null, |r| r.techniques_json()),
        json!(base.and_then(|b| b.mother_seed).map(|s| s.to_string())),
        json!(p.solution_class),
        json!(p.full_fingerprint),
        json!(p.geometry.variant().name()),
        p.cages.as_ref().map_or(Value::Null, |c| c.cages.to_json()),
        json!(p
            .cages
            .as_ref()
            .and_then(|c| c.grown)
            .map(|s| s.to_string())),
        json!(p.regions.as_ref().map(|r| r.to_text())),
    ]
}

/// One JSON object for a jsonl line.
pub fn json_object(p: &StoredPuzzle) -> Value {
    Value::Object(
        FIELD_NAMES
            .iter()
            .zip(values(p))
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// The CSV header line.
pub fn csv_header() -> String {
    FIELD_NAMES.join(",")
}

/// A CSV line of a puzzle's fields: text as it is, numbers and booleans as JSON writes
/// them, null empty, objects as JSON text; quoted when a value needs it (RFC 4180).
pub fn csv_line(p: &StoredPuzzle) -> String {
    let cells: Vec<String> = values(p)
        .into_iter()
        .map(|v| {
            let text = match v {
                Value::Null => String::new(),
                Value::String(s) => s,
                other => other.to_string(),
            };
            if text.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", text.replace('"', "\"\""))
            } else {
                text
            }
        })
        .collect();
    cells.join(",")
}

/// Splits one CSV line into its cells (RFC 4180 quoting; no line breaks inside cells).
pub fn csv_split(line: &str) -> Result<Vec<String>, String> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') if cell.is_empty() => quoted = true,
            (false, ',') => cells.push(std::mem::take(&mut cell)),
            (false, c) => cell.push(c),
        }
    }
    if quoted {
        return Err("a quoted CSV cell is not closed".into());
    }
    cells.push(cell);
    Ok(cells)
}

/// A row read back: a jsonl object or a CSV row under its header.
pub enum Row {
    /// From a jsonl line.
    Json(Map<String, Value>),
    /// From a CSV line, by column name.
    Csv(HashMap<String, String>),
}

impl Row {
    /// A field as text: JSON strings as they are, numbers and booleans as written, null
    /// and empty cells as absent.
    pub fn text(&self, name: &str) -> Option<String> {
        match self {
            Row::Json(m) => match m.get(name)? {
                Value::Null => None,
                Value::String(s) => Some(s.clone()),
                other => Some(other.to_string()),
            },
            Row::Csv(m) => m.get(name).filter(|s| !s.is_empty()).cloned(),
        }
    }

    /// A JSON field (a CSV cell holding JSON text), `None` when absent or null.
    pub fn json(&self, name: &str) -> Result<Option<Value>, String> {
        match self {
            Row::Json(m) => Ok(m.get(name).filter(|v| !v.is_null()).cloned()),
            Row::Csv(_) => self
                .text(name)
                .map(|t| {
                    serde_json::from_str(&t).map_err(|e| format!("field '{name}' is not JSON: {e}"))
                })
                .transpose(),
        }
    }

    /// A field parsed into its type; a field that is there but does not parse is an error
    /// naming it.
    pub fn parsed<T: FromStr>(&self, name: &str) -> Result<Option<T>, String>
    where
        T::Err: std::fmt::Display,
    {
        self.text(name)
            .map(|t| {
                t.parse()
                    .map_err(|e: T::Err| format!("field '{name}' = '{t}': {e}"))
            })
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_round_trip() {
        let cells = csv_split(r#"1,"a,b","say ""hi""",,x"#).unwrap();
        assert_eq!(cells, ["1", "a,b", "say \"hi\"", "", "x"]);
        assert!(csv_split(r#"1,"open"#).is_err());
    }
}
