//! The reference with one behaviour changed: a [`Defect`] is a set of hooks, each defaulting to
//! what the reference does, and [`Defective`] wraps a [`Reference`] and runs its calls through
//! those hooks.
//!
//! `Defective` uses the wrapped reference for start, register and describe, and rebuilds the
//! reference's executor (`registry::Executor::execute` and the three transports of
//! `reference::transport`) from the crate's public pieces, so that a hook can sit between any two
//! of its steps: the wire form of each transport, normalization, what validation compiles and
//! sees, whether it runs, the error object, and what the handler receives. Two more hooks change
//! what the target claims at start and whether its normalize validates too, refusing what fails
//! (a runtime that normalizes and validates in one step). With no hook
//! overridden ([`NoDefect`]) it gives the same outcome as the reference on every case; the test
//! `the_unchanged_wrapper_is_the_reference` checks that, so every difference a defect makes is
//! its one change.

use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use tool_conformance::reference::normalize::{declared_types, normalize};
use tool_conformance::reference::transport::{http_request, structured_message};
use tool_conformance::reference::validate::{ArgumentValidator, Rejection, expected_fields};
use tool_conformance::reference::{Reference, entities};
use tool_conformance::{Implementation, Invocation, Level, Target, TargetError, Tool, Transport, View};

/// One behaviour of the reference, changed. Every hook defaults to the reference's behaviour.
pub trait Defect {
    /// RT-TOOL-8: the arguments that reach a tool with this schema (the target's normalize).
    fn normalize(&self, schema: &Value, arguments: &Value) -> Value {
        normalize(schema, arguments)
    }

    /// The normalization the executor runs on an invoke, against the registered schema.
    fn executor_normalize(&self, schema: &Value, arguments: &Value) -> Value {
        self.normalize(schema, arguments)
    }

    /// Applied to the normalized arguments before validation; validation and the handler both
    /// see the result.
    fn before_validation(&self, _schema: &Value, arguments: Value) -> Value {
        arguments
    }

    /// What the validator is given (`raw` as the transport delivered it, `prepared` after
    /// normalization and [`Defect::before_validation`]).
    fn validation_view(&self, _schema: &Value, _raw: &Value, prepared: &Value) -> Value {
        prepared.clone()
    }

    /// The schema the validator of a transport is compiled from (the reference closes the root
    /// of this copy itself, unless it declares additionalProperties).
    fn enforced_schema(&self, schema: &Value, _transport: Transport) -> Value {
        schema.clone()
    }

    /// Whether validation runs at all for this call.
    fn validates(&self, _transport: Transport, _prepared: &Value) -> bool {
        true
    }

    /// Whether the handler runs before validation instead of after it.
    fn handler_first(&self) -> bool {
        false
    }

    /// The error object of a rejected call (`raw` as the transport delivered the arguments).
    fn error(&self, _transport: Transport, _schema: &Value, _raw: &Value, rejection: Rejection) -> Value {
        rejection.to_json()
    }

    /// What the handler receives for a valid call.
    fn received(&self, _transport: Transport, _schema: &Value, prepared: Value) -> Value {
        prepared
    }

    /// The schema a view publishes, given the one the reference publishes.
    fn describe(&self, _view: View, published: Value) -> Value {
        published
    }

    /// The rules the target claims in `start`, given the ones the reference claims.
    fn claims(&self, rules: Vec<String>) -> Vec<String> {
        rules
    }

    /// Whether normalize and validation are one step: when this is true, normalize validates
    /// what it made of the arguments the way a direct invoke does (through the hooks above) and
    /// answers [`TargetError::Refused`] with the error when they fail, else the normalized
    /// arguments.
    fn one_step(&self) -> bool {
        false
    }
}

/// The reference, unchanged, through the same hooks.
pub struct NoDefect;

impl Defect for NoDefect {}

/// One defect as the catalog lists it.
pub struct Entry {
    /// Short kebab-case name.
    pub name: &'static str,
    /// The clause the defect breaks.
    pub clause: &'static str,
    /// The level of the cases that must catch it (required, unless the readings make the
    /// behaviour an interpretation).
    pub level: Level,
    /// What is changed, in words.
    pub behaviour: &'static str,
    /// The change.
    pub defect: Box<dyn Defect>,
}

