//! A describe case judged: each view's published schema against the registered one. A required
//! case holds it to the contract the registered schema states, which every reading of "one
//! registered schema" demands; any other level, to the document as registered
//! (`judge::contract`, docs/interpretations.md).

use crate::case::Level;
use crate::case::tool::{Tool, View};
use crate::json::compare::same;
use crate::judge::contract::{contract, contract_spelled};
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
                let (want, got) = spelled(registered, published, want, got);
                Failure::new(format!("contract of the schema published by {view} (annotations aside)"), want, got)
            })
        }
        _ => (!same(registered, published))
            .then(|| Failure::new(format!("schema published by {view}"), registered.clone(), published.clone())),
    }
}

/// The contracts `want` (of `registered`) and `got` (of `published`) as a reader is shown them: a
/// subschema `true` stays `true`, as written, rather than the `{}` it is compared as; where the
/// two say the same thing in two spellings, both are shown in the registered one, so that the
/// diff marks only what differs.
fn spelled(registered: &Value, published: &Value, want: Value, got: Value) -> (Value, Value) {
    let trues = |schema: &Value, normal: &Value| {
        let mut found = Vec::new();
        trues_of(&contract_spelled(schema, true), normal, String::new(), &mut found);
        found
    };
    let (registered_trues, published_trues) = (trues(registered, &want), trues(published, &got));
    let empty = |value: &Value, pointer: &str| {
        value.pointer(pointer).is_some_and(|v| v.as_object().is_some_and(|o| o.is_empty()))
    };
    let (mut want_shown, mut got_shown) = (want.clone(), got.clone());
    for pointer in &registered_trues {
        respell(&mut want_shown, pointer);
        if empty(&got, pointer) {
            respell(&mut got_shown, pointer);
        }
    }
    for pointer in &published_trues {
        // Where the registered schema wrote `{}`, its spelling is the one shown.
        if !empty(&want, pointer) || registered_trues.contains(pointer) {
            respell(&mut got_shown, pointer);
        }
    }
    (want_shown, got_shown)
}

/// The pointers at which `spelled` has a `true` that `normal` writes `{}`.
fn trues_of(spelled: &Value, normal: &Value, pointer: String, found: &mut Vec<String>) {
    match (spelled, normal) {
        (Value::Bool(true), Value::Object(members)) if members.is_empty() => found.push(pointer),
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a {
                if let Some(other) = b.get(key) {
                    let escaped = key.replace('~', "~0").replace('/', "~1");
                    trues_of(value, other, format!("{pointer}/{escaped}"), found);
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (index, (value, other)) in a.iter().zip(b).enumerate() {
                trues_of(value, other, format!("{pointer}/{index}"), found);
            }
        }
        _ => {}
    }
}

/// Writes `true` at `pointer` in `value`.
fn respell(value: &mut Value, pointer: &str) {
    if let Some(place) = value.pointer_mut(pointer) {
        *place = Value::Bool(true);
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn failure(registered: Value, published: Value) -> Failure {
        view_failure(Level::Required, &registered, View::GetApiSpec, &published).expect("a failure")
    }

    #[test]
    fn a_registered_true_is_shown_as_true() {
        let registered = json!({"type": "object", "properties": {"a": true, "b": {"type": "string"}}});
        let published = json!({"type": "object", "properties": {"a": {}, "b": {"type": "integer"}}});
        let shown = failure(registered.clone(), published);
        assert_eq!(
            (&shown.expected["properties"]["a"], &shown.actual["properties"]["a"]),
            (&json!(true), &json!(true))
        );
        assert_eq!(shown.pointer, "/properties/b/type");
        assert!(!shown.diff.contains("{}") && shown.diff.contains("\"a\": true"), "{}", shown.diff);
        let shown = failure(registered, json!({"type": "object", "properties": {"a": {"type": "string"}}}));
        assert_eq!(shown.expected["properties"]["a"], json!(true));
        assert_eq!(shown.actual["properties"]["a"], json!({"type": "string"}));
        // A published `true` where the registered schema wrote `{}` is shown in the registered
        // spelling; one where it differs keeps its own.
        let registered = json!({"type": "object", "properties": {"a": {}, "b": {"type": "string"}}});
        let shown = failure(registered, json!({"type": "object", "properties": {"a": true, "b": true}}));
        assert_eq!((&shown.actual["properties"]["a"], &shown.actual["properties"]["b"]), (&json!({}), &json!(true)));
    }
}
