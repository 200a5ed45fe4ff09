//! Any [`crate::Target`] behind protocol v1 — the built-in reference above all — so implementers have a
//! working peer to compare their adapter with, and the suite can test its own transports.
//!
//! The front ends of a [`Server`] (the protocol's server side, in `peer::server`):
//! [`stdio`] serves it on stdin and stdout (`tool-conformance serve --stdio`) and [`http`] on a
//! loopback HTTP port (`serve --http`). [`mcp`] is another server on the same channels: the
//! recording MCP upstream (`mcp-upstream`) that a gateway under test forwards to.

pub mod http;
pub mod mcp;
pub mod stdio;

pub use crate::peer::server::{Handled, Loopback, Server};
