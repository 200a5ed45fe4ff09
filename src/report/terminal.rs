//! The standing as the terminal shows it: who was tested, a table per rule with a row per
//! clause, the behaviours informational cases saw, then each failing or erroring case with its
//! id, clauses, summary, the JSON pointer of the first difference and the diff, and, with an
//! expected-failures file, which failures were listed, which entries are stale and which failures
//! are new.
//!
//! [`render`] gives plain text; [`render_colored`] the same text with ANSI colors (verdicts,
//! failure labels, diff lines), for a terminal that shows them. Which one to print is the
//! binary's choice (`--color`, `NO_COLOR`, whether stdout is a terminal).

use super::{Report, cell};
use crate::case::Level;
use crate::outcome::{Outcome, Status};
use crate::standing::Verdict;
use anstyle::{AnsiColor, Style};
use std::fmt::Write as _;

/// The report as plain terminal text.
pub fn render(report: &Report) -> String {
    write_report(report, Paint(false))
}

/// The report as terminal text with ANSI colors.
pub fn render_colored(report: &Report) -> String {
    write_report(report, Paint(true))
}

/// Whether to color, and the colors.
#[derive(Clone, Copy)]
struct Paint(bool);

impl Paint {
    fn with(self, style: Style, text: &str) -> String {
        if self.0 && !text.is_empty() { format!("{style}{text}{style:#}") } else { text.to_string() }
    }

    fn verdict(self, verdict: Verdict) -> String {
        let style = match verdict {
            Verdict::Conforms => AnsiColor::Green.on_default().bold(),
            Verdict::DoesNotConform => AnsiColor::Red.on_default().bold(),
            Verdict::Incomplete => AnsiColor::Yellow.on_default().bold(),
            Verdict::NotClaimed | Verdict::NotRun => Style::new().dimmed(),
        };
        self.with(style, verdict.as_str())
    }

    fn bad(self, text: &str) -> String {
        self.with(AnsiColor::Red.on_default().bold(), text)
    }

    fn warn(self, text: &str) -> String {
        self.with(AnsiColor::Yellow.on_default().bold(), text)
    }

    fn diff_line(self, line: &str) -> String {
        let style = if line.starts_with("+++") || line.starts_with("---") {
            Style::new().bold()
        } else if line.starts_with('+') {
            AnsiColor::Green.on_default()
        } else if line.starts_with('-') {
            AnsiColor::Red.on_default()
        } else if line.starts_with("@@") {
            AnsiColor::Cyan.on_default()
        } else {
            Style::new()
        };
        self.with(style, line)
    }
}

fn write_report(report: &Report, paint: Paint) -> String {
    let mut out = String::new();
    let i = &report.implementation;
    let _ = writeln!(out, "{} {} against {} {}", report.suite.name, report.suite.version, i.name, i.version);
    let transports: Vec<&str> = i.transports.iter().map(|t| t.as_str()).collect();
    let _ = writeln!(out, "claims {} on {}", list(&i.rules), list(&transports));
    for rule in &report.standing.rules {
        let _ = writeln!(out, "\n{}: {}", rule.rule, paint.verdict(rule.verdict));
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
            let expected = report.expected_failures.as_ref().and_then(|t| t.expected_reason(&outcome.id));
            out.push('\n');
            out.push_str(&write_failure(outcome, paint, expected));
        }
    }
    if let Some(triage) = &report.expected_failures {
        let _ = writeln!(
            out,
            "\nExpected failures: {} listed (not failing the run), {} stale, {} new.",
            triage.expected.len(),
            triage.stale.len(),
            triage.unexpected.len()
        );
        for stale in &triage.stale {
            let _ = writeln!(
                out,
                "  {} {}: listed as expected to fail ({}), but these passed: {}",
                paint.bad("STALE"),
                stale.entry.subject,
                stale.entry.reason,
                stale.passing.join(", ")
            );
        }
        for id in &triage.unexpected {
            let _ = writeln!(out, "  {} {id}: fails and is not listed", paint.bad("NEW"));
        }
    }
    out
}

/// One failing or erroring case, as the terminal and `cargo test` show it.
pub fn failure(outcome: &Outcome) -> String {
    write_failure(outcome, Paint(false), None)
}

fn write_failure(outcome: &Outcome, paint: Paint, expected: Option<&str>) -> String {
    let mut out = String::new();
    let label = match &outcome.status {
        Status::Fail(_) => paint.bad("FAIL"),
        Status::Error { .. } => paint.warn("ERROR"),
        _ => "NOTE".into(),
    };
    let _ = writeln!(out, "{label} {} ({}; {})", outcome.id, outcome.level, outcome.clauses.join(", "));
    if let Some(reason) = expected {
        let _ = writeln!(out, "  {}: {reason}", paint.warn("expected failure"));
    }
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
                let _ = writeln!(out, "  {}", paint.diff_line(line));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colors_wrap_text_and_plain_text_has_none() {
        assert_eq!(Paint(false).diff_line("-  \"a\": 1"), "-  \"a\": 1");
        let colored = Paint(true).diff_line("+  \"a\": 1");
        assert!(colored.starts_with('\u{1b}') && colored.ends_with("\u{1b}[0m"), "{colored:?}");
        assert!(colored.contains("+  \"a\": 1"));
        assert_eq!(Paint(true).diff_line(" context"), " context");
    }
}
