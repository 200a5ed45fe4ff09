//! The implementation under test, as the runner sees it: a [`Target`] whose methods mirror the
//! protocol's commands (start, normalize, register, describe, invoke, stop).
//!
//! The built-in [`crate::Reference`] is one target; an external implementation reached over stdio
//! or HTTP is another, and a Rust runtime can implement the trait directly to run the corpus from
//! its own `cargo test`. Whatever a target returns, the runner turns into an outcome value: a
//! target never needs to be trusted.

pub(crate) mod http;
pub(crate) mod lifecycle;
pub mod mcp;
pub mod protocol;
pub mod protocol_schema;
pub mod reaper;
pub mod remote;
pub(crate) mod server;
pub(crate) mod spec;
pub(crate) mod stdio;
pub mod transcript;

use crate::case::tool::{Tool, Transport, View};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An implementation's description of itself, returned by [`Target::start`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Implementation {
    /// The implementation's name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// The language it is written in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Where to find it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homepage: Option<String>,
    /// The rule ids it claims; cases of other rules are skipped.
    pub rules: Vec<String>,
    /// The transports it claims; calls on other transports are skipped.
    pub transports: Vec<Transport>,
    /// The template its tools were published and called under (`--mcp-tool-name`; `{name}` is
    /// the suite's name), when not the suite's names themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// What it called itself, when the run names it otherwise (`--name`, `--version`): shown on
    /// the terminal, never written to a report, since a name that is random from run to run (a
    /// gateway's `FastMCPProxy-1ab8`) would make two runs' standing.json differ.
    #[serde(default, skip_serializing)]
    pub answered: Option<Answered>,
    /// The words (a name, a URL) its HTTP errors point callers back to `get_api_spec` with:
    /// what PLAT-162's "point HTTP callers back to get_api_spec" asks an HTTP error to contain.
    /// Protocol v1's start answer may say it (`get_api_spec`); an MCP run takes it from
    /// `--get-api-spec`; [`DEFAULT_SPEC_POINTER`] otherwise. Not part of a report.
    #[serde(skip, default = "default_spec_pointer")]
    pub spec_pointer: String,
}

/// The name and version an implementation gave itself, kept when a run names it otherwise.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answered {
    /// The name it answered.
    pub name: String,
    /// The version it answered (empty when none).
    pub version: String,
}

/// What an HTTP error must contain to point back to `get_api_spec` when the implementation says
/// nothing else: the tool's name.
pub const DEFAULT_SPEC_POINTER: &str = "get_api_spec";

/// The longest pointer an implementation may declare, in characters.
pub const MAX_SPEC_POINTER: usize = 512;

fn default_spec_pointer() -> String {
    DEFAULT_SPEC_POINTER.into()
}

/// Why a declared pointer cannot be used, if it cannot: it must be a non-empty string of at most
/// [`MAX_SPEC_POINTER`] characters.
pub fn spec_pointer_problem(pointer: &str) -> Option<String> {
    if pointer.trim().is_empty() {
        Some("it is empty".into())
    } else if pointer.chars().count() > MAX_SPEC_POINTER {
        Some(format!("it is longer than {MAX_SPEC_POINTER} characters"))
    } else {
        None
    }
}

impl Implementation {
    /// Its name and version as reports head it, `name version`, or the name alone when it gave
    /// no version.
    pub fn label(&self) -> String {
        if self.version.is_empty() { self.name.clone() } else { format!("{} {}", self.name, self.version) }
    }

    /// The stand-in description of an implementation that could not be started: it claims
    /// nothing, so every case of the run is an error naming why.
    pub fn not_started() -> Implementation {
        Implementation {
            name: "(did not start)".into(),
            version: String::new(),
            language: None,
            homepage: None,
            rules: Vec::new(),
            transports: Vec::new(),
            tool_name: None,
            answered: None,
            spec_pointer: default_spec_pointer(),
        }
    }
}

/// What one invoke led to, as the implementation's recording handler saw it.
///
/// Read through a plain struct rather than serde's internally tagged form, which buffers values
/// and so cannot carry arbitrary-precision numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
#[serde(try_from = "WrittenInvocation")]
pub enum Invocation {
    /// The call was executed.
    Executed {
        /// How many times the handler ran during this invoke.
        handler_calls: u64,
        /// The arguments the handler received.
        received: Value,
    },
    /// The call was rejected.
    Rejected {
        /// How many times the handler ran during this invoke.
        handler_calls: u64,
        /// The error object, as the implementation returned it (checked by the runner).
        error: Value,
    },
    /// The call was rejected with an error that carries no structured problems: an MCP error
    /// (a JSON-RPC error, or a result with `isError`) whose text is all there is, without the
    /// structured-error convention of docs/protocol.md. What the error names cannot be judged,
    /// so cases that check it are skipped as not observable, never passed.
    ///
    /// Only the harness's MCP client makes one: a protocol-v1 answer never reads as one (the
    /// protocol's rejection always carries its error object, judged in full).
    RejectedUnstructured {
        /// How many times the handler ran during this invoke.
        handler_calls: u64,
        /// The error's text, as the implementation gave it.
        message: String,
    },
}

/// An invocation as written on the wire.
#[derive(Deserialize)]
struct WrittenInvocation {
    outcome: String,
    handler_calls: u64,
    #[serde(default)]
    received: Option<Value>,
    #[serde(default)]
    error: Option<Value>,
}

impl TryFrom<WrittenInvocation> for Invocation {
    type Error = String;

    fn try_from(w: WrittenInvocation) -> Result<Self, String> {
        match (w.outcome.as_str(), w.received, w.error) {
            ("executed", Some(received), _) => Ok(Invocation::Executed { handler_calls: w.handler_calls, received }),
            ("rejected", _, Some(error)) => Ok(Invocation::Rejected { handler_calls: w.handler_calls, error }),
            (other, _, _) => Err(format!("outcome {other:?} needs received (executed) or error (rejected)")),
        }
    }
}

