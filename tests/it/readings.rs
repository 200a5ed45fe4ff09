//! Proves that the required level asks only what the rule texts ask: implementations that each
//! take one reading the texts leave open (`readings/allowed.rs`) fail no required case of the
//! embedded corpus, and implementations that take a reading the texts rule out
//! (`readings/ruled_out.rs`) still fail a required case of the clause they break. Each variant is
//! the reference with that one reading, built on the defect harness (`defects/harness.rs`). A
//! failing test lists every offending case of every variant at once, with the check that failed.

#[path = "readings/allowed.rs"]
mod allowed;
#[path = "readings/ruled_out.rs"]
mod ruled_out;

use crate::defects::{catalog, harness};
use harness::{Defect, Defective, NoDefect};
use std::collections::BTreeSet;
use tool_conformance::reference::entities;
use tool_conformance::run::run;
use tool_conformance::{Corpus, Level, Outcome, Selection, Status};

/// One implementation that takes one reading, and is otherwise the reference.
pub struct Variant {
    /// Short kebab-case name.
    pub name: &'static str,
    /// For a ruled-out reading: the clauses whose required cases must catch it (empty for an
    /// allowed one).
    pub clauses: &'static [&'static str],
    /// The reading, in words.
    pub reading: &'static str,
    /// The change from the reference.
    pub defect: Box<dyn Defect>,
}

fn corpus() -> Corpus {
    Corpus::embedded().unwrap_or_else(|errors| panic!("{errors}"))
}

/// A required case the variant fails or errors, with the check that failed.
struct Broken {
    id: String,
    clauses: Vec<String>,
    reason: String,
}

/// What one variant's run of the whole corpus showed.
struct Finding {
    name: &'static str,
    clauses: &'static [&'static str],
    reading: &'static str,
    broken: Vec<Broken>,
    /// Every outcome, for comparing with the reference.
    outcomes: Vec<Outcome>,
}

/// The check that failed, in one line (a message the check quotes is left out).
fn reason(outcome: &Outcome) -> Option<String> {
    match &outcome.status {
        Status::Fail(failure) => {
            let check = failure.check.split(" (message: ").next().unwrap_or_default();
            let at = if failure.pointer.is_empty() { String::new() } else { format!(" at {}", failure.pointer) };
            Some(format!("{check}{at}"))
        }
        Status::Error { reason } => Some(format!("error: {}", reason.lines().next().unwrap_or_default())),
        _ => None,
    }
}

fn find(corpus: &Corpus, variant: Variant) -> Finding {
    let mut target = Defective::new(variant.name, variant.defect);
    let outcomes = run(corpus, &Selection::all(), &mut target).outcomes;
    let broken = outcomes
        .iter()
        .filter(|o| o.level == Level::Required)
        .filter_map(|o| Some(Broken { id: o.id.clone(), clauses: o.clauses.clone(), reason: reason(o)? }))
        .collect();
    Finding { name: variant.name, clauses: variant.clauses, reading: variant.reading, broken, outcomes }
}

/// Every variant `list` builds, run on a few threads; each thread builds its own list (a
/// variant is not `Send`) and takes every n-th one.
fn find_all(corpus: &Corpus, list: fn() -> Vec<Variant>) -> Vec<Finding> {
    let workers = std::thread::available_parallelism().map_or(1, usize::from).min(8);
    let mut findings: Vec<(usize, Finding)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                scope.spawn(move || {
                    let mine = list().into_iter().enumerate().filter(|(i, _)| i % workers == worker);
                    mine.map(|(index, variant)| (index, find(corpus, variant))).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a variant run panicked")).collect()
    });
    findings.sort_by_key(|(index, _)| *index);
    findings.into_iter().map(|(_, f)| f).collect()
}

/// The variant's required failures that count for its table row: all of them for an allowed
/// reading, those of the clauses it breaks for a ruled-out one.
fn counted(finding: &Finding) -> Vec<&Broken> {
    let in_clauses =
        |b: &&Broken| finding.clauses.is_empty() || b.clauses.iter().any(|c| finding.clauses.contains(&c.as_str()));
    finding.broken.iter().filter(in_clauses).collect()
}

