//! The result of running one case: a value, never a panic or an `Err`.
//!
//! Every reporter reads these values, and only these: the runner produces them, the
//! [`crate::standing`] counts them, and terminal, Markdown and JSON output print them.

use crate::case::checks::CheckKind;
use crate::case::{Case, Level};
use crate::json::compare::first_difference;
use crate::json::diff::unified;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One case's result, with what a report needs to know of the case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The case id.
    pub id: String,
    /// The case's rule.
    pub rule: String,
    /// The clauses it checks.
    pub clauses: Vec<String>,
    /// How it counts.
    pub level: Level,
    /// What it checks, in one line.
    pub summary: String,
    /// The reading it takes, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Where it is defined, as `file:line:column`.
    pub location: String,
    /// What happened, judged by what the case's level holds it to.
    #[serde(flatten)]
    pub status: Status,
    /// The checks the runner adds beyond what the rule text forces, each tied to a reading of
    /// `docs/interpretations.md` ("Checks beyond the text"): reported apart, never deciding the
    /// case's status or its rule's verdict. Made only when the case's own checks passed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub readings: Vec<ReadingCheck>,
    /// Every required check the case made, or would have made had it been judged, each with the
    /// behaviour of its rule it shows and how it came out: a rejection that names other problems
    /// still shows a call that never reached the handler. Empty for cases that are not required.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<CheckOutcome>,
}

/// One required check of a case, the behaviour it shows, and how it came out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckOutcome {
    /// What was checked.
    pub check: CheckKind,
    /// The id of the behaviour of the case's rule it shows.
    pub behaviour: String,
    /// How it came out.
    pub result: CheckResult,
}

/// How one check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckResult {
    /// It held.
    Pass,
    /// It did not hold (for a check of the error, also when the handler ran and there was none).
    Fail,
    /// The case errored: the implementation could not answer.
    Error,
    /// The case was declined (`unsupported`): a gap, counted against the behaviour.
    Skip,
    /// The answer cannot show it: a runtime that validates refused what normalization alone
    /// would have let through, or an error carries no structured problems. Never counted for or
    /// against the behaviour.
    NotObservable,
    /// The case does not apply (its rule, a rule it needs, or its transports are not claimed).
    NotApplicable,
}

impl CheckResult {
    /// All results, in report order.
    pub const ALL: [CheckResult; 6] = [
        CheckResult::Pass,
        CheckResult::Fail,
        CheckResult::Error,
        CheckResult::Skip,
        CheckResult::NotObservable,
        CheckResult::NotApplicable,
    ];

    /// What every check of a case that ended in `status` without being judged comes to.
    pub fn of_unjudged(status: &Status) -> CheckResult {
        match status.kind() {
            StatusKind::Pass => CheckResult::Pass,
            StatusKind::Fail => CheckResult::Fail,
            StatusKind::Error => CheckResult::Error,
            StatusKind::Skip => CheckResult::Skip,
            StatusKind::Observed | StatusKind::NotApplicable => CheckResult::NotApplicable,
        }
    }
}

crate::case::words::words! { CheckResult { Pass => "pass", Fail => "fail", Error => "error", Skip => "skip", NotObservable => "not_observable", NotApplicable => "not_applicable" } }

/// One check beyond the rule text, and how it came out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadingCheck {
    /// The check's name, e.g. `message-names-fields` (see [`crate::judge::READING_CHECKS`]).
    pub check: String,
    /// `None` when it held; else where the implementation parted from the reading.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
}

/// What happened when a case ran.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// The implementation did what the case expects.
    Pass,
    /// The implementation did something else.
    Fail(Failure),
    /// The implementation broke: it could not answer.
    Error {
        /// What went wrong.
        reason: String,
    },
    /// The case applies, but could not be judged: the implementation answered `unsupported`, or
    /// its answer cannot show what the case checks. A required case that skips leaves its rule
    /// incomplete: declining is never conforming.
    Skip {
        /// Why it was skipped.
        reason: String,
    },
    /// The case does not apply to this implementation: its rule, a rule it needs, or every
    /// transport it calls on is not claimed. Never a pass, and never held against the rule.
    NotApplicable {
        /// What is not claimed.
        reason: String,
    },
    /// An informational case: the behaviour seen.
    Observed(Observation),
}

