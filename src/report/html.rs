//! `standing.html`: the standing as one self-contained page to publish or attach to a CI run: a
//! summary per rule, a breakdown per clause, then every case as a `<details>` element that opens
//! on its summary, reading, expected and actual values, diff, reason and exchange. Failing cases
//! are open from the start.
//!
//! The page has no external assets and no script: its only style is inline, and a Content
//! Security Policy of `default-src 'none'` forbids everything else, scripts included. Every string
//! that came from an implementation or from a case (names, versions, error reasons, JSON values,
//! diffs, ids) is escaped for HTML text or attribute context with [`escape`], so markup in it
//! shows as text; the policy is a second wall behind the escaping, not a replacement for it.
//! Controls, bidi controls, zero-width characters and lone-surrogate stand-ins show escaped
//! (`\u{202E}`, `\u{D800}`), as in every report ([`crate::json::inert`]).

use super::{Report, cell};
use crate::case::Level;
use crate::json::inert;
use crate::judge::outcome::{Outcome, Status};
use crate::standing::Verdict;
use std::fmt::Write as _;

const STYLE: &str = r#"
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e; --line: #d1d9e0;
  --pass: #1a7f37; --fail: #cf222e; --error: #9a6700; --skip: #59636e; --observed: #0969da; --code: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d;
  --pass: #3fb950; --fail: #f85149; --error: #d29922; --skip: #9198a1; --observed: #4493f8; --code: #151b23; } }
body { font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto;
  max-width: 72rem; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; } h2 { font-size: 1.3rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; }
.meta { color: var(--muted); margin: .2rem 0; } .meta code { color: var(--fg); }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid var(--line); padding: .3rem .6rem; text-align: left; vertical-align: top; }
th { background: var(--code); } td.n { white-space: nowrap; }
.verdict { font-weight: 600; } .v-conforms { color: var(--pass); } .v-does-not-conform { color: var(--fail); } .v-incomplete { color: var(--fail); }
.v-not-claimed, .v-not-run { color: var(--skip); }
details.case { border: 1px solid var(--line); border-left: 4px solid var(--skip); border-radius: 4px;
  margin: .35rem 0; padding: .25rem .6rem; }
details.case > summary { cursor: pointer; }
details.s-pass { border-left-color: var(--pass); } details.s-fail { border-left-color: var(--fail); }
details.s-error { border-left-color: var(--error); } details.s-observed { border-left-color: var(--observed); }
.status { display: inline-block; min-width: 4.8rem; font-weight: 600; font-size: .85rem; text-transform: uppercase; }
.s-pass .status { color: var(--pass); } .s-fail .status { color: var(--fail); }
.s-error .status { color: var(--error); } .s-skip .status { color: var(--skip); }
.s-observed .status { color: var(--observed); }
.what { margin-left: .4rem; }
.xfail { font-size: .85rem; color: var(--muted); border: 1px solid var(--line); border-radius: 3px; padding: 0 .3rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .5rem 0; }
dt { color: var(--muted); } dd { margin: 0; min-width: 0; }
pre { background: var(--code); padding: .5rem; overflow-x: auto; margin: 0; white-space: pre-wrap;
  word-break: break-word; font-size: .85rem; }
pre .add { color: var(--pass); } pre .del { color: var(--fail); } pre .hunk { color: var(--observed); }
footer { margin-top: 2rem; color: var(--muted); font-size: .85rem; }
"#;

/// The report as one HTML page.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let i = &report.implementation;
    let title = format!("Standing of {}", i.label());
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n",
    );
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(out, "<title>{}</title>", escape(&title));
    let _ = writeln!(out, "<style>{STYLE}</style>\n</head>\n<body>");
    header(&mut out, report, &title);
    out.push_str("<main>\n");
    summary(&mut out, report);
    expectations(&mut out, report);
    for rule in &report.standing.rules {
        let _ = writeln!(
            out,
            "<section class=\"rule\" id=\"{}\">\n<h2>{} <span class=\"verdict {}\">{}</span></h2>",
            escape(&format!("rule-{}", rule.rule)),
            escape(&rule.rule),
            verdict_class(rule.verdict),
            escape(&rule.headline())
        );
        let _ = writeln!(out, "<p>{}</p>", escape(&rule.title));
        out.push_str(
            "<table class=\"clauses\">\n<tr><th>clause</th><th>what it says</th><th>required</th><th>interpretation</th><th>informational</th></tr>\n",
        );
        for clause in &rule.clauses {
            let _ = writeln!(
                out,
                "<tr><td class=\"n\"><code>{}</code></td><td>{}</td>{}</tr>",
                escape(&clause.clause),
                escape(&clause.summary),
                cells(&clause.counts)
            );
        }
        let _ = writeln!(out, "<tr><th>all cases</th><th></th>{}</tr>\n</table>", cells(&rule.totals));
        let cases: Vec<&Outcome> = report.cases.iter().filter(|o| o.rule == rule.rule).collect();
        if !cases.is_empty() {
            let _ = writeln!(out, "<h3>{} case{}</h3>", cases.len(), if cases.len() == 1 { "" } else { "s" });
            for outcome in cases {
                case(&mut out, report, outcome);
            }
        }
        out.push_str("</section>\n");
    }
    out.push_str("</main>\n");
    let _ = writeln!(
        out,
        "<footer>Written by {} {}; the same implementation and corpus give the same page.</footer>",
        escape(&report.suite.name),
        escape(&report.suite.version)
    );
    out.push_str("</body>\n</html>\n");
    out
}

