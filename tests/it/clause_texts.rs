//! Every clause id resolves to its sentence: `specs/clauses.json` has an entry for each clause of
//! the built-in catalog, each of its passages is in the rule text it names, every case file and
//! rule file links to its rule's text, and `show` prints, for each clause, the sentence of the
//! text that carries it.

use std::collections::BTreeSet;
use std::process::Command;
use tool_conformance::Corpus;
use tool_conformance::Value;
use crate::util::root;

fn read(path: &str) -> String {
    let path = root().join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{} is missing or unreadable: {e}", path.display()))
}

/// (clause, rule text file, passages) from specs/clauses.json.
fn map() -> Vec<(String, String, Vec<String>)> {
    let doc: Value = tool_conformance::json::from_str(&read("specs/clauses.json")).expect("clauses.json is JSON");
    doc["clauses"]
        .as_array()
        .expect("a clauses array")
        .iter()
        .map(|e| {
            let passages = e["passages"].as_array().expect("passages").iter();
            (
                e["clause"].as_str().expect("clause").to_string(),
                e["text"].as_str().expect("text").to_string(),
                passages.map(|p| p.as_str().expect("a passage is text").to_string()).collect(),
            )
        })
        .collect()
}

fn every_catalog_clause_has_passages_present_in_its_text() {
    let corpus = Corpus::embedded().expect("the corpus loads");
    let catalog: BTreeSet<String> =
        corpus.catalog.rules.iter().flat_map(|r| r.clauses.iter().map(|c| c.id.clone())).collect();
    let map = map();
    let mapped: BTreeSet<String> = map.iter().map(|(c, _, _)| c.clone()).collect();
    assert_eq!(mapped, catalog, "specs/clauses.json and the rule files name different clauses");
    for (clause, file, passages) in &map {
        let rule = clause.split('.').next().unwrap();
        assert_eq!(file, &format!("{rule}.txt"), "{clause} points into another rule's text");
        let text = read(&format!("specs/{file}"));
        assert!(!passages.is_empty(), "{clause} has no passage");
        for passage in passages {
            assert!(text.contains(passage.as_str()), "{clause}: specs/{file} lacks {passage:?}");
        }
    }
}

fn every_case_file_links_to_its_rule_text() {
    let corpus = Corpus::embedded().expect("the corpus loads");
    for (path, text) in &corpus.files {
        let rule = path.iter().next().and_then(|p| p.to_str()).expect("a rule folder");
        let link = format!("# The rule text: ../../specs/{rule}.txt.");
        assert!(
            text.lines().nth(1).is_some_and(|l| l.starts_with(&link)),
            "{}: its second line is not {link:?}",
            path.display()
        );
        assert!(
            root().join("specs").join(format!("{rule}.txt")).is_file(),
            "{}: specs/{rule}.txt is missing",
            path.display()
        );
    }
}

fn show_prints_the_sentence_of_each_clause_a_case_cites() {
    let corpus = Corpus::embedded().expect("the corpus loads");
    for (clause, file, passages) in map() {
        let case = corpus.cases.iter().find(|c| c.clauses.contains(&clause)).expect("a case cites the clause");
        let output = Command::new(env!("CARGO_BIN_EXE_tool-conformance"))
            .args(["show", &case.id])
            .output()
            .expect("run the binary");
        let printed = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "show {}: {printed}", case.id);
        let text = read(&format!("specs/{file}"));
        for passage in &passages {
            // The sentence printed is a whole sentence of the text around the passage.
            let line = printed
                .lines()
                .map(str::trim)
                .find(|l| l.starts_with('"') && l.contains(passage.as_str()))
                .unwrap_or_else(|| {
                    panic!("show {} does not print the passage of {clause}: {passage:?}\n{printed}", case.id)
                });
            let sentence = line.trim_matches('"');
            assert!(text.contains(sentence), "show {}: {sentence:?} is not a passage of specs/{file}", case.id);
            assert!(sentence.ends_with('.'), "show {}: {sentence:?} is not a whole sentence", case.id);
        }
        assert!(printed.contains(&format!("(specs/{file};")), "show {} does not name specs/{file}", case.id);
    }
}

tests![
    every_catalog_clause_has_passages_present_in_its_text,
    every_case_file_links_to_its_rule_text,
    show_prints_the_sentence_of_each_clause_a_case_cites,
];
