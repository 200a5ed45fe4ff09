//! The readings the rule texts leave open, each a variant of the reference that takes one of them
//! and is otherwise the reference: what an implementation may do without breaking RT-TOOL-8 or
//! PLAT-162, so no required case may fail it.

use super::Variant;
use super::harness::{Defect, map_leaves, properties, rebuilt, reference_decode, reference_leaf};
use serde_json::{Map, Value, json};
use std::cell::Cell;
use tool_conformance::reference::validate::{Problem, Rejection, expected_fields};
use tool_conformance::{Level, Transport};

/// Every allowed reading of docs/interpretations.md.
pub fn all() -> Vec<Variant> {
    let variant = |name, reading, defect: Box<dyn Defect>| Variant { name, clauses: &[], reading, defect };
    // The catalog's defect that reads an additionalProperties schema as opening the root is a
    // reading the text leaves open: held to interpretation cases there, allowed here.
    let opens_root = super::catalog::all()
        .into_iter()
        .find(|entry| entry.name == "ignores-additional-properties-schema")
        .expect("the catalog has the ignores-additional-properties-schema defect");
    assert_eq!(opens_root.level, Level::Interpretation, "an additionalProperties schema opening the root is a reading");
    vec![
        variant(
            "additional-schema-opens-root",
            "a declared additionalProperties other than false opens the root; the values of extra names are not \
             validated, and \"root value types\" are the declared parameters' types",
            opens_root.defect,
        ),
        variant(
            "non-object-root-other-error",
            "a root that is not an object is outside the problem classes: rejected before the handler with an error \
             of its own (another problem, no expected fields, no get_api_spec, a count that changes every time)",
            Box::<NonObjectRootOtherError>::default(),
        ),
        variant(
            "error-as-data",
            "problems and expected_fields as data; one fixed message naming no field; \"see\": \"get_api_spec\" on every transport",
            Box::new(ErrorAsData),
        ),
        variant(
            "http-only-pointer",
            "only HTTP callers are pointed to get_api_spec; on direct and structured the error never mentions it",
            Box::new(HttpOnlyPointer),
        ),
        variant(
            "expected-fields-required-only",
            "expected_fields lists only the root required names",
            Box::new(ExpectedFieldsRequiredOnly),
        ),
        variant(
            "expected-fields-declared-only",
            "expected_fields lists only the declared root properties; a root closed by default admits only those",
            Box::new(ExpectedFieldsDeclaredOnly),
        ),
        variant(
            "arrival-order",
            "problems in the order their names arrived, then missing names in schema order",
            Box::new(ArrivalOrder),
        ),
        variant(
            "entities-first",
            "character references are decoded before JSON decoding looks at a string",
            Box::new(EntitiesFirst),
        ),
        variant(
            "nested-closed",
            "nested objects that declare no additionalProperties are closed too",
            Box::new(NestedClosed { one_step: false }),
        ),
        variant(
            "one-step-nested-closed",
            "nested objects closed too, and normalize refuses what then fails validation",
            Box::new(NestedClosed { one_step: true }),
        ),
        variant("null-root-as-empty", "a null argument root is read as no arguments, {}", Box::new(NullRootAsEmpty)),
        variant(
            "one-step-true-root-closed",
            "normalize refuses what fails validation, and the root schema true is closed by default",
            Box::new(OneStepTrueRootClosed),
        ),
        variant(
            "one-step-written-integers",
            "normalize refuses what fails validation, and a number written with a fraction or an exponent \
             (1.0, 1E+2) is no integer",
            Box::new(OneStepWrittenIntegers),
        ),
        variant(
            "rt-tool-8-only",
            "claims RT-TOOL-8 only and validates nothing: every invoke executes, normalized",
            Box::new(RtTool8Only),
        ),
    ]
}

/// The names a schema lists in its root `required`, in schema order, each once.
fn root_required(schema: &Value) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let listed = schema.get("required").and_then(Value::as_array).into_iter().flatten();
    for name in listed.filter_map(Value::as_str) {
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    names
}

// 1. The error's parts as data, the pointer to get_api_spec a member of its own.

/// The one message of every rejection.
const FIXED_MESSAGE: &str = "The call's arguments were rejected.";

struct ErrorAsData;
impl Defect for ErrorAsData {
    fn error(&self, _transport: Transport, _schema: &Value, _raw: &Value, rejection: Rejection) -> Value {
        let mut error = rejection.to_json();
        error["message"] = json!(FIXED_MESSAGE);
        error["see"] = json!("get_api_spec");
        error
    }
}

// 2. Only HTTP callers are pointed to get_api_spec.

/// The sentence of the reference's message that points to get_api_spec (its last).
const POINTER: &str = " Call get_api_spec for the tool's schema.";

