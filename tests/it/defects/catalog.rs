//! The defects: each one behaviour of the reference changed, most of them a behaviour a real
//! framework has (issue 3, "Why"), each declaring the clause it breaks.

use super::harness::{
    Defect, Entry, decode_root, map_leaves, parameter_types, properties, rebuilt, reference_decode, reference_leaf,
};
use serde_json::{Map, Value, json};
use std::cell::Cell;
use std::collections::BTreeSet;
use tool_conformance::reference::entities::{self, MAX_PASSES};
use tool_conformance::reference::normalize::normalize;
use tool_conformance::reference::validate::{Rejection, expected_fields};
use tool_conformance::{Level, Transport, View};

/// Every defect, in clause order.
pub fn all() -> Vec<Entry> {
    use Level::{Interpretation, Required};
    let entry =
        |name, clause, level, behaviour, defect: Box<dyn Defect>| Entry { name, clause, level, behaviour, defect };
    vec![
        // RT-TOOL-8.1: normalization before the tool, against the tool's own schema.
        entry(
            "invoke-skips-normalization",
            "RT-TOOL-8.1",
            Required,
            "normalize is right, but an invoke validates and executes the arguments as sent",
            Box::new(InvokeSkipsNormalization),
        ),
        entry(
            "invoke-normalizes-without-schema",
            "RT-TOOL-8.1",
            Required,
            "an invoke normalizes against an empty object schema instead of the tool's",
            Box::new(InvokeNormalizesWithoutSchema),
        ),
        entry(
            "validates-before-normalizing",
            "RT-TOOL-8.1",
            Required,
            "validation sees the arguments as sent; only the handler gets them normalized",
            Box::new(ValidatesBeforeNormalizing),
        ),
        // RT-TOOL-8.2: decode only declared array/object, valid JSON, the declared shape.
        entry(
            "never-decodes-json",
            "RT-TOOL-8.2",
            Required,
            "no JSON-string decoding at all",
            Box::new(NeverDecodesJson),
        ),
        entry(
            "substitutes-any-json",
            "RT-TOOL-8.2",
            Required,
            "MCP SDK pre-parse: any parameter not declared string gets whatever its text parses to",
            Box::new(SubstitutesAnyJson),
        ),
        entry(
            "decodes-json-scalars",
            "RT-TOOL-8.2",
            Required,
            "\"null\", \"1\", \"true\", \"\\\"[1]\\\"\" sent for array/object parameters are substituted",
            Box::new(DecodesJsonScalars),
        ),
        entry(
            "lenient-json",
            "RT-TOOL-8.2",
            Required,
            "text that fails to parse is repaired (trailing commas dropped, single quotes made double) and parsed again",
            Box::new(LenientJson),
        ),
        entry(
            "entities-before-json",
            "RT-TOOL-8.2",
            Interpretation,
            "references are decoded first and JSON decoding looks at the decoded text",
            Box::new(EntitiesBeforeJson),
        ),
        // RT-TOOL-8.3: string parameters never decoded; a failed condition passes through.
        entry(
            "decodes-string-params",
            "RT-TOOL-8.3",
            Required,
            "a parameter declared string is decoded when its text parses to an array or object",
            Box::new(DecodesStringParams),
        ),
        entry(
            "decodes-optional-str",
            "RT-TOOL-8.3",
            Required,
            "MCP SDK: a [string, null] parameter is decoded (\"null\" becomes null, \"[1]\" becomes [1])",
            Box::new(DecodesOptionalStr),
        ),
        entry(
            "decodes-undeclared-params",
            "RT-TOOL-8.3",
            Required,
            "array or object text for a parameter the schema does not declare is decoded",
            Box::new(DecodesUndeclaredParams),
        ),
        // RT-TOOL-8.4: every string leaf, every reference, to a fixpoint.
        entry(
            "single-entity-pass",
            "RT-TOOL-8.4",
            Required,
            "one decoding pass: doubly escaped text resolves one level short",
            Box::new(SingleEntityPass),
        ),
        entry(
            "five-entities-amp-last",
            "RT-TOOL-8.4",
            Required,
            "coding agents: &lt; &gt; &quot; &#39; &amp; replaced once, &amp; last (\"&amp;lt;\" ends \"&lt;\")",
            Box::new(FiveEntitiesAmpLast),
        ),
        entry(
            "five-entities-to-fixpoint",
            "RT-TOOL-8.4",
            Required,
            "only the five XML references, though repeated to a fixpoint (no &eacute;, &nbsp;, numeric)",
            Box::new(FiveEntitiesToFixpoint),
        ),
        entry(
            "no-numeric-references",
            "RT-TOOL-8.4",
            Required,
            "named references decode, decimal and hex references (&#39; &#x27;) do not",
            Box::new(NoNumericReferences),
        ),
        entry(
            "root-leaves-only",
            "RT-TOOL-8.4",
            Required,
            "only root string values are decoded, not leaves inside arrays or nested objects",
            Box::new(RootLeavesOnly),
        ),
        entry(
            "skips-json-produced-strings",
            "RT-TOOL-8.4",
            Required,
            "strings that JSON decoding produced are not entity-decoded",
            Box::new(SkipsJsonProducedStrings),
        ),
        // RT-TOOL-8.5: keys never modified, text without references unchanged.
        entry("decodes-keys", "RT-TOOL-8.5", Required, "object keys are entity-decoded too", Box::new(DecodesKeys)),
        entry(
            "trims-strings",
            "RT-TOOL-8.5",
            Required,
            "every string leaf is trimmed of surrounding whitespace",
            Box::new(TrimsStrings),
        ),
        entry(
            "normalizes-unicode",
            "RT-TOOL-8.5",
            Required,
            "text with no reference is Unicode-normalized: accented letters decomposed (NFD), U+00A0 made a space",
            Box::new(NormalizesUnicode),
        ),
        entry(
            "invoke-decodes-nested-keys",
            "RT-TOOL-8.5",
            Required,
            "normalize is right, but an invoke's own decoder also entity-decodes keys below the root (root keys kept)",
            Box::new(InvokeDecodesNestedKeys),
        ),
        // PLAT-162.one-schema: every view and transport uses the registered schema.
        entry(
            "spec-publishes-closed-copy",
            "PLAT-162.one-schema",
            Interpretation,
            "get_api_spec publishes the enforced copy, with additionalProperties: false added",
            Box::new(SpecPublishesClosedCopy),
        ),
        entry(
            "spec-generated-from-signature",
            "PLAT-162.one-schema",
            Required,
            "MCP Python SDK: get_api_spec publishes a schema generated from a function signature: titles added, keywords outside the problem classes (pattern, maximum, maxLength) dropped, optional fields made nullable",
            Box::new(SpecGeneratedFromSignature),
        ),
        entry(
            "spec-drops-anyof",
            "PLAT-162.one-schema",
            Required,
            "get_api_spec publishes the schema without its root anyOf/oneOf",
            Box::new(SpecDropsAnyOf),
        ),
        entry(
            "direct-view-strict",
            "PLAT-162.one-schema",
            Required,
            "the direct tool definition drifts: every property made required and the root closed (strict mode)",
            Box::new(DirectViewStrict),
        ),
        entry(
            "structured-stale-copy",
            "PLAT-162.one-schema",
            Required,
            "the structured transport validates against its own copy of the schema, without `required`",
            Box::new(StructuredStaleCopy),
        ),
        entry(
            "views-flatten-nested-objects",
            "PLAT-162.one-schema",
            Required,
            "both views publish an object property as a bare {type: object}: its properties, required names and closure dropped",
            Box::new(ViewsFlattenNestedObjects),
        ),
        entry(
            "views-drop-proto-property",
            "PLAT-162.one-schema",
            Required,
            "both views copy properties into a JavaScript object by assignment, so a property named __proto__ is lost",
            Box::new(ViewsDropProtoProperty),
        ),
        // PLAT-162.before-handler: validation first, on every transport.
        entry(
            "direct-only-validation",
            "PLAT-162.before-handler",
            Required,
            "only the direct transport validates; structured and http execute unvalidated",
            Box::new(DirectOnlyValidation),
        ),
        entry(
            "handler-before-validation",
            "PLAT-162.before-handler",
            Required,
            "the handler runs before validation: rejected calls still reach it once",
            Box::new(HandlerBeforeValidation),
        ),
        // PLAT-162.closed-root: unknown names rejected unless additionalProperties is declared.
        entry(
            "strips-unknown-fields",
            "PLAT-162.closed-root",
            Required,
            "Zod strip / MCP SDK: unknown root names are dropped and the call executes",
            Box::new(StripsUnknownFields),
        ),
        entry(
            "open-root",
            "PLAT-162.closed-root",
            Required,
            "Ajv: the root is open unless the schema says additionalProperties: false",
            Box::new(OpenRoot),
        ),
        entry(
            "ignores-additional-properties-schema",
            "PLAT-162.closed-root",
            Interpretation,
            "an additionalProperties schema is treated as true: extra values are not validated",
            Box::new(IgnoresAdditionalPropertiesSchema),
        ),
        entry(
            "closes-declared-open-root",
            "PLAT-162.closed-root",
            Required,
            "additionalProperties: true is overridden: the root is closed anyway",
            Box::new(ClosesDeclaredOpenRoot),
        ),
        // PLAT-162.problem-classes: every class enforced.
        entry(
            "lax-coercion",
            "PLAT-162.problem-classes",
            Required,
            "pydantic lax mode: \"10\" becomes 10 and \"true\" becomes true for integer, number and boolean parameters",
            Box::new(LaxCoercion),
        ),
        entry(
            "bool-is-integer",
            "PLAT-162.problem-classes",
            Required,
            "Python's isinstance(True, int): a boolean passes as an integer or number",
            Box::new(BoolIsInteger),
        ),
        entry(
            "inherited-members-present",
            "PLAT-162.problem-classes",
            Required,
            "Ajv on a plain JavaScript object: a declared constructor, toString or valueOf that the call leaves out is read from the prototype, a function, so it counts as present and of the wrong type",
            Box::new(InheritedMembersPresent),
        ),
        entry(
            "ignores-min-length",
            "PLAT-162.problem-classes",
            Required,
            "minLength is not enforced",
            Box::new(IgnoresMinLength),
        ),
        entry(
            "ignores-enums",
            "PLAT-162.problem-classes",
            Required,
            "enum and const are not enforced",
            Box::new(IgnoresEnums),
        ),
        entry(
            "ignores-anyof-required",
            "PLAT-162.problem-classes",
            Required,
            "the root anyOf/oneOf required-field sets are not enforced",
            Box::new(IgnoresAnyOfRequired),
        ),
        entry(
            "non-object-root-as-empty",
            "PLAT-162.problem-classes",
            Required,
            "a root that is not an object (array, string, null) is treated as {}",
            Box::new(NonObjectRootAsEmpty),
        ),
        // PLAT-162.one-error: one deterministic error naming everything, with get_api_spec.
        entry(
            "first-problem-only",
            "PLAT-162.one-error",
            Required,
            "Zod-like: the error reports only the first problem",
            Box::new(FirstProblemOnly),
        ),
        entry(
            "message-without-get-api-spec",
            "PLAT-162.one-error",
            Required,
            "the message does not point to get_api_spec",
            Box::new(MessageWithoutGetApiSpec),
        ),
        entry(
            "message-omits-fields",
            "PLAT-162.one-error",
            Interpretation,
            "the message says the arguments are invalid without naming fields",
            Box::new(MessageOmitsFields),
        ),
        entry(
            "expected-fields-from-properties",
            "PLAT-162.one-error",
            Interpretation,
            "expected_fields lists only properties, omitting required names the schema does not declare",
            Box::new(ExpectedFieldsFromProperties),
        ),
        entry(
            "problems-in-argument-order",
            "PLAT-162.one-error",
            Interpretation,
            "problems are listed in the order their fields arrive, so permuted keys give another error",
            Box::new(ProblemsInArgumentOrder),
        ),
        entry(
            "order-varies-between-calls",
            "PLAT-162.one-error",
            Required,
            "every other rejection lists its problems in reverse order",
            Box::<OrderVariesBetweenCalls>::default(),
        ),
        entry(
            "error-names-transport",
            "PLAT-162.one-error",
            Interpretation,
            "the http bridge prefixes its message with the status line",
            Box::new(ErrorNamesTransport),
        ),
        // PLAT-162.unchanged: valid calls reach the handler exactly as sent.
        entry(
            "drops-null-fields",
            "PLAT-162.unchanged",
            Required,
            "root fields whose value is null are dropped on the way to the handler",
            Box::new(DropsNullFields),
        ),
        entry(
            "http-stringifies-scalars",
            "PLAT-162.unchanged",
            Required,
            "the http bridge hands the handler root numbers and booleans as strings",
            Box::new(HttpStringifiesScalars),
        ),
        entry(
            "injects-defaults",
            "PLAT-162.unchanged",
            Interpretation,
            "schema defaults are filled in for absent root fields",
            Box::new(InjectsDefaults),
        ),
        // PLAT-162.scenarios: the ticket's two calls.
        entry(
            "renames-near-miss-fields",
            "PLAT-162.scenarios",
            Required,
            "an unknown name is renamed to the one expected field ending in _<name> (step_id to existing_step_id)",
            Box::new(RenamesNearMissFields),
        ),
        entry(
            "skips-empty-arguments",
            "PLAT-162.scenarios",
            Required,
            "an empty argument object is not validated",
            Box::new(SkipsEmptyArguments),
        ),
    ]
}

