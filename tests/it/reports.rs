//! Every reporter on one fixed set of outcomes, against expected output in tests/fixtures/.
//! Run with `UPDATE_FIXTURES=1` to rewrite the fixtures after a deliberate change, then read the
//! diff. Under CI (`CI` set) fixtures are never rewritten: `UPDATE_FIXTURES` there fails the test.

use serde_json::json;
use std::path::PathBuf;
use tool_conformance::judge::outcome::{Failure, Observation};
use tool_conformance::report::{Report, Suite, badge, html, json as json_report, junit, markdown, terminal};
use tool_conformance::standing::digest::CorpusDigest;
use tool_conformance::{Corpus, Implementation, Level, Outcome, Standing, Status, Transport};

fn outcome(id: &str, level: Level, clauses: &[&str], status: Status) -> Outcome {
    Outcome {
        id: id.into(),
        rule: id.split('/').next().unwrap().into(),
        clauses: clauses.iter().map(|c| c.to_string()).collect(),
        level,
        summary: format!("Summary of {id}."),
        note: (level != Level::Required).then(|| "The reading taken.".to_string()),
        location: format!("{}.yaml:3:9", id.rsplit_once('/').unwrap().0),
        status,
        readings: Vec::new(),
        checks: Vec::new(),
    }
}

/// `outcome` with the required checks it made: each a check kind, the behaviour it shows and
/// its result.
fn checked(mut outcome: Outcome, checks: &[(&str, &str, &str)]) -> Outcome {
    outcome.checks = checks
        .iter()
        .map(|(check, behaviour, result)| {
            serde_json::from_value(json!({"check": check, "behaviour": behaviour, "result": result})).unwrap()
        })
        .collect();
    outcome
}

fn fixed_report() -> Report {
    let catalog = Corpus::from_files(vec![
        (PathBuf::from("PLAT-162/rule.yaml"), include_str!("../../cases/PLAT-162/rule.yaml").to_string()),
        (PathBuf::from("RT-TOOL-8/rule.yaml"), include_str!("../../cases/RT-TOOL-8/rule.yaml").to_string()),
    ])
    .unwrap()
    .catalog;
    let implementation = Implementation {
        name: "example <runtime> | `x`".into(),
        version: "1.2.3".into(),
        language: Some("python".into()),
        homepage: None,
        rules: vec!["RT-TOOL-8".into()],
        transports: vec![Transport::Direct, Transport::Http],
        tool_name: None,
        answered: None,
        spec_pointer: "get_api_spec".into(),
    };
    let cases = vec![
        checked(
            outcome("RT-TOOL-8/a/passes", Level::Required, &["RT-TOOL-8.2"], Status::Pass),
            &[("arguments-reaching-tool", "json-decoded", "pass")],
        ),
        checked(
            outcome(
                "RT-TOOL-8/a/fails",
                Level::Required,
                &["RT-TOOL-8.4", "RT-TOOL-8.5"],
                Status::Fail(Failure::new(
                    "arguments reaching the tool",
                    json!({"title": "Ember & Oak", "n": 1}),
                    json!({"title": "Ember &amp; Oak", "n": 1}),
                )),
            ),
            &[("arguments-reaching-tool", "references-decoded", "fail")],
        ),
        outcome(
            "RT-TOOL-8/a/breaks",
            Level::Interpretation,
            &["RT-TOOL-8.4"],
            Status::Error { reason: "the implementation closed stdout\nlast stderr: ```boom```".into() },
        ),
        outcome(
            "RT-TOOL-8/b/seen",
            Level::Informational,
            &["RT-TOOL-8.4"],
            Status::Observed(Observation { behaviour: Some("two-passes".into()), actual: json!({"t": "&lt;"}) }),
        ),
        outcome(
            "RT-TOOL-8/b/other",
            Level::Informational,
            &["RT-TOOL-8.2"],
            Status::Observed(Observation { behaviour: None, actual: json!(1) }),
        ),
        checked(
            outcome(
                "PLAT-162/c/skipped",
                Level::Required,
                &["PLAT-162.closed-root"],
                Status::NotApplicable { reason: "PLAT-162 is not claimed".into() },
            ),
            &[
                ("handler-not-run", "root-closed", "not_applicable"),
                ("problems-named", "names-every-problem", "not_applicable"),
            ],
        ),
        checked(
            outcome(
                "RT-TOOL-8/a/declined",
                Level::Required,
                &["RT-TOOL-8.3"],
                Status::Skip { reason: "unsupported: a schema the runtime cannot express".into() },
            ),
            &[("arguments-reaching-tool", "left-as-sent", "skip")],
        ),
    ];
    let corpus = CorpusDigest::of_files([
        ("RT-TOOL-8/rule.yaml".to_string(), &b"id: RT-TOOL-8\n"[..]),
        ("RT-TOOL-8/a.yaml".to_string(), &b"groups: []\n"[..]),
    ]);
    Report {
        suite: Suite { name: "tool-conformance".into(), version: "0.0.0-test".into(), corpus: Some(corpus) },
        standing: Standing::new(&catalog, &implementation, &cases),
        behaviours: tool_conformance::standing::behaviours::tally(&catalog, &cases),
        implementation,
        cases,
        expected_failures: None,
        sent: Default::default(),
    }
}

