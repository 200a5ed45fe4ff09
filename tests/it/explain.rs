//! The commands that explain and extend: `show`, what a failing case shows of what was sent,
//! `run --full`, `--add-cases` and `check DIR` with a folder of new cases only,
//! `run --write-expected-failures`, and `compare` in words.

use std::path::Path;
use std::process::Output;
use crate::util::tool;

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn everything(output: &Output) -> String {
    format!("{}{}", stdout(output), String::from_utf8_lossy(&output.stderr))
}

/// A folder holding one new case file for RT-TOOL-8, whose case expects `expected` for a title
/// sent as `sent`; a long `pad` property makes the schema large.
fn added(dir: &Path, name: &str, sent: &str, expected: &str, pad: usize) {
    std::fs::create_dir_all(dir.join("RT-TOOL-8")).expect("mkdir");
    let padding: String = (0..pad).map(|i| format!("        p{i}: {{ type: string }}\n")).collect();
    let text = format!(
        "# yaml-language-server: $schema=../../schemas/case.schema.json\n\
         description: Cases of an extension.\n\
         groups:\n\
        \x20 - input_schema:\n\
        \x20     type: object\n\
        \x20     properties:\n\
        \x20       title: {{ type: string }}\n{padding}\
        \x20   cases:\n\
        \x20     - name: {name}\n\
        \x20       clauses: [RT-TOOL-8.4]\n\
        \x20       level: required\n\
        \x20       summary: An added case.\n\
        \x20       normalize:\n\
        \x20         arguments: {{ title: \"{sent}\" }}\n\
        \x20         expected: {{ title: \"{expected}\" }}\n"
    );
    std::fs::write(dir.join(format!("RT-TOOL-8/{name}.yaml")), text).expect("write");
}

fn check_accepts_a_folder_of_new_cases_and_run_adds_them_to_the_built_in_corpus() {
    let dir = tempfile::tempdir().expect("temp dir");
    added(dir.path(), "thrice", "a &amp;amp;amp; b", "a & b", 0);
    let path = dir.path().to_str().unwrap();
    let output = tool(&["check", path]);
    assert_eq!(output.status.code(), Some(0), "{}", everything(&output));
    let built_in = tool_conformance::Corpus::embedded().expect("loads").cases.len();
    assert!(stdout(&output).starts_with(&format!("{} cases in ", built_in + 1)), "{}", stdout(&output));
    let output = tool(&["run", "--add-cases", path, "--case", "RT-TOOL-8/thrice/*"]);
    assert_eq!(output.status.code(), Some(0), "{}", everything(&output));
    assert!(stdout(&output).contains("1 passed, 0 failed"), "{}", stdout(&output));
    let output = tool(&["list", "--add-cases", path, "--case", "RT-TOOL-8/thrice/*"]);
    assert!(stdout(&output).starts_with("RT-TOOL-8/thrice/thrice\trequired"), "{}", stdout(&output));
}

