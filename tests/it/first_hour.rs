//! What an implementer meets in the first hour, run as they run it: a mistyped `--case` is bad
//! usage with the ids near it, `--skip` leaves cases out of `run` and `list`, `--compact` prints a
//! line per failing case, a one-case run prints no empty table, and an expected-failures reason
//! left to fill in is warned about.

use std::process::{Command, Output};

const ONE: &str = "RT-TOOL-8/examples/doubly-escaped-title";

fn tool(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tool-conformance")).args(args).output().expect("run the binary")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The ids `list` prints for `args`.
fn listed(args: &[&str]) -> Vec<String> {
    let output = tool(&[&["list"], args].concat());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    stdout(&output).lines().map(|l| l.split('\t').next().unwrap_or_default().to_string()).collect()
}

fn a_case_pattern_that_matches_nothing_is_bad_usage_with_the_nearest_ids() {
    for command in ["run", "list"] {
        let output = tool(&[command, "--case", "RT-TOOL-8/exmples/doubly-escaped-title"]);
        assert_eq!(output.status.code(), Some(2), "{command}: {}", stderr(&output));
        let message = stderr(&output);
        assert!(message.contains("--case RT-TOOL-8/exmples/doubly-escaped-title: matches no case"), "{message}");
        assert!(message.contains(&format!("did you mean {ONE}")), "{message}");
        assert!(stdout(&output).is_empty(), "nothing ran: {}", stdout(&output));
    }
    // One pattern of several that matches nothing is enough to refuse the run.
    let output = tool(&["run", "--case", ONE, "--case", "PLAT-162/nothing-here/*"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let output = tool(&["run", "--skip", "no-such-case"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("--skip no-such-case: matches no case"), "{}", stderr(&output));
}

fn skip_leaves_cases_out_of_list_and_run() {
    let topic = listed(&["--case", "RT-TOOL-8/examples/*"]);
    assert!(topic.contains(&ONE.to_string()) && topic.len() >= 2, "{topic:?}");
    let skipped = listed(&["--case", "RT-TOOL-8/examples/*", "--skip", "*/doubly-*", "--skip", "PLAT-162/*"]);
    let expected: Vec<String> = topic.iter().filter(|id| id.as_str() != ONE).cloned().collect();
    assert_eq!(skipped, expected);
    let output = tool(&["run", "--case", "RT-TOOL-8/examples/*", "--skip", ONE]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let last = stdout(&output).lines().last().unwrap_or_default().to_string();
    assert!(last.starts_with(&format!("{} passed,", expected.len())), "{last}");
}

fn a_one_case_run_prints_no_empty_table() {
    let output = tool(&["run", "--color", "never", "--case", ONE]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let rows: Vec<&str> =
        text.lines().filter(|l| l.starts_with("  RT-TOOL-8.") || l.starts_with("  PLAT-162.")).collect();
    assert_eq!(rows, ["  RT-TOOL-8.4  1/1       -               -"], "{text}");
    assert!(text.contains("PLAT-162: not run\n"), "{text}");
    assert!(text.contains("  no case of it selected\n"), "{text}");
}

fn compact_prints_a_line_per_rule_and_per_failing_case_and_warns_of_unfilled_reasons() {
    let root = env!("CARGO_MANIFEST_DIR");
    let stdio = format!("python3 {root}/tests/action/wrong_answers.py {root}/examples/adapters/python/adapter.py");
    let dir = tempfile::tempdir().expect("temp dir");
    let known = dir.path().join("known.yaml");
    let known = known.to_str().expect("utf-8 path");
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "--color", "never", "--rule", "PLAT-162", "--stdio", &stdio, "--report"];
        args.push(dir.path().to_str().expect("utf-8 path"));
        args.extend_from_slice(extra);
        Command::new(env!("CARGO_BIN_EXE_tool-conformance"))
            .args(&args)
            .env("PYTHONPATH", format!("{root}/adapters/python"))
            .output()
            .expect("run the binary")
    };
    let output = run(&["--compact", "--write-expected-failures", known]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stdout(&output);
    let standing: serde_json::Value = tool_conformance::json::from_str(
        &std::fs::read_to_string(dir.path().join("standing.json")).expect("standing.json"),
    )
    .expect("json");
    let problems: Vec<&str> = standing["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c["status"] == "fail" || c["status"] == "error")
        .map(|c| c["id"].as_str().expect("id"))
        .collect();
    assert!(!problems.is_empty());
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("FAIL ") || l.starts_with("ERROR ")).collect();
    assert_eq!(lines.len(), problems.len(), "{text}");
    for (line, id) in lines.iter().zip(&problems) {
        assert!(line.split(' ').nth(1) == Some(*id), "{line} is not about {id}");
    }
    assert!(text.contains("PLAT-162: does not conform; required "), "{text}");
    assert!(!text.contains("first difference at"), "no diffs in compact mode: {text}");
    assert!(text.lines().count() < problems.len() + 10, "{text}");

    // The file written has its reasons to fill in: given back, the run passes, with a warning.
    let output = run(&["--compact", "--expected-failures", known]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let warning = stderr(&output);
    let entries = standing_required(&standing);
    assert!(warning.contains(&format!("warning: {known}: {entries} entries still say \"TO FILL IN")), "{warning}");
    // Filled in, no warning.
    let text = std::fs::read_to_string(known).expect("read").replace("TO FILL IN: why this case fails", "a known gap");
    std::fs::write(known, text).expect("write");
    let output = run(&["--compact", "--expected-failures", known]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!stderr(&output).contains("warning:"), "{}", stderr(&output));
}

/// How many required cases failed, errored or were skipped: the entries the written file has.
fn standing_required(standing: &serde_json::Value) -> usize {
    standing["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c["level"] == "required" && matches!(c["status"].as_str(), Some("fail" | "error" | "skip")))
        .count()
}

tests![
    a_case_pattern_that_matches_nothing_is_bad_usage_with_the_nearest_ids,
    skip_leaves_cases_out_of_list_and_run,
    a_one_case_run_prints_no_empty_table,
    compact_prints_a_line_per_rule_and_per_failing_case_and_warns_of_unfilled_reasons,
];