fn print_table(title: &str, findings: &[Finding]) {
    let width = findings.iter().map(|f| f.name.len()).max().unwrap_or(0).max("variant".len());
    println!("{title}");
    println!("{:width$}  {:>17}  example", "variant", "required failures");
    for f in findings {
        let counted = counted(f);
        let example = counted.first().map(|b| format!("{} ({})", b.id, b.reason)).unwrap_or_else(|| "-".into());
        let clauses = if f.clauses.is_empty() { String::new() } else { format!(" [{}]", f.clauses.join(", ")) };
        println!("{:width$}  {:>17}  {example}{clauses}", f.name, counted.len());
    }
    println!();
}

fn allowed_readings_fail_no_required_case() {
    let corpus = corpus();
    let findings = find_all(&corpus, allowed::all);
    print_table("allowed readings (each must fail no required case)", &findings);
    let offending: Vec<String> = findings
        .iter()
        .filter(|f| !f.broken.is_empty())
        .map(|f| {
            let lines: Vec<String> = f.broken.iter().map(|b| format!("    {}: {}", b.id, b.reason)).collect();
            format!("  {} ({}), {} required case(s):\n{}", f.name, f.reading, f.broken.len(), lines.join("\n"))
        })
        .collect();
    assert!(
        offending.is_empty(),
        "{} of {} allowed readings fail required cases:\n{}",
        offending.len(),
        findings.len(),
        offending.join("\n")
    );
}

fn ruled_out_readings_are_caught_by_their_clauses() {
    let corpus = corpus();
    let findings = find_all(&corpus, ruled_out::all);
    print_table("ruled-out readings (each must fail a required case of its clauses)", &findings);
    for f in &findings {
        for clause in f.clauses {
            assert!(corpus.catalog.clause(clause).is_some(), "{} cites unknown clause {clause}", f.name);
        }
    }
    let missed: Vec<String> = findings
        .iter()
        .filter(|f| counted(f).is_empty())
        .map(|f| {
            let elsewhere = match f.broken.first() {
                Some(b) => format!("; fails {} required case(s) of other clauses, e.g. {}", f.broken.len(), b.id),
                None => "; no required case fails".into(),
            };
            format!("  {} ({}): {}{elsewhere}", f.name, f.clauses.join(", "), f.reading)
        })
        .collect();
    assert!(missed.is_empty(), "ruled-out readings no required case of their clauses catches:\n{}", missed.join("\n"));
}

/// Each variant changes something the corpus sees: a variant that runs like the reference proves
/// nothing about its reading.
fn every_variant_differs_from_the_reference() {
    let corpus = corpus();
    let reference = run(&corpus, &Selection::all(), &mut Defective::new("none", Box::new(NoDefect))).outcomes;
    let lists: [fn() -> Vec<Variant>; 2] = [allowed::all, ruled_out::all];
    let mut names = BTreeSet::new();
    let mut same = Vec::new();
    for list in lists {
        for f in find_all(&corpus, list) {
            assert!(names.insert(f.name), "variant {} is listed twice", f.name);
            assert_eq!(f.outcomes.len(), reference.len());
            if f.outcomes == reference {
                same.push(f.name);
            }
        }
    }
    assert!(same.is_empty(), "variants with the reference's outcome on every case: {}", same.join(", "));
}

/// The cut-down table is HTML 4.01's: 252 distinct names, each one the WHATWG table also has, and
/// the decoder built on it agrees with the reference wherever HTML 4 knows the reference.
fn the_html4_table_is_html4() {
    let names: BTreeSet<&str> = ruled_out::HTML4_NAMES.iter().copied().collect();
    assert_eq!(names.len(), 252);
    for name in names {
        let reference = format!("&{name};");
        let decoded = entities::decode_once(&reference);
        assert_eq!(decoded.chars().count(), 1, "&{name}; is one character in the WHATWG table");
        assert_eq!(ruled_out::html4_decode(&reference), decoded, "&{name};");
    }
    for (text, expected) in [
        ("Ember &amp;amp; Oak", "Ember & Oak"),
        ("&#39;&#x27;&#128;&#", "''€&#"),
        ("&copy2023 &notit; &notin;", "©2023 ¬it; ∉"),
        ("&apos; &NotEqualTilde; &AMP; &Lt;", "&apos; &NotEqualTilde; &AMP; &Lt;"),
        ("AT&T &unknown; &", "AT&T &unknown; &"),
    ] {
        assert_eq!(ruled_out::html4_decode(text), expected, "{text}");
    }
}

