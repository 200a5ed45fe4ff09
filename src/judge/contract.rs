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
//!   accept or refuse nothing; so are the identity keywords `$id` and `$anchor`;
//! - a `$schema` is dropped wherever the dialect it names reads the schema beneath it as draft
//!   2020-12 (the suite's reading) does: always for draft 2020-12 itself, and for draft 2019-09,
//!   draft-07, draft-06 and draft-04 unless the schema uses a keyword those read otherwise (a
//!   `$ref` with siblings, an array-form `items`, `prefixItems`, `dependentRequired`, …, see
//!   [`reads_as_2020_12`]); where it does not, or the dialect is not one of these, the `$schema`
//!   stays and is a difference;
//! - `required`, `enum` and `type` are sets: their order and repeats make no difference, an empty
//!   `required` is no `required`, and a `type` list of one name is that name;
//! - an empty `properties`, `patternProperties`, `$defs`, `definitions` or `dependentSchemas` is
//!   none: it constrains nothing;
//! - the schema `true` is written `{}`;
//! - a `type` beside an `enum` that every member already satisfies is dropped: the enum says it;
//! - at the root, what PLAT-162 implies is made explicit: an object root (`type: object`), a
//!   `properties` map that declares every expected field (a name only required is declared `{}`),
//!   and a closed root (`additionalProperties: false`) unless the schema declares
//!   `additionalProperties` itself.
//!
//! - a `$ref` into the root's `$defs` or `definitions` (with no sibling but annotations) is
//!   replaced by the schema it names, and those maps dropped, when every `$ref` can be (no cycle):
//!   a nested object moved into `$defs` accepts what it accepted in place.
//!
//! Everything else, other `$ref`s and their `$defs` included, is compared as it is.

use crate::case::{closed_root, derived_expected_fields};
use crate::json::compare::same;
use serde_json::{Map, Value};

/// Annotation and identity keywords: they describe or name, and never change what a schema
/// accepts.
const ANNOTATIONS: [&str; 10] = [
    "title",
    "description",
    "$comment",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$id",
    "$anchor",
];

/// Keywords whose value is a set: order and repeats make no difference.
const SETS: [&str; 3] = ["required", "enum", "type"];

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
    contract_spelled(schema, false)
}

