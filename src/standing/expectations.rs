//! Expected failures: a list of known failures that does not fail the run, and that still catches
//! both regressions and entries that are no longer true.
//!
//! The file given to `run --expected-failures FILE` is YAML, validated against
//! `schemas/expected-failures.schema.json`: a list of entries, each naming one case id or one
//! clause id, with the reason the failure is expected.
//!
//! ```yaml
//! # yaml-language-server: $schema=schemas/expected-failures.schema.json
//! - case: RT-TOOL-8/examples/doubly-escaped-title
//!   reason: We decode character references once; see issue 12.
//! - clause: PLAT-162.before-handler
//!   reason: The HTTP transport does not validate yet.
//! ```
//!
//! An entry may say `status: skip`: its cases are expected to be skipped (declined as
//! `unsupported`, or not observable) rather than to fail (`status: fail`, the default, covers a
//! failure or an error).
//!
//! A case entry covers its case; a clause entry covers every case that cites the clause. Against
//! a run ([`ExpectedFailures::triage`]):
//!
//! - a case that did what an entry covering it expects (failed or errored; or, for `status:
//!   skip`, was skipped) is an **expected failure**: it is still reported as it is, but it does
//!   not fail the run;
//! - a required case that failed, errored or was skipped and that no entry expects so is a **new
//!   failure**: it fails the run (a rule is incomplete while any required case is skipped);
//! - a clause of a claimed rule none of whose required cases applied fails the run, unless a
//!   clause entry with `status: skip` names it;
//! - an entry whose covered cases applied and none of them did what it expects is **stale**: it
//!   fails the run, so that the list shrinks as the implementation improves, and an expected
//!   failure that now skips (or the reverse) is seen.
//!
//! An entry covering only cases the selection left out, or that did not apply, is neither. An
//! entry naming a case or clause that the corpus does not have is an error in the file
//! ([`ExpectedFailures::check_against`]), as is naming the same case or clause twice.

use crate::corpus::Corpus;
use crate::corpus::yaml::Document;
use crate::judge::outcome::{Outcome, StatusKind};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The schema of an expected-failures file, `schemas/expected-failures.schema.json`.
pub const EXPECTED_FAILURES_SCHEMA: &str = include_str!("../../schemas/expected-failures.schema.json");

/// A loaded expected-failures file.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectedFailures {
    /// Where it was read from (for error messages).
    pub path: PathBuf,
    /// The entries, in file order.
    pub entries: Vec<Entry>,
    positions: Vec<String>,
}

/// One entry: what is expected to fail, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The case or clause the entry covers.
    #[serde(flatten)]
    pub subject: Subject,
    /// What the covered cases are expected to do.
    #[serde(default, skip_serializing_if = "ExpectedStatus::is_fail")]
    pub status: ExpectedStatus,
    /// Why the failure is expected.
    pub reason: String,
    /// What in the covered cases' recorded evidence (the answer, its diff, the exchange, an
    /// error's reason) changes from one run to the next, and why: the run does not read it; the
    /// check that a published standing is reproduced compares everything else of those cases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub varies: Option<String>,
}

/// What an entry expects its cases to do.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExpectedStatus {
    /// Fail or error.
    #[default]
    Fail,
    /// Be skipped: declined as unsupported, or not observable.
    Skip,
}

impl ExpectedStatus {
    fn is_fail(&self) -> bool {
        *self == ExpectedStatus::Fail
    }

    /// Whether `status` is what this expects.
    pub fn matches(self, status: StatusKind) -> bool {
        match self {
            ExpectedStatus::Fail => matches!(status, StatusKind::Fail | StatusKind::Error),
            ExpectedStatus::Skip => status == StatusKind::Skip,
        }
    }
}

/// What an entry names.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    /// One case, by id.
    Case(String),
    /// Every case citing one clause, by clause id.
    Clause(String),
}

impl Subject {
    /// Whether the entry covers `outcome`'s case.
    pub fn covers(&self, outcome: &Outcome) -> bool {
        match self {
            Subject::Case(id) => &outcome.id == id,
            Subject::Clause(clause) => outcome.clauses.contains(clause),
        }
    }
}

impl std::fmt::Display for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Subject::Case(id) => write!(f, "case {id}"),
            Subject::Clause(id) => write!(f, "clause {id}"),
        }
    }
}

/// A file that cannot be used, with the place in it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}", path.display(), place.as_deref().unwrap_or(""))]
pub struct ExpectationsError {
    /// The file.
    pub path: PathBuf,
    /// `:line:column`, when known.
    pub place: Option<String>,
    /// What is wrong.
    pub message: String,
}

