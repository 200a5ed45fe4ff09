//! A tool's JSON Schema written as the Rust types an rmcp user writes for `Parameters<T>`:
//! `#[derive(Deserialize, Serialize, JsonSchema)]` structs and enums with the nearest Rust type
//! for each keyword. Used by build.rs (through `include!`) to write one module per schema of
//! `schemas.jsonl`, and by the adapter to print the source of a tool's types.
//!
//! | schema | Rust |
//! |---|---|
//! | `string`, `integer`, `number`, `boolean`, `null` | `String`, `i64`, `f64`, `bool`, `()` |
//! | `array` | `Vec<ITEM>` (`Vec<Value>` without `items`) |
//! | `object` with `properties` or `required` | a struct: a required name is a field, any other `Option<T>` (`default`, skipped when `None`); `additionalProperties: false` adds `#[serde(deny_unknown_fields)]`, `true` or a schema a `#[serde(flatten)]` map of the rest |
//! | `object` without them | `Map<String, Value>`, or `BTreeMap<String, T>` for an `additionalProperties` schema |
//! | `enum`/`const` of strings | an enum, one `#[serde(rename = "...")]` unit variant per value |
//! | `[T, "null"]` | `Option<T>`; any other type list, `anyOf`, `oneOf` an `#[serde(untagged)]` enum of the branches |
//! | a local `$ref` | the target's type (a recursive one is `Value`) |
//! | a root `anyOf`/`oneOf`/`allOf` beside `properties` | the nearest struct: its properties and every branch's names, none required by the composition |
//! | anything else (no type, `{}`, `true`, `not`, an enum of other values, ...) | `serde_json::Value` |
//!
//! A property name that is no Rust identifier is a field with `#[serde(rename = "...")]`.
//! Constraints (`minLength`, `minimum`, `pattern`, ...) are not written: serde does not check
//! them, and an rmcp user who wants them checked writes the check in the handler.

use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The schema as canonical JSON text (object keys sorted, at every depth): the key that finds a
/// schema's generated types.
pub fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let items: Vec<String> =
                keys.iter().map(|k| format!("{}:{}", Value::String((*k).clone()), canonical(&map[*k]))).collect();
            format!("{{{}}}", items.join(","))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(canonical).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

/// The Rust source of the types for one tool's input schema; the root type is `Args`.
pub fn generate(schema: &Value) -> String {
    let mut writer = Writer { root: schema.clone(), items: Vec::new(), names: BTreeSet::new(), refs: Vec::new() };
    writer.names.insert("Args".into());
    writer.root_type(schema);
    writer.items.join("\n")
}

struct Writer {
    root: Value,
    items: Vec<String>,
    names: BTreeSet<String>,
    /// References being written (a reference met again inside itself is `Value`).
    refs: Vec<String>,
}

const DERIVE: &str = "#[derive(Debug, Clone, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]";
const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let",
    "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static", "struct", "trait", "true", "type",
    "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_"
}

/// The field name for a property: itself when Rust takes it, `r#name` for a keyword, else `f_N`.
fn field_name(name: &str, index: usize) -> String {
    if ["self", "super", "crate", "Self", "extra"].contains(&name) || name.starts_with("f_") {
        format!("f_{index}")
    } else if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else if is_identifier(name) {
        name.to_string()
    } else {
        format!("f_{index}")
    }
}

fn literal(text: &str) -> String {
    format!("{text:?}")
}

