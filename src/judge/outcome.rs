//! The result of running one case: a value, never a panic or an `Err`.
//!
//! Every reporter reads these values, and only these: the runner produces them, the
//! [`crate::standing`] counts them, and terminal, Markdown and JSON output print them.

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
}

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
        }
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