struct HttpOnlyPointer;
impl Defect for HttpOnlyPointer {
    fn error(&self, transport: Transport, _schema: &Value, _raw: &Value, rejection: Rejection) -> Value {
        let mut error = rejection.to_json();
        if transport != Transport::Http {
            let message = rejection.message();
            let without = message.strip_suffix(POINTER).unwrap_or(&message).to_string();
            error["message"] = Value::String(without);
        }
        error
    }
}

// 3a and 3b. What "expected fields" lists.

struct ExpectedFieldsRequiredOnly;
impl Defect for ExpectedFieldsRequiredOnly {
    fn error(&self, _transport: Transport, schema: &Value, _raw: &Value, mut rejection: Rejection) -> Value {
        rejection.expected_fields = root_required(schema);
        rejection.expected_fields.sort();
        rejection.to_json()
    }
}

struct ExpectedFieldsDeclaredOnly;
impl Defect for ExpectedFieldsDeclaredOnly {
    /// Closed by default to the declared properties alone: with `additionalProperties: false`
    /// already in the copy, the reference's compile declares no required name for it. (An empty
    /// `properties` goes with it, so that the validator names each unknown field.)
    fn enforced_schema(&self, schema: &Value, _transport: Transport) -> Value {
        match schema {
            Value::Object(map) if !map.contains_key("additionalProperties") => {
                let mut closed = map.clone();
                closed.entry("properties").or_insert_with(|| json!({}));
                closed.insert("additionalProperties".into(), Value::Bool(false));
                Value::Object(closed)
            }
            other => other.clone(),
        }
    }

    fn error(&self, _transport: Transport, schema: &Value, _raw: &Value, mut rejection: Rejection) -> Value {
        rejection.expected_fields = properties(schema).keys().cloned().collect();
        rejection.expected_fields.sort();
        rejection.to_json()
    }
}

// 4. Problems in arrival order.

struct ArrivalOrder;
impl Defect for ArrivalOrder {
    fn error(&self, _transport: Transport, schema: &Value, raw: &Value, mut rejection: Rejection) -> Value {
        let arrived: Vec<&String> = raw.as_object().map(|map| map.keys().collect()).unwrap_or_default();
        let required = root_required(schema);
        let declared: Vec<String> = properties(schema).keys().cloned().collect();
        // Names as they arrived; then absent names as the schema lists them (required first,
        // then properties); problems about no field last. The sort is stable, so problems of one
        // name keep the reference's order, and the order depends only on the request.
        let rank = |problem: &Problem| -> (u8, usize) {
            let Some(field) = problem.field.as_deref() else {
                return (3, 0);
            };
            if let Some(at) = arrived.iter().position(|name| *name == field) {
                (0, at)
            } else if let Some(at) = required.iter().position(|name| name == field) {
                (1, at)
            } else {
                (2, declared.iter().position(|name| name == field).unwrap_or(usize::MAX))
            }
        };
        rejection.problems.sort_by_key(rank);
        rejection.to_json()
    }
}

// 5. Entity decoding first.

struct EntitiesFirst;
impl Defect for EntitiesFirst {
    /// References decoded on every leaf, then JSON decoding on the decoded text, then references
    /// decoded again on every leaf, so that strings the JSON held are decoded too (clause 4).
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        let unescaped = map_leaves(arguments.clone(), &reference_leaf);
        rebuilt(schema, &unescaped, &reference_decode, &reference_leaf)
    }
}

// 6a and 6b. Nested objects closed too.

struct NestedClosed {
    /// Whether normalize refuses what fails validation (6b).
    one_step: bool,
}
impl Defect for NestedClosed {
    fn enforced_schema(&self, schema: &Value, _transport: Transport) -> Value {
        // The root is closed by the reference's compile, as it closes every root.
        closed_nested(schema, false)
    }

    fn one_step(&self) -> bool {
        self.one_step
    }
}

/// Whether a schema describes an object value: it is typed object, or declares properties.
fn describes_object(map: &Map<String, Value>) -> bool {
    let typed = match map.get("type") {
        Some(Value::String(name)) => name == "object",
        Some(Value::Array(names)) => names.iter().any(|n| n == "object"),
        _ => false,
    };
    typed || map.contains_key("properties")
}

