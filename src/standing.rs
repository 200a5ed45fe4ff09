//! An implementation's standing: per rule and per clause, how many cases of each level ended in
//! each status, and whether the rule is met.
//!
//! A rule conforms when it is claimed and none of its selected required cases failed or errored;
//! a required case that failed or errored makes it not conform, claimed or not.
//! A case that cites several clauses counts once in each clause, and once in its rule's total.

use crate::case::Level;
use crate::outcome::{Outcome, StatusKind};
use crate::rules::Catalog;
use crate::target::Implementation;
use serde::Serialize;
use std::collections::BTreeMap;

/// The standing of one implementation against every rule of the catalog.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// One entry per rule, in catalog order.
    pub rules: Vec<RuleStanding>,
}

/// One rule's standing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleStanding {
    /// The rule id.
    pub rule: String,
    /// The rule in one line.
    pub title: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Counts over the rule's cases.
    pub totals: Counts,
    /// One entry per clause, in catalog order.
    pub clauses: Vec<ClauseStanding>,
}

/// One clause's counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClauseStanding {
    /// The clause id.
    pub clause: String,
    /// The clause in one line.
    pub summary: String,
    /// Counts over the cases citing it.
    pub counts: Counts,
}

/// Where a rule stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Claimed, and every selected required case passed.
    Conforms,
    /// Claimed, and some required case failed or errored.
    DoesNotConform,
    /// The implementation does not claim the rule.
    NotClaimed,
    /// No case of the rule was selected.
    NotRun,
}

impl Verdict {
    /// The verdict in words.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Conforms => "conforms",
            Verdict::DoesNotConform => "does not conform",
            Verdict::NotClaimed => "not claimed",
            Verdict::NotRun => "not run",
        }
    }
}

/// Case counts by level, then by status.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Counts(pub BTreeMap<Level, BTreeMap<StatusKind, usize>>);

impl Counts {
    fn add(&mut self, level: Level, status: StatusKind) {
        *self.0.entry(level).or_default().entry(status).or_insert(0) += 1;
    }

    /// Cases of `level` with `status`.
    pub fn get(&self, level: Level, status: StatusKind) -> usize {
        self.0.get(&level).and_then(|m| m.get(&status)).copied().unwrap_or(0)
    }

    /// Cases of `level`, whatever their status.
    pub fn total(&self, level: Level) -> usize {
        self.0.get(&level).map(|m| m.values().sum()).unwrap_or(0)
    }

    /// Whether any case was counted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Standing {
    /// Counts `outcomes` against the catalog.
    pub fn new(catalog: &Catalog, implementation: &Implementation, outcomes: &[Outcome]) -> Standing {
        let rules = catalog
            .rules
            .iter()
            .map(|rule| {
                let of_rule: Vec<&Outcome> = outcomes.iter().filter(|o| o.rule == rule.id).collect();
                let mut totals = Counts::default();
                for outcome in &of_rule {
                    totals.add(outcome.level, outcome.status.kind());
                }
                let clauses = rule
                    .clauses
                    .iter()
                    .map(|clause| {
                        let mut counts = Counts::default();
                        for outcome in of_rule.iter().filter(|o| o.clauses.contains(&clause.id)) {
                            counts.add(outcome.level, outcome.status.kind());
                        }
                        ClauseStanding { clause: clause.id.clone(), summary: clause.summary.clone(), counts }
                    })
                    .collect();
                let verdict = if of_rule.iter().any(|o| o.breaks_rule()) {
                    Verdict::DoesNotConform
                } else if !implementation.rules.contains(&rule.id) {
                    Verdict::NotClaimed
                } else if of_rule.is_empty() {
                    Verdict::NotRun
                } else {
                    Verdict::Conforms
                };
                RuleStanding { rule: rule.id.clone(), title: rule.title.clone(), verdict, totals, clauses }
            })
            .collect();
        Standing { rules }
    }
}
