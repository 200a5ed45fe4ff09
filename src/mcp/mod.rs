//! MCP as a wire to the implementations the suite tests: the [`manifest`] of a run's tools, which
//! every MCP route publishes at once under stable names. The recording MCP server a gateway under
//! test forwards its calls to is `serve::mcp`.
//!
//! The harness speaks MCP on its own channels with its own exact JSON (`crate::json`): MCP is
//! JSON-RPC 2.0 framed as protocol v1 already is (a line per message on stdio, a POST per message
//! over Streamable HTTP), and an MCP SDK's own types would sort the keys of every call and round
//! long numbers before they left the harness.

pub mod manifest;

pub use manifest::{Manifest, ManifestError};

/// The name the harness's recording upstream (`tool-conformance mcp-upstream`) gives itself in
/// `initialize`'s `serverInfo`.
pub const UPSTREAM_NAME: &str = "tool-conformance-upstream";
