//! The three ways a call reaches the reference, each decoding its own wire form and then
//! resolving the same registered [`Executor`](super::registry::Executor):
//! - direct: a provider hands over the tool name and already-parsed arguments;
//! - structured: a JSON message `{"name", "arguments"}`, as a structured tool transport sends;
//! - http: the HTTP bridge's `POST /tools/<name>` with the arguments as the JSON body.

use super::registry::Registry;
use super::validate::Rejection;
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

/// The message a structured transport carries for a call.
pub fn structured_message(tool: &str, arguments: &Value) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({ "name": tool, "arguments": arguments })).unwrap_or_default()
}

/// A structured transport's message, decoded and dispatched.
pub fn structured(registry: &Registry, message: &[u8], handler: &mut dyn FnMut(Value)) -> Result<(), Dispatch> {
    let envelope: Value =
        crate::json::from_slice(message).map_err(|e| Dispatch::Unroutable(format!("unreadable message: {e}")))?;
    let tool = envelope
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| Dispatch::Unroutable("the message names no tool".into()))?;
    let arguments = envelope.get("arguments").cloned().unwrap_or(Value::Null);
    direct(registry, tool, &arguments, handler)
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
