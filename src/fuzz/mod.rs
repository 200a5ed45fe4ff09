//! Differential fuzzing against the reference, judged only by what the rule text forces.
//!
//! Each generated input ([`generate`]: a tool schema, arguments, and what is asked) is answered
//! by the reference, which records every reading of docs/interpretations.md its answer passed
//! through ([`crate::reference::readings`]). The answer becomes the expectation of an in-memory
//! [`Case`] whose level is `required` when no reading was taken, `interpretation` when one was,
//! and which is not judged at all when the rule leaves a point of it open (informational). The
//! case is then asked of the target through the runner's session and its answers judged by
//! [`crate::judge`], once, so a generated case is held to exactly what a corpus case of its
//! level is held to (exact problems,
//! the bounds of expected fields, one deterministic error, the contract of a published schema),
//! and wording the rule leaves free is no finding. A failure is a finding, named by the clause
//! its difference breaks ([`attribute`]); a target that cannot answer is reported apart, with
//! the request. A finding is shrunk (proptest's shrinking of the generated data, keeping "the
//! target still fails at the same level in the same clause"), rid of what normalization changed
//! when that does not change the outcome, and filed under the rule whose check failed; findings
//! are told apart after shrinking, by level, clause and kind of check. Each is then written as a case
//! ([`mod@write`]) that `check --add-cases` accepts, the reference passes and `run --add-cases`
//! fails the target on again, except a failed check beyond the text, which no case holds.

pub mod attribute;
pub mod generate;
pub mod write;

use crate::case::tool::{Tool, Transport, View};
use crate::case::{Case, Check, Expect, InvokeExpectation, Level, Location, Problem, Rejections};
use crate::judge::outcome::{Failure, Status};
use crate::judge::{Answers, describe};
use crate::peer::Target;
use crate::peer::spec::{Limits, TargetSpec};
use crate::reference::normalize::normalize;
use crate::reference::readings::{self, Readings};
use crate::reference::registry::Registry;
use crate::reference::validate::ProblemKind;
use crate::run::Session;
use generate::{Generated, Kind, Raw};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The name every generated tool is registered under.
pub const TOOL: &str = "fuzzed_tool";

/// At most this many shrinking steps (each runs the case once more) per finding.
const MAX_SHRINK_STEPS: usize = 400;

/// At most this many target errors in a row before the run gives up on the target.
const MAX_ERRORS_IN_A_ROW: usize = 20;

/// What a fuzzing run is asked to do (the CLI parses its arguments into this).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuzzConfig {
    /// The implementation fuzzed: the built-in reference, `--stdio` or `--http` (the first URL).
    pub target: TargetSpec,
    /// The limits it is reached within.
    pub limits: Limits,
    /// The seed: the same seed generates the same cases.
    pub seed: u64,
    /// Stop after this many generated cases.
    pub cases: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// Write each finding's case file into this folder (`<RULE>/<topic>.yaml`).
    pub out: Option<PathBuf>,
}

impl Default for FuzzConfig {
    fn default() -> FuzzConfig {
        FuzzConfig {
            target: TargetSpec::Reference,
            limits: Limits::default(),
            seed: 0,
            cases: Some(1000),
            time: None,
            out: None,
        }
    }
}

/// One difference between the target and the reference, shrunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// `required` (the text forces the answer) or `interpretation` (a reading does).
    pub level: Level,
    /// The clauses the difference breaks, the first the one it is named by.
    pub clauses: Vec<String>,
    /// The readings the reference took (empty for a required finding), or the check beyond the
    /// text that failed.
    pub readings: Vec<String>,
    /// The seed of the run and the index of the generated case.
    pub seed: u64,
    /// The index of the generated case.
    pub index: u64,
    /// The shrunk case, as the runner judged it (its expectation is the reference's answer).
    pub case: Case,
    /// Where the target parted from it.
    pub failure: Failure,
    /// How many shrinking steps were taken.
    pub shrink_steps: usize,
    /// The case file written for it, with `out`.
    pub file: Option<PathBuf>,
}

