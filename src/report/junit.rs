//! `junit.xml`: the standing as JUnit XML, for CI systems that show
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
//! [`crate::json::inert`] before it is written, so the characters XML forbids (C0 controls,
//! U+FFFE, U+FFFF), the other controls, bidi and zero-width characters and lone-surrogate
//! stand-ins show escaped (`\u{FFFF}`, `\u{D800}`). Attribute values are one line (a newline
//! shows as `\u{A}`); element text keeps its newlines.
//!
//! The XML is written here, in the layout quick-junit 0.8 gave it (which this module used
//! before): four spaces of indent per level, `<`, `>`, `&`, `'` and `"` escaped in text and
//! attributes, attributes in the same order, and a control character other than a newline, which
//! [`crate::json::inert`] has already escaped, dropped as quick-junit dropped it.

use super::Report;
use crate::case::Level;
use crate::json::inert::{multi_line, one_line};
use crate::run::outcome::{Outcome, Status};
use std::fmt::Write as _;

/// A `<property>`: name and value.
type Property = (&'static str, String);

/// A `<testsuite>`.
struct TestSuite {
    name: String,
    properties: Vec<Property>,
    cases: Vec<TestCase>,
}

impl TestSuite {
    fn new(name: impl Into<String>) -> TestSuite {
        TestSuite { name: name.into(), properties: Vec::new(), cases: Vec::new() }
    }

    fn add_property(&mut self, property: Property) {
        self.properties.push(property);
    }

    fn add_test_case(&mut self, case: TestCase) {
        self.cases.push(case);
    }

    /// Tests, skipped, failures and errors.
    fn counts(&self) -> [usize; 4] {
        let mut counts = [self.cases.len(), 0, 0, 0];
        for case in &self.cases {
            match &case.status.kind {
                Kind::Success => {}
                Kind::Skipped => counts[1] += 1,
                Kind::Failure => counts[2] += 1,
                Kind::Error => counts[3] += 1,
            }
        }
        counts
    }
}

/// A `<testcase>`.
struct TestCase {
    name: String,
    classname: Option<String>,
    properties: Vec<Property>,
    status: TestCaseStatus,
    system_out: Option<String>,
}

impl TestCase {
    fn new(name: String, status: TestCaseStatus) -> TestCase {
        TestCase { name, classname: None, properties: Vec::new(), status, system_out: None }
    }

    fn set_classname(&mut self, classname: String) {
        self.classname = Some(classname);
    }

    fn add_property(&mut self, property: Property) {
        self.properties.push(property);
    }

    fn set_system_out(&mut self, text: String) {
        self.system_out = Some(text);
    }
}

/// How a test case ended: its element (none for a success), and that element's attributes and
/// text.
struct TestCaseStatus {
    kind: Kind,
    message: Option<String>,
    ty: Option<String>,
    description: Option<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Success,
    Skipped,
    Failure,
    Error,
}

impl TestCaseStatus {
    fn of(kind: Kind) -> TestCaseStatus {
        TestCaseStatus { kind, message: None, ty: None, description: None }
    }

    fn success() -> TestCaseStatus {
        TestCaseStatus::of(Kind::Success)
    }

    fn skipped() -> TestCaseStatus {
        TestCaseStatus::of(Kind::Skipped)
    }

    fn non_success(kind: Kind) -> TestCaseStatus {
        TestCaseStatus::of(kind)
    }

    fn set_type(&mut self, ty: impl Into<String>) -> &mut TestCaseStatus {
        self.ty = Some(ty.into());
        self
    }

    fn set_message(&mut self, message: impl Into<String>) -> &mut TestCaseStatus {
        self.message = Some(message.into());
        self
    }

    fn set_description(&mut self, description: impl Into<String>) -> &mut TestCaseStatus {
        self.description = Some(description.into());
        self
    }
}

/// XML written with four spaces of indent per level; text keeps its element's end tag on its line.
struct Xml {
    out: String,
    depth: usize,
    line_break: bool,
}

impl Xml {
    fn new() -> Xml {
        let mut xml = Xml { out: String::new(), depth: 0, line_break: false };
        xml.out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        xml.line_break = true;
        xml
    }

    fn indent(&mut self) {
        if self.line_break {
            self.out.push('\n');
            for _ in 0..self.depth {
                self.out.push_str("    ");
            }
        }
    }

    fn tag(&mut self, name: &str, attributes: &[(&str, &str)], empty: bool) {
        self.indent();
        self.out.push('<');
        self.out.push_str(name);
        for (key, value) in attributes {
            self.out.push(' ');
            self.out.push_str(key);
            self.out.push_str("=\"");
            escape_into(&mut self.out, value);
            self.out.push('"');
        }
        self.out.push_str(if empty { "/>" } else { ">" });
        if !empty {
            self.depth += 1;
        }
        self.line_break = true;
    }

    fn start(&mut self, name: &str, attributes: &[(&str, &str)]) {
        self.tag(name, attributes, false);
    }

    fn empty(&mut self, name: &str, attributes: &[(&str, &str)]) {
        self.tag(name, attributes, true);
    }

    fn end(&mut self, name: &str) {
        self.depth -= 1;
        self.indent();
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
        self.line_break = true;
    }

    fn text(&mut self, text: &str) {
        escape_into(&mut self.out, text);
        self.line_break = false;
    }

    fn text_element(&mut self, name: &str, attributes: &[(&str, &str)], text: &str) {
        self.start(name, attributes);
        self.text(text);
        self.end(name);
    }

    fn properties(&mut self, properties: &[Property]) {
        if properties.is_empty() {
            return;
        }
        self.start("properties", &[]);
        for (name, value) in properties {
            self.empty("property", &[("name", name), ("value", value)]);
        }
        self.end("properties");
    }

    fn finish(mut self) -> String {
        self.out.push('\n');
        self.out
    }
}

/// `text` with `<`, `>`, `&`, `'` and `"` escaped, and any control character but a newline
/// dropped, appended to `out`.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\'' => out.push_str("&apos;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push('\n'),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
}

