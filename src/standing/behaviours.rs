//! What a runtime does, behaviour by behaviour: the table every report opens with.
//!
//! Each rule's file lists its behaviours, one sentence each (`cases/<RULE>/rule.yaml`,
//! [`crate::corpus::rules::Behaviour`]), and every required check of its cases shows one of them
//! ([`crate::case::checks`]). A behaviour's standing counts those checks by how they came out.
//! Its share is the part that passed of those measured: passed, failed, errored or declined
//! (`skip`). A check the answer cannot show (`not_observable`: a runtime that validates refused
//! what normalization alone would let through, or an error without structured problems) is
//! counted apart and never measured, so a runtime that validates never reads worse than one that
//! does nothing; a check whose case does not apply is counted apart too. The share is put in one
//! plain word ([`Frequency`]) a reader takes in without the counts.

use crate::corpus::rules::Catalog;
use crate::judge::outcome::{CheckResult, Outcome};
use serde::{Deserialize, Serialize};

/// One behaviour's standing: how its required checks came out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BehaviourStanding {
    /// The behaviour's id, e.g. `stops-invalid-calls`.
    pub id: String,
    /// Its rule.
    pub rule: String,
    /// The behaviour in one sentence.
    pub sentence: String,
    /// Its required checks, counted by result.
    pub required: CheckCounts,
}

/// Checks counted by how they came out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckCounts {
    /// Held.
    pub pass: usize,
    /// Did not hold.
    pub fail: usize,
    /// Their case errored.
    pub error: usize,
    /// Their case was declined (`unsupported`).
    pub skip: usize,
    /// The answer could not show them; never measured.
    #[serde(default)]
    pub not_observable: usize,
    /// Their case did not apply.
    pub not_applicable: usize,
}

impl CheckCounts {
    /// Whether some measured check did not hold: a failure, an error or a declined case, the
    /// checks a reader looks for under the behaviour.
    pub fn misses(&self) -> bool {
        self.fail + self.error + self.skip > 0
    }

    fn add(&mut self, result: CheckResult) {
        *match result {
            CheckResult::Pass => &mut self.pass,
            CheckResult::Fail => &mut self.fail,
            CheckResult::Error => &mut self.error,
            CheckResult::Skip => &mut self.skip,
            CheckResult::NotObservable => &mut self.not_observable,
            CheckResult::NotApplicable => &mut self.not_applicable,
        } += 1;
    }

    /// The checks a share is measured over: passed, failed, errored or declined.
    pub fn measured(&self) -> usize {
        self.pass + self.fail + self.error + self.skip
    }

    /// The part of the measured checks that passed, in hundredths rounded down (so that only
    /// every check passing reads 100), or `None` when none was measured.
    pub fn percent(&self) -> Option<usize> {
        let measured = self.measured();
        (measured > 0).then(|| self.pass * 100 / measured)
    }

    /// The share in a word.
    pub fn frequency(&self) -> Frequency {
        let measured = self.measured();
        match self.pass {
            _ if measured == 0 => Frequency::NotMeasured,
            pass if pass == measured => Frequency::Always,
            0 => Frequency::Never,
            pass if pass * 5 >= measured * 4 => Frequency::Mostly,
            pass if pass * 5 >= measured => Frequency::Sometimes,
            _ => Frequency::Rarely,
        }
    }

    /// What a share is measured over, in words: `12 of 14 checks`, with the checks left out
    /// (`3 not observable`, `2 not applicable`) and the measured ones that were no verdict of
    /// the runtime (`1 errored`, `4 declined`).
    pub fn over(&self) -> String {
        let mut text = format!("{} of {} checks", self.pass, self.measured());
        let apart: Vec<String> = [
            (self.error, "errored"),
            (self.skip, "declined"),
            (self.not_observable, "not observable"),
            (self.not_applicable, "not applicable"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        if !apart.is_empty() {
            text.push_str(&format!(" ({})", apart.join(", ")));
        }
        text
    }
}

/// A share in one word, for a reader who does not read the counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Frequency {
    /// Every measured check passed.
    Always,
    /// At least four in five passed.
    Mostly,
    /// At least one in five passed.
    Sometimes,
    /// Fewer than one in five, but some, passed.
    Rarely,
    /// None passed.
    Never,
    /// No check was measured (the rule is not claimed, or nothing of it could be seen).
    NotMeasured,
}

crate::case::words::words! { Frequency { Always => "always", Mostly => "mostly", Sometimes => "sometimes", Rarely => "rarely", Never => "never", NotMeasured => "not measured" } }

/// Every behaviour of the catalog, in catalog order, with the required checks of `outcomes` that
/// show it counted. A behaviour no outcome checked is listed with no counts.
pub fn tally(catalog: &Catalog, outcomes: &[Outcome]) -> Vec<BehaviourStanding> {
    catalog
        .behaviours()
        .map(|(rule, behaviour)| {
            let mut required = CheckCounts::default();
            for check in outcomes.iter().filter(|o| o.rule == rule.id).flat_map(|o| &o.checks) {
                if check.behaviour == behaviour.id {
                    required.add(check.result);
                }
            }
            BehaviourStanding {
                id: behaviour.id.clone(),
                rule: rule.id.clone(),
                sentence: behaviour.sentence.clone(),
                required,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(pass: usize, fail: usize, not_observable: usize) -> CheckCounts {
        CheckCounts { pass, fail, not_observable, ..CheckCounts::default() }
    }

    #[test]
    fn a_share_is_put_in_a_word() {
        let word = |c: CheckCounts| c.frequency().as_str();
        assert_eq!(word(counts(10, 0, 0)), "always");
        assert_eq!(word(counts(9, 1, 0)), "mostly");
        assert_eq!(word(counts(8, 2, 0)), "mostly");
        assert_eq!(word(counts(7, 3, 0)), "sometimes");
        assert_eq!(word(counts(2, 8, 0)), "sometimes");
        assert_eq!(word(counts(1, 9, 0)), "rarely");
        assert_eq!(word(counts(0, 9, 0)), "never");
        assert_eq!(word(counts(0, 0, 5)), "not measured");
        assert_eq!(counts(199, 1, 0).percent(), Some(99), "only all passing reads 100");
    }

    #[test]
    fn what_cannot_be_seen_is_never_measured() {
        // A runtime that validates: refuses what normalization alone would let through.
        let validating = counts(40, 2, 46);
        // One that does nothing: passes the pass-through cases, fails the rest.
        let idle = counts(80, 88, 0);
        assert!(validating.percent() > idle.percent());
        assert_eq!(validating.over(), "40 of 42 checks (46 not observable)");
        let declined = CheckCounts { pass: 1, skip: 4, error: 1, ..CheckCounts::default() };
        assert_eq!(declined.frequency(), Frequency::Rarely, "declining is a gap, measured against the behaviour");
        assert_eq!(declined.over(), "1 of 6 checks (1 errored, 4 declined)");
    }
}