/// [`contract`], with each subschema `true` kept as written (`keep_true`) rather than written `{}`:
/// the same contract, spelled as registered, for a reader.
pub(crate) fn contract_spelled(schema: &Value, keep_true: bool) -> Value {
    let mut reduced = subschema(&closed_root(&inlined(schema)), keep_true);
    if let Value::Object(root) = &mut reduced {
        // The root's dialect reads the schema as written, before PLAT-162's closing.
        match schema.get("$schema") {
            Some(uri) if !uri.as_str().and_then(dialect).is_some_and(|d| reads_as_2020_12(d, schema)) => {
                root.insert("$schema".into(), uri.clone());
            }
            _ => {
                root.remove("$schema");
            }
        }
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

/// `schema` with every local `$ref` into its root `$defs` or `definitions` replaced by the schema
/// it names, and those maps dropped: a nested object published as `{"$ref": "#/$defs/window"}`
/// accepts what the same object written in place accepts. Only a `$ref` whose siblings are all
/// annotations is replaced (it reads the same in every dialect); when any `$ref` is left (a
/// cycle, a `$ref` with siblings, one that points elsewhere), the schema is kept as it is.
fn inlined(schema: &Value) -> Value {
    let Value::Object(root) = schema else {
        return schema.clone();
    };
    if !root.contains_key("$defs") && !root.contains_key("definitions") {
        return schema.clone();
    }
    let mut body = root.clone();
    body.remove("$defs");
    body.remove("definitions");
    let mut trail = Vec::new();
    match inline(&Value::Object(body), root, &mut trail) {
        Some(done) => done,
        None => schema.clone(),
    }
}

/// `value` with its `$ref`s replaced from `root`'s `$defs` and `definitions`, or `None` when one
/// cannot be (`trail` holds the references being replaced, to stop at a cycle).
fn inline(value: &Value, root: &Map<String, Value>, trail: &mut Vec<String>) -> Option<Value> {
    match value {
        Value::Object(map) => {
            if let Some(reference) = map.get("$ref") {
                let reference = reference.as_str()?;
                let bare = map.keys().all(|k| k == "$ref" || ANNOTATIONS.contains(&k.as_str()) || k.starts_with("x-"));
                if !bare || trail.iter().any(|r| r == reference) {
                    return None;
                }
                let target = ["$defs", "definitions"].iter().find_map(|keyword| {
                    let name = reference.strip_prefix("#/")?.strip_prefix(keyword)?.strip_prefix('/')?;
                    (!name.contains(['/', '~', '%'])).then(|| root.get(*keyword)?.get(name)).flatten()
                })?;
                trail.push(reference.to_string());
                let done = inline(target, root, trail);
                trail.pop();
                return done;
            }
            let mut out = Map::new();
            for (key, member) in map {
                // Values that are data, not schemas, are kept as they are.
                let kept = match member {
                    _ if matches!(key.as_str(), "enum" | "const" | "default" | "examples") => member.clone(),
                    // A map of names to schemas: a name `$ref` there is a name, not a reference.
                    Value::Object(members) if SCHEMA_MAPS.contains(&key.as_str()) => Value::Object(
                        members
                            .iter()
                            .map(|(name, s)| Some((name.clone(), inline(s, root, trail)?)))
                            .collect::<Option<Map<String, Value>>>()?,
                    ),
                    _ => inline(member, root, trail)?,
                };
                out.insert(key.clone(), kept);
            }
            Some(Value::Object(out))
        }
        Value::Array(items) => {
            items.iter().map(|item| inline(item, root, trail)).collect::<Option<Vec<_>>>().map(Value::Array)
        }
        other => Some(other.clone()),
    }
}

/// A schema without its annotations, `true` written `{}` unless `keep_true`.
fn subschema(schema: &Value, keep_true: bool) -> Value {
    let Value::Object(map) = schema else {
        return match schema {
            Value::Bool(true) if !keep_true => Value::Object(Map::new()),
            other => other.clone(),
        };
    };
    let mut out = Map::new();
    for (key, value) in map {
        if ANNOTATIONS.contains(&key.as_str()) || key.starts_with("x-") {
            continue;
        }
        if key == "$schema" && value.as_str().and_then(dialect).is_some_and(|d| reads_as_2020_12(d, schema)) {
            continue;
        }
        if key == "required" && value.as_array().is_some_and(Vec::is_empty) {
            continue;
        }
        // An empty map of names to schemas constrains nothing (the root's `properties` is made
        // explicit again by [`contract`]).
        if SCHEMA_MAPS.contains(&key.as_str()) && value.as_object().is_some_and(Map::is_empty) {
            continue;
        }
        let value = match value {
            Value::Object(members) if SCHEMA_MAPS.contains(&key.as_str()) => {
                Value::Object(members.iter().map(|(name, s)| (name.clone(), subschema(s, keep_true))).collect())
            }
            Value::Array(items) if SCHEMA_LISTS.contains(&key.as_str()) => {
                Value::Array(items.iter().map(|s| subschema(s, keep_true)).collect())
            }
            Value::Array(items) if key == "items" => {
                Value::Array(items.iter().map(|s| subschema(s, keep_true)).collect())
            }
            value if SCHEMAS.contains(&key.as_str()) => subschema(value, keep_true),
            Value::Array(members) if SETS.contains(&key.as_str()) => set(members, key == "type"),
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

/// The members of a set keyword, each once, in one order; for `type` (`named`), a single name
/// written alone, as `"string"` says what `["string"]` does.
fn set(members: &[Value], named: bool) -> Value {
    let mut unique: Vec<Value> = Vec::new();
    for member in members {
        if !unique.iter().any(|kept| same(kept, member)) {
            unique.push(member.clone());
        }
    }
    unique.sort_by_cached_key(canonical);
    match <[Value; 1]>::try_from(unique) {
        Ok([Value::String(name)]) if named => Value::String(name),
        Ok([other]) => Value::Array(vec![other]),
        Err(unique) => Value::Array(unique),
    }
}

/// A text that orders values the same whatever their key order or the digits a number was
/// written with: objects with sorted keys, numbers by their value where it is a finite float.
fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let members: Vec<String> = keys.iter().map(|k| format!("{k:?}:{}", canonical(&map[k.as_str()]))).collect();
            format!("{{{}}}", members.join(","))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(canonical).collect::<Vec<_>>().join(",")),
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.is_finite() => format!("{f:e}"),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// A JSON Schema dialect a `$schema` may name, other than draft 2020-12's own reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Dialect {
    Draft4,
    Draft6,
    Draft7,
    Draft2019,
    Draft2020,
}

/// The dialect a `$schema` URI names, if it is one of the published meta-schemas (with `http` or
/// `https`, with or without an empty fragment).
fn dialect(uri: &str) -> Option<Dialect> {
    let uri = uri.trim_end_matches('#');
    let uri = uri.strip_prefix("https://").or_else(|| uri.strip_prefix("http://"))?;
    match uri {
        "json-schema.org/draft/2020-12/schema" => Some(Dialect::Draft2020),
        "json-schema.org/draft/2019-09/schema" => Some(Dialect::Draft2019),
        "json-schema.org/draft-07/schema" => Some(Dialect::Draft7),
        "json-schema.org/draft-06/schema" => Some(Dialect::Draft6),
        "json-schema.org/draft-04/schema" => Some(Dialect::Draft4),
        _ => None,
    }
}

/// Keywords of draft 2020-12 that no earlier dialect knows, and those draft 2020-12 no longer
/// knows: either way, one reading applies them and the other ignores them.
const NEW_IN_2020_12: [&str; 3] = ["prefixItems", "$dynamicRef", "$dynamicAnchor"];
const GONE_IN_2020_12: [&str; 3] = ["additionalItems", "$recursiveRef", "$recursiveAnchor"];
/// Keywords that came with draft 2019-09.
const NEW_IN_2019_09: [&str; 6] = [
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minContains",
    "maxContains",
];
/// Keywords draft 2019-09 dropped, and those draft-07 and draft-06 added.
const GONE_IN_2019_09: [&str; 1] = ["dependencies"];
const NEW_IN_07: [&str; 3] = ["if", "then", "else"];
/// Keywords draft-06 added or changed (`exclusiveMinimum` and `exclusiveMaximum` were booleans),
/// and draft-04's identity keyword.
const NEW_IN_06: [&str; 6] = ["const", "contains", "propertyNames", "exclusiveMinimum", "exclusiveMaximum", "id"];

/// Whether `dialect` reads `schema` (every subschema of it) as draft 2020-12 does: it uses no
/// keyword only one of the two applies, no array-form `items`, and, before draft 2019-09, no
/// `$ref` beside other assertions (which those drafts ignore) and no `$ref` to a plain-name
/// anchor; draft-04 also has no boolean schemas.
fn reads_as_2020_12(dialect: Dialect, schema: &Value) -> bool {
    let map = match schema {
        Value::Object(map) => map,
        Value::Bool(_) => return dialect != Dialect::Draft4,
        _ => return true,
    };
    if dialect == Dialect::Draft2020 {
        return true;
    }
    let mut differing: Vec<&str> = NEW_IN_2020_12.iter().chain(&GONE_IN_2020_12).copied().collect();
    if dialect < Dialect::Draft2019 {
        differing.extend(NEW_IN_2019_09.iter().chain(&GONE_IN_2019_09));
    }
    if dialect < Dialect::Draft7 {
        differing.extend(NEW_IN_07);
    }
    if dialect < Dialect::Draft6 {
        differing.extend(NEW_IN_06);
    }
    if map.keys().any(|key| differing.contains(&key.as_str())) || map.get("items").is_some_and(Value::is_array) {
        return false;
    }
    if dialect < Dialect::Draft2019 {
        if let Some(reference) = map.get("$ref") {
            let assertion = |key: &String| {
                key != "$ref" && key != "$schema" && !ANNOTATIONS.contains(&key.as_str()) && !key.starts_with("x-")
            };
            let plain_name =
                reference.as_str().is_some_and(|r| r.starts_with('#') && r.len() > 1 && !r.starts_with("#/"));
            if plain_name || map.keys().any(assertion) {
                return false;
            }
        }
    }
    map.iter().all(|(key, value)| match value {
        Value::Object(members) if SCHEMA_MAPS.contains(&key.as_str()) || key == "dependencies" => {
            members.values().all(|s| reads_as_2020_12(dialect, s))
        }
        Value::Array(items) if SCHEMA_LISTS.contains(&key.as_str()) => {
            items.iter().all(|s| reads_as_2020_12(dialect, s))
        }
        // Draft-04 has no boolean schemas, but these two keywords take a boolean of their own.
        Value::Bool(_) if key == "additionalProperties" => true,
        value if SCHEMAS.contains(&key.as_str()) => reads_as_2020_12(dialect, value),
        _ => true,
    })
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
    fn a_nested_object_moved_into_defs_makes_no_difference() {
        let window = json!({"type": "object", "properties": {"start": {"type": "string"}}, "required": ["start"]});
        let registered =
            json!({"type": "object", "properties": {"window": window.clone(), "$ref": {"type": "string"}}});
        let published = json!({
            "type": "object",
            "$defs": {"window": window, "unused": {"type": "integer"}},
            "properties": {"window": {"$ref": "#/$defs/window", "description": "When"}, "$ref": {"type": "string"}}
        });
        assert!(same(&contract(&registered), &contract(&published)));
        let via_definitions = json!({
            "type": "object",
            "definitions": {"w": {"$ref": "#/definitions/v"}, "v": registered["properties"]["window"].clone()},
            "properties": {"window": {"$ref": "#/definitions/w"}, "$ref": {"type": "string"}}
        });
        assert!(same(&contract(&registered), &contract(&via_definitions)));
        // What the named schema says still counts, and a reference that cannot be replaced (a
        // cycle, a sibling that constrains) leaves the schema as it is.
        let loose = json!({
            "type": "object",
            "$defs": {"window": {"type": "object"}},
            "properties": {"window": {"$ref": "#/$defs/window"}, "$ref": {"type": "string"}}
        });
        assert!(!same(&contract(&registered), &contract(&loose)));
        let cycle = json!({"$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
            "properties": {"head": {"$ref": "#/$defs/node"}}});
        assert_eq!(inlined(&cycle), cycle);
        let sibling =
            json!({"$defs": {"n": {"type": "integer"}}, "properties": {"n": {"$ref": "#/$defs/n", "minimum": 1}}});
        assert_eq!(inlined(&sibling), sibling);
        // An empty map of properties says nothing, at any depth.
        let open = json!({"type": "object", "properties": {"meta": {"type": "object", "additionalProperties": true}}});
        let with_empty = json!({"type": "object", "properties": {"meta": {"type": "object", "properties": {}, "additionalProperties": {}}}});
        assert!(same(&contract(&open), &contract(&with_empty)));
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

    #[test]
    fn identity_empty_required_and_set_order_make_no_difference() {
        let registered = json!({
            "type": "object",
            "properties": {"f": {"enum": ["pdf", "csv", 1]}, "n": {"type": ["integer", "null"]}},
            "required": ["f", "n"]
        });
        let published = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "urn:example:export", "$comment": "published",
            "type": ["object"],
            "properties": {
                "f": {"enum": [1.0, "csv", "pdf", "csv"], "required": []},
                "n": {"type": ["null", "integer", "null"], "$anchor": "n"}
            },
            "required": ["n", "f", "n"]
        });
        assert!(same(&contract(&registered), &contract(&published)));
        assert!(same(&contract(&json!({"required": []})), &contract(&json!({}))));
        // A set is still a set of its own members: one fewer, or another, differs.
        for other in [json!(["pdf", 1]), json!(["pdf", "csv", 2]), json!("pdf")] {
            let changed = json!({"properties": {"f": {"enum": other}, "n": {"type": ["integer", "null"]}}, "required": ["f", "n"]});
            assert!(!same(&contract(&registered), &contract(&changed)), "{changed}");
        }
        assert!(!same(
            &contract(&registered),
            &contract(
                &json!({"properties": {"f": {"enum": ["pdf", "csv", 1]}, "n": {"type": ["integer", "null"]}}, "required": ["f"]})
            )
        ));
    }

    #[test]
    fn a_dialect_is_dropped_only_where_it_reads_the_schema_as_2020_12_does() {
        let plain =
            json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"]});
        for uri in [
            "https://json-schema.org/draft/2020-12/schema",
            "https://json-schema.org/draft/2019-09/schema",
            "http://json-schema.org/draft-07/schema#",
            "http://json-schema.org/draft-06/schema#",
            "http://json-schema.org/draft-04/schema#",
        ] {
            let mut dialected = plain.clone();
            dialected["$schema"] = json!(uri);
            assert!(same(&contract(&plain), &contract(&dialected)), "{uri}");
        }
        // What those dialects read otherwise keeps the $schema, a difference.
        let differing = [
            ("http://json-schema.org/draft-07/schema#", json!({"$ref": "#/$defs/n", "maximum": 9})),
            ("http://json-schema.org/draft-07/schema#", json!({"type": "array", "items": [{"type": "string"}]})),
            ("http://json-schema.org/draft-07/schema#", json!({"type": "array", "prefixItems": [{"type": "string"}]})),
            ("http://json-schema.org/draft-07/schema#", json!({"type": "object", "dependentRequired": {"a": ["b"]}})),
            ("http://json-schema.org/draft-04/schema#", json!({"type": "array", "items": [{"type": "string"}]})),
            ("http://json-schema.org/draft-04/schema#", json!({"const": 1})),
            ("http://json-schema.org/draft-04/schema#", json!({"type": "object", "properties": {"a": true}})),
            ("http://json-schema.org/draft-06/schema#", json!({"if": {"minimum": 1}, "then": {"maximum": 2}})),
            ("https://json-schema.org/draft/2019-09/schema", json!({"type": "array", "items": [{"type": "string"}]})),
            ("https://example.com/my-dialect", json!({"type": "integer"})),
        ];
        for (uri, inner) in differing {
            let registered = json!({"type": "object", "$defs": {"n": {"type": "integer"}}, "properties": {"n": inner}});
            let mut published = registered.clone();
            published["$schema"] = json!(uri);
            assert!(!same(&contract(&registered), &contract(&published)), "{uri} {inner}");
        }
        // A $ref alone, and beside annotations only, reads the same under draft-07.
        let registered = json!({"$defs": {"n": {"type": "integer"}}, "properties": {"n": {"$ref": "#/$defs/n", "description": "N"}}});
        let mut published = registered.clone();
        published["$schema"] = json!("http://json-schema.org/draft-07/schema#");
        assert!(same(&contract(&registered), &contract(&published)));
    }

    /// The required describe cases of the built-in corpus, each with its registered schema.
    fn required_describe_cases() -> Vec<(crate::case::Case, Value)> {
        use crate::case::{Check, Level};
        let corpus = crate::corpus::Corpus::embedded().expect("the built-in corpus loads");
        let cases: Vec<_> = corpus
            .cases
            .into_iter()
            .filter(|c| c.level == Level::Required)
            .filter_map(|c| match &c.check {
                Check::Describe { tools, tool, .. } => {
                    let registered = crate::judge::describe::registered(tools, tool);
                    Some((c, registered))
                }
                _ => None,
            })
            .collect();
        assert!(cases.len() >= 10, "the corpus has its required describe cases: {}", cases.len());
        cases
    }

    /// Each view of `case` publishing `schema`, judged.
    fn judged(case: &crate::case::Case, schema: &Value) -> crate::judge::outcome::Status {
        use crate::case::Check;
        use crate::judge::Answers;
        let Check::Describe { views, .. } = &case.check else { unreachable!("a describe case") };
        let answers = Answers::Described(views.iter().map(|v| (*v, schema.clone())).collect());
        crate::judge::judge(case, &answers).status
    }

    fn runner(seed: u8) -> proptest::test_runner::TestRunner {
        use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
        TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]))
    }

    /// A coin that comes up one time in `odds`.
    fn chance(rng: &mut proptest::test_runner::TestRng, odds: u32) -> bool {
        use proptest::prelude::RngCore;
        rng.next_u32() % odds == 0
    }

    /// A set's members shuffled, some of them repeated.
    fn reshuffled(rng: &mut proptest::test_runner::TestRng, members: &[Value]) -> Vec<Value> {
        use proptest::prelude::RngCore;
        let mut out: Vec<Value> = members.to_vec();
        for member in members {
            if chance(rng, 3) {
                out.push(member.clone());
            }
        }
        for i in (1..out.len()).rev() {
            out.swap(i, rng.next_u32() as usize % (i + 1));
        }
        out
    }

    /// `schema` rewritten without changing what it accepts: a draft 2020-12 `$schema`, `$id` and
    /// `$comment` at the root, an empty `required` and a `$comment` here and there, and every
    /// `required`, `enum` and `type` list shuffled with repeats (a `type` name made a list).
    fn preserving(rng: &mut proptest::test_runner::TestRng, schema: &Value, root: bool) -> Value {
        let Value::Object(map) = schema else { return schema.clone() };
        let mut out = Map::new();
        if root {
            if chance(rng, 2) {
                out.insert("$schema".into(), json!("https://json-schema.org/draft/2020-12/schema"));
            }
            if chance(rng, 2) {
                out.insert("$id".into(), json!("urn:tool-conformance:rewritten"));
            }
        }
        for (key, value) in map {
            let value = match value {
                Value::Object(members) if SCHEMA_MAPS.contains(&key.as_str()) => {
                    Value::Object(members.iter().map(|(n, s)| (n.clone(), preserving(rng, s, false))).collect())
                }
                Value::Array(items) if SCHEMA_LISTS.contains(&key.as_str()) || key == "items" => {
                    Value::Array(items.iter().map(|s| preserving(rng, s, false)).collect())
                }
                value if SCHEMAS.contains(&key.as_str()) => preserving(rng, value, false),
                Value::Array(members) if SETS.contains(&key.as_str()) => Value::Array(reshuffled(rng, members)),
                Value::String(name) if key == "type" && chance(rng, 2) => json!([name, name]),
                value => value.clone(),
            };
            out.insert(key.clone(), value);
        }
        if !out.contains_key("required") && chance(rng, 2) {
            out.insert("required".into(), json!([]));
        }
        if chance(rng, 3) {
            out.insert("$comment".into(), json!("rewritten"));
        }
        Value::Object(out)
    }

    #[test]
    fn contract_preserving_rewrites_pass_every_required_describe_case() {
        let cases = required_describe_cases();
        let mut runner = runner(35);
        let (mut tried, mut changed) = (0, 0);
        for _ in 0..40 {
            for (case, registered) in &cases {
                let rewritten = preserving(runner.rng(), registered, true);
                tried += 1;
                changed += usize::from(!same(registered, &rewritten));
                let status = judged(case, &rewritten);
                assert_eq!(
                    status,
                    crate::judge::outcome::Status::Pass,
                    "{}: {rewritten} rewrites {registered} without changing what it accepts",
                    case.id
                );
            }
        }
        assert!(changed > tried / 2, "too few rewrites changed the document: {changed} of {tried}");
    }

    /// A construct draft 2020-12 reads otherwise than `dialect`, with its `$schema` URI: under
    /// draft 2020-12, `{"$ref": …, "maximum": 0}` bounds the value, and draft-07 ignores the bound;
    /// and so on.
    fn differing(rng: &mut proptest::test_runner::TestRng) -> (&'static str, Value) {
        use proptest::prelude::RngCore;
        let constructs: [(&str, Value); 7] = [
            ("http://json-schema.org/draft-07/schema#", json!({"$ref": "#/$defs/rewritten", "maximum": 0})),
            ("http://json-schema.org/draft-07/schema#", json!({"type": "array", "prefixItems": [{"type": "string"}]})),
            ("http://json-schema.org/draft-07/schema#", json!({"type": "object", "dependentRequired": {"a": ["b"]}})),
            ("http://json-schema.org/draft-07/schema#", json!({"type": "array", "items": [{"type": "string"}]})),
            ("http://json-schema.org/draft-06/schema#", json!({"if": {"minimum": 1}, "then": {"maximum": 2}})),
            ("http://json-schema.org/draft-04/schema#", json!({"const": 1})),
            ("https://json-schema.org/draft/2019-09/schema", json!({"type": "array", "items": [{"type": "string"}]})),
        ];
        constructs[rng.next_u32() as usize % constructs.len()].clone()
    }

    #[test]
    fn dialect_changes_that_change_the_meaning_fail_every_required_describe_case() {
        use crate::case::Check;
        let cases = required_describe_cases();
        let mut runner = runner(36);
        for _ in 0..10 {
            for (case, registered) in &cases {
                let (uri, construct) = differing(runner.rng());
                // The registered schema with the construct in a property of its own, so that the
                // case registers it: under draft 2020-12 it accepts what it did.
                let mut with = registered.clone();
                let Value::Object(root) = &mut with else { continue };
                root.entry("$defs")
                    .or_insert_with(|| json!({}))
                    .as_object_mut()
                    .map(|d| d.insert("rewritten".into(), json!({"type": "integer"})));
                root.entry("properties")
                    .or_insert_with(|| json!({}))
                    .as_object_mut()
                    .map(|p| p.insert("rewritten".into(), construct.clone()));
                let mut case = case.clone();
                let Check::Describe { tools, tool, .. } = &mut case.check else { unreachable!() };
                let tool = tool.clone();
                tools.iter_mut().filter(|t| t.name == tool).for_each(|t| t.input_schema = with.clone());
                assert_eq!(judged(&case, &with), crate::judge::outcome::Status::Pass, "{}: as registered", case.id);
                let mut same_dialect = with.clone();
                same_dialect["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
                assert_eq!(judged(&case, &same_dialect), crate::judge::outcome::Status::Pass, "{}", case.id);
                let mut dialected = with.clone();
                dialected["$schema"] = json!(uri);
                assert!(
                    matches!(judged(&case, &dialected), crate::judge::outcome::Status::Fail(_)),
                    "{}: {uri} reads {construct} otherwise, and the case passed",
                    case.id
                );
            }
        }
    }
}