// RT-TOOL-8.1

struct InvokeSkipsNormalization;
impl Defect for InvokeSkipsNormalization {
    fn executor_normalize(&self, _schema: &Value, arguments: &Value) -> Value {
        arguments.clone()
    }
}

struct InvokeNormalizesWithoutSchema;
impl Defect for InvokeNormalizesWithoutSchema {
    fn executor_normalize(&self, _schema: &Value, arguments: &Value) -> Value {
        normalize(&json!({"type": "object"}), arguments)
    }
}

struct ValidatesBeforeNormalizing;
impl Defect for ValidatesBeforeNormalizing {
    fn validation_view(&self, _schema: &Value, raw: &Value, _prepared: &Value) -> Value {
        raw.clone()
    }
}

// RT-TOOL-8.2

struct NeverDecodesJson;
impl Defect for NeverDecodesJson {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        rebuilt(schema, arguments, &|_, _| None, &reference_leaf)
    }
}

struct SubstitutesAnyJson;
impl Defect for SubstitutesAnyJson {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        let decode = |declared: Option<&BTreeSet<String>>, text: &str| {
            declared.filter(|d| !d.contains("string"))?;
            tool_conformance::json::from_str(text).ok()
        };
        rebuilt(schema, arguments, &decode, &reference_leaf)
    }
}

