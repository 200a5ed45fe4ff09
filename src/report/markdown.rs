//! `standing.md`: the standing as Markdown that renders on GitHub: a table per rule with a row
//! per clause, then each failing or erroring case with its diff in a ```diff block.
//!
//! No string from an implementation or a case can add an element the report did not write: in
//! prose and table cells it is [escaped](escape) (Markdown punctuation, `<`, `&`, `|`, newlines);
//! in a code span or a fenced block the delimiters are longer than any run of backticks in it
//! ([`code`], [`fence`]). Controls, bidi controls, zero-width characters and lone-surrogate
//! stand-ins show escaped everywhere ([`crate::json::inert`]).

use super::{Report, cell};
use crate::case::Level;
use crate::json::inert::{multi_line, one_line};
use crate::judge::outcome::Status;
use std::fmt::Write as _;

/// The table every Markdown standing opens with: a row per behaviour, grouped by rule, with the
/// share of its required checks that passed in a word and a percentage, and what it was measured
/// over. `link` gives where a behaviour's word links to (its cases), if anywhere.
pub(crate) fn behaviour_table(
    behaviours: &[crate::standing::behaviours::BehaviourStanding],
    link: impl Fn(&crate::standing::behaviours::BehaviourStanding) -> Option<String>,
) -> String {
    let mut out = String::new();
    if behaviours.is_empty() {
        return out;
    }
    let _ = writeln!(out, "\n## What it does\n");
    let _ = writeln!(
        out,
        "Each row is one behaviour a rule asks for, and the share of its required checks that passed. A check \
         the answer cannot show (a refusal by a runtime that validates, an error with no structured problems) \
         is not measured; a declined or errored case is.\n"
    );
    let _ = writeln!(out, "| rule | behaviour | | share | measured over |\n|---|---|---|---|---|");
    for behaviour in behaviours {
        let c = &behaviour.required;
        let word = format!("**{}**", c.frequency().as_str());
        let word = match link(behaviour) {
            Some(target) => format!("[{word}]({target})"),
            None => word,
        };
        let _ = writeln!(
            out,
            "| {} | {} | {word} | {} | {} |",
            escape(&behaviour.rule),
            escape(&behaviour.sentence),
            c.percent().map(|p| format!("{p}%")).unwrap_or_else(|| "-".into()),
            escape(&c.over())
        );
    }
    out
}

