//! The rule catalog, `cases/rules.yaml`: the rules the corpus tests and the clause ids cases cite.
//!
//! Format (contract: `schemas/rules.schema.json`):
//! - `rules`: a list of rules, each with
//!   - `id`: the rule id, also the name of its folder under `cases/`;
//!   - `title`: the rule in one line;
//!   - `source`: where the rule text comes from (optional);
//!   - `clauses`: a list of `{id, summary}`, where `id` is `<RULE>.<clause>` and `summary` says
//!     the clause in one line.

use serde::{Deserialize, Serialize};

/// The rule catalog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    /// The rules, in catalog order.
    pub rules: Vec<Rule>,
}

/// One rule and its clauses.
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
    /// The clauses, in catalog order.
    pub clauses: Vec<Clause>,
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

impl Catalog {
    /// The rule with this id.
    pub fn rule(&self, id: &str) -> Option<&Rule> {
        self.rules.iter().find(|rule| rule.id == id)
    }

    /// The rule a clause id belongs to, and the clause.
    pub fn clause(&self, id: &str) -> Option<(&Rule, &Clause)> {
        self.rules.iter().find_map(|rule| rule.clauses.iter().find(|c| c.id == id).map(|c| (rule, c)))
    }
}
