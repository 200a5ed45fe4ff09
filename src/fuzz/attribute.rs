//! Which clause a finding breaks, read from the difference itself.
//!
//! A generated case exercises many things at once; the clause a failure is named by is the one
//! its first difference breaks, the way a case author would cite it:
//!
//! - a normalize difference (RT-TOOL-8): a key changed, added or dropped, or text with no
//!   character reference changed, is 8.5; a string left as text where the reference decoded JSON
//!   is 8.2; a string decoded where the reference kept it is 8.3 and 8.2 (8.3 first when the
//!   parameter is declared string or not declared at all); a string leaf still holding a reference
//!   the reference decodes is 8.4; any other value changed is 8.3 (passed through unmodified);
//! - a difference on an invoke whose arguments normalization changes is 8.1 (normalization before
//!   the tool, against its schema), with the normalize clause of a difference in what the handler
//!   got;
//! - a PLAT-162 invoke: a valid call rejected is closed-root (an unknown name, or a problem on an
//!   undeclared one) or problem-classes; an invalid call executed on the first transport is
//!   closed-root or problem-classes by the problems it should have named, and on a later
//!   transport before-handler and one-schema (that transport alone skipped or changed
//!   validation); a rejected call that still ran the handler is before-handler; a valid call whose
//!   handler got other arguments is unchanged; other problems named is problem-classes (or
//!   closed-root) and one-error; anything else about the error is one-error. A call of the shape
//!   of one of the ticket's two calls (`{}` to a tool that requires names; an unknown name that an
//!   expected field ends with, as step_id and existing_step_id) cites scenarios too.
//!   A rejection the reference makes that the target executes with a string it sent turned into
//!   an array or object the reference's normalization kept as text is RT-TOOL-8 (8.2 or 8.3, as
//!   for a normalize difference): the runtime decoded what clause 2 does not let it decode.
//! - a describe difference is one-schema.
//!
//! [`file_under`] then files the case under the rule of the clause it is named by, so that a case
//! never counts against a rule whose check did not fail.

use super::generate::Generated;
use crate::case::{Case, Check, Expect, InvokeExpectation};
use crate::json::compare::same;
use crate::judge::outcome::Failure;
use crate::reference::entities::decode;
use crate::reference::normalize::{declared_types, normalize};
use crate::reference::validate::expected_fields;
use serde_json::Value;

/// The clauses a failure of `case` breaks, the one it is named by first.
pub fn clauses(case: &Case, generated: &Generated, failure: &Failure) -> Vec<String> {
    let mut out: Vec<&str> = match &case.check {
        Check::Normalize { input_schema, arguments, expect: Expect::One(expected) } => {
            normalize_clauses(input_schema, arguments, expected, &failure.actual)
        }
        Check::Describe { .. } => vec!["PLAT-162.one-schema"],
        Check::Invoke { expect: Expect::One(expected), transports, .. } if case.rule == "RT-TOOL-8" => {
            let mut out = vec!["RT-TOOL-8.1"];
            if let (InvokeExpectation::Executed { received }, Some(got)) = (expected, failure.actual.get("received")) {
                if failure.actual.get("outcome") == Some(&Value::String("executed".into())) && !same(received, got) {
                    out.extend(normalize_clauses(&generated.schema, &generated.arguments, received, got));
                }
            }
            let _ = transports;
            out
        }
        Check::Invoke { expect: Expect::One(expected), transports, .. } => {
            plat_clauses(&generated.schema, &generated.arguments, expected, transports, failure)
        }
        _ => vec![case.clauses.first().map(String::as_str).unwrap_or("RT-TOOL-8.2")],
    };
    // Each clause once, and only those of the rule of the first: a case cites one rule.
    let rule = out.first().and_then(|c| c.split('.').next()).unwrap_or_default().to_string();
    let mut seen = Vec::new();
    out.retain(|c| {
        let new = !seen.contains(c) && c.split('.').next() == Some(rule.as_str());
        seen.push(*c);
        new
    });
    out.into_iter().map(String::from).collect()
}