/// A target that could not answer a generated case.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetFault {
    /// The index of the generated case.
    pub index: u64,
    /// What went wrong.
    pub reason: String,
    /// The request: what was asked, the schema, the arguments, the transports.
    pub request: Value,
}

/// What a fuzzing run found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FuzzReport {
    /// The seed.
    pub seed: u64,
    /// Generated cases run.
    pub cases: u64,
    /// How long it took.
    pub elapsed: Duration,
    /// Cases judged at the required level, and at the interpretation level (passed or failed).
    pub judged: (u64, u64),
    /// Cases not judged because the rule leaves a point of them open, or that could not be
    /// used (a schema the reference cannot register).
    pub open: u64,
    /// Cases skipped (declined, or not observable) or not applicable to the target.
    pub skipped: u64,
    /// Required findings, one per distinct clause and check.
    pub required: Vec<Finding>,
    /// Interpretation findings, reported apart and never counted against the target.
    pub interpretation: Vec<Finding>,
    /// Further failures of a kind already found (same level, clause and check), not shrunk.
    pub repeats: u64,
    /// Target errors, with the request.
    pub faults: Vec<TargetFault>,
    /// Whether the run stopped early because the target stopped answering.
    pub gave_up: bool,
}

/// What one generated case came to.
enum Verdict {
    /// The target answered as the reference did, at this level.
    Pass(Level),
    /// A difference.
    Found { level: Level, clauses: Vec<String>, readings: Vec<String>, case: Box<Case>, failure: Box<Failure> },
    /// Not judged: open, or unusable.
    Open,
    /// Skipped or not applicable.
    Skipped,
    /// The target could not answer.
    Fault(String),
}

/// The case and the readings for one generated input, as the reference answers it; `None` when
/// the reference cannot register its schema.
fn expectation(generated: &Generated, id: &str, note: &str) -> Option<(Case, Readings)> {
    let Generated { kind, schema, arguments, transports } = generated;
    let tools = vec![Tool { name: TOOL.into(), description: None, input_schema: schema.clone() }];
    let (rule, clause, check, readings, needs) = match kind {
        Kind::Normalize => {
            let expected = normalize(schema, arguments);
            let readings = readings::of_normalize(schema, arguments);
            let check = Check::Normalize {
                input_schema: schema.clone(),
                arguments: arguments.clone(),
                expect: Expect::One(expected),
            };
            ("RT-TOOL-8", "RT-TOOL-8.2", check, readings, Vec::new())
        }
        Kind::Invoke | Kind::Pipeline => {
            let registry = Registry::new(&tools).ok()?;
            let executor = registry.executor(TOOL)?;
            let mut received = None;
            let answer = executor.execute(arguments, &mut |v| received = Some(v));
            let answer = answer.map(|()| received.clone().unwrap_or(Value::Null));
            let mut readings = readings::of_invoke(schema, arguments, &answer);
            let expect = match &answer {
                Ok(received) => {
                    if readings.level() == Level::Required
                        && !crate::judge::strictest::passes_validation(schema, received)
                    {
                        // Some reading the walk did not name settles that it passes: not judged.
                        readings.take(readings::Reading::NestedValidation);
                    }
                    InvokeExpectation::Executed { received: received.clone() }
                }
                Err(rejection) => {
                    if rejection.problems.iter().any(|p| p.kind == ProblemKind::InvalidValue) {
                        readings.take(readings::Reading::OutsideClasses);
                    }
                    if const_broken(schema, rejection) {
                        readings.take(readings::Reading::OutsideClasses);
                    }
                    let problems = rejection
                        .problems
                        .iter()
                        .map(|p| Problem {
                            kind: p.kind.as_str().into(),
                            field: p.field.clone(),
                            alternatives: (p.kind == ProblemKind::NoAlternative).then(|| p.alternatives.clone()),
                        })
                        .collect();
                    InvokeExpectation::Rejected { problems, problems_at_least: false, expected_fields: None }
                }
            };
            // Arguments normalization changes make an RT-TOOL-8 case (what normalization handed
            // the executor); others a PLAT-162 one.
            let pipeline = normalize(schema, arguments) != *arguments;
            let rejected = matches!(expect, InvokeExpectation::Rejected { .. });
            let check = Check::Invoke {
                tools: tools.clone(),
                tool: TOOL.into(),
                arguments: arguments.clone(),
                transports: transports.clone(),
                expect: Expect::One(expect),
            };
            if pipeline {
                let needs = if rejected { vec!["PLAT-162".to_string()] } else { Vec::new() };
                ("RT-TOOL-8", "RT-TOOL-8.1", check, readings, needs)
            } else {
                ("PLAT-162", "PLAT-162.problem-classes", check, readings, Vec::new())
            }
        }
        Kind::Describe => {
            Registry::new(&tools).ok()?;
            let check = Check::Describe { tools, tool: TOOL.into(), views: View::ALL.to_vec() };
            ("PLAT-162", "PLAT-162.one-schema", check, Readings::default(), Vec::new())
        }
    };
    let level = readings.level();
    let case = Case {
        id: format!("{rule}/fuzz/{id}"),
        rule: rule.into(),
        clauses: vec![clause.into()],
        level,
        summary: String::new(),
        note: Some(note.into()),
        needs,
        check,
        rejections: if rule == "PLAT-162" { Rejections::OneError } else { Rejections::Problems },
        location: Location { file: PathBuf::from(format!("{rule}/fuzz.yaml")), line: 1, column: 1 },
        shows: Default::default(),
    };
    Some((case, readings))
}

