//! Every check the judge makes of a case, listed before any answer: [`checks_of`]. `show` prints
//! this list, so what it says a case asks is what the judge asks.
//!
//! The list is built from what the judge itself reads: the kinds of check a case makes
//! ([`crate::case::checks::planned`], the list the judge's own results and the corpus lint use),
//! the bounds a rejection's expected fields are held to ([`super::invoke`]'s `FieldBounds`), the
//! contract a published schema is compared by ([`super::contract`]), and the checks beyond the
//! text ([`READING_CHECKS`]). Each check carries its level: a required case's own checks are
//! required; an interpretation case's rest on the reading its note states; an informational
//! case's only record which behaviour was seen; a check beyond the text rests on the reading
//! `docs/interpretations.md` names it by. The tests below judge every case of the corpus against
//! the reference (and against a handler that ran where a rejection was expected) and fail when the
//! judge makes a check this list does not have, or this list has one the judge never makes.

use crate::case::checks::{CheckKind, planned};
use crate::case::tool::{Transport, View};
use crate::case::{Case, Check, Expect, InvokeExpectation, Level, Problem, Rejections, derived_expected_fields};
use crate::judge::READING_CHECKS;
use crate::judge::invoke::{FieldBounds, NON_OBJECT_ROOT, reversed};
use crate::peer::DEFAULT_SPEC_POINTER;
use serde_json::Value;

/// How a planned check counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckLevel {
    /// Forced by the rule text: a failure means the rule is not met.
    Required,
    /// A check of an interpretation case: it rests on the reading the case's note states.
    Interpretation,
    /// A check beyond the text, made only when the case's own checks passed and reported apart:
    /// it rests on the reading `docs/interpretations.md` names by this name ([`READING_CHECKS`]).
    Reading(&'static str),
    /// A check of an informational case, made against each behaviour to record which one is seen.
    Informational,
}

impl CheckLevel {
    /// The level as `show` prints it.
    pub fn label(&self) -> String {
        match self {
            CheckLevel::Required => "required".into(),
            CheckLevel::Interpretation => "interpretation (the reading in the case's note)".into(),
            CheckLevel::Reading(name) => {
                format!("interpretation: beyond the text, reading `{name}` of docs/interpretations.md")
            }
            CheckLevel::Informational => "informational (records the behaviour seen)".into(),
        }
    }
}

/// One check the judge makes of a case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedCheck {
    /// The check's name: a [`CheckKind`]'s word, or a reading check's name; for an
    /// informational case, prefixed by the behaviour it is made against (`behaviour: kind`).
    pub name: String,
    /// How it counts.
    pub level: CheckLevel,
    /// What it asks of this case, in words.
    pub asks: String,
}

/// Every check the judge makes of `case` when the implementation claims `claimed` of its
/// transports (for a case that is not an invoke, any), in the order the judge makes them: the
/// case's own checks, then the checks beyond the text. A case none of whose transports is claimed
/// is not applicable and makes none.
pub fn checks_of(case: &Case, claimed: &[Transport]) -> Vec<PlannedCheck> {
    let own_level = match case.level {
        Level::Required => CheckLevel::Required,
        Level::Interpretation => CheckLevel::Interpretation,
        Level::Informational => CheckLevel::Informational,
    };
    let claimed: Vec<Transport> = match &case.check {
        Check::Invoke { transports, .. } => transports.iter().copied().filter(|t| claimed.contains(t)).collect(),
        _ => claimed.to_vec(),
    };
    if matches!(case.check, Check::Invoke { .. }) && claimed.is_empty() {
        return Vec::new();
    }
    match &case.check {
        Check::Normalize { input_schema, arguments, expect } => match expect {
            Expect::One(expected) => own(case, &own_level, &claimed, |_| normalize_asks(expected)),
            Expect::Behaviours(behaviours) => behaviours
                .iter()
                .flat_map(|(name, expected)| {
                    let one = Check::Normalize {
                        input_schema: input_schema.clone(),
                        arguments: arguments.clone(),
                        expect: Expect::One(expected.clone()),
                    };
                    behaviour(name, &one, case.rejections, &claimed, |_| {
                        format!("the arguments that reach the tool are {}", compact(expected))
                    })
                })
                .collect(),
        },
        Check::Invoke { tools, tool, arguments, transports, expect } => {
            let schema = tools.iter().find(|t| t.name == *tool).map(|t| &t.input_schema).unwrap_or(&Value::Null);
            let call = Call { schema, arguments, claimed: &claimed, rejections: case.rejections, level: case.level };
            match expect {
                Expect::One(expected) => {
                    let mut checks = own(case, &own_level, &claimed, |kind| call.asks(kind, expected));
                    checks.extend(call.readings(expected));
                    checks
                }
                Expect::Behaviours(behaviours) => behaviours
                    .iter()
                    .flat_map(|(name, expected)| {
                        let one = Check::Invoke {
                            tools: tools.clone(),
                            tool: tool.clone(),
                            arguments: arguments.clone(),
                            transports: transports.clone(),
                            expect: Expect::One(expected.clone()),
                        };
                        behaviour(name, &one, case.rejections, &claimed, |kind| call.asks(kind, expected))
                    })
                    .collect(),
            }
        }
        Check::Describe { tool, views, .. } => {
            own(case, &own_level, &claimed, |_| describe_asks(case.level, tool, views))
        }
    }
}

