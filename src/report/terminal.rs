//! The standing as the terminal shows it: who was tested, a table per rule with a row per
//! clause, the behaviours informational cases saw, then each failing or erroring case with its
//! id, clauses, summary, the JSON pointer of the first difference and the diff, and, with an
//! expected-failures file, which failures were listed, which entries are stale and which failures
//! are new.
//!
//! [`render`] gives plain text; [`render_colored`] the same text with ANSI colors (verdicts,
//! failure labels, diff lines), for a terminal that shows them. Which one to print is the
//! binary's choice (`--color`, `NO_COLOR`, whether stdout is a terminal). [`summary_line`] is
//! the one line a run ends with: the counts, the verdict per rule and the time taken.
//!
//! A report made with [`Report::for_corpus`] also shows, for each failing or erroring case, what
//! was sent ([`Report::sent`]): the arguments and the schema or tools, each cut at [`SENT_CHARS`]
//! characters; `standing.md` and `standing.html` hold them whole, and `run --case ID --full` and
//! `show CASE_ID` print them whole.
//!
//! Every string from an implementation or a case goes through [`crate::json::inert`], so its
//! controls (ESC, BEL, CR), bidi controls and zero-width characters show escaped and the only
//! escape sequences written are the report's own colors. Cases that errored for the same reason
//! (an implementation that did not start errors every case) are shown once, with their count.

use super::{Report, cell};
use crate::case::Level;
use crate::json::Value;
use crate::json::inert::{multi_line, one_line};
use crate::judge::outcome::{Outcome, Status, StatusKind};
use crate::standing::Verdict;
use anstyle::{AnsiColor, Style};
use std::fmt::Write as _;
use std::time::Duration;

/// How many case ids a group of cases that errored for one reason lists before "and N more".
const GROUP_IDS: usize = 5;

/// How much of each value sent (arguments, a schema) a failing case shows, in characters of
/// compact JSON.
#[doc(hidden)]
pub const SENT_CHARS: usize = 300;

/// The report as plain terminal text.
pub fn render(report: &Report) -> String {
    write_report(report, Paint(false))
}

/// The report as terminal text with ANSI colors.
pub fn render_colored(report: &Report) -> String {
    write_report(report, Paint(true))
}

