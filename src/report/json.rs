//! `standing.json`: the whole [`Report`] as pretty-printed JSON, for machines and for comparing
//! runs. Its contract is `schemas/report.schema.json` ([`REPORT_SCHEMA`]).

use super::Report;

/// The schema of standing.json, `schemas/report.schema.json`.
pub const REPORT_SCHEMA: &str = include_str!("../../schemas/report.schema.json");

/// The report as JSON text (ends with a newline).
pub fn render(report: &Report) -> String {
    let mut text =
        serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\": {:?}}}", e.to_string()));
    text.push('\n');
    text
}