/// Whether a rejection names a value unequal to its field's `const` (the rule names enums, not
/// const, so what class it is in is open).
fn const_broken(schema: &Value, rejection: &crate::reference::validate::Rejection) -> bool {
    rejection.problems.iter().any(|p| {
        p.kind == ProblemKind::NotInEnum
            && p.field.as_ref().is_some_and(|f| {
                schema.pointer(&format!("/properties/{}", escape(f))).is_some_and(|s| s.get("const").is_some())
            })
    })
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Runs one generated input against the target and judges its answers (once: a describe case
/// that passes the contract is held to the document by the same answers).
fn judge<T: Target>(session: &mut Session<T>, generated: &Generated, id: &str, note: &str) -> Verdict {
    let Some((case, readings)) = expectation(generated, id, note) else { return Verdict::Open };
    if case.level == Level::Informational {
        return Verdict::Open;
    }
    let case_level = case.level;
    let answers = session.answers(&case);
    let outcome = match &answers {
        Ok(answers) => crate::judge::judge(&case, answers),
        Err(status) => crate::judge::outcome::Outcome::new(&case, (**status).clone()),
    };
    let taken: Vec<String> = readings.iter().map(|r| r.doc().to_string()).collect();
    match outcome.status {
        Status::Pass => {
            // The checks beyond the text, reported apart as interpretation findings.
            if let Some(check) = outcome.readings.iter().find(|r| r.failure.is_some()) {
                let failure = check.failure.clone().unwrap_or_else(|| Failure::new("", Value::Null, Value::Null));
                let mut case = case;
                case.level = Level::Interpretation;
                return Verdict::Found {
                    level: Level::Interpretation,
                    clauses: vec!["PLAT-162.one-error".into()],
                    readings: vec![format!("{BEYOND_THE_TEXT}{}", check.check)],
                    case: Box::new(case),
                    failure: Box::new(failure),
                };
            }
            if let (Check::Describe { tools, tool, .. }, Ok(Answers::Described(published))) = (&case.check, &answers) {
                // The same answers held to the document as registered: the interpretation reading
                // of one registered schema.
                let registered = describe::registered(tools, tool);
                if let Status::Fail(failure) = describe::judge(Level::Interpretation, &registered, published) {
                    let mut document = case;
                    document.level = Level::Interpretation;
                    return Verdict::Found {
                        level: Level::Interpretation,
                        clauses: vec!["PLAT-162.one-schema".into()],
                        readings: vec!["PLAT-162, one registered schema: the document as registered".into()],
                        case: Box::new(document),
                        failure: Box::new(failure),
                    };
                }
            }
            Verdict::Pass(case_level)
        }
        Status::Fail(failure) => {
            let clauses = attribute::clauses(&case, generated, &failure);
            let mut case = case;
            case.clauses = clauses.clone();
            attribute::file_under(&mut case);
            Verdict::Found {
                level: case.level,
                clauses,
                readings: taken,
                case: Box::new(case),
                failure: Box::new(failure),
            }
        }
        Status::Error { reason } => Verdict::Fault(reason),
        Status::Skip { .. } | Status::NotApplicable { .. } => Verdict::Skipped,
        Status::Observed(_) => Verdict::Open,
    }
}

/// The generated data of case `index` of a run with `seed`, as a proptest value tree (so it can
/// be shrunk).
fn tree(seed: u64, index: u64) -> Option<impl ValueTree<Value = Raw>> {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&index.to_le_bytes());
    bytes[16..24].copy_from_slice(b"fuzzcase");
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
    generate::raw().new_tree(&mut runner).ok()
}

/// The generated input of case `index` of a run with `seed` (unshrunk).
pub fn generated(seed: u64, index: u64) -> Option<Generated> {
    tree(seed, index).map(|t| t.current().build())
}

/// The request a generated input makes, for reports.
pub fn request(generated: &Generated) -> Value {
    let kind = match generated.kind {
        Kind::Normalize => "normalize",
        Kind::Invoke | Kind::Pipeline => "invoke",
        Kind::Describe => "describe",
    };
    serde_json::json!({
        "kind": kind,
        "input_schema": generated.schema,
        "arguments": generated.arguments,
        "transports": generated.transports.iter().map(|t| t.as_str()).collect::<Vec<_>>(),
    })
}

/// What the caller sees after each generated case.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Cases run so far.
    pub cases: u64,
    /// Required findings so far.
    pub required: usize,
    /// Interpretation findings so far.
    pub interpretation: usize,
    /// Target errors so far.
    pub faults: usize,
}

