//! `tool-conformance fuzz`'s text: a [`FuzzReport`] as counts, then each finding (required first)
//! with its clause, the check that failed and the file written, then the target errors with their
//! requests. Every string from the target is made inert for a terminal.

use crate::fuzz::FuzzReport;
use crate::fuzz::write::ascii_json;
use serde_json::Value;
use std::fmt::Write as _;

/// The report as text: counts, then each finding (required first) with its clause, the check
/// that failed and the file written, then the target errors with their requests.
pub fn render(report: &FuzzReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "fuzz: seed {}, {} generated cases in {:.1}s: {} judged required, {} judged interpretation, {} open or unusable, {} skipped",
        report.seed,
        report.cases,
        report.elapsed.as_secs_f64(),
        report.judged.0,
        report.judged.1,
        report.open,
        report.skipped
    );
    for (title, findings) in [
        ("required findings", &report.required),
        ("interpretation findings (not counted against the target)", &report.interpretation),
    ] {
        let _ = writeln!(out, "\n{} {title}", findings.len());
        for f in findings {
            let _ = writeln!(out, "  [{}] case {} ({}): {}", f.clauses.join(", "), f.index, f.level, f.failure.check);
            for reading in &f.readings {
                let _ = writeln!(out, "      reading: {reading}");
            }
            let line = |v: &Value| crate::json::inert::one_line(&ascii_json(v));
            let _ = writeln!(out, "      shrunk in {} steps", f.shrink_steps);
            let _ = writeln!(out, "      expected: {}", line(&f.failure.expected));
            let _ = writeln!(out, "      got:      {}", line(&f.failure.actual));
            if let Some(file) = &f.file {
                let _ = writeln!(out, "      written to {}", file.display());
            }
        }
    }
    if report.repeats > 0 {
        let _ =
            writeln!(out, "\n{} more failures of a kind already listed (same level, clause and check)", report.repeats);
    }
    if !report.faults.is_empty() {
        let _ = writeln!(out, "\n{} target errors (reported apart):", report.faults.len());
        for fault in report.faults.iter().take(10) {
            let _ = writeln!(out, "  case {}: {}", fault.index, crate::json::inert::one_line(&fault.reason));
            let _ = writeln!(out, "      request: {}", crate::json::inert::one_line(&ascii_json(&fault.request)));
        }
    }
    if report.gave_up {
        let _ = writeln!(out, "\nthe run stopped early: the target stopped answering");
    }
    out
}
