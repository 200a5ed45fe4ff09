//! A rule is data: a third rule added from files alone (its `rule.yaml` and a case file beside the
//! built-in corpus) is loaded, linted, run and given its own standing, and the policy its file
//! states (`rejections`) is the one its rejections are held to.

use crate::util::OnReference;
use std::path::Path;
use std::process::Command;
use tool_conformance::peer::Invocation;
use tool_conformance::run::run;
use tool_conformance::standing::{Standing, Verdict};
use tool_conformance::{Corpus, Level, Selection};

const TOY_RULE: &str = r#"# yaml-language-server: $schema=../../schemas/rule.schema.json
id: TOY-1
title: A toy rule, defined by its files alone.
order: 3
levels: [required, interpretation]
rejections: REJECTIONS
clauses:
  - id: TOY-1.untouched
    summary: Text with no character reference reaches the tool as sent.
  - id: TOY-1.refused
    summary: A call missing a required name never reaches the handler.
"#;

const TOY_CASES: &str = r#"# yaml-language-server: $schema=../../schemas/case.schema.json
groups:
  - tools:
      - name: greet
        input_schema: { type: object, properties: { name: { type: string } }, required: [name] }
    cases:
      - name: plain-text
        clauses: [TOY-1.untouched]
        level: required
        summary: Plain text comes back untouched.
        normalize:
          input_schema: { type: object, properties: { name: { type: string } } }
          arguments: { name: "Ada" }
          expected: { name: "Ada" }
      - name: missing-name
        clauses: [TOY-1.refused]
        level: required
        summary: A call without its required name is rejected.
        invoke:
          tool: greet
          arguments: {}
          expected:
            outcome: rejected
            problems:
              - { kind: missing_required, field: name }
"#;

/// The built-in corpus written out, with TOY-1's two files beside it.
fn corpus_with_toy(rejections: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in Corpus::embedded().unwrap().files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::fs::create_dir(dir.path().join("TOY-1")).unwrap();
    std::fs::write(dir.path().join("TOY-1/rule.yaml"), TOY_RULE.replace("REJECTIONS", rejections)).unwrap();
    std::fs::write(dir.path().join("TOY-1/basics.yaml"), TOY_CASES).unwrap();
    dir
}

/// The reference, claiming TOY-1 alone; with `bare_errors`, a rejection's error holds its
/// problems and nothing else.
fn toy(bare_errors: bool) -> OnReference {
    OnReference::new()
        .with_start(|mut implementation| {
            implementation.name = "toy".into();
            implementation.rules = vec!["TOY-1".into()];
            implementation
        })
        .with_invoke(move |invocation| match invocation {
            Invocation::Rejected { handler_calls, error } if bare_errors => {
                Invocation::Rejected { handler_calls, error: serde_json::json!({ "problems": error["problems"].clone() }) }
            }
            other => other,
        })
}

fn standing(corpus: &Corpus, bare_errors: bool) -> Standing {
    let mut target = toy(bare_errors);
    let ran = run(corpus, &Selection::all(), &mut target);
    Standing::of_run(corpus, &ran.implementation, &ran.outcomes)
}

fn a_third_rule_from_files_alone_gets_its_own_standing() {
    let dir = corpus_with_toy("problems");
    let corpus = Corpus::from_dir(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<&str> = corpus.catalog.rules.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["RT-TOOL-8", "PLAT-162", "TOY-1"], "catalog order is the files' order fields");
    assert_eq!(corpus.cases.iter().filter(|c| c.rule == "TOY-1").count(), 2);

    let standing = standing(&corpus, true);
    let verdicts: Vec<(&str, Verdict)> = standing.rules.iter().map(|r| (r.rule.as_str(), r.verdict)).collect();
    assert_eq!(
        verdicts,
        [("RT-TOOL-8", Verdict::NotClaimed), ("PLAT-162", Verdict::NotClaimed), ("TOY-1", Verdict::Conforms)]
    );
    let toy = &standing.rules[2];
    assert_eq!(toy.title, "A toy rule, defined by its files alone.");
    assert!(toy.whole);
    let rows: Vec<(&str, usize)> =
        toy.clauses.iter().map(|c| (c.clause.as_str(), c.counts.judged(Level::Required))).collect();
    assert_eq!(rows, [("TOY-1.untouched", 1), ("TOY-1.refused", 1)]);
}

fn a_rule_file_saying_one_error_holds_rejections_to_the_one_error() {
    let corpus = Corpus::from_dir(corpus_with_toy("one-error").path()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(standing(&corpus, false).rules[2].verdict, Verdict::Conforms, "the reference's error is the one error");
    let bare = standing(&corpus, true);
    let toy = &bare.rules[2];
    assert_eq!(toy.verdict, Verdict::DoesNotConform, "an error of problems alone is not the one error");
    let refused = toy.clauses.iter().find(|c| c.clause == "TOY-1.refused").unwrap();
    assert_eq!(refused.counts.get(Level::Required, tool_conformance::StatusKind::Fail), 1);
}

fn check(dir: &Path) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_tool-conformance"))
        .args(["check", "--cases", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    (output.status.code(), text)
}

fn check_lists_the_third_rule_and_names_its_clauses_without_a_required_case() {
    let dir = corpus_with_toy("problems");
    let (code, printed) = check(dir.path());
    assert_eq!(code, Some(0), "{printed}");
    assert!(printed.contains("TOY-1.refused"), "{printed}");
    let rule = dir.path().join("TOY-1/rule.yaml");
    let text = std::fs::read_to_string(&rule).unwrap();
    std::fs::write(&rule, format!("{text}  - id: TOY-1.later\n    summary: A clause no case cites yet.\n")).unwrap();
    let (code, printed) = check(dir.path());
    assert_eq!(code, Some(2), "{printed}");
    assert!(printed.contains("no required case for TOY-1.later"), "{printed}");
}

fn a_case_of_a_level_its_rule_does_not_list_is_an_error_at_its_level() {
    let dir = corpus_with_toy("problems");
    let file = dir.path().join("TOY-1/basics.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    let text = text.replacen("level: required", "level: informational\n        note: open", 1);
    std::fs::write(
        &file,
        text.replacen(
            "expected: { name: \"Ada\" }",
            "behaviours: [{ name: a, expected: {} }, { name: b, expected: { name: \"Ada\" } }]",
            1,
        ),
    )
    .unwrap();
    let errors = Corpus::from_dir(dir.path()).unwrap_err().0;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].to_string().split(": ").next(), Some("TOY-1/basics.yaml:9:9"), "{}", errors[0]);
    assert!(errors[0].to_string().contains("not among the levels of TOY-1"), "{}", errors[0]);
}

tests![
    a_third_rule_from_files_alone_gets_its_own_standing,
    a_rule_file_saying_one_error_holds_rejections_to_the_one_error,
    check_lists_the_third_rule_and_names_its_clauses_without_a_required_case,
    a_case_of_a_level_its_rule_does_not_list_is_an_error_at_its_level,
];
