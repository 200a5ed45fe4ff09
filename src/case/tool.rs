//! What a tool is, as the suite registers it, and the transports and views it is reached through.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// A tool to register: its name, an optional description, and its input schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tool {
    /// The tool's name, unique within one registration.
    pub name: String,
    /// What the tool does, as a model would read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of the tool's arguments.
    pub input_schema: Value,
}

/// A way a call reaches a registered executor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    /// A provider's direct tool call: the arguments arrive as a parsed value.
    Direct,
    /// A structured transport (a JSON message naming the tool and its arguments).
    Structured,
    /// The HTTP bridge: the arguments arrive in a request body.
    Http,
}

impl Transport {
    /// All transports, in their canonical order.
    pub const ALL: [Transport; 3] = [Transport::Direct, Transport::Structured, Transport::Http];
}

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A place where a tool's schema is published.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum View {
    /// The schema returned by the get_api_spec discovery tool.
    GetApiSpec,
    /// The tool definition handed to a provider for direct calls.
    Direct,
}

impl View {
    /// Both views, in their canonical order.
    pub const ALL: [View; 2] = [View::GetApiSpec, View::Direct];
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

crate::case::words::words! { Transport { Direct => "direct", Structured => "structured", Http => "http" } }

crate::case::words::words! { View { GetApiSpec => "get_api_spec", Direct => "direct" } }