/// The fuzzer is held to the same line as the corpus: against an implementation that takes a
/// reading the texts leave open it makes no required finding, so a generated case never tells a
/// careful reader "does not conform".
fn the_fuzzer_makes_no_required_finding_against_an_allowed_reading() {
    use tool_conformance::fuzz::{FuzzConfig, fuzz};
    use tool_conformance::report::fuzz::render;
    let mut offending = Vec::new();
    for seed in FUZZ_SEEDS {
        for variant in allowed::all() {
            let mut target = Defective::new(variant.name, variant.defect);
            let config = FuzzConfig { seed, cases: Some(FUZZ_CASES), ..FuzzConfig::default() };
            let report = fuzz(&mut target, &config, &mut |_| {}, &|_| false);
            assert_eq!(report.cases, FUZZ_CASES, "{}: the fuzzer stopped early:\n{}", variant.name, render(&report));
            if !report.required.is_empty() {
                offending.push(format!("  {} ({}), seed {seed}:\n{}", variant.name, variant.reading, render(&report)));
            }
        }
    }
    assert!(
        offending.is_empty(),
        "the fuzzer made required findings against allowed readings:\n{}",
        offending.join("\n")
    );
}

/// Generated cases per variant and seed in the fuzzer's tests.
const FUZZ_CASES: u64 = 1000;

/// The seeds each allowed reading is fuzzed with: the fixed budget is `FUZZ_CASES` for each.
const FUZZ_SEEDS: [u64; 2] = [1, 2];

/// Ruled-out readings the fuzzer's generators do not reach in their clauses, with why. The corpus
/// catches each (`ruled_out_readings_are_caught_by_their_clauses`); these would be the fuzzer's
/// gaps. There are none: `first-problem-only` was named by RT-TOOL-8.1 until a finding dropped
/// what normalization changed without changing the outcome, and `html4-entity-table` went
/// unreached until the generators drew names only the WHATWG table has (`&apos;`, `&check;`, and
/// any name of the table).
const FUZZ_UNREACHED: &[(&str, &str)] = &[];

/// And it still catches a reading the texts rule out, as a required finding in one of the clauses
/// that reading breaks, but for the gaps [`FUZZ_UNREACHED`] names; a gap that closes must leave the
/// list.
fn the_fuzzer_catches_every_ruled_out_reading_in_its_clauses() {
    use tool_conformance::fuzz::{FuzzConfig, fuzz};
    let mut missed = Vec::new();
    let mut closed = Vec::new();
    for variant in ruled_out::all() {
        let clauses = variant.clauses;
        let name = variant.name;
        let mut target = Defective::new(name, variant.defect);
        let config = FuzzConfig { seed: 1, cases: Some(FUZZ_CASES), ..FuzzConfig::default() };
        let in_clauses = |f: &tool_conformance::fuzz::Finding| f.clauses.iter().any(|c| clauses.contains(&c.as_str()));
        let report = fuzz(&mut target, &config, &mut |_| {}, &|f| f.level == Level::Required && in_clauses(f));
        let caught = report.required.iter().any(in_clauses);
        let listed = FUZZ_UNREACHED.iter().any(|(n, _)| *n == name);
        if !caught && !listed {
            let found: Vec<String> = report.required.iter().map(|f| f.clauses.join("+")).collect();
            missed.push(format!("  {name} ({}): required findings in {found:?}", clauses.join(", ")));
        }
        if caught && listed {
            closed.push(name);
        }
    }
    assert!(missed.is_empty(), "ruled-out readings the fuzzer did not catch in their clauses:\n{}", missed.join("\n"));
    assert!(closed.is_empty(), "caught now, so remove from FUZZ_UNREACHED: {closed:?}");
}

