//! The points where the reference answers by a reading of docs/interpretations.md rather than by
//! the rule text alone, recorded for one input: [`Readings`].
//!
//! The reference's own code ([`super::normalize`], [`super::validate`], [`super::entities`]) is
//! left as it is; this module walks the same input beside it and names each reading the answer
//! passed through, in one of two ways. Where the reading is a decision point (a parameter whose
//! declared types come from a type list, a `$ref` or a union; a character reference decoded by
//! WHATWG's error recovery; a number that a double does not hold), it looks at the input there.
//! Where the reading is what the reference does not do (decode references before JSON text,
//! close nested objects, validate inside nested values), it answers again with the other reading
//! taken and records the reading when the two answers differ. An input that touches no reading
//! is one whose answer the text forces; one that touches an interpretation has the answer the
//! suite's reading gives; one that touches an informational point has no answer to hold anyone
//! to. The walk over-approximates where that is simpler: recording a reading the answer did not
//! need only makes a finding count less, never more.

use super::normalize::{declared_types, normalize};
use super::validate::{ArgumentValidator, Rejection, expected_fields};
use crate::case::Level;
use crate::case::tool::Tool;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// A reading of docs/interpretations.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reading {
    /// RT-TOOL-8 reading 1: which types a parameter declares (type lists, `$ref`, anyOf/oneOf,
    /// `items` alone).
    DeclaredTypes,
    /// RT-TOOL-8 reading 1: `allOf` (informational).
    AllOf,
    /// RT-TOOL-8 reading 3: names described by additionalProperties or patternProperties.
    UndeclaredNames,
    /// RT-TOOL-8 reading 4: JSON text nested inside arrays and objects (informational).
    NestedJsonText,
    /// RT-TOOL-8 reading 5: the order of the two repairs.
    RepairOrder,
    /// RT-TOOL-8 reading 7: what RFC 8259 leaves to parsers (duplicate names, numbers beyond a
    /// double's range, a BOM, lone surrogate escapes) (informational).
    JsonEdges,
    /// RT-TOOL-8 reading 8: WHATWG's error recovery for character references.
    ReferenceRecovery,
    /// RT-TOOL-8 reading 9: three or more levels of escaping (informational).
    DeepEscaping,
    /// RT-TOOL-8 reading 10 and PLAT-162 "Numbers keep their exact value".
    ExactNumbers,
    /// RT-TOOL-8 reading 10: a number a double does not hold, validated. What the rule's
    /// validation makes of it (is `-2.5e-400` an integer, is `9007199254740993.5`?) the suite
    /// leaves open, and the reference validates a double's approximation of it (informational).
    InexactValidated,
    /// RT-TOOL-8 reading 11 and PLAT-162 "No defaults are injected".
    NoDefaults,
    /// RT-TOOL-8 reading 15: the names an error gives for names that hold a character reference
    /// (as sent, or decoded) (informational).
    NamesInErrors,
    /// RT-TOOL-8 reading 13 and PLAT-162 "A root that arrives as JSON text": a root that is not an
    /// object, for normalize, or object text, for validation (informational).
    RootNotObject,
    /// PLAT-162 reading 7 of "Checks beyond the text": a null root.
    NullRoot,
    /// PLAT-162 "1.0 is an integer".
    WholeFloat,
    /// PLAT-162 "minLength counts Unicode code points".
    CodePoints,
    /// PLAT-162 "A partly satisfied anyOf alternative is one `no_alternative` problem".
    PartialAlternative,
    /// PLAT-162 reading 3 of "Checks beyond the text": a default-closed root admits names it
    /// requires without declaring them.
    UndeclaredRequired,
    /// PLAT-162 "An additionalProperties schema": it validates the values of the extra names,
    /// rather than only opening the root.
    ExtensionValues,
    /// PLAT-162 "Validation inside nested objects and arrays" (informational).
    NestedValidation,
    /// PLAT-162 "Nested objects are not closed by the root's default" (informational).
    NestedClosed,
    /// PLAT-162 "patternProperties without additionalProperties" (informational).
    PatternProperties,
    /// PLAT-162 "additionalProperties false with a required name outside properties"
    /// (informational).
    ClosedWithUndeclaredRequired,
    /// PLAT-162 "One value breaking two constraints of one field" (informational).
    TwoProblemsOneValue,
    /// PLAT-162 "oneOf required-field sets" (informational).
    OneOf,
    /// A problem outside the rule's classes (a keyword such as pattern or maximum, or a value
    /// matching no branch of a parameter's anyOf): the rule names no class for it
    /// (informational).
    OutsideClasses,
}

