//! The five kinds of report file on real runs: `run --report` writes them all, byte-identical
//! from one run to the next; standing.json validates against schemas/report.schema.json (and the
//! schema refuses what it should); an independent JUnit parser reads junit.xml back; badges are
//! shields.io endpoints; `compare` finds regressions and progressions between two standings.

use serde_json::{Value, json};
use std::path::Path;
use tool_conformance::report::{Report, badge, json::REPORT_SCHEMA, junit};
use tool_conformance::run::run;
use tool_conformance::{Corpus, Implementation, Invocation, Reference, Selection, Target, TargetError, Tool};
use tool_conformance::{Level, Status, Transport, View};
use crate::util::{text, tool};

/// The reference with two defects: entity references are left as sent (so RT-TOOL-8 cases fail),
/// and the `structured` transport cannot answer (so PLAT-162 cases error).
struct Flawed(Reference);

impl Target for Flawed {
    fn start(&mut self) -> Result<Implementation, TargetError> {
        let mut implementation = self.0.start()?;
        implementation.name = "flawed reference".into();
        Ok(implementation)
    }
    fn normalize(&mut self, input_schema: &Value, arguments: &Value) -> Result<Value, TargetError> {
        let normalized = self.0.normalize(input_schema, arguments)?;
        Ok(if arguments.to_string().contains('&') { arguments.clone() } else { normalized })
    }
    fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
        self.0.register(tools)
    }
    fn describe(&mut self, tool: &str, view: View) -> Result<Value, TargetError> {
        self.0.describe(tool, view)
    }
    fn invoke(&mut self, tool: &str, transport: Transport, arguments: &Value) -> Result<Invocation, TargetError> {
        if transport == Transport::Structured {
            return Err(TargetError::Broken("the structured transport closed the connection".into()));
        }
        self.0.invoke(tool, transport, arguments)
    }
}

fn corpus() -> Corpus {
    Corpus::embedded().unwrap_or_else(|errors| panic!("{errors}"))
}

fn flawed_report(corpus: &Corpus) -> Report {
    Report::for_corpus(corpus, &run(corpus, &Selection::all(), &mut Flawed(Reference::new())))
}

fn reference_report(corpus: &Corpus) -> Report {
    Report::for_corpus(corpus, &run(corpus, &Selection::all(), &mut Reference::new()))
}

fn validator() -> jsonschema::Validator {
    let schema: Value = tool_conformance::json::from_str(REPORT_SCHEMA).expect("the schema is JSON");
    jsonschema::draft202012::new(&tool_conformance::json::to_serde(&schema)).expect("the schema compiles")
}

fn assert_valid(validator: &jsonschema::Validator, what: &str, document: &Value) {
    let document = tool_conformance::json::to_serde(document);
    let errors: Vec<String> =
        validator.iter_errors(&document).take(5).map(|e| format!("{e} at {}", e.instance_path().as_str())).collect();
    assert!(errors.is_empty(), "{what} does not validate against schemas/report.schema.json:\n{}", errors.join("\n"));
}