/// The report in a few lines (`run --compact`): who was tested, a line per rule with its verdict
/// and its required cases counted, one line per failing or erroring case (id, level, clauses,
/// summary, and the expected-failures reason that covers it; cases that errored for one reason
/// are one line with the reason, and the first of their ids), and with an expected-failures file
/// a line per stale entry and per new failure. `show CASE_ID` or `run --case ID` tells the rest.
pub fn render_compact(report: &Report, colored: bool) -> String {
    let paint = Paint(colored);
    let mut out = String::new();
    let _ = writeln!(out, "{}", heading(report));
    for rule in &report.standing.rules {
        let partial = if rule.whole || rule.verdict == Verdict::NotRun { "" } else { " (partial selection)" };
        let required = cell(&rule.totals, Level::Required);
        let _ =
            writeln!(out, "{}: {}{partial}; required {required}", one_line(&rule.rule), paint.verdict(rule.verdict));
    }
    let expected = |o: &Outcome| report.expected_failures.as_ref().and_then(|t| t.expected_reason(&o.id));
    let problems: Vec<&Outcome> = report.problems().collect();
    for group in group_errors(&problems, &expected) {
        let outcome = group[0];
        if group.len() > 1 {
            // Cases that errored for one reason (a target that did not start errors them all):
            // the reason once, then which cases.
            let listed = expected(outcome).map(|r| format!(" [expected: {}]", one_line(r))).unwrap_or_default();
            let _ = writeln!(out, "{} in {} cases, for one reason{listed}:", paint.warn("ERROR"), group.len());
            write_reason(&mut out, error_reason(outcome).unwrap_or_default());
            let ids: Vec<String> = group.iter().take(GROUP_IDS).map(|o| one_line(&o.id)).collect();
            let more = group.len().saturating_sub(GROUP_IDS);
            let more = if more > 0 { format!(", and {more} more") } else { String::new() };
            let _ = writeln!(out, "  cases: {}{more}", ids.join(", "));
            continue;
        }
        let label = if matches!(outcome.status, Status::Fail(_)) { paint.bad("FAIL") } else { paint.warn("ERROR") };
        let listed = expected(outcome).map(|r| format!(" [expected: {}]", one_line(r))).unwrap_or_default();
        let _ = writeln!(
            out,
            "{label} {} ({}; {}): {}{listed}",
            one_line(&outcome.id),
            outcome.level,
            one_line(&outcome.clauses.join(", ")),
            one_line(&outcome.summary)
        );
    }
    if let Some(triage) = &report.expected_failures {
        for stale in &triage.stale {
            let _ = writeln!(
                out,
                "{} {}: listed, but {}",
                paint.bad("STALE"),
                one_line(&stale.entry.subject.to_string()),
                one_line(&stale.now)
            );
        }
        for id in &triage.unexpected {
            let _ = writeln!(out, "{} {}: not listed in the expected failures", paint.bad("NEW"), one_line(id));
        }
        for clause in &triage.unjudged {
            let _ = writeln!(out, "{} {}: no required case of it applied", paint.bad("UNJUDGED"), one_line(clause));
        }
    }
    out
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

    fn frequency(self, word: crate::standing::behaviours::Frequency) -> String {
        use crate::standing::behaviours::Frequency as F;
        let style = match word {
            F::Always => AnsiColor::Green.on_default().bold(),
            F::Mostly => AnsiColor::Green.on_default(),
            F::Sometimes => AnsiColor::Yellow.on_default(),
            F::Rarely | F::Never => AnsiColor::Red.on_default().bold(),
            F::NotMeasured => Style::new().dimmed(),
        };
        self.with(style, word.as_str())
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

/// What the implementation does, behaviour by behaviour: per rule, a line per behaviour with the
/// share of its required checks that passed, in a word and a percentage, and what it was
/// measured over.
fn write_behaviours(out: &mut String, report: &Report, paint: Paint) {
    if report.behaviours.is_empty() {
        return;
    }
    let _ = writeln!(out, "\nWhat it does (the share of each behaviour's required checks that passed):");
    let mut rule = "";
    for behaviour in &report.behaviours {
        if behaviour.rule != rule {
            rule = &behaviour.rule;
            let _ = writeln!(out, "  {}", one_line(rule));
        }
        let c = &behaviour.required;
        let word = c.frequency();
        let percent = c.percent().map(|p| format!("{p:>3}%")).unwrap_or_else(|| "   -".into());
        let padding = " ".repeat(12usize.saturating_sub(word.as_str().len()));
        let _ = writeln!(
            out,
            "    {}{padding} {percent}  {}  ({})",
            paint.frequency(word),
            one_line(&behaviour.sentence),
            c.over()
        );
    }
}

/// The first line of both terminal reports: the suite, and the implementation it ran against.
fn heading(report: &Report) -> String {
    let answered = match &report.implementation.answered {
        Some(answered) => {
            let named = [answered.name.as_str(), answered.version.as_str()].join(" ");
            format!(" (named by the run; it answered {})", one_line(named.trim()))
        }
        None => String::new(),
    };
    format!(
        "{} {} against {}{answered}",
        one_line(&report.suite.name),
        one_line(&report.suite.version),
        one_line(&report.implementation.label())
    )
}

fn write_report(report: &Report, paint: Paint) -> String {
    let mut out = String::new();
    let i = &report.implementation;
    let _ = writeln!(out, "{}", heading(report));
    let transports: Vec<&str> = i.transports.iter().map(|t| t.as_str()).collect();
    let _ = writeln!(out, "claims {} on {}", list(&i.rules), list(&transports));
    write_behaviours(&mut out, report, paint);
    for rule in &report.standing.rules {
        write_rule(&mut out, rule, paint);
    }
    let observed: Vec<&Outcome> = report.cases.iter().filter(|o| matches!(o.status, Status::Observed(_))).collect();
    if !observed.is_empty() {
        let _ = writeln!(out, "\nInformational cases, and the behaviour seen:");
        for outcome in observed {
            if let Status::Observed(o) = &outcome.status {
                let behaviour = o.behaviour.as_deref().unwrap_or("other");
                let _ = writeln!(out, "  {}: {}", one_line(&outcome.id), one_line(behaviour));
            }
        }
    }
    write_problems(&mut out, report, paint);
    write_skipped(&mut out, report, paint);
    if let Some(triage) = &report.expected_failures {
        let _ = writeln!(
            out,
            "\nExpected failures: {} listed (not failing the run), {} stale, {} new.",
            triage.expected.len(),
            triage.stale.len(),
            triage.unexpected.len()
        );
        for stale in &triage.stale {
            let expects = match stale.entry.status {
                crate::standing::expectations::ExpectedStatus::Fail => "fail",
                crate::standing::expectations::ExpectedStatus::Skip => "skip",
            };
            let _ = writeln!(
                out,
                "  {} {}: listed as expected to {expects} ({}), but {}: {}",
                paint.bad("STALE"),
                one_line(&stale.entry.subject.to_string()),
                one_line(&stale.entry.reason),
                one_line(&stale.now),
                one_line(&stale.passing.join(", "))
            );
        }
        for id in &triage.unexpected {
            let did = match report.cases.iter().find(|o| &o.id == id).map(|o| o.status.kind()) {
                Some(StatusKind::Skip) => "is skipped (declined, or not observable)",
                Some(StatusKind::Error) => "errors",
                _ => "fails",
            };
            let _ = writeln!(out, "  {} {}: {did} and is not listed so", paint.bad("NEW"), one_line(id));
        }
        for clause in &triage.unjudged {
            let _ = writeln!(
                out,
                "  {} {}: no required case of it applied, and no clause entry with status: skip lists it",
                paint.bad("UNJUDGED"),
                one_line(clause)
            );
        }
    }
    out
}

fn write_rule(out: &mut String, rule: &crate::standing::RuleStanding, paint: Paint) {
    let partial = if rule.whole || rule.verdict == Verdict::NotRun { "" } else { " (partial selection)" };
    let _ = writeln!(out, "\n{}: {}{partial}", one_line(&rule.rule), paint.verdict(rule.verdict));
    let _ = writeln!(out, "  {}", one_line(&rule.title));
    // A selection that leaves out some cases of the rule shows only the clauses it ran cases of,
    // and a rule none of whose cases was selected no table at all.
    let selected = |counts: &crate::standing::Counts| {
        rule.whole
            || [Level::Required, Level::Interpretation, Level::Informational].iter().any(|l| counts.total(*l) > 0)
    };
    if !selected(&rule.totals) {
        let _ = writeln!(out, "  no case of it selected");
        return;
    }
    if !rule.unjudged_clauses.is_empty() {
        let _ = writeln!(out, "  no required case applied in: {}", one_line(&rule.unjudged_clauses.join(", ")));
    }
    let mut rows = vec![["clause".to_string(), "required".into(), "interpretation".into(), "informational".into()]];
    for clause in rule.clauses.iter().filter(|c| selected(&c.counts)) {
        rows.push([
            one_line(&clause.clause),
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
    if !rule.readings.is_empty() {
        let checks: Vec<String> =
            rule.readings.iter().map(|r| format!("{} {}/{}", one_line(&r.check), r.held, r.held + r.failed)).collect();
        let _ = writeln!(out, "  checks beyond the text (never deciding the verdict): {}", checks.join(", "));
    }
}

/// Failures one by one, in corpus order; errors too, except that the cases that errored for the
/// same reason (and the same expected-failure entry) are shown once, where the first of them is.
fn write_problems(out: &mut String, report: &Report, paint: Paint) {
    let problems: Vec<&Outcome> = report.problems().collect();
    if problems.is_empty() {
        return;
    }
    let n = problems.len();
    let _ = writeln!(out, "\n{n} case{} failed or errored:", plural(n));
    let expected = |o: &Outcome| report.expected_failures.as_ref().and_then(|t| t.expected_reason(&o.id));
    for group in group_errors(&problems, &expected) {
        out.push('\n');
        match group.as_slice() {
            [outcome] => {
                out.push_str(&write_failure(outcome, paint, expected(outcome)));
                if let Some(sent) = report.sent.get(&outcome.id) {
                    write_sent(out, &outcome.id, sent);
                }
            }
            cases => out.push_str(&write_group(cases, paint, expected(cases[0]))),
        }
    }
}

/// The required cases that were skipped, by reason: the reason once, how many cases and which
/// (the first few; standing.md lists them all).
fn write_skipped(out: &mut String, report: &Report, paint: Paint) {
    let groups = report.skipped();
    if groups.is_empty() {
        return;
    }
    let n: usize = groups.iter().map(|(_, cases)| cases.len()).sum();
    let _ = writeln!(out, "\n{n} required case{} skipped, never a pass (the rule stays incomplete):", plural(n));
    for (reason, cases) in groups {
        out.push('\n');
        let _ = writeln!(out, "{} in {} case{}, for one reason:", paint.warn("SKIP"), cases.len(), plural(cases.len()));
        write_reason(out, reason);
        let ids: Vec<String> = cases.iter().take(GROUP_IDS).map(|o| one_line(&o.id)).collect();
        let more = cases.len().saturating_sub(GROUP_IDS);
        let more = if more > 0 { format!(", and {more} more") } else { String::new() };
        let _ = writeln!(out, "  cases: {}{more}", ids.join(", "));
    }
}

/// `problems` in order, each error with every later one that has the same reason and the same
/// expected-failure entry; each failure alone.
fn group_errors<'a>(problems: &[&'a Outcome], expected: &dyn Fn(&Outcome) -> Option<&'a str>) -> Vec<Vec<&'a Outcome>> {
    let key = |o: &'a Outcome| error_reason(o).map(|reason| (reason, expected(o)));
    let mut groups: Vec<Vec<&'a Outcome>> = Vec::new();
    for &outcome in problems {
        let mine = key(outcome);
        match groups.iter_mut().find(|group| mine.is_some() && key(group[0]) == mine) {
            Some(group) => group.push(outcome),
            None => groups.push(vec![outcome]),
        }
    }
    groups
}

fn error_reason(outcome: &Outcome) -> Option<&str> {
    match &outcome.status {
        Status::Error { reason } => Some(reason),
        _ => None,
    }
}

/// Cases that errored for one reason: the reason once, how many cases and which.
fn write_group(cases: &[&Outcome], paint: Paint, expected: Option<&str>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} in {} cases, for one reason:", paint.warn("ERROR"), cases.len());
    if let Some(reason) = expected {
        let _ = writeln!(out, "  {}: {}", paint.warn("expected failure"), one_line(reason));
    }
    write_reason(&mut out, error_reason(cases[0]).unwrap_or_default());
    let ids: Vec<String> = cases.iter().take(GROUP_IDS).map(|o| one_line(&o.id)).collect();
    let more = cases.len().saturating_sub(GROUP_IDS);
    let _ = write!(out, "  cases: {}", ids.join(", "));
    if more > 0 {
        let _ = write!(out, ", and {more} more");
    }
    out.push('\n');
    out
}

fn write_reason(out: &mut String, reason: &str) {
    let reason = multi_line(reason);
    let mut lines = reason.lines();
    let _ = writeln!(out, "  reason: {}", lines.next().unwrap_or_default());
    for line in lines {
        let _ = writeln!(out, "    {line}");
    }
}

/// One failing or erroring case, as the terminal and `cargo test` show it.
#[doc(hidden)]
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
    let clauses = one_line(&outcome.clauses.join(", "));
    let _ = writeln!(out, "{label} {} ({}; {clauses})", one_line(&outcome.id), outcome.level);
    if let Some(reason) = expected {
        let _ = writeln!(out, "  {}: {}", paint.warn("expected failure"), one_line(reason));
    }
    let _ = writeln!(out, "  {}", one_line(&outcome.summary));
    if let Some(note) = &outcome.note {
        let _ = writeln!(out, "  reading: {}", one_line(note));
    }
    let _ = writeln!(out, "  defined at {}", one_line(&outcome.location));
    match &outcome.status {
        Status::Fail(f) => {
            let _ = writeln!(out, "  check: {}", one_line(&f.check));
            let pointer = if f.pointer.is_empty() { "the whole value".to_string() } else { one_line(&f.pointer) };
            let _ = writeln!(out, "  first difference at {pointer}");
            for line in multi_line(&f.diff).lines() {
                let _ = writeln!(out, "  {}", paint.diff_line(line));
            }
        }
        Status::Error { reason } => write_reason(&mut out, reason),
        _ => {}
    }
    out
}

/// What was sent for `case`, each value as compact JSON cut at [`SENT_CHARS`].
fn write_sent(out: &mut String, id: &str, sent: &[(String, Value)]) {
    let _ = writeln!(out, "  sent (whole with `run --case {} --full`, or `show` it):", one_line(id));
    for (what, value) in sent {
        let text = crate::peer::transcript::truncate(&value.to_string(), SENT_CHARS);
        let _ = writeln!(out, "    {}: {}", one_line(what), one_line(&text));
    }
}

/// The line a run ends with: how many cases passed, failed, errored, were skipped and were
/// observed, each rule's verdict, and how long the run took. Only the terminal shows it, since
/// the time differs from run to run and report files do not.
#[doc(hidden)]
pub fn summary_line(report: &Report, elapsed: Duration, colored: bool) -> String {
    let paint = Paint(colored);
    let count = |kind: StatusKind| report.cases.iter().filter(|o| o.status.kind() == kind).count();
    let counts = [
        (StatusKind::Pass, "passed"),
        (StatusKind::Fail, "failed"),
        (StatusKind::Error, "errored"),
        (StatusKind::Skip, "skipped"),
        (StatusKind::Observed, "observed"),
        (StatusKind::NotApplicable, "not applicable"),
    ]
    .map(|(kind, word)| format!("{} {word}", count(kind)))
    .join(", ");
    let verdicts: Vec<String> = report
        .standing
        .rules
        .iter()
        .map(|rule| {
            let partial = if rule.whole || rule.verdict == Verdict::NotRun { "" } else { " (partial selection)" };
            format!("{} {}{partial}", one_line(&rule.rule), paint.verdict(rule.verdict))
        })
        .collect();
    format!("{counts}; {}; in {:.2}s", verdicts.join(", "), elapsed.as_secs_f64())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn list<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        "nothing".into()
    } else {
        items.iter().map(|s| one_line(s.as_ref())).collect::<Vec<_>>().join(", ")
    }
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