impl Reading {
    /// The level an answer that passed through this reading can be held to.
    pub fn level(self) -> Level {
        use Reading::*;
        match self {
            AllOf
            | NestedJsonText
            | JsonEdges
            | DeepEscaping
            | RootNotObject
            | NestedValidation
            | NestedClosed
            | PatternProperties
            | ClosedWithUndeclaredRequired
            | TwoProblemsOneValue
            | OneOf
            | OutsideClasses
            | InexactValidated => Level::Informational,
            _ => Level::Interpretation,
        }
    }

    /// Where docs/interpretations.md states it.
    pub fn doc(self) -> &'static str {
        use Reading::*;
        match self {
            DeclaredTypes | AllOf => "RT-TOOL-8 reading 1, which types a parameter declares",
            UndeclaredNames => "RT-TOOL-8 reading 3, names not declared under properties",
            NestedJsonText => "RT-TOOL-8 reading 4, JSON text nested inside array and object parameters",
            RepairOrder => "RT-TOOL-8 reading 5, the order of the two repairs",
            JsonEdges => "RT-TOOL-8 reading 7, what \"parses as JSON\" means",
            ReferenceRecovery => "RT-TOOL-8 reading 8, which character references, and how they decode",
            DeepEscaping => "RT-TOOL-8 reading 9, how deep repeated decoding must go",
            ExactNumbers => "RT-TOOL-8 reading 10 and PLAT-162, numbers keep their exact value",
            InexactValidated => "RT-TOOL-8 reading 10, a number a double does not hold, validated",
            NoDefaults => "RT-TOOL-8 reading 11 and PLAT-162, no defaults are injected",
            NamesInErrors => "RT-TOOL-8 reading 15, names in errors",
            RootNotObject => "RT-TOOL-8 reading 13 and PLAT-162, a root that arrives as JSON text or is not an object",
            NullRoot => "PLAT-162, checks beyond the text, reading 7: a null root",
            WholeFloat => "PLAT-162, 1.0 is an integer",
            CodePoints => "PLAT-162, minLength counts Unicode code points",
            PartialAlternative => "PLAT-162, a partly satisfied anyOf alternative is one no_alternative problem",
            UndeclaredRequired => {
                "PLAT-162, checks beyond the text, reading 3: a closed root admits the names it requires"
            }
            ExtensionValues => "PLAT-162, an additionalProperties schema validates the values of extra names",
            NestedValidation => "PLAT-162, validation inside nested objects and arrays",
            NestedClosed => "PLAT-162, nested objects are not closed by the root's default",
            PatternProperties => "PLAT-162, patternProperties without additionalProperties",
            ClosedWithUndeclaredRequired => {
                "PLAT-162, additionalProperties false with a required name outside properties"
            }
            TwoProblemsOneValue => "PLAT-162, one value breaking two constraints of one field",
            OneOf => "PLAT-162, oneOf required-field sets",
            OutsideClasses => "PLAT-162, the problem classes (a keyword outside them)",
        }
    }
}

/// The readings one answer of the reference passed through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Readings(BTreeSet<Reading>);

impl Readings {
    /// Records a reading.
    pub fn take(&mut self, reading: Reading) {
        self.0.insert(reading);
    }

    /// Every reading recorded, in order.
    pub fn iter(&self) -> impl Iterator<Item = Reading> + '_ {
        self.0.iter().copied()
    }

    /// Whether none was recorded.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The level the answer can be held to: required when no reading was taken, informational
    /// when an open point was, interpretation otherwise.
    pub fn level(&self) -> Level {
        self.iter().map(Reading::level).max().unwrap_or(Level::Required)
    }
}

/// The readings the reference's normalization of `arguments` against `schema` passes through.
pub fn of_normalize(schema: &Value, arguments: &Value) -> Readings {
    let mut readings = Readings::default();
    normalize_readings(schema, arguments, &mut readings);
    readings
}

