//! The rule texts kept in specs/ are the real ones: every clause the catalog declares has its
//! passage in the text it comes from, the numbered items of RT-TOOL-8 are where the clause ids
//! say, and the flattening the reading notes describe is present in the text. A missing text
//! fails the test and names the file.

use std::collections::BTreeSet;
use std::path::PathBuf;
use tool_conformance::Corpus;

/// For each clause id: the file it comes from and passages of that file that carry it.
const ANCHORS: &[(&str, &str, &[&str])] = &[
    (
        "RT-TOOL-8.1",
        "RT-TOOL-8.txt",
        &[
            "1. Before a tool is invoked, the arguments a model supplied are reconciled with the tool's declared input schema.",
        ],
    ),
    ("RT-TOOL-8.2", "RT-TOOL-8.txt", &["2. A string argument is decoded as JSON only where all three hold"]),
    ("RT-TOOL-8.3", "RT-TOOL-8.txt", &["3. A parameter declared string is never decoded"]),
    (
        "RT-TOOL-8.4",
        "RT-TOOL-8.txt",
        &["4. Independently, every string leaf of an argument has its HTML character references decoded"],
    ),
    ("RT-TOOL-8.5", "RT-TOOL-8.txt", &["5. Keys are never modified"]),
    (
        "PLAT-162.one-schema",
        "PLAT-162.txt",
        &[
            "get_api_spec, direct tool definitions, structured transports, and the HTTP bridge use one registered schema",
        ],
    ),
    (
        "PLAT-162.before-handler",
        "PLAT-162.txt",
        &[
            "The wrapper runs before the handler for direct, structured, and HTTP bridge execution",
            "the handler is not invoked",
        ],
    ),
    (
        "PLAT-162.closed-root",
        "PLAT-162.txt",
        &["Root argument objects are closed by default", "can explicitly declare additionalProperties"],
    ),
    (
        "PLAT-162.problem-classes",
        "PLAT-162.txt",
        &[
            "Missing required names, unknown names, root value types, enums, minimum string length, and anyOf required-field sets",
        ],
    ),
    (
        "PLAT-162.one-error",
        "PLAT-162.txt",
        &[
            "one deterministic error naming the exact problem, listing expected fields, and pointing HTTP callers back to get_api_spec",
        ],
    ),
    ("PLAT-162.unchanged", "PLAT-162.txt", &["4. Correct calls execute unchanged"]),
    (
        "PLAT-162.scenarios",
        "PLAT-162.txt",
        &[
            "2. {\"step_id\":\"x\"} sent to update_message_sequence_step fails once with missing existing_step_id",
            "3. {} sent to validate_plan_change fails before its handler",
        ],
    ),
];

/// The text of specs/NAME; a missing or unreadable file fails the test, naming it.
fn spec(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("specs").join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the rule text {} is missing or unreadable: {e}", path.display()))
}

fn every_clause_has_its_passage_in_its_rule_text() {
    for (id, file, passages) in ANCHORS {
        let rule = id.split('.').next().unwrap();
        assert_eq!(*file, format!("{rule}.txt"), "{id} is anchored in the wrong file");
        let text = spec(file);
        for passage in *passages {
            assert!(text.contains(passage), "{file} does not contain the passage of {id}: {passage:?}");
        }
    }
}

fn the_anchors_cover_exactly_the_catalog() {
    let corpus = Corpus::embedded().expect("the embedded corpus loads");
    let catalog: BTreeSet<&str> =
        corpus.catalog.rules.iter().flat_map(|r| r.clauses.iter().map(|c| c.id.as_str())).collect();
    let anchored: BTreeSet<&str> = ANCHORS.iter().map(|(id, ..)| *id).collect();
    assert_eq!(anchored.len(), ANCHORS.len(), "a clause is anchored twice");
    assert_eq!(anchored, catalog);
}

fn the_texts_open_with_their_rule_ids_and_hold_five_numbered_items() {
    let normalization = spec("RT-TOOL-8.txt");
    assert!(
        normalization.starts_with("FlowDrop Workflow Specification 1.0-draft"),
        "RT-TOOL-8.txt: {normalization:.80}"
    );
    assert!(normalization.contains("· RT-TOOL-8 ·"), "RT-TOOL-8.txt does not name its rule id");
    let items: Vec<usize> = normalization
        .lines()
        .filter_map(|line| line.trim_start().split_once(". ").and_then(|(n, _)| n.parse().ok()))
        .collect();
    assert_eq!(items, [1, 2, 3, 4, 5], "RT-TOOL-8.txt's numbered items");
    let enforcement = spec("PLAT-162.txt");
    assert!(enforcement.starts_with("PLAT-162 — "), "PLAT-162.txt: {enforcement:.80}");
    assert!(enforcement.contains("\nAcceptance\n"), "PLAT-162.txt has no Acceptance section");
}

fn the_first_example_is_flattened_as_the_reading_notes_say() {
    // specs/README.md: in this copy the doubly escaped title lost its escapes, so the value sent
    // and the value that reaches the tool read the same.
    let text = spec("RT-TOOL-8.txt");
    assert_eq!(text.matches("{ \"title\": \"Ember & Oak\" }").count(), 2, "RT-TOOL-8.txt's first example");
    assert!(!text.contains("&amp;"), "RT-TOOL-8.txt's first example kept its escapes; update specs/README.md");
    assert!(text.contains("{ \"ops\": \"{\\\"op\\\":\\\"add\\\"}\" }"), "RT-TOOL-8.txt's second example");
    let notes = spec("README.md");
    assert!(notes.contains("`Ember &amp;amp; Oak`"), "specs/README.md has lost its note on the first example");
}

tests![
    every_clause_has_its_passage_in_its_rule_text,
    the_anchors_cover_exactly_the_catalog,
    the_texts_open_with_their_rule_ids_and_hold_five_numbered_items,
    the_first_example_is_flattened_as_the_reading_notes_say,
];
