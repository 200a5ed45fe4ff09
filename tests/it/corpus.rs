//! Corpus loading: every kind of bad file gives one error naming its file, line and column, and
//! the catalog and schema stay in step with the rule texts and the code.

use std::path::PathBuf;
use tool_conformance::corpus::{CorpusError, CorpusErrorKind};
use tool_conformance::{Corpus, Level, Transport, View};

const RT_TOOL_8: &str = include_str!("../../cases/RT-TOOL-8/rule.yaml");
const PLAT_162: &str = include_str!("../../cases/PLAT-162/rule.yaml");

const GOOD: &str = r#"# yaml-language-server: $schema=../../schemas/case.schema.json
groups:
  - input_schema: { type: object, properties: { title: { type: string } } }
    cases:
      - name: one
        clauses: [RT-TOOL-8.4]
        level: required
        summary: A reference is decoded.
        normalize:
          arguments: { title: "&lt;" }
          expected: { title: "<" }
"#;

fn load(files: &[(&str, &str)]) -> Result<Corpus, Vec<CorpusError>> {
    let mut all = vec![
        (PathBuf::from("PLAT-162/rule.yaml"), PLAT_162.to_string()),
        (PathBuf::from("RT-TOOL-8/rule.yaml"), RT_TOOL_8.to_string()),
    ];
    all.extend(files.iter().map(|(p, t)| (PathBuf::from(p), t.to_string())));
    Corpus::from_files(all).map_err(|e| e.0)
}

/// The single error for `text` as RT-TOOL-8/x.yaml, and its position.
fn error(text: &str) -> (CorpusErrorKind, usize, usize) {
    let errors = load(&[("RT-TOOL-8/x.yaml", text)]).expect_err("the file is bad");
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = errors.into_iter().next().unwrap();
    assert_eq!(e.path, PathBuf::from("RT-TOOL-8/x.yaml"));
    (e.kind, e.position.line, e.position.column)
}

fn a_good_file_loads_with_ids_and_places() {
    let corpus = load(&[("RT-TOOL-8/x.yaml", GOOD)]).unwrap();
    assert_eq!(corpus.cases.len(), 1);
    assert_eq!(corpus.cases[0].id, "RT-TOOL-8/x/one");
    assert_eq!(corpus.cases[0].location.to_string(), "RT-TOOL-8/x.yaml:5:9");
}

fn yaml_syntax_errors_have_a_place() {
    let (kind, line, _) = error(&GOOD.replace("expected: { title: \"<\" }", "expected: { title: \"<\" "));
    assert!(matches!(kind, CorpusErrorKind::Yaml(_)), "{kind:?}");
    assert!(line >= 11, "line {line}");
}

fn a_misspelt_field_is_a_schema_error_at_its_line() {
    let (kind, line, column) = error(&GOOD.replace("level: required", "levl: required"));
    let CorpusErrorKind::Schema { message, pointer, .. } = kind else { panic!("{kind:?}") };
    assert!(message.contains("levl"), "{message}");
    assert_eq!(pointer, "/groups/0/cases/0/levl");
    assert_eq!((line, column), (7, 9), "the unknown field itself");
}

fn a_wrong_value_is_a_schema_error_at_that_value() {
    let (kind, line, column) = error(&GOOD.replace("level: required", "level: mandatory"));
    assert!(
        matches!(kind, CorpusErrorKind::Schema { ref pointer, .. } if pointer == "/groups/0/cases/0/level"),
        "{kind:?}"
    );
    assert_eq!((line, column), (7, 9));
}

fn interpretation_needs_a_note() {
    let (kind, line, _) = error(&GOOD.replace("level: required", "level: interpretation"));
    let CorpusErrorKind::Schema { message, .. } = kind else { panic!("{kind:?}") };
    assert!(message.contains("note"), "{message}");
    assert_eq!(line, 5);
}

fn informational_needs_behaviours_not_one_expectation() {
    let (kind, _, _) = error(&GOOD.replace("level: required", "level: informational\n        note: open"));
    assert!(matches!(kind, CorpusErrorKind::Schema { .. }), "{kind:?}");
}

fn a_case_with_nothing_to_check_is_an_error() {
    let text = GOOD.replace(
        "        normalize:\n          arguments: { title: \"&lt;\" }\n          expected: { title: \"<\" }\n",
        "",
    );
    let (kind, line, _) = error(&text);
    assert!(matches!(kind, CorpusErrorKind::Schema { .. }), "{kind:?}");
    assert_eq!(line, 5);
    let (kind, _, _) = error(&GOOD.replace(
        "  - input_schema: { type: object, properties: { title: { type: string } } }\n    cases:",
        "  - cases:",
    ));
    assert!(matches!(kind, CorpusErrorKind::NothingToCheck(_)), "{kind:?}");
}