/// The case's own checks, each at the case's level.
fn own(
    case: &Case,
    level: &CheckLevel,
    claimed: &[Transport],
    asks: impl Fn(CheckKind) -> String,
) -> Vec<PlannedCheck> {
    planned(&case.check, case.level, case.rejections, claimed)
        .into_iter()
        .map(|kind| PlannedCheck { name: kind.as_str().into(), level: level.clone(), asks: asks(kind) })
        .collect()
}

/// The checks an informational case makes against one of its behaviours.
fn behaviour(
    name: &str,
    one: &Check,
    rejections: Rejections,
    claimed: &[Transport],
    asks: impl Fn(CheckKind) -> String,
) -> Vec<PlannedCheck> {
    planned(one, Level::Informational, rejections, claimed)
        .into_iter()
        .map(|kind| PlannedCheck {
            name: format!("{name}: {kind}"),
            level: CheckLevel::Informational,
            asks: asks(kind),
        })
        .collect()
}

fn normalize_asks(expected: &Value) -> String {
    format!(
        "the arguments that reach the tool are {} (compared as JSON values: object key order aside, numbers by \
         exact value). A runtime that refuses them before any tool runs fails the check when these arguments pass \
         validation under every reading the text allows; when they break the schema, what normalization made of \
         them cannot be seen, and the case is skipped as not observable",
        compact(expected)
    )
}

fn describe_asks(level: Level, tool: &str, views: &[View]) -> String {
    let views = views.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ");
    let held = match level {
        Level::Required => format!(
            "a schema that states the same contract as the one {tool} was registered with (judge::contract: \
             annotations and the identity keywords $id and $anchor aside; a $schema whose dialect reads the schema \
             as draft 2020-12 does, aside; required, enum and type compared as sets, an empty required as none; \
             PLAT-162's object root, declared expected fields and closed root made explicit)"
        ),
        _ => format!("the document {tool} was registered with, as a JSON value (object key order aside)"),
    };
    format!("each view of {views}, asked in that order, publishes {held}; the first view that does not fails the case")
}

/// What one invoke case sends, for the words of its checks.
struct Call<'a> {
    schema: &'a Value,
    arguments: &'a Value,
    claimed: &'a [Transport],
    rejections: Rejections,
    level: Level,
}

