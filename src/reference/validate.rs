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
//! that holds it, with its full `pointer`. Problems are sorted, so the same arguments give the
//! same error bytes whatever their key order and whatever transport carried them.

use crate::tool::Tool;
use jsonschema::error::ValidationErrorKind as Kind;
use jsonschema::paths::LocationSegment;
use serde_json::{Map, Value, json};
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
    /// Where inside the field's value, when deeper than the field itself.
    pub pointer: Option<String>,
    /// For [`ProblemKind::NoAlternative`]: the required-field sets.
    pub alternatives: Vec<Vec<String>>,
    /// What the schema wanted, in words, for the message.
    pub wanted: String,
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

impl ArgumentValidator {
    /// Compiles a tool's schema, closing its root unless it declares `additionalProperties`.
    pub fn compile(tool: &Tool) -> Result<ArgumentValidator, String> {
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
        let compiled = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&enforced)
            .map_err(|e| format!("the input schema of {} does not compile: {e}", tool.name))?;
        Ok(ArgumentValidator { tool: tool.name.clone(), expected_fields, schema: tool.input_schema.clone(), compiled })
    }

    /// Checks arguments; `Err` carries every problem.
    pub fn validate(&self, arguments: &Value) -> Result<(), Rejection> {
        let mut problems = BTreeSet::new();
        if !arguments.is_object() {
            problems.insert(Problem::new(ProblemKind::WrongType, None, "an object of named arguments".into()));
        } else {
            for error in self.compiled.iter_errors(arguments) {
                self.problems_of(&error, &mut problems);
            }
        }
        if problems.is_empty() {
            return Ok(());
        }
        Err(Rejection {
            tool: self.tool.clone(),
            problems: problems.into_iter().collect(),
            expected_fields: self.expected_fields.clone(),
        })
    }

    fn problems_of(&self, error: &jsonschema::ValidationError<'_>, out: &mut BTreeSet<Problem>) {
        let segments: Vec<String> = error
            .instance_path()
            .iter()
            .map(|s| match s {
                LocationSegment::Property(p) => p.to_string(),
                LocationSegment::Index(i) => i.to_string(),
            })
            .collect();
        let keyword = error.schema_path().iter().last().map(|s| s.to_string()).unwrap_or_default();
        let Some(field) = segments.first().cloned() else {
            // Problems of the root object itself.
            match error.kind() {
                Kind::Required { property } => {
                    let name = property.as_str().map(String::from).unwrap_or_else(|| property.to_string());
                    out.insert(Problem::new(ProblemKind::MissingRequired, Some(name), "a required field".into()));
                }
                Kind::AdditionalProperties { unexpected } | Kind::UnevaluatedProperties { unexpected } => {
                    for name in unexpected {
                        out.insert(Problem::new(ProblemKind::UnknownField, Some(name.clone()), "no such field".into()));
                    }
                }
                Kind::AnyOf { .. } | Kind::OneOfNotValid { .. } if self.alternatives(&keyword).is_some() => {
                    let mut problem = Problem::new(ProblemKind::NoAlternative, None, String::new());
                    problem.alternatives = self.alternatives(&keyword).unwrap_or_default();
                    out.insert(problem);
                }
                Kind::Type { .. } => {
                    out.insert(Problem::new(ProblemKind::WrongType, None, "an object of named arguments".into()));
                }
                _ => {
                    out.insert(Problem::new(ProblemKind::InvalidValue, None, keyword_words(&keyword)));
                }
            }
            return;
        };
        let kind = match error.kind() {
            Kind::Type { .. } => ProblemKind::WrongType,
            Kind::Enum { .. } | Kind::Constant { .. } => ProblemKind::NotInEnum,
            Kind::MinLength { .. } => ProblemKind::TooShort,
            Kind::Required { .. } => ProblemKind::MissingRequired,
            Kind::AdditionalProperties { .. } | Kind::UnevaluatedProperties { .. } => ProblemKind::UnknownField,
            Kind::FalseSchema if segments.len() == 1 => ProblemKind::UnknownField,
            _ => ProblemKind::InvalidValue,
        };
        let wanted = match kind {
            ProblemKind::WrongType => match self.field_schema(&field).and_then(|s| s.get("type")) {
                Some(t) if segments.len() == 1 => format!("type {}", type_words(t)),
                _ => "another type".into(),
            },
            ProblemKind::NotInEnum => "one of the allowed values".into(),
            ProblemKind::TooShort => match error.kind() {
                Kind::MinLength { limit } => {
                    format!("at least {limit} character{}", if *limit == 1 { "" } else { "s" })
                }
                _ => String::new(),
            },
            _ => keyword_words(&keyword),
        };
        let mut problem = Problem::new(kind, Some(field), wanted);
        if segments.len() > 1 {
            let mut pointer = String::new();
            for segment in &segments {
                crate::compare::push_token(&mut pointer, segment);
            }
            problem.pointer = Some(pointer);
        }
        out.insert(problem);
    }

    /// The required-field sets of the root `anyOf` or `oneOf`, when its branches have them.
    fn alternatives(&self, keyword: &str) -> Option<Vec<Vec<String>>> {
        let branches = self.schema.get(keyword)?.as_array()?;
        let sets: Vec<Vec<String>> = branches
            .iter()
            .map(|b| {
                b.get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).map(String::from).collect())
            })
            .collect::<Option<_>>()?;
        Some(sets)
    }

    fn field_schema(&self, field: &str) -> Option<&Value> {
        self.schema
            .get("properties")
            .and_then(|p| p.get(field))
            .or_else(|| self.schema.get("additionalProperties").filter(|a| a.is_object()))
    }
}

