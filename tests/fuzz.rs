//! The fuzzer's power (issue 17), within a bounded budget so the suite stays fast:
//! - against the reference it makes no required finding (and, the reference being its own
//!   oracle, no interpretation finding either);
//! - against each defective implementation of `tests/defects` it finds the defect in the clause
//!   the catalog names, at the catalog's level, within [`BUDGET`] generated cases, except the
//!   defects listed in [`UNREACHED`] with the reason;
//! - a finding's written case file is accepted by `check --add-cases` and reproduces with
//!   `run --add-cases`.
//!
//! The long runs (100,000 cases against `serve --stdio` and the Python example) are commands run
//! by hand, with their figures in docs/mutation.md.

#[path = "defects/catalog.rs"]
#[allow(dead_code)]
mod catalog;
#[path = "defects/harness.rs"]
#[allow(dead_code)]
mod harness;

use harness::Defective;
use std::process::Command;
use tool_conformance::fuzz::{FuzzConfig, fuzz};
use tool_conformance::{Level, Reference};

/// Generated cases each defect gets before the test calls it unfound.
const BUDGET: u64 = 2000;

/// Generated cases against the reference.
const REFERENCE_CASES: u64 = 1000;

/// Defects the fuzzer does not reach in their clause, with why.
const UNREACHED: &[(&str, &str)] = &[];

fn config(seed: u64, cases: u64) -> FuzzConfig {
    FuzzConfig { seed, cases: Some(cases), ..FuzzConfig::default() }
}

#[test]
fn the_reference_has_no_finding() {
    let report = fuzz(&mut Reference::new(), &config(7, REFERENCE_CASES), &mut |_| {}, &|_| false);
    assert_eq!(report.cases, REFERENCE_CASES);
    assert!(report.judged.0 > REFERENCE_CASES / 2, "too few cases judged at the required level: {:?}", report.judged);
    assert!(report.judged.1 > 0, "no case touched a reading: {:?}", report.judged);
    assert!(
        report.required.is_empty() && report.interpretation.is_empty() && report.faults.is_empty(),
        "{}",
        tool_conformance::fuzz::render(&report)
    );
}

#[test]
fn every_defect_is_found_in_its_clause() {
    let defects = catalog::all();
    let workers = std::thread::available_parallelism().map_or(1, usize::from).min(4);
    let results: Vec<(usize, String)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                scope.spawn(move || {
                    let mine = catalog::all().into_iter().enumerate().filter(|(i, _)| i % workers == worker);
                    mine.map(|(index, entry)| {
                        let (name, clause, level) = (entry.name, entry.clause, entry.level);
                        let mut target = Defective::new(entry.name, entry.defect);
                        let wanted = |f: &tool_conformance::fuzz::Finding| {
                            f.clauses.iter().any(|c| c == clause) && f.level == level
                        };
                        let report = fuzz(&mut target, &config(1, BUDGET), &mut |_| {}, &|f| wanted(f));
                        let found = report.required.iter().chain(&report.interpretation).find(|f| wanted(f));
                        let line = match found {
                            Some(f) => format!(
                                "{name:36} {clause:26} found after {:>5} cases ({}), shrunk in {} steps: {}",
                                f.index + 1,
                                f.level,
                                f.shrink_steps,
                                f.failure.check
                            ),
                            None => {
                                let other: Vec<String> = report
                                    .required
                                    .iter()
                                    .chain(&report.interpretation)
                                    .map(|f| format!("{} {}", f.level, f.clauses.join("+")))
                                    .collect();
                                format!(
                                    "{name:36} {clause:26} NOT FOUND in {} cases (found instead: {other:?})",
                                    report.cases
                                )
                            }
                        };
                        (index, line)
                    })
                    .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a defect run panicked")).collect()
    });
    let mut results = results;
    results.sort();
    for (_, line) in &results {
        println!("{line}");
    }
    let missing: Vec<&String> = results
        .iter()
        .map(|(_, l)| l)
        .filter(|l| l.contains("NOT FOUND") && !UNREACHED.iter().any(|(n, _)| l.starts_with(n)))
        .collect();
    assert_eq!(results.len(), defects.len());
    assert!(
        missing.is_empty(),
        "{} defects not found:\n{}",
        missing.len(),
        missing.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn a_written_finding_is_accepted_and_reproduces() {
    let dir = tempfile::tempdir().expect("temp dir");
    let entry = catalog::all().into_iter().find(|e| e.name == "lax-coercion").expect("the defect");
    let mut target = Defective::new(entry.name, entry.defect);
    let config = FuzzConfig { out: Some(dir.path().to_path_buf()), ..config(1, BUDGET) };
    let report = fuzz(&mut target, &config, &mut |_| {}, &|f| f.level == Level::Required);
    let finding = report.required.first().expect("a required finding");
    let file = finding.file.as_ref().expect("a file written");
    assert!(file.starts_with(dir.path().join(&finding.case.rule)), "{}", file.display());
    let binary = env!("CARGO_BIN_EXE_tool-conformance");
    let added = dir.path().to_str().unwrap();
    let check = Command::new(binary).args(["check", "--add-cases", added]).output().expect("check");
    assert!(
        check.status.success(),
        "check refused {}:\n{}\n{}",
        file.display(),
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    // The reference passes it; the written case is the reference's answer.
    let id = format!("{}/*/{}", finding.case.rule, format_args!("seed-{}-case-{}", finding.seed, finding.index));
    let run = Command::new(binary).args(["run", "--add-cases", added, "--case", &id]).output().expect("run");
    assert!(run.status.success(), "the reference fails its own answer:\n{}", String::from_utf8_lossy(&run.stdout));
    // The case, run by the suite's runner against the defect, fails again.
    let corpus =
        tool_conformance::Corpus::embedded().unwrap().with_added(dir.path()).expect("the corpus with the case");
    let selection = tool_conformance::Selection::new(vec![], vec![], vec![id.clone()]).unwrap();
    let entry = catalog::all().into_iter().find(|e| e.name == "lax-coercion").expect("the defect");
    let ran = tool_conformance::run::run(&corpus, &selection, &mut Defective::new(entry.name, entry.defect));
    assert_eq!(ran.outcomes.len(), 1, "{id}");
    assert!(ran.breaks_a_rule(), "the written case does not reproduce: {:?}", ran.outcomes[0].status);
}
