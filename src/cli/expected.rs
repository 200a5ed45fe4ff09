//! `run --write-expected-failures FILE`: the cases that fail a run, written as an
//! expected-failures file (`schemas/expected-failures.schema.json`) whose reasons are left to
//! fill in. A case already listed in the `--expected-failures` file given keeps its reason; an
//! entry that no longer fails is left out. Given back with `--expected-failures`, the file lets
//! the run pass, and any of its cases that passes later is a stale entry that fails the run.

use anyhow::{Context, Result};
use std::path::Path;
use tool_conformance::Level;
use tool_conformance::report::Report;
use tool_conformance::run::outcome::StatusKind;

/// The reason written for a case no earlier file explains.
pub(super) const TO_FILL_IN: &str = "TO FILL IN: why this case fails";

/// Warns, on stderr, of each entry of `file` whose reason is still the one written to fill in.
pub(super) fn warn_unfilled(file: &tool_conformance::standing::expectations::ExpectedFailures) {
    let unfilled: Vec<String> =
        file.entries.iter().filter(|e| e.reason.starts_with("TO FILL IN")).map(|e| e.subject.to_string()).collect();
    if let Some(first) = unfilled.first() {
        let more = if unfilled.len() > 1 { format!(" and {} more", unfilled.len() - 1) } else { String::new() };
        eprintln!(
            "warning: {}: {} entr{} still say{} \"{TO_FILL_IN}\" ({first}{more}): write why each case fails",
            file.path.display(),
            unfilled.len(),
            if unfilled.len() == 1 { "y" } else { "ies" },
            if unfilled.len() == 1 { "s" } else { "" },
        );
    }
}

/// The file's text: one entry per required case that failed, errored or was skipped, in corpus
/// order (a skip with `status: skip`).
pub(super) fn render(report: &Report) -> String {
    let mut out = String::from(
        "# Expected failures (schemas/expected-failures.schema.json), written by\n\
         # `tool-conformance run --write-expected-failures`: replace each reason to fill in\n\
         # with a sentence saying why the case fails.\n",
    );
    let _ = ("# Written by `tool-conformance run --write-expected-failures`: replace each reason to fill in\n\
         # with a sentence saying why the case fails.\n",);
    let mut listed = 0;
    for outcome in report.cases.iter().filter(|o| o.level == Level::Required) {
        let kind = outcome.status.kind();
        if !matches!(kind, StatusKind::Fail | StatusKind::Error | StatusKind::Skip) {
            continue;
        }
        listed += 1;
        let reason =
            report.expected_failures.as_ref().and_then(|t| t.expected_reason(&outcome.id)).unwrap_or(TO_FILL_IN);
        out.push_str(&format!("- case: {}\n", yaml_string(&outcome.id)));
        if kind == StatusKind::Skip {
            out.push_str("  status: skip\n");
        }
        out.push_str(&format!("  reason: {}\n", yaml_string(reason)));
    }
    if listed == 0 {
        out.push_str("[]\n");
    }
    out
}

/// Writes [`render`] to `path`, and says how many entries it holds.
pub(super) fn write(report: &Report, path: &Path) -> Result<usize> {
    let text = render(report);
    std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?;
    Ok(text.lines().filter(|l| l.starts_with("- case: ")).count())
}

/// A YAML double-quoted scalar (JSON string syntax is valid YAML).
fn yaml_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("{text:?}"))
}