fn write_suite(xml: &mut Xml, suite: &TestSuite) {
    let [tests, skipped, failures, errors] = suite.counts().map(|n| n.to_string());
    let attributes = [
        ("name", suite.name.as_str()),
        ("tests", &tests),
        ("skipped", &skipped),
        ("errors", &errors),
        ("failures", &failures),
    ];
    if suite.properties.is_empty() && suite.cases.is_empty() {
        xml.empty("testsuite", &attributes);
        return;
    }
    xml.start("testsuite", &attributes);
    xml.properties(&suite.properties);
    for case in &suite.cases {
        write_case(xml, case);
    }
    xml.end("testsuite");
}

fn write_case(xml: &mut Xml, case: &TestCase) {
    let mut attributes = vec![("name", case.name.as_str())];
    if let Some(classname) = &case.classname {
        attributes.push(("classname", classname));
    }
    let status = &case.status;
    if case.properties.is_empty() && case.system_out.is_none() && status.kind == Kind::Success {
        xml.empty("testcase", &attributes);
        return;
    }
    xml.start("testcase", &attributes);
    xml.properties(&case.properties);
    let element = match status.kind {
        Kind::Success => None,
        Kind::Skipped => Some("skipped"),
        Kind::Failure => Some("failure"),
        Kind::Error => Some("error"),
    };
    if let Some(element) = element {
        let mut attributes = Vec::new();
        if let Some(message) = &status.message {
            attributes.push(("message", message.as_str()));
        }
        if let Some(ty) = &status.ty {
            attributes.push(("type", ty.as_str()));
        }
        match &status.description {
            Some(description) => xml.text_element(element, &attributes, description),
            None => xml.empty(element, &attributes),
        }
    }
    if let Some(text) = &case.system_out {
        xml.text_element("system-out", &[], text);
    }
    xml.end("testcase");
}

/// The report as JUnit XML.
pub fn render(report: &Report) -> String {
    let i = &report.implementation;
    let name = one_line(&format!("{} {} against {} {}", report.suite.name, report.suite.version, i.name, i.version));
    let mut suites = Vec::new();
    for rule in &report.standing.rules {
        let mut suite = TestSuite::new(one_line(&rule.rule));
        suite.add_property(property("title", &rule.title));
        suite.add_property(property("verdict", rule.verdict.as_str()));
        suite.add_property(property("suite-version", &report.suite.version));
        if let Some(corpus) = &report.suite.corpus {
            suite.add_property(property("corpus-digest", &corpus.digest));
        }
        suite.add_property(property("implementation", &format!("{} {}", i.name, i.version)));
        for outcome in report.cases.iter().filter(|o| o.rule == rule.rule) {
            suite.add_test_case(test_case(report, outcome));
        }
        suites.push(suite);
    }
    if let Some(triage) = &report.expected_failures {
        let mut suite = TestSuite::new("expected-failures");
        for stale in &triage.stale {
            let mut status = TestCaseStatus::non_success(Kind::Failure);
            status.set_type("stale-entry");
            status.set_message(one_line(&format!("listed as expected to fail, but passes: {}", stale.entry.reason)));
            status.set_description(multi_line(&format!(
                "Remove the entry for {}: these cases ran and none failed:\n{}",
                stale.entry.subject,
                stale.passing.join("\n")
            )));
            suite.add_test_case(TestCase::new(one_line(&stale.entry.subject.to_string()), status));
        }
        suites.push(suite);
    }
    let mut totals = [0; 4];
    for suite in &suites {
        for (total, count) in totals.iter_mut().zip(suite.counts()) {
            *total += count;
        }
    }
    let [tests, skipped, failures, errors] = totals.map(|n| n.to_string());
    let mut xml = Xml::new();
    xml.start(
        "testsuites",
        &[("name", &name), ("tests", &tests), ("skipped", &skipped), ("failures", &failures), ("errors", &errors)],
    );
    for suite in &suites {
        write_suite(&mut xml, suite);
    }
    xml.end("testsuites");
    xml.finish()
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
            let mut status = TestCaseStatus::non_success(Kind::Error);
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
                Status::Fail(_) => (Kind::Failure, "fail"),
                _ => (Kind::Error, "error"),
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
fn property(name: &'static str, value: &str) -> Property {
    (name, one_line(value))
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