/// A run seen through an expected-failures file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Triage {
    /// Cases that failed or errored as an entry expects, in run order.
    pub expected: Vec<ExpectedFailure>,
    /// Entries whose cases ran and all passed (or were observed), in file order.
    pub stale: Vec<StaleEntry>,
    /// Required cases that failed, errored or were skipped and no entry expects so, in run order.
    pub unexpected: Vec<String>,
    /// Clauses of a claimed rule none of whose required cases applied, that no clause entry
    /// with `status: skip` names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unjudged: Vec<String>,
}

/// A failure an entry expects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExpectedFailure {
    /// The case id.
    pub case: String,
    /// What it did: fail, error or skip.
    pub status: StatusKind,
    /// The entry's reason.
    pub reason: String,
    /// The entry's `varies`: what in the case's evidence changes from run to run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub varies: Option<String>,
}

/// An entry none of whose cases failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StaleEntry {
    /// The entry.
    #[serde(flatten)]
    pub entry: Entry,
    /// The cases it covers that applied, none doing what the entry expects.
    pub passing: Vec<String>,
    /// What they did instead, in words (`now passes`, `now skips`, `now fails`, …).
    pub now: String,
}

impl Triage {
    /// Whether the run fails: a new failure, a stale entry, or an unjudged clause.
    pub fn fails_run(&self) -> bool {
        !self.unexpected.is_empty() || !self.stale.is_empty() || !self.unjudged.is_empty()
    }

    /// The reason given for `case`'s failure, when it is an expected one.
    pub fn expected_reason(&self, case: &str) -> Option<&str> {
        self.expected.iter().find(|e| e.case == case).map(|e| e.reason.as_str())
    }
}

fn validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let schema: Value = crate::json::from_str(EXPECTED_FAILURES_SCHEMA).expect("bundled schema is JSON");
        jsonschema::validator_for(&crate::json::to_serde(&schema)).expect("bundled schema compiles")
    })
}

impl ExpectedFailures {
    /// Reads and parses the file at `path`.
    ///
    /// ```no_run
    /// use tool_conformance::standing::expectations::ExpectedFailures;
    ///
    /// let file = ExpectedFailures::load(std::path::Path::new("expected-failures.yaml"))?;
    /// # Ok::<(), tool_conformance::standing::expectations::ExpectationsError>(())
    /// ```
    pub fn load(path: &Path) -> Result<ExpectedFailures, ExpectationsError> {
        let text = crate::json::file::read_text(path, crate::corpus::yaml::MAX_SOURCE_BYTES).map_err(|e| {
            ExpectationsError { path: path.to_path_buf(), place: None, message: format!("cannot read: {e}") }
        })?;
        ExpectedFailures::parse(path, &text)
    }

    /// Parses `text`, read from `path`: YAML that the schema accepts (an empty file is an empty
    /// list).
    pub fn parse(path: &Path, text: &str) -> Result<ExpectedFailures, ExpectationsError> {
        let error =
            |place: Option<String>, message: String| ExpectationsError { path: path.to_path_buf(), place, message };
        let at = |p: crate::corpus::yaml::Position| Some(format!(":{}:{}", p.line, p.column));
        let document = Document::parse(text).map_err(|p| error(at(p.position), p.message))?;
        let value = if document.value.is_null() { Value::Array(Vec::new()) } else { document.value.clone() };
        let instance = crate::json::to_serde(&value);
        if let Some(problem) = validator().iter_errors(&instance).next() {
            let pointer = problem.instance_path().as_str().to_string();
            let message = match problem.kind() {
                jsonschema::error::ValidationErrorKind::OneOfNotValid { .. }
                | jsonschema::error::ValidationErrorKind::OneOfMultipleValid { .. } => {
                    "an entry names exactly one of `case` and `clause`".to_string()
                }
                _ => problem.to_string(),
            };
            return Err(error(at(document.position(&pointer)), message));
        }
        let entries: Vec<Entry> = serde_json::from_value(value.clone()).map_err(|whole| {
            // Placed at the first entry serde refuses by itself, else at the file.
            let items = value.as_array().map(Vec::as_slice).unwrap_or_default();
            let refused = items
                .iter()
                .enumerate()
                .find_map(|(index, item)| serde_json::from_value::<Entry>(item.clone()).err().map(|e| (index, e)));
            match refused {
                Some((index, e)) => error(at(document.position(&format!("/{index}"))), e.to_string()),
                None => error(at(document.position("")), whole.to_string()),
            }
        })?;
        let positions: Vec<String> = (0..entries.len())
            .map(|index| {
                let p = document.position(&format!("/{index}"));
                format!(":{}:{}", p.line, p.column)
            })
            .collect();
        let mut seen = BTreeSet::new();
        for (entry, place) in entries.iter().zip(&positions) {
            if !seen.insert(entry.subject.clone()) {
                return Err(error(Some(place.clone()), format!("{} is listed twice", entry.subject)));
            }
        }
        Ok(ExpectedFailures { path: path.to_path_buf(), entries, positions })
    }

