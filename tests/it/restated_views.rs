//! Implementations that say in their own words what the suite leaves theirs to say: a view that
//! publishes the registered schema with a `$schema`, an empty `required` and its enums reordered
//! states the same contract, so it loses no required case (judge::contract); an HTTP error that
//! points back to get_api_spec by the words the implementation declares (`get_api_spec` in its
//! start answer) points back as well as one naming the tool.

use crate::util::OnReference;
use serde_json::Value;
use tool_conformance::run::run;
use tool_conformance::{Corpus, Invocation, Level, Selection, Status};

/// `schema` with a draft 2020-12 `$schema` and an `$id` at its root, an empty `required` wherever
/// it has none, and every `enum` in reverse order.
fn restated(schema: &Value, root: bool) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out: serde_json::Map<String, Value> = map
                .iter()
                .map(|(key, value)| match (key.as_str(), value) {
                    ("enum", Value::Array(members)) => (key.clone(), Value::Array(members.iter().rev().cloned().collect())),
                    ("enum" | "const" | "default" | "examples", value) => (key.clone(), value.clone()),
                    (_, value) => (key.clone(), restated(value, false)),
                })
                .collect();
            if root {
                out.insert("$schema".into(), "https://json-schema.org/draft/2020-12/schema".into());
                out.insert("$id".into(), "urn:example:restated".into());
            }
            // Only where a schema stands: a map of properties holds names, not keywords.
            if out.contains_key("type") || out.contains_key("properties") {
                out.entry("required").or_insert_with(|| Value::Array(Vec::new()));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| restated(v, false)).collect()),
        other => other.clone(),
    }
}

fn restated_views_lose_no_required_case() {
    let corpus = Corpus::embedded().unwrap_or_else(|errors| panic!("{errors}"));
    let ran = run(&corpus, &Selection::all(), &mut OnReference::new().with_describe(|schema| restated(&schema, true)));
    let required: Vec<_> = ran.outcomes.iter().filter(|o| o.level == Level::Required).collect();
    let failed: Vec<String> = required
        .iter()
        .filter(|o| o.status != Status::Pass)
        .map(|o| format!("{}: {:?}", o.id, o.status))
        .collect();
    println!("restated views: {} required cases, {} not passed", required.len(), failed.len());
    assert!(required.len() > 100, "the corpus's required cases ran: {}", required.len());
    assert!(failed.is_empty(), "required cases lost by restated views:\n{}", failed.join("\n"));
    // And the restatement is one the document reading sees: the interpretation cases fail.
    let document = ran.outcomes.iter().filter(|o| o.id.starts_with("PLAT-162/one-schema/") && o.level != Level::Required);
    assert!(document.clone().count() > 0 && document.into_iter().all(|o| matches!(o.status, Status::Fail(_))));
}


/// The reference, declaring that its HTTP errors point back to get_api_spec by `pointer`, and,
/// when `shown`, pointing by it in place of the tool's name; otherwise they point nowhere.
fn pointing(pointer: &'static str, shown: bool) -> OnReference {
    let by = if shown { pointer } else { "the API spec" };
    OnReference::new()
        .with_start(move |mut implementation| {
            implementation.spec_pointer = pointer.into();
            implementation
        })
        .with_invoke(move |invocation| match invocation {
            Invocation::Rejected { handler_calls, error } => Invocation::Rejected { handler_calls, error: replaced(&error, by) },
            other => other,
        })
}

/// `value` with every "get_api_spec" in its strings and keys replaced by `by`.
fn replaced(value: &Value, by: &str) -> Value {
    match value {
        Value::String(text) => Value::String(text.replace("get_api_spec", by)),
        Value::Array(items) => Value::Array(items.iter().map(|v| replaced(v, by)).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.replace("get_api_spec", by), replaced(v, by))).collect()),
        other => other.clone(),
    }
}

fn a_declared_pointer_stands_for_get_api_spec_in_http_errors() {
    let corpus = Corpus::embedded().unwrap_or_else(|errors| panic!("{errors}"));
    let required_failures = |target: &mut OnReference| -> Vec<(String, String)> {
        let ran = run(&corpus, &Selection::all(), target);
        ran.outcomes
            .iter()
            .filter(|o| o.level == Level::Required)
            .filter_map(|o| match &o.status {
                Status::Pass | Status::NotApplicable { .. } => None,
                Status::Fail(failure) => Some((o.id.clone(), failure.check.clone())),
                other => Some((o.id.clone(), format!("{other:?}"))),
            })
            .collect()
    };
    // Pointing by a URL it declares, in every HTTP error: no required case lost.
    let pointed = required_failures(&mut pointing("/v1/spec", true));
    assert!(pointed.is_empty(), "required cases lost by a declared pointer:\n{pointed:?}");
    // Declaring it and pointing nowhere fails the HTTP pointer check, by the declared words.
    let hidden = required_failures(&mut pointing("/v1/spec", false));
    println!("declared pointer: {} required cases lost when shown, {} when not", pointed.len(), hidden.len());
    assert!(hidden.len() > 50, "the HTTP pointer check is required of many cases: {}", hidden.len());
    assert!(
        hidden.iter().all(|(_, check)| check.starts_with("the error on http points to /v1/spec")),
        "{hidden:?}"
    );
}

tests![restated_views_lose_no_required_case, a_declared_pointer_stands_for_get_api_spec_in_http_errors];