fn expect(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        assert!(
            std::env::var_os("CI").is_none(),
            "UPDATE_FIXTURES is set under CI: fixtures are never rewritten there; unset it to compare {name}"
        );
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing {}; run with UPDATE_FIXTURES=1", path.display()));
    if expected != actual {
        let diff = similar::TextDiff::from_lines(expected.as_str(), actual)
            .unified_diff()
            .header("expected", "actual")
            .to_string();
        panic!("{name} differs from its fixture:\n{diff}");
    }
}

fn terminal_output() {
    expect("report.txt", &terminal::render(&fixed_report()));
}

fn markdown_output() {
    expect("report.md", &markdown::render(&fixed_report()));
}

fn json_output() {
    expect("report.json", &json_report::render(&fixed_report()));
}

fn junit_output() {
    expect("junit.xml", &junit::render(&fixed_report()));
}

fn html_output() {
    expect("standing.html", &html::render(&fixed_report()));
}

fn badge_output() {
    let badges = badge::render(&fixed_report());
    let names: Vec<&str> = badges.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["badge-RT-TOOL-8.json", "badge-PLAT-162.json"]);
    expect("badge-RT-TOOL-8.json", &badges[0].1);
}

/// The fixed report seen through an expected-failures file: one listed failure, one stale entry,
/// and the interpretation error, which fails nothing.
fn triaged_report() -> Report {
    let report = fixed_report();
    let file = tool_conformance::standing::expectations::ExpectedFailures::parse(
        std::path::Path::new("expected-failures.yaml"),
        "- case: RT-TOOL-8/a/fails\n  reason: We decode once (issue 12).\n- clause: RT-TOOL-8.2\n  reason: Fixed since.\n",
    )
    .expect("the file parses");
    report.triaged(&file)
}

fn expected_failures_in_every_format() {
    let report = triaged_report();
    expect("expected-failures.txt", &terminal::render(&report));
    expect("expected-failures.md", &markdown::render(&report));
    expect("expected-failures.junit.xml", &junit::render(&report));
    let json = json_report::render(&report);
    assert!(json.contains("\"expected_failures\": {"), "{json}");
    assert!(report.fails_run(), "the stale entry fails the run");
    assert!(html::render(&report).contains("expected failure"));
}