/// Fuzzes the target `config` names (an external one is started and stopped here).
pub fn run(config: &FuzzConfig, progress: &mut dyn FnMut(Progress)) -> FuzzReport {
    // One instance, built as a run builds its instances (over HTTP, at the first URL).
    let built = crate::run::jobs::build(&config.target, &config.limits, 1, false, false);
    let reason = match built.map(|mut instances| instances.pop()) {
        Ok(Some(mut instance)) => return fuzz(instance.target_mut(), config, progress, &|_| false),
        Ok(None) => "no instance of the target was built".to_string(),
        Err(error) => error.to_string(),
    };
    let fault = TargetFault { index: 0, reason, request: Value::Null };
    FuzzReport { seed: config.seed, faults: vec![fault], gave_up: true, ..FuzzReport::default() }
}

/// Fuzzes `target` as `config` asks, calling `progress` after each case; `stop` ends the run
/// early when it returns true for a finding (the tests stop at the first finding they look for).
pub fn fuzz(
    target: &mut dyn Target,
    config: &FuzzConfig,
    progress: &mut dyn FnMut(Progress),
    stop: &dyn Fn(&Finding) -> bool,
) -> FuzzReport {
    let started = Instant::now();
    let mut session = Session::start(target);
    let mut report = FuzzReport { seed: config.seed, ..FuzzReport::default() };
    if let Some(why) = session.start_error() {
        report.faults.push(TargetFault {
            index: 0,
            reason: format!("the target did not start: {why}"),
            request: Value::Null,
        });
        report.gave_up = true;
        return report;
    }
    let mut seen: Vec<(Level, String, String)> = Vec::new();
    let mut errors_in_a_row = 0;
    let mut index = 0u64;
    loop {
        if config.cases.is_some_and(|n| index >= n) || config.time.is_some_and(|t| started.elapsed() >= t) {
            break;
        }
        let Some(mut tree) = tree(config.seed, index) else { break };
        let original = tree.current().build();
        let id = format!("seed-{}-case-{index}", config.seed);
        let note = format!(
            "Found by `tool-conformance fuzz --seed {}`: generated case {index}, shrunk. The expectation is the reference's answer.",
            config.seed
        );
        let verdict = judge(&mut session, &original, &id, &note);
        report.cases += 1;
        index += 1;
        match verdict {
            Verdict::Pass(level) => {
                errors_in_a_row = 0;
                match level {
                    Level::Required => report.judged.0 += 1,
                    _ => report.judged.1 += 1,
                }
            }
            Verdict::Open => report.open += 1,
            Verdict::Skipped => report.skipped += 1,
            Verdict::Fault(reason) => {
                errors_in_a_row += 1;
                if report.faults.len() < 100 {
                    report.faults.push(TargetFault { index: index - 1, reason, request: request(&original) });
                }
                if errors_in_a_row >= MAX_ERRORS_IN_A_ROW {
                    report.gave_up = true;
                    break;
                }
            }
            Verdict::Found { level, clauses, failure, case, readings } => {
                errors_in_a_row = 0;
                match level {
                    Level::Required => report.judged.0 += 1,
                    _ => report.judged.1 += 1,
                }
                let first = signature(level, &clauses, &readings, &failure);
                if seen.contains(&first) {
                    report.repeats += 1;
                } else {
                    seen.push(first.clone());
                    let mut finding = Finding {
                        level,
                        clauses,
                        readings,
                        seed: config.seed,
                        index: index - 1,
                        case: *case,
                        failure: *failure,
                        shrink_steps: 0,
                        file: None,
                    };
                    shrink(&mut session, &mut tree, &mut finding, &id, &note);
                    // Shrinking may show it to be one already found: a duplicate is counted, not kept.
                    let shrunk = signature(finding.level, &finding.clauses, &finding.readings, &finding.failure);
                    if shrunk != first && seen.contains(&shrunk) {
                        report.repeats += 1;
                        continue;
                    }
                    seen.push(shrunk);
                    if let Some(dir) = &config.out {
                        finding.file = write::case_file(dir, &finding).ok().flatten();
                    }
                    let done = stop(&finding);
                    match finding.level {
                        Level::Required => report.required.push(finding),
                        _ => report.interpretation.push(finding),
                    }
                    if done {
                        break;
                    }
                }
            }
        }
        progress(Progress {
            cases: report.cases,
            required: report.required.len(),
            interpretation: report.interpretation.len(),
            faults: report.faults.len(),
        });
    }
    let _ = session.finish();
    report.elapsed = started.elapsed();
    report
}

