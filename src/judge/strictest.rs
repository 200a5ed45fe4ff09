//! The strictest reading of PLAT-162's validation: whether arguments pass under every reading the
//! rule text allows. The harness judges a refused normalize by it, the corpus lints what a
//! required case expects a handler to receive by it, and the fuzzer settles what the reference
//! executes by it, so that none of them settles a point the text leaves open.

use serde_json::Value;

/// Whether `arguments` pass PLAT-162's validation against `schema` under every reading the rule
/// text allows, judged by the strictest of them: the root closed to its declared properties
/// (a name the schema only requires, or that only `patternProperties` admits, is unknown; the
/// root schema `true` is closed too) unless it declares additionalProperties; every nested
/// object closed unless it declares additionalProperties; every keyword of the schema enforced
/// at every depth, `format` and `oneOf` included; `1.0` not an integer; and a minimum length
/// counted in whatever unit gives the fewest (so a non-ASCII string under `minLength` is not
/// vouched for). A schema that does not compile lets nothing pass. The harness judges a refused
/// normalize with this, so that it settles no point the text leaves open.
pub fn passes_validation(schema: &Value, arguments: &Value) -> bool {
    matches!(strictest_error(schema, arguments), Ok(None))
}

/// Whether the arguments a runtime hands its tool after normalizing `sent`, `expected` by value,
/// pass validation under the strictest reading ([`passes_validation`]) however the runtime holds
/// their numbers: as the expectation writes them, or as they were written where `sent` (JSON
/// text in its strings included) has a number of the same value. A runtime may keep a number as
/// it arrived, and read `1E+2` as no integer; the judge of a refused normalize reads the arguments
/// as sent with this, so that such a runtime's refusal is never taken for a failure.
pub fn passes_validation_as_sent(schema: &Value, expected: &Value, sent: &Value) -> bool {
    let mut written = Vec::new();
    sent_numbers(sent, &mut written);
    passes_validation(schema, expected) && passes_validation(schema, &numbers_as_sent(expected, &written))
}

