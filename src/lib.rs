//! A conformance suite and harness for two rules about the arguments an LLM passes to a tool:
//! RT-TOOL-8 (arguments are normalized against the tool's own schema) and PLAT-162 (every executor
//! validates against its one registered schema before its handler runs).
//!
//! # The library
//!
//! What this page shows is what the library promises; everything else is the binary's and may
//! change in any release. The entry points, in the order a run uses them:
//!
//! - **load a corpus**: [`Corpus::embedded`] (the cases built into the crate) or
//!   [`Corpus::from_dir`]; [`Selection`] picks cases by rule, clause or id glob;
//! - **run it against a [`Target`]**: implement [`Target`] for your runtime (or reach one in any
//!   language with [`StdioTarget`] or [`HttpTarget`], an MCP server or gateway over MCP itself
//!   with [`McpTarget`]; [`Reference`] is the built-in one), then
//!   [`run()`] gives a [`Run`], one [`Outcome`] per case; [`run_config`] runs what a
//!   [`RunConfig`] names, on several instances at once;
//! - **read the [`Standing`]**: the verdict per rule and clause ([`Verdict`], [`Counts`]);
//! - **write reports**: a [`report::Report`] read by every format ([`report::terminal`],
//!   [`report::markdown`], [`report::json`], [`report::junit`], [`report::html`],
//!   [`report::badge`]), or all of them into a folder with [`report::Report::write_dir`];
//! - **trials**: [`trials()`] makes the corpus `cargo test` trials for any target;
//! - **JSON**: a [`Target`]'s values are the suite's own [`json::Value`] (exact numbers, key
//!   order), read strictly by [`json::from_str`] and crossed to and from serde_json's by
//!   [`json::to_serde`] and [`json::from_serde`];
//! - **serve**: [`serve_stdio`] puts any target behind protocol v1 on stdin and stdout.
//!
//! Failures are values: whatever an implementation does, a case ends as an [`Outcome`], never a
//! panic or an `Err`.
//!
//! A Rust runtime runs the corpus against itself and reads its standing:
//!
//! ```
//! use tool_conformance::{Corpus, Reference, Selection, Standing, Verdict};
//!
//! let corpus = Corpus::embedded().expect("the embedded corpus loads");
//! let ran = tool_conformance::run(&corpus, &Selection::all(), &mut Reference::new()); // your Target here
//! let standing = Standing::of_run(&corpus, &ran.implementation, &ran.outcomes);
//! assert!(standing.rules.iter().all(|rule| rule.verdict == Verdict::Conforms));
//! let report = tool_conformance::report::Report::for_corpus(&corpus, &ran);
//! println!("{}", tool_conformance::report::terminal::render(&report));
//! ```
//!
//! The parts of the crate, each a module, and the order data flows through them, are drawn in
//! docs/architecture.md.
#![warn(missing_docs)]

// The parts. Only `json` and `report` are shown: the others serve the binary (`src/cli/`) and the
// crate's own tests, and what of them a library user needs is re-exported below.
#[doc(hidden)]
pub mod case;
#[doc(hidden)]
pub mod corpus;
#[doc(hidden)]
pub mod exit;
#[doc(hidden)]
pub mod fuzz;
pub mod json;
#[doc(hidden)]
pub mod judge;
#[doc(hidden)]
pub mod mcp;
#[doc(hidden)]
pub mod peer;
#[doc(hidden)]
pub mod reference;
pub mod report;
#[doc(hidden)]
pub mod run;
#[doc(hidden)]
pub mod serve;
#[doc(hidden)]
pub mod standing;
mod suite;
#[doc(hidden)]
pub mod trials;

pub use case::tool::{Tool, Transport, View};
pub use case::{Case, Level};
pub use corpus::{Corpus, CorpusError, CorpusErrors};
pub use json::Value;
pub use judge::outcome::{Failure, Observation, Outcome, ReadingCheck, Status, StatusKind};
pub use peer::http::HttpTarget;
pub use peer::mcp::{McpRoute, McpTarget};
pub use peer::protocol_schema::SchemaError;
pub use peer::stdio::StdioTarget;
pub use peer::transcript::WireLog;
pub use peer::{Implementation, Invocation, Target, TargetError};
pub use reference::Reference;
pub use run::config::{
    CommandLine, ConfigError, CorpusSource, HttpUrl, Limits, RunConfig, Selection, SelectionError, TargetSpec,
};
pub use run::jobs::{Ran, Transcript, run as run_config};
pub use run::{Run, run};
pub use serve::stdio::serve_stdio;
pub use standing::{ClauseStanding, Counts, ReadingTally, RuleStanding, Standing, Verdict};
pub use suite::SUITE_VERSION;
pub use trials::trials;
