//! `standing.md`: the standing as Markdown that renders on GitHub: a table per rule with a row
//! per clause, then each failing or erroring case with its diff in a ```diff block.

use super::{Report, cell};
use crate::case::Level;
use crate::outcome::Status;
use std::fmt::Write as _;

/// The report as Markdown.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let i = &report.implementation;
    let _ = writeln!(out, "# Standing of {} {}\n", escape(&i.name), escape(&i.version));
    let _ = writeln!(out, "Suite: {} {}.", report.suite.name, report.suite.version);
    if let Some(corpus) = &report.suite.corpus {
        let _ = writeln!(out, "Corpus: `{}` ({} files).", corpus.digest, corpus.files.len());
    }
    let transports: Vec<&str> = i.transports.iter().map(|t| t.as_str()).collect();
    let _ = writeln!(out, "Claims: {} on {}.", escape(&i.rules.join(", ")), transports.join(", "));
    for rule in &report.standing.rules {
        let _ = writeln!(out, "\n## {}: {}\n", rule.rule, rule.verdict.as_str());
        let _ = writeln!(out, "{}\n", escape(&rule.title));
        let _ = writeln!(out, "| clause | required | interpretation | informational |");
        let _ = writeln!(out, "|---|---|---|---|");
        for clause in &rule.clauses {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                clause.clause,
                cell(&clause.counts, Level::Required),
                cell(&clause.counts, Level::Interpretation),
                cell(&clause.counts, Level::Informational)
            );
        }
        let _ = writeln!(
            out,
            "| **all cases** | {} | {} | {} |",
            cell(&rule.totals, Level::Required),
            cell(&rule.totals, Level::Interpretation),
            cell(&rule.totals, Level::Informational)
        );
    }
    let problems: Vec<_> = report.problems().collect();
    if !problems.is_empty() {
        let _ = writeln!(out, "\n## Failing cases\n");
        for outcome in problems {
            let _ = writeln!(out, "### `{}`\n", outcome.id);
            let _ = writeln!(
                out,
                "{} ({}; {}). Defined at `{}`.\n",
                escape(&outcome.summary),
                outcome.level,
                outcome.clauses.join(", "),
                outcome.location
            );
            if let Some(reason) = report.expected_failures.as_ref().and_then(|t| t.expected_reason(&outcome.id)) {
                let _ = writeln!(out, "Expected failure: {}\n", escape(reason));
            }
            match &outcome.status {
                Status::Fail(f) => {
                    let pointer =
                        if f.pointer.is_empty() { "the whole value".to_string() } else { format!("`{}`", f.pointer) };
                    let _ = writeln!(out, "Check: {}. First difference at {pointer}.\n", escape(&f.check));
                    let fence = fence(&f.diff);
                    let _ = writeln!(out, "{fence}diff\n{}{fence}\n", f.diff);
                    if !f.exchange.is_empty() {
                        let exchange = f.exchange.join("\n");
                        let wire_fence = self::fence(&exchange);
                        let _ = writeln!(
                            out,
                            "The exchange that led to it:\n\n{wire_fence}text\n{exchange}\n{wire_fence}\n"
                        );
                    }
                }
                Status::Error { reason } => {
                    let fence = fence(reason);
                    let _ = writeln!(out, "Error:\n\n{fence}text\n{reason}\n{fence}\n");
                }
                _ => {}
            }
        }
    }
    if let Some(triage) = &report.expected_failures {
        if !out.ends_with("\n\n") {
            out.push('\n');
        }
        let _ = writeln!(out, "## Expected failures\n");
        let _ = writeln!(
            out,
            "{} listed, {} stale, {} new.\n",
            triage.expected.len(),
            triage.stale.len(),
            triage.unexpected.len()
        );
        for stale in &triage.stale {
            let _ = writeln!(
                out,
                "- stale: {} ({})",
                escape(&stale.entry.subject.to_string()),
                escape(&stale.entry.reason)
            );
        }
        for id in &triage.unexpected {
            let _ = writeln!(out, "- new failure: `{id}`");
        }
    }
    out
}

/// Text from an implementation or a case, made inert for Markdown.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// A code fence longer than any run of backticks in `text`.
fn fence(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}
