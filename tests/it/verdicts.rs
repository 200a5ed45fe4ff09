//! Verdicts that cannot be had by declining: implementations that answer `unsupported` to
//! everything, or only to the requests that would show a defect, never read *conforms*, never get
//! a green badge, and fail the run; a selection gives no verdict badge for a rule it does not
//! cover whole; and an expected-failures file that lists each declined case with `status: skip`
//! lets the run pass while the rule still reads *incomplete*.

use serde_json::Value;
use std::path::Path;
use tool_conformance::Verdict;
use tool_conformance::report::{Report, badge};
use tool_conformance::run::run;
use tool_conformance::standing::expectations::ExpectedFailures;
use tool_conformance::{
    Corpus, Implementation, Invocation, Reference, Selection, Target, TargetError, Tool, Transport, View,
};

fn corpus() -> Corpus {
    Corpus::embedded().unwrap_or_else(|errors| panic!("{errors}"))
}

fn report(target: &mut dyn Target) -> Report {
    let corpus = corpus();
    Report::for_corpus(&corpus, &run(&corpus, &Selection::all(), target))
}

fn verdicts(report: &Report) -> Vec<Verdict> {
    report.standing.rules.iter().map(|r| r.verdict).collect()
}

fn no_green_badge(report: &Report) {
    for (name, text) in badge::render(report) {
        let badge: Value = tool_conformance::json::from_str(&text).unwrap();
        assert_ne!(badge["color"], "brightgreen", "{name}: {badge}");
    }
}

/// Claims both rules on every transport, then declines every request.
struct DeclinesEverything;

impl Target for DeclinesEverything {
    fn start(&mut self) -> Result<Implementation, TargetError> {
        let mut implementation = Reference::new().start()?;
        implementation.name = "declines everything".into();
        Ok(implementation)
    }
    fn normalize(&mut self, _: &Value, _: &Value) -> Result<Value, TargetError> {
        Err(TargetError::Unsupported("no".into()))
    }
    fn register(&mut self, _: &[Tool]) -> Result<(), TargetError> {
        Err(TargetError::Unsupported("no".into()))
    }
    fn describe(&mut self, _: &str, _: View) -> Result<Value, TargetError> {
        Err(TargetError::Unsupported("no".into()))
    }
    fn invoke(&mut self, _: &str, _: Transport, _: &Value) -> Result<Invocation, TargetError> {
        Err(TargetError::Unsupported("no".into()))
    }
}

/// The reference, except that it declines to register any tool for which `declines` holds, and
/// to normalize against such a schema: the requests that would show a defect it hides.
struct Hides {
    inner: Reference,
    declines: fn(&Value) -> bool,
}

impl Target for Hides {
    fn start(&mut self) -> Result<Implementation, TargetError> {
        self.inner.start()
    }
    fn normalize(&mut self, schema: &Value, arguments: &Value) -> Result<Value, TargetError> {
        if (self.declines)(schema) {
            return Err(TargetError::Unsupported("this schema".into()));
        }
        self.inner.normalize(schema, arguments)
    }
    fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
        if tools.iter().any(|t| (self.declines)(&t.input_schema)) {
            return Err(TargetError::Unsupported("these tools".into()));
        }
        self.inner.register(tools)
    }
    fn describe(&mut self, tool: &str, view: View) -> Result<Value, TargetError> {
        self.inner.describe(tool, view)
    }
    fn invoke(&mut self, tool: &str, transport: Transport, arguments: &Value) -> Result<Invocation, TargetError> {
        self.inner.invoke(tool, transport, arguments)
    }
}

/// A default-closed root: a tool whose schema does not declare additionalProperties.
fn closed_by_default(schema: &Value) -> bool {
    schema.get("additionalProperties").is_none()
}

/// A schema with an enum anywhere in it.
fn has_enum(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.contains_key("enum") || map.values().any(has_enum),
        Value::Array(items) => items.iter().any(has_enum),
        _ => false,
    }
}

fn declining_everything_is_incomplete_and_fails_the_run() {
    let report = report(&mut DeclinesEverything);
    assert_eq!(verdicts(&report), [Verdict::Incomplete, Verdict::Incomplete]);
    assert!(report.fails_run());
    no_green_badge(&report);
}