fn normalize_readings(schema: &Value, arguments: &Value, readings: &mut Readings) {
    let Value::Object(map) = arguments else {
        readings.take(Reading::RootNotObject);
        each_leaf(arguments, 0, &mut |leaf, _| leaf_readings(leaf, readings));
        return;
    };
    let properties = schema.get("properties").and_then(Value::as_object);
    for (name, value) in map {
        if let Value::String(text) = value {
            json_text_readings(schema, properties.and_then(|p| p.get(name)), text, readings);
            // The other order: references decoded before the JSON decision.
            let one = |v: Value| Value::Object(Map::from_iter([(name.clone(), v)]));
            let decoded_first = Value::String(super::entities::decode(text).into_owned());
            if normalize(schema, &one(value.clone())) != normalize(schema, &one(decoded_first)) {
                readings.take(Reading::RepairOrder);
            }
        }
        // Strings at depth one and below, as sent and inside decoded JSON text.
        let normalized = normalize(schema, &Value::Object(Map::from_iter([(name.clone(), value.clone())])));
        for v in [value, &normalized[name.as_str()]] {
            each_leaf(v, 0, &mut |leaf, depth| {
                leaf_readings(leaf, readings);
                if depth > 0 {
                    if let Value::String(text) = leaf {
                        if parses_to_container(text).is_some() {
                            readings.take(Reading::NestedJsonText);
                        }
                    }
                }
            });
        }
    }
    if let Some(properties) = properties {
        if properties.iter().any(|(name, p)| p.get("default").is_some() && !map.contains_key(name)) {
            readings.take(Reading::NoDefaults);
        }
    }
}

/// JSON text for a root argument: the readings its decoding decision passes through.
fn json_text_readings(root: &Value, parameter: Option<&Value>, text: &str, readings: &mut Readings) {
    let trimmed = text.trim_start_matches([' ', '\t', '\n', '\r']);
    if trimmed.starts_with('\u{feff}') || text.contains("\\ud8") || text.contains("\\udc") || text.contains("\\uD") {
        readings.take(Reading::JsonEdges);
    }
    let Some(parsed) = parses_to_container(text) else { return };
    match parameter {
        None => {
            if root.get("additionalProperties").is_some_and(Value::is_object) || root.get("patternProperties").is_some()
            {
                readings.take(Reading::UndeclaredNames);
            }
        }
        Some(parameter) => {
            if parameter.get("allOf").is_some() {
                readings.take(Reading::AllOf);
            }
            if !plain_declaration(parameter) {
                readings.take(Reading::DeclaredTypes);
            }
            let declared = declared_types(root, parameter);
            let substituted = !declared.contains("string")
                && ((parsed.is_array() && declared.contains("array"))
                    || (parsed.is_object() && declared.contains("object")));
            if substituted && json_edges(text) {
                readings.take(Reading::JsonEdges);
            }
        }
    }
}

/// Whether a parameter's declared types are read the same way under every reading: one type
/// name (or a list of one) and no `$ref` or union, or nothing that could declare a type at all.
fn plain_declaration(parameter: &Value) -> bool {
    let Value::Object(map) = parameter else { return true };
    let unions = ["$ref", "anyOf", "oneOf", "allOf"].iter().any(|k| map.contains_key(*k));
    match map.get("type") {
        Some(Value::String(_)) => !unions,
        Some(Value::Array(types)) if types.len() == 1 && types[0].is_string() => !unions,
        Some(_) => false,
        None => !unions && !map.contains_key("items") && !map.contains_key("properties"),
    }
}

/// The array or object `text` parses to under RFC 8259.
fn parses_to_container(text: &str) -> Option<Value> {
    let trimmed = text.trim_start_matches([' ', '\t', '\n', '\r']);
    if !matches!(trimmed.as_bytes().first(), Some(b'[' | b'{')) {
        return None;
    }
    crate::json::from_str::<Value>(text).ok().filter(|v| v.is_array() || v.is_object())
}

/// Whether JSON text has what RFC 8259 leaves to parsers: duplicate names, numbers a double does
/// not hold (beyond its range, or below its precision).
fn json_edges(text: &str) -> bool {
    // Duplicate names: the strict parse keeps one of them, so a parse into a list of pairs counts
    // them; a cheap approximation: the object keys of the parsed value are fewer than the `":`
    // separators outside strings would say. Conservative: any object text with a repeated key
    // spelled the same way.
    let Ok(value) = crate::json::from_str::<Value>(text) else { return false };
    let mut keys = 0usize;
    each_object(&value, &mut |map| keys += map.len());
    let separators = count_name_separators(text);
    if separators != keys {
        return true;
    }
    let mut edge = false;
    each_leaf(&value, 0, &mut |leaf, _| {
        if let Value::Number(n) = leaf {
            let text = n.to_string();
            let f: f64 = text.parse().unwrap_or(f64::NAN);
            if !f.is_finite() || (f == 0.0 && text.trim_start_matches('-').chars().any(|c| ('1'..='9').contains(&c))) {
                edge = true;
            }
        }
    });
    edge
}