/// What tells one kind of finding from another: its level, the clause it is named by, and the
/// kind of check that failed ([`check_kind`]).
fn signature(level: Level, clauses: &[String], readings: &[String], failure: &Failure) -> (Level, String, String) {
    (level, clauses.first().cloned().unwrap_or_default(), check_kind(readings, &failure.check))
}

/// A failure's kind of check: for a check beyond the text, its name; otherwise the check without
/// its transport and without what it quotes (a message's text), so that one kind of failure is
/// one finding whatever the words.
fn check_kind(readings: &[String], check: &str) -> String {
    if let Some(name) = readings.iter().find_map(|r| r.strip_prefix(BEYOND_THE_TEXT)) {
        return name.to_string();
    }
    let mut kind = check.split(" (message: ").next().unwrap_or_default().to_string();
    for transport in Transport::ALL {
        kind = kind.replace(transport.as_str(), "T");
    }
    kind
}

/// How a finding of a check beyond the text names that check among its readings.
pub const BEYOND_THE_TEXT: &str = "check beyond the text: ";

/// Shrinks a finding: simplifies the generated data while the target still fails it at the same
/// level and in the same clause.
fn shrink<T: Target>(
    session: &mut Session<T>,
    tree: &mut impl ValueTree<Value = Raw>,
    finding: &mut Finding,
    id: &str,
    note: &str,
) {
    let clause = finding.clauses[0].clone();
    let mut steps = 0;
    if !tree.simplify() {
        return;
    }
    loop {
        steps += 1;
        let candidate = tree.current().build();
        let still = match judge(session, &candidate, id, note) {
            Verdict::Found { level, clauses, readings, case, failure }
                if level == finding.level && clauses.contains(&clause) =>
            {
                let mut clauses = clauses;
                // The clause the finding is named by stays first.
                clauses.retain(|c| *c != clause);
                clauses.insert(0, clause.clone());
                let mut case = *case;
                case.clauses = clauses.clone();
                finding.clauses = clauses;
                finding.readings = readings;
                finding.case = case;
                finding.failure = *failure;
                true
            }
            _ => false,
        };
        if steps >= MAX_SHRINK_STEPS {
            break;
        }
        let more = if still { tree.simplify() } else { tree.complicate() };
        if !more {
            break;
        }
    }
    finding.shrink_steps = steps;
    let shrunk = tree.current().build();
    drop_normalization(session, &shrunk, finding, id, note);
    refile_by_normalization(session, &shrunk, finding, id, note);
}