fn hiding_an_open_root_or_a_missing_enum_check_behind_unsupported_is_incomplete() {
    for declines in [closed_by_default as fn(&Value) -> bool, has_enum] {
        let report = report(&mut Hides { inner: Reference::new(), declines });
        assert!(verdicts(&report).contains(&Verdict::Incomplete), "{:?}", verdicts(&report));
        assert!(!verdicts(&report).contains(&Verdict::DoesNotConform), "nothing failed");
        assert!(report.fails_run());
        no_green_badge(&report);
    }
}

fn declined_cases_listed_with_status_skip_let_the_run_pass_and_the_rule_stays_incomplete() {
    let report = report(&mut Hides { inner: Reference::new(), declines: has_enum });
    let skipped: Vec<String> = report
        .cases
        .iter()
        .filter(|o| o.level == tool_conformance::Level::Required && o.status.kind().as_str() == "skip")
        .map(|o| o.id.clone())
        .collect();
    assert!(!skipped.is_empty());
    let entries: String = skipped.iter().map(|id| format!("- case: {id}\n  status: skip\n  reason: enums\n")).collect();
    let listed = ExpectedFailures::parse(Path::new("x.yaml"), &entries).unwrap();
    let triaged = report.clone().triaged(&listed);
    assert!(!triaged.fails_run(), "{:?}", triaged.expected_failures);
    assert!(verdicts(&triaged).contains(&Verdict::Incomplete));
    // The same cases listed as failures do not excuse the skips, and say they are stale.
    let as_failures = ExpectedFailures::parse(Path::new("x.yaml"), &entries.replace("  status: skip\n", "")).unwrap();
    let triaged = report.triaged(&as_failures);
    let triage = triaged.expected_failures.as_ref().unwrap();
    assert!(triaged.fails_run());
    assert_eq!(triage.stale.len(), skipped.len());
    assert!(triage.stale.iter().all(|s| s.now == "now skips"));
}

fn a_partial_selection_gives_no_verdict_badge() {
    let corpus = corpus();
    let one = Selection::new(Vec::new(), Vec::new(), vec!["RT-TOOL-8/examples/doubly-escaped-title".into()]).unwrap();
    let report = Report::for_corpus(&corpus, &run(&corpus, &one, &mut Reference::new()));
    let rt = &report.standing.rules[0];
    assert!(!rt.whole);
    assert_eq!(rt.headline(), "conforms (partial selection)");
    no_green_badge(&report);
    assert!(!report.fails_run(), "what was selected passed");
    let whole = Report::for_corpus(&corpus, &run(&corpus, &Selection::all(), &mut Reference::new()));
    assert!(whole.standing.rules.iter().all(|r| r.whole && r.verdict == Verdict::Conforms));
}

fn a_claimed_rule_with_no_applicable_transport_is_incomplete() {
    /// The reference, claiming PLAT-162 on no transport at all.
    struct NoTransport(Reference);
    impl Target for NoTransport {
        fn start(&mut self) -> Result<Implementation, TargetError> {
            let mut implementation = self.0.start()?;
            implementation.transports.clear();
            Ok(implementation)
        }
        fn normalize(&mut self, schema: &Value, arguments: &Value) -> Result<Value, TargetError> {
            self.0.normalize(schema, arguments)
        }
        fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
            self.0.register(tools)
        }
        fn describe(&mut self, tool: &str, view: View) -> Result<Value, TargetError> {
            self.0.describe(tool, view)
        }
        fn invoke(&mut self, tool: &str, transport: Transport, arguments: &Value) -> Result<Invocation, TargetError> {
            self.0.invoke(tool, transport, arguments)
        }
    }
    let report = report(&mut NoTransport(Reference::new()));
    let plat = &report.standing.rules[1];
    assert_eq!(plat.verdict, Verdict::Incomplete);
    assert!(plat.unjudged_clauses.contains(&"PLAT-162.before-handler".to_string()), "{:?}", plat.unjudged_clauses);
    assert!(report.fails_run());
}

tests![
    declining_everything_is_incomplete_and_fails_the_run,
    hiding_an_open_root_or_a_missing_enum_check_behind_unsupported_is_incomplete,
    declined_cases_listed_with_status_skip_let_the_run_pass_and_the_rule_stays_incomplete,
    a_partial_selection_gives_no_verdict_badge,
    a_claimed_rule_with_no_applicable_transport_is_incomplete,
];
