//! Judging: what a case comes to, as a pure function of the case and what the implementation
//! answered (`Answers`), with no target and no I/O. The runner's session asks; this part
//! decides.
//!
//! - a normalize case (`normalize`): the arguments reaching the tool against the expected ones;
//!   a normalize the implementation refused fails when the expected arguments pass validation
//!   under every reading the text allows (`strictest`), and is skipped as not observable
//!   otherwise;
//! - an invoke case (`invoke`): what each claimed transport answered. Every rejected invoke of a
//!   case whose rule's file says `rejections: one-error` (PLAT-162's) is also checked, without
//!   the case asking, for what the rule text forces of its one error: it has a message, problems
//!   and expected fields; its expected fields include every declared root property the schema
//!   requires and nothing the schema does not expect; on HTTP it points to get_api_spec (in any
//!   string it holds); the same call repeated gives the identical error; and the same arguments
//!   with their keys reversed give the same problems. What PLAT-162 leaves open is checked at the
//!   interpretation level and reported apart ([`READING_CHECKS`]): that the message names every
//!   field, that it names get_api_spec on every transport, that the expected fields are exactly the suite's set, and that the
//!   error is identical whatever the key order and on every transport. A required case whose
//!   arguments are not an object holds its rejection to the handler check alone: the rest of its
//!   error is the reading `non-object-root-gets-the-one-error`. In a case of a rule whose
//!   file says `rejections: problems` a rejection is read for its problems only. A rejection
//!   whose error carries no structured problems (an MCP error without the structured-error
//!   convention, [`crate::peer::Invocation::RejectedUnstructured`]) is held to what it shows (the
//!   handler did not run; under the one-error contract the same call repeats the identical error,
//!   the call with its keys reversed is rejected too, and on HTTP it mentions get_api_spec), and
//!   the case is otherwise skipped as not observable, never passed;
//! - a describe case (`describe`): the published schema against the registered one, required
//!   cases by the contract it states (`contract`), interpretation cases as a document.
//!
//! [`outcome`] holds the values every reporter reads; [`plan`] lists every check the judge makes
//! of a case, each at its level, before any answer (what `show` prints).

pub(crate) mod contract;
pub(crate) mod describe;
pub(crate) mod invoke;
pub(crate) mod normalize;
pub mod outcome;
pub mod plan;
pub(crate) mod strictest;

pub use invoke::READING_CHECKS;
pub use plan::{CheckLevel, PlannedCheck, checks_of};
pub use strictest::{passes_validation, passes_validation_as_sent};

use crate::case::checks::CheckKind;
use crate::case::tool::{Transport, View};
use crate::case::{Case, Check, Level};
use crate::judge::outcome::{CheckOutcome, CheckResult, Outcome, ReadingCheck, Status, StatusKind};
use crate::peer::Invocation;
use serde_json::Value;

/// What an implementation answered to the requests of one case, as the runner's session gathered
/// them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Answers {
    /// A normalize case: the arguments reaching the tool, or the error they were refused with;
    /// and whether normalize was a call of a tool ([`crate::Target::normalize_is_a_call`]).
    Normalized(Result<Value, Value>, bool),
    /// An invoke case: one call per claimed transport, in the case's order, and for a rejection
    /// under the one-error contract the first call repeated and with its keys reversed.
    Invoked {
        /// One call per claimed transport.
        calls: Vec<(Transport, Invocation)>,
        /// The first call repeated, and with its keys reversed.
        rechecks: Option<(Invocation, Invocation)>,
        /// What the implementation's HTTP errors contain to point back to get_api_spec
        /// (`Implementation::spec_pointer`).
        pointer: String,
    },
    /// A describe case: each view asked and the schema it published, in the case's order (the
    /// session stops asking at the first view that fails).
    Described(Vec<(View, Value)>),
    /// A normalize or invoke case whose tool ran and received a value JSON cannot carry
    /// ([`crate::TargetError::NotJson`]): `text` renders it as the implementation does, and
    /// `transport` is the invoke's (none for a normalize).
    RanOnNotJson {
        /// The invoke's transport.
        transport: Option<Transport>,
        /// What the tool received, as the implementation renders it: never JSON.
        text: String,
    },
}

/// What `case` comes to, given what the implementation answered to it: its status, the checks
/// beyond the text, and each required check it made with the behaviour that check shows.
pub(crate) fn judge(case: &Case, answers: &Answers) -> Outcome {
    let (status, readings, made) = status(case, answers);
    let mut outcome = Outcome::new(case, status);
    outcome.readings = readings;
    if case.level == Level::Required {
        outcome.checks = made
            .into_iter()
            .filter_map(|(check, result)| {
                let behaviour = case.shows.get(&check)?.clone();
                Some(CheckOutcome { check, behaviour, result })
            })
            .collect();
    }
    outcome
}

