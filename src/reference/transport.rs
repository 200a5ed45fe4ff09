//! The three ways a call reaches the reference, each decoding its own wire form and then
//! resolving the same registered [`Executor`](super::registry::Executor):
//! - direct: a provider hands over the tool name and already-parsed arguments;
//! - structured: a JSON message `{"name", "arguments"}`, as a structured tool transport sends;
//! - http: the HTTP bridge's `POST /tools/<name>` with the arguments as the JSON body.

use super::registry::Registry;
use super::validate::Rejection;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why a call could not be dispatched to an executor at all.
#[derive(Debug, Clone, PartialEq)]
pub enum Dispatch {
    /// The call was rejected by the executor's validation.
    Rejected(Rejection),
    /// No executor could be resolved (no such tool, or an unreadable envelope).
    Unroutable(String),
}

/// A direct provider call.
pub fn direct(
    registry: &Registry,
    tool: &str,
    arguments: &Value,
    handler: &mut dyn FnMut(Value),
) -> Result<(), Dispatch> {
    let executor =
        registry.executor(tool).ok_or_else(|| Dispatch::Unroutable(format!("no tool named {tool} is registered")))?;
    executor.execute(arguments, handler).map_err(Dispatch::Rejected)
}

/// The message a structured transport carries for a call, `{"name", "arguments"}`, written
/// borrowing from the call (`S` is `&str`, `V` is `&Value`) and read into owned values; absent
/// arguments are read as `null`.
#[derive(Serialize, Deserialize)]
struct StructuredCall<S, V> {
    name: S,
    #[serde(default)]
    arguments: V,
}

/// The message a structured transport carries for a call.
pub fn structured_message(tool: &str, arguments: &Value) -> Vec<u8> {
    serde_json::to_vec(&StructuredCall { name: tool, arguments }).unwrap_or_default()
}

/// A structured transport's message, decoded and dispatched.
pub fn structured(registry: &Registry, message: &[u8], handler: &mut dyn FnMut(Value)) -> Result<(), Dispatch> {
    let envelope: Value =
        crate::json::from_slice(message).map_err(|e| Dispatch::Unroutable(format!("unreadable message: {e}")))?;
    // Only an object is a message (serde would read a struct from an array too).
    let call = Some(&envelope)
        .filter(|envelope| envelope.is_object())
        .and_then(|envelope| StructuredCall::<String, Value>::deserialize(envelope).ok())
        .ok_or_else(|| Dispatch::Unroutable("the message names no tool".into()))?;
    direct(registry, &call.name, &call.arguments, handler)
}

/// An HTTP bridge request: the path and the body.
pub struct HttpRequest {
    /// The request path, `/tools/<name>`.
    pub path: String,
    /// The request body: the arguments as JSON text.
    pub body: Vec<u8>,
}

/// The request the HTTP bridge receives for a call.
pub fn http_request(tool: &str, arguments: &Value) -> HttpRequest {
    HttpRequest { path: format!("/tools/{tool}"), body: serde_json::to_vec(arguments).unwrap_or_default() }
}

/// An HTTP bridge request, decoded and dispatched.
pub fn http(registry: &Registry, request: &HttpRequest, handler: &mut dyn FnMut(Value)) -> Result<(), Dispatch> {
    let tool = request
        .path
        .strip_prefix("/tools/")
        .ok_or_else(|| Dispatch::Unroutable(format!("no route for {}", request.path)))?;
    let arguments: Value = crate::json::from_slice(&request.body)
        .map_err(|e| Dispatch::Unroutable(format!("the body is not JSON: {e}")))?;
    direct(registry, tool, &arguments, handler)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::tool::Tool;

    fn registry() -> Registry {
        let tool = Tool {
            name: "t".into(),
            description: None,
            input_schema: serde_json::json!({"type": "object", "properties": {"n": {}, "big": {}}}),
        };
        Registry::new(&[tool]).expect("a valid tool")
    }

    #[test]
    fn a_structured_message_carries_the_call_exactly() {
        let arguments: Value = crate::json::from_str(r#"{"n":1.50,"big":100000000000000000000000000001}"#).unwrap();
        let message = structured_message("t", &arguments);
        assert_eq!(message, br#"{"name":"t","arguments":{"n":1.50,"big":100000000000000000000000000001}}"#);
        let mut received = Vec::new();
        structured(&registry(), &message, &mut |value| received.push(value)).expect("dispatched");
        assert_eq!(received, [arguments]);
    }

    #[test]
    fn a_message_that_names_no_tool_reaches_none() {
        let unroutable = |message: &[u8]| match structured(&registry(), message, &mut |_| ()) {
            Err(Dispatch::Unroutable(why)) => why,
            other => panic!("{other:?}"),
        };
        for message in [&br#"["t", {}]"#[..], br#"{"arguments": {}}"#, br#"{"name": 5}"#] {
            assert_eq!(unroutable(message), "the message names no tool");
        }
        assert!(unroutable(b"{").starts_with("unreadable message: "));
        // Absent arguments are null: the executor's validation answers them, not the transport.
        assert!(matches!(structured(&registry(), br#"{"name": "t"}"#, &mut |_| ()), Err(Dispatch::Rejected(_))));
    }
}