    /// Checks that every case and clause named exists in `corpus`.
    pub fn check_against(&self, corpus: &Corpus) -> Result<(), ExpectationsError> {
        for (entry, place) in self.entries.iter().zip(&self.positions) {
            let known = match &entry.subject {
                Subject::Case(id) => corpus.cases.iter().any(|c| &c.id == id),
                Subject::Clause(id) => corpus.catalog.clause(id).is_some(),
            };
            if !known {
                return Err(ExpectationsError {
                    path: self.path.clone(),
                    place: Some(place.clone()),
                    message: format!("{}: the corpus has no such id (a typo, or an entry to remove)", entry.subject),
                });
            }
        }
        Ok(())
    }

    /// Sorts a run's outcomes into expected failures, new failures and stale entries;
    /// `unjudged` are the clauses of claimed rules none of whose required cases applied
    /// ([`crate::standing::RuleStanding::unjudged_clauses`]).
    pub fn triage(&self, outcomes: &[Outcome], unjudged: &[String]) -> Triage {
        let mut triage = Triage::default();
        for outcome in outcomes {
            let kind = outcome.status.kind();
            let expecting = self.entries.iter().find(|e| e.subject.covers(outcome) && e.status.matches(kind));
            match expecting {
                Some(entry) => triage.expected.push(ExpectedFailure {
                    case: outcome.id.clone(),
                    status: kind,
                    reason: entry.reason.clone(),
                    varies: entry.varies.clone(),
                }),
                None if outcome.holds_rule_back() => triage.unexpected.push(outcome.id.clone()),
                None => {}
            }
        }
        for entry in &self.entries {
            let applied: Vec<&Outcome> = outcomes
                .iter()
                .filter(|o| entry.subject.covers(o) && o.status.kind() != StatusKind::NotApplicable)
                .collect();
            if !applied.is_empty() && !applied.iter().any(|o| entry.status.matches(o.status.kind())) {
                let mut now: Vec<&str> = applied.iter().map(|o| now_word(o.status.kind())).collect();
                now.sort();
                now.dedup();
                triage.stale.push(StaleEntry {
                    entry: entry.clone(),
                    passing: applied.iter().map(|o| o.id.clone()).collect(),
                    now: now.join(", "),
                });
            }
        }
        triage.unjudged = unjudged
            .iter()
            .filter(|clause| {
                !self
                    .entries
                    .iter()
                    .any(|e| e.status == ExpectedStatus::Skip && e.subject == Subject::Clause((*clause).clone()))
            })
            .cloned()
            .collect();
        triage
    }
}

