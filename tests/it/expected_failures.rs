//! `run --expected-failures FILE` end to end: a listed failure (by case or by clause) does not
//! fail the run, a listed case that passes fails it as stale, a failure not listed fails it, and
//! a file that names what the corpus does not have, or that the schema refuses, is bad usage.
//! The corpus is a copy of cases/ with two expectations made wrong, so that the reference fails
//! exactly those two cases.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use crate::util::text;

const ESCAPED: &str = "RT-TOOL-8/examples/doubly-escaped-title";
const ARRAY: &str = "RT-TOOL-8/examples/object-text-for-array";

fn tool(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tool-conformance")).args(args).env_remove("NO_COLOR").output().expect("run")
}

/// A copy of cases/ in which the reference fails ESCAPED and ARRAY.
fn failing_corpus() -> tempfile::TempDir {
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cases");
    let dir = tempfile::tempdir().expect("temp dir");
    for entry in walkdir::WalkDir::new(&source) {
        let entry = entry.expect("walk");
        let target = dir.path().join(entry.path().strip_prefix(&source).expect("under cases"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
    let file = dir.path().join("RT-TOOL-8/examples.yaml");
    let mut yaml = std::fs::read_to_string(&file).expect("read");
    for (from, to) in [
        ("expected: { title: \"Ember & Oak\" }", "expected: { title: \"Ember &amp; Oak\" }"),
        ("expected: { ops: \"{\\\"op\\\":\\\"add\\\"}\" }", "expected: { ops: \"changed\" }"),
    ] {
        assert!(yaml.contains(from), "examples.yaml no longer holds {from}");
        yaml = yaml.replacen(from, to, 1);
    }
    std::fs::write(&file, yaml).expect("write");
    dir
}

/// Runs the RT-TOOL-8 cases of `corpus` with `entries` as the expected-failures file and a
/// report directory; the output and the report directory.
fn run_with(corpus: &Path, entries: &str) -> (Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("expected-failures.yaml");
    std::fs::write(&file, entries).expect("write the file");
    let report = dir.path().join("report");
    let output = tool(&[
        "run",
        "--cases",
        corpus.to_str().unwrap(),
        "--rule",
        "RT-TOOL-8",
        "--expected-failures",
        file.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    (output, dir)
}

fn without_a_file_the_two_failures_fail_the_run() {
    let corpus = failing_corpus();
    let output = tool(&["run", "--cases", corpus.path().to_str().unwrap(), "--case", "RT-TOOL-8/examples/*"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(text(&output).contains("2 cases failed or errored"), "{}", text(&output));
}

fn listed_failures_do_not_fail_the_run_by_case_or_by_clause() {
    let corpus = failing_corpus();
    let by_case = format!(
        "- case: {ESCAPED}\n  reason: We decode once.\n  varies: The message's order.\n- case: {ARRAY}\n  reason: We decode.\n"
    );
    let (output, dir) = run_with(corpus.path(), &by_case);
    let printed = text(&output);
    assert_eq!(output.status.code(), Some(0), "{printed}");
    assert!(printed.contains("Expected failures: 2 listed (not failing the run), 0 stale, 0 new."), "{printed}");
    assert!(printed.contains("RT-TOOL-8: does not conform"), "the standing itself stays true: {printed}");
    assert!(printed.contains("expected failure: We decode once."), "{printed}");
    let junit = std::fs::read_to_string(dir.path().join("report/junit.xml")).unwrap();
    let suites = junit_parser::from_reader(std::io::Cursor::new(junit.as_bytes())).unwrap();
    assert_eq!((suites.failures, suites.errors), (0, 0), "listed failures are not JUnit failures:\n{junit}");
    let listed = suites.suites[0].cases.iter().find(|c| c.original_name == ESCAPED).unwrap();
    assert!(listed.status.is_skipped());
    assert_eq!(listed.status.skipped_as_ref().skipped_type, "expected-failure");
    assert!(listed.status.skipped_as_ref().text.contains("--- expected"), "the diff is kept");
    let json: serde_json::Value =
        tool_conformance::json::from_str(&std::fs::read_to_string(dir.path().join("report/standing.json")).unwrap())
            .unwrap();
    assert_eq!(json["expected_failures"]["expected"].as_array().unwrap().len(), 2);
    let varies: Vec<_> =
        json["expected_failures"]["expected"].as_array().unwrap().iter().map(|e| e.get("varies").cloned()).collect();
    assert!(
        varies.contains(&Some(serde_json::Value::from("The message's order."))) && varies.contains(&None),
        "an entry's varies is carried to its case, and only to it: {varies:?}"
    );

    let by_clause =
        "- clause: RT-TOOL-8.4\n  reason: Single pass.\n- clause: RT-TOOL-8.2\n  reason: Arrays are decoded.\n";
    let (output, _dir) = run_with(corpus.path(), by_clause);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
}

fn a_listed_case_that_passes_is_stale_and_fails_the_run() {
    let corpus = failing_corpus();
    let entries = format!(
        "- case: {ESCAPED}\n  reason: r\n- case: {ARRAY}\n  reason: r\n- case: RT-TOOL-8/examples/doubly-escaped-title-fixed\n  reason: r\n"
    );
    let (output, _dir) = run_with(corpus.path(), &entries);
    let printed = text(&output);
    assert_eq!(output.status.code(), Some(2), "an id the corpus lacks is bad usage: {printed}");
    assert!(
        printed.contains("expected-failures.yaml:5:3: case RT-TOOL-8/examples/doubly-escaped-title-fixed"),
        "{printed}"
    );

    let cases = std::process::Command::new(env!("CARGO_BIN_EXE_tool-conformance"))
        .args(["list", "--cases", corpus.path().to_str().unwrap(), "--case", "RT-TOOL-8/keys/*"])
        .output()
        .unwrap();
    let passing = String::from_utf8_lossy(&cases.stdout)
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .find(|id| id != ESCAPED && id != ARRAY)
        .expect("a case of RT-TOOL-8/keys");
    let entries = format!(
        "- case: {ESCAPED}\n  reason: r\n- case: {ARRAY}\n  reason: r\n- case: {passing}\n  reason: Was broken once.\n"
    );
    let (output, dir) = run_with(corpus.path(), &entries);
    let printed = text(&output);
    assert_eq!(output.status.code(), Some(1), "{printed}");
    assert!(printed.contains("2 listed (not failing the run), 1 stale, 0 new"), "{printed}");
    assert!(
        printed.contains(&format!("STALE case {passing}: listed as expected to fail (Was broken once.)")),
        "{printed}"
    );
    let junit = std::fs::read_to_string(dir.path().join("report/junit.xml")).unwrap();
    let suites = junit_parser::from_reader(std::io::Cursor::new(junit.as_bytes())).unwrap();
    let stale = suites.suites.iter().find(|s| s.name == "expected-failures").expect("the expected-failures suite");
    assert_eq!(stale.cases.len(), 1);
    assert!(stale.cases[0].status.is_failure());
}

fn a_failure_not_listed_fails_the_run() {
    let corpus = failing_corpus();
    let (output, _dir) = run_with(corpus.path(), &format!("- case: {ESCAPED}\n  reason: r\n"));
    let printed = text(&output);
    assert_eq!(output.status.code(), Some(1), "{printed}");
    assert!(printed.contains("1 listed (not failing the run), 0 stale, 1 new"), "{printed}");
    assert!(printed.contains(&format!("NEW {ARRAY}: fails and is not listed")), "{printed}");
}

fn bad_files_are_bad_usage_with_the_place() {
    let corpus = failing_corpus();
    for (entries, says) in [
        ("- case: RT-TOOL-8/examples/x\n", "expected-failures.yaml:1:3: "),
        ("- clause: RT-TOOL-8.9\n  reason: r\n", "clause RT-TOOL-8.9: the corpus has no such id"),
        ("- case: a\n  clause: b\n  reason: r\n", "expected-failures.yaml:1:3: "),
        ("- [unclosed\n", "expected-failures.yaml:2:"),
    ] {
        let (output, _dir) = run_with(corpus.path(), entries);
        let printed = text(&output);
        assert_eq!(output.status.code(), Some(2), "{entries:?}: {printed}");
        assert!(printed.contains(says), "{entries:?} should say {says:?}: {printed}");
    }
    let missing = tool(&["run", "--expected-failures", "no-such-file.yaml"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing).contains("no-such-file.yaml: cannot read"), "{}", text(&missing));
}

fn the_schema_agrees_with_the_loader() {
    let schema: serde_json_std::Value =
        serde_json_std::from_str(tool_conformance::standing::expectations::EXPECTED_FAILURES_SCHEMA).expect("JSON");
    let validator = jsonschema::draft202012::new(&schema).expect("the schema compiles");
    let good = serde_json_std::json!([
        { "case": "RT-TOOL-8/examples/doubly-escaped-title", "reason": "r" },
        { "clause": "PLAT-162.one-error", "reason": "r" },
        { "case": "RT-TOOL-8/examples/x", "reason": "r", "varies": "the order of two problems" }
    ]);
    assert!(validator.is_valid(&good));
    for bad in [
        serde_json_std::json!([{ "case": "RT-TOOL-8/examples/x" }]),
        serde_json_std::json!([{ "case": "RT-TOOL-8/examples/x", "clause": "RT-TOOL-8.1", "reason": "r" }]),
        serde_json_std::json!([{ "reason": "r" }]),
        serde_json_std::json!([{ "case": "RT-TOOL-8/examples/x", "reason": "" }]),
        serde_json_std::json!([{ "case": "RT-TOOL-8/examples/x", "reason": "r", "varies": " " }]),
        serde_json_std::json!({ "case": "RT-TOOL-8/examples/x", "reason": "r" }),
    ] {
        assert!(!validator.is_valid(&bad), "the schema accepts {bad}");
    }
}

fn the_docs_example_is_a_valid_file_for_the_built_in_corpus() {
    let readme = include_str!("../../docs/ci.md");
    let section = readme.split("## Expected failures").nth(1).expect("docs/ci.md has the section");
    let example = section.split("```yaml\n").nth(1).and_then(|s| s.split("```").next()).expect("a yaml example");
    let file = tool_conformance::standing::expectations::ExpectedFailures::parse(Path::new("docs/ci.md"), example)
        .unwrap_or_else(|e| panic!("the docs/ci.md example does not parse: {e}"));
    assert_eq!(file.entries.len(), 2);
    let corpus = tool_conformance::Corpus::embedded().expect("the corpus loads");
    file.check_against(&corpus).unwrap_or_else(|e| panic!("the docs/ci.md example names what the corpus lacks: {e}"));
}

tests![
    without_a_file_the_two_failures_fail_the_run,
    listed_failures_do_not_fail_the_run_by_case_or_by_clause,
    a_listed_case_that_passes_is_stale_and_fails_the_run,
    a_failure_not_listed_fails_the_run,
    bad_files_are_bad_usage_with_the_place,
    the_schema_agrees_with_the_loader,
    the_docs_example_is_a_valid_file_for_the_built_in_corpus,
];
