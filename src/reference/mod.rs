//! The reference implementation: RT-TOOL-8 and PLAT-162 written to be read as the rules in
//! executable form, and the built-in [`Target`] the suite is checked against.
//!
//! - [`normalize`] is RT-TOOL-8: JSON-string decoding where the schema vouches for the shape,
//!   then character-reference decoding ([`entities`]) of every string leaf.
//! - [`validate`] is PLAT-162's validation and its one deterministic error.
//! - [`registry`] holds one schema per tool and the validating executor every path goes through.
//! - [`transport`] is the three ways a call arrives (direct, structured, http).
//! - [`readings`] records the readings of docs/interpretations.md an answer passed through.

pub mod entities;
pub mod normalize;
pub mod readings;
pub mod registry;
pub mod transport;
pub mod validate;

use crate::case::tool::{Tool, Transport, View};
use crate::peer::{Implementation, Invocation, Target, TargetError};
use registry::Registry;
use serde_json::Value;
use transport::Dispatch;

/// The reference implementation as a target: claims both rules on all three transports.
#[derive(Default)]
pub struct Reference {
    registry: Registry,
}

impl Reference {
    /// A reference with nothing registered.
    ///
    /// ```
    /// use tool_conformance::{Reference, Target, Value};
    ///
    /// let mut reference = Reference::new();
    /// let schema: Value = r#"{"type": "object"}"#.parse().unwrap();
    /// let sent: Value = r#"{"title": "Ember &amp;amp; Oak"}"#.parse().unwrap();
    /// let normalized = reference.normalize(&schema, &sent).unwrap();
    /// assert_eq!(normalized["title"], "Ember & Oak");
    /// ```
    pub fn new() -> Reference {
        Reference::default()
    }
}

impl Target for Reference {
    fn start(&mut self) -> Result<Implementation, TargetError> {
        Ok(Implementation {
            name: "tool-conformance reference".into(),
            version: crate::suite::SUITE_VERSION.into(),
            language: Some("rust".into()),
            homepage: None,
            rules: vec!["RT-TOOL-8".into(), "PLAT-162".into()],
            transports: Transport::ALL.to_vec(),
            tool_name: None,
            answered: None,
            spec_pointer: crate::peer::DEFAULT_SPEC_POINTER.into(),
        })
    }

    fn normalize(&mut self, input_schema: &Value, arguments: &Value) -> Result<Value, TargetError> {
        Ok(normalize::normalize(input_schema, arguments))
    }

    fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
        self.registry = Registry::new(tools).map_err(|e| TargetError::Unsupported(e.to_string()))?;
        Ok(())
    }

    fn describe(&mut self, tool: &str, view: View) -> Result<Value, TargetError> {
        self.registry
            .published_schema(tool, view)
            .cloned()
            .ok_or_else(|| TargetError::Broken(format!("no tool named {tool} is registered")))
    }

    fn invoke(&mut self, tool: &str, transport: Transport, arguments: &Value) -> Result<Invocation, TargetError> {
        let mut received = Vec::new();
        let mut handler = |arguments: Value| received.push(arguments);
        let result = match transport {
            Transport::Direct => transport::direct(&self.registry, tool, arguments, &mut handler),
            Transport::Structured => {
                let message = transport::structured_message(tool, arguments);
                transport::structured(&self.registry, &message, &mut handler)
            }
            Transport::Http => transport::http(&self.registry, &transport::http_request(tool, arguments), &mut handler),
        };
        let handler_calls = received.len() as u64;
        match result {
            Ok(()) => Ok(Invocation::Executed { handler_calls, received: received.pop().unwrap_or(Value::Null) }),
            Err(Dispatch::Rejected(rejection)) => {
                Ok(Invocation::Rejected { handler_calls, error: rejection.to_json() })
            }
            Err(Dispatch::Unroutable(why)) => Err(TargetError::Broken(why)),
        }
    }
}
