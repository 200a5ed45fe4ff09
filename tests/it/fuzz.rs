//! The fuzzer's power, within a bounded budget so the suite stays fast:
//! - against the reference it makes no required finding (and, the reference being its own
//!   oracle, no interpretation finding either);
//! - against each defective implementation of `tests/defects` it finds the defect in the clause
//!   the catalog names, at the catalog's level, within [`BUDGET`] generated cases, except the
//!   defects listed in [`UNREACHED`] with the reason;
//! - its first required finding names the defect's own rule;
//! - every case it writes is accepted by `check --add-cases`, fails the defect again when run
//!   with `run --add-cases`, and the reference passes it (a finding of a check beyond the text is
//!   not written).
//!
//! The long runs (100,000 cases against `serve --stdio` and the Python example) are commands run
//! by hand, with their figures in docs/mutation.md.

use crate::defects::{catalog, harness};
use harness::Defective;
use std::path::Path;
use std::process::Command;
use tool_conformance::fuzz::{Finding, FuzzConfig, fuzz, write};
use tool_conformance::run::run;
use tool_conformance::{Corpus, Level, Reference, Selection, Status};

/// The catalog's entry type, by a path the helper can name.
mod catalog_entry {
    pub use super::harness::Entry;
}

/// Generated cases each defect gets before the test calls it unfound.
const BUDGET: u64 = 2000;

/// Generated cases against the reference.
const REFERENCE_CASES: u64 = 1000;

/// Defects the fuzzer does not reach in their clause, with why.
const UNREACHED: &[(&str, &str)] = &[(
    "invoke-decodes-nested-keys",
    "the generators write no key holding a reference below the root of a call's arguments; the only such \
     key is `k&amp;1` inside JSON text, where whether it is decoded is a reading (entities first), so the \
     finding is never required. RT-TOOL-8/pipeline/nested-keys-reach-handler-as-sent catches it.",
)];

fn config(seed: u64, cases: u64) -> FuzzConfig {
    FuzzConfig { seed, cases: Some(cases), ..FuzzConfig::default() }
}

fn the_reference_has_no_finding() {
    let report = fuzz(&mut Reference::new(), &config(7, REFERENCE_CASES), &mut |_| {}, &|_| false);
    assert_eq!(report.cases, REFERENCE_CASES);
    assert!(report.judged.0 > REFERENCE_CASES / 2, "too few cases judged at the required level: {:?}", report.judged);
    assert!(report.judged.1 > 0, "no case touched a reading: {:?}", report.judged);
    assert!(
        report.required.is_empty() && report.interpretation.is_empty() && report.faults.is_empty(),
        "{}",
        tool_conformance::report::fuzz::render(&report)
    );
}

/// One defect's run: what was found, and whether its written case fails it again.
struct Hunt {
    line: String,
    found: bool,
    reproduced: bool,
    /// How many of its findings were written as cases.
    written: usize,
    /// Whether its first required finding (up to the one in its clause) names the defect's own
    /// rule.
    own_rule: bool,
}

/// Fuzzes one defect with its case files written into `dir/<name>/`, then runs the written case
/// of the finding in its clause, added to the corpus, against a fresh copy of the defect.
fn hunt(entry: catalog_entry::Entry, corpus: &Corpus, dir: &Path) -> Hunt {
    let (name, clause, level) = (entry.name, entry.clause, entry.level);
    let out = dir.join(name);
    let wanted = |f: &Finding| f.clauses.iter().any(|c| c == clause) && f.level == level;
    let mut target = Defective::new(name, entry.defect);
    let config = FuzzConfig { out: Some(out.clone()), ..config(1, BUDGET) };
    let report = fuzz(&mut target, &config, &mut |_| {}, &|f| wanted(f));
    let Some(f) = report.required.iter().chain(&report.interpretation).find(|f| wanted(f)) else {
        let other: Vec<String> = report
            .required
            .iter()
            .chain(&report.interpretation)
            .map(|f| format!("{} {}", f.level, f.clauses.join("+")))
            .collect();
        let line = format!("{name:36} {clause:26} NOT FOUND in {} cases (found instead: {other:?})", report.cases);
        return Hunt { line, found: false, reproduced: false, written: 0, own_rule: true };
    };
    let first = report.required.first().map_or("-".to_string(), |r| r.clauses[0].clone());
    let rule_of = |clause: &str| clause.split('.').next().unwrap_or_default().to_string();
    let own_rule = first == "-" || rule_of(&first) == rule_of(clause);
    let line = format!(
        "{name:36} {clause:26} found after {:>5} cases ({}), shrunk in {} steps: {} [first required finding: {first}]",
        f.index + 1,
        f.level,
        f.shrink_steps,
        f.failure.check
    );
    // A finding of a check beyond the text is not written (a case never holds such a check).
    if !write::is_written(f) {
        assert!(f.file.is_none(), "{name}: a finding of a check beyond the text was written");
        let line = format!("{line} (not written: a check beyond the text)");
        return Hunt { line, found: true, reproduced: true, written: 0, own_rule };
    }
    // Every written case, run by the suite's runner (what `run --add-cases` does), fails the
    // defect again at its own check, and the reference passes it.
    let added =
        corpus.clone().with_added(&out).unwrap_or_else(|e| panic!("{name}: the written case does not load: {e}"));
    let written: Vec<String> = report
        .required
        .iter()
        .chain(&report.interpretation)
        .filter(|f| write::is_written(f))
        .map(write::case_id)
        .collect();
    let selection = Selection::new(vec![], vec![], written.clone()).expect("a selection");
    let entry = catalog::all().into_iter().find(|e| e.name == name).expect("the defect");
    let ran = run(&added, &selection, &mut Defective::new(name, entry.defect));
    let reference = run(&added, &selection, &mut Reference::new());
    let reproduced = ran.outcomes.len() == written.len()
        && ran.outcomes.iter().all(|o| matches!(o.status, Status::Fail(_)))
        && reference.outcomes.iter().all(|o| o.status == Status::Pass);
    Hunt { line, found: true, reproduced, written: written.len(), own_rule }
}