fn normalize_clauses(schema: &Value, sent: &Value, expected: &Value, actual: &Value) -> Vec<&'static str> {
    let (Value::Object(e), Value::Object(a)) = (expected, actual) else {
        return deep(expected, actual);
    };
    if e.len() != a.len() || e.keys().any(|k| !a.contains_key(k)) {
        return vec!["RT-TOOL-8.5"];
    }
    for (name, want) in e {
        let got = &a[name];
        if same(want, got) {
            continue;
        }
        let original = sent.get(name).unwrap_or(&Value::Null);
        let parameter = schema.get("properties").and_then(|p| p.get(name));
        return match (original, want, got) {
            (Value::String(_), Value::Array(_) | Value::Object(_), Value::String(_)) => vec!["RT-TOOL-8.2"],
            (Value::String(_), Value::String(_), got) if !got.is_string() => {
                let protected = parameter.is_none_or(|p| declared_types(schema, p).contains("string"));
                if protected { vec!["RT-TOOL-8.3", "RT-TOOL-8.2"] } else { vec!["RT-TOOL-8.2", "RT-TOOL-8.3"] }
            }
            _ => deep(want, got),
        };
    }
    vec!["RT-TOOL-8.3"]
}

/// The clause of the first difference inside two values.
fn deep(expected: &Value, actual: &Value) -> Vec<&'static str> {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            if e.len() != a.len() || e.keys().any(|k| !a.contains_key(k)) {
                return vec!["RT-TOOL-8.5"];
            }
            e.iter()
                .find(|(k, v)| !same(v, &a[k.as_str()]))
                .map_or(vec!["RT-TOOL-8.3"], |(k, v)| deep(v, &a[k.as_str()]))
        }
        (Value::Array(e), Value::Array(a)) if e.len() == a.len() => {
            e.iter().zip(a).find(|(x, y)| !same(x, y)).map_or(vec!["RT-TOOL-8.3"], |(x, y)| deep(x, y))
        }
        (Value::String(e), Value::String(a)) => {
            let decoded = decode(a);
            if decoded != a.as_str() || decoded == e.as_str() { vec!["RT-TOOL-8.4"] } else { vec!["RT-TOOL-8.5"] }
        }
        _ => vec!["RT-TOOL-8.3"],
    }
}

fn plat_clauses(
    schema: &Value,
    arguments: &Value,
    expected: &InvokeExpectation,
    transports: &[crate::case::tool::Transport],
    failure: &Failure,
) -> Vec<&'static str> {
    let declared: Vec<String> =
        schema.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default();
    let class_of = |problems: &[Value]| {
        let closed = problems.iter().any(|p| {
            let kind = p.get("kind").and_then(Value::as_str).unwrap_or_default();
            let field = p.get("field").and_then(Value::as_str);
            kind == "unknown_field"
                || (kind != "missing_required" && field.is_some_and(|f| !declared.iter().any(|d| d == f)))
        });
        if closed { "PLAT-162.closed-root" } else { "PLAT-162.problem-classes" }
    };
    let check = failure.check.as_str();
    let got = &failure.actual;
    let mut out = Vec::new();
    if let Some(transport) = check.strip_prefix("invoke on ") {
        let outcome = got.get("outcome").and_then(Value::as_str).unwrap_or_default();
        match expected {
            InvokeExpectation::Executed { .. } if outcome == "executed" => out.push("PLAT-162.unchanged"),
            InvokeExpectation::Executed { .. } => {
                let problems = got.pointer("/error/problems").and_then(Value::as_array).cloned().unwrap_or_default();
                out.push(class_of(&problems));
            }
            InvokeExpectation::Rejected { .. }
                if outcome == "executed" && decoded_against_the_text(schema, arguments, got) =>
            {
                let normalized = normalize(schema, arguments);
                out.extend(normalize_clauses(schema, arguments, &normalized, &got["received"]));
            }
            InvokeExpectation::Rejected { problems, .. } => {
                let handler_ran = got.get("handler_calls").and_then(Value::as_u64).unwrap_or(0) > 0;
                let expected: Vec<Value> =
                    problems.iter().map(|p| serde_json::to_value(p).unwrap_or(Value::Null)).collect();
                if outcome == "rejected" && handler_ran {
                    out.push("PLAT-162.before-handler");
                } else if transports.first().is_some_and(|t| t.as_str() != transport) {
                    out.extend(["PLAT-162.before-handler", "PLAT-162.one-schema"]);
                } else {
                    out.push(class_of(&expected));
                }
            }
        }
    } else if check.starts_with("problems named") {
        let mut differing: Vec<Value> = Vec::new();
        if let (Some(e), Some(a)) = (failure.expected.as_array(), failure.actual.as_array()) {
            differing.extend(e.iter().filter(|p| !a.contains(p)).cloned());
            differing.extend(a.iter().filter(|p| !e.contains(p)).cloned());
        }
        out.extend([class_of(&differing), "PLAT-162.one-error"]);
    } else {
        out.push("PLAT-162.one-error");
    }
    if scenario_shape(schema, arguments) {
        out.push("PLAT-162.scenarios");
    }
    out
}