/// The reference with a defect applied.
pub struct Defective {
    name: &'static str,
    reference: Reference,
    defect: Box<dyn Defect>,
    tools: BTreeMap<String, Registered>,
}

/// One registered tool: its schema as registered, and a validator per transport.
struct Registered {
    schema: Value,
    validators: Vec<ArgumentValidator>,
    /// Index into `validators` for each transport, in `Transport::ALL` order.
    by_transport: [usize; 3],
}

impl Defective {
    /// The reference wrapped with `defect`.
    pub fn new(name: &'static str, defect: Box<dyn Defect>) -> Defective {
        Defective { name, reference: Reference::new(), defect, tools: BTreeMap::new() }
    }
}

fn transport_index(transport: Transport) -> usize {
    Transport::ALL.iter().position(|t| *t == transport).unwrap_or_default()
}

/// The arguments as the executor gets them after the transport's wire form, the way
/// `reference::transport` decodes each one.
fn over_the_wire(tool: &str, transport: Transport, arguments: &Value) -> Result<Value, TargetError> {
    match transport {
        Transport::Direct => Ok(arguments.clone()),
        Transport::Structured => {
            let message = structured_message(tool, arguments);
            let envelope: Value = tool_conformance::json::from_slice(&message)
                .map_err(|e| TargetError::Broken(format!("unreadable message: {e}")))?;
            Ok(envelope.get("arguments").cloned().unwrap_or(Value::Null))
        }
        Transport::Http => {
            let request = http_request(tool, arguments);
            tool_conformance::json::from_slice(&request.body)
                .map_err(|e| TargetError::Broken(format!("the body is not JSON: {e}")))
        }
    }
}

impl Target for Defective {
    fn start(&mut self) -> Result<Implementation, TargetError> {
        let mut implementation = self.reference.start()?;
        implementation.name = format!("reference with defect {}", self.name);
        implementation.rules = self.defect.claims(implementation.rules);
        Ok(implementation)
    }

    fn normalize(&mut self, input_schema: &Value, arguments: &Value) -> Result<Value, TargetError> {
        let normalized = self.defect.normalize(input_schema, arguments);
        if !self.defect.one_step() {
            return Ok(normalized);
        }
        refuse_invalid(self.defect.as_ref(), input_schema, arguments, normalized)
    }

    fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
        self.tools.clear();
        self.reference.register(tools)?;
        for tool in tools {
            let mut validators = Vec::new();
            let mut compiled: Vec<Value> = Vec::new();
            let mut by_transport = [0; 3];
            for transport in Transport::ALL {
                let enforced = self.defect.enforced_schema(&tool.input_schema, transport);
                let index = match compiled.iter().position(|s| *s == enforced) {
                    Some(index) => index,
                    None => {
                        let copy = Tool { input_schema: enforced.clone(), ..tool.clone() };
                        validators.push(
                            ArgumentValidator::compile(&copy).map_err(|e| TargetError::Unsupported(e.to_string()))?,
                        );
                        compiled.push(enforced);
                        compiled.len() - 1
                    }
                };
                by_transport[transport_index(transport)] = index;
            }
            let registered = Registered { schema: tool.input_schema.clone(), validators, by_transport };
            self.tools.insert(tool.name.clone(), registered);
        }
        Ok(())
    }

    fn describe(&mut self, tool: &str, view: View) -> Result<Value, TargetError> {
        let published = self.reference.describe(tool, view)?;
        Ok(self.defect.describe(view, published))
    }

    fn invoke(&mut self, tool: &str, transport: Transport, arguments: &Value) -> Result<Invocation, TargetError> {
        let raw = over_the_wire(tool, transport, arguments)?;
        let registered =
            self.tools.get(tool).ok_or_else(|| TargetError::Broken(format!("no tool named {tool} is registered")))?;
        let defect = &self.defect;
        let schema = &registered.schema;
        let normalized = defect.executor_normalize(schema, &raw);
        let prepared = defect.before_validation(schema, normalized);
        let mut handler_calls = u64::from(defect.handler_first());
        let verdict = if defect.validates(transport, &prepared) {
            let validator = &registered.validators[registered.by_transport[transport_index(transport)]];
            validator.validate(&defect.validation_view(schema, &raw, &prepared))
        } else {
            Ok(())
        };
        Ok(match verdict {
            Ok(()) => {
                if !defect.handler_first() {
                    handler_calls += 1;
                }
                Invocation::Executed { handler_calls, received: defect.received(transport, schema, prepared) }
            }
            Err(mut rejection) => {
                // The expected fields come from the registered schema, whatever was compiled.
                rejection.expected_fields = expected_fields(schema);
                Invocation::Rejected { handler_calls, error: defect.error(transport, schema, &raw, rejection) }
            }
        })
    }
}