impl Call<'_> {
    /// Whether the case holds its rejection to the rejection alone, the rest being the reading
    /// [`NON_OBJECT_ROOT`] (as the judge does: [`crate::case::checks::rejection_only`]).
    fn rejection_only(&self) -> bool {
        self.level == Level::Required && !self.arguments.is_object()
    }

    fn on(&self) -> String {
        self.claimed.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ")
    }

    fn first(&self) -> &'static str {
        self.claimed.first().map_or("", |t| t.as_str())
    }

    fn asks(&self, kind: CheckKind, expected: &InvokeExpectation) -> String {
        let on = self.on();
        let (problems, at_least, listed) = match expected {
            InvokeExpectation::Rejected { problems, problems_at_least, expected_fields } => {
                (problems.as_slice(), *problems_at_least, expected_fields.as_deref())
            }
            InvokeExpectation::Executed { .. } => (&[][..], false, None),
        };
        let bounds = FieldBounds::of(self.schema, listed);
        let unstructured = match self.level {
            Level::Informational => {
                "an error that carries no structured problems (an MCP error without the structured-error convention) \
                 cannot show this check, and so no behaviour that asks it"
            }
            _ => {
                "an error that carries no structured problems (an MCP error without the structured-error convention) \
                 leaves this check not observable, and the case is skipped, never passed"
            }
        };
        match kind {
            CheckKind::ArgumentsReachingTool => match expected {
                InvokeExpectation::Executed { received } => normalize_asks(received),
                InvokeExpectation::Rejected { .. } => String::new(),
            },
            CheckKind::RanAsSent => match expected {
                InvokeExpectation::Executed { received } => format!(
                    "on each claimed transport ({on}), the call is executed: the handler runs exactly once and \
                     receives {} (compared as JSON values)",
                    compact(received)
                ),
                InvokeExpectation::Rejected { .. } => String::new(),
            },
            CheckKind::HandlerNotRun => {
                format!("on each claimed transport ({on}), the call is rejected and the handler never runs")
            }
            CheckKind::ProblemsNamed => {
                let shape = match self.rejections {
                    Rejections::OneError => "the error has a message (a string) and problems (an array); ",
                    Rejections::Problems => "the error has problems (an array); ",
                };
                format!(
                    "on each claimed transport, {shape}its problems {} {} (a set: order aside, each problem \
                     read for its kind and field{}); {unstructured}",
                    if at_least { "include" } else { "are exactly" },
                    problem_list(problems),
                    if problems.iter().any(|p| p.alternatives.is_some()) {
                        " and its alternatives, each a set"
                    } else {
                        ""
                    },
                )
            }
            CheckKind::FieldsListed => {
                let least = if bounds.least.is_empty() {
                    "may list none of them".to_string()
                } else {
                    format!(
                        "includes {} (the declared root properties the schema requires; the text forces no more)",
                        names(&bounds.least)
                    )
                };
                format!(
                    "on each claimed transport, the error's expected_fields is an array of strings that {least}, and \
                     lists nothing outside {} (the declared properties and the names the root and its anyOf/oneOf \
                     branches require{}); {unstructured}",
                    names(&bounds.most),
                    if listed.is_some() { ", with the case's own list" } else { "" },
                )
            }
            CheckKind::PointsToSchema => format!(
                "on http, some key or string of the error contains the words the implementation declares HTTP \
                 callers reach a tool's schema by (its start answer's `get_api_spec`; by default `{DEFAULT_SPEC_POINTER}`); \
                 an error without structured problems, in its message"
            ),
            CheckKind::SameError => {
                let again = match self.arguments {
                    Value::Object(_) => format!(
                        "the same arguments with their root keys in reverse order ({})",
                        compact(&reversed(self.arguments))
                    ),
                    _ => "the same arguments sent again (a root that is not an object has no keys to reverse)".into(),
                };
                format!(
                    "the same call repeated on the first claimed transport ({first}) gives the identical error; \
                     {again} are rejected there before the handler, with the same problems (as a set) and \
                     expected_fields within the bounds of fields-listed (without structured problems: rejected again)",
                    first = self.first(),
                )
            }
            CheckKind::SchemaPublished => String::new(),
        }
    }

    /// The checks beyond the text: made of a rejection under the one-error contract when its
    /// own checks passed.
    fn readings(&self, expected: &InvokeExpectation) -> Vec<PlannedCheck> {
        let InvokeExpectation::Rejected { problems, expected_fields, .. } = expected else {
            return Vec::new();
        };
        if self.rejections != Rejections::OneError {
            return Vec::new();
        }
        let fields = expected_fields.clone().unwrap_or_else(|| derived_expected_fields(self.schema));
        let mut terms: Vec<String> = problems.iter().filter_map(|p| p.field.clone()).chain(fields.clone()).collect();
        terms.sort();
        terms.dedup();
        let on = self.on();
        READING_CHECKS
            .iter()
            .filter(|(name, _)| *name != "same-error-on-every-transport" || self.claimed.len() > 1)
            .filter(|(name, _)| *name != NON_OBJECT_ROOT || self.rejection_only())
            .map(|(name, holds)| {
                let asks = match *name {
                    "message-names-fields" => {
                        format!("on each claimed transport ({on}), the error's message mentions {}", names(&terms))
                    }
                    "message-points-to-get-api-spec" => format!(
                        "on each claimed transport ({on}), the error's message contains the implementation's declared \
                         words for get_api_spec (by default `{DEFAULT_SPEC_POINTER}`)"
                    ),
                    "expected-fields-exact" => format!(
                        "on each claimed transport, expected_fields is exactly {}{}",
                        names(&fields),
                        if expected_fields.is_some() { " (the case's own list)" } else { "" }
                    ),
                    "same-error-whatever-key-order" => format!(
                        "the same arguments with their root keys in reverse order give, on the first claimed \
                         transport ({}), the identical error, problems in the same order",
                        self.first()
                    ),
                    "same-error-on-every-transport" => {
                        format!("every claimed transport ({on}) gives the identical error, pointer and all")
                    }
                    _ => (*holds).to_string(),
                };
                PlannedCheck { name: (*name).to_string(), level: CheckLevel::Reading(name), asks }
            })
            .collect()
    }
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn names(list: &[String]) -> String {
    compact(&Value::from(list.to_vec()))
}

