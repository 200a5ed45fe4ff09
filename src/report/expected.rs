//! `run --write-expected-failures FILE`'s text: the cases that fail a run, as an
//! expected-failures file (`schemas/expected-failures.schema.json`) whose reasons are left to fill
//! in. A case already listed in the `--expected-failures` file given keeps its reason; an entry
//! that no longer fails is left out.

use crate::case::Level;
use crate::judge::outcome::StatusKind;
use crate::report::Report;

/// The reason written for a case no earlier file explains.
pub const TO_FILL_IN: &str = "TO FILL IN: why this case fails";

/// The file's text: one entry per required case that failed, errored or was skipped, in corpus
/// order (a skip with `status: skip`).
pub fn render(report: &Report) -> String {
    let mut out = String::from(
        "# Expected failures (schemas/expected-failures.schema.json), written by\n\
         # `tool-conformance run --write-expected-failures`: replace each reason to fill in\n\
         # with a sentence saying why the case fails.\n",
    );
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

/// A YAML double-quoted scalar (JSON string syntax is valid YAML).
fn yaml_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("{text:?}"))
}
