//! `--validate-protocol`: every message checked against `schemas/protocol.schema.json`, the JSON
//! Schema of protocol v1, which is built into the binary.
//!
//! Each message is checked against the one definition it must match, chosen by what it is: a
//! request by its `cmd`, a response by the command it answers (or `unsupported_response`,
//! `error_response` and, to normalize and invoke, `not_json_response` when it carries those
//! keys). Checking against one definition, rather than the union of all messages, lets a
//! [`Violation`] name the exact schema path an adapter author has to look at.

use crate::peer::protocol::Command;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The schema's text, as shipped in `schemas/protocol.schema.json`.
pub const SCHEMA_TEXT: &str = include_str!("../../schemas/protocol.schema.json");

/// Where the schema lives in the repository, for messages.
pub const SCHEMA_PATH: &str = "schemas/protocol.schema.json";

/// The compiled schema: one validator per message definition.
pub struct ProtocolSchema {
    validators: BTreeMap<String, jsonschema::Validator>,
}

/// A message that does not match its definition.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} does not match {SCHEMA_PATH}: at {schema_path}, {problem} ({})", where_in(instance_path))]
pub struct Violation {
    /// Which message, e.g. "the invoke response (seq 4)".
    pub message: String,
    /// The failing keyword's location in the schema file, e.g.
    /// `#/$defs/invoke_response/required`.
    pub schema_path: String,
    /// Where in the message (a JSON pointer, "" for the whole message).
    pub instance_path: String,
    /// What is wrong, in words.
    pub problem: String,
}

/// A schema that cannot be used (a bug of the build, reported rather than panicked on).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{SCHEMA_PATH} is unusable: {0}")]
pub struct SchemaError(String);

impl ProtocolSchema {
    /// Compiles the built-in schema.
    pub fn load() -> Result<ProtocolSchema, SchemaError> {
        let root: Value = crate::json::from_str(SCHEMA_TEXT).map_err(|e| SchemaError(e.to_string()))?;
        let defs = root.get("$defs").and_then(Value::as_object).ok_or_else(|| SchemaError("no $defs".into()))?;
        let mut validators = BTreeMap::new();
        for name in Command::ALL
            .iter()
            .flat_map(|c| [format!("{c}_request"), format!("{c}_response")])
            .chain(["unsupported_response", "error_response", "not_json_response"].map(String::from))
        {
            let mut schema = defs.get(&name).cloned().ok_or_else(|| SchemaError(format!("no $defs/{name}")))?;
            if let Value::Object(map) = &mut schema {
                map.insert("$defs".into(), Value::Object(defs.clone()));
                map.insert("$schema".into(), json!("https://json-schema.org/draft/2020-12/schema"));
            }
            let validator = jsonschema::draft202012::new(&crate::json::to_serde(&schema))
                .map_err(|e| SchemaError(format!("$defs/{name}: {e}")))?;
            validators.insert(name, validator);
        }
        Ok(ProtocolSchema { validators })
    }

    /// Checks a request the harness is about to send.
    pub fn check_request(&self, command: Command, request: &Value) -> Result<(), Violation> {
        let seq = seq_words(request);
        self.check(&format!("{command}_request"), &format!("the {command} request{seq}"), request)
    }

    /// Checks the response to `command`.
    pub fn check_response(&self, command: Command, response: &Value) -> Result<(), Violation> {
        let seq = seq_words(response);
        let definition = if response.get("unsupported").is_some() {
            "unsupported_response".to_string()
        } else if response.get("error").is_some_and(Value::is_string) {
            "error_response".to_string()
        } else if response.get("not_json").is_some() && matches!(command, Command::Normalize | Command::Invoke) {
            "not_json_response".to_string()
        } else {
            format!("{command}_response")
        };
        self.check(&definition, &format!("the {command} response{seq}"), response)
    }

    fn check(&self, definition: &str, message: &str, value: &Value) -> Result<(), Violation> {
        let Some(validator) = self.validators.get(definition) else {
            return Err(Violation {
                message: message.to_string(),
                schema_path: format!("#/$defs/{definition}"),
                instance_path: String::new(),
                problem: "the schema has no such definition".into(),
            });
        };
        let instance = crate::json::to_serde(value);
        match validator.iter_errors(&instance).next() {
            None => Ok(()),
            Some(error) => {
                // A keyword reached through a `$ref` is located in the file's own `$defs`.
                let keyword = error.schema_path().as_str();
                let schema_path = if keyword.starts_with("/$defs/") {
                    format!("#{keyword}")
                } else {
                    format!("#/$defs/{definition}{keyword}")
                };
                Err(Violation {
                    message: message.to_string(),
                    schema_path,
                    instance_path: error.instance_path().as_str().to_string(),
                    problem: error.to_string(),
                })
            }
        }
    }
}

fn where_in(instance_path: &str) -> String {
    if instance_path.is_empty() {
        "about the message as a whole".into()
    } else {
        format!("at {instance_path} in the message")
    }
}

fn seq_words(message: &Value) -> String {
    match message.get("seq") {
        Some(seq) => format!(" (seq {seq})"),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_compiles_and_names_the_failing_keyword() {
        let schema = ProtocolSchema::load().unwrap();
        assert!(schema.check_response(Command::Register, &json!({"seq": 1, "ok": true})).is_ok());
        let violation = schema.check_response(Command::Invoke, &json!({"seq": 4, "outcome": "executed"})).unwrap_err();
        assert_eq!(violation.message, "the invoke response (seq 4)");
        assert_eq!(violation.schema_path, "#/$defs/invoke_response/required");
        let violation = schema
            .check_response(
                Command::Start,
                &json!({"seq": 0, "protocol": 1, "implementation": {"name": "x"}, "rules": [], "transports": []}),
            )
            .unwrap_err();
        assert_eq!(violation.schema_path, "#/$defs/start_response/properties/implementation/required");
        assert_eq!(violation.instance_path, "/implementation");
        let violation = schema.check_response(Command::Stop, &json!({"seq": 9})).unwrap_err();
        assert_eq!(violation.schema_path, "#/$defs/ok_response/required");
        assert_eq!(
            violation.to_string(),
            "the stop response (seq 9) does not match schemas/protocol.schema.json: at \
             #/$defs/ok_response/required, \"ok\" is a required property (about the message as a whole)"
        );
        assert!(schema.check_response(Command::Describe, &json!({"seq": 2, "unsupported": "no"})).is_ok());
        assert!(schema.check_response(Command::Describe, &json!({"seq": 2, "error": "broke"})).is_ok());
    }

    #[test]
    fn the_schema_takes_the_spec_pointers_the_harness_takes() {
        let schema = ProtocolSchema::load().unwrap();
        for pointer in ["/v1/spec", " x ", "", "   ", &"x".repeat(512), &"x".repeat(513)] {
            let started = json!({"seq": 0, "protocol": 1, "implementation": {"name": "x", "version": "1"},
                "rules": [], "transports": [], "get_api_spec": pointer});
            assert_eq!(
                schema.check_response(Command::Start, &started).is_ok(),
                crate::peer::spec_pointer_problem(pointer).is_none(),
                "{pointer:?}"
            );
        }
    }
}