/// The number of `:` outside strings in JSON text (one per member of an object).
fn count_name_separators(text: &str) -> usize {
    let (mut count, mut in_string, mut escaped) = (0, false, false);
    for c in text.chars() {
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (true, false, '"') => in_string = false,
            (false, _, '"') => in_string = true,
            (false, _, ':') => count += 1,
            _ => {}
        }
    }
    count
}

fn each_object(value: &Value, f: &mut dyn FnMut(&Map<String, Value>)) {
    match value {
        Value::Object(map) => {
            f(map);
            map.values().for_each(|v| each_object(v, f));
        }
        Value::Array(items) => items.iter().for_each(|v| each_object(v, f)),
        _ => {}
    }
}

/// Calls `f` on every leaf (string, number, boolean, null) with its depth below `value`.
fn each_leaf(value: &Value, depth: usize, f: &mut dyn FnMut(&Value, usize)) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| each_leaf(v, depth + 1, f)),
        Value::Object(map) => map.values().for_each(|v| each_leaf(v, depth + 1, f)),
        leaf => f(leaf, depth),
    }
}

/// The readings one leaf passes through: its references, how deep they are escaped, its exact
/// number.
fn leaf_readings(leaf: &Value, readings: &mut Readings) {
    match leaf {
        Value::String(text) => reference_readings(text, readings),
        Value::Number(n) if !exact_in_double(n) => readings.take(Reading::ExactNumbers),
        _ => {}
    }
}

/// Whether a double holds the number exactly (so every runtime passes it through unchanged).
fn exact_in_double(n: &serde_json::Number) -> bool {
    let text = n.to_string();
    if let Ok(i) = text.parse::<i64>() {
        return i.unsigned_abs() <= 1 << 53;
    }
    let Ok(f) = text.parse::<f64>() else { return false };
    f.is_finite()
        && crate::json::from_str::<Value>(&f.to_string())
            .is_ok_and(|v| matches!(&v, Value::Number(m) if crate::json::compare::numbers_equal(m, n)))
}

/// The references of one string, pass after pass: the ones decoded by WHATWG's error recovery,
/// and whether three or more passes change it.
fn reference_readings(text: &str, readings: &mut Readings) {
    let mut current = text.to_string();
    for pass in 0..super::entities::MAX_PASSES {
        if disputed_reference(&current) {
            readings.take(Reading::ReferenceRecovery);
        }
        let next = super::entities::decode_once(&current).into_owned();
        if next == current {
            return;
        }
        if pass >= 2 {
            readings.take(Reading::DeepEscaping);
            return;
        }
        current = next;
    }
}

/// Whether `text` holds a character reference that only WHATWG's error recovery decodes: a name
/// without its semicolon, a numeric reference without one, or one to NUL, a C1 control, a
/// surrogate, a control, a noncharacter or beyond U+10FFFF.
fn disputed_reference(text: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices('&').any(|(at, _)| {
        let rest = &bytes[at + 1..];
        if rest.first() == Some(&b'#') {
            let hex = matches!(rest.get(1), Some(b'x' | b'X'));
            let from = if hex { 2 } else { 1 };
            let digits: Vec<u8> = rest[from..]
                .iter()
                .copied()
                .take_while(|c| if hex { c.is_ascii_hexdigit() } else { c.is_ascii_digit() })
                .collect();
            if digits.is_empty() {
                return false;
            }
            if rest.get(from + digits.len()) != Some(&b';') {
                return true;
            }
            let digits = std::str::from_utf8(&digits).unwrap_or("0");
            let value = u32::from_str_radix(digits, if hex { 16 } else { 10 }).unwrap_or(u32::MAX);
            return value == 0
                || (0x80..=0x9f).contains(&value)
                || (0xd800..=0xdfff).contains(&value)
                || value > 0x10ffff
                || (value < 0x20 && !matches!(value, 0x09 | 0x0a))
                || value == 0x7f
                || (0xfdd0..=0xfdef).contains(&value)
                || value & 0xfffe == 0xfffe;
        }
        let name_len = rest.iter().take_while(|c| c.is_ascii_alphanumeric()).count();
        if name_len == 0 {
            return false;
        }
        let name = &bytes[at..at + 1 + name_len];
        let terminated = rest.get(name_len) == Some(&b';');
        if terminated && htmlize::ENTITIES.contains_key(&bytes[at..at + 2 + name_len]) {
            return false;
        }
        (2..=name.len()).any(|len| htmlize::ENTITIES.contains_key(&name[..len]))
    })
}