fn header(out: &mut String, report: &Report, title: &str) {
    let i = &report.implementation;
    let _ = writeln!(out, "<header>\n<h1 id=\"title\">{}</h1>", escape(title));
    let mut about = Vec::new();
    if let Some(language) = &i.language {
        about.push(format!("language <code>{}</code>", escape(language)));
    }
    if let Some(homepage) = &i.homepage {
        about.push(format!("homepage <code>{}</code>", escape(homepage)));
    }
    if !about.is_empty() {
        let _ = writeln!(out, "<p class=\"meta\">{}</p>", about.join("; "));
    }
    let transports: Vec<&str> = i.transports.iter().map(|t| t.as_str()).collect();
    let _ = writeln!(
        out,
        "<p class=\"meta\">Claims <code>{}</code> on <code>{}</code>.</p>",
        escape(&or_nothing(&i.rules.join(", "))),
        escape(&or_nothing(&transports.join(", ")))
    );
    let _ = write!(
        out,
        "<p class=\"meta\">Suite <code>{} {}</code>",
        escape(&report.suite.name),
        escape(&report.suite.version)
    );
    if let Some(corpus) = &report.suite.corpus {
        let _ = write!(
            out,
            "; corpus <code>{}</code> ({} file{})",
            escape(&corpus.digest),
            corpus.files.len(),
            if corpus.files.len() == 1 { "" } else { "s" }
        );
    }
    out.push_str(".</p>\n</header>\n");
}

fn summary(out: &mut String, report: &Report) {
    out.push_str("<section id=\"summary\">\n<h2>Summary</h2>\n<table class=\"summary\">\n");
    out.push_str(
        "<tr><th>rule</th><th>verdict</th><th>required</th><th>interpretation</th><th>informational</th></tr>\n",
    );
    for rule in &report.standing.rules {
        let _ = writeln!(
            out,
            "<tr><td class=\"n\"><a href=\"#{}\">{}</a></td><td class=\"verdict {}\">{}</td>{}</tr>",
            escape(&format!("rule-{}", rule.rule)),
            escape(&rule.rule),
            verdict_class(rule.verdict),
            escape(rule.verdict.as_str()),
            cells(&rule.totals)
        );
    }
    out.push_str("</table>\n");
    let problems = report.problems().count();
    let _ = writeln!(
        out,
        "<p>{} case{} ran; {problems} failed or errored.</p>\n</section>",
        report.cases.len(),
        if report.cases.len() == 1 { "" } else { "s" }
    );
}