/// What a case that an entry no longer describes does now.
fn now_word(kind: StatusKind) -> &'static str {
    match kind {
        StatusKind::Pass => "now passes",
        StatusKind::Fail => "now fails",
        StatusKind::Error => "now errors",
        StatusKind::Skip => "now skips",
        StatusKind::Observed => "now is observed",
        StatusKind::NotApplicable => "now does not apply",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Level;
    use crate::judge::outcome::{Failure, Status};
    use serde_json::json;

    fn parse(text: &str) -> Result<ExpectedFailures, ExpectationsError> {
        ExpectedFailures::parse(Path::new("xfail.yaml"), text)
    }

    fn outcome(id: &str, clause: &str, level: Level, status: Status) -> Outcome {
        Outcome {
            id: id.into(),
            rule: id.split('/').next().unwrap_or_default().into(),
            clauses: vec![clause.into()],
            level,
            summary: String::new(),
            note: None,
            location: "x.yaml:1:1".into(),
            status,
            readings: Vec::new(),
            checks: Vec::new(),
        }
    }

    fn fail() -> Status {
        Status::Fail(Failure::new("check", json!(1), json!(2)))
    }

    #[test]
    fn files_parse_and_bad_files_name_the_place() {
        let file = parse("- case: R-1/a/b\n  reason: known\n- clause: R-1.x\n  reason: also known\n").unwrap();
        assert_eq!(file.entries.len(), 2);
        assert_eq!(file.entries[1].subject, Subject::Clause("R-1.x".into()));
        assert!(parse("").unwrap().entries.is_empty());
        assert!(parse("# nothing yet\n").unwrap().entries.is_empty());
        let both = parse("- case: R-1/a/b\n  reason: known\n- case: R-1/a/c\n  clause: R-1.x\n  reason: r\n");
        assert_eq!(both.unwrap_err().to_string(), "xfail.yaml:3:3: an entry names exactly one of `case` and `clause`");
        let no_reason = parse("- case: R-1/a/b\n").unwrap_err();
        assert!(no_reason.to_string().starts_with("xfail.yaml:1:3: "), "{no_reason}");
        assert!(no_reason.message.contains("reason"), "{no_reason}");
        let typo = parse("- case: R-1/a/b\n  reason: r\n  reasno: r\n").unwrap_err();
        assert!(typo.to_string().contains("reasno"), "{typo}");
        let twice = parse("- case: R-1/a/b\n  reason: r\n- case: R-1/a/b\n  reason: r\n").unwrap_err();
        assert_eq!(twice.to_string(), "xfail.yaml:3:3: case R-1/a/b is listed twice");
    }

    #[test]
    fn triage_sorts_expected_new_and_stale() {
        let file = parse(concat!(
            "- case: R-1/a/listed-fails\n  reason: one\n",
            "- case: R-1/a/listed-passes\n  reason: two\n",
            "- clause: R-1.c\n  reason: three\n",
            "- case: R-1/a/listed-now-skips\n  reason: four\n",
            "- case: R-1/a/declined\n  status: skip\n  reason: five\n",
            "- case: R-1/a/not-applicable\n  reason: six\n",
        ))
        .unwrap();
        let skip = || Status::Skip { reason: "unsupported: no".into() };
        let outcomes = vec![
            outcome("R-1/a/listed-fails", "R-1.a", Level::Required, fail()),
            outcome("R-1/a/listed-passes", "R-1.a", Level::Required, Status::Pass),
            outcome("R-1/a/new", "R-1.a", Level::Required, Status::Error { reason: "boom".into() }),
            outcome("R-1/a/interpretation", "R-1.a", Level::Interpretation, fail()),
            outcome("R-1/c/one", "R-1.c", Level::Required, Status::Pass),
            outcome("R-1/c/two", "R-1.c", Level::Required, fail()),
            outcome("R-1/a/listed-now-skips", "R-1.a", Level::Required, skip()),
            outcome("R-1/a/declined", "R-1.a", Level::Required, skip()),
            outcome("R-1/a/unlisted-skip", "R-1.a", Level::Required, skip()),
            outcome("R-1/a/not-applicable", "R-1.a", Level::Required, Status::NotApplicable { reason: "n".into() }),
        ];
        let triage = file.triage(&outcomes, &[]);
        let expected: Vec<&str> = triage.expected.iter().map(|e| e.case.as_str()).collect();
        assert_eq!(expected, ["R-1/a/listed-fails", "R-1/c/two", "R-1/a/declined"]);
        assert_eq!(triage.expected_reason("R-1/c/two"), Some("three"));
        assert_eq!(triage.expected[2].status, StatusKind::Skip);
        // A skip is never a pass: an unlisted one, or one under an entry expecting a failure, is new.
        assert_eq!(triage.unexpected, ["R-1/a/new", "R-1/a/listed-now-skips", "R-1/a/unlisted-skip"]);
        let stale: Vec<(String, &str)> =
            triage.stale.iter().map(|s| (s.entry.subject.to_string(), s.now.as_str())).collect();
        assert_eq!(
            stale,
            [
                ("case R-1/a/listed-passes".to_string(), "now passes"),
                ("case R-1/a/listed-now-skips".into(), "now skips")
            ]
        );
        assert!(triage.fails_run());
        let quiet = file.triage(&outcomes[..1], &[]);
        assert!(!quiet.fails_run(), "{quiet:?}");
    }

    #[test]
    fn a_clause_nothing_judged_fails_the_run_unless_listed_as_skipped() {
        let file = parse("- clause: R-1.b\n  status: skip\n  reason: no such transport\n").unwrap();
        let triage = file.triage(&[], &["R-1.a".to_string(), "R-1.b".to_string()]);
        assert_eq!(triage.unjudged, ["R-1.a"]);
        assert!(triage.fails_run());
        assert!(!file.triage(&[], &["R-1.b".to_string()]).fails_run());
    }
}
