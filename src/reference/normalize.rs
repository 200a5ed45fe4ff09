//! RT-TOOL-8, the whole rule: the arguments a tool receives, given its input schema and the
//! arguments a model sent.
//!
//! Two independent repairs, in this order:
//! 1. **JSON-string decoding** (8.2, 8.3), on root arguments only. A string argument is replaced
//!    by its JSON value only when the parameter's own schema declares array or object and not
//!    string, the string parses as JSON (RFC 8259, surrounding whitespace allowed), and the parsed
//!    value has a declared shape: a list for array, a map for object. Otherwise it stays exactly
//!    as sent. The declared types of a parameter are its `type` (one name or a list) together with
//!    the types of its `anyOf`/`oneOf` branches, after following local `$ref`s.
//! 2. **Character-reference decoding** (8.4, 8.5), on every string leaf of the result, at any
//!    depth, including strings that step 1 produced; never on keys.

use super::entities;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// How many `$ref`s in a row are followed before giving up (only `$ref`s can make a cycle).
const MAX_REF_HOPS: usize = 32;

/// The arguments that reach the tool.
///
/// The result is built in one pass over the arguments: each string leaf is copied once, already
/// decoded (a string with no reference in it is copied as it is), rather than copied and then
/// decoded.
pub fn normalize(input_schema: &Value, arguments: &Value) -> Value {
    match arguments {
        Value::Object(map) => {
            let mut normalized = Map::with_capacity(map.len());
            for (name, value) in map {
                normalized.insert(name.clone(), normalize_argument(input_schema, name, value));
            }
            Value::Object(normalized)
        }
        other => decoded_copy(other),
    }
}

/// Steps 1 and 2 for one root argument.
fn normalize_argument(root: &Value, name: &str, value: &Value) -> Value {
    match decode_json_argument(root, name, value) {
        Some(mut parsed) => {
            decode_string_leaves(&mut parsed);
            parsed
        }
        None => decoded_copy(value),
    }
}

/// Step 1 for one root argument: its JSON value, when it is a string to be decoded.
fn decode_json_argument(root: &Value, name: &str, value: &Value) -> Option<Value> {
    let Value::String(text) = value else {
        return None;
    };
    // Only text that could be an array or an object is worth the schema walk and the parse.
    if !matches!(text.trim_start_matches([' ', '\t', '\n', '\r']).as_bytes().first(), Some(b'[' | b'{')) {
        return None;
    }
    let parameter = root.get("properties").and_then(|p| p.get(name))?;
    let declared = declared_types(root, parameter);
    if declared.contains("string") {
        return None;
    }
    match crate::json::from_str::<Value>(text) {
        Ok(parsed @ Value::Array(_)) if declared.contains("array") => Some(parsed),
        Ok(parsed @ Value::Object(_)) if declared.contains("object") => Some(parsed),
        _ => None,
    }
}

/// The type names a parameter's schema declares: its `type`, and those of its `anyOf`/`oneOf`
/// branches, following local `$ref`s.
pub fn declared_types(root: &Value, schema: &Value) -> BTreeSet<String> {
    let mut types = BTreeSet::new();
    collect_types(root, schema, &mut types, 0);
    types
}

fn collect_types(root: &Value, schema: &Value, types: &mut BTreeSet<String>, depth: usize) {
    if depth > MAX_REF_HOPS {
        return;
    }
    match schema.get("type") {
        Some(Value::String(name)) => {
            types.insert(name.clone());
        }
        Some(Value::Array(names)) => types.extend(names.iter().filter_map(Value::as_str).map(String::from)),
        _ => {}
    }
    for keyword in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = schema.get(keyword) {
            for branch in branches {
                collect_types(root, branch, types, depth);
            }
        }
    }
    if let Some(target) = schema.get("$ref").and_then(Value::as_str).and_then(|r| local_ref(root, r)) {
        collect_types(root, target, types, depth + 1);
    }
}

/// The schema a local `$ref` (`#` or `#/json/pointer`) names within the root schema.
fn local_ref<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    root.pointer(reference.strip_prefix('#')?)
}

/// Step 2 on a copy: `value` with every string leaf decoded, keys as they are.
fn decoded_copy(value: &Value) -> Value {
    match value {
        Value::String(text) => Value::String(entities::decode(text).into_owned()),
        Value::Array(items) => Value::Array(items.iter().map(decoded_copy).collect()),
        Value::Object(map) => {
            let mut copy = Map::with_capacity(map.len());
            for (key, item) in map {
                copy.insert(key.clone(), decoded_copy(item));
            }
            Value::Object(copy)
        }
        other => other.clone(),
    }
}

/// Step 2 in place, on a value step 1 produced: every string leaf decoded, keys as they are.
fn decode_string_leaves(value: &mut Value) {
    match value {
        Value::String(text) => {
            if let std::borrow::Cow::Owned(decoded) = entities::decode(text) {
                *text = decoded;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(decode_string_leaves),
        Value::Object(map) => map.values_mut().for_each(decode_string_leaves),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "$defs": { "list": { "type": ["array", "null"] } },
            "properties": {
                "ops": { "type": "array" },
                "meta": { "type": "object" },
                "title": { "type": "string" },
                "either": { "type": ["array", "string"] },
                "refd": { "$ref": "#/$defs/list" },
                "branches": { "anyOf": [{ "type": "object" }, { "type": "null" }] }
            }
        })
    }

    #[test]
    fn the_rule_text_examples() {
        assert_eq!(normalize(&schema(), &json!({"title": "Ember &amp;amp; Oak"})), json!({"title": "Ember & Oak"}));
        assert_eq!(normalize(&schema(), &json!({"ops": "{\"op\":\"add\"}"})), json!({"ops": "{\"op\":\"add\"}"}));
    }

    #[test]
    fn decodes_only_declared_shapes() {
        let s = schema();
        assert_eq!(normalize(&s, &json!({"ops": " [1, 2] "})), json!({"ops": [1, 2]}));
        assert_eq!(normalize(&s, &json!({"meta": "{\"a\":1}"})), json!({"meta": {"a": 1}}));
        assert_eq!(normalize(&s, &json!({"meta": "[1]"})), json!({"meta": "[1]"}));
        assert_eq!(normalize(&s, &json!({"title": "[1]"})), json!({"title": "[1]"}));
        assert_eq!(normalize(&s, &json!({"either": "[1]"})), json!({"either": "[1]"}));
        assert_eq!(normalize(&s, &json!({"refd": "[1]"})), json!({"refd": [1]}));
        assert_eq!(normalize(&s, &json!({"branches": "{}"})), json!({"branches": {}}));
        assert_eq!(normalize(&s, &json!({"undeclared": "[1]"})), json!({"undeclared": "[1]"}));
        assert_eq!(normalize(&s, &json!({"ops": "[1,]"})), json!({"ops": "[1,]"}));
        assert_eq!(normalize(&s, &json!({"ops": "null"})), json!({"ops": "null"}));
    }

    #[test]
    fn entities_after_json_and_never_in_keys() {
        let s = schema();
        assert_eq!(normalize(&s, &json!({"ops": "[&quot;a&quot;]"})), json!({"ops": "[\"a\"]"}));
        assert_eq!(normalize(&s, &json!({"ops": "[\"&amp;amp;\"]"})), json!({"ops": ["&"]}));
        assert_eq!(normalize(&s, &json!({"meta": {"k&amp;": ["&lt;"]}})), json!({"meta": {"k&amp;": ["<"]}}));
    }
}