fn the_standing_counts_and_verdicts() {
    let report = fixed_report();
    let rt = &report.standing.rules[0];
    assert_eq!(rt.verdict.as_str(), "does not conform");
    assert_eq!(rt.totals.total(Level::Required), 3);
    // A skip is never in a pass fraction's denominator.
    assert_eq!(tool_conformance::report::cell(&rt.totals, Level::Required), "1/2, 1 fail, 1 skip");
    let plat = &report.standing.rules[1];
    assert_eq!(plat.verdict.as_str(), "not claimed");
    let closed = plat.clauses.iter().find(|c| c.clause == "PLAT-162.closed-root").unwrap();
    assert_eq!(tool_conformance::report::cell(&closed.counts, Level::Required), "1 n/a");
    let clause_4 = rt.clauses.iter().find(|c| c.clause == "RT-TOOL-8.4").unwrap();
    assert_eq!(tool_conformance::report::cell(&clause_4.counts, Level::Required), "0/1, 1 fail");
    assert_eq!(tool_conformance::report::cell(&clause_4.counts, Level::Interpretation), "0/1, 1 error");
    assert_eq!(tool_conformance::report::cell(&clause_4.counts, Level::Informational), "1 seen");
}


/// The rows of the first table under the heading `heading` of `markdown`, as a CommonMark (GFM
/// tables) parser reads them: each row's cells as plain text.
fn table_after(markdown: &str, heading: &str) -> Vec<Vec<String>> {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let (mut seen, mut rows, mut in_heading, mut heading_text) = (false, Vec::new(), false, String::new());
    let mut row: Vec<String> = Vec::new();
    let mut cell: Option<String> = None;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Heading { .. }) => (in_heading, heading_text) = (true, String::new()),
            Event::End(TagEnd::Heading(_)) => {
                in_heading = false;
                if heading_text == heading {
                    seen = true;
                }
            }
            Event::Text(t) | Event::Code(t) if in_heading => heading_text.push_str(&t),
            Event::Start(Tag::TableCell) if seen => cell = Some(String::new()),
            Event::Text(t) | Event::Code(t) if cell.is_some() => cell.as_mut().unwrap().push_str(&t),
            Event::End(TagEnd::TableCell) if seen => row.push(cell.take().unwrap_or_default()),
            Event::End(TagEnd::TableRow | TagEnd::TableHead) if seen => rows.push(std::mem::take(&mut row)),
            Event::End(TagEnd::Table) if seen => return rows,
            _ => {}
        }
    }
    rows
}

fn the_behaviour_table_has_the_expected_cells() {
    let report = fixed_report();
    let rows = table_after(&markdown::render(&report), "What it does");
    let cells = |sentence_start: &str| -> Vec<String> {
        rows.iter().find(|r| r[1].starts_with(sentence_start)).unwrap_or_else(|| panic!("{sentence_start}: {rows:?}"))
            [2..]
            .to_vec()
    };
    assert_eq!(rows[0], ["rule", "behaviour", "", "share", "measured over"]);
    assert_eq!(cells("A JSON array"), ["always", "100%", "1 of 1 checks"]);
    assert_eq!(cells("HTML character references"), ["never", "0%", "0 of 1 checks"]);
    assert_eq!(cells("A string for a string"), ["never", "0%", "0 of 1 checks (1 declined)"]);
    assert_eq!(cells("Names the schema does not declare"), ["not measured", "-", "0 of 0 checks (1 not applicable)"]);
    assert_eq!(cells("An invalid call"), ["not measured", "-", "0 of 0 checks"]);
    // Every behaviour of both rules has its row, in catalog order (RT-TOOL-8's first).
    assert_eq!(rows.len(), 1 + report.behaviours.len());
    assert_eq!(report.behaviours.len(), 13);
    // The terminal opens with the same shares, before the first rule's clause table.
    let text = terminal::render(&report);
    let behaviours = text.find("What it does").expect("the terminal shows the behaviours");
    assert!(behaviours < text.find("RT-TOOL-8: ").unwrap(), "{text}");
    assert!(text.contains("never          0%  HTML character references"), "{text}");
}

tests![
    terminal_output,
    markdown_output,
    json_output,
    junit_output,
    html_output,
    badge_output,
    expected_failures_in_every_format,
    the_standing_counts_and_verdicts,
    the_behaviour_table_has_the_expected_cells,
];