/// The one check of a case that makes one (normalize, describe), as its status shows it.
fn one_check(kind: CheckKind, status: &Status) -> Vec<(CheckKind, CheckResult)> {
    let result = match status.kind() {
        StatusKind::Pass => CheckResult::Pass,
        StatusKind::Fail => CheckResult::Fail,
        StatusKind::Error => CheckResult::Error,
        StatusKind::Skip => CheckResult::NotObservable,
        StatusKind::Observed | StatusKind::NotApplicable => return Vec::new(),
    };
    vec![(kind, result)]
}

type Judged = (Status, Vec<ReadingCheck>, Vec<(CheckKind, CheckResult)>);

fn status(case: &Case, answers: &Answers) -> Judged {
    match (&case.check, answers) {
        (Check::Normalize { input_schema, arguments, expect }, Answers::Normalized(answer, by_call)) => {
            let status = normalize::judge(input_schema, arguments, expect, answer, *by_call);
            let made = one_check(CheckKind::ArgumentsReachingTool, &status);
            (status, Vec::new(), made)
        }
        (Check::Invoke { tools, tool, expect, .. }, Answers::Invoked { calls, rechecks, pointer }) => {
            let schema = tools.iter().find(|t| t.name == *tool).map(|t| &t.input_schema).unwrap_or(&Value::Null);
            let rejection_only = case.level == Level::Required && crate::case::checks::rejection_only(&case.check);
            invoke::judge(schema, expect, case.rejections, calls, rechecks.as_ref(), pointer, rejection_only)
        }
        (Check::Describe { tools, tool, .. }, Answers::Described(published)) => {
            let status = describe::judge(case.level, &describe::registered(tools, tool), published);
            let made = one_check(CheckKind::SchemaPublished, &status);
            (status, Vec::new(), made)
        }
        (Check::Normalize { .. } | Check::Invoke { .. }, Answers::RanOnNotJson { transport, text }) => {
            ran_on_not_json(&case.check, *transport, text)
        }
        _ => (Status::Error { reason: "the answers are not those of the case's check".into() }, Vec::new(), Vec::new()),
    }
}