/// The name a one-step normalize gives the tool in its error (normalize names no tool).
pub const NORMALIZE_TOOL: &str = "tool";

/// A one-step normalize ([`Defect::one_step`]): `normalized` validated as a direct invoke would
/// validate it, refused with the error when that fails.
fn refuse_invalid(defect: &dyn Defect, schema: &Value, raw: &Value, normalized: Value) -> Result<Value, TargetError> {
    let transport = Transport::Direct;
    let prepared = defect.before_validation(schema, normalized.clone());
    if !defect.validates(transport, &prepared) {
        return Ok(normalized);
    }
    let enforced = Tool {
        name: NORMALIZE_TOOL.into(),
        description: None,
        input_schema: defect.enforced_schema(schema, transport),
    };
    let validator = ArgumentValidator::compile(&enforced).map_err(|e| TargetError::Unsupported(e.to_string()))?;
    match validator.validate(&defect.validation_view(schema, raw, &prepared)) {
        Ok(()) => Ok(normalized),
        Err(mut rejection) => {
            rejection.expected_fields = expected_fields(schema);
            Err(TargetError::Refused(defect.error(transport, schema, raw, rejection)))
        }
    }
}

// RT-TOOL-8 rebuilt from its two steps, so that a defect can change one of them.

/// Step 1 for one root string argument: given the parameter's declared types (`None` when the
/// schema does not declare it) and the text, the value that replaces the text, if any.
pub type Decode = dyn Fn(Option<&BTreeSet<String>>, &str) -> Option<Value>;

/// The declared types of root parameter `name`, or `None` when the schema does not declare it.
pub fn parameter_types(schema: &Value, name: &str) -> Option<BTreeSet<String>> {
    let parameter = schema.get("properties")?.get(name)?;
    Some(declared_types(schema, parameter))
}

/// The reference's step 1 for one root string argument: the replacement, when the parameter is
/// declared array or object and not string, and the text parses to the declared shape.
pub fn reference_decode(declared: Option<&BTreeSet<String>>, text: &str) -> Option<Value> {
    let declared = declared?;
    if declared.contains("string") {
        return None;
    }
    match tool_conformance::json::from_str::<Value>(text) {
        Ok(parsed @ Value::Array(_)) if declared.contains("array") => Some(parsed),
        Ok(parsed @ Value::Object(_)) if declared.contains("object") => Some(parsed),
        _ => None,
    }
}

/// The reference's step 2 on one string: references decoded to a fixpoint.
pub fn reference_leaf(text: &str) -> String {
    entities::decode(text).into_owned()
}

/// Step 1 on every root argument, with `decode` deciding each string's replacement.
pub fn decode_root(schema: &Value, arguments: &Value, decode: &Decode) -> Value {
    match arguments {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(name, value)| {
                    let replaced = match value {
                        Value::String(text) => decode(parameter_types(schema, name).as_ref(), text),
                        _ => None,
                    };
                    (name.clone(), replaced.unwrap_or_else(|| value.clone()))
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Step 2: `leaf` applied to every string leaf at any depth, keys as they are.
pub fn map_leaves(value: Value, leaf: &dyn Fn(&str) -> String) -> Value {
    match value {
        Value::String(text) => Value::String(leaf(&text)),
        Value::Array(items) => Value::Array(items.into_iter().map(|item| map_leaves(item, leaf)).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(key, item)| (key, map_leaves(item, leaf))).collect()),
        other => other,
    }
}

/// RT-TOOL-8 from its two steps.
pub fn rebuilt(schema: &Value, arguments: &Value, decode: &Decode, leaf: &dyn Fn(&str) -> String) -> Value {
    map_leaves(decode_root(schema, arguments, decode), leaf)
}

/// The root properties of a schema, by name (empty when it declares none).
pub fn properties(schema: &Value) -> Map<String, Value> {
    schema.get("properties").and_then(Value::as_object).cloned().unwrap_or_default()
}