fn unknown_and_foreign_clauses_are_errors() {
    let (kind, line, column) = error(&GOOD.replace("[RT-TOOL-8.4]", "[RT-TOOL-8.9]"));
    assert!(matches!(kind, CorpusErrorKind::UnknownClause { .. }), "{kind:?}");
    assert_eq!((line, column), (6, 19));
    let (kind, _, _) = error(&GOOD.replace("[RT-TOOL-8.4]", "[PLAT-162.closed-root]"));
    assert!(matches!(kind, CorpusErrorKind::UnknownClause { .. }), "{kind:?}");
}

fn duplicate_ids_are_errors() {
    let twice = format!("{GOOD}{}", &GOOD[GOOD.find("      - name: one").unwrap()..]);
    let (kind, line, _) = error(&twice);
    assert!(matches!(kind, CorpusErrorKind::DuplicateId { ref id, .. } if id == "RT-TOOL-8/x/one"), "{kind:?}");
    assert_eq!(line, 12);
}

fn an_invoke_of_an_unregistered_tool_is_an_error() {
    let text = r#"groups:
  - tools: [{ name: a, input_schema: { type: object } }]
    cases:
      - name: call
        clauses: [RT-TOOL-8.1]
        level: required
        summary: Calls a tool that is not there.
        invoke: { tool: b, arguments: {}, expected: { outcome: executed, received: {} } }
"#;
    let (kind, line, _) = error(text);
    assert!(matches!(kind, CorpusErrorKind::NothingToCheck(ref why) if why.contains("not among")), "{kind:?}");
    assert_eq!(line, 8);
}

fn files_outside_a_rule_folder_are_errors() {
    let errors = load(&[("NOPE-1/x.yaml", GOOD), ("x.yaml", GOOD)]).unwrap_err();
    assert_eq!(errors.len(), 2);
    assert!(errors.iter().all(|e| matches!(e.kind, CorpusErrorKind::Placement(_))));
}

fn every_bad_file_is_reported_once() {
    let errors =
        load(&[("RT-TOOL-8/a.yaml", "groups: ["), ("RT-TOOL-8/b.yaml", GOOD), ("RT-TOOL-8/c.yaml", "groups: []")])
            .unwrap_err();
    let files: Vec<String> = errors.iter().map(|e| e.path.display().to_string()).collect();
    assert_eq!(files, ["RT-TOOL-8/a.yaml", "RT-TOOL-8/c.yaml"]);
    let shown = errors[1].to_string();
    assert!(shown.starts_with("RT-TOOL-8/c.yaml:1:"), "{shown}");
}

fn a_missing_catalog_is_an_error() {
    let errors = Corpus::from_files(vec![(PathBuf::from("RT-TOOL-8/x.yaml"), GOOD.to_string())]).unwrap_err().0;
    assert!(matches!(errors[0].kind, CorpusErrorKind::NoCatalog));
    assert!(errors[0].to_string().contains("rule.yaml"), "{}", errors[0]);
}

fn a_case_file_in_a_folder_without_a_rule_file_is_misplaced() {
    let errors = Corpus::from_files(vec![
        (PathBuf::from("RT-TOOL-8/rule.yaml"), RT_TOOL_8.to_string()),
        (PathBuf::from("PLAT-162/x.yaml"), GOOD.to_string()),
    ])
    .unwrap_err()
    .0;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(matches!(errors[0].kind, CorpusErrorKind::Placement(_)), "{:?}", errors[0]);
}

/// The single error of the corpus whose RT-TOOL-8/rule.yaml is `text`: its message and place.
fn rule_error(text: &str) -> (CorpusErrorKind, String) {
    let errors = Corpus::from_files(vec![
        (PathBuf::from("PLAT-162/rule.yaml"), PLAT_162.to_string()),
        (PathBuf::from("RT-TOOL-8/rule.yaml"), text.to_string()),
        (PathBuf::from("RT-TOOL-8/x.yaml"), GOOD.to_string()),
    ])
    .expect_err("the rule file is bad")
    .0;
    assert_eq!(errors.len(), 1, "one clear error: {errors:?}");
    let shown = errors[0].to_string();
    assert_eq!(errors[0].path, PathBuf::from("RT-TOOL-8/rule.yaml"), "{shown}");
    let place = shown.splitn(4, ':').take(3).collect::<Vec<_>>().join(":");
    (errors[0].kind.clone(), place)
}