/// The readings the reference's executor passes through on a call: normalization's, then
/// validation's, given its answer (`Ok` with what the handler received, or the rejection).
pub fn of_invoke(schema: &Value, arguments: &Value, answer: &Result<Value, Rejection>) -> Readings {
    let mut readings = Readings::default();
    if arguments.is_object() {
        normalize_readings(schema, arguments, &mut readings);
    } else {
        each_leaf(arguments, 0, &mut |leaf, _| leaf_readings(leaf, &mut readings));
    }
    let normalized = normalize(schema, arguments);
    match &normalized {
        Value::Null => readings.take(Reading::NullRoot),
        Value::String(text) if parses_to_container(text).is_some_and(|v| v.is_object()) => {
            readings.take(Reading::RootNotObject)
        }
        _ => {}
    }
    let (mut whole_float, mut inexact) = (false, false);
    each_leaf(&normalized, 0, &mut |leaf, _| {
        if let Value::Number(n) = leaf {
            inexact |= !exact_in_double(n);
            let text = n.to_string();
            if text.contains(['.', 'e', 'E']) && text.parse::<f64>().is_ok_and(|f| f.fract() == 0.0) {
                whole_float = true;
            }
        }
    });
    if whole_float {
        readings.take(Reading::WholeFloat);
    }
    if inexact {
        readings.take(Reading::InexactValidated);
    }
    let root_anyof = schema.get("anyOf").is_some();
    if schema.get("oneOf").is_some() {
        readings.take(Reading::OneOf);
    }
    if schema.get("patternProperties").is_some() && schema.get("additionalProperties").is_none() {
        readings.take(Reading::PatternProperties);
    }
    let declared: BTreeSet<String> =
        schema.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default();
    let expected = expected_fields(schema);
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) && expected.iter().any(|f| !declared.contains(f))
    {
        readings.take(Reading::ClosedWithUndeclaredRequired);
    }
    if let Value::Object(map) = &normalized {
        if schema.get("additionalProperties").is_none()
            && map.keys().any(|k| expected.contains(k) && !declared.contains(k))
        {
            readings.take(Reading::UndeclaredRequired);
        }
        // The other reading of an additionalProperties schema: it opens the root, and the values of
        // the extra names are not validated.
        if schema.get("additionalProperties").is_some_and(Value::is_object) && map.keys().any(|k| !declared.contains(k))
        {
            let mut opened = schema.clone();
            opened["additionalProperties"] = Value::Bool(true);
            if problem_set(&opened, &normalized) != problem_set(schema, &normalized) {
                readings.take(Reading::ExtensionValues);
            }
        }
        // A string at any depth: the minLength that counts it may sit in a nested schema.
        let mut non_ascii = false;
        each_leaf(&normalized, 0, &mut |leaf, _| non_ascii |= leaf.as_str().is_some_and(|s| !s.is_ascii()));
        if non_ascii && contains_key(schema, "minLength") {
            readings.take(Reading::CodePoints);
        }
        // The other readings of nested values: validated, or closed (only a container can hold
        // a nested value).
        if map.values().any(|v| v.is_array() || v.is_object()) {
            let problems = |s: &Value| problem_set(s, &normalized);
            let (stripped, closed) = (root_only(schema), nested_closed(schema));
            // A schema the other reading leaves as it is cannot answer otherwise.
            if stripped != *schema || closed != *schema {
                let ours = problems(schema);
                if stripped != *schema && problems(&stripped) != ours {
                    readings.take(Reading::NestedValidation);
                }
                if closed != *schema && problems(&closed) != ours {
                    readings.take(Reading::NestedClosed);
                }
            }
        }
    }
    if let Err(rejection) = answer {
        // A name that holds a character reference, named in the error (as a problem's field or an
        // expected field): whether it is named as sent or decoded is open.
        let named = rejection
            .problems
            .iter()
            .filter_map(|p| p.field.as_deref())
            .chain(rejection.expected_fields.iter().map(String::as_str));
        if named.into_iter().any(|name| super::entities::decode(name) != name) {
            readings.take(Reading::NamesInErrors);
        }
        let mut fields = BTreeSet::new();
        for problem in &rejection.problems {
            use super::validate::ProblemKind;
            match problem.kind {
                ProblemKind::InvalidValue => readings.take(Reading::OutsideClasses),
                ProblemKind::NoAlternative if root_anyof => {
                    let partly = schema["anyOf"].as_array().into_iter().flatten().any(|branch| {
                        let names: Vec<&str> = branch
                            .get("required")
                            .and_then(Value::as_array)
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_str)
                            .collect();
                        let given = names.iter().filter(|n| normalized.get(**n).is_some()).count();
                        given > 0 && given < names.len()
                    });
                    if partly {
                        readings.take(Reading::PartialAlternative);
                    }
                }
                _ => {}
            }
            if problem.field.is_some() && !fields.insert(problem.field.clone()) {
                readings.take(Reading::TwoProblemsOneValue);
            }
        }
    }
    readings
}