fn an_added_file_may_not_replace_a_built_in_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    added(dir.path(), "examples", "x", "x", 0);
    let output = tool(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", everything(&output));
    assert!(everything(&output).contains("is already in the corpus"), "{}", everything(&output));
    let output = tool(&["run", "--add-cases", dir.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", everything(&output));
}

fn show_prints_the_case_its_rule_sentence_the_wire_and_why() {
    let output = tool(&["show", "RT-TOOL-8/examples/object-text-for-array"]);
    let printed = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{}", everything(&output));
    for part in [
        "\"2. A string argument is decoded as JSON only where all three hold",
        "(specs/RT-TOOL-8.txt;",
        "The case as written (RT-TOOL-8/examples.yaml):\n  - name: object-text-for-array\n",
        "  > {\"cmd\":\"normalize\",\"seq\":1,",
        "  the reference: pass",
        "Why:\n  required: ",
    ] {
        assert!(printed.contains(part), "show lacks {part:?}:\n{printed}");
    }
}

fn show_explains_an_added_case() {
    let dir = tempfile::tempdir().expect("temp dir");
    added(dir.path(), "thrice", "a &amp;amp;amp; b", "a & b", 0);
    let output = tool(&["show", "RT-TOOL-8/thrice/thrice", "--add-cases", dir.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", everything(&output));
    assert!(stdout(&output).contains("\"4. Independently, every string leaf"), "{}", stdout(&output));
}

fn a_failing_case_shows_what_was_sent_cut_and_full_shows_it_whole() {
    let dir = tempfile::tempdir().expect("temp dir");
    added(dir.path(), "wrong", "a &amp;amp; b", "a &amp; b", 60);
    let path = dir.path().to_str().unwrap();
    let output = tool(&["run", "--add-cases", path, "--case", "RT-TOOL-8/wrong/*"]);
    let printed = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{printed}");
    assert!(printed.contains("  sent (whole with `run --case RT-TOOL-8/wrong/wrong --full`"), "{printed}");
    assert!(printed.contains("    arguments: {\"title\":\"a &amp;amp; b\"}\n"), "{printed}");
    let schema = printed.lines().find(|l| l.starts_with("    input schema: ")).expect("the schema is shown");
    assert!(schema.contains("bytes in all)") && schema.chars().count() < 400, "{schema}");
    let report = tempfile::tempdir().expect("temp dir");
    tool(&["run", "--add-cases", path, "--case", "RT-TOOL-8/wrong/*", "--report", report.path().to_str().unwrap()]);
    let markdown = std::fs::read_to_string(report.path().join("standing.md")).expect("standing.md");
    assert!(markdown.contains("Sent, input schema:\n\n```json\n{\n") && markdown.contains("\"p59\": {"), "{markdown}");
    let html = std::fs::read_to_string(report.path().join("standing.html")).expect("standing.html");
    assert!(html.contains("<dt>sent, input schema</dt>") && html.contains("p59"), "the page holds the whole schema");
    let output = tool(&["run", "--add-cases", path, "--case", "RT-TOOL-8/wrong/*", "--full"]);
    let printed = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{printed}");
    assert!(printed.contains("=== RT-TOOL-8/wrong/wrong in full"), "{printed}");
    assert!(printed.contains("\"p59\": {"), "the whole schema: {printed}");
    let request = printed.lines().find(|l| l.contains("\"cmd\":\"normalize\"")).expect("the request is printed");
    assert!(request.contains("\"p59\":{\"type\":\"string\"}") && !request.contains("bytes in all"), "{request}");
}

fn full_needs_a_case() {
    let output = tool(&["run", "--full"]);
    assert_eq!(output.status.code(), Some(2), "{}", everything(&output));
}

fn write_expected_failures_lists_the_failures_with_reasons_to_fill_in() {
    let dir = tempfile::tempdir().expect("temp dir");
    added(dir.path().join("cases").as_path(), "wrong", "a &amp;amp; b", "a &amp; b", 0);
    let cases = dir.path().join("cases");
    let file = dir.path().join("expected.yaml");
    let output =
        tool(&["run", "--add-cases", cases.to_str().unwrap(), "--write-expected-failures", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", everything(&output));
    assert!(stdout(&output).contains("1 expected failures written to"), "{}", stdout(&output));
    let written = std::fs::read_to_string(&file).expect("the file is written");
    assert!(
        written.contains("- case: \"RT-TOOL-8/wrong/wrong\"\n  reason: \"TO FILL IN: why this case fails\"\n"),
        "{written}"
    );
    assert_eq!(written.matches("- case: ").count(), 1, "{written}");
    let output = tool(&["run", "--add-cases", cases.to_str().unwrap(), "--expected-failures", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", everything(&output));
    // Fixed: the entry is stale, and fails the run.
    added(cases.as_path(), "wrong", "a &amp;amp; b", "a & b", 0);
    let output = tool(&["run", "--add-cases", cases.to_str().unwrap(), "--expected-failures", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", everything(&output));
    assert!(stdout(&output).contains("STALE case RT-TOOL-8/wrong/wrong"), "{}", stdout(&output));
}

fn compare_prints_verdicts_and_statuses_in_words() {
    let dir = tempfile::tempdir().expect("temp dir");
    added(dir.path().join("cases").as_path(), "wrong", "a &amp;amp; b", "a &amp; b", 0);
    let old = dir.path().join("old");
    let new = dir.path().join("new");
    let cases = dir.path().join("cases");
    tool(&["run", "--add-cases", cases.to_str().unwrap(), "--report", new.to_str().unwrap()]);
    added(cases.as_path(), "wrong", "a &amp;amp; b", "a & b", 0);
    tool(&["run", "--add-cases", cases.to_str().unwrap(), "--report", old.to_str().unwrap()]);
    let output =
        tool(&["compare", old.join("standing.json").to_str().unwrap(), new.join("standing.json").to_str().unwrap()]);
    let printed = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{printed}");
    assert!(printed.contains("RT-TOOL-8 (verdict): conforms -> does not conform"), "{printed}");
    assert!(!printed.contains("does_not_conform"), "{printed}");
}

fn show_of_a_case_of_a_rule_with_no_text_in_specs_gives_its_rule_file_summary() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("TOY-1")).expect("mkdir");
    std::fs::write(
        dir.path().join("TOY-1/rule.yaml"),
        "id: TOY-1\ntitle: A toy rule.\norder: 3\nlevels: [required]\nrejections: problems\nclauses:\n\
         \x20 - id: TOY-1.untouched\n    summary: Text with no character reference reaches the tool as sent.\n",
    )
    .expect("write");
    std::fs::write(
        dir.path().join("TOY-1/basics.yaml"),
        "groups:\n  - input_schema: { type: object, properties: { name: { type: string } } }\n    cases:\n\
         \x20     - name: plain-text\n        clauses: [TOY-1.untouched]\n        level: required\n\
         \x20       summary: Plain text comes back untouched.\n        normalize:\n\
         \x20         arguments: { name: \"Ada\" }\n          expected: { name: \"Ada\" }\n",
    )
    .expect("write");
    let output = tool(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", everything(&output));
    assert!(
        stdout(&output).contains("  RT-TOOL-8.1 ") && stdout(&output).contains("  TOY-1.untouched "),
        "checked beside the built-in rules: {}",
        stdout(&output)
    );
    let output = tool(&["show", "TOY-1/basics/plain-text", "--add-cases", dir.path().to_str().unwrap()]);
    let printed = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{}", everything(&output));
    assert!(
        printed.contains("  TOY-1.untouched: Text with no character reference reaches the tool as sent.\n"),
        "{printed}"
    );
    assert!(printed.contains("(no rule text in specs/ for this clause"), "{printed}");
}

/// The lines of `show`'s checks section that name a check: `  name [level]`.
fn printed_checks(printed: &str) -> Vec<(String, String)> {
    let section = printed.split("\nThe checks the runner makes, each at its level:\n").nth(1).expect("a checks section");
    let section = section.split("\n\n").next().unwrap_or_default();
    section
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("    ") && l.ends_with(']'))
        .filter_map(|l| l.trim().split_once(" ["))
        .map(|(name, level)| (name.to_string(), level.trim_end_matches(']').to_string()))
        .collect()
}

fn show_prints_every_check_the_judge_makes_at_its_level() {
    let corpus = tool_conformance::Corpus::embedded().expect("the corpus loads");
    for id in [
        "PLAT-162/one-error/expected-fields-listed-for-single-problem",
        "PLAT-162/transports/unknown-name-on-http",
        "PLAT-162/problem-classes/root-null",
        "RT-TOOL-8/pipeline/integer-text-rejected-not-coerced",
        "RT-TOOL-8/json-decoding/allof-array-branch",
        "PLAT-162/scenarios/one-registered-schema",
    ] {
        let output = tool(&["show", id]);
        let printed = stdout(&output);
        assert_eq!(output.status.code(), Some(0), "{}", everything(&output));
        let case = corpus.cases.iter().find(|c| c.id == id).expect("the case");
        // What show prints is the judge's own list, each check at its level.
        let want: Vec<(String, String)> =
            tool_conformance::judge::checks_of(case, &tool_conformance::case::tool::Transport::ALL)
                .into_iter()
                .map(|c| (c.name, c.level.label()))
                .collect();
        assert!(!want.is_empty(), "{id}: the judge makes some check");
        assert_eq!(printed_checks(&printed), want, "{id}:\n{printed}");
    }
    // A PLAT-162 rejection: the expected fields as the required bounds, the exact list as a
    // reading; the declared pointer on HTTP; the repeat and the reversed keys.
    let output = tool(&["show", "PLAT-162/one-error/expected-fields-listed-for-single-problem"]);
    let printed = stdout(&output);
    for part in [
        "  fields-listed [required]\n    on each claimed transport, the error's expected_fields is an array of strings that includes [\"date\",\"room\"]",
        "lists nothing outside [\"attendees\",\"date\",\"layout\",\"notes\",\"room\"]",
        "  expected-fields-exact [interpretation: beyond the text, reading `expected-fields-exact` of docs/interpretations.md]\n    on each claimed transport, expected_fields is exactly [\"room\",\"date\",\"attendees\",\"layout\",\"notes\"]",
        "  points-to-schema [required]\n    on http, some key or string of the error contains the words the implementation declares",
        "by default `get_api_spec`",
        "  same-error [required]\n    the same call repeated on the first claimed transport (direct) gives the identical error; the same arguments with their root keys in reverse order ({\"attendees\":-1.5,\"date\":\"2024-06-03\",\"room\":\"Aurora\"})",
        "  same-error-whatever-key-order [interpretation: beyond the text",
        "  same-error-on-every-transport [interpretation: beyond the text",
    ] {
        assert!(printed.contains(part), "show lacks {part:?}:\n{printed}");
    }
    // An interpretation case's own checks rest on its note; an informational case records a behaviour.
    let printed = stdout(&tool(&["show", "PLAT-162/problem-classes/root-null"]));
    assert!(printed.contains("  problems-named [interpretation (the reading in the case's note)]\n"), "{printed}");
    let printed = stdout(&tool(&["show", "RT-TOOL-8/json-decoding/allof-array-branch"]));
    assert!(printed.contains("  decoded: arguments-reaching-tool [informational"), "{printed}");
    // A required describe case holds the views to the registered contract, not the document.
    let printed = stdout(&tool(&["show", "PLAT-162/scenarios/one-registered-schema"]));
    assert!(printed.contains("publishes a schema that states the same contract as the one"), "{printed}");
}

tests![
    check_accepts_a_folder_of_new_cases_and_run_adds_them_to_the_built_in_corpus,
    an_added_file_may_not_replace_a_built_in_one,
    show_prints_the_case_its_rule_sentence_the_wire_and_why,
    show_prints_every_check_the_judge_makes_at_its_level,
    show_explains_an_added_case,
    a_failing_case_shows_what_was_sent_cut_and_full_shows_it_whole,
    full_needs_a_case,
    write_expected_failures_lists_the_failures_with_reasons_to_fill_in,
    compare_prints_verdicts_and_statuses_in_words,
    show_of_a_case_of_a_rule_with_no_text_in_specs_gives_its_rule_file_summary,
];