impl Writer {
    fn fresh(&mut self, hint: &str) -> String {
        let base: String = hint
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|p| !p.is_empty())
            .map(|p| {
                let mut cs = p.chars();
                cs.next().map(|c| c.to_ascii_uppercase().to_string() + cs.as_str()).unwrap_or_default()
            })
            .collect();
        let base =
            if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) { format!("T{base}") } else { base };
        let mut name = base.clone();
        let mut n = 1;
        while !self.names.insert(name.clone()) {
            n += 1;
            name = format!("{base}{n}");
        }
        name
    }

    fn root_type(&mut self, schema: &Value) {
        let Value::Object(map) = schema else {
            self.items.push("pub type Args = serde_json::Map<String, serde_json::Value>;".into());
            return;
        };
        let composed = ["anyOf", "oneOf", "allOf"].iter().any(|k| map.contains_key(*k));
        let has_fields = map.contains_key("properties") || map.contains_key("required");
        if composed && (has_fields || map.get("type") == Some(&Value::from("object"))) {
            // The nearest struct: the properties, and every branch's names.
            let mut nearest = map.clone();
            let mut properties = map.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
            for key in ["anyOf", "oneOf", "allOf"] {
                for branch in nearest.remove(key).and_then(|b| b.as_array().cloned()).unwrap_or_default() {
                    for (name, sub) in branch.get("properties").and_then(Value::as_object).cloned().unwrap_or_default()
                    {
                        properties.entry(name).or_insert(sub);
                    }
                    for name in branch.get("required").and_then(Value::as_array).cloned().unwrap_or_default() {
                        if let Some(name) = name.as_str() {
                            properties.entry(name.to_string()).or_insert(Value::Bool(true));
                        }
                    }
                }
            }
            nearest.insert("properties".into(), Value::Object(properties));
            nearest.insert("type".into(), "object".into());
            self.object("Args", &Value::Object(nearest));
            return;
        }
        let mut ty = self.ty(schema, "Args", true);
        if ty == "serde_json::Value" {
            // A root that says nothing of its shape ({}, no type): the arguments object as it
            // comes, what a user takes for "any arguments".
            ty = "serde_json::Map<String, serde_json::Value>".into();
        }
        if ty != "Args" {
            self.items.push(format!("pub type Args = {ty};"));
        }
    }

    /// The type for `schema`; `as_root` names a struct `Args` itself.
    fn ty(&mut self, schema: &Value, hint: &str, as_root: bool) -> String {
        let Value::Object(map) = schema else { return "serde_json::Value".into() };
        if let Some(Value::String(reference)) = map.get("$ref") {
            return self.reference(reference, hint);
        }
        if let Some(values) = map.get("enum").and_then(Value::as_array).cloned() {
            return self.enumeration(&values, hint);
        }
        if let Some(value) = map.get("const") {
            return self.enumeration(std::slice::from_ref(value), hint);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = map.get(key).and_then(Value::as_array)
                && map.get("type").is_none()
                && map.get("properties").is_none()
            {
                let branches = branches.clone();
                return self.union(&branches, hint);
            }
        }
        if let Some(Value::Array(types)) = map.get("type") {
            let others: Vec<&Value> = types.iter().filter(|t| t.as_str() != Some("null")).collect();
            let nullable = others.len() < types.len();
            let inner = match others.as_slice() {
                [] => "()".to_string(),
                [one] => {
                    let mut single = map.clone();
                    single.insert("type".into(), (*one).clone());
                    self.ty(&Value::Object(single), hint, false)
                }
                many => {
                    let branches: Vec<Value> = many
                        .iter()
                        .map(|t| {
                            let mut single = map.clone();
                            single.insert("type".into(), (*t).clone());
                            Value::Object(single)
                        })
                        .collect();
                    self.union(&branches, hint)
                }
            };
            return if nullable && !inner.starts_with("Option<") { format!("Option<{inner}>") } else { inner };
        }
        match map.get("type").and_then(Value::as_str) {
            Some("string") => "String".into(),
            Some("integer") => "i64".into(),
            Some("number") => "f64".into(),
            Some("boolean") => "bool".into(),
            Some("null") => "()".into(),
            Some("array") => match map.get("items") {
                Some(items) => format!("Vec<{}>", self.ty(items, &format!("{hint} item"), false)),
                None => "Vec<serde_json::Value>".into(),
            },
            Some("object") => {
                if map.contains_key("properties") || map.contains_key("required") {
                    let name = if as_root { "Args".to_string() } else { self.fresh(hint) };
                    self.object(&name, schema);
                    name
                } else {
                    match map.get("additionalProperties") {
                        Some(extra @ Value::Object(_)) => {
                            format!(
                                "std::collections::BTreeMap<String, {}>",
                                self.ty(extra, &format!("{hint} value"), false)
                            )
                        }
                        _ => "serde_json::Map<String, serde_json::Value>".into(),
                    }
                }
            }
            _ => "serde_json::Value".into(),
        }
    }

    fn reference(&mut self, reference: &str, hint: &str) -> String {
        if self.refs.iter().any(|r| r == reference) {
            // A reference inside itself: a recursive type, which this mapping leaves as Value.
            return "serde_json::Value".into();
        }
        let Some(target) = reference.strip_prefix('#').and_then(|p| self.root.pointer(p)).cloned() else {
            return "serde_json::Value".into();
        };
        if target == self.root {
            return "serde_json::Value".into();
        }
        self.refs.push(reference.to_string());
        let last = reference.rsplit('/').next().unwrap_or(hint).to_string();
        let ty = self.ty(&target, &last, false);
        self.refs.pop();
        ty
    }

    fn enumeration(&mut self, values: &[Value], hint: &str) -> String {
        if values.is_empty() || !values.iter().all(Value::is_string) {
            return "serde_json::Value".into();
        }
        let name = self.fresh(hint);
        let mut out = format!("{DERIVE}\npub enum {name} {{\n");
        for (i, value) in values.iter().enumerate() {
            let _ = writeln!(out, "    #[serde(rename = {})]\n    V{i},", literal(value.as_str().unwrap_or_default()));
        }
        out.push('}');
        self.items.push(out);
        name
    }

    fn union(&mut self, branches: &[Value], hint: &str) -> String {
        if branches.is_empty() {
            return "serde_json::Value".into();
        }
        let name = self.fresh(hint);
        let types: Vec<String> =
            branches.iter().enumerate().map(|(i, b)| self.ty(b, &format!("{hint} {i}"), false)).collect();
        let mut out = format!("{DERIVE}\n#[serde(untagged)]\npub enum {name} {{\n");
        for (i, ty) in types.iter().enumerate() {
            let _ = writeln!(out, "    V{i}({ty}),");
        }
        out.push('}');
        self.items.push(out);
        name
    }

    fn object(&mut self, name: &str, schema: &Value) {
        let empty = serde_json::Map::new();
        let map = schema.as_object().unwrap_or(&empty);
        let properties = map.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
        let required: Vec<String> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(|n| n.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        let mut fields: Vec<(String, Value)> = properties.into_iter().collect();
        for name in &required {
            if !fields.iter().any(|(n, _)| n == name) {
                fields.push((name.clone(), Value::Bool(true)));
            }
        }
        let mut body = String::new();
        for (index, (property, sub)) in fields.iter().enumerate() {
            let ident = field_name(property, index);
            let ty = self.ty(sub, &format!("{name} {property}"), false);
            let rename = if ident.trim_start_matches("r#") == property {
                String::new()
            } else {
                format!("rename = {}, ", literal(property))
            };
            if required.contains(property) {
                if !rename.is_empty() {
                    let _ = writeln!(body, "    #[serde({})]", rename.trim_end_matches(", "));
                }
                let _ = writeln!(body, "    pub {ident}: {ty},");
            } else {
                let ty = if ty.starts_with("Option<") { ty } else { format!("Option<{ty}>") };
                let _ = writeln!(body, "    #[serde({rename}default, skip_serializing_if = \"Option::is_none\")]");
                let _ = writeln!(body, "    pub {ident}: {ty},");
            }
        }
        let mut attributes = String::new();
        match map.get("additionalProperties") {
            Some(Value::Bool(false)) => attributes.push_str("#[serde(deny_unknown_fields)]\n"),
            Some(Value::Bool(true)) => {
                let _ =
                    writeln!(body, "    #[serde(flatten)]\n    pub extra: serde_json::Map<String, serde_json::Value>,");
            }
            Some(extra @ Value::Object(_)) => {
                let ty = self.ty(extra, &format!("{name} extra"), false);
                let _ =
                    writeln!(body, "    #[serde(flatten)]\n    pub extra: std::collections::BTreeMap<String, {ty}>,");
            }
            _ => {}
        }
        self.items.push(format!("{DERIVE}\n{attributes}pub struct {name} {{\n{body}}}"));
    }
}