/// `schema` with every object schema below it closed the way the reference closes a root: when it
/// declares no `additionalProperties`, its expected fields (and the names its branches declare)
/// are declared and `additionalProperties` is `false`. `close` says whether `schema` itself sits
/// where a value is described (not the root, and not a branch of `allOf`, whose siblings may
/// declare the other names).
fn closed_nested(schema: &Value, close: bool) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let each = |value: &Value, close: bool| match value {
        Value::Array(items) => Value::Array(items.iter().map(|item| closed_nested(item, close)).collect()),
        other => closed_nested(other, close),
    };
    let each_value = |value: &Value| match value {
        Value::Object(named) => Value::Object(named.iter().map(|(k, v)| (k.clone(), closed_nested(v, true))).collect()),
        other => other.clone(),
    };
    let mut out = Map::with_capacity(map.len() + 1);
    for (keyword, value) in map {
        let value = match keyword.as_str() {
            "properties" | "patternProperties" | "$defs" | "definitions" => each_value(value),
            "additionalProperties" | "items" | "prefixItems" | "contains" | "unevaluatedItems" => each(value, true),
            "anyOf" | "oneOf" => each(value, close),
            "allOf" => each(value, false),
            _ => value.clone(),
        };
        out.insert(keyword.clone(), value);
    }
    if close && describes_object(map) && !map.contains_key("additionalProperties") {
        let mut known = expected_fields(schema);
        for keyword in ["anyOf", "oneOf", "allOf"] {
            for branch in map.get(keyword).and_then(Value::as_array).into_iter().flatten() {
                known.extend(properties(branch).keys().cloned());
            }
        }
        if let Value::Object(declared) = out.entry("properties").or_insert_with(|| json!({})) {
            for name in known {
                declared.entry(name).or_insert(Value::Bool(true));
            }
        }
        out.insert("additionalProperties".into(), Value::Bool(false));
    }
    Value::Object(out)
}

// 7. A null root is no arguments.

struct NullRootAsEmpty;
impl Defect for NullRootAsEmpty {
    /// Both the normalize command and the executor's normalization read null as `{}`.
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        let arguments = if arguments.is_null() { json!({}) } else { arguments.clone() };
        rebuilt(schema, &arguments, &reference_decode, &reference_leaf)
    }
}

// 8. One step, and the root schema true closed by default.

struct OneStepTrueRootClosed;
impl Defect for OneStepTrueRootClosed {
    /// Every other root without properties and additionalProperties (`{}`, `{"type":
    /// "object"}`) the reference already closes; `true` it leaves open.
    fn enforced_schema(&self, schema: &Value, _transport: Transport) -> Value {
        match schema {
            Value::Bool(true) => json!({ "properties": {}, "additionalProperties": false }),
            other => other.clone(),
        }
    }

    fn one_step(&self) -> bool {
        true
    }
}

// 8 with PLAT-162 "1.0 is an integer" read the other way: one step, and a number is an integer
// only when it is written as one.

struct OneStepWrittenIntegers;
impl Defect for OneStepWrittenIntegers {
    /// Each number written with a fraction or an exponent, where its schema asks for an integer
    /// and not a number, is shown to the validator as its text, which it rejects as a wrong type.
    fn validation_view(&self, schema: &Value, _raw: &Value, prepared: &Value) -> Value {
        written_integers(schema, prepared)
    }

    fn one_step(&self) -> bool {
        true
    }
}

fn written_integers(schema: &Value, value: &Value) -> Value {
    let integer_only = match schema.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer") && !ts.iter().any(|t| t == "number"),
        _ => false,
    };
    match value {
        Value::Number(n) if integer_only && n.to_string().contains(['.', 'e', 'E']) => Value::String(n.to_string()),
        Value::Array(items) => {
            let item = schema.get("items").unwrap_or(&Value::Null);
            Value::Array(items.iter().map(|v| written_integers(item, v)).collect())
        }
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| {
                    let described = schema
                        .get("properties")
                        .and_then(|p| p.get(k))
                        .or_else(|| schema.get("additionalProperties"))
                        .unwrap_or(&Value::Null);
                    (k.clone(), written_integers(described, v))
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

// 9. RT-TOOL-8 only.

struct RtTool8Only;
impl Defect for RtTool8Only {
    fn claims(&self, rules: Vec<String>) -> Vec<String> {
        rules.into_iter().filter(|rule| rule == "RT-TOOL-8").collect()
    }

    fn validates(&self, _transport: Transport, _prepared: &Value) -> bool {
        false
    }
}

// 10. A root that is not an object is outside the problem classes.

#[derive(Default)]
struct NonObjectRootOtherError {
    /// Rejections of a root that is not an object so far.
    count: Cell<u64>,
}
impl Defect for NonObjectRootOtherError {
    fn error(&self, transport: Transport, schema: &Value, raw: &Value, rejection: Rejection) -> Value {
        if raw.is_object() {
            return super::harness::NoDefect.error(transport, schema, raw, rejection);
        }
        self.count.set(self.count.get() + 1);
        json!({
            "message": format!("The arguments must be a JSON object (rejection {}).", self.count.get()),
            "problems": [{"kind": "not_an_object"}]
        })
    }
}