/// Every number in `value` written with a fraction or an exponent, those inside JSON text its
/// strings hold included.
fn sent_numbers(value: &Value, out: &mut Vec<serde_json::Number>) {
    match value {
        Value::Number(n) if written_with_fraction(n) => out.push(n.clone()),
        Value::String(text) => {
            if let Ok(parsed @ (Value::Array(_) | Value::Object(_))) = crate::json::from_str::<Value>(text) {
                sent_numbers(&parsed, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| sent_numbers(v, out)),
        Value::Object(members) => members.values().for_each(|v| sent_numbers(v, out)),
        _ => {}
    }
}

/// `value` with each number written as an equal number of `written` is, when one is.
fn numbers_as_sent(value: &Value, written: &[serde_json::Number]) -> Value {
    match value {
        Value::Number(n) => match written.iter().find(|w| crate::json::compare::numbers_equal(w, n)) {
            Some(w) => Value::Number(w.clone()),
            None => value.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(|v| numbers_as_sent(v, written)).collect()),
        Value::Object(members) => {
            Value::Object(members.iter().map(|(k, v)| (k.clone(), numbers_as_sent(v, written))).collect())
        }
        other => other.clone(),
    }
}

/// The first error of `arguments` against `schema` under the strictest reading
/// ([`passes_validation`]).
pub(crate) fn strictest_error(schema: &Value, arguments: &Value) -> Result<Option<String>, String> {
    let Value::Object(given) = arguments else {
        return Ok(Some("the arguments are not an object".into()));
    };
    if schema.get("additionalProperties").is_none() {
        let declared = schema.get("properties").and_then(Value::as_object);
        if let Some(name) = given.keys().find(|name| !declared.is_some_and(|d| d.contains_key(*name))) {
            return Ok(Some(format!("{name:?} is not a declared property of a root closed by default")));
        }
    }
    let integer_only = |s: &Value| match s.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer") && !ts.iter().any(|t| t == "number"),
        _ => false,
    };
    if any_pair(schema, arguments, &|s, v| integer_only(s) && v.as_number().is_some_and(written_with_fraction)) {
        return Ok(Some("a number written with a fraction or exponent, where the schema asks for an integer".into()));
    }
    if any_pair(schema, arguments, &|s, v| s.get("minLength").is_some() && v.as_str().is_some_and(|t| !t.is_ascii())) {
        return Ok(Some("a non-ASCII string, where the schema counts a minimum length".into()));
    }
    first_error(&close_nested(schema.clone(), false), arguments, true)
}

/// The first error of `arguments` against `schema` (draft 2020-12, formats asserted when
/// `formats`), as `what at /pointer`; `Err` when the schema does not compile.
///
/// The validator is built by `jsonschema::draft202012::new`, not by the generic options builder:
/// the builder is generic over the JSON representation, so calling it would compile the whole of
/// jsonschema's schema compiler a second time, into this crate (about a third of its release
/// build). `format` is asserted the way the specification provides for, by a dialect that
/// declares the format-assertion vocabulary ([`with_format_assertion`]).
pub(crate) fn first_error(schema: &Value, arguments: &Value, formats: bool) -> Result<Option<String>, String> {
    let schema = crate::json::to_serde(schema);
    let schema = if formats { with_format_assertion(schema) } else { schema };
    let validator =
        jsonschema::draft202012::new(&schema).map_err(|e| format!("input_schema is not a usable JSON Schema: {e}"))?;
    let instance = crate::json::to_serde(arguments);
    Ok(validator.iter_errors(&instance).next().map(|error| {
        let at = error.instance_path().as_str();
        format!("{error} at {}", if at.is_empty() { "/" } else { at })
    }))
}

/// The URI of [`with_format_assertion`]'s dialect.
const FORMAT_ASSERTION_DIALECT: &str = "urn:tool-conformance:draft-2020-12-format-assertion";

/// `schema` under draft 2020-12 with `format` an assertion: its `$schema` set to a dialect whose
/// meta-schema declares the 2020-12 vocabularies with format-assertion in place of
/// format-annotation and refers to the 2020-12 meta-schema (so the schema itself is still checked
/// against it). The meta-schema travels in the schema, as an embedded resource under `$defs` (a
/// name the schema does not use), since nothing is fetched. A schema that is not an object, or
/// whose `$defs` is not one, is returned as it is: the first has no `format` to assert, the
/// second does not compile either way.
fn with_format_assertion(schema: serde_json_std::Value) -> serde_json_std::Value {
    let serde_json_std::Value::Object(mut root) = schema else { return schema };
    let defs = root.entry("$defs").or_insert_with(|| serde_json_std::Value::Object(Default::default()));
    let serde_json_std::Value::Object(defs) = defs else { return serde_json_std::Value::Object(root) };
    let name = (0..)
        .map(|n| if n == 0 { "format-assertion-dialect".to_string() } else { format!("format-assertion-dialect-{n}") })
        .find(|name| !defs.contains_key(name))
        .expect("a free name");
    let vocabulary =
        |v: &str| (format!("https://json-schema.org/draft/2020-12/vocab/{v}"), serde_json_std::Value::Bool(true));
    let vocabularies = ["core", "applicator", "unevaluated", "validation", "meta-data", "format-assertion", "content"];
    defs.insert(
        name,
        serde_json_std::json!({
            "$id": FORMAT_ASSERTION_DIALECT,
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$vocabulary": vocabularies.map(vocabulary).into_iter().collect::<serde_json_std::Map<_, _>>(),
            "$dynamicAnchor": "meta",
            "allOf": [{"$ref": "https://json-schema.org/draft/2020-12/schema"}],
        }),
    );
    root.insert("$schema".into(), FORMAT_ASSERTION_DIALECT.into());
    serde_json_std::Value::Object(root)
}

/// `schema` with every object schema below the root that describes a value (under
/// `properties`, `items`, `prefixItems`, `additionalProperties`, `patternProperties`, `$defs`,
/// `definitions`, and the anyOf/oneOf branches of those) closed with `additionalProperties:
/// false` unless it declares additionalProperties or unevaluatedProperties. allOf branches are
/// left open, since closing one would refuse the names another declares.
fn close_nested(mut schema: Value, close_here: bool) -> Value {
    let Value::Object(map) = &mut schema else { return schema };
    let describes_object = map.contains_key("properties")
        || match map.get("type") {
            Some(Value::String(t)) => t == "object",
            Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
            _ => false,
        };
    if close_here
        && describes_object
        && !map.contains_key("additionalProperties")
        && !map.contains_key("unevaluatedProperties")
    {
        map.insert("additionalProperties".into(), Value::Bool(false));
    }
    for (key, value) in map.iter_mut() {
        let taken = std::mem::take(value);
        *value = match key.as_str() {
            "properties" | "patternProperties" | "$defs" | "definitions" => match taken {
                Value::Object(members) => {
                    Value::Object(members.into_iter().map(|(k, v)| (k, close_nested(v, true))).collect())
                }
                other => other,
            },
            "items" | "additionalProperties" => close_nested(taken, true),
            "prefixItems" => match taken {
                Value::Array(items) => Value::Array(items.into_iter().map(|v| close_nested(v, true)).collect()),
                other => other,
            },
            "anyOf" | "oneOf" => match taken {
                Value::Array(items) => Value::Array(items.into_iter().map(|v| close_nested(v, close_here)).collect()),
                other => other,
            },
            _ => taken,
        };
    }
    schema
}

/// Whether `test` holds for some value inside `value` (itself included) and the schema that
/// describes it, followed through `properties`, `additionalProperties`, `items` and the
/// anyOf/oneOf/allOf branches.
fn any_pair(schema: &Value, value: &Value, test: &dyn Fn(&Value, &Value) -> bool) -> bool {
    if test(schema, value) {
        return true;
    }
    let branches = ["anyOf", "oneOf", "allOf"].into_iter().filter_map(|k| schema.get(k)?.as_array()).flatten();
    if branches.into_iter().any(|branch| any_pair(branch, value, test)) {
        return true;
    }
    match value {
        Value::Object(members) => members.iter().any(|(name, member)| {
            let described =
                schema.get("properties").and_then(|p| p.get(name)).or_else(|| schema.get("additionalProperties"));
            described.is_some_and(|s| any_pair(s, member, test))
        }),
        Value::Array(items) => schema.get("items").is_some_and(|s| items.iter().any(|item| any_pair(s, item, test))),
        _ => false,
    }
}

/// Whether a number is written with a fraction or an exponent (`1.0`, `1e2`).
fn written_with_fraction(number: &serde_json::Number) -> bool {
    number.to_string().contains(['.', 'e', 'E'])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_strictest_reading_vouches_only_for_what_every_reading_accepts() {
        let schema = json!({"type": "object", "properties": {"ids": {"type": "array"}, "filter": {"type": "object"}}});
        assert!(passes_validation(&schema, &json!({"ids": [1], "filter": {}})));
        assert!(!passes_validation(&schema, &json!({"ids": 5, "filter": 3.5})), "a wrong type");
        assert!(!passes_validation(&schema, &json!({"ids": [1], "other": 1})), "a name the root does not declare");
        assert!(!passes_validation(&schema, &json!({"filter": {"a": 1}})), "a name inside a nested object");
        assert!(!passes_validation(&json!(true), &json!({"a": 1})), "the root schema true is closed too");
        assert!(passes_validation(&json!(true), &json!({})));
        let open =
            json!({"type": "object", "properties": {"filter": {"type": "object", "additionalProperties": true}}});
        assert!(passes_validation(&open, &json!({"filter": {"a": 1}})));
        let undeclared = json!({"type": "object", "properties": {"a": {}}, "required": ["a", "b"]});
        assert!(!passes_validation(&undeclared, &json!({"a": 1, "b": 2})), "a required name not declared");
        let integer = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        assert!(passes_validation(&integer, &json!({"n": 1})));
        let whole_float: serde_json::Value = crate::json::from_str(r#"{"n": 1.0}"#).unwrap();
        assert!(!passes_validation(&integer, &whole_float), "1.0 is an integer only under a reading");
        let short = json!({"type": "object", "properties": {"s": {"type": "string", "minLength": 2}}});
        assert!(passes_validation(&short, &json!({"s": "ab"})));
        assert!(!passes_validation(&short, &json!({"s": "é"})), "a non-ASCII length depends on the unit");
    }

    #[test]
    fn format_is_asserted_by_the_strictest_reading_alone() {
        let schema = json!({"type": "object", "properties": {"to": {"type": "string", "format": "email"}}});
        assert!(passes_validation(&schema, &json!({"to": "kim@example.org"})));
        assert!(!passes_validation(&schema, &json!({"to": "not an address"})), "format is enforced");
        let nested = json!({"type": "object", "properties": {"at": {"type": "array", "items": {"format": "date"}}}});
        assert!(passes_validation(&nested, &json!({"at": ["2026-12-04"]})));
        assert!(!passes_validation(&nested, &json!({"at": ["2026-13-44"]})), "at every depth");
        // Without formats (the corpus's lint), format stays an annotation, as draft 2020-12 has it.
        assert_eq!(first_error(&schema, &json!({"to": "not an address"}), false), Ok(None));
        assert!(first_error(&schema, &json!({"to": "not an address"}), true).unwrap().is_some());
    }

    #[test]
    fn the_format_assertion_dialect_leaves_the_schema_as_written() {
        // $defs of the schema's own, $ref into them, and a $schema of its own (replaced: the
        // reading is draft 2020-12 whatever the schema names).
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {"n": {"$ref": "#/$defs/count"}, "to": {"format": "email"}},
            "$defs": {"count": {"type": "integer", "minimum": 1}, "format-assertion-dialect": {"type": "string"}},
        });
        assert_eq!(first_error(&schema, &json!({"n": 2, "to": "kim@example.org"}), true), Ok(None));
        assert!(first_error(&schema, &json!({"n": 0}), true).unwrap().is_some(), "the $ref still resolves");
        assert!(first_error(&schema, &json!({"to": "nobody"}), true).unwrap().is_some());
        // A schema that does not compile still does not, with formats or without.
        let broken = json!({"type": "object", "properties": {"s": {"minLength": "two"}}});
        assert!(first_error(&broken, &json!({}), true).is_err());
        assert!(first_error(&broken, &json!({}), false).is_err());
        assert!(first_error(&json!({"$defs": 5}), &json!({}), true).is_err());
        assert!(
            !passes_validation(&json!({"type": 5}), &json!({})),
            "a schema that does not compile lets nothing pass"
        );
        assert_eq!(first_error(&json!(true), &json!({"a": 1}), true), Ok(None));
    }
}