/// The report as Markdown.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let i = &report.implementation;
    let _ = writeln!(out, "# Standing of {}\n", escape(&i.label()));
    let _ = writeln!(out, "Suite: {} {}.", escape(&report.suite.name), escape(&report.suite.version));
    if let Some(corpus) = &report.suite.corpus {
        let _ = writeln!(out, "Corpus: {} ({} files).", code(&corpus.digest), corpus.files.len());
    }
    let transports: Vec<&str> = i.transports.iter().map(|t| t.as_str()).collect();
    let _ = writeln!(out, "Claims: {} on {}.", escape(&i.rules.join(", ")), transports.join(", "));
    out.push_str(&behaviour_table(&report.behaviours, |b| {
        report.behaviour_misses(&b.id).next().is_some().then(|| format!("#{}", encoded(&b.id)))
    }));
    for rule in &report.standing.rules {
        let _ = writeln!(out, "\n## {}: {}\n", escape(&rule.rule), escape(&rule.headline()));
        let _ = writeln!(out, "{}\n", escape(&rule.title));
        let _ = writeln!(out, "| clause | required | interpretation | informational |");
        let _ = writeln!(out, "|---|---|---|---|");
        for clause in &rule.clauses {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                escape(&clause.clause),
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
        if !rule.unjudged_clauses.is_empty() {
            let _ = writeln!(out, "\nNo required case applied in {}.", escape(&rule.unjudged_clauses.join(", ")));
        }
        if !rule.readings.is_empty() {
            let _ = writeln!(out, "\n| check beyond the text (never deciding the verdict) | held |\n|---|---|");
            for r in &rule.readings {
                let _ = writeln!(out, "| {} | {}/{} |", code(&r.check), r.held, r.held + r.failed);
            }
        }
    }
    let missed: Vec<_> = report.behaviours.iter().filter(|b| report.behaviour_misses(&b.id).next().is_some()).collect();
    if !missed.is_empty() {
        let _ = writeln!(out, "\n## Checks that did not pass, by behaviour\n");
        for behaviour in missed {
            let _ = writeln!(out, "### {}\n\n{}\n", escape(&behaviour.id), escape(&behaviour.sentence));
            for (outcome, check) in report.behaviour_misses(&behaviour.id) {
                let _ = writeln!(
                    out,
                    "- {}: {} {}",
                    code(&outcome.id),
                    code(check.check.as_str()),
                    escape(&check.result.as_str().replace('_', " "))
                );
            }
        }
    }
    let skipped = report.skipped();
    if !skipped.is_empty() {
        let _ = writeln!(out, "\n## Skipped required cases\n");
        let _ = writeln!(
            out,
            "Declined as `unsupported`, or not observable: never a pass, and the rule stays incomplete. By reason:\n"
        );
        for (reason, cases) in skipped {
            let n = cases.len();
            let _ = writeln!(out, "- {} ({n} {}):", escape(reason), if n == 1 { "case" } else { "cases" });
            for outcome in cases {
                let _ = writeln!(out, "  - {}", code(&outcome.id));
            }
        }
    }
    let problems: Vec<_> = report.problems().collect();
    if !problems.is_empty() {
        let _ = writeln!(out, "\n## Failing cases\n");
        for outcome in problems {
            let _ = writeln!(out, "### {}\n", code(&outcome.id));
            let _ = writeln!(
                out,
                "{} ({}; {}). Defined at {}.\n",
                escape(&outcome.summary),
                outcome.level,
                escape(&outcome.clauses.join(", ")),
                code(&outcome.location)
            );
            if let Some(reason) = report.expected_failures.as_ref().and_then(|t| t.expected_reason(&outcome.id)) {
                let _ = writeln!(out, "Expected failure: {}\n", escape(reason));
            }
            match &outcome.status {
                Status::Fail(f) => {
                    let pointer = if f.pointer.is_empty() { "the whole value".to_string() } else { code(&f.pointer) };
                    let _ = writeln!(out, "Check: {}. First difference at {pointer}.\n", escape(&f.check));
                    let _ = writeln!(out, "{}", fenced("diff", &f.diff));
                    if !f.exchange.is_empty() {
                        let exchange = f.exchange.join("\n") + "\n";
                        let _ = writeln!(out, "The exchange that led to it:\n\n{}", fenced("text", &exchange));
                    }
                }
                Status::Error { reason } => {
                    let _ = writeln!(out, "Error:\n\n{}", fenced("text", &format!("{reason}\n")));
                }
                _ => {}
            }
            for (what, value) in report.sent.get(&outcome.id).into_iter().flatten() {
                let json = crate::json::diff::pretty(value) + "\n";
                let _ = writeln!(out, "Sent, {}:\n\n{}", escape(what), fenced("json", &json));
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
            let _ = writeln!(out, "- new failure: {}", code(id));
        }
    }
    out
}

/// Text from an implementation or a case, made inert for Markdown prose and table cells: one
/// line, hidden characters escaped, HTML's `<`, `>` and `&` as references, and the punctuation
/// that could open an element (emphasis, strikethrough, links, code, headings, table cells)
/// escaped with a backslash.
#[doc(hidden)]
pub fn escape(text: &str) -> String {
    let text = one_line(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '~' | '!' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// `text` as an inline code span: on one line with hidden characters escaped, between runs of
/// backticks longer than any run in it, padded with a space when it starts or ends with a
/// backtick or a space (the one space each side that CommonMark strips).
#[doc(hidden)]
pub fn code(text: &str) -> String {
    let text = one_line(text);
    if text.trim_matches(' ').is_empty() {
        return format!("`{}`", if text.is_empty() { " " } else { &text });
    }
    let ticks = "`".repeat(longest_backtick_run(&text) + 1);
    let pad = if text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) { " " } else { "" };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

/// `text` as a fenced code block with `info` as its info string, hidden characters but the
/// newline escaped (a CR would end a line too), ending with a newline.
#[doc(hidden)]
pub fn fenced(info: &str, text: &str) -> String {
    let text = multi_line(text);
    let fence = fence(&text);
    let newline = if text.is_empty() || text.ends_with('\n') { "" } else { "\n" };
    format!("{fence}{info}\n{text}{newline}{fence}\n")
}

/// A code fence longer than any run of backticks in `text`, and at least three long.
#[doc(hidden)]
pub fn fence(text: &str) -> String {
    "`".repeat(longest_backtick_run(text).max(2) + 1)
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// `text` percent-encoded for a link's destination: every byte but ASCII letters, digits and
/// `-._~`.
pub(crate) fn encoded(text: &str) -> String {
    let mut destination = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            destination.push(char::from(byte));
        } else {
            let _ = write!(destination, "%{byte:02X}");
        }
    }
    destination
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_leaves_no_markup_and_one_line() {
        assert_eq!(
            escape("<img src=x> & `a` | *b* ~~c~~ ![d](e)\n# f\u{1b}"),
            "&lt;img src=x&gt; &amp; \\`a\\` \\| \\*b\\* \\~\\~c\\~\\~ \\!\\[d\\](e)\\\\u{A}\\# f\\\\u{1B}"
        );
    }

    #[test]
    fn code_spans_outrun_the_backticks_inside() {
        assert_eq!(code("/a"), "`/a`");
        assert_eq!(code("a `b` c"), "``a `b` c``");
        assert_eq!(code("`` ` <img>"), "``` `` ` <img> ```");
        assert_eq!(code("x`"), "`` x` ``");
        assert_eq!(code("a\nb"), "`a\\u{A}b`");
        assert_eq!(code(""), "` `");
    }

    #[test]
    fn fences_outrun_the_backticks_inside() {
        assert_eq!(fence("no ticks"), "```");
        assert_eq!(fence("````"), "`````");
        assert_eq!(fenced("text", "a\r```\nb"), "````text\na\\u{D}```\nb\n````\n");
    }
}