/// A finding filed under PLAT-162 on a call whose arguments the target also normalizes other than
/// the reference, when asked to normalize them alone (a required normalize case): the validation
/// difference comes from what normalization made of the arguments (JSON text decoded where the
/// text does not allow it), so the finding is that normalize case, filed under RT-TOOL-8.
fn refile_by_normalization<T: Target>(
    session: &mut Session<T>,
    shrunk: &Generated,
    finding: &mut Finding,
    id: &str,
    note: &str,
) {
    if finding.case.rule != "PLAT-162" || !matches!(finding.case.check, Check::Invoke { .. }) {
        return;
    }
    if !shrunk.arguments.as_object().is_some_and(|m| m.values().any(Value::is_string)) {
        return;
    }
    let alone = Generated { kind: Kind::Normalize, ..shrunk.clone() };
    if let Verdict::Found { level, clauses, readings, case, failure } = judge(session, &alone, id, note) {
        if level == finding.level && case.rule == "RT-TOOL-8" {
            finding.clauses = clauses;
            finding.readings = readings;
            finding.case = *case;
            finding.failure = *failure;
            finding.shrink_steps += 1;
        }
    }
}

/// A finding on a call whose arguments normalization changes (filed under RT-TOOL-8.1) whose
/// target fails the same way, at the same level and in the same kind of check, when sent the
/// arguments already normalized: what normalization changed (an irrelevant character reference,
/// JSON text) does not change the outcome, so it is dropped, and the finding is filed under the
/// rule whose check failed.
fn drop_normalization<T: Target>(
    session: &mut Session<T>,
    shrunk: &Generated,
    finding: &mut Finding,
    id: &str,
    note: &str,
) {
    if finding.case.rule != "RT-TOOL-8" || !matches!(finding.case.check, Check::Invoke { .. }) {
        return;
    }
    let normalized = Generated { arguments: normalize(&shrunk.schema, &shrunk.arguments), ..shrunk.clone() };
    if normalized.arguments == shrunk.arguments {
        return;
    }
    let kind = check_kind(&finding.readings, &finding.failure.check);
    if let Verdict::Found { level, clauses, readings, case, failure } = judge(session, &normalized, id, note) {
        if level == finding.level && check_kind(&readings, &failure.check) == kind {
            finding.clauses = clauses;
            finding.readings = readings;
            finding.case = *case;
            finding.failure = *failure;
            finding.shrink_steps += 1;
        }
    }
}