struct DecodesJsonScalars;
impl Defect for DecodesJsonScalars {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        let decode = |declared: Option<&BTreeSet<String>>, text: &str| {
            let shaped = declared.filter(|d| !d.contains("string") && (d.contains("array") || d.contains("object")))?;
            match tool_conformance::json::from_str::<Value>(text).ok()? {
                Value::Array(_) | Value::Object(_) => reference_decode(Some(shaped), text),
                scalar => Some(scalar),
            }
        };
        rebuilt(schema, arguments, &decode, &reference_leaf)
    }
}

struct LenientJson;
impl Defect for LenientJson {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        let decode = |declared: Option<&BTreeSet<String>>, text: &str| {
            reference_decode(declared, text).or_else(|| reference_decode(declared, &repair_json(text)))
        };
        rebuilt(schema, arguments, &decode, &reference_leaf)
    }
}

/// A "JSON repair" pass: single quotes become double, commas before a closing bracket go.
fn repair_json(text: &str) -> String {
    let quoted = text.replace('\'', "\"");
    let mut out = String::with_capacity(quoted.len());
    let chars: Vec<char> = quoted.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if *c == ',' {
            let next = chars[i + 1..].iter().find(|n| !n.is_whitespace());
            if matches!(next, Some(']' | '}')) {
                continue;
            }
        }
        out.push(*c);
    }
    out
}