fn run_report_writes_every_kind_of_file_byte_identical_from_run_to_run() {
    let out = tempfile::tempdir().unwrap();
    let (first, second) = (out.path().join("first"), out.path().join("second"));
    for dir in [&first, &second] {
        let output = tool(&["run", "--rule", "PLAT-162", "--report", dir.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    }
    let mut names: Vec<String> =
        std::fs::read_dir(&first).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(
        names,
        ["badge-PLAT-162.json", "badge-RT-TOOL-8.json", "junit.xml", "standing.html", "standing.json", "standing.md"]
    );
    for name in &names {
        let (a, b) = (std::fs::read(first.join(name)).unwrap(), std::fs::read(second.join(name)).unwrap());
        assert!(a == b, "{name} differs between two runs of the same implementation and corpus");
    }
    let validator = validator();
    let written: Value =
        tool_conformance::json::from_str(&std::fs::read_to_string(first.join("standing.json")).unwrap()).unwrap();
    assert_valid(&validator, "the standing.json that run --report wrote", &written);
    assert!(written["suite"]["corpus"]["digest"].as_str().unwrap().starts_with("sha256:"));
}

fn reports_have_no_timestamps_and_do_not_depend_on_the_run() {
    let corpus = corpus();
    let (one, two) = (flawed_report(&corpus).files(), flawed_report(&corpus).files());
    assert_eq!(one, two, "two runs of the same implementation give different files");
    let seconds = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let year = 1970 + seconds / 31_556_952;
    for (name, contents) in &one {
        for marker in ["timestamp=", "time=\"", "Generated at", &format!("{year}-")] {
            assert!(!contents.contains(marker), "{name} contains {marker:?}, which looks like a time");
        }
    }
}

fn standing_json_validates_against_its_schema_and_the_schema_has_teeth() {
    let validator = validator();
    let corpus = corpus();
    for (what, report) in
        [("the reference's standing", reference_report(&corpus)), ("a flawed standing", flawed_report(&corpus))]
    {
        let document: Value =
            tool_conformance::json::from_str(&tool_conformance::report::json::render(&report)).unwrap();
        assert_valid(&validator, what, &document);
    }
    let flawed = flawed_report(&corpus);
    let file = tool_conformance::standing::expectations::ExpectedFailures::parse(
        Path::new("xfail.yaml"),
        "- clause: RT-TOOL-8.4\n  reason: single pass\n- case: PLAT-162/one-schema/closed-by-default-published-as-registered\n  reason: stale\n",
    )
    .unwrap();
    let triaged = flawed.clone().triaged(&file);
    let document: Value = tool_conformance::json::from_str(&tool_conformance::report::json::render(&triaged)).unwrap();
    assert!(document["expected_failures"]["expected"].as_array().is_some_and(|a| !a.is_empty()));
    assert_valid(&validator, "a standing with expected failures", &document);
    let fixture: Value = tool_conformance::json::from_str(include_str!("../fixtures/report.json"))
        .expect("tests/fixtures/report.json is JSON");
    assert_valid(&validator, "tests/fixtures/report.json", &fixture);

    let failing = document["cases"].as_array().unwrap().iter().position(|c| c["status"] == "fail").unwrap();
    type Damage = fn(&mut Value, usize);
    let broken: [(&str, Damage); 5] = [
        ("no corpus digest", |d, _| {
            d["suite"].as_object_mut().unwrap().remove("corpus");
        }),
        ("a failure without its diff", |d, i| {
            d["cases"][i].as_object_mut().unwrap().remove("diff");
        }),
        ("an unknown status", |d, i| d["cases"][i]["status"] = json!("flaky")),
        ("a field no case has", |d, i| d["cases"][i]["colour"] = json!("red")),
        ("an unknown verdict", |d, _| d["standing"]["rules"][0]["verdict"] = json!("mostly")),
    ];
    for (what, damage) in broken {
        let mut bad = document.clone();
        damage(&mut bad, failing);
        assert!(!validator.is_valid(&tool_conformance::json::to_serde(&bad)), "the schema accepts {what}");
    }
}

fn an_independent_junit_parser_reads_junit_xml_back() {
    let corpus = corpus();
    let report = flawed_report(&corpus);
    let xml = junit::render(&report);
    let suites = junit_parser::from_reader(std::io::Cursor::new(xml.as_bytes())).expect("junit-parser reads junit.xml");
    let rules: Vec<&str> = report.standing.rules.iter().map(|r| r.rule.as_str()).collect();
    let names: Vec<&str> = suites.suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, rules, "one testsuite per rule, in catalog order");
    let count = |f: &dyn Fn(&tool_conformance::Outcome) -> bool| report.cases.iter().filter(|o| f(o)).count() as u64;
    let required = |o: &tool_conformance::Outcome| o.level == Level::Required;
    let fails = count(&|o| required(o) && matches!(o.status, Status::Fail(_)));
    let errors = count(&|o| required(o) && matches!(o.status, Status::Error { .. }));
    assert!(fails > 0 && errors > 0, "the flawed reference should fail and error: {fails} {errors}");
    assert_eq!(suites.tests, report.cases.len() as u64);
    assert_eq!(suites.failures, fails);
    assert_eq!(suites.errors, errors);
    let mut ids = Vec::new();
    for suite in &suites.suites {
        for case in &suite.cases {
            ids.push(case.original_name.clone());
            let outcome = report.cases.iter().find(|o| o.id == case.original_name).expect("every testcase is a case");
            assert_eq!(case.classname.as_deref(), Some(outcome.id.rsplit_once('/').unwrap().0));
            assert_eq!(case.properties.hashmap.get("level").map(String::as_str), Some(outcome.level.as_str()));
            match (&outcome.status, outcome.level) {
                (Status::Fail(f), Level::Required) => {
                    let failure = case.status.failure_as_ref();
                    assert!(failure.text.contains(f.diff.trim()), "the failure of {} carries its diff", outcome.id);
                    assert!(failure.message.contains(&f.check), "{}", failure.message);
                }
                (Status::Error { reason }, Level::Required) => {
                    let error = case.status.error_as_ref();
                    assert!(error.text.contains(reason.trim()), "the error of {} carries its reason", outcome.id);
                }
                (Status::Fail(_) | Status::Error { .. }, _) => {
                    assert!(case.status.is_skipped(), "{}: a non-required failure does not fail the run", outcome.id)
                }
                (Status::Skip { .. }, Level::Required) => {
                    assert!(case.status.is_error(), "{}: a declined required case fails the run", outcome.id)
                }
                (Status::Skip { .. } | Status::NotApplicable { .. }, _) => {
                    assert!(case.status.is_skipped(), "{}", outcome.id)
                }
                (Status::Pass | Status::Observed(_), _) => assert!(case.status.is_success(), "{}", outcome.id),
            }
        }
    }
    let expected: Vec<String> = report.cases.iter().map(|o| o.id.clone()).collect();
    let mut sorted_ids = ids.clone();
    sorted_ids.sort();
    let mut sorted_expected = expected.clone();
    sorted_expected.sort();
    assert_eq!(sorted_ids, sorted_expected, "one testcase per case");
}

fn badges_are_shields_io_endpoints() {
    let corpus = corpus();
    // The flawed target fails RT-TOOL-8 cases (does not conform: red) and breaks on structured
    // calls, so PLAT-162 has errors but no failure (incomplete: yellow).
    let verdicts = |report: &Report| report.standing.rules.iter().map(|r| r.verdict.as_str()).collect::<Vec<_>>();
    assert_eq!(verdicts(&flawed_report(&corpus)), ["does not conform", "incomplete"]);
    for (report, colors) in
        [(reference_report(&corpus), ["brightgreen", "brightgreen"]), (flawed_report(&corpus), ["red", "yellow"])]
    {
        let badges = badge::render(&report);
        assert_eq!(badges.len(), report.standing.rules.len());
        for (((name, text), rule), color) in badges.iter().zip(&report.standing.rules).zip(colors) {
            assert_eq!(name, &format!("badge-{}.json", rule.rule));
            let badge: Value = tool_conformance::json::from_str(text).unwrap();
            let keys: Vec<&str> = badge.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(keys, ["schemaVersion", "label", "message", "color"]);
            assert_eq!(badge["schemaVersion"], 1);
            assert_eq!(badge["label"], rule.rule.as_str());
            assert_eq!(badge["color"], color);
            assert!(badge["message"].as_str().unwrap().starts_with(rule.verdict.as_str()), "{badge}");
        }
    }
}

fn compare_finds_regressions_and_progressions_and_exits_1_on_a_regression() {
    let corpus = corpus();
    let dir = tempfile::tempdir().unwrap();
    let (good, bad) = (dir.path().join("good.json"), dir.path().join("bad.json"));
    std::fs::write(&good, tool_conformance::report::json::render(&reference_report(&corpus))).unwrap();
    std::fs::write(&bad, tool_conformance::report::json::render(&flawed_report(&corpus))).unwrap();
    let (good, bad) = (good.to_str().unwrap(), bad.to_str().unwrap());

    let worse = tool(&["compare", good, bad]);
    let printed = text(&worse);
    assert_eq!(worse.status.code(), Some(1), "{printed}");
    assert!(printed.contains("regressions:\n  RT-TOOL-8 (verdict): conforms -> does not conform\n"), "{printed}");
    assert!(printed.contains("(required): pass -> fail\n"), "{printed}");
    assert!(printed.contains("(required): pass -> error\n"), "{printed}");
    assert!(
        printed.contains("implementation: tool-conformance reference 0.1.0 -> flawed reference 0.1.0"),
        "{printed}"
    );
    assert!(!printed.contains('\u{1b}'), "no colors when piped: {printed}");

    let better = tool(&["compare", bad, good]);
    let printed = text(&better);
    assert_eq!(better.status.code(), Some(0), "{printed}");
    assert!(printed.contains("0 regressions:"), "{printed}");
    assert!(printed.contains("(required): fail -> pass\n"), "{printed}");

    let colored = tool(&["--color", "always", "compare", bad, good]);
    assert!(String::from_utf8_lossy(&colored.stdout).contains('\u{1b}'), "--color always colors");

    assert_eq!(tool(&["compare", good, good]).status.code(), Some(0));
    let missing = tool(&["compare", good, "no-such-standing.json"]);
    assert_eq!(missing.status.code(), Some(2), "{}", text(&missing));
    assert!(text(&missing).contains("no-such-standing.json"), "{}", text(&missing));
}

tests![
    run_report_writes_every_kind_of_file_byte_identical_from_run_to_run,
    reports_have_no_timestamps_and_do_not_depend_on_the_run,
    standing_json_validates_against_its_schema_and_the_schema_has_teeth,
    an_independent_junit_parser_reads_junit_xml_back,
    badges_are_shields_io_endpoints,
    compare_finds_regressions_and_progressions_and_exits_1_on_a_regression,
];