/// The readings the reference records agree with the strictest reading the texts allow, however a
/// schema says what it says (a type or a list of one, a one-branch `anyOf`, a `$ref`, the schema
/// `true`; the generators spell parameters each way): whenever a call's answer takes no reading,
/// and the reference executes it, what its handler receives passes validation under the
/// strictest reading (`judge::passes_validation`). A recorder that misses a spelling lets a
/// generated case hold a careful reader to the reference's reading at the required level.
fn every_reading_recorder_agrees_with_the_strictest_validator() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    use tool_conformance::Tool;
    use tool_conformance::fuzz::generate::raw;
    use tool_conformance::judge::passes_validation;
    use tool_conformance::reference::readings::of_invoke;
    use tool_conformance::reference::registry::Registry;

    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[27; 32]));
    let (mut executed, mut spelled, mut disagreements) = (0, 0, Vec::new());
    for _ in 0..PROPERTY_CASES {
        let generated = raw().new_tree(&mut runner).expect("a generated case").current().build();
        let (schema, arguments) = (&generated.schema, &generated.arguments);
        let tools = vec![Tool { name: "t".into(), description: None, input_schema: schema.clone() }];
        let Ok(registry) = Registry::new(&tools) else { continue };
        let executor = registry.executor("t").expect("registered");
        let mut received = None;
        let answer = executor.execute(arguments, &mut |v| received = Some(v)).map(|()| received.clone().unwrap());
        let readings = of_invoke(schema, arguments, &answer);
        let Ok(received) = answer else { continue };
        if readings.level() != Level::Required {
            continue;
        }
        executed += 1;
        let text = schema.to_string();
        if ["\"$ref\"", "\"anyOf\"", "\"type\":[", ":true"].iter().any(|s| text.contains(s)) {
            spelled += 1;
        }
        if !passes_validation(schema, &received) && disagreements.len() < 10 {
            disagreements.push(format!("  schema {schema}\n  arguments {arguments}\n  received {received}"));
        }
    }
    println!("{executed} executed calls that took no reading, {spelled} of them with a respelled schema");
    assert!(executed > PROPERTY_CASES as usize / 20, "too few executed calls to judge: {executed}");
    assert!(spelled > executed / 10, "too few respelled schemas: {spelled} of {executed}");
    assert!(
        disagreements.is_empty(),
        "calls the reference executes at the required level that the strictest reading rejects:\n{}",
        disagreements.join("\n\n")
    );
}

/// Generated calls in the property test.
const PROPERTY_CASES: u32 = 4000;

