//! The case format: what one YAML case file holds, field by field, and the [`Case`] it becomes.
//!
//! A case file is `cases/<RULE>/<topic>.yaml`; its first line is a yaml-language-server modeline
//! pointing at `schemas/case.schema.json`, the contract that every file is validated against.
//! A case's id is `<RULE>/<topic>/<name>`: stable, and never reused for another check.
//!
//! ```yaml
//! # yaml-language-server: $schema=../../schemas/case.schema.json
//! description: …                  # optional: what the topic covers
//! groups:                         # cases that share a schema or tools
//!   - description: …              # optional
//!     input_schema: {…}           # optional: default for the group's normalize cases
//!     tools: [{name, description?, input_schema}]   # optional: default for invoke and describe
//!     cases:
//!       - name: kebab-case-name   # last part of the id
//!         clauses: [RT-TOOL-8.2]  # clause ids of the file's rule, from cases/<RULE>/rule.yaml
//!         level: required         # required | interpretation | informational
//!         summary: …              # one line: what is checked
//!         note: …                 # the reading taken; mandatory unless level is required
//!         needs: [PLAT-162]       # optional: other rules the expectation relies on
//!         normalize: …            # exactly one of normalize, invoke, describe
//! ```
//!
//! `needs` names other rules of the catalog whose behaviour the expectation also relies on: an
//! RT-TOOL-8 case that expects a rejection shows what normalization handed to validation, which
//! only PLAT-162 asks for. Such a case does not apply (`not_applicable`) to an implementation that
//! does not claim every rule it needs, and it counts toward the rule of its file.
//!
//! The three kinds of check:
//! - `normalize`: `input_schema` (or the group's), `arguments` as a model sent them, and
//!   `expected`, the arguments that must reach the tool.
//! - `invoke`: `tools` to register (or the group's), then a call: `tool`, `arguments`, and
//!   `transports` (any of `direct`, `structured`, `http`; all three when absent). `expected` is
//!   either `{outcome: executed, received}`, where `received` is what the handler must get (it runs
//!   exactly once), or `{outcome: rejected, problems, problems_at_least?, expected_fields?}`, where
//!   `problems` is the exact set of `{kind, field?, alternatives?}` the error must name (order
//!   ignored; with `problems_at_least: true`, a set it must include) and the handler never runs. For every rejected call of a PLAT-162 case the runner also checks,
//!   without being asked, that the error has a message, that its `expected_fields` include the
//!   declared root properties the schema requires and nothing the schema does not expect, that on
//!   HTTP it points to get_api_spec (the words the implementation declares), and that the call
//!   repeated gives the identical error and with its keys reversed the same problems; beyond the
//!   text, and reported apart, that the message names the fields and get_api_spec, that
//!   `expected_fields` is exactly `expected_fields` here (or else every root property of the
//!   schema plus the names its root `required` and root anyOf/oneOf branches require), and that
//!   the error is identical whatever the key order and on every transport.
//!   `crate::judge::checks_of` lists every check of a case, each at its level. A rejection in a
//!   case of another rule is read for its problems only.
//! - `describe`: `tools` (or the group's), a `tool`, and `views` (`get_api_spec`, `direct`; both
//!   when absent) that must each publish the schema the tool was registered with: in a required
//!   case its contract (`judge::contract`), in an interpretation case the document itself.
//!
//! An `informational` case gives `behaviours`, a list of `{name, expected}` with at least two
//! entries, instead of `expected`: the report records which one the implementation showed (or
//! `other`), and never counts it as a failure.
//!
//! Values compare semantically (see `json::compare`). YAML numbers are 64-bit, so a value whose
//! exact digits matter is written as JSON text under the `!json` tag.

pub mod checks;
pub mod tool;
pub(crate) mod words;

use crate::case::tool::{Tool, Transport, View};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use std::path::PathBuf;

/// How a case's result counts towards a rule's standing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Follows from the rule text; a failure means the rule is not met.
    Required,
    /// The text is ambiguous; the case's note states the reading the suite takes.
    Interpretation,
    /// The rule leaves the point open; the report records the behaviour seen.
    Informational,
}

impl Level {
    /// All levels, in order.
    pub const ALL: [Level; 3] = [Level::Required, Level::Interpretation, Level::Informational];
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the runner holds a rejected invoke of a rule's case to, beyond what the case names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rejections {
    /// The one error the rule asks for: it has a message, problems and expected fields; its
    /// expected fields include every required declared root property; on HTTP it points to
    /// get_api_spec; the same call repeated, and with its keys reversed, gives the same error.
    OneError,
    /// The problems the case names, which show what validation saw, and nothing more.
    #[default]
    Problems,
}