/// Why a target could not answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TargetError {
    /// The implementation does not support this command or input; the case is skipped.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The implementation broke (crashed, hung, answered garbage); the case is an error.
    #[error("{0}")]
    Broken(String),
    /// The implementation refused the arguments of a normalize before any tool could run, with
    /// this error object (protocol: `{"rejected": …}`). Nothing reached the tool, so the case
    /// fails: its actual value is `{"rejected": error}`. Only normalize may answer so.
    #[error("refused the arguments before any tool ran: {0}")]
    Refused(Value),
    /// The way the harness reaches the implementation cannot carry the case's input at all, so
    /// the case does not apply: over MCP, a tool whose input schema MCP's own schema of a tool
    /// does not allow (no MCP upstream can publish it to a gateway). Never the implementation's
    /// refusal, which is [`TargetError::Unsupported`]; protocol v1 has no answer that reads as it.
    #[error("not applicable: {0}")]
    NotApplicable(String),
    /// The tool ran, on a normalize or an invoke, and received a value JSON cannot carry (a NaN,
    /// an infinity: what a lenient decoder makes of the text `[1, NaN]`), so it cannot be answered
    /// as JSON. The text is what it received as the implementation renders it (Python's repr,
    /// say), never read as JSON (protocol: `{"not_json": text}`; over MCP, a record line
    /// `{"tool", "not_json"}`). The tool ran with a value other than any the case expects, so the
    /// case fails, its actual value `{"received_not_json": text}`.
    #[error("the tool ran and received a value JSON cannot carry: {0}")]
    NotJson(String),
}

/// An implementation under test. Implement it for a Rust runtime to run the corpus against it in
/// process; an implementation in any other language is reached over protocol v1 by
/// [`crate::StdioTarget`] or [`crate::HttpTarget`]. Whatever a target returns is compared,
/// never trusted.
///
/// ```
/// use tool_conformance::{Corpus, Implementation, Invocation, Reference, Selection, Target};
/// use tool_conformance::{TargetError, Tool, Transport, Value, View, run};
///
/// /// A runtime under test; this one hands every request to the built-in reference.
/// struct MyRuntime(Reference);
///
/// impl Target for MyRuntime {
///     fn start(&mut self) -> Result<Implementation, TargetError> {
///         let mut about = self.0.start()?;
///         about.name = "my-runtime".into();
///         Ok(about)
///     }
///     fn normalize(&mut self, input_schema: &Value, arguments: &Value) -> Result<Value, TargetError> {
///         self.0.normalize(input_schema, arguments)
///     }
///     fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
///         self.0.register(tools)
///     }
///     fn describe(&mut self, tool: &str, view: View) -> Result<Value, TargetError> {
///         self.0.describe(tool, view)
///     }
///     fn invoke(&mut self, tool: &str, transport: Transport, arguments: &Value) -> Result<Invocation, TargetError> {
///         self.0.invoke(tool, transport, arguments)
///     }
/// }
///
/// let corpus = Corpus::embedded().expect("the corpus loads");
/// let ran = run(&corpus, &Selection::all(), &mut MyRuntime(Reference::new()));
/// assert_eq!(ran.implementation.name, "my-runtime");
/// assert!(!ran.breaks_a_rule());
/// ```
pub trait Target {
    /// Starts the implementation and returns its description and claims. Called once per run.
    fn start(&mut self) -> Result<Implementation, TargetError>;

    /// RT-TOOL-8: the arguments that would reach a tool with this input schema, or
    /// [`TargetError::Refused`] when the runtime refuses them before any tool could run.
    fn normalize(&mut self, input_schema: &Value, arguments: &Value) -> Result<Value, TargetError>;

    /// Replaces the whole registry with these tools, each with a recording handler.
    fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError>;

    /// The input schema a view publishes for a registered tool.
    fn describe(&mut self, tool: &str, view: View) -> Result<Value, TargetError>;

    /// Calls a registered tool on a transport.
    fn invoke(&mut self, tool: &str, transport: Transport, arguments: &Value) -> Result<Invocation, TargetError>;

    /// Stops the implementation. Called once at the end of a run.
    fn stop(&mut self) -> Result<(), TargetError> {
        Ok(())
    }

    /// Whether `normalize` is a call of a tool through the implementation (an MCP route or an
    /// HTTP bridge), whose handler a validating implementation never lets run, rather than a
    /// command of an adapter that can answer what normalization alone makes of the arguments.
    fn normalize_is_a_call(&self) -> bool {
        false
    }
}

macro_rules! forward_target {
    ($($ty:ty),*) => {$(
        impl<T: Target + ?Sized> Target for $ty {
            fn start(&mut self) -> Result<Implementation, TargetError> {
                (**self).start()
            }
            fn normalize(&mut self, input_schema: &Value, arguments: &Value) -> Result<Value, TargetError> {
                (**self).normalize(input_schema, arguments)
            }
            fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
                (**self).register(tools)
            }
            fn describe(&mut self, tool: &str, view: View) -> Result<Value, TargetError> {
                (**self).describe(tool, view)
            }
            fn invoke(&mut self, tool: &str, transport: Transport, arguments: &Value) -> Result<Invocation, TargetError> {
                (**self).invoke(tool, transport, arguments)
            }
            fn stop(&mut self) -> Result<(), TargetError> {
                (**self).stop()
            }
            fn normalize_is_a_call(&self) -> bool {
                (**self).normalize_is_a_call()
            }
        }
    )*};
}

forward_target!(Box<T>, &mut T);