/// Where the implementation parted from the expectation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    /// What was compared, e.g. "arguments reaching the tool" or "invoke on http".
    pub check: String,
    /// JSON pointer of the first difference ("" is the whole value).
    pub pointer: String,
    /// What the case expects.
    pub expected: Value,
    /// What the implementation gave.
    pub actual: Value,
    /// Unified diff of expected against actual, pretty-printed with sorted keys.
    pub diff: String,
    /// For an implementation reached over the protocol: the exchange that led to the failure,
    /// as `> request` and `< response` lines (bounded; empty in process).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exchange: Vec<String>,
}

/// The behaviour an informational case saw.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observation {
    /// The name of the behaviour that matched, or `None` when none did ("other").
    pub behaviour: Option<String>,
    /// What the implementation gave.
    pub actual: Value,
}

/// The status names, for counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum StatusKind {
    Pass,
    Fail,
    Error,
    Skip,
    Observed,
    NotApplicable,
}

impl StatusKind {
    /// All kinds, in report order.
    pub const ALL: [StatusKind; 6] = [
        StatusKind::Pass,
        StatusKind::Fail,
        StatusKind::Error,
        StatusKind::Skip,
        StatusKind::Observed,
        StatusKind::NotApplicable,
    ];
}

impl Status {
    /// The status's kind.
    pub fn kind(&self) -> StatusKind {
        match self {
            Status::Pass => StatusKind::Pass,
            Status::Fail(_) => StatusKind::Fail,
            Status::Error { .. } => StatusKind::Error,
            Status::Skip { .. } => StatusKind::Skip,
            Status::Observed(_) => StatusKind::Observed,
            Status::NotApplicable { .. } => StatusKind::NotApplicable,
        }
    }
}

impl Failure {
    /// A failure of `check`, with the first difference and the diff worked out.
    pub fn new(check: impl Into<String>, expected: Value, actual: Value) -> Failure {
        let pointer = first_difference(&expected, &actual).unwrap_or_default();
        let diff = unified(&expected, &actual);
        Failure { check: check.into(), pointer, expected, actual, diff, exchange: Vec::new() }
    }
}

impl Outcome {
    /// The outcome of `case`.
    pub fn new(case: &Case, status: Status) -> Outcome {
        Outcome {
            id: case.id.clone(),
            rule: case.rule.clone(),
            clauses: case.clauses.clone(),
            level: case.level,
            summary: case.summary.clone(),
            note: case.note.clone(),
            location: case.location.to_string(),
            status,
            readings: Vec::new(),
            checks: Vec::new(),
        }
    }

    /// The outcome of `case` when it could not be judged (`status` is an error, a skip or not
    /// applicable): each check it would have made on the transports `claimed` counts as `status`.
    pub fn unjudged(case: &Case, status: Status, claimed: &[crate::case::tool::Transport]) -> Outcome {
        let result = CheckResult::of_unjudged(&status);
        let mut outcome = Outcome::new(case, status);
        if case.level == Level::Required {
            outcome.checks = crate::case::checks::planned(&case.check, case.level, case.rejections, claimed)
                .into_iter()
                .filter_map(|check| {
                    let behaviour = case.shows.get(&check)?.clone();
                    Some(CheckOutcome { check, behaviour, result })
                })
                .collect();
        }
        outcome
    }

    /// Whether this outcome makes its rule not conform: a required case that failed.
    pub fn breaks_rule(&self) -> bool {
        self.level == Level::Required && self.status.kind() == StatusKind::Fail
    }

    /// Whether this outcome keeps its rule from conforming: a required case that failed, errored
    /// or was skipped (the implementation declined it, or its answer could not be judged).
    pub fn holds_rule_back(&self) -> bool {
        self.level == Level::Required
            && matches!(self.status.kind(), StatusKind::Fail | StatusKind::Error | StatusKind::Skip)
    }
}

crate::case::words::words! { StatusKind { Pass => "pass", Fail => "fail", Error => "error", Skip => "skip", Observed => "observed", NotApplicable => "not_applicable" } }
