//! PLAT-162's validation: one tool's arguments checked against its registered schema, and the one
//! deterministic error a rejected call gets.
//!
//! The validator is compiled once, when the tool is registered. The root object is closed unless
//! the schema declares `additionalProperties` itself: the compiled copy allows exactly the
//! expected fields (the root properties, plus names that the root `required` or a root
//! `anyOf`/`oneOf` branch requires without declaring them) and gets `additionalProperties: false`.
//! The registered schema itself is never changed. jsonschema does the
//! validating; each of its errors becomes a problem about a root field:
//!
//! | problem kind | from |
//! |---|---|
//! | `missing_required` | a `required` name that is absent |
//! | `unknown_field` | a root name the closed root does not allow |
//! | `wrong_type` | a value of the wrong JSON type (or a root that is not an object) |
//! | `not_in_enum` | a value outside `enum` (or unequal to `const`) |
//! | `too_short` | a string shorter than `minLength` code points |
//! | `no_alternative` | none of the root `anyOf`/`oneOf` required-field sets is satisfied |
//! | `invalid_value` | any other keyword (outside the rule's classes; reported, never dropped) |
//!
//! A problem found inside a root value (a nested object or array item) is named by the root field
//! that holds it. Problems are sorted, so the same arguments give the
//! same error bytes whatever their key order and whatever transport carried them.

use crate::case::tool::Tool;
use jsonschema::error::ValidationErrorKind as Kind;
use jsonschema::paths::LocationSegment;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// A tool's compiled argument validator.
pub struct ArgumentValidator {
    tool: String,
    schema: Value,
    compiled: jsonschema::Validator,
    expected_fields: Vec<String>,
}

/// One problem with a call's arguments.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    /// The problem class (sorting by it puts the classes in the table's order).
    pub kind: ProblemKind,
    /// The root field, when the problem is about one.
    pub field: Option<String>,
    /// For [`ProblemKind::NoAlternative`]: the required-field sets.
    pub alternatives: Vec<Vec<String>>,
}

/// The problem classes, in the order errors list them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum ProblemKind {
    MissingRequired,
    UnknownField,
    WrongType,
    NotInEnum,
    TooShort,
    NoAlternative,
    InvalidValue,
}

impl ProblemKind {
    /// The kind's name in error objects.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemKind::MissingRequired => "missing_required",
            ProblemKind::UnknownField => "unknown_field",
            ProblemKind::WrongType => "wrong_type",
            ProblemKind::NotInEnum => "not_in_enum",
            ProblemKind::TooShort => "too_short",
            ProblemKind::NoAlternative => "no_alternative",
            ProblemKind::InvalidValue => "invalid_value",
        }
    }
}

/// The one error of a rejected call.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejection {
    /// The tool called.
    pub tool: String,
    /// Every problem, sorted.
    pub problems: Vec<Problem>,
    /// The fields the tool expects, sorted.
    pub expected_fields: Vec<String>,
}

/// Why a tool cannot be registered with the reference, with the tool's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tool {tool}: {kind}")]
pub struct RegistrationError {
    /// The tool's name.
    pub tool: String,
    /// What is wrong.
    pub kind: RegistrationErrorKind,
}

/// What makes a tool unregistrable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistrationErrorKind {
    /// Its input schema does not compile as JSON Schema.
    #[error("its input schema does not compile: {0}")]
    Schema(String),
    /// Another tool of the set has its name.
    #[error("it is registered twice")]
    Twice,
}

impl ArgumentValidator {
    /// Compiles a tool's schema, closing its root unless it declares `additionalProperties`.
    pub fn compile(tool: &Tool) -> Result<ArgumentValidator, RegistrationError> {
        let expected_fields = expected_fields(&tool.input_schema);
        let mut enforced = tool.input_schema.clone();
        if let Value::Object(map) = &mut enforced {
            if !map.contains_key("additionalProperties") {
                // Closed: the known names are the expected fields, which include required names
                // the schema forgot to declare in properties.
                let properties = map.entry("properties").or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(properties) = properties {
                    for name in &expected_fields {
                        properties.entry(name.clone()).or_insert(Value::Bool(true));
                    }
                }
                map.insert("additionalProperties".into(), Value::Bool(false));
            }
        }
        let compiled = jsonschema::draft202012::new(&crate::json::to_serde(&enforced)).map_err(|e| {
            RegistrationError { tool: tool.name.clone(), kind: RegistrationErrorKind::Schema(e.to_string()) }
        })?;
        Ok(ArgumentValidator { tool: tool.name.clone(), expected_fields, schema: tool.input_schema.clone(), compiled })
    }

