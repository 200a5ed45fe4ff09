//! A conformance suite and harness for two rules about the arguments an LLM passes to a tool:
//! RT-TOOL-8 (arguments are normalized against the tool's own schema) and PLAT-162 (every executor
//! validates against its one registered schema before its handler runs).
//!
//! The pieces, in the order data flows through them:
//! - [`corpus`] loads the YAML case files ([`case`] documents the format) and the rule catalog
//!   ([`rules`]);
//! - a [`target::Target`] is the implementation under test; [`mod@reference`] is the built-in one;
//! - [`runner`] runs each case against a target and produces an [`outcome::Outcome`] value;
//! - [`standing`] counts outcomes per rule and clause, and every [`report`] reads the same values
//!   (terminal, Markdown, JSON, JUnit, HTML, badges), with the [`digest`] of the case files that
//!   ran and, given an [`expectations`] file, the triage of known failures;
//! - [`regression`] compares two standings, and [`table`] sets published standings side by side;
//! - [`mod@trials`] turns the corpus into `cargo test` trials for any target.
//!
//! An implementation in any language is reached through protocol v1 ([`protocol`]): a
//! [`remote::Remote`] target speaks it over [`stdio`] or [`http`], within timeouts and restart
//! limits, and [`jobs`] runs a selection on several instances at once. [`serve`] puts any target
//! (the reference above all) behind the same protocol.
#![warn(missing_docs)]

pub mod case;
pub mod compare;
pub mod config;
pub mod contract;
pub mod corpus;
pub mod diff;
pub mod digest;
pub mod exit;
pub mod expectations;
pub mod http;
pub mod jobs;
pub mod json;
pub mod outcome;
pub mod protocol;
pub mod protocol_schema;
pub mod reference;
pub mod regression;
pub mod remote;
pub mod report;
pub mod rules;
pub mod runner;
pub mod serve;
pub mod standing;
pub mod standing_file;
pub mod stdio;
pub mod surrogate;
pub mod table;
pub mod target;
pub mod tool;
pub mod transcript;
pub mod trials;
mod yaml;

pub use case::{Case, Level};
pub use config::{RunConfig, Selection};
pub use corpus::{Corpus, CorpusError};
pub use http::HttpTarget;
pub use outcome::{Outcome, Status};
pub use reference::Reference;
pub use runner::Run;
pub use standing::Standing;
pub use stdio::StdioTarget;
pub use target::{Implementation, Invocation, Target, TargetError};
pub use tool::{Tool, Transport, View};
pub use trials::trials;

/// The suite's version, pinned in every report.
pub const SUITE_VERSION: &str = env!("CARGO_PKG_VERSION");