fn contains_key(value: &Value, key: &str) -> bool {
    match value {
        Value::Object(map) => map.contains_key(key) || map.values().any(|v| contains_key(v, key)),
        Value::Array(items) => items.iter().any(|v| contains_key(v, key)),
        _ => false,
    }
}

/// The problems the reference's validator finds, as (kind, field) pairs; `None` when the schema
/// does not compile.
fn problem_set(schema: &Value, arguments: &Value) -> Option<BTreeSet<(String, Option<String>)>> {
    let tool = Tool { name: "t".into(), description: None, input_schema: schema.clone() };
    let validator = ArgumentValidator::compile(&tool).ok()?;
    Some(match validator.validate(arguments) {
        Ok(()) => BTreeSet::new(),
        Err(rejection) => rejection.problems.iter().map(|p| (p.kind.as_str().to_string(), p.field.clone())).collect(),
    })
}

/// Keywords that constrain what is inside an array or an object.
const NESTED_KEYWORDS: [&str; 14] = [
    "items",
    "prefixItems",
    "contains",
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "unevaluatedProperties",
];

/// The schema with every constraint inside a root value dropped: validation at the root only.
fn root_only(schema: &Value) -> Value {
    map_parameter_schemas(schema, &|s| strip(s, &NESTED_KEYWORDS))
}