    /// Checks arguments; `Err` carries every problem.
    pub fn validate(&self, arguments: &Value) -> Result<(), Rejection> {
        let mut problems = Vec::new();
        if !arguments.is_object() {
            problems.push(Problem::new(ProblemKind::WrongType, None));
        } else {
            let instance = crate::json::to_serde(arguments);
            if self.compiled.is_valid(&instance) {
                return Ok(());
            }
            // Valid arguments, the common case, take the validator's fast path, which collects no
            // errors.
            for error in self.compiled.iter_errors(&instance) {
                self.problems_of(error, &mut problems);
            }
        }
        if problems.is_empty() {
            return Ok(());
        }
        // Sorted and without repeats, as a set would hold them; one sort of a vector is cheaper
        // than a tree of thousands of problems.
        problems.sort_unstable();
        problems.dedup();
        Err(Rejection { tool: self.tool.clone(), problems, expected_fields: self.expected_fields.clone() })
    }

    fn problems_of(&self, error: jsonschema::ValidationError<'_>, out: &mut Vec<Problem>) {
        // A problem anywhere inside a root value is named by the root field that holds it.
        let field = error.instance_path().iter().next().map(|segment| match segment {
            LocationSegment::Property(p) => p.to_string(),
            LocationSegment::Index(i) => i.to_string(),
        });
        match error.kind() {
            Kind::Required { property } => {
                let name = property.as_str().map(String::from).unwrap_or_else(|| property.to_string());
                out.push(Problem::new(ProblemKind::MissingRequired, field.or(Some(name))));
            }
            Kind::AdditionalProperties { .. } | Kind::UnevaluatedProperties { .. } => {
                let (Kind::AdditionalProperties { unexpected } | Kind::UnevaluatedProperties { unexpected }) =
                    error.into_parts().kind
                else {
                    return;
                };
                out.reserve(unexpected.len());
                for name in unexpected {
                    out.push(Problem::new(ProblemKind::UnknownField, field.clone().or(Some(name))));
                }
            }
            Kind::AnyOf { .. } | Kind::OneOfNotValid { .. } if field.is_none() => {
                let keyword = error.schema_path().iter().last().map(|s| s.to_string()).unwrap_or_default();
                let mut problem = Problem::new(ProblemKind::NoAlternative, None);
                problem.alternatives = self.alternatives(&keyword);
                out.push(problem);
            }
            kind => {
                out.push(Problem::new(kind_of(kind), field));
            }
        }
    }

    /// The required-field sets of the root `anyOf` or `oneOf` branches (empty for a branch that
    /// requires nothing).
    fn alternatives(&self, keyword: &str) -> Vec<Vec<String>> {
        let branches = self.schema.get(keyword).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        branches
            .iter()
            .map(|branch| {
                let required = branch.get("required").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
                required.iter().filter_map(Value::as_str).map(String::from).collect()
            })
            .collect()
    }
}

/// The problem class of a jsonschema error about a value.
fn kind_of(kind: &Kind) -> ProblemKind {
    match kind {
        Kind::Type { .. } => ProblemKind::WrongType,
        Kind::Enum { .. } | Kind::Constant { .. } => ProblemKind::NotInEnum,
        Kind::MinLength { .. } => ProblemKind::TooShort,
        _ => ProblemKind::InvalidValue,
    }
}

impl Problem {
    fn new(kind: ProblemKind, field: Option<String>) -> Problem {
        Problem { kind, field, alternatives: Vec::new() }
    }

    fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("kind".into(), Value::String(self.kind.as_str().into()));
        if let Some(field) = &self.field {
            map.insert("field".into(), Value::String(field.clone()));
        }
        if self.kind == ProblemKind::NoAlternative {
            let sets = self
                .alternatives
                .iter()
                .map(|set| Value::Array(set.iter().map(|f| Value::String(f.clone())).collect()))
                .collect();
            map.insert("alternatives".into(), Value::Array(sets));
        }
        Value::Object(map)
    }

    /// The problem in words, appended to `out`.
    fn write_sentence(&self, out: &mut String) {
        let subject = |out: &mut String| match self.field.as_deref() {
            Some(field) => {
                out.push_str("field `");
                out.push_str(field);
                out.push('`');
            }
            None => out.push_str("the argument object"),
        };
        let (before, after) = match self.kind {
            ProblemKind::MissingRequired => ("missing required ", ""),
            ProblemKind::UnknownField => ("unknown ", ""),
            ProblemKind::WrongType => ("", " has the wrong type"),
            ProblemKind::NotInEnum => ("", " is not one of the allowed values"),
            ProblemKind::TooShort => ("", " is too short"),
            ProblemKind::InvalidValue => ("", " does not satisfy its schema"),
            ProblemKind::NoAlternative => {
                out.push_str("none of the alternatives is satisfied: provide ");
                for (index, set) in self.alternatives.iter().enumerate() {
                    if index > 0 {
                        out.push_str(", or ");
                    }
                    for (position, field) in set.iter().enumerate() {
                        if position > 0 {
                            out.push_str(" and ");
                        }
                        out.push('`');
                        out.push_str(field);
                        out.push('`');
                    }
                }
                return;
            }
        };
        out.push_str(before);
        subject(out);
        out.push_str(after);
    }
}

impl Rejection {
    /// The human-readable message: every problem and field, the expected fields, get_api_spec.
    pub fn message(&self) -> String {
        // One string, written in place: a rejection of thousands of problems makes no string per
        // problem.
        let mut out = String::with_capacity(96 + 40 * self.problems.len() + 24 * self.expected_fields.len());
        out.push_str("invalid arguments for tool `");
        out.push_str(&self.tool);
        out.push_str("`: ");
        for (index, problem) in self.problems.iter().enumerate() {
            if index > 0 {
                out.push_str("; ");
            }
            problem.write_sentence(&mut out);
        }
        out.push_str(". Expected fields: ");
        if self.expected_fields.is_empty() {
            out.push_str("none");
        }
        for (index, field) in self.expected_fields.iter().enumerate() {
            if index > 0 {
                out.push_str(", ");
            }
            out.push('`');
            out.push_str(field);
            out.push('`');
        }
        out.push_str(". Call get_api_spec for the tool's schema.");
        out
    }

    /// The error object: `{message, problems, expected_fields}`.
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("message".into(), Value::String(self.message()));
        map.insert("problems".into(), Value::Array(self.problems.iter().map(Problem::to_json).collect()));
        map.insert(
            "expected_fields".into(),
            Value::Array(self.expected_fields.iter().map(|f| Value::String(f.clone())).collect()),
        );
        Value::Object(map)
    }
}

