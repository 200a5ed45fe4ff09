//! MCP servers and MCP gateways tested over MCP itself, with no protocol-v1 adapter: the harness
//! is their MCP client (`client`, over stdio or Streamable HTTP, on the harness's own channels
//! with exact JSON, `wire`), reads what each published tool's handler received from the record
//! (`record`), and is, for a gateway, also the upstream MCP server it forwards to
//! (`serve::mcp`, `tool-conformance mcp-upstream`). An HTTP bridge in front of that upstream is
//! called over HTTP instead (`bridge`). [`McpTarget`] is all of it as a [`crate::Target`], for
//! the six routes of [`McpRoute`].

pub(crate) mod bridge;
pub(crate) mod client;
pub(crate) mod record;
pub(crate) mod target;
pub(crate) mod wire;

pub use crate::peer::spec::McpRoute;
pub use target::{
    BRIDGE_PLACEHOLDERS, McpTarget, PLACEHOLDERS, record_mismatch, unknown_placeholder, unknown_placeholder_of,
};