fn problem_list(problems: &[Problem]) -> String {
    let each: Vec<String> = problems.iter().map(|p| compact(&serde_json::to_value(p).unwrap_or(Value::Null))).collect();
    format!("[{}]", each.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;
    use crate::judge::{Answers, status};
    use crate::peer::Invocation;
    use crate::reference::Reference;
    use crate::run::Session;
    use serde_json::json;
    use std::collections::BTreeSet;

    /// The names of the checks the judge made of `case` given `answers`: its own, then those
    /// beyond the text.
    fn made(case: &Case, answers: &Answers) -> Vec<String> {
        let (_, readings, made) = status(case, answers);
        made.iter().map(|(kind, _)| kind.as_str().to_string()).chain(readings.into_iter().map(|r| r.check)).collect()
    }

    fn listed(case: &Case, claimed: &[Transport]) -> Vec<String> {
        checks_of(case, claimed).into_iter().map(|c| c.name).collect()
    }

    /// Against the reference, which claims every rule and transport and passes every case, the
    /// judge makes exactly the checks the plan lists, in its order, for every case the plan gives
    /// checks to: a check the judge gains, or loses, and the plan does not fails here. Informational
    /// cases make their checks against each behaviour, and record only the behaviour seen.
    #[test]
    fn the_judge_makes_exactly_the_checks_the_plan_lists_for_every_case() {
        let corpus = Corpus::embedded().expect("the corpus loads");
        let mut session = Session::start(Reference::new());
        let mut seen = BTreeSet::new();
        for case in &corpus.cases {
            let answers = session.answers(case).unwrap_or_else(|s| panic!("{}: {s:?}", case.id));
            let plan = listed(case, &Transport::ALL);
            if case.level == Level::Informational {
                assert!(made(case, &answers).is_empty(), "{}: an informational case records a behaviour", case.id);
                let behaviours = match &case.check {
                    Check::Normalize { expect: Expect::Behaviours(b), .. } => b.len(),
                    Check::Invoke { expect: Expect::Behaviours(b), .. } => b.len(),
                    _ => 0,
                };
                assert!(plan.len() >= behaviours, "{}: every behaviour has its checks listed", case.id);
                continue;
            }
            assert_eq!(made(case, &answers), plan, "{}: the judge's checks are the plan's", case.id);
            seen.extend(plan);
        }
        // Every kind a case can make, and every check beyond the text, is made by some case.
        for kind in CheckKind::ALL {
            assert!(seen.contains(kind.as_str()), "no case makes {kind}");
        }
        for (name, _) in READING_CHECKS {
            assert!(seen.contains(name), "no case makes the reading check {name}");
        }
    }

    /// Where the handler ran though a rejection was expected, and where only one transport is
    /// claimed, the judge still makes the plan's checks of the case (none beyond the text: those
    /// follow a pass).
    #[test]
    fn a_failing_call_and_a_single_transport_make_the_plan_s_checks_too() {
        let corpus = Corpus::embedded().expect("the corpus loads");
        let mut rejections = 0;
        for case in corpus.cases.iter().filter(|c| c.level != Level::Informational) {
            let Check::Invoke { transports, expect: Expect::One(InvokeExpectation::Rejected { .. }), .. } = &case.check
            else {
                continue;
            };
            rejections += 1;
            let ran = Invocation::Executed { handler_calls: 1, received: json!({}) };
            let calls: Vec<(Transport, Invocation)> = transports.iter().map(|t| (*t, ran.clone())).collect();
            let answers = Answers::Invoked { calls, rechecks: None, pointer: DEFAULT_SPEC_POINTER.into() };
            let own: Vec<String> = checks_of(case, transports)
                .into_iter()
                .filter(|c| !matches!(c.level, CheckLevel::Reading(_)))
                .map(|c| c.name)
                .collect();
            assert_eq!(made(case, &answers), own, "{}: a handler that ran", case.id);
            // One transport claimed: the plan for that transport alone.
            let one = [transports[transports.len() - 1]];
            let error = json!({"message": "no", "problems": [], "expected_fields": []});
            let rejected = Invocation::Rejected { handler_calls: 0, error };
            let answers = Answers::Invoked {
                calls: vec![(one[0], rejected.clone())],
                rechecks: Some((rejected.clone(), rejected)),
                pointer: DEFAULT_SPEC_POINTER.into(),
            };
            let own: Vec<String> = checks_of(case, &one)
                .into_iter()
                .filter(|c| !matches!(c.level, CheckLevel::Reading(_)))
                .map(|c| c.name)
                .collect();
            let (_, _, judged) = status(case, &answers);
            let judged: Vec<String> = judged.iter().map(|(k, _)| k.as_str().to_string()).collect();
            assert_eq!(judged, own, "{}: on {} alone", case.id, one[0]);
        }
        assert!(rejections > 100, "the corpus's rejection cases were judged ({rejections})");
    }

    #[test]
    fn a_case_none_of_whose_transports_is_claimed_makes_no_check() {
        let corpus = Corpus::embedded().expect("the corpus loads");
        let case = corpus.cases.iter().find(|c| c.id == "PLAT-162/transports/unknown-name-on-http").expect("the case");
        assert!(checks_of(case, &[Transport::Direct]).is_empty());
        assert!(!checks_of(case, &[Transport::Http]).is_empty());
    }

    #[test]
    fn a_rejection_s_checks_say_what_each_level_asks() {
        let corpus = Corpus::embedded().expect("the corpus loads");
        let case = corpus
            .cases
            .iter()
            .find(|c| c.id == "PLAT-162/one-error/expected-fields-listed-for-single-problem")
            .expect("the case");
        let plan = checks_of(case, &Transport::ALL);
        let find = |name: &str| plan.iter().find(|c| c.name == name).unwrap_or_else(|| panic!("no {name}: {plan:?}"));
        // The required listing is the bounds; the exact list is a reading.
        let fields = find("fields-listed");
        assert_eq!(fields.level, CheckLevel::Required);
        assert!(fields.asks.contains(r#"includes ["date","room"]"#), "{}", fields.asks);
        assert!(
            fields.asks.contains(r#"nothing outside ["attendees","date","layout","notes","room"]"#),
            "{}",
            fields.asks
        );
        let exact = find("expected-fields-exact");
        assert_eq!(exact.level, CheckLevel::Reading("expected-fields-exact"));
        assert!(exact.asks.contains(r#"exactly ["room","date","attendees","layout","notes"]"#), "{}", exact.asks);
        // The pointer is the implementation's, on HTTP; the repeat and the reversed keys are there.
        assert!(find("points-to-schema").asks.contains("by default `get_api_spec`"));
        let same = find("same-error");
        assert!(same.asks.contains(r#"({"attendees":-1.5,"date":"2024-06-03","room":"Aurora"})"#), "{}", same.asks);
        assert_eq!(find("same-error-on-every-transport").level, CheckLevel::Reading("same-error-on-every-transport"));
        // On one transport there is no pointer to check, nor transports to compare.
        let alone: Vec<String> = checks_of(case, &[Transport::Direct]).into_iter().map(|c| c.name).collect();
        assert!(!alone.iter().any(|n| n == "points-to-schema" || n == "same-error-on-every-transport"), "{alone:?}");
    }
}
