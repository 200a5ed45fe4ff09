//! The contract a schema states, for comparing a published schema with the registered one.
//!
//! PLAT-162 asks every view to use "one registered schema". Whether that means the document as
//! registered, or the contract it states, the text does not say. Required describe cases hold a
//! view to the contract, which both readings demand; interpretation cases hold it to the document
//! (docs/interpretations.md). Two schemas state the same contract when they are equal once each
//! is reduced by [`contract`]:
//!
//! - annotations are dropped wherever a schema stands (`title`, `description`, `$comment`,
//!   `examples`, `default`, `deprecated`, `readOnly`, `writeOnly`, and `x-` extensions): they
//!   accept or refuse nothing;
//! - the schema `true` is written `{}`;
//! - a `type` beside an `enum` that every member already satisfies is dropped: the enum says it;
//! - at the root, what PLAT-162 implies is made explicit: an object root (`type: object`), a
//!   `properties` map that declares every expected field (a name only required is declared `{}`),
//!   and a closed root (`additionalProperties: false`) unless the schema declares
//!   `additionalProperties` itself.
//!
//! Everything else, `$ref` and `$defs` included, is compared as it is.

use crate::case::{closed_root, derived_expected_fields};
use serde_json::{Map, Value};

/// Annotation keywords: they describe, and never change what a schema accepts.
const ANNOTATIONS: [&str; 8] =
    ["title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly"];

/// Keywords whose value is a map of names to schemas.
const SCHEMA_MAPS: [&str; 5] = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/// Keywords whose value is a schema.
const SCHEMAS: [&str; 11] = [
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];

/// Keywords whose value is an array of schemas.
const SCHEMA_LISTS: [&str; 4] = ["anyOf", "allOf", "oneOf", "prefixItems"];

/// The contract a root input schema states, under PLAT-162.
pub fn contract(schema: &Value) -> Value {
    let mut reduced = subschema(&closed_root(schema));
    if let Value::Object(root) = &mut reduced {
        root.entry("type").or_insert_with(|| Value::String("object".into()));
        // An open root too declares its expected fields, in a `properties` map.
        if let Value::Object(properties) = root.entry("properties").or_insert_with(|| Value::Object(Map::new())) {
            for name in derived_expected_fields(schema) {
                properties.entry(name).or_insert_with(|| Value::Object(Map::new()));
            }
        }
    }
    reduced
}

/// A schema without its annotations, `true` written `{}`.
fn subschema(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return match schema {
            Value::Bool(true) => Value::Object(Map::new()),
            other => other.clone(),
        };
    };
    let mut out = Map::new();
    for (key, value) in map {
        if ANNOTATIONS.contains(&key.as_str()) || key.starts_with("x-") {
            continue;
        }
        let value = match value {
            Value::Object(members) if SCHEMA_MAPS.contains(&key.as_str()) => {
                Value::Object(members.iter().map(|(name, s)| (name.clone(), subschema(s))).collect())
            }
            Value::Array(items) if SCHEMA_LISTS.contains(&key.as_str()) => {
                Value::Array(items.iter().map(subschema).collect())
            }
            Value::Array(items) if key == "items" => Value::Array(items.iter().map(subschema).collect()),
            value if SCHEMAS.contains(&key.as_str()) => subschema(value),
            value => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    if let (Some(Value::Array(members)), Some(declared)) = (out.get("enum"), out.get("type")) {
        if members.iter().all(|member| admits(declared, member)) {
            out.remove("type");
        }
    }
    Value::Object(out)
}

/// Whether a `type` keyword (a name or a list of names) admits a value.
fn admits(declared: &Value, value: &Value) -> bool {
    let names: Vec<&str> = match declared {
        Value::String(name) => vec![name],
        Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
        _ => return false,
    };
    let whole = |n: &serde_json::Number| n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0);
    names.iter().any(|name| match (*name, value) {
        ("null", Value::Null) | ("boolean", Value::Bool(_)) | ("string", Value::String(_)) => true,
        ("number", Value::Number(_)) | ("array", Value::Array(_)) | ("object", Value::Object(_)) => true,
        ("integer", Value::Number(n)) => whole(n),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::compare::same;
    use serde_json::json;

    #[test]
    fn annotations_and_the_implied_root_make_no_difference() {
        let registered = json!({
            "properties": {"title": {"type": "string", "title": "Title"}, "n": {"type": "integer", "default": 1}},
            "required": ["title", "confirm"],
            "x-owner": "team"
        });
        let published = json!({
            "type": "object", "title": "toolArguments",
            "properties": {"title": {"type": "string"}, "n": {"type": "integer", "description": "N"}, "confirm": true},
            "required": ["title", "confirm"],
            "additionalProperties": false
        });
        assert!(same(&contract(&registered), &contract(&published)));
        // A property named like an annotation is kept: only keywords are dropped.
        assert!(contract(&registered)["properties"].get("title").is_some());
    }

    #[test]
    fn what_changes_acceptance_still_differs() {
        let registered = json!({"type": "object", "properties": {"id": {"type": "string", "pattern": "^a"}}});
        let nullable = json!({"type": "object", "properties": {"id": {"anyOf": [{"type": "string", "pattern": "^a"}, {"type": "null"}]}}});
        let unconstrained = json!({"type": "object", "properties": {"id": {"type": "string"}}});
        let opened = json!({"type": "object", "properties": {"id": {"type": "string", "pattern": "^a"}}, "additionalProperties": true});
        for published in [nullable, unconstrained, opened] {
            assert!(!same(&contract(&registered), &contract(&published)), "{published}");
        }
        // A type the enum already implies says nothing more; one it does not is a difference.
        let enumerated = json!({"properties": {"f": {"enum": ["pdf", "csv"]}, "n": {"enum": [1, 2.0]}}});
        let typed = json!({"properties": {"f": {"enum": ["pdf", "csv"], "type": "string"}, "n": {"enum": [1, 2.0], "type": "integer"}}});
        assert!(same(&contract(&enumerated), &contract(&typed)));
        let narrowed = json!({"properties": {"n": {"enum": [1, "x"], "type": "integer"}}});
        assert!(!same(&contract(&json!({"properties": {"n": {"enum": [1, "x"]}}})), &contract(&narrowed)));
        // Enum values and const are data, never schemas: an enum member named "title" stays.
        let enumerated = json!({"properties": {"k": {"enum": ["title", "x-y"]}}});
        assert_eq!(contract(&enumerated)["properties"]["k"]["enum"], json!(["title", "x-y"]));
    }
}
