//! The binary end to end, as a user runs it: exit codes, what is printed, what is written.

use std::process::Output;
use crate::util::{copy_corpus, edit, text, tool};

fn run_against_the_reference_conforms() {
    let output = tool(&["run"]);
    let printed = text(&output);
    assert_eq!(output.status.code(), Some(0), "{printed}");
    assert!(printed.contains("RT-TOOL-8: conforms"), "{printed}");
    assert!(printed.contains("PLAT-162: conforms"), "{printed}");
    assert!(!printed.contains("failed or errored"), "{printed}");
}

fn a_wrong_expectation_fails_the_run_with_its_id_clause_pointer_and_diff() {
    let corpus = copy_corpus();
    edit(
        &corpus.path().join("RT-TOOL-8/examples.yaml"),
        "expected: { title: \"Ember & Oak\" }",
        "expected: { title: \"Ember &amp; Oak\" }",
    );
    let output = tool(&["run", "--cases", corpus.path().to_str().unwrap()]);
    let printed = text(&output);
    assert_eq!(output.status.code(), Some(1), "{printed}");
    assert!(printed.contains("RT-TOOL-8: does not conform"), "{printed}");
    assert!(printed.contains("FAIL RT-TOOL-8/examples/doubly-escaped-title (required; RT-TOOL-8.4)"), "{printed}");
    assert!(printed.contains("first difference at /title"), "{printed}");
    assert!(printed.contains("-  \"title\": \"Ember &amp; Oak\""), "{printed}");
    assert!(printed.contains("+  \"title\": \"Ember & Oak\""), "{printed}");
    assert!(printed.contains("PLAT-162: conforms"), "{printed}");
}

fn a_malformed_case_file_makes_check_exit_2_with_file_line_and_column() {
    let corpus = copy_corpus();
    let file = corpus.path().join("PLAT-162/scenarios.yaml");
    edit(&file, "level: required", "levle: required");
    let output = tool(&["check", "--cases", corpus.path().to_str().unwrap()]);
    let printed = text(&output);
    assert_eq!(output.status.code(), Some(2), "{printed}");
    let text = std::fs::read_to_string(&file).unwrap();
    let line = text.lines().position(|l| l.contains("levle:")).unwrap() + 1;
    assert!(printed.contains(&format!("PLAT-162/scenarios.yaml:{line}:")), "expected line {line}: {printed}");
    assert!(printed.contains("levle"), "{printed}");
    let run = tool(&["run", "--cases", corpus.path().to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2), "a bad corpus is a usage error for run too: {}", self::text(&run));
}

fn check_passes_on_the_built_in_corpus() {
    let output = tool(&["check"]);
    let printed = text(&output);
    assert_eq!(output.status.code(), Some(0), "{printed}");
    assert!(printed.contains("every clause has a required case"), "{printed}");
}

fn check_fails_when_a_clause_has_no_required_case() {
    let corpus = copy_corpus();
    let catalog = corpus.path().join("RT-TOOL-8/rule.yaml");
    edit(
        &catalog,
        "  - id: RT-TOOL-8.5\n",
        "  - id: RT-TOOL-8.9\n    summary: A clause no case cites.\n  - id: RT-TOOL-8.5\n",
    );
    let output = tool(&["check", "--cases", corpus.path().to_str().unwrap()]);
    let printed = text(&output);
    assert_eq!(output.status.code(), Some(2), "{printed}");
    assert!(printed.contains("no required case for RT-TOOL-8.9"), "{printed}");
}

fn report_writes_json_and_markdown() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("report");
    let output = tool(&["run", "--rule", "PLAT-162", "--report", dir.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let json: serde_json::Value =
        tool_conformance::json::from_str(&std::fs::read_to_string(dir.join("standing.json")).unwrap()).unwrap();
    assert_eq!(json["suite"]["name"], "tool-conformance");
    assert!(json["cases"].as_array().unwrap().iter().all(|c| c["rule"] == "PLAT-162"));
    let md = std::fs::read_to_string(dir.join("standing.md")).unwrap();
    assert!(md.contains("## PLAT-162: conforms"), "{md}");
    assert!(md.contains("## RT-TOOL-8: not run"), "{md}");
    let again = out.path().join("again");
    tool(&["run", "--rule", "PLAT-162", "--report", again.to_str().unwrap()]);
    for file in ["standing.json", "standing.md"] {
        assert_eq!(
            std::fs::read(dir.join(file)).unwrap(),
            std::fs::read(again.join(file)).unwrap(),
            "{file} is not deterministic"
        );
    }
}

fn filters_select_by_rule_clause_and_glob() {
    let all = tool(&["list"]);
    let ids = |o: &Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let every = ids(&all);
    assert!(every.iter().any(|id| id.starts_with("RT-TOOL-8/")) && every.iter().any(|id| id.starts_with("PLAT-162/")));
    let rule = ids(&tool(&["list", "--rule", "RT-TOOL-8"]));
    assert!(!rule.is_empty() && rule.iter().all(|id| id.starts_with("RT-TOOL-8/")));
    let glob = ids(&tool(&["list", "--case", "PLAT-162/scenarios/*"]));
    assert!(!glob.is_empty() && glob.iter().all(|id| id.starts_with("PLAT-162/scenarios/")));
    let clause = tool(&["list", "--clause", "PLAT-162.scenarios"]);
    assert!(String::from_utf8_lossy(&clause.stdout).lines().all(|l| l.contains("PLAT-162.scenarios")));
}

fn bad_usage_exits_2() {
    for args in [
        &["run", "--rule", "NOPE-1"][..],
        &["run", "--clause", "RT-TOOL-8.99"],
        &["run", "--case", "a[b"],
        &["frobnicate"],
    ] {
        let output = tool(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output));
    }
}

/// An option only `run` takes belongs to `run` alone, so no help text needs to label it.
fn options_only_run_takes_are_its_own_and_unlabelled() {
    for command in ["run", "list", "check", "show", "fuzz", "manifest"] {
        let help = text(&tool(&[command, "--help"]));
        assert!(!help.contains("run only"), "{command} --help labels an option:\n{help}");
    }
    let run = text(&tool(&["run", "--help"]));
    for (command, option) in [
        ("list", "--compact"),
        ("list", "--expected-failures"),
        ("fuzz", "--jobs"),
        ("fuzz", "--mcp-server"),
        ("fuzz", "--name"),
    ] {
        assert!(run.contains(option), "run --help lacks {option}");
        let output = tool(&[command, option, "x"]);
        assert_eq!(output.status.code(), Some(2), "{command} {option}: {}", text(&output));
        assert!(text(&output).contains("unexpected argument"), "{command} {option}: {}", text(&output));
    }
}

tests![
    run_against_the_reference_conforms,
    a_wrong_expectation_fails_the_run_with_its_id_clause_pointer_and_diff,
    a_malformed_case_file_makes_check_exit_2_with_file_line_and_column,
    check_passes_on_the_built_in_corpus,
    check_fails_when_a_clause_has_no_required_case,
    report_writes_json_and_markdown,
    filters_select_by_rule_clause_and_glob,
    bad_usage_exits_2,
    options_only_run_takes_are_its_own_and_unlabelled,
];