/// Where a case is defined.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    /// The case file, relative to the corpus root.
    pub file: PathBuf,
    /// 1-based line of the case's entry.
    pub line: usize,
    /// 1-based column of the case's entry.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.column)
    }
}

/// One case of the corpus, resolved: group defaults applied, id assigned.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// `<RULE>/<topic>/<name>`.
    pub id: String,
    /// The rule id (the case file's folder).
    pub rule: String,
    /// The clause ids the case checks.
    pub clauses: Vec<String>,
    /// How the result counts.
    pub level: Level,
    /// One line: what is checked.
    pub summary: String,
    /// The reading taken, for interpretation and informational cases.
    pub note: Option<String>,
    /// Other rules the case's expectation also relies on (an RT-TOOL-8 case that expects a
    /// rejection relies on PLAT-162's validation). The case does not apply to an implementation
    /// that does not claim them all; it counts toward its own rule.
    pub needs: Vec<String>,
    /// What to do and what to expect.
    pub check: Check,
    /// What a rejected invoke is held to, from the rule's file.
    pub rejections: Rejections,
    /// Where the case is defined.
    pub location: Location,
    /// The behaviour of its rule that each of its required checks shows, resolved from the rule
    /// file's `behaviours` and the case's clauses ([`checks::behaviour_of`]); empty for a case of
    /// a rule that lists none, and for cases that are not required.
    pub shows: std::collections::BTreeMap<checks::CheckKind, String>,
}

/// The three kinds of check.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    /// Normalize arguments against a schema.
    Normalize {
        /// The tool's input schema.
        input_schema: Value,
        /// The arguments as a model sent them.
        arguments: Value,
        /// The arguments that must reach the tool.
        expect: Expect<Value>,
    },
    /// Register tools and call one.
    Invoke {
        /// The tools to register.
        tools: Vec<Tool>,
        /// The tool to call.
        tool: String,
        /// The arguments as a model sent them.
        arguments: Value,
        /// The transports to call on.
        transports: Vec<Transport>,
        /// The expected outcome.
        expect: Expect<InvokeExpectation>,
    },
    /// Register tools and read a tool's published schema.
    Describe {
        /// The tools to register.
        tools: Vec<Tool>,
        /// The tool whose schema is read.
        tool: String,
        /// The views to read.
        views: Vec<View>,
    },
}

/// One expectation, or for informational cases the possible behaviours.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect<T> {
    /// The single correct result.
    One(T),
    /// The behaviours the rule leaves open, by name.
    Behaviours(Vec<(String, T)>),
}

/// What an invoke must lead to.
///
/// Read through a plain struct rather than serde's internally tagged form, which buffers values
/// and so cannot carry arbitrary-precision numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
#[serde(try_from = "file::Expectation")]
pub enum InvokeExpectation {
    /// The handler runs once and receives exactly these arguments.
    Executed {
        /// What the handler receives.
        received: Value,
    },
    /// The call is rejected with one error naming exactly these problems (at least these, when
    /// `problems_at_least`).
    Rejected {
        /// The problems the error names, in any order.
        problems: Vec<Problem>,
        /// The error must name these problems and may name others too: for a call whose text names
        /// some of its problems and leaves the complete set to a reading.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        problems_at_least: bool,
        /// The fields the error lists as expected; derived from the schema when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        expected_fields: Option<Vec<String>>,
    },
}

/// The problem kinds a case can expect, in the order errors list them.
pub const PROBLEM_KINDS: [&str; 6] =
    ["missing_required", "unknown_field", "wrong_type", "not_in_enum", "too_short", "no_alternative"];

/// One problem a rejection names.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Problem {
    /// missing_required, unknown_field, wrong_type, not_in_enum, too_short or no_alternative.
    pub kind: String,
    /// The root argument name, when the problem is about one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// For no_alternative: the required-field sets, none of which is satisfied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternatives: Option<Vec<Vec<String>>>,
}

/// The expected fields of a rejection when a case does not list them: every root property the
/// schema declares, plus every name required by its root `required` or by the `required` of a
/// root `anyOf`/`oneOf` branch, sorted. (Written here, apart from the reference's own version, so
/// that the suite's oracle never shares code with the implementation it checks.)
pub fn derived_expected_fields(schema: &Value) -> Vec<String> {
    let mut fields: Vec<String> = Vec::new();
    if let Some(Value::Object(properties)) = schema.get("properties") {
        fields.extend(properties.keys().cloned());
    }
    let branches = ["anyOf", "oneOf"].into_iter().filter_map(|k| schema.get(k)?.as_array()).flatten();
    for holder in std::iter::once(schema).chain(branches) {
        if let Some(Value::Array(names)) = holder.get("required") {
            fields.extend(names.iter().filter_map(Value::as_str).map(String::from));
        }
    }
    fields.sort();
    fields.dedup();
    fields
}

