//! Exit codes are documented once, in `tool_conformance::exit::TABLE`: `--help` prints that
//! table, the exit-code table of docs/ci.md says the same, and each code comes out of the binary in
//! the situations the table names.

use tool_conformance::exit::{self, CONFORMS, NONCONFORMING, USAGE};
use crate::util::{copy_corpus, edit, root, tool};

fn code(args: &[&str]) -> u8 {
    let output = tool(args);
    let code = output.status.code().expect("exited with a code");
    u8::try_from(code).expect("a code in 0..=255")
}

/// A corpus whose worked example expects the wrong value, so the reference fails it.
fn failing_corpus() -> tempfile::TempDir {
    let corpus = copy_corpus();
    edit(
        &corpus.path().join("RT-TOOL-8/examples.yaml"),
        "expected: { title: \"Ember & Oak\" }",
        "expected: { title: \"Ember &amp; Oak\" }",
    );
    corpus
}

fn the_docs_table_is_the_exit_table() {
    let readme = std::fs::read_to_string(root().join("docs/ci.md")).expect("docs/ci.md");
    let rows: Vec<&str> = readme.lines().filter(|l| l.starts_with("| ") && l.contains(" | `")).collect();
    for (code, name, meaning) in exit::TABLE {
        let row = format!("| {code} | `{name}` | {meaning} |");
        assert!(rows.contains(&row.as_str()), "docs/ci.md lacks the row\n{row}\nit has:\n{}", rows.join("\n"));
    }
    let documented =
        rows.iter().filter(|r| r.split('|').nth(1).is_some_and(|c| c.trim().parse::<u8>().is_ok())).count();
    assert_eq!(documented, exit::TABLE.len(), "docs/ci.md documents other codes: {rows:#?}");
}

fn help_ends_with_the_exit_table() {
    let output = tool(&["--help"]);
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(help.contains(exit::help_text().trim_end()), "{help}");
    for (code, name, _) in exit::TABLE {
        assert!(help.contains(&format!("  {code} {name}: ")), "{help}");
    }
}

fn conforms_is_zero_for_run_check_compare_and_a_listed_failure() {
    assert_eq!(code(&["run"]), CONFORMS);
    assert_eq!(code(&["check"]), CONFORMS);
    let standing = root().join("reports/reference/standing.json");
    let standing = standing.to_str().unwrap();
    assert_eq!(code(&["compare", standing, standing]), CONFORMS);
    let corpus = failing_corpus();
    let elsewhere = tempfile::tempdir().expect("temp dir");
    let file = elsewhere.path().join("expected.yaml");
    let cases = corpus.path().to_str().unwrap();
    assert_eq!(code(&["run", "--cases", cases, "--write-expected-failures", file.to_str().unwrap()]), NONCONFORMING);
    assert_eq!(code(&["run", "--cases", cases, "--expected-failures", file.to_str().unwrap()]), CONFORMS);
    assert_eq!(code(&["fuzz", "--seed", "1", "--cases", "100"]), CONFORMS);
}

/// The reference over stdio with every executed call reporting its handler ran twice: a required
/// finding on the first valid call fuzzing makes.
fn handler_runs_twice() -> String {
    let binary = env!("CARGO_BIN_EXE_tool-conformance");
    let script = format!("'{binary}' serve --stdio | sed -u 's/\"handler_calls\":1/\"handler_calls\":2/'");
    format!("sh -c {}", shlex::try_quote(&script).expect("quotable"))
}

fn nonconforming_is_one_for_a_failure_a_stale_entry_a_regression_an_unexplained_table_row_and_a_fuzz_finding() {
    let corpus = failing_corpus();
    let cases = corpus.path().to_str().unwrap();
    let reports = tempfile::tempdir().expect("temp dir");
    let published = reports.path().join("broken");
    assert_eq!(code(&["run", "--cases", cases, "--report", published.to_str().unwrap()]), NONCONFORMING);
    let file = reports.path().join("expected.yaml");
    assert_eq!(code(&["run", "--cases", cases, "--write-expected-failures", file.to_str().unwrap()]), NONCONFORMING);
    // The built-in corpus passes the case the file lists: a stale entry.
    assert_eq!(code(&["run", "--expected-failures", file.to_str().unwrap()]), NONCONFORMING);
    let reference = root().join("reports/reference/standing.json");
    let broken = published.join("standing.json");
    assert_eq!(code(&["compare", reference.to_str().unwrap(), broken.to_str().unwrap()]), NONCONFORMING);
    assert_eq!(code(&["table", reports.path().to_str().unwrap()]), NONCONFORMING);
    assert_eq!(code(&["fuzz", "--seed", "1", "--cases", "300", "--stdio", &handler_runs_twice()]), NONCONFORMING);
    assert_eq!(code(&["fuzz", "--cases", "10", "--stdio", "false"]), NONCONFORMING);
}

fn usage_is_two_for_bad_usage_and_a_bad_corpus() {
    assert_eq!(code(&["run", "--no-such-option"]), USAGE);
    assert_eq!(code(&["list", "--report", "somewhere"]), USAGE);
    assert_eq!(code(&["show", "RT-TOOL-8/no/such-case"]), USAGE);
    assert_eq!(code(&["compare", "no-such-file.json", "no-such-file.json"]), USAGE);
    let corpus = copy_corpus();
    edit(&corpus.path().join("RT-TOOL-8/examples.yaml"), "level: required", "level: [required");
    assert_eq!(code(&["run", "--cases", corpus.path().to_str().unwrap()]), USAGE);
}

fn a_clause_with_no_required_case_fails_check_with_two_and_leaves_run_to_its_cases() {
    let corpus = copy_corpus();
    let rule = corpus.path().join("RT-TOOL-8/rule.yaml");
    let mut text = std::fs::read_to_string(&rule).expect("read");
    let behaviours = text.find("\n# What the rule asks").expect("the behaviours follow the clauses");
    text.insert_str(behaviours + 1, "  - id: RT-TOOL-8.6\n    summary: A clause no case cites.\n");
    std::fs::write(&rule, text).expect("write");
    let cases = corpus.path().to_str().unwrap();
    assert_eq!(code(&["check", "--cases", cases]), USAGE);
    assert_eq!(code(&["run", "--cases", cases]), CONFORMS);
}

tests![
    the_docs_table_is_the_exit_table,
    help_ends_with_the_exit_table,
    conforms_is_zero_for_run_check_compare_and_a_listed_failure,
    nonconforming_is_one_for_a_failure_a_stale_entry_a_regression_an_unexplained_table_row_and_a_fuzz_finding,
    usage_is_two_for_bad_usage_and_a_bad_corpus,
    a_clause_with_no_required_case_fails_check_with_two_and_leaves_run_to_its_cases,
];
