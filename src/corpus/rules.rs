//! The rule catalog: one file per rule, `cases/<RULE>/rule.yaml`, beside the rule's case files.
//!
//! Format (contract: `schemas/rule.schema.json`):
//! - `id`: the rule id, also the name of its folder under `cases/`;
//! - `title`: the rule in one line;
//! - `source`: where the rule text comes from (optional);
//! - `order`: where the rule stands in the catalog (rules are listed by ascending order, and no
//!   two share one);
//! - `levels`: the levels its cases may have;
//! - `rejections`: what a rejected invoke in its cases is held to beyond what the case names,
//!   `one-error` (the one error the rule asks for) or `problems` (the case's problems only);
//! - `clauses`: a list of `{id, summary}`, where `id` is `<RULE>.<clause>` and `summary` says
//!   the clause in one line;
//! - `behaviours`: what the rule asks, as a few sentences a framework user understands, each
//!   `{id, sentence, shown_by}`, where `shown_by` lists the checks that show it as
//!   `{check, clause?}` ([`crate::case::checks`]): every required check of the rule's cases shows
//!   exactly one behaviour. Reports open with them: the share of each behaviour's required checks
//!   that passed.
//!
//! ```yaml
//! # yaml-language-server: $schema=../../schemas/rule.schema.json
//! id: TOY-1
//! title: A toy rule.
//! order: 3
//! levels: [required]
//! rejections: problems
//! clauses:
//!   - id: TOY-1.a
//!     summary: The one clause.
//! ```

use crate::case::Level;
pub use crate::case::Rejections;
use crate::case::checks::{BehaviourSelector, CheckKind};
use serde::{Deserialize, Serialize};

/// A rule file's name inside its rule's folder.
pub const RULE_FILE: &str = "rule.yaml";

/// The rule catalog: every rule file of the corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    /// The rules, in catalog order (by [`Rule::order`]).
    pub rules: Vec<Rule>,
}

/// One rule, its clauses, and what its verdict needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// The rule id, e.g. `RT-TOOL-8`.
    pub id: String,
    /// The rule in one line.
    pub title: String,
    /// Where the rule text comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Where the rule stands in the catalog.
    pub order: u64,
    /// The levels its cases may have.
    pub levels: Vec<Level>,
    /// What a rejected invoke in its cases is held to.
    pub rejections: Rejections,
    /// The clauses, in catalog order.
    pub clauses: Vec<Clause>,
    /// What the rule asks, sentence by sentence, each tied to the checks that show it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub behaviours: Vec<Behaviour>,
}

/// One behaviour a rule asks for, in a sentence, and the checks that show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Behaviour {
    /// A short kebab-case id, unique in the catalog.
    pub id: String,
    /// One sentence a framework user understands.
    pub sentence: String,
    /// The checks that show it.
    pub shown_by: Vec<BehaviourSelector>,
}

/// One clause of a rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clause {
    /// The clause id, e.g. `RT-TOOL-8.2`.
    pub id: String,
    /// The clause in one line.
    pub summary: String,
}

impl Rule {
    /// The behaviour a check of `kind` shows in a case of this rule citing `clauses`, if any.
    pub fn behaviour_of(&self, kind: CheckKind, clauses: &[String]) -> Option<&Behaviour> {
        let table = self.behaviours.iter().map(|b| (b.id.as_str(), b.shown_by.as_slice()));
        let id = crate::case::checks::behaviour_of(table, kind, clauses)?;
        self.behaviours.iter().find(|b| b.id == id)
    }
}

impl Catalog {
    /// Every behaviour of every rule, in catalog order, with its rule.
    pub fn behaviours(&self) -> impl Iterator<Item = (&Rule, &Behaviour)> {
        self.rules.iter().flat_map(|rule| rule.behaviours.iter().map(move |b| (rule, b)))
    }

    /// The rule with this id.
    pub fn rule(&self, id: &str) -> Option<&Rule> {
        self.rules.iter().find(|rule| rule.id == id)
    }

    /// The rule a clause id belongs to, and the clause.
    pub fn clause(&self, id: &str) -> Option<(&Rule, &Clause)> {
        self.rules.iter().find_map(|rule| rule.clauses.iter().find(|c| c.id == id).map(|c| (rule, c)))
    }
}
