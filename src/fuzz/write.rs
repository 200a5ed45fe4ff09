//! A finding written as a case file, laid out as the corpus is (`<RULE>/<topic>.yaml`), so that
//! `check --add-cases DIR` accepts it and `run --add-cases DIR` reproduces the failure: the
//! findings of one seed go to `<RULE>/fuzz-seed-<seed>.yaml`, each a case named `case-<index>`
//! (id `<RULE>/fuzz-seed-<seed>/case-<index>`). A finding of a check beyond the text is not
//! written: a case holds what its level checks, and such a check is made beside a case, never
//! deciding it, so its case would pass when run.
//!
//! Every value is written as JSON text under the `!json` tag, ASCII only (other characters as
//! `\u` escapes), so its exact numbers, its odd Unicode and its character references survive
//! YAML unchanged.

use super::{Finding, TOOL};
use crate::case::{Check, Expect};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// JSON text with every character outside printable ASCII escaped (`\uXXXX`, surrogate pairs
/// beyond the BMP). Such characters only occur inside strings, so the text stays the same JSON.
pub fn ascii_json(value: &Value) -> String {
    let text = serde_json::to_string(value).unwrap_or_default();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() && !c.is_ascii_control() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        }
    }
    out
}

/// A YAML single-quoted scalar holding `text` (which is ASCII).
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// A YAML double-quoted scalar: a JSON string literal, ASCII only, is one.
fn text(text: &str) -> String {
    ascii_json(&Value::String(text.to_string()))
}

/// `!json '<text>'` for a value.
fn json(value: &Value) -> String {
    format!("!json {}", quoted(&ascii_json(value)))
}

/// The name of a finding's case in its file.
fn case_name(finding: &Finding) -> String {
    format!("case-{}", finding.index)
}

/// The id of a finding's written case: `<RULE>/fuzz-seed-<seed>/case-<index>`.
pub fn case_id(finding: &Finding) -> String {
    format!("{}/fuzz-seed-{}/{}", finding.case.rule, finding.seed, case_name(finding))
}

/// Whether a finding is written as a case: not when a check beyond the text failed (see the
/// module's doc).
pub fn is_written(finding: &Finding) -> bool {
    !finding.readings.iter().any(|r| r.starts_with(super::BEYOND_THE_TEXT))
}

/// The case file's text with this finding alone.
pub fn case_text(finding: &Finding) -> String {
    let mut out = file_header(finding.seed);
    out.push_str(&group_text(finding));
    out
}

/// The head of a seed's case file, up to its list of groups.
fn file_header(seed: u64) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# yaml-language-server: $schema=../../schemas/case.schema.json");
    let _ = writeln!(out, "# Written by `tool-conformance fuzz --seed {seed}`: each case a generated case, shrunk.");
    let _ = writeln!(
        out,
        "description: {}",
        quoted(&format!("Differences from the reference found by fuzzing with seed {seed}."))
    );
    let _ = writeln!(out, "groups:");
    out
}

/// One finding as a group of the file.
fn group_text(finding: &Finding) -> String {
    let case = &finding.case;
    let name = case_name(finding);
    let mut out = String::new();
    let _ = writeln!(out, "  # Generated case {}, shrunk in {} steps.", finding.index, finding.shrink_steps);
    let _ = writeln!(out, "  - cases:");
    let _ = writeln!(out, "      - name: {name}");
    let _ = writeln!(out, "        clauses: [{}]", finding.clauses.join(", "));
    let _ = writeln!(out, "        level: {}", finding.level);
    let _ = writeln!(out, "        summary: {}", text(&summary(finding)));
    let _ = writeln!(out, "        note: {}", text(&note(finding)));
    if !case.needs.is_empty() {
        let _ = writeln!(out, "        needs: [{}]", case.needs.join(", "));
    }
    match &case.check {
        Check::Normalize { input_schema, arguments, expect: Expect::One(expected) } => {
            let _ = writeln!(out, "        normalize:");
            let _ = writeln!(out, "          input_schema: {}", json(input_schema));
            let _ = writeln!(out, "          arguments: {}", json(arguments));
            let _ = writeln!(out, "          expected: {}", json(expected));
        }
        Check::Invoke { tools, arguments, transports, expect: Expect::One(expected), .. } => {
            let _ = writeln!(out, "        invoke:");
            let _ = writeln!(out, "          tools: {}", json(&serde_json::to_value(tools).unwrap_or(Value::Null)));
            let _ = writeln!(out, "          tool: {TOOL}");
            let _ = writeln!(out, "          arguments: {}", json(arguments));
            let names: Vec<&str> = transports.iter().map(|t| t.as_str()).collect();
            let _ = writeln!(out, "          transports: [{}]", names.join(", "));
            let _ =
                writeln!(out, "          expected: {}", json(&serde_json::to_value(expected).unwrap_or(Value::Null)));
        }
        Check::Describe { tools, views, .. } => {
            let _ = writeln!(out, "        describe:");
            let _ = writeln!(out, "          tools: {}", json(&serde_json::to_value(tools).unwrap_or(Value::Null)));
            let _ = writeln!(out, "          tool: {TOOL}");
            let names: Vec<&str> = views.iter().map(|v| v.as_str()).collect();
            let _ = writeln!(out, "          views: [{}]", names.join(", "));
        }
        _ => {}
    }
    out
}

fn summary(finding: &Finding) -> String {
    let what = match &finding.case.check {
        Check::Normalize { .. } => "normalizing these arguments",
        Check::Invoke { .. } => "calling the tool with these arguments",
        Check::Describe { .. } => "reading the schema every view publishes",
    };
    format!("The reference's answer to {what} (a fuzzing finding in {}).", finding.clauses[0])
}

fn note(finding: &Finding) -> String {
    let mut note = format!(
        "Found by tool-conformance fuzz --seed {} (generated case {}), shrunk. The expectation is the reference's answer. The target failed: {}.",
        finding.seed, finding.index, finding.failure.check
    );
    if finding.readings.is_empty() {
        note.push_str(" The reference took no reading of docs/interpretations.md to answer.");
    } else {
        let _ = write!(note, " Readings taken (docs/interpretations.md): {}.", finding.readings.join("; "));
    }
    note
}

/// Writes the finding's case into its seed's file under `dir` (`<RULE>/fuzz-seed-<seed>.yaml`,
/// made or added to), returning the file's path; `None` for a finding that is not written
/// ([`is_written`]). A case of the same name already there is kept (the same seed and index
/// generate the same case).
pub fn case_file(dir: &Path, finding: &Finding) -> std::io::Result<Option<PathBuf>> {
    if !is_written(finding) {
        return Ok(None);
    }
    let folder = dir.join(&finding.case.rule);
    std::fs::create_dir_all(&folder)?;
    let path = folder.join(format!("fuzz-seed-{}.yaml", finding.seed));
    let mut text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => file_header(finding.seed),
        Err(e) => return Err(e),
    };
    if !text.contains(&format!("\n      - name: {}\n", case_name(finding))) {
        text.push_str(&group_text(finding));
        std::fs::write(&path, text)?;
    }
    Ok(Some(path))
}
