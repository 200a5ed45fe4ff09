//! The standing as the terminal shows it: who was tested, a table per rule with a row per
//! clause, the behaviours informational cases saw, then each failing or erroring case with its
//! id, clauses, summary, the JSON pointer of the first difference and the diff. Plain text only.

use super::{Report, cell};
use crate::case::Level;
use crate::outcome::{Outcome, Status};
use std::fmt::Write as _;

/// The report as terminal text.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let i = &report.implementation;
    let _ = writeln!(out, "{} {} against {} {}", report.suite.name, report.suite.version, i.name, i.version);
    let transports: Vec<&str> = i.transports.iter().map(|t| t.as_str()).collect();
    let _ = writeln!(out, "claims {} on {}", list(&i.rules), list(&transports));
    for rule in &report.standing.rules {
        let _ = writeln!(out, "\n{}: {}", rule.rule, rule.verdict.as_str());
        let _ = writeln!(out, "  {}", rule.title);
        let mut rows = vec![["clause".to_string(), "required".into(), "interpretation".into(), "informational".into()]];
        for clause in &rule.clauses {
            rows.push([
                clause.clause.clone(),
                cell(&clause.counts, Level::Required),
                cell(&clause.counts, Level::Interpretation),
                cell(&clause.counts, Level::Informational),
            ]);
        }
        rows.push([
            "all cases".into(),
            cell(&rule.totals, Level::Required),
            cell(&rule.totals, Level::Interpretation),
            cell(&rule.totals, Level::Informational),
        ]);
        let widths: Vec<usize> = (0..4).map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
        for row in &rows {
            let mut line = String::new();
            for (c, text) in row.iter().enumerate() {
                let _ = write!(line, "  {text:<width$}", width = widths[c]);
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    let observed: Vec<&Outcome> = report.cases.iter().filter(|o| matches!(o.status, Status::Observed(_))).collect();
    if !observed.is_empty() {
        let _ = writeln!(out, "\nInformational cases, and the behaviour seen:");
        for outcome in observed {
            if let Status::Observed(o) = &outcome.status {
                let _ = writeln!(out, "  {}: {}", outcome.id, o.behaviour.as_deref().unwrap_or("other"));
            }
        }
    }
    let problems: Vec<&Outcome> = report.problems().collect();
    if !problems.is_empty() {
        let n = problems.len();
        let _ = writeln!(out, "\n{n} case{} failed or errored:", if n == 1 { "" } else { "s" });
        for outcome in problems {
            out.push('\n');
            out.push_str(&failure(outcome));
        }
    }
    out
}

/// One failing or erroring case, as the terminal and `cargo test` show it.
pub fn failure(outcome: &Outcome) -> String {
    let mut out = String::new();
    let label = match &outcome.status {
        Status::Fail(_) => "FAIL",
        Status::Error { .. } => "ERROR",
        _ => "NOTE",
    };
    let _ = writeln!(out, "{label} {} ({}; {})", outcome.id, outcome.level, outcome.clauses.join(", "));
    let _ = writeln!(out, "  {}", outcome.summary);
    if let Some(note) = &outcome.note {
        let _ = writeln!(out, "  reading: {note}");
    }
    let _ = writeln!(out, "  defined at {}", outcome.location);
    match &outcome.status {
        Status::Fail(f) => {
            let _ = writeln!(out, "  check: {}", f.check);
            let pointer = if f.pointer.is_empty() { "the whole value" } else { &f.pointer };
            let _ = writeln!(out, "  first difference at {pointer}");
            for line in f.diff.lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
        Status::Error { reason } => {
            let mut lines = reason.lines();
            let _ = writeln!(out, "  reason: {}", lines.next().unwrap_or_default());
            for line in lines {
                let _ = writeln!(out, "    {line}");
            }
        }
        _ => {}
    }
    out
}

fn list<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() { "nothing".into() } else { items.iter().map(|s| s.as_ref()).collect::<Vec<_>>().join(", ") }
}