fn bad_rule_files_give_one_error_with_file_line_and_column() {
    let line = |needle: &str| RT_TOOL_8.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let (kind, place) = rule_error(&RT_TOOL_8.replace("title:", "titel:"));
    assert!(matches!(kind, CorpusErrorKind::Schema { ref message, .. } if message.contains("titel")), "{kind:?}");
    assert_eq!(place, format!("RT-TOOL-8/rule.yaml:{}:1", line("title:")), "the misspelt field itself");

    let (kind, place) = rule_error(&RT_TOOL_8.replace("rejections: problems", "rejections: some"));
    assert!(matches!(kind, CorpusErrorKind::Schema { ref pointer, .. } if pointer == "/rejections"), "{kind:?}");
    assert_eq!(place, format!("RT-TOOL-8/rule.yaml:{}:1", line("rejections:")), "a member is located at its key");

    let (kind, place) = rule_error(&RT_TOOL_8.replace("  - id: RT-TOOL-8.3", "  - id: PLAT-162.3"));
    assert!(matches!(kind, CorpusErrorKind::Rule(ref m) if m.contains("does not start with")), "{kind:?}");
    assert_eq!(place, format!("RT-TOOL-8/rule.yaml:{}:5", line("id: RT-TOOL-8.3")));

    let (kind, place) = rule_error(&RT_TOOL_8.replace("  - id: RT-TOOL-8.3", "  - id: RT-TOOL-8.2"));
    assert!(matches!(kind, CorpusErrorKind::Rule(ref m) if m.contains("listed twice")), "{kind:?}");
    assert_eq!(place, format!("RT-TOOL-8/rule.yaml:{}:5", line("id: RT-TOOL-8.3")));

    let (kind, place) = rule_error(&RT_TOOL_8.replace("id: RT-TOOL-8\n", "id: RT-TOOL-9\n"));
    assert!(matches!(kind, CorpusErrorKind::Rule(ref m) if m.contains("folder")), "{kind:?}");
    assert_eq!(place, format!("RT-TOOL-8/rule.yaml:{}:1", line("id: RT-TOOL-8")));

    let (kind, place) = rule_error(&RT_TOOL_8.replace("order: 1", "order: 2"));
    assert!(matches!(kind, CorpusErrorKind::Rule(ref m) if m.contains("PLAT-162")), "{kind:?}");
    assert_eq!(place, format!("RT-TOOL-8/rule.yaml:{}:1", line("order:")));

    let (kind, place) = rule_error(&RT_TOOL_8.replace("order: 1", "order: [1"));
    assert!(matches!(kind, CorpusErrorKind::Yaml(_)), "{kind:?}");
    assert!(place.starts_with("RT-TOOL-8/rule.yaml:"), "{place}");
}

fn the_catalog_is_in_the_order_its_files_give() {
    let corpus = Corpus::embedded().unwrap();
    let ids: Vec<&str> = corpus.catalog.rules.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["RT-TOOL-8", "PLAT-162"]);
    let swapped = Corpus::from_files(vec![
        (PathBuf::from("PLAT-162/rule.yaml"), PLAT_162.replace("order: 2", "order: 1")),
        (PathBuf::from("RT-TOOL-8/rule.yaml"), RT_TOOL_8.replace("order: 1", "order: 7")),
    ])
    .unwrap();
    let ids: Vec<&str> = swapped.catalog.rules.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["PLAT-162", "RT-TOOL-8"]);
}

fn the_catalog_lists_exactly_the_clause_ids_of_the_specs() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("specs/README.md");
    let readme = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the clause list {} is missing or unreadable: {e}", path.display()));
    let mut ids: Vec<String> = readme
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| {
            (t.starts_with("RT-TOOL-8.") || t.starts_with("PLAT-162.")) && !t.contains(" ") && !t.ends_with(".txt")
        })
        .map(String::from)
        .collect();
    ids.sort();
    ids.dedup();
    let corpus = Corpus::embedded().expect("the embedded corpus loads");
    let mut catalog: Vec<String> =
        corpus.catalog.rules.iter().flat_map(|r| r.clauses.iter().map(|c| c.id.clone())).collect();
    catalog.sort();
    assert_eq!(catalog, ids);
}

fn every_case_file_opens_with_the_schema_modeline() {
    let corpus = Corpus::embedded().unwrap();
    for (path, text) in &corpus.files {
        let expected = if path.file_name().is_some_and(|name| name == "rule.yaml") {
            "# yaml-language-server: $schema=../../schemas/rule.schema.json"
        } else {
            "# yaml-language-server: $schema=../../schemas/case.schema.json"
        };
        assert_eq!(text.lines().next(), Some(expected), "{}", path.display());
    }
}

