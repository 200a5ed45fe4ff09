//! Proves the corpus's power (issue 3, deliverable 4): the reference passes every required and
//! interpretation case of the embedded corpus, and every one of a catalog of defective targets —
//! each the reference with exactly one behaviour changed, most of them a behaviour a real
//! framework has (MCP SDK pre-parsing, pydantic lax coercion, Zod strip and first-issue errors,
//! Ajv open objects, single-pass entity decoding, transports that skip validation, drifting
//! published schemas) — fails at least one required case citing the clause it breaks. (Defects
//! whose behaviour docs/interpretations.md makes a reading, such as the order of JSON and entity
//! decoding, injected defaults or an additionalProperties schema read as opening the root, are held
//! to interpretation cases instead, and some, such as an error that names its transport, to the
//! checks beyond the text; at least 28 are held to required ones.) A defect the corpus cannot tell from the reference is a clause
//! without power, so the test lists every such gap at once. The defects live in `defects/catalog.rs`; `defects/harness.rs` is the wrapper
//! that applies one to the reference, and a test here checks that the wrapper with no defect is
//! the reference, so each defect's difference is its one change.

#[path = "defects/catalog.rs"]
pub(crate) mod catalog;
#[path = "defects/harness.rs"]
pub(crate) mod harness;

use harness::{Defective, NoDefect, rebuilt, reference_decode, reference_leaf};
use std::collections::BTreeSet;
use tool_conformance::case::Check;
use tool_conformance::reference::normalize::normalize;
use tool_conformance::report::terminal::failure;
use tool_conformance::run::run;
use tool_conformance::{Corpus, Level, Outcome, Reference, Run, Selection, Status, Target};

/// At least this many defects must be held to required cases.
const MIN_REQUIRED_DEFECTS: usize = 28;

fn corpus() -> Corpus {
    Corpus::embedded().unwrap_or_else(|errors| panic!("{errors}"))
}

fn run_against(corpus: &Corpus, target: &mut dyn Target) -> Run {
    run(corpus, &Selection::all(), target)
}

fn caught(outcome: &Outcome) -> bool {
    matches!(outcome.status, Status::Fail(_) | Status::Error { .. })
}

fn reference_passes_required_and_interpretation_cases() {
    let corpus = corpus();
    let run = run_against(&corpus, &mut Reference::new());
    let failing: Vec<&Outcome> = run
        .outcomes
        .iter()
        .filter(|o| matches!(o.level, Level::Required | Level::Interpretation) && o.status != Status::Pass)
        .collect();
    if !failing.is_empty() {
        let ids: Vec<&str> = failing.iter().map(|o| o.id.as_str()).collect();
        let details: Vec<String> = failing.iter().map(|o| failure(o)).collect();
        panic!(
            "the reference does not pass {} required/interpretation case(s): {}\n\n{}",
            ids.len(),
            ids.join(", "),
            details.join("\n")
        );
    }
}

fn the_unchanged_wrapper_is_the_reference() {
    let corpus = corpus();
    let reference = run_against(&corpus, &mut Reference::new());
    let wrapped = run_against(&corpus, &mut Defective::new("none", Box::new(NoDefect)));
    assert_eq!(reference.outcomes.len(), wrapped.outcomes.len());
    for (r, w) in reference.outcomes.iter().zip(&wrapped.outcomes) {
        assert_eq!(r, w, "the wrapper with no defect differs from the reference on {}", r.id);
    }
    // The rebuilt normalization, from which the RT-TOOL-8 defects are made, is the reference's.
    for case in &corpus.cases {
        let inputs: Vec<(&serde_json::Value, &serde_json::Value)> = match &case.check {
            Check::Normalize { input_schema, arguments, .. } => vec![(input_schema, arguments)],
            Check::Invoke { tools, arguments, .. } => tools.iter().map(|t| (&t.input_schema, arguments)).collect(),
            Check::Describe { .. } => Vec::new(),
        };
        for (schema, arguments) in inputs {
            assert_eq!(
                rebuilt(schema, arguments, &reference_decode, &reference_leaf),
                normalize(schema, arguments),
                "the rebuilt normalization differs from the reference on {}",
                case.id
            );
        }
    }
}