/// The schema with its root closed as PLAT-162 closes it: unless the schema declares
/// `additionalProperties`, every expected field ([`derived_expected_fields`]) is declared (`true`
/// where the schema only requires it) and `additionalProperties` is `false`. The suite's own, like
/// [`derived_expected_fields`].
pub fn closed_root(schema: &Value) -> Value {
    let mut closed = schema.clone();
    if let Value::Object(map) = &mut closed {
        if !map.contains_key("additionalProperties") {
            let known = derived_expected_fields(schema);
            if let Value::Object(properties) =
                map.entry("properties").or_insert_with(|| Value::Object(Default::default()))
            {
                for name in known {
                    properties.entry(name).or_insert(Value::Bool(true));
                }
            }
            map.insert("additionalProperties".into(), Value::Bool(false));
        }
    }
    closed
}

/// The file as written: what serde reads after the file has passed the JSON Schema.
pub(crate) mod file {
    use super::{Level, Tool, Transport, View};
    use crate::case::InvokeExpectation;
    use serde::Deserialize;
    use serde_json::Value;

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct CaseFile {
        #[allow(dead_code)]
        pub description: Option<String>,
        pub groups: Vec<Group>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Group {
        #[allow(dead_code)]
        pub description: Option<String>,
        pub input_schema: Option<Value>,
        pub tools: Option<Vec<Tool>>,
        pub cases: Vec<RawCase>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct RawCase {
        pub name: String,
        pub clauses: Vec<String>,
        pub level: Level,
        pub summary: String,
        pub note: Option<String>,
        #[serde(default)]
        pub needs: Vec<String>,
        pub normalize: Option<Normalize>,
        pub invoke: Option<Invoke>,
        pub describe: Option<Describe>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Behaviour<T> {
        pub name: String,
        pub expected: T,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Normalize {
        pub input_schema: Option<Value>,
        pub arguments: Value,
        #[serde(default, deserialize_with = "present")]
        pub expected: Option<Value>,
        pub behaviours: Option<Vec<Behaviour<Value>>>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Invoke {
        pub tools: Option<Vec<Tool>>,
        pub tool: String,
        pub arguments: Value,
        pub transports: Option<Vec<Transport>>,
        pub expected: Option<InvokeExpectation>,
        pub behaviours: Option<Vec<Behaviour<InvokeExpectation>>>,
    }

    /// An invoke expectation as written.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Expectation {
        outcome: String,
        #[serde(default, deserialize_with = "present")]
        received: Option<Value>,
        problems: Option<Vec<super::Problem>>,
        #[serde(default)]
        problems_at_least: bool,
        expected_fields: Option<Vec<String>>,
    }

    impl TryFrom<Expectation> for InvokeExpectation {
        type Error = String;

        fn try_from(e: Expectation) -> Result<Self, String> {
            match (e.outcome.as_str(), e.received, e.problems) {
                ("executed", Some(received), None) if e.expected_fields.is_none() && !e.problems_at_least => {
                    Ok(InvokeExpectation::Executed { received })
                }
                ("rejected", None, Some(problems)) => Ok(InvokeExpectation::Rejected {
                    problems,
                    problems_at_least: e.problems_at_least,
                    expected_fields: e.expected_fields,
                }),
                _ => Err("an expectation is {outcome: executed, received} or {outcome: rejected, problems, problems_at_least?, expected_fields?}".into()),
            }
        }
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Describe {
        pub tools: Option<Vec<Tool>>,
        pub tool: String,
        pub views: Option<Vec<View>>,
    }

    /// Reads a field that is present, even when its value is null, as `Some`.
    fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
        Value::deserialize(d).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_keep_big_numbers_exact() {
        let text = r#"{"outcome": "executed", "received": {"n": 12345678901234567890123}}"#;
        let e: InvokeExpectation = crate::json::from_str(text).unwrap();
        let InvokeExpectation::Executed { received } = e else { panic!() };
        assert_eq!(received["n"].to_string(), "12345678901234567890123");
        let text = r#"{"outcome": "executed", "handler_calls": 1, "received": {"n": 1.50000000000000000001}}"#;
        let i: crate::Invocation = crate::json::from_str(text).unwrap();
        assert_eq!(serde_json::to_value(&i).unwrap()["received"]["n"].to_string(), "1.50000000000000000001");
    }
}

crate::case::words::words! { Level { Required => "required", Interpretation => "interpretation", Informational => "informational" } }