/// A case whose tool ran on a value JSON cannot carry: the tool ran, with a value no case expects
/// (no expected value is anything but JSON), so the check that reads what it received fails, and
/// an invoke that should have been rejected ran its handler. The actual value says what the tool
/// received as the implementation's text, marked as not JSON.
fn ran_on_not_json(check: &Check, transport: Option<Transport>, text: &str) -> Judged {
    use crate::case::{Expect, InvokeExpectation};
    use crate::judge::outcome::{Failure, Observation};
    use serde_json::json;
    let on = |what: &str| transport.map_or_else(|| what.to_string(), |t| format!("{what} on {t}"));
    let (status, kinds) = match check {
        Check::Normalize { expect, .. } => {
            let actual = json!({ "received_not_json": text });
            let status = match expect {
                Expect::One(expected) => {
                    Status::Fail(Failure::new("arguments reaching the tool", expected.clone(), actual))
                }
                Expect::Behaviours(_) => Status::Observed(Observation { behaviour: None, actual }),
            };
            (status, vec![CheckKind::ArgumentsReachingTool])
        }
        Check::Invoke { expect, .. } => {
            let actual = json!({ "outcome": "executed", "received_not_json": text });
            match expect {
                Expect::One(InvokeExpectation::Executed { received }) => {
                    let want = json!({ "outcome": "executed", "handler_calls": 1, "received": received });
                    (Status::Fail(Failure::new(on("invoke"), want, actual)), vec![CheckKind::RanAsSent])
                }
                Expect::One(InvokeExpectation::Rejected { .. }) => {
                    let want = json!({ "outcome": "rejected", "handler_calls": 0 });
                    let kinds = vec![CheckKind::HandlerNotRun, CheckKind::ProblemsNamed];
                    (Status::Fail(Failure::new(on("invoke"), want, actual)), kinds)
                }
                Expect::Behaviours(_) => (Status::Observed(Observation { behaviour: None, actual }), Vec::new()),
            }
        }
        Check::Describe { .. } => {
            let reason = "a describe was answered as a run of a tool".into();
            return (Status::Error { reason }, Vec::new(), Vec::new());
        }
    };
    let made = kinds.into_iter().flat_map(|kind| one_check(kind, &status)).collect();
    (status, Vec::new(), made)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::tool::Tool;
    use crate::case::{Expect, Level, Location, Rejections};
    use serde_json::json;

    fn case(level: Level, check: Check) -> Case {
        Case {
            id: "R-1/judge/a".into(),
            rule: "R-1".into(),
            clauses: vec!["R-1.a".into()],
            level,
            summary: String::new(),
            note: None,
            needs: Vec::new(),
            check,
            rejections: Rejections::Problems,
            location: Location { file: "R-1/judge.yaml".into(), line: 1, column: 1 },
            shows: Default::default(),
        }
    }

    #[test]
    fn a_normalize_case_is_judged_from_its_answer_alone() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        let check = Check::Normalize {
            input_schema: schema,
            arguments: json!({"n": "1"}),
            expect: Expect::One(json!({"n": 1})),
        };
        let case = case(Level::Required, check);
        assert_eq!(judge(&case, &Answers::Normalized(Ok(json!({"n": 1})), false)).status, Status::Pass);
        let Status::Fail(failure) = judge(&case, &Answers::Normalized(Ok(json!({"n": "1"})), false)).status else {
            panic!("a different answer fails")
        };
        assert_eq!((failure.check.as_str(), failure.pointer.as_str()), ("arguments reaching the tool", "/n"));
        // Refused, though {"n": 1} passes validation under every reading: a failure too.
        let refused = judge(&case, &Answers::Normalized(Err(json!({"message": "no"})), false)).status;
        assert!(matches!(refused, Status::Fail(f) if f.actual == json!({"rejected": {"message": "no"}})));
        let wrong = judge(&case, &Answers::Described(Vec::new())).status;
        assert!(matches!(wrong, Status::Error { .. }), "answers of another check are no verdict");
    }

    #[test]
    fn a_tool_that_ran_on_a_value_json_cannot_carry_fails_the_case_saying_what_it_received() {
        use crate::case::InvokeExpectation;
        let text = "{'tags': [1, nan]} (Python's repr; not JSON: the float nan)".to_string();
        let schema = json!({"type": "object", "properties": {"tags": {"type": "array"}}});
        let normalize = Check::Normalize {
            input_schema: schema.clone(),
            arguments: json!({"tags": "[1, NaN]"}),
            expect: Expect::One(json!({"tags": "[1, NaN]"})),
        };
        let ran = Answers::RanOnNotJson { transport: None, text: text.clone() };
        let outcome = judge(&case(Level::Required, normalize), &ran);
        let Status::Fail(failure) = outcome.status else { panic!("a failure, not an error: {:?}", outcome.status) };
        assert_eq!(failure.check, "arguments reaching the tool");
        assert_eq!(failure.actual, json!({"received_not_json": text}));
        let tools = vec![Tool { name: "t".into(), description: None, input_schema: schema }];
        let invoke = |expect| Check::Invoke {
            tools: tools.clone(),
            tool: "t".into(),
            arguments: json!({"tags": "[1, NaN]"}),
            transports: vec![Transport::Direct],
            expect: Expect::One(expect),
        };
        let ran = Answers::RanOnNotJson { transport: Some(Transport::Http), text: text.clone() };
        let executed = InvokeExpectation::Executed { received: json!({"tags": "[1, NaN]"}) };
        let Status::Fail(failure) = judge(&case(Level::Required, invoke(executed)), &ran).status else {
            panic!("an executed invoke fails")
        };
        assert_eq!(failure.check, "invoke on http");
        assert_eq!(failure.actual, json!({"outcome": "executed", "received_not_json": text}));
        let rejected =
            InvokeExpectation::Rejected { problems: Vec::new(), problems_at_least: false, expected_fields: None };
        let Status::Fail(failure) = judge(&case(Level::Required, invoke(rejected)), &ran).status else {
            panic!("a rejection the handler ran past fails")
        };
        assert_eq!(failure.expected, json!({"outcome": "rejected", "handler_calls": 0}));
        let describe = Check::Describe { tools, tool: "t".into(), views: vec![View::Direct] };
        let error = judge(&case(Level::Required, describe), &ran).status;
        assert!(matches!(error, Status::Error { .. }), "no describe runs a tool: {error:?}");
    }

    #[test]
    fn the_same_published_schema_passes_the_contract_and_fails_the_document() {
        let registered = json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
        let annotated =
            json!({"type": "object", "title": "Search", "properties": {"q": {"type": "string"}}, "required": ["q"]});
        let tools = vec![Tool { name: "search".into(), description: None, input_schema: registered }];
        let check = Check::Describe { tools, tool: "search".into(), views: View::ALL.to_vec() };
        let answers = Answers::Described(View::ALL.iter().map(|v| (*v, annotated.clone())).collect());
        assert_eq!(judge(&case(Level::Required, check.clone()), &answers).status, Status::Pass);
        let Status::Fail(failure) = judge(&case(Level::Interpretation, check), &answers).status else {
            panic!("the document as registered has no title")
        };
        assert_eq!(failure.check, "schema published by get_api_spec");
    }
}