fn strip(schema: &Value, keywords: &[&str]) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !keywords.contains(&k.as_str()))
                .map(|(k, v)| {
                    let v = if matches!(k.as_str(), "anyOf" | "oneOf" | "allOf") {
                        Value::Array(v.as_array().into_iter().flatten().map(|b| strip(b, keywords)).collect())
                    } else {
                        v.clone()
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The schema with every object schema below the root closed when it declares no
/// additionalProperties. An object schema is one that declares properties or whose type is
/// `object` or a list that holds it, wherever it sits (under `items`, a union's branch, `$defs`).
fn nested_closed(schema: &Value) -> Value {
    fn close(schema: &Value) -> Value {
        match schema {
            Value::Object(map) => {
                let mut out: Map<String, Value> = map.iter().map(|(k, v)| (k.clone(), close(v))).collect();
                let typed = match map.get("type") {
                    Some(Value::String(t)) => t == "object",
                    Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
                    _ => false,
                };
                let object = typed || map.contains_key("properties");
                let open = map.contains_key("additionalProperties") || map.contains_key("unevaluatedProperties");
                if object && !open {
                    out.insert("additionalProperties".into(), Value::Bool(false));
                }
                Value::Object(out)
            }
            Value::Array(items) => Value::Array(items.iter().map(close).collect()),
            other => other.clone(),
        }
    }
    map_parameter_schemas(schema, &close)
}

/// The root schema with `f` applied to each schema that describes a root value: the properties,
/// an additionalProperties schema, and the `$defs`/`definitions` they may refer to.
fn map_parameter_schemas(schema: &Value, f: &dyn Fn(&Value) -> Value) -> Value {
    let Value::Object(root) = schema else { return schema.clone() };
    let mut out = root.clone();
    for holder in ["properties", "$defs", "definitions", "patternProperties"] {
        if let Some(Value::Object(children)) = root.get(holder) {
            out.insert(holder.into(), Value::Object(children.iter().map(|(k, v)| (k.clone(), f(v))).collect()));
        }
    }
    if let Some(extra @ Value::Object(_)) = root.get("additionalProperties") {
        out.insert("additionalProperties".into(), f(extra));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn levels(schema: Value, arguments: Value) -> Vec<Reading> {
        of_normalize(&schema, &arguments).iter().collect()
    }

    #[test]
    fn plain_inputs_take_no_reading() {
        let schema = json!({"type": "object", "properties": {"ops": {"type": "array"}, "t": {"type": "string"}}});
        assert_eq!(levels(schema.clone(), json!({"ops": "[1]", "t": "Ember &amp;amp; Oak"})), vec![]);
        assert_eq!(levels(schema, json!({"ops": "null", "x": "[1]"})), vec![]);
    }

    #[test]
    fn readings_are_recorded_where_taken() {
        let schema = json!({"type": "object", "properties": {
            "n": {"type": ["array", "null"]}, "t": {"type": "string"}, "o": {"type": "array"}
        }});
        assert_eq!(levels(schema.clone(), json!({"n": "[1]"})), vec![Reading::DeclaredTypes]);
        assert_eq!(levels(schema.clone(), json!({"t": "R&ampD"})), vec![Reading::ReferenceRecovery]);
        assert_eq!(levels(schema.clone(), json!({"t": "&amp;amp;amp;lt;"})), vec![Reading::DeepEscaping]);
        assert_eq!(levels(schema.clone(), json!({"o": "[&quot;a&quot;]"})), vec![Reading::RepairOrder]);
        assert_eq!(levels(schema.clone(), json!({"o": "[\"[1]\"]"})), vec![Reading::NestedJsonText]);
        assert_eq!(levels(schema, json!({"o": "[1, 1]", "t": "&#39; &#x27; &eacute;"})), vec![]);
    }

    #[test]
    fn validation_readings() {
        let schema = json!({"type": "object", "properties": {
            "n": {"type": "integer"}, "m": {"type": "object", "properties": {"x": {"type": "integer"}}},
            "s": {"type": "string", "minLength": 2}
        }});
        let answer = |args: &Value| {
            let tool = Tool { name: "t".into(), description: None, input_schema: schema.clone() };
            ArgumentValidator::compile(&tool).unwrap().validate(&normalize(&schema, args)).map(|()| args.clone())
        };
        let of = |args: Value| of_invoke(&schema, &args, &answer(&args)).iter().collect::<Vec<_>>();
        assert_eq!(of(json!({"n": "1"})), vec![]);
        let whole: Value = crate::json::from_str(r#"{"n": 1.0}"#).unwrap();
        assert_eq!(of(whole), vec![Reading::WholeFloat]);
        // A double holds -2.5e-400 as -0.0: whether it is an integer is not judged.
        let tiny: Value = crate::json::from_str(r#"{"n": -2.5e-400}"#).unwrap();
        assert_eq!(of_invoke(&schema, &tiny, &answer(&tiny)).level(), Level::Informational);
        assert!(of_invoke(&schema, &tiny, &answer(&tiny)).iter().any(|r| r == Reading::InexactValidated));
        assert_eq!(of(json!({"m": {"x": "1"}})), vec![Reading::NestedValidation]);
        assert_eq!(of(json!({"m": {"y": 1}})), vec![Reading::NestedClosed]);
        assert_eq!(of(json!({"s": "é"})), vec![Reading::CodePoints]);
        assert_eq!(of(Value::Null), vec![Reading::NullRoot]);
        let named = json!({"type": "object", "properties": {"k&amp;": {"type": "string"}}, "required": ["k&amp;"]});
        let tool = Tool { name: "t".into(), description: None, input_schema: named.clone() };
        let rejection = ArgumentValidator::compile(&tool).unwrap().validate(&json!({}));
        let readings: Vec<Reading> = of_invoke(&named, &json!({}), &rejection.map(|()| json!({}))).iter().collect();
        assert_eq!(readings, vec![Reading::NamesInErrors]);
    }
}
