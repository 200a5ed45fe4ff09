//! A describe case judged: each view's published schema against the registered one. A required
//! case holds it to the contract the registered schema states, which every reading of "one
//! registered schema" demands; any other level, to the document as registered
//! (`judge::contract`, docs/interpretations.md).

use crate::case::Level;
use crate::case::tool::{Tool, View};
use crate::json::compare::same;
use crate::judge::contract::contract;
use crate::judge::outcome::{Failure, Status};
use serde_json::Value;

/// The schema `tool` is registered with among `tools` (`null` when it is not among them).
pub(crate) fn registered(tools: &[Tool], tool: &str) -> Value {
    tools.iter().find(|t| t.name == tool).map(|t| t.input_schema.clone()).unwrap_or(Value::Null)
}

/// Where the schema `view` published parts from `registered`, held to what `level` holds it to;
/// `None` when it does not.
pub(crate) fn view_failure(level: Level, registered: &Value, view: View, published: &Value) -> Option<Failure> {
    match level {
        Level::Required => {
            let (want, got) = (contract(registered), contract(published));
            (!same(&want, &got)).then(|| {
                Failure::new(format!("contract of the schema published by {view} (annotations aside)"), want, got)
            })
        }
        _ => (!same(registered, published))
            .then(|| Failure::new(format!("schema published by {view}"), registered.clone(), published.clone())),
    }
}

/// What the views published came to, held to what `level` holds them to: the first that parts
/// from `registered` fails the case.
pub(crate) fn judge(level: Level, registered: &Value, published: &[(View, Value)]) -> Status {
    match published.iter().find_map(|(view, schema)| view_failure(level, registered, *view, schema)) {
        Some(failure) => Status::Fail(failure),
        None => Status::Pass,
    }
}