fn every_defect_is_found_in_its_clause_and_its_case_reproduces() {
    let defects = catalog::all();
    let corpus = Corpus::embedded().expect("the corpus");
    let dir = tempfile::tempdir().expect("temp dir");
    let workers = std::thread::available_parallelism().map_or(1, usize::from).min(4);
    let mut results: Vec<(usize, Hunt)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let (corpus, dir) = (&corpus, dir.path());
                scope.spawn(move || {
                    let mine = catalog::all().into_iter().enumerate().filter(|(i, _)| i % workers == worker);
                    mine.map(|(index, entry)| (index, hunt(entry, corpus, dir))).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a defect run panicked")).collect()
    });
    results.sort_by_key(|(i, _)| *i);
    for (_, hunt) in &results {
        println!(
            "{}{}",
            hunt.line,
            if hunt.found && !hunt.reproduced { "  (its case does NOT reproduce)" } else { "" }
        );
    }
    assert_eq!(results.len(), defects.len());
    let missing: Vec<&str> = results
        .iter()
        .filter(|(_, h)| !h.found && !UNREACHED.iter().any(|(n, _)| h.line.starts_with(n)))
        .map(|(_, h)| h.line.as_str())
        .collect();
    assert!(missing.is_empty(), "{} defects not found:\n{}", missing.len(), missing.join("\n"));
    let unreproduced: Vec<&str> =
        results.iter().filter(|(_, h)| h.found && !h.reproduced).map(|(_, h)| h.line.as_str()).collect();
    assert!(
        unreproduced.is_empty(),
        "written cases that do not fail their defect again, or that the reference does not pass:\n{}",
        unreproduced.join("\n")
    );
    let misnamed: Vec<&str> = results.iter().filter(|(_, h)| !h.own_rule).map(|(_, h)| h.line.as_str()).collect();
    assert!(misnamed.is_empty(), "defects whose first required finding names another rule:\n{}", misnamed.join("\n"));
    // Every case file written, for every defect, is accepted by `check --add-cases`: gathered in
    // one folder (each defect's files renamed after it, so no two collide).
    let gathered = tempfile::tempdir().expect("temp dir");
    let mut files = 0;
    for entry in
        walkdir::WalkDir::new(dir.path()).into_iter().filter_map(Result::ok).filter(|e| e.file_type().is_file())
    {
        let relative = entry.path().strip_prefix(dir.path()).expect("under the folder");
        let mut parts = relative.iter();
        let (defect, rule, file) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
        let target =
            gathered.path().join(rule).join(format!("{}-{}", defect.to_string_lossy(), file.to_string_lossy()));
        std::fs::create_dir_all(target.parent().unwrap()).expect("mkdir");
        std::fs::copy(entry.path(), target).expect("copy");
        files += 1;
    }
    // One file per defect and rule that had a finding written.
    let writers = results.iter().filter(|(_, h)| h.written > 0).count();
    assert!(files >= writers && writers > defects.len() / 2, "{files} case files written by {writers} defects");
    let check = Command::new(env!("CARGO_BIN_EXE_tool-conformance"))
        .args(["check", "--add-cases", gathered.path().to_str().unwrap()])
        .output()
        .expect("check");
    assert!(
        check.status.success(),
        "check refuses written cases:\n{}\n{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
}

fn a_written_finding_is_accepted_and_reproduces() {
    let dir = tempfile::tempdir().expect("temp dir");
    let entry = catalog::all().into_iter().find(|e| e.name == "lax-coercion").expect("the defect");
    let mut target = Defective::new(entry.name, entry.defect);
    let config = FuzzConfig { out: Some(dir.path().to_path_buf()), ..config(1, BUDGET) };
    let report = fuzz(&mut target, &config, &mut |_| {}, &|f| f.level == Level::Required);
    let finding = report.required.first().expect("a required finding");
    let file = finding.file.as_ref().expect("a file written");
    println!("{}", std::fs::read_to_string(file).expect("the case file"));
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
    let id = write::case_id(finding);
    assert_eq!(id, format!("{}/fuzz-seed-1/case-{}", finding.case.rule, finding.index));
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

tests![
    the_reference_has_no_finding,
    every_defect_is_found_in_its_clause_and_its_case_reproduces,
    a_written_finding_is_accepted_and_reproduces,
];
