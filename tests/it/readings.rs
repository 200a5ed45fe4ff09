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
    for variant in allowed::all() {
        let mut target = Defective::new(variant.name, variant.defect);
        let config = FuzzConfig { seed: 1, cases: Some(FUZZ_CASES), ..FuzzConfig::default() };
        let report = fuzz(&mut target, &config, &mut |_| {}, &|_| false);
        assert_eq!(report.cases, FUZZ_CASES, "{}: the fuzzer stopped early:\n{}", variant.name, render(&report));
        if !report.required.is_empty() {
            offending.push(format!("  {} ({}):\n{}", variant.name, variant.reading, render(&report)));
        }
    }
    assert!(
        offending.is_empty(),
        "the fuzzer made required findings against allowed readings:\n{}",
        offending.join("\n")
    );
}

/// Generated cases per variant in the fuzzer's tests.
const FUZZ_CASES: u64 = 1000;

/// Ruled-out readings the fuzzer's generators do not reach in their clauses, with why. The corpus
/// catches each (`ruled_out_readings_are_caught_by_their_clauses`); these are the fuzzer's gaps.
const FUZZ_UNREACHED: &[(&str, &str)] = &[
    (
        "first-problem-only",
        "caught as a required finding, but named by RT-TOOL-8.1: the first case that shows it is an invoke \
         whose arguments normalization changes, and src/fuzz/attribute.rs names such a difference by 8.1",
    ),
    (
        "html4-entity-table",
        "the generators' references are HTML 4.01 names, numeric references and legacy forms; none is a \
         name only the WHATWG table has (such as &apos; or &check;)",
    ),
];

/// And it still catches a reading the texts rule out, in one of the clauses that reading breaks,
/// but for the gaps [`FUZZ_UNREACHED`] names; a gap that closes must leave the list.
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
        let report = fuzz(&mut target, &config, &mut |_| {}, &|f| in_clauses(f));
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

tests![
    allowed_readings_fail_no_required_case,
    ruled_out_readings_are_caught_by_their_clauses,
    every_variant_differs_from_the_reference,
    the_html4_table_is_html4,
    the_fuzzer_makes_no_required_finding_against_an_allowed_reading,
    the_fuzzer_catches_every_ruled_out_reading_in_its_clauses,
];