/// The same property from the other side: on generated inputs whose answer takes no reading
/// (`reference::readings` records none), every implementation of `readings/allowed.rs` answers as
/// the reference does: the same normalized arguments, and on a direct call the same outcome, what
/// the handler received, or the same problems (kind and field, in any order). A refused normalize
/// is left out (the runner judges it apart). So each recorder names every reading an allowed
/// implementation can take on these inputs, however the schema spells what it says.
fn every_allowed_reading_answers_an_input_that_takes_no_reading_as_the_reference() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    use serde_json::Value;
    use tool_conformance::fuzz::generate::{Kind, raw};
    use tool_conformance::reference::normalize::normalize;
    use tool_conformance::reference::readings::{of_invoke, of_normalize};
    use tool_conformance::reference::registry::Registry;
    use tool_conformance::{Invocation, Target, Tool, Transport};

    /// An answer to `arguments` reduced to what every allowed reading must share: for arguments
    /// that are not an object, only that they were rejected (what the error says is a reading).
    fn shared(arguments: &Value, invocation: &Invocation) -> Value {
        match invocation {
            Invocation::Executed { received, .. } => serde_json::json!({ "executed": received }),
            Invocation::Rejected { .. } | Invocation::RejectedUnstructured { .. } if !arguments.is_object() => {
                serde_json::json!({ "rejected": "not an object" })
            }
            Invocation::Rejected { error, .. } => {
                let mut problems: Vec<String> = error["problems"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|p| format!("{}:{}", p["kind"], p["field"]))
                    .collect();
                problems.sort();
                serde_json::json!({ "rejected": problems })
            }
            Invocation::RejectedUnstructured { message, .. } => serde_json::json!({ "rejected": message }),
        }
    }

    let mut variants: Vec<(&'static str, Defective, bool)> = allowed::all()
        .into_iter()
        .map(|v| {
            let mut target = Defective::new(v.name, v.defect);
            let validates = target.start().expect("starts").rules.iter().any(|r| r == "PLAT-162");
            (v.name, target, validates)
        })
        .collect();
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[62; 32]));
    let (mut judged, mut disagreements) = (0, Vec::new());
    for _ in 0..VARIANT_PROPERTY_CASES {
        let generated = raw().new_tree(&mut runner).expect("a generated case").current().build();
        let (schema, arguments) = (&generated.schema, &generated.arguments);
        let tools = vec![Tool { name: "t".into(), description: None, input_schema: schema.clone() }];
        let Ok(registry) = Registry::new(&tools) else { continue };
        if generated.kind == Kind::Normalize {
            if of_normalize(schema, arguments).level() != Level::Required {
                continue;
            }
            judged += 1;
            let expected = normalize(schema, arguments);
            for (name, target, _) in &mut variants {
                if let Ok(got) = target.normalize(schema, arguments) {
                    if expected != got && disagreements.len() < 10 {
                        disagreements.push(format!("  {name}: normalize {schema} {arguments}: {got}"));
                    }
                }
            }
            continue;
        }
        let executor = registry.executor("t").expect("registered");
        let mut received = None;
        let answer = executor.execute(arguments, &mut |v| received = Some(v)).map(|()| received.clone().unwrap());
        if of_invoke(schema, arguments, &answer).level() != Level::Required {
            continue;
        }
        judged += 1;
        let reference = shared(arguments, &match &answer {
            Ok(received) => Invocation::Executed { handler_calls: 1, received: received.clone() },
            Err(rejection) => Invocation::Rejected { handler_calls: 0, error: rejection.to_json() },
        });
        for (name, target, validates) in &mut variants {
            if !*validates {
                continue;
            }
            target.register(&tools).expect("registers");
            let got = shared(arguments, &target.invoke("t", Transport::Direct, arguments).expect("answers"));
            if reference != got && disagreements.len() < 10 {
                disagreements.push(format!("  {name}: invoke {schema} {arguments}:\n    {reference}\n    {got}"));
            }
        }
    }
    println!("{judged} generated inputs that take no reading");
    assert!(judged > VARIANT_PROPERTY_CASES as usize / 3, "too few inputs judged: {judged}");
    assert!(
        disagreements.is_empty(),
        "allowed readings that answer an input taking no reading otherwise:\n{}",
        disagreements.join("\n")
    );
}

/// Generated inputs in the property over the allowed readings.
const VARIANT_PROPERTY_CASES: u32 = 3000;

/// The behaviours the informational case on a lone surrogate escape names are the answers that
/// show them, as the harness reads an answer off the wire: the text kept, the list holding the
/// lone surrogate itself (what JavaScript's and Python's JSON parsers give), and the list holding
/// U+FFFD.
fn the_lone_surrogate_behaviours_match_the_answers_that_show_them() {
    use tool_conformance::case::{Check, Expect};
    use tool_conformance::peer::protocol::parse_answer;
    let corpus = corpus();
    let case = corpus.cases.iter().find(|c| c.id == "RT-TOOL-8/json-decoding/lone-surrogate-escape").expect("the case");
    let Check::Normalize { expect: Expect::Behaviours(behaviours), .. } = &case.check else {
        panic!("a normalize case with behaviours")
    };
    for (answer, behaviour) in [
        (r#"{"tags":"[\"\\ud800\"]"}"#, "left-as-sent"),
        (r#"{"tags":["\ud800"]}"#, "decoded-keeping-surrogate"),
        (r#"{"tags":["\ufffd"]}"#, "decoded-with-replacement"),
    ] {
        let answer = parse_answer(answer).expect("valid JSON");
        let matching: Vec<&str> =
            behaviours.iter().filter(|(_, expected)| *expected == answer).map(|(name, _)| name.as_str()).collect();
        assert_eq!(matching, [behaviour], "{answer}");
    }
}

tests![
    allowed_readings_fail_no_required_case,
    ruled_out_readings_are_caught_by_their_clauses,
    every_variant_differs_from_the_reference,
    the_html4_table_is_html4,
    the_fuzzer_makes_no_required_finding_against_an_allowed_reading,
    the_fuzzer_catches_every_ruled_out_reading_in_its_clauses,
    every_reading_recorder_agrees_with_the_strictest_validator,
    every_allowed_reading_answers_an_input_that_takes_no_reading_as_the_reference,
    the_lone_surrogate_behaviours_match_the_answers_that_show_them,
];