fn the_catalog_is_sound() {
    let corpus = corpus();
    let defects = catalog::all();
    let mut names = BTreeSet::new();
    for entry in &defects {
        assert!(names.insert(entry.name), "defect {} is listed twice", entry.name);
        assert!(
            corpus.catalog.clause(entry.clause).is_some(),
            "defect {} cites unknown clause {}",
            entry.name,
            entry.clause
        );
    }
    let required = defects.iter().filter(|d| d.level == Level::Required).count();
    assert!(required >= MIN_REQUIRED_DEFECTS, "only {required} defects are held to required cases");
    for rule in &corpus.catalog.rules {
        for clause in &rule.clauses {
            assert!(
                defects.iter().any(|d| d.clause == clause.id && d.level == Level::Required),
                "no defect breaks {}",
                clause.id
            );
        }
    }
}

/// What one defect's run showed, for the table.
struct Finding {
    name: &'static str,
    clause: &'static str,
    level: Level,
    behaviour: &'static str,
    /// Cases of the defect's clause, at its level, that caught it.
    caught: Vec<String>,
    /// Cases of the clause at that level.
    of: usize,
    /// When none did: the required cases of other clauses that caught it.
    elsewhere: Vec<String>,
}

/// Runs the cases of the defect's clause against it and, only when none catches it, the whole
/// corpus, to show what does.
fn find(corpus: &Corpus, entry: harness::Entry) -> Finding {
    let mut target = Defective::new(entry.name, entry.defect);
    let clause = Selection::new(Vec::new(), vec![entry.clause.to_string()], Vec::new()).expect("a clause selection");
    let in_clause = run(corpus, &clause, &mut target).outcomes;
    // A defect held to the interpretation level is caught by an interpretation case of its clause,
    // or by a check beyond the text (a reading check) on any case of it.
    let at_level =
        |o: &&Outcome| o.level == entry.level || (entry.level == Level::Interpretation && !o.readings.is_empty());
    let caught_here = |o: &&Outcome| {
        (o.level == entry.level && caught(o))
            || (entry.level == Level::Interpretation && o.readings.iter().any(|r| r.failure.is_some()))
    };
    let caught: Vec<String> = in_clause.iter().filter(caught_here).map(|o| o.id.clone()).collect();
    let of = in_clause.iter().filter(at_level).count();
    let elsewhere = if caught.is_empty() {
        let whole = run_against(corpus, &mut target);
        let others =
            whole.outcomes.into_iter().filter(|o| o.breaks_rule() && !o.clauses.iter().any(|c| c == entry.clause));
        others.map(|o| o.id).collect()
    } else {
        Vec::new()
    };
    Finding {
        name: entry.name,
        clause: entry.clause,
        level: entry.level,
        behaviour: entry.behaviour,
        caught,
        of,
        elsewhere,
    }
}

fn every_defect_is_caught_in_its_own_clause() {
    let corpus = corpus();
    // The defects run on a few threads; each builds its own catalog and takes every n-th entry.
    let workers = std::thread::available_parallelism().map_or(1, usize::from).min(8);
    let mut findings: Vec<(usize, Finding)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let corpus = &corpus;
                scope.spawn(move || {
                    let mine = catalog::all().into_iter().enumerate().filter(|(i, _)| i % workers == worker);
                    mine.map(|(index, entry)| (index, find(corpus, entry))).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a defect run panicked")).collect()
    });
    findings.sort_by_key(|(index, _)| *index);
    let findings: Vec<Finding> = findings.into_iter().map(|(_, f)| f).collect();

    let width = findings.iter().map(|f| f.name.len()).max().unwrap_or(0);
    println!("{:width$}  {:24}  {:>9}  example", "defect", "clause", "caught");
    for f in &findings {
        let level = if f.level == Level::Required { String::new() } else { format!(" ({})", f.level) };
        let example = f.caught.first().map(String::as_str).unwrap_or("-");
        let count = format!("{}/{}", f.caught.len(), f.of);
        println!("{:width$}  {:24}  {count:>9}  {example}{level}", f.name, f.clause);
    }

    let gaps: Vec<String> = findings
        .iter()
        .filter(|f| f.caught.is_empty())
        .map(|f| {
            let elsewhere = match f.elsewhere.first() {
                Some(id) => format!("; fails {} required case(s) of other clauses, e.g. {id}", f.elsewhere.len()),
                None => "; no required case of any clause fails".into(),
            };
            format!("  {} ({}): {}{elsewhere}", f.name, f.clause, f.behaviour)
        })
        .collect();
    assert!(
        gaps.is_empty(),
        "{} of {} defects are not caught by any {} case of their clause:\n{}",
        gaps.len(),
        findings.len(),
        "required (or, where marked, interpretation)",
        gaps.join("\n")
    );
}

tests![
    reference_passes_required_and_interpretation_cases,
    the_unchanged_wrapper_is_the_reference,
    the_catalog_is_sound,
    every_defect_is_caught_in_its_own_clause,
];
