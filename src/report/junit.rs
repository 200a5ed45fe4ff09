//! `junit.xml`: the standing as JUnit XML (written with quick-junit), for CI systems that show
//! test results: one `<testsuite>` per rule, in catalog order, and one `<testcase>` per case,
//! named by its id, with its rule and topic as the class name and its level and clauses as
//! properties.
//!
//! A `<failure>` or `<error>` is exactly something that fails the run, so a CI that gates on the
//! JUnit file and one that gates on the exit code agree:
//!
//! - a required case that failed is a `<failure>`, and one that errored an `<error>`; the text
//!   holds the check, the JSON pointer of the first difference, the diff (or the reason), and any
//!   exchange that led to it;
//! - a case that passed is a plain `<testcase>`; an informational case too, with the behaviour
//!   seen as a property and what the implementation gave in `<system-out>`;
//! - a skipped case is `<skipped type="skip">`; an interpretation case that failed or errored is
//!   `<skipped type="interpretation">` (it does not decide the verdict), and a failure that an
//!   expected-failures file lists is `<skipped type="expected-failure">`, each with the diff;
//! - with an expected-failures file, a testsuite `expected-failures` holds one `<failure>` per
//!   stale entry.
//!
//! Nothing in the file depends on time: no timestamps and no durations.
//!
//! The file is well-formed XML 1.0 whatever the strings hold: every string goes through
//! [`crate::json::inert`] before quick-junit sees it, so the characters XML forbids (C0 controls,
//! U+FFFE, U+FFFF), the other controls, bidi and zero-width characters and lone-surrogate
//! stand-ins show escaped (`\u{FFFF}`, `\u{D800}`). quick-junit itself would drop C0 controls
//! and ANSI sequences silently, and pass U+FFFE and U+FFFF through. Attribute values are one
//! line (a newline shows as `\u{A}`); element text keeps its newlines.

use super::Report;
use crate::case::Level;
use crate::json::inert::{multi_line, one_line};
use crate::judge::outcome::{Outcome, Status};
use quick_junit::{NonSuccessKind, Property, TestCase, TestCaseStatus, TestSuite};
use std::fmt::Write as _;