struct EntitiesBeforeJson;
impl Defect for EntitiesBeforeJson {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        let unescaped = map_leaves(arguments.clone(), &reference_leaf);
        decode_root(schema, &unescaped, &reference_decode)
    }
}

// RT-TOOL-8.3

struct DecodesStringParams;
impl Defect for DecodesStringParams {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        let decode = |declared: Option<&BTreeSet<String>>, text: &str| match declared {
            Some(d) if d.contains("string") => match tool_conformance::json::from_str::<Value>(text).ok()? {
                parsed @ (Value::Array(_) | Value::Object(_)) => Some(parsed),
                _ => None,
            },
            other => reference_decode(other, text),
        };
        rebuilt(schema, arguments, &decode, &reference_leaf)
    }
}

struct DecodesOptionalStr;
impl Defect for DecodesOptionalStr {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        let decode = |declared: Option<&BTreeSet<String>>, text: &str| match declared {
            Some(d) if d.contains("string") && d.contains("null") => tool_conformance::json::from_str(text).ok(),
            other => reference_decode(other, text),
        };
        rebuilt(schema, arguments, &decode, &reference_leaf)
    }
}

struct DecodesUndeclaredParams;
impl Defect for DecodesUndeclaredParams {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        let decode = |declared: Option<&BTreeSet<String>>, text: &str| match declared {
            None => match tool_conformance::json::from_str::<Value>(text).ok()? {
                parsed @ (Value::Array(_) | Value::Object(_)) => Some(parsed),
                _ => None,
            },
            some => reference_decode(some, text),
        };
        rebuilt(schema, arguments, &decode, &reference_leaf)
    }
}

// RT-TOOL-8.4

struct SingleEntityPass;
impl Defect for SingleEntityPass {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        rebuilt(schema, arguments, &reference_decode, &|text| entities::decode_once(text).into_owned())
    }
}

/// The five XML references, replaced once each, `&amp;` last.
fn five_entities(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

struct FiveEntitiesAmpLast;
impl Defect for FiveEntitiesAmpLast {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        rebuilt(schema, arguments, &reference_decode, &five_entities)
    }
}

struct FiveEntitiesToFixpoint;
impl Defect for FiveEntitiesToFixpoint {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        let leaf = |text: &str| {
            let mut current = text.to_string();
            for _ in 0..MAX_PASSES {
                let next = five_entities(&current);
                if next == current {
                    break;
                }
                current = next;
            }
            current
        };
        rebuilt(schema, arguments, &reference_decode, &leaf)
    }
}

struct NoNumericReferences;
impl Defect for NoNumericReferences {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        // A private-use character hides "&#" from each pass.
        const HIDDEN: &str = "\u{f8ff}#";
        let leaf = |text: &str| {
            let mut current = text.to_string();
            for _ in 0..MAX_PASSES {
                let next = entities::decode_once(&current.replace("&#", HIDDEN)).replace(HIDDEN, "&#");
                if next == current {
                    break;
                }
                current = next;
            }
            current
        };
        rebuilt(schema, arguments, &reference_decode, &leaf)
    }
}