fn expectations(out: &mut String, report: &Report) {
    let Some(triage) = &report.expected_failures else { return };
    out.push_str("<section id=\"expected-failures\">\n<h2>Expected failures</h2>\n");
    let _ = writeln!(
        out,
        "<p>{} listed failure{}, {} stale entr{}, {} new failure{}.</p>",
        triage.expected.len(),
        if triage.expected.len() == 1 { "" } else { "s" },
        triage.stale.len(),
        if triage.stale.len() == 1 { "y" } else { "ies" },
        triage.unexpected.len(),
        if triage.unexpected.len() == 1 { "" } else { "s" }
    );
    if !triage.stale.is_empty() {
        out.push_str("<p>Stale entries (their cases ran and none failed):</p>\n<ul>\n");
        for stale in &triage.stale {
            let _ = writeln!(
                out,
                "<li><code>{}</code>: {}</li>",
                escape(&stale.entry.subject.to_string()),
                escape(&stale.entry.reason)
            );
        }
        out.push_str("</ul>\n");
    }
    if !triage.unexpected.is_empty() {
        out.push_str("<p>New failures (no entry lists them):</p>\n<ul>\n");
        for id in &triage.unexpected {
            let _ = writeln!(out, "<li><a href=\"#{}\"><code>{}</code></a></li>", escape(&case_anchor(id)), escape(id));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
}

fn case(out: &mut String, report: &Report, outcome: &Outcome) {
    let kind = outcome.status.kind().as_str();
    let open = if matches!(outcome.status, Status::Fail(_) | Status::Error { .. }) { " open" } else { "" };
    let _ = write!(
        out,
        "<details class=\"case s-{kind}\" id=\"{}\"{open}>\n<summary><span class=\"status\">{kind}</span> <code>{}</code> <span class=\"what\">{}</span>",
        escape(&case_anchor(&outcome.id)),
        escape(&outcome.id),
        escape(&outcome.summary)
    );
    if let Some(reason) = report.expected_failures.as_ref().and_then(|t| t.expected_reason(&outcome.id)) {
        let _ = write!(out, " <span class=\"xfail\" title=\"{}\">expected failure</span>", escape(reason));
    }
    out.push_str("</summary>\n<dl>\n");
    let mut row = |name: &str, html: String| {
        let _ = writeln!(out, "<dt>{}</dt><dd>{html}</dd>", escape(name));
    };
    row("level", escape(outcome.level.as_str()));
    row(
        "clauses",
        outcome.clauses.iter().map(|c| format!("<code>{}</code>", escape(c))).collect::<Vec<_>>().join(", "),
    );
    row("defined at", format!("<code>{}</code>", escape(&outcome.location)));
    if let Some(note) = &outcome.note {
        row("reading", escape(note));
    }
    if let Some(reason) = report.expected_failures.as_ref().and_then(|t| t.expected_reason(&outcome.id)) {
        row("expected failure", escape(reason));
    }
    match &outcome.status {
        Status::Pass => {}
        Status::Fail(f) => {
            row("check", escape(&f.check));
            let pointer = if f.pointer.is_empty() { "the whole value".to_string() } else { f.pointer.clone() };
            row("first difference", format!("<code>{}</code>", escape(&pointer)));
            row("expected", pre(&crate::json::diff::pretty(&f.expected)));
            row("actual", pre(&crate::json::diff::pretty(&f.actual)));
            row("diff", diff(&f.diff));
            if !f.exchange.is_empty() {
                row("exchange", pre(&f.exchange.join("\n")));
            }
        }
        Status::Error { reason } => row("reason", pre(reason)),
        _ => {}
    }
    for (what, value) in report.sent.get(&outcome.id).into_iter().flatten() {
        row(&format!("sent, {what}"), pre(&crate::json::diff::pretty(value)));
    }
    match &outcome.status {
        Status::Pass | Status::Fail(_) | Status::Error { .. } => {}
        Status::Skip { reason } => row("skipped because", escape(reason)),
        Status::NotApplicable { reason } => row("not applicable", escape(reason)),
        Status::Observed(o) => {
            row("behaviour seen", format!("<code>{}</code>", escape(o.behaviour.as_deref().unwrap_or("other"))));
            row("actual", pre(&crate::json::diff::pretty(&o.actual)));
        }
    }
    out.push_str("</dl>\n</details>\n");
}

/// `text` made inert in HTML text and in quoted attribute values: markup as character
/// references, and hidden characters but the newline written escaped as [`inert::escape_char`]
/// does.
#[doc(hidden)]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push(c),
            c if inert::is_hidden(c) => out.push_str(&inert::escape_char(c)),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn pre(text: &str) -> String {
    format!("<pre>{}</pre>", escape(text))
}

fn diff(text: &str) -> String {
    let mut out = String::from("<pre class=\"diff\">");
    for line in text.lines() {
        let class = if line.starts_with("+++") || line.starts_with("---") {
            None
        } else if line.starts_with('+') {
            Some("add")
        } else if line.starts_with('-') {
            Some("del")
        } else if line.starts_with("@@") {
            Some("hunk")
        } else {
            None
        };
        match class {
            Some(class) => {
                let _ = writeln!(out, "<span class=\"{class}\">{}</span>", escape(line));
            }
            None => {
                let _ = writeln!(out, "{}", escape(line));
            }
        }
    }
    out.push_str("</pre>");
    out
}

fn cells(counts: &crate::standing::Counts) -> String {
    Level::ALL.iter().map(|level| format!("<td class=\"n\">{}</td>", escape(&cell(counts, *level)))).collect()
}

fn verdict_class(verdict: Verdict) -> String {
    format!("v-{}", verdict.as_str().replace(' ', "-"))
}

fn case_anchor(id: &str) -> String {
    format!("case-{id}")
}

fn or_nothing(text: &str) -> String {
    if text.is_empty() { "nothing".into() } else { text.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup() {
        assert_eq!(
            escape("<img src=x onerror='a()'> & \"q\""),
            "&lt;img src=x onerror=&#39;a()&#39;&gt; &amp; &quot;q&quot;"
        );
    }
}