/// The report as JUnit XML.
pub fn render(report: &Report) -> String {
    let i = &report.implementation;
    let mut junit = quick_junit::Report::new(one_line(&format!(
        "{} {} against {} {}",
        report.suite.name, report.suite.version, i.name, i.version
    )));
    for rule in &report.standing.rules {
        let mut suite = TestSuite::new(one_line(&rule.rule));
        suite.add_property(property("title", &rule.title));
        suite.add_property(property("verdict", rule.verdict.as_str()));
        suite.add_property(property("suite-version", &report.suite.version));
        if let Some(corpus) = &report.suite.corpus {
            suite.add_property(property("corpus-digest", &corpus.digest));
        }
        suite.add_property(property("implementation", &i.label()));
        for outcome in report.cases.iter().filter(|o| o.rule == rule.rule) {
            suite.add_test_case(test_case(report, outcome));
        }
        junit.add_test_suite(suite);
    }
    if let Some(triage) = &report.expected_failures {
        let mut suite = TestSuite::new("expected-failures");
        for stale in &triage.stale {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status.set_type("stale-entry");
            status.set_message(one_line(&format!("listed as expected to fail, but passes: {}", stale.entry.reason)));
            status.set_description(multi_line(&format!(
                "Remove the entry for {}: these cases ran and none failed:\n{}",
                stale.entry.subject,
                stale.passing.join("\n")
            )));
            suite.add_test_case(TestCase::new(one_line(&stale.entry.subject.to_string()), status));
        }
        junit.add_test_suite(suite);
    }
    let mut text = junit.to_string().unwrap_or_else(|e| format!("<!-- the JUnit report could not be written: {e} -->"));
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

fn test_case(report: &Report, outcome: &Outcome) -> TestCase {
    let expected = report.expected_failures.as_ref().and_then(|t| t.expected_reason(&outcome.id));
    let status = match &outcome.status {
        Status::Pass | Status::Observed(_) => TestCaseStatus::success(),
        Status::NotApplicable { reason } => {
            let mut status = TestCaseStatus::skipped();
            status.set_type("not-applicable").set_message(one_line(reason));
            status
        }
        Status::Skip { reason } if outcome.level == Level::Required && expected.is_none() => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
            status.set_type("declined").set_message(one_line(&format!(
                "skipped ({reason}): a required case declined or not observable leaves its rule incomplete"
            )));
            status
        }
        Status::Skip { reason } => {
            let mut status = TestCaseStatus::skipped();
            match expected {
                Some(why) => {
                    status.set_type("expected-skip").set_message(one_line(&format!("expected to skip: {why}")))
                }
                None => status.set_type("skip").set_message(one_line(reason)),
            };
            status
        }
        Status::Fail(_) | Status::Error { .. } => {
            let (kind, what) = match &outcome.status {
                Status::Fail(_) => (NonSuccessKind::Failure, "fail"),
                _ => (NonSuccessKind::Error, "error"),
            };
            let mut status = if let Some(reason) = expected {
                let mut status = TestCaseStatus::skipped();
                status.set_type("expected-failure").set_message(one_line(&format!("expected to {what}: {reason}")));
                status
            } else if outcome.level != Level::Required {
                let mut status = TestCaseStatus::skipped();
                status
                    .set_type(one_line(outcome.level.as_str()))
                    .set_message(format!("{what}s under the suite's reading, which does not decide the verdict"));
                status
            } else {
                let mut status = TestCaseStatus::non_success(kind);
                status.set_type(what).set_message(one_line(&headline(outcome)));
                status
            };
            status.set_description(multi_line(&details(outcome)));
            status
        }
    };
    let mut case = TestCase::new(one_line(&outcome.id), status);
    case.set_classname(one_line(outcome.id.rsplit_once('/').map(|(topic, _)| topic).unwrap_or(&outcome.rule)));
    case.add_property(property("level", outcome.level.as_str()));
    case.add_property(property("clauses", &outcome.clauses.join(" ")));
    case.add_property(property("defined-at", &outcome.location));
    if let Status::Observed(observation) = &outcome.status {
        case.add_property(property("behaviour", observation.behaviour.as_deref().unwrap_or("other")));
        case.set_system_out(multi_line(&pretty(&observation.actual)));
    }
    case
}

/// A property whose value is one line, with hidden characters escaped.
fn property(name: &str, value: &str) -> Property {
    Property::new(name, one_line(value))
}

/// One line: what went wrong.
fn headline(outcome: &Outcome) -> String {
    match &outcome.status {
        Status::Fail(f) => {
            let pointer = if f.pointer.is_empty() { "the whole value" } else { f.pointer.as_str() };
            format!("{}: first difference at {pointer}", f.check)
        }
        Status::Error { reason } => reason.lines().next().unwrap_or_default().to_string(),
        _ => String::new(),
    }
}

/// Everything a reader needs: summary, place, check, diff or reason, exchange.
fn details(outcome: &Outcome) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", outcome.summary);
    let _ = writeln!(out, "clauses: {}; level: {}", outcome.clauses.join(", "), outcome.level);
    if let Some(note) = &outcome.note {
        let _ = writeln!(out, "reading: {note}");
    }
    let _ = writeln!(out, "defined at {}", outcome.location);
    match &outcome.status {
        Status::Fail(f) => {
            let _ = writeln!(out, "{}\n\n{}", headline(outcome), f.diff.trim_end());
            if !f.exchange.is_empty() {
                let _ = writeln!(out, "\nthe exchange that led to it:\n{}", f.exchange.join("\n"));
            }
        }
        Status::Error { reason } => {
            let _ = writeln!(out, "\n{}", reason.trim_end());
        }
        _ => {}
    }
    out
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}