/// Every root property the schema declares, plus the names its root `required` and its root
/// `anyOf`/`oneOf` branches require, sorted.
pub fn expected_fields(schema: &Value) -> Vec<String> {
    let mut fields = BTreeSet::new();
    if let Some(Value::Object(properties)) = schema.get("properties") {
        fields.extend(properties.keys().cloned());
    }
    let mut required = |s: &Value| {
        if let Some(Value::Array(names)) = s.get("required") {
            fields.extend(names.iter().filter_map(Value::as_str).map(String::from));
        }
    };
    required(schema);
    for keyword in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = schema.get(keyword) {
            branches.iter().for_each(&mut required);
        }
    }
    fields.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn validator(schema: Value) -> ArgumentValidator {
        ArgumentValidator::compile(&Tool { name: "t".into(), description: None, input_schema: schema }).unwrap()
    }

    fn kinds(v: &ArgumentValidator, args: Value) -> Vec<(String, Option<String>)> {
        match v.validate(&args) {
            Ok(()) => vec![],
            Err(r) => r.problems.iter().map(|p| (p.kind.as_str().to_string(), p.field.clone())).collect(),
        }
    }

    #[test]
    fn ticket_scenario_one() {
        let v = validator(json!({
            "type": "object",
            "properties": {"existing_step_id": {"type": "string", "minLength": 1}, "reason": {"type": "string"}},
            "required": ["existing_step_id", "reason"]
        }));
        let rejection = v.validate(&json!({"step_id": "x"})).unwrap_err();
        let error = rejection.to_json();
        assert_eq!(
            error["problems"],
            json!([
                {"kind": "missing_required", "field": "existing_step_id"},
                {"kind": "missing_required", "field": "reason"},
                {"kind": "unknown_field", "field": "step_id"}
            ])
        );
        assert_eq!(error["expected_fields"], json!(["existing_step_id", "reason"]));
        let message = error["message"].as_str().unwrap();
        for word in ["existing_step_id", "reason", "step_id", "get_api_spec"] {
            assert!(message.contains(word), "{message}");
        }
    }

    #[test]
    fn ticket_scenario_two() {
        let v = validator(json!({
            "type": "object",
            "properties": {"forbidden_references": {"type": "array"}, "expected_context_dependencies": {"type": "array"}},
            "anyOf": [{"required": ["forbidden_references"]}, {"required": ["expected_context_dependencies"]}]
        }));
        let error = v.validate(&json!({})).unwrap_err().to_json();
        assert_eq!(
            error["problems"],
            json!([{"kind": "no_alternative", "alternatives": [["forbidden_references"], ["expected_context_dependencies"]]}])
        );
        assert!(v.validate(&json!({"forbidden_references": []})).is_ok());
    }

    #[test]
    fn classes_and_closed_root() {
        let v = validator(json!({
            "type": "object",
            "properties": {
                "n": {"type": "integer"}, "e": {"enum": ["a", 1]}, "s": {"type": "string", "minLength": 2}
            }
        }));
        assert_eq!(kinds(&v, json!({"n": "10"})), vec![("wrong_type".into(), Some("n".into()))]);
        assert_eq!(kinds(&v, json!({"n": true})), vec![("wrong_type".into(), Some("n".into()))]);
        assert_eq!(kinds(&v, crate::json::from_str(r#"{"n": 1.0}"#).unwrap()), vec![]);
        assert_eq!(kinds(&v, json!({"e": "1"})), vec![("not_in_enum".into(), Some("e".into()))]);
        assert_eq!(kinds(&v, json!({"s": "é"})), vec![("too_short".into(), Some("s".into()))]);
        assert_eq!(kinds(&v, json!({"s": "éé"})), vec![]);
        assert_eq!(kinds(&v, json!({"x": 1})), vec![("unknown_field".into(), Some("x".into()))]);
        assert_eq!(kinds(&v, json!([1])), vec![("wrong_type".into(), None)]);
        let undeclared = validator(json!({"type": "object", "required": ["x"]}));
        assert_eq!(kinds(&undeclared, json!({"x": 1})), vec![]);
        assert_eq!(
            kinds(&undeclared, json!({"y": 1})),
            vec![("missing_required".into(), Some("x".into())), ("unknown_field".into(), Some("y".into()))]
        );
        let open = validator(json!({"type": "object", "additionalProperties": {"type": "integer"}}));
        assert_eq!(kinds(&open, json!({"x": 1})), vec![]);
        assert_eq!(kinds(&open, json!({"x": "1"})), vec![("wrong_type".into(), Some("x".into()))]);
    }

    #[test]
    fn big_numbers_validate_by_value() {
        let v = validator(json!({"type": "object", "properties": {"n": {"type": "integer"}}}));
        let args: Value = crate::json::from_str(r#"{"n": 123456789012345678901234567890}"#).unwrap();
        assert_eq!(kinds(&v, args), vec![]);
    }
}