/// Whether the handler received, for some root name, an array or object where the call sent a
/// string that the reference's normalization leaves a string: JSON decoding the text does not
/// allow, not a validation difference.
fn decoded_against_the_text(schema: &Value, arguments: &Value, got: &Value) -> bool {
    let (Value::Object(sent), Some(Value::Object(received))) = (arguments, got.get("received")) else {
        return false;
    };
    let normalized = normalize(schema, arguments);
    sent.iter().any(|(name, value)| {
        value.is_string()
            && normalized.get(name).is_some_and(Value::is_string)
            && received.get(name).is_some_and(|v| v.is_array() || v.is_object())
    })
}

/// Files `case` under the rule of the clause it is named by (its first): a call filed under
/// RT-TOOL-8 whose rejection shows what validation saw needs PLAT-162, and reads a rejection for
/// its problems only; one filed under PLAT-162 is held to the one error.
pub fn file_under(case: &mut Case) {
    let Some(rule) = case.clauses.first().and_then(|c| c.split('.').next()).map(String::from) else { return };
    if rule == case.rule {
        return;
    }
    let rejected = matches!(&case.check, Check::Invoke { expect: Expect::One(InvokeExpectation::Rejected { .. }), .. });
    case.needs = if rule == "RT-TOOL-8" && rejected { vec!["PLAT-162".into()] } else { Vec::new() };
    case.rejections =
        if rule == "PLAT-162" { crate::case::Rejections::OneError } else { crate::case::Rejections::Problems };
    case.id = case.id.replacen(&case.rule, &rule, 1);
    case.location.file = std::path::PathBuf::from(format!("{rule}/fuzz.yaml"));
    case.rule = rule;
}

/// Whether a call has the shape of one of the ticket's two: `{}` to a tool that requires names
/// (at the root or in anyOf/oneOf sets), or an unknown name that an expected field ends with
/// (`step_id`, `existing_step_id`).
fn scenario_shape(schema: &Value, arguments: &Value) -> bool {
    let Value::Object(map) = arguments else { return false };
    let expected = expected_fields(schema);
    let requires = schema.get("required").and_then(Value::as_array).is_some_and(|r| !r.is_empty())
        || schema.get("anyOf").is_some()
        || schema.get("oneOf").is_some();
    if map.is_empty() && requires {
        return true;
    }
    map.keys().any(|name| !expected.contains(name) && expected.iter().any(|f| f.ends_with(&format!("_{name}"))))
}
