//! A conformance suite and harness for two rules about the arguments an LLM passes to a tool:
//! RT-TOOL-8 (arguments are normalized against the tool's own schema) and PLAT-162 (every executor
//! validates against its one registered schema before its handler runs).
//!
//! The parts, each a module, and the order data flows through them (docs/architecture.md has the
//! picture and the rule of which part may use which):
//! - [`json`]: the suite's JSON values (exact numbers, key order), semantic comparison, JSON
//!   pointers and diffs;
//! - [`case`]: the case model, its tools and transports, and what a case expects;
//! - [`corpus`]: loading and linting case files and rule files (one `rule.yaml` per rule), the
//!   embedded corpus, the digest of the files that ran;
//! - [`peer`]: the implementation under test ([`Target`]), protocol v1 and the stdio and HTTP
//!   channels that reach an implementation in any language; [`mod@reference`] is the built-in
//!   implementation;
//! - [`mod@run`]: running a selection on one or more instances of a target, each case ending as an
//!   [`Outcome`] value; [`mod@trials`] turns the corpus into `cargo test` trials for any target;
//! - [`standing`]: counting outcomes per rule and clause into verdicts, expected failures, reading
//!   a standing.json back and comparing two;
//! - [`report`]: every format (terminal, Markdown, JSON, JUnit, HTML, badges, the table of
//!   published standings), each reading the same values;
//! - [`serve`]: any target behind protocol v1;
//! - [`fuzz`]: differential fuzzing against the reference, judged by the runner, shrunk and
//!   written as case files.
//!
//! A Rust runtime runs the corpus from its own `cargo test`:
//!
//! ```no_run
//! use tool_conformance::{Corpus, Reference, Selection, run};
//!
//! let corpus = Corpus::embedded().expect("the embedded corpus loads");
//! let ran = run::run(&corpus, &Selection::all(), &mut Reference::new()); // your Target here
//! let report = tool_conformance::report::Report::for_corpus(&corpus, &ran);
//! println!("{}", tool_conformance::report::terminal::render(&report));
//! ```
#![warn(missing_docs)]

pub mod case;
pub mod corpus;
pub mod exit;
pub mod fuzz;
pub mod json;
pub mod judge;
pub mod peer;
pub mod reference;
pub mod report;
pub mod run;
pub mod serve;
pub mod standing;
mod suite;
pub mod trials;

pub use case::tool::{Tool, Transport, View};
pub use case::{Case, Level};
pub use corpus::{Corpus, CorpusError};
pub use judge::outcome::{Outcome, Status};
pub use peer::http::HttpTarget;
pub use peer::stdio::StdioTarget;
pub use peer::{Implementation, Invocation, Target, TargetError};
pub use reference::Reference;
pub use run::Run;
pub use run::config::{RunConfig, Selection};
pub use standing::Standing;
pub use trials::trials;

pub use suite::SUITE_VERSION;
