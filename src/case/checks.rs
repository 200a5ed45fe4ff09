//! The checks a case makes, by kind, and which of its rule's behaviours each one shows.
//!
//! A case's required checks are few and named ([`CheckKind`]): a normalize case compares the
//! arguments reaching the tool; an invoke case that expects the handler to run compares what it
//! received; one that expects a rejection checks that the handler did not run, that the error names
//! the problems, and under the one-error contract that it lists the expected fields, points HTTP
//! callers to the schema and is the same error every time; a describe case compares each view's
//! published schema. The judge records each check it makes with its outcome, so that a rejection
//! with the wrong problems still counts as a call that never reached the handler.
//!
//! Each rule's file lists its behaviours (`behaviours:` in `rule.yaml`, [`BehaviourSelector`]):
//! one sentence a framework user understands, shown by some checks. A check of kind K in a case
//! that cites the clauses c1, c2, … belongs to the behaviour that names (K, ci) for the first ci
//! that one names, or else to the behaviour that names K with no clause; the case resolves this
//! once, when the corpus is loaded ([`crate::case::Case::behaviours`]).

use crate::case::tool::Transport;
use crate::case::{Check, Expect, InvokeExpectation, Level, Rejections};
use serde::{Deserialize, Serialize};

/// The kinds of check a case makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckKind {
    /// A normalize case: the arguments reaching the tool are the expected ones.
    ArgumentsReachingTool,
    /// An invoke case that expects the handler to run: it ran once, with exactly the expected
    /// arguments, on every claimed transport.
    RanAsSent,
    /// An invoke case that expects a rejection: the call was rejected and the handler never ran,
    /// on every claimed transport.
    HandlerNotRun,
    /// The rejection's error names exactly the expected problems, or at least them where the case
    /// says `problems_at_least` (and, under the one-error contract, has a message).
    ProblemsNamed,
    /// Under the one-error contract: the error lists the expected fields, within what the text
    /// forces.
    FieldsListed,
    /// Under the one-error contract, on HTTP: the error points to where the schema is published.
    PointsToSchema,
    /// Under the one-error contract: the same call repeated gives the identical error, and with
    /// its keys reversed the same problems.
    SameError,
    /// A describe case: every view publishes the registered schema.
    SchemaPublished,
}

impl CheckKind {
    /// Every kind, in the order the judge makes them (a case's first failure is reported).
    pub const ALL: [CheckKind; 8] = [
        CheckKind::ArgumentsReachingTool,
        CheckKind::RanAsSent,
        CheckKind::HandlerNotRun,
        CheckKind::ProblemsNamed,
        CheckKind::FieldsListed,
        CheckKind::PointsToSchema,
        CheckKind::SameError,
        CheckKind::SchemaPublished,
    ];
}

crate::case::words::words! { CheckKind {
    ArgumentsReachingTool => "arguments-reaching-tool",
    RanAsSent => "ran-as-sent",
    HandlerNotRun => "handler-not-run",
    ProblemsNamed => "problems-named",
    FieldsListed => "fields-listed",
    PointsToSchema => "points-to-schema",
    SameError => "same-error",
    SchemaPublished => "schema-published",
} }

impl std::fmt::Display for CheckKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One entry of a behaviour's `shown_by` list in a rule file: a check kind, and optionally the
/// clause a case must cite for its check of that kind to show this behaviour.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BehaviourSelector {
    /// The check kind.
    pub check: CheckKind,
    /// The clause the case cites, or none for any case whose clauses no other selector of this
    /// kind names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clause: Option<String>,
}

