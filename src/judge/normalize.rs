//! A normalize case judged: the arguments the implementation says reach the tool, against the
//! case's expectation, or, when it refused them before any tool ran, whether a conforming runtime
//! would have let them through.

use crate::case::Expect;
use crate::json::compare::same;
use crate::judge::outcome::{Failure, Observation, Status};
use serde_json::{Value, json};

/// What a normalize answered (`Ok`: the arguments reaching the tool; `Err`: the error it refused
/// them with) comes to against `expect`, for a tool of `schema` sent the arguments `sent`.
pub(crate) fn judge(schema: &Value, sent: &Value, expect: &Expect<Value>, answer: &Result<Value, Value>) -> Status {
    let actual = match answer {
        Ok(arguments) => arguments.clone(),
        Err(error) => return refused(schema, sent, expect, error.clone()),
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
/// them too, and what normalization made of them cannot be seen: the case is skipped, saying so.
/// Their numbers are read as sent as well as as expected
/// ([`crate::judge::strictest::passes_validation_as_sent`]): a runtime may keep `1E+2` as it
/// arrived and count it no integer.
fn refused(schema: &Value, sent: &Value, expect: &Expect<Value>, error: Value) -> Status {
    let actual = json!({ "rejected": error });
    match expect {
        Expect::One(expected) if crate::judge::strictest::passes_validation_as_sent(schema, expected, sent) => {
            Status::Fail(Failure::new("arguments reaching the tool", expected.clone(), actual))
        }
        Expect::One(_) => Status::Skip {
            reason: "not observable: the runtime refused the arguments before any tool ran, as a runtime that \
                     validates must, since normalized as expected they break the tool's schema; an adapter whose \
                     normalize answers what normalization alone makes of them, before any validation, gets this case \
                     judged"
                .into(),
        },
        Expect::Behaviours(_) => Status::Observed(Observation { behaviour: None, actual }),
    }
}