impl Problem {
    fn new(kind: ProblemKind, field: Option<String>, wanted: String) -> Problem {
        Problem { kind, field, pointer: None, alternatives: Vec::new(), wanted }
    }

    fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("kind".into(), json!(self.kind.as_str()));
        if let Some(field) = &self.field {
            map.insert("field".into(), json!(field));
        }
        if let Some(pointer) = &self.pointer {
            map.insert("pointer".into(), json!(pointer));
        }
        if self.kind == ProblemKind::NoAlternative {
            map.insert("alternatives".into(), json!(self.alternatives));
        }
        Value::Object(map)
    }

    fn sentence(&self) -> String {
        let field = self.field.as_deref().map(|f| format!("`{f}`")).unwrap_or_default();
        let at = self.pointer.as_deref().map(|p| format!(" at {p}")).unwrap_or_default();
        match self.kind {
            ProblemKind::MissingRequired => format!("missing required field {field}{at}"),
            ProblemKind::UnknownField => format!("unknown field {field}{at}"),
            ProblemKind::WrongType if self.field.is_none() => format!("the arguments must be {}", self.wanted),
            ProblemKind::WrongType => format!("field {field}{at} has the wrong type (expected {})", self.wanted),
            ProblemKind::NotInEnum => format!("field {field}{at} is not one of the allowed values"),
            ProblemKind::TooShort => format!("field {field}{at} is too short (expected {})", self.wanted),
            ProblemKind::NoAlternative => {
                let sets: Vec<String> = self
                    .alternatives
                    .iter()
                    .map(|set| set.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(" and "))
                    .collect();
                format!("none of the alternatives is satisfied: provide {}", sets.join(", or "))
            }
            ProblemKind::InvalidValue if self.field.is_none() => {
                format!("the arguments do not satisfy {}", self.wanted)
            }
            ProblemKind::InvalidValue => format!("field {field}{at} does not satisfy {}", self.wanted),
        }
    }
}

impl Rejection {
    /// The human-readable message: every problem and field, the expected fields, get_api_spec.
    pub fn message(&self) -> String {
        let problems: Vec<String> = self.problems.iter().map(Problem::sentence).collect();
        let expected = if self.expected_fields.is_empty() {
            "none".to_string()
        } else {
            self.expected_fields.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
        };
        format!(
            "invalid arguments for tool `{}`: {}. Expected fields: {expected}. Call get_api_spec for the tool's schema.",
            self.tool,
            problems.join("; ")
        )
    }

    /// The error object: `{message, problems, expected_fields}`.
    pub fn to_json(&self) -> Value {
        json!({
            "message": self.message(),
            "problems": self.problems.iter().map(Problem::to_json).collect::<Vec<_>>(),
            "expected_fields": self.expected_fields,
        })
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

fn type_words(t: &Value) -> String {
    match t {
        Value::String(s) => s.clone(),
        Value::Array(list) => list.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" or "),
        other => other.to_string(),
    }
}

fn keyword_words(keyword: &str) -> String {
    if keyword.is_empty() { "the schema".into() } else { format!("the schema's `{keyword}`") }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(kinds(&v, serde_json::from_str(r#"{"n": 1.0}"#).unwrap()), vec![]);
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
        let args: Value = serde_json::from_str(r#"{"n": 123456789012345678901234567890}"#).unwrap();
        assert_eq!(kinds(&v, args), vec![]);
    }
}