struct RootLeavesOnly;
impl Defect for RootLeavesOnly {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        match decode_root(schema, arguments, &reference_decode) {
            Value::Object(map) => Value::Object(
                map.into_iter()
                    .map(|(name, value)| match value {
                        Value::String(text) => (name, Value::String(reference_leaf(&text))),
                        other => (name, other),
                    })
                    .collect(),
            ),
            Value::String(text) => Value::String(reference_leaf(&text)),
            other => other,
        }
    }
}

struct SkipsJsonProducedStrings;
impl Defect for SkipsJsonProducedStrings {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        let Value::Object(map) = arguments else {
            return map_leaves(arguments.clone(), &reference_leaf);
        };
        let decoded = map.iter().map(|(name, value)| {
            let from_json =
                value.as_str().and_then(|text| reference_decode(parameter_types(schema, name).as_ref(), text));
            let value = from_json.unwrap_or_else(|| map_leaves(value.clone(), &reference_leaf));
            (name.clone(), value)
        });
        Value::Object(decoded.collect())
    }
}

// RT-TOOL-8.5

struct DecodesKeys;
impl Defect for DecodesKeys {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        fn keys(value: Value) -> Value {
            match value {
                Value::Array(items) => Value::Array(items.into_iter().map(keys).collect()),
                Value::Object(map) => {
                    Value::Object(map.into_iter().map(|(k, v)| (reference_leaf(&k), keys(v))).collect())
                }
                other => other,
            }
        }
        keys(normalize(schema, arguments))
    }
}

struct InvokeDecodesNestedKeys;
impl Defect for InvokeDecodesNestedKeys {
    fn executor_normalize(&self, schema: &Value, arguments: &Value) -> Value {
        fn keys(value: Value) -> Value {
            match value {
                Value::Array(items) => Value::Array(items.into_iter().map(keys).collect()),
                Value::Object(map) => {
                    Value::Object(map.into_iter().map(|(k, v)| (reference_leaf(&k), keys(v))).collect())
                }
                other => other,
            }
        }
        match normalize(schema, arguments) {
            Value::Object(root) => Value::Object(root.into_iter().map(|(k, v)| (k, keys(v))).collect()),
            other => other,
        }
    }
}

struct TrimsStrings;
impl Defect for TrimsStrings {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        rebuilt(schema, arguments, &reference_decode, &|text| reference_leaf(text.trim()))
    }
}

struct NormalizesUnicode;
impl Defect for NormalizesUnicode {
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        let leaf = |text: &str| if text.contains('&') { reference_leaf(text) } else { decompose(text) };
        rebuilt(schema, arguments, &reference_decode, &leaf)
    }
}

/// A little NFD (Latin-1 letters with an acute, grave, circumflex, diaeresis or tilde, and ç),
/// with U+00A0 made an ordinary space.
fn decompose(text: &str) -> String {
    const BASES: [(&str, char); 5] = [
        ("ÁÉÍÓÚáéíóú", '\u{301}'),
        ("ÀÈÌÒÙàèìòù", '\u{300}'),
        ("ÂÊÎÔÛâêîôû", '\u{302}'),
        ("ÄËÏÖÜäëïöüÿ", '\u{308}'),
        ("ÃÑÕãñõ", '\u{303}'),
    ];
    const PLAIN: [&str; 5] = ["AEIOUaeiou", "AEIOUaeiou", "AEIOUaeiou", "AEIOUaeiouy", "ANOano"];
    let mut out = String::with_capacity(text.len() + 8);
    'chars: for c in text.chars() {
        match c {
            '\u{a0}' => out.push(' '),
            'ç' => out.push_str("c\u{327}"),
            'Ç' => out.push_str("C\u{327}"),
            _ => {
                for ((accented, mark), plain) in BASES.iter().zip(PLAIN) {
                    if let Some(i) = accented.chars().position(|a| a == c) {
                        out.extend(plain.chars().nth(i));
                        out.push(*mark);
                        continue 'chars;
                    }
                }
                out.push(c);
            }
        }
    }
    out
}

// PLAT-162.one-schema

/// A schema with `edit` applied when it is an object.
fn edited(mut schema: Value, edit: impl FnOnce(&mut Map<String, Value>)) -> Value {
    if let Value::Object(map) = &mut schema {
        edit(map);
    }
    schema
}

struct SpecPublishesClosedCopy;
impl Defect for SpecPublishesClosedCopy {
    fn describe(&self, view: View, published: Value) -> Value {
        if view != View::GetApiSpec {
            return published;
        }
        edited(published, |map| {
            map.entry("additionalProperties").or_insert(Value::Bool(false));
        })
    }
}