/// The checks `check` plans to make, for a rule whose rejections are held to `rejections`, when
/// `claimed` are the transports it will be called on: what a case that could not be judged (it
/// errored, was declined, or does not apply) would have checked, at the required level (the only
/// one whose checks are recorded), or the checks a case at `level` makes: in a required case a
/// rejection of arguments that are not an object plans the handler check alone
/// ([`rejection_only`]). Informational cases plan none.
pub fn planned(check: &Check, level: Level, rejections: Rejections, claimed: &[Transport]) -> Vec<CheckKind> {
    match check {
        Check::Normalize { expect: Expect::One(_), .. } => vec![CheckKind::ArgumentsReachingTool],
        Check::Invoke { expect: Expect::One(InvokeExpectation::Executed { .. }), .. } => vec![CheckKind::RanAsSent],
        Check::Invoke { expect: Expect::One(InvokeExpectation::Rejected { .. }), .. }
            if level == Level::Required && rejection_only(check) =>
        {
            vec![CheckKind::HandlerNotRun]
        }
        Check::Invoke { expect: Expect::One(InvokeExpectation::Rejected { .. }), .. } => {
            let mut kinds = vec![CheckKind::HandlerNotRun, CheckKind::ProblemsNamed];
            if rejections == Rejections::OneError {
                kinds.push(CheckKind::FieldsListed);
                if claimed.contains(&Transport::Http) {
                    kinds.push(CheckKind::PointsToSchema);
                }
                kinds.push(CheckKind::SameError);
            }
            kinds
        }
        Check::Describe { .. } => vec![CheckKind::SchemaPublished],
        _ => Vec::new(),
    }
}

/// Whether a required case making `check` holds its rejection to the rejection alone: an invoke
/// whose arguments are not an object. That such a call never reaches the handler is forced (the
/// wrapper validates against a schema whose root is an object); what its error holds (its problem,
/// the expected fields, the pointer, the same error again) is forced only if a root that is not an
/// object is one of the rule's problem classes, which the text leaves open, so the judge reports
/// those checks apart, as the reading check `non-object-root-gets-the-one-error`
/// (docs/interpretations.md, "A root that is not an object").
pub fn rejection_only(check: &Check) -> bool {
    matches!(
        check,
        Check::Invoke { arguments, expect: Expect::One(InvokeExpectation::Rejected { .. }), .. } if !arguments.is_object()
    )
}

/// Which behaviour of `behaviours` (each an id with its selectors) a check of `kind` shows, in a
/// case citing `clauses` in that order: the one naming (kind, ci) for the first ci some selector
/// names, else the one naming `kind` with no clause.
pub fn behaviour_of<'a>(
    behaviours: impl IntoIterator<Item = (&'a str, &'a [BehaviourSelector])> + Clone,
    kind: CheckKind,
    clauses: &[String],
) -> Option<&'a str> {
    let named = |clause: Option<&str>| {
        behaviours.clone().into_iter().find_map(|(id, selectors)| {
            selectors.iter().any(|s| s.check == kind && s.clause.as_deref() == clause).then_some(id)
        })
    };
    clauses.iter().find_map(|c| named(Some(c))).or_else(|| named(None))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selector(check: CheckKind, clause: Option<&str>) -> BehaviourSelector {
        BehaviourSelector { check, clause: clause.map(String::from) }
    }

    #[test]
    fn the_first_cited_clause_with_a_selector_decides_else_the_general_one() {
        let stops = vec![selector(CheckKind::HandlerNotRun, None)];
        let closed = vec![selector(CheckKind::HandlerNotRun, Some("R.closed"))];
        let table = [("stops", stops.as_slice()), ("closed", closed.as_slice())];
        let clauses = |c: &[&str]| c.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(behaviour_of(table, CheckKind::HandlerNotRun, &clauses(&["R.other"])), Some("stops"));
        assert_eq!(behaviour_of(table, CheckKind::HandlerNotRun, &clauses(&["R.other", "R.closed"])), Some("closed"));
        assert_eq!(behaviour_of(table, CheckKind::ProblemsNamed, &clauses(&["R.closed"])), None);
    }

    #[test]
    fn every_kind_has_its_word() {
        for kind in CheckKind::ALL {
            assert_eq!(CheckKind::named(kind.as_str()), Some(kind));
            let written = serde_json::to_value(kind).unwrap();
            assert_eq!(written, serde_json::json!(kind.as_str()));
        }
    }
}
