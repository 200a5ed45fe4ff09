//! An implementation's standing: per rule and per clause, how many cases of each level ended in
//! each status, and the rule's verdict.
//!
//! A rule's verdict is one of four (five with `not run`, when no case of it was selected):
//! - *does not conform*: a required case failed;
//! - *incomplete*: no required case failed, but some required case errored, timed out, or was
//!   skipped (declined as `unsupported`, or answered in a way that cannot show what it checks),
//!   or a clause none of whose selected required cases applied;
//! - *not claimed*: the implementation says it does not implement the rule, and nothing of it
//!   errored;
//! - *conforms*: claimed, and every selected required case ran and passed.
//!
//! Declining a required case is never conforming; only a case that does not apply (its rule, a
//! rule it needs, or its transports are not claimed) is left out without counting against the rule.
//! A standing over a selection that leaves out some case of a rule says so ([`RuleStanding::whole`]),
//! and no report gives such a rule a verdict badge.
//! A case that cites several clauses counts once in each clause, and once in its rule's total.
//! The checks the runner makes beyond the rule text are tallied apart, per check
//! ([`RuleStanding::readings`]), and never decide a verdict.

pub mod behaviours;
pub mod digest;
pub mod expectations;
pub mod file;
pub mod regression;

use crate::case::Level;
use crate::corpus::Corpus;
use crate::corpus::rules::Catalog;
use crate::judge::outcome::{Outcome, StatusKind};
use crate::peer::Implementation;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

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
    /// Whether every case of the rule in the corpus was selected. A verdict over part of a rule
    /// is no verdict on the rule: reports show it as partial and give it no badge.
    pub whole: bool,
    /// The clauses whose selected required cases all did not apply, so nothing of them was
    /// judged (such a clause leaves a claimed rule incomplete).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unjudged_clauses: Vec<String>,
    /// The checks beyond the rule text, each with how often it held and failed, in name order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub readings: Vec<ReadingTally>,
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

/// How one check beyond the rule text came out over a rule's cases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadingTally {
    /// The check's name (see [`crate::judge::READING_CHECKS`]).
    pub check: String,
    /// Cases where it held.
    pub held: usize,
    /// Cases where it did not.
    pub failed: usize,
}

/// Where a rule stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Claimed, and every selected required case ran and passed.
    Conforms,
    /// Some required case failed.
    DoesNotConform,
    /// No required case failed, but some errored or was skipped, or a clause had no applicable
    /// required case.
    Incomplete,
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
            Verdict::Incomplete => "incomplete",
            Verdict::NotClaimed => "not claimed",
            Verdict::NotRun => "not run",
        }
    }

    /// Whether this verdict lets a run exit 0 by itself: `conforms`, `not claimed`, `not run`.
    pub fn is_clean(self) -> bool {
        matches!(self, Verdict::Conforms | Verdict::NotClaimed | Verdict::NotRun)
    }
}

impl RuleStanding {
    /// The verdict as a heading shows it: the verdict, and `(partial selection)` when the
    /// selection left out some case of the rule.
    pub fn headline(&self) -> String {
        if self.whole || self.verdict == Verdict::NotRun {
            self.verdict.as_str().to_string()
        } else {
            format!("{} (partial selection)", self.verdict.as_str())
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

    /// Cases of `level` that were judged: passed, failed or errored. This is the denominator of
    /// a pass fraction; skipped, observed and not-applicable cases are never in it.
    pub fn judged(&self, level: Level) -> usize {
        [StatusKind::Pass, StatusKind::Fail, StatusKind::Error].iter().map(|&k| self.get(level, k)).sum()
    }

    /// Whether any case was counted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Standing {
    /// Counts `outcomes` against the catalog, taking the selection as whole for every rule.
    pub fn new(catalog: &Catalog, implementation: &Implementation, outcomes: &[Outcome]) -> Standing {
        Standing::counted(catalog, implementation, outcomes, |_| true)
    }

    /// Counts `outcomes`, a run of part or all of `corpus`: a rule some of whose cases the run
    /// left out is marked as not whole.
    ///
    /// ```
    /// use tool_conformance::{Corpus, Level, Reference, Selection, StatusKind, Standing, Verdict, run};
    ///
    /// let corpus = Corpus::embedded().expect("the corpus loads");
    /// let ran = run(&corpus, &Selection::all(), &mut Reference::new());
    /// let standing = Standing::of_run(&corpus, &ran.implementation, &ran.outcomes);
    /// for rule in &standing.rules {
    ///     assert_eq!(rule.verdict, Verdict::Conforms, "{}", rule.rule);
    ///     assert_eq!(rule.totals.get(Level::Required, StatusKind::Fail), 0);
    /// }
    /// ```
    pub fn of_run(corpus: &Corpus, implementation: &Implementation, outcomes: &[Outcome]) -> Standing {
        let ran: BTreeSet<&str> = outcomes.iter().map(|o| o.id.as_str()).collect();
        Standing::counted(&corpus.catalog, implementation, outcomes, |rule| {
            corpus.cases.iter().filter(|c| c.rule == rule).all(|c| ran.contains(c.id.as_str()))
        })
    }

    fn counted(
        catalog: &Catalog,
        implementation: &Implementation,
        outcomes: &[Outcome],
        whole: impl Fn(&str) -> bool,
    ) -> Standing {
        let rules = catalog
            .rules
            .iter()
            .map(|rule| {
                let of_rule: Vec<&Outcome> = outcomes.iter().filter(|o| o.rule == rule.id).collect();
                let mut totals = Counts::default();
                for outcome in &of_rule {
                    totals.add(outcome.level, outcome.status.kind());
                }
                let clauses: Vec<ClauseStanding> = rule
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
                let claimed = implementation.rules.contains(&rule.id);
                let unjudged_clauses: Vec<String> = if claimed { unjudged(&clauses) } else { Vec::new() };
                let held_back = of_rule.iter().any(|o| o.holds_rule_back());
                let verdict = if of_rule.iter().any(|o| o.breaks_rule()) {
                    Verdict::DoesNotConform
                } else if !claimed && !held_back {
                    Verdict::NotClaimed
                } else if of_rule.is_empty() {
                    Verdict::NotRun
                } else if held_back || !unjudged_clauses.is_empty() {
                    Verdict::Incomplete
                } else {
                    Verdict::Conforms
                };
                RuleStanding {
                    rule: rule.id.clone(),
                    title: rule.title.clone(),
                    verdict,
                    whole: whole(&rule.id),
                    unjudged_clauses,
                    readings: tally(&of_rule),
                    totals,
                    clauses,
                }
            })
            .collect();
        Standing { rules }
    }
}

/// The clauses with selected required cases, none of which applied.
fn unjudged(clauses: &[ClauseStanding]) -> Vec<String> {
    clauses
        .iter()
        .filter(|c| {
            let required = c.counts.total(Level::Required);
            required > 0 && c.counts.get(Level::Required, StatusKind::NotApplicable) == required
        })
        .map(|c| c.clause.clone())
        .collect()
}

/// Every check beyond the text that the rule's outcomes made, with how often it held and failed.
fn tally(outcomes: &[&Outcome]) -> Vec<ReadingTally> {
    let mut by_check: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for reading in outcomes.iter().flat_map(|o| &o.readings) {
        let entry = by_check.entry(reading.check.as_str()).or_default();
        if reading.failure.is_none() {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
    }
    by_check
        .into_iter()
        .map(|(check, (held, failed))| ReadingTally { check: check.to_string(), held, failed })
        .collect()
}