struct SpecGeneratedFromSignature;
impl Defect for SpecGeneratedFromSignature {
    fn describe(&self, view: View, published: Value) -> Value {
        if view != View::GetApiSpec {
            return published;
        }
        let required: BTreeSet<String> = published
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).map(str::to_string).collect())
            .unwrap_or_default();
        edited(published, |map| {
            map.insert("title".into(), json!("toolArguments"));
            if let Some(Value::Object(properties)) = map.get_mut("properties") {
                for (name, schema) in properties.iter_mut() {
                    let Value::Object(fields) = schema else { continue };
                    for keyword in ["pattern", "maximum", "maxLength"] {
                        fields.remove(keyword);
                    }
                    fields.insert("title".into(), json!(name));
                    if !required.contains(name) {
                        let typed = Value::Object(std::mem::take(fields));
                        fields.insert("anyOf".into(), json!([typed, {"type": "null"}]));
                    }
                }
            }
        })
    }
}

struct SpecDropsAnyOf;
impl Defect for SpecDropsAnyOf {
    fn describe(&self, view: View, published: Value) -> Value {
        if view != View::GetApiSpec {
            return published;
        }
        edited(published, |map| {
            map.remove("anyOf");
            map.remove("oneOf");
        })
    }
}

struct DirectViewStrict;
impl Defect for DirectViewStrict {
    fn describe(&self, view: View, published: Value) -> Value {
        if view != View::Direct {
            return published;
        }
        let names: Vec<Value> = properties(&published).keys().map(|k| json!(k)).collect();
        edited(published, |map| {
            map.insert("required".into(), Value::Array(names));
            map.insert("additionalProperties".into(), Value::Bool(false));
        })
    }
}

struct ViewsFlattenNestedObjects;
impl Defect for ViewsFlattenNestedObjects {
    fn describe(&self, _view: View, published: Value) -> Value {
        edited(published, |map| {
            if let Some(Value::Object(properties)) = map.get_mut("properties") {
                for schema in properties.values_mut() {
                    if schema.get("type") == Some(&json!("object")) && schema.get("properties").is_some() {
                        *schema = json!({"type": "object"});
                    }
                }
            }
        })
    }
}

struct ViewsDropProtoProperty;
impl Defect for ViewsDropProtoProperty {
    fn describe(&self, _view: View, published: Value) -> Value {
        edited(published, |map| {
            if let Some(Value::Object(properties)) = map.get_mut("properties") {
                properties.remove("__proto__");
            }
        })
    }
}

struct StructuredStaleCopy;
impl Defect for StructuredStaleCopy {
    fn enforced_schema(&self, schema: &Value, transport: Transport) -> Value {
        if transport != Transport::Structured {
            return schema.clone();
        }
        edited(schema.clone(), |map| {
            map.remove("required");
        })
    }
}

// PLAT-162.before-handler

struct DirectOnlyValidation;
impl Defect for DirectOnlyValidation {
    fn validates(&self, transport: Transport, _prepared: &Value) -> bool {
        transport == Transport::Direct
    }
}

struct HandlerBeforeValidation;
impl Defect for HandlerBeforeValidation {
    fn handler_first(&self) -> bool {
        true
    }
}

// PLAT-162.closed-root

struct StripsUnknownFields;
impl Defect for StripsUnknownFields {
    fn before_validation(&self, schema: &Value, arguments: Value) -> Value {
        match arguments {
            Value::Object(map) if schema.get("additionalProperties").is_none() => {
                let known = expected_fields(schema);
                Value::Object(map.into_iter().filter(|(name, _)| known.contains(name)).collect())
            }
            other => other,
        }
    }
}

struct OpenRoot;
impl Defect for OpenRoot {
    fn enforced_schema(&self, schema: &Value, _transport: Transport) -> Value {
        edited(schema.clone(), |map| {
            map.entry("additionalProperties").or_insert(Value::Bool(true));
        })
    }
}

struct IgnoresAdditionalPropertiesSchema;
impl Defect for IgnoresAdditionalPropertiesSchema {
    fn enforced_schema(&self, schema: &Value, _transport: Transport) -> Value {
        edited(schema.clone(), |map| {
            if map.get("additionalProperties").is_some_and(Value::is_object) {
                map.insert("additionalProperties".into(), Value::Bool(true));
            }
        })
    }
}

struct ClosesDeclaredOpenRoot;
impl Defect for ClosesDeclaredOpenRoot {
    fn enforced_schema(&self, schema: &Value, _transport: Transport) -> Value {
        edited(schema.clone(), |map| {
            if map.get("additionalProperties") == Some(&Value::Bool(true)) {
                map.remove("additionalProperties");
            }
        })
    }
}

// PLAT-162.problem-classes