fn the_schema_enums_match_the_code() {
    let schema: serde_json::Value = tool_conformance::json::from_str(tool_conformance::corpus::CASE_SCHEMA).unwrap();
    let strings = |pointer: &str| -> Vec<String> {
        schema
            .pointer(pointer)
            .and_then(|v| v.as_array())
            .unwrap_or_else(|| panic!("{pointer}"))
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(strings("/$defs/transport/enum"), Transport::ALL.map(|t| t.as_str().to_string()));
    assert_eq!(strings("/$defs/describe/properties/views/items/enum"), View::ALL.map(|v| v.as_str().to_string()));
    assert_eq!(strings("/$defs/case/properties/level/enum"), Level::ALL.map(|l| l.as_str().to_string()));
    assert_eq!(strings("/$defs/problem/properties/kind/enum"), tool_conformance::case::PROBLEM_KINDS.map(String::from));
}

fn a_file_using_every_schema_field_loads() {
    let schema: serde_json::Value = tool_conformance::json::from_str(tool_conformance::corpus::CASE_SCHEMA).unwrap();
    let example = include_str!("../fixtures/every-field.yaml");
    let mut names = Vec::new();
    collect_property_names(&schema, &mut names);
    for name in names {
        assert!(
            example.contains(&format!("{name}:")),
            "tests/fixtures/every-field.yaml does not use the schema field {name}"
        );
    }
    let corpus = load(&[("PLAT-162/every-field.yaml", example)]).unwrap_or_else(|e| panic!("{}", e[0]));
    assert!(corpus.cases.len() >= 4);
}

fn collect_property_names(schema: &serde_json::Value, out: &mut Vec<String>) {
    match schema {
        serde_json::Value::Object(map) => {
            if let Some(serde_json::Value::Object(properties)) = map.get("properties") {
                out.extend(properties.keys().cloned());
            }
            map.values().for_each(|v| collect_property_names(v, out));
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_property_names(v, out)),
        _ => {}
    }
}

fn a_schema_that_does_not_compile_is_a_bug_in_the_case() {
    let (kind, line, _) =
        error(&GOOD.replace("{ type: object, properties: { title: { type: string } } }", "{ type: objekt }"));
    assert!(matches!(kind, CorpusErrorKind::BadSchema(_)), "{kind:?}");
    assert_eq!(line, 3);
}

fn an_executed_expectation_the_schema_forbids_is_a_bug_in_the_case() {
    let text = r#"groups:
  - tools: [{ name: a, input_schema: { type: object, properties: { n: { type: integer } } } }]
    cases:
      - name: call
        clauses: [RT-TOOL-8.1]
        level: required
        summary: Expects the handler to get what validation must refuse.
        invoke:
          tool: a
          arguments: { n: "1" }
          expected: { outcome: executed, received: { n: "1" } }
"#;
    let (kind, line, _) = error(text);
    assert!(matches!(kind, CorpusErrorKind::BadSchema(ref why) if why.contains("own schema")), "{kind:?}");
    assert_eq!(line, 11);
}

fn every_reading_is_written_down() {
    let doc = include_str!("../../docs/interpretations.md");
    let corpus = Corpus::embedded().unwrap();
    let missing: Vec<&str> = corpus
        .cases
        .iter()
        .filter(|c| c.level != Level::Required)
        .filter(|c| {
            let short = c.id.split_once('/').map(|(_, rest)| rest).unwrap_or(&c.id);
            !doc.contains(short)
        })
        .map(|c| c.id.as_str())
        .collect();
    assert!(missing.is_empty(), "docs/interpretations.md does not name these cases: {missing:?}");
}

fn every_required_check_shows_exactly_one_behaviour() {
    use tool_conformance::case::checks::planned;
    let corpus = Corpus::embedded().unwrap();
    let mut shown = std::collections::BTreeSet::new();
    for case in corpus.cases.iter().filter(|c| c.level == Level::Required) {
        let transports = match &case.check {
            tool_conformance::case::Check::Invoke { transports, .. } => transports.clone(),
            _ => Transport::ALL.to_vec(),
        };
        let planned = planned(&case.check, case.level, case.rejections, &transports);
        assert!(!planned.is_empty(), "{}: a required case makes some check", case.id);
        let kinds: Vec<_> = case.shows.keys().copied().collect();
        assert_eq!(kinds, { let mut p = planned.clone(); p.sort(); p }, "{}: every check shows one behaviour", case.id);
        shown.extend(case.shows.values().cloned());
    }
    assert!(corpus.cases.iter().filter(|c| c.level != Level::Required).all(|c| c.shows.is_empty()));
    // Every behaviour a rule lists is shown by some required check: none is a sentence no case tests.
    let listed: std::collections::BTreeSet<String> = corpus.catalog.behaviours().map(|(_, b)| b.id.clone()).collect();
    assert_eq!(listed, shown);
}

fn a_check_that_shows_no_behaviour_is_an_error_in_its_case() {
    // Without the selectors of RT-TOOL-8.4, the good file's check of clause 4 shows nothing.
    let without = RT_TOOL_8.replace("      - { check: arguments-reaching-tool, clause: RT-TOOL-8.4 }\n", "");
    assert_ne!(without, RT_TOOL_8);
    let errors = Corpus::from_files(vec![
        (PathBuf::from("PLAT-162/rule.yaml"), PLAT_162.to_string()),
        (PathBuf::from("RT-TOOL-8/rule.yaml"), without),
        (PathBuf::from("RT-TOOL-8/x.yaml"), GOOD.to_string()),
    ])
    .expect_err("a check shows no behaviour")
    .0;
    assert_eq!(errors.len(), 1, "{errors:?}");
    let shown = errors[0].to_string();
    assert!(matches!(errors[0].kind, CorpusErrorKind::NoBehaviour(_)), "{shown}");
    assert!(shown.starts_with("RT-TOOL-8/x.yaml:6:9: the check arguments-reaching-tool"), "{shown}");
    // Two behaviours that claim the same check are an error in the rule file.
    let twice = RT_TOOL_8.replace(
        "      - { check: ran-as-sent, clause: RT-TOOL-8.1 }",
        "      - { check: ran-as-sent, clause: RT-TOOL-8.1 }\n      - { check: ran-as-sent, clause: RT-TOOL-8.2 }",
    );
    let (kind, _) = rule_error(&twice);
    assert!(matches!(kind, CorpusErrorKind::Rule(ref m) if m.contains("already shows json-decoded")), "{kind:?}");
}

/// A required case's summary says what its required check asks: words that claim what only a
/// check beyond the text asks (`tool_conformance::judge::READING_CHECKS`: an identical error, a
/// message naming fields, an exact list of expected fields), or the document a describe case's
/// interpretation level holds a view to, appear only beside the words "reading check", which
/// say so. The phrases are those the summaries once used.
fn required_summaries_claim_no_more_than_the_required_check() {
    let beyond = [
        "identical error",
        "same error when",
        "does not depend on that order",
        "the message names",
        "every expected field",
        "all five expected fields",
        "is listed among the expected fields",
        "lists both alternatives",
        "reported and listed",
        "exactly the schema",
        "exactly as registered",
    ];
    let corpus = Corpus::embedded().unwrap();
    let claims: Vec<String> = corpus
        .cases
        .iter()
        .filter(|c| c.level == Level::Required)
        .filter(|c| {
            let summary = c.summary.to_lowercase();
            beyond.iter().any(|w| summary.contains(w)) && !summary.contains("reading check")
        })
        .map(|c| format!("{}: {}", c.id, c.summary))
        .collect();
    assert!(claims.is_empty(), "summaries that claim more than their required check asks:\n{}", claims.join("\n"));
}

tests![
    every_required_check_shows_exactly_one_behaviour,
    a_check_that_shows_no_behaviour_is_an_error_in_its_case,
    a_good_file_loads_with_ids_and_places,
    yaml_syntax_errors_have_a_place,
    a_misspelt_field_is_a_schema_error_at_its_line,
    a_wrong_value_is_a_schema_error_at_that_value,
    interpretation_needs_a_note,
    informational_needs_behaviours_not_one_expectation,
    a_case_with_nothing_to_check_is_an_error,
    unknown_and_foreign_clauses_are_errors,
    duplicate_ids_are_errors,
    an_invoke_of_an_unregistered_tool_is_an_error,
    files_outside_a_rule_folder_are_errors,
    every_bad_file_is_reported_once,
    a_missing_catalog_is_an_error,
    a_case_file_in_a_folder_without_a_rule_file_is_misplaced,
    bad_rule_files_give_one_error_with_file_line_and_column,
    the_catalog_is_in_the_order_its_files_give,
    the_catalog_lists_exactly_the_clause_ids_of_the_specs,
    every_case_file_opens_with_the_schema_modeline,
    the_schema_enums_match_the_code,
    a_file_using_every_schema_field_loads,
    a_schema_that_does_not_compile_is_a_bug_in_the_case,
    an_executed_expectation_the_schema_forbids_is_a_bug_in_the_case,
    every_reading_is_written_down,
    required_summaries_claim_no_more_than_the_required_check,
];
