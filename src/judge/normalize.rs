//! A normalize case judged: the arguments the implementation says reach the tool, against the
//! case's expectation, or, when it refused them before any tool ran, whether a conforming runtime
//! would have let them through.

use crate::case::Expect;
use crate::json::compare::same;
use crate::judge::outcome::{Failure, Observation, Status};
use serde_json::{Value, json};

/// What a normalize answered (`Ok`: the arguments reaching the tool; `Err`: the error it refused
/// them with) comes to against `expect`, for a tool of `schema` sent the arguments `sent`;
/// `by_call` when normalize was a call of a tool ([`crate::Target::normalize_is_a_call`]).
pub(crate) fn judge(
    schema: &Value,
    sent: &Value,
    expect: &Expect<Value>,
    answer: &Result<Value, Value>,
    by_call: bool,
) -> Status {
    let actual = match answer {
        Ok(arguments) => arguments.clone(),
        Err(error) => return refused(schema, sent, expect, error.clone(), by_call),
    };
    match expect {
        Expect::One(expected) if same(expected, &actual) => Status::Pass,
        Expect::One(expected) => Status::Fail(Failure::new("arguments reaching the tool", expected.clone(), actual)),
        Expect::Behaviours(behaviours) => Status::Observed(Observation {
            behaviour: behaviours.iter().find(|(_, expected)| same(expected, &actual)).map(|(name, _)| name.clone()),
            actual,
        }),
    }
}

/// A normalize the target refused before any tool ran. Nothing reached the tool, so the case
/// fails when a conforming runtime would have let the arguments, normalized as expected, through.
/// When they break the tool's schema, a conforming runtime that also validates (PLAT-162) refuses
/// them too, and what normalization made of them cannot be seen: the case is skipped, saying so,
/// and saying what would get it judged: an adapter's normalize can answer before validation, a
/// call of a tool (`by_call`, an MCP route) never can.
/// Their numbers are read as sent as well as as expected
/// ([`crate::judge::strictest::passes_validation_as_sent`]): a runtime may keep `1E+2` as it
/// arrived and count it no integer.
fn refused(schema: &Value, sent: &Value, expect: &Expect<Value>, error: Value, by_call: bool) -> Status {
    let actual = json!({ "rejected": error });
    match expect {
        Expect::One(expected) if crate::judge::strictest::passes_validation_as_sent(schema, expected, sent) => {
            Status::Fail(Failure::new("arguments reaching the tool", expected.clone(), actual))
        }
        Expect::One(_) => Status::Skip { reason: not_observable(by_call).into() },
        Expect::Behaviours(_) => Status::Observed(Observation { behaviour: None, actual }),
    }
}

/// Why a refused normalize cannot be judged, and what would get it judged: `by_call` when
/// normalize was a call of a tool through the implementation.
fn not_observable(by_call: bool) -> &'static str {
    if by_call {
        "not observable: the runtime refused the arguments before any tool ran, as a runtime that validates must, \
         since normalized as expected they break the tool's schema; on an MCP route normalize is a call of a tool, \
         whose handler a validating implementation never runs, so no run on this route can show what \
         normalization alone makes of them: a protocol-v1 adapter (--stdio, --http) whose normalize answers before \
         any validation gets this case judged"
    } else {
        "not observable: the runtime refused the arguments before any tool ran, as a runtime that validates must, \
         since normalized as expected they break the tool's schema; an adapter whose normalize answers what \
         normalization alone makes of them, before any validation, gets this case judged"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_normalize_is_told_what_gets_it_judged_on_its_route() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        let expect = Expect::One(json!({"n": "x"}));
        let reason = |by_call| match judge(&schema, &json!({"n": "x"}), &expect, &Err(json!({})), by_call) {
            Status::Skip { reason } => reason,
            other => panic!("{other:?}"),
        };
        let (adapter, mcp) = (reason(false), reason(true));
        assert!(adapter.contains("an adapter whose normalize answers") && !adapter.contains("MCP"), "{adapter}");
        assert!(mcp.contains("on an MCP route normalize is a call of a tool"), "{mcp}");
        assert!(!mcp.contains("answer normalize") && !mcp.contains("an adapter whose"), "{mcp}");
    }
}