/// The declared types of each root property.
fn root_types(schema: &Value) -> impl Fn(&str) -> BTreeSet<String> + '_ {
    move |name| parameter_types(schema, name).unwrap_or_default()
}

struct LaxCoercion;
impl Defect for LaxCoercion {
    fn before_validation(&self, schema: &Value, arguments: Value) -> Value {
        let types = root_types(schema);
        let Value::Object(map) = arguments else {
            return arguments;
        };
        let coerce = |name: &str, value: Value| {
            let declared = types(name);
            let Value::String(text) = &value else {
                return value;
            };
            if declared.contains("string") {
                return value;
            }
            if declared.contains("integer") || declared.contains("number") {
                if let Ok(Value::Number(n)) = tool_conformance::json::from_str::<Value>(text.trim()) {
                    return Value::Number(n);
                }
            }
            match (declared.contains("boolean"), text.as_str()) {
                (true, "true") => Value::Bool(true),
                (true, "false") => Value::Bool(false),
                _ => value,
            }
        };
        Value::Object(map.into_iter().map(|(name, value)| (name.clone(), coerce(&name, value))).collect())
    }
}

struct InheritedMembersPresent;
impl Defect for InheritedMembersPresent {
    fn validation_view(&self, schema: &Value, _raw: &Value, prepared: &Value) -> Value {
        let Value::Object(map) = prepared else {
            return prepared.clone();
        };
        let mut seen = map.clone();
        for name in ["constructor", "toString", "valueOf", "hasOwnProperty"] {
            if schema.pointer(&format!("/properties/{name}")).is_some() && !seen.contains_key(name) {
                // A function is no JSON value; an empty object stands for it (neither string,
                // number nor boolean).
                seen.insert(name.into(), json!({}));
            }
        }
        Value::Object(seen)
    }
}

struct BoolIsInteger;
impl Defect for BoolIsInteger {
    fn validation_view(&self, schema: &Value, _raw: &Value, prepared: &Value) -> Value {
        let types = root_types(schema);
        let Value::Object(map) = prepared else {
            return prepared.clone();
        };
        let as_int = |name: &str, value: &Value| match value {
            Value::Bool(b) => {
                let declared = types(name);
                let numeric = declared.contains("integer") || declared.contains("number");
                if numeric && !declared.contains("boolean") { json!(u8::from(*b)) } else { value.clone() }
            }
            other => other.clone(),
        };
        Value::Object(map.iter().map(|(name, value)| (name.clone(), as_int(name, value))).collect())
    }
}

/// `keyword` removed from every schema object, at any depth.
fn without_keyword(schema: &Value, keyword: &str) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != keyword)
                .map(|(k, v)| (k.clone(), without_keyword(v, keyword)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| without_keyword(v, keyword)).collect()),
        other => other.clone(),
    }
}

struct IgnoresMinLength;
impl Defect for IgnoresMinLength {
    fn enforced_schema(&self, schema: &Value, _transport: Transport) -> Value {
        without_keyword(schema, "minLength")
    }
}

struct IgnoresEnums;
impl Defect for IgnoresEnums {
    fn enforced_schema(&self, schema: &Value, _transport: Transport) -> Value {
        without_keyword(&without_keyword(schema, "enum"), "const")
    }
}

struct IgnoresAnyOfRequired;
impl Defect for IgnoresAnyOfRequired {
    fn enforced_schema(&self, schema: &Value, _transport: Transport) -> Value {
        edited(schema.clone(), |map| {
            // Names only the branches require stay allowed by the closed root.
            let fields = expected_fields(&Value::Object(map.clone()));
            map.remove("anyOf");
            map.remove("oneOf");
            let declared = map.entry("properties").or_insert_with(|| json!({}));
            if let Value::Object(declared) = declared {
                for name in fields {
                    declared.entry(name).or_insert(Value::Bool(true));
                }
            }
        })
    }
}

struct NonObjectRootAsEmpty;
impl Defect for NonObjectRootAsEmpty {
    fn before_validation(&self, _schema: &Value, arguments: Value) -> Value {
        if arguments.is_object() { arguments } else { json!({}) }
    }
}

// PLAT-162.one-error

struct FirstProblemOnly;
impl Defect for FirstProblemOnly {
    fn error(&self, _transport: Transport, _schema: &Value, _raw: &Value, mut rejection: Rejection) -> Value {
        rejection.problems.truncate(1);
        rejection.to_json()
    }
}

/// The error object with its message edited.
fn with_message(rejection: &Rejection, edit: impl FnOnce(String) -> String) -> Value {
    let mut error = rejection.to_json();
    error["message"] = Value::String(edit(rejection.message()));
    error
}

struct MessageWithoutGetApiSpec;
impl Defect for MessageWithoutGetApiSpec {
    fn error(&self, _transport: Transport, _schema: &Value, _raw: &Value, rejection: Rejection) -> Value {
        with_message(&rejection, |m| m.replace(" Call get_api_spec for the tool's schema.", ""))
    }
}

struct MessageOmitsFields;
impl Defect for MessageOmitsFields {
    fn error(&self, _transport: Transport, _schema: &Value, _raw: &Value, rejection: Rejection) -> Value {
        let tool = rejection.tool.clone();
        with_message(&rejection, |_| {
            format!("invalid arguments for tool `{tool}`. Call get_api_spec for the tool's schema.")
        })
    }
}

struct ExpectedFieldsFromProperties;
impl Defect for ExpectedFieldsFromProperties {
    fn error(&self, _transport: Transport, schema: &Value, _raw: &Value, mut rejection: Rejection) -> Value {
        rejection.expected_fields = properties(schema).keys().cloned().collect();
        rejection.expected_fields.sort();
        rejection.to_json()
    }
}

struct ProblemsInArgumentOrder;
impl Defect for ProblemsInArgumentOrder {
    fn error(&self, _transport: Transport, _schema: &Value, raw: &Value, mut rejection: Rejection) -> Value {
        let position = |field: &Option<String>| {
            let mut keys = raw.as_object().into_iter().flat_map(Map::keys);
            field.as_ref().and_then(|f| keys.position(|k| k == f)).unwrap_or(usize::MAX)
        };
        rejection.problems.sort_by_key(|p| position(&p.field));
        rejection.to_json()
    }
}

#[derive(Default)]
struct OrderVariesBetweenCalls {
    rejections: Cell<u64>,
}
impl Defect for OrderVariesBetweenCalls {
    fn error(&self, _transport: Transport, _schema: &Value, _raw: &Value, mut rejection: Rejection) -> Value {
        let n = self.rejections.get();
        self.rejections.set(n + 1);
        if n % 2 == 1 {
            rejection.problems.reverse();
        }
        rejection.to_json()
    }
}

struct ErrorNamesTransport;
impl Defect for ErrorNamesTransport {
    fn error(&self, transport: Transport, _schema: &Value, _raw: &Value, rejection: Rejection) -> Value {
        if transport != Transport::Http {
            return rejection.to_json();
        }
        with_message(&rejection, |m| format!("HTTP 400 Bad Request: {m}"))
    }
}

// PLAT-162.unchanged

struct DropsNullFields;
impl Defect for DropsNullFields {
    fn received(&self, _transport: Transport, _schema: &Value, prepared: Value) -> Value {
        match prepared {
            Value::Object(map) => Value::Object(map.into_iter().filter(|(_, v)| !v.is_null()).collect()),
            other => other,
        }
    }
}

struct HttpStringifiesScalars;
impl Defect for HttpStringifiesScalars {
    fn received(&self, transport: Transport, _schema: &Value, prepared: Value) -> Value {
        match prepared {
            Value::Object(map) if transport == Transport::Http => Value::Object(
                map.into_iter()
                    .map(|(k, v)| match v {
                        Value::Number(_) | Value::Bool(_) => (k, Value::String(v.to_string())),
                        other => (k, other),
                    })
                    .collect(),
            ),
            other => other,
        }
    }
}

struct InjectsDefaults;
impl Defect for InjectsDefaults {
    fn received(&self, _transport: Transport, schema: &Value, prepared: Value) -> Value {
        match prepared {
            Value::Object(mut map) => {
                for (name, property) in properties(schema) {
                    if let Some(default) = property.get("default") {
                        map.entry(name).or_insert_with(|| default.clone());
                    }
                }
                Value::Object(map)
            }
            other => other,
        }
    }
}

// PLAT-162.scenarios

struct RenamesNearMissFields;
impl Defect for RenamesNearMissFields {
    fn before_validation(&self, schema: &Value, arguments: Value) -> Value {
        let Value::Object(map) = arguments else {
            return arguments;
        };
        if schema.get("additionalProperties").is_some() {
            return Value::Object(map);
        }
        let known = expected_fields(schema);
        let rename = |name: &str| -> Option<String> {
            if known.iter().any(|k| k == name) {
                return None;
            }
            let suffix = format!("_{name}");
            let mut candidates = known.iter().filter(|k| k.ends_with(&suffix));
            match (candidates.next(), candidates.next()) {
                (Some(only), None) if !map.contains_key(only.as_str()) => Some(only.clone()),
                _ => None,
            }
        };
        let renamed: Map<String, Value> =
            map.iter().map(|(name, value)| (rename(name).unwrap_or_else(|| name.clone()), value.clone())).collect();
        Value::Object(renamed)
    }
}

struct SkipsEmptyArguments;
impl Defect for SkipsEmptyArguments {
    fn validates(&self, _transport: Transport, prepared: &Value) -> bool {
        prepared.as_object().is_none_or(|map| !map.is_empty())
    }
}
