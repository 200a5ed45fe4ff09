//! `badge-<rule>.json`: one badge per rule in the shields.io endpoint format
//! (`{"schemaVersion": 1, "label", "message", "color"}`), so that a published standing can be
//! shown as a badge that follows the committed file.
//!
//! The label is the rule id; the message is the verdict and how many of the judged required cases
//! (passed, failed or errored; never skipped) passed (`conforms, 58/58 required`). The color is
//! green only when the rule conforms over a whole run of it, red when it does not conform, yellow
//! when it is incomplete (with the skipped count), and grey when it is not claimed, was not run,
//! or the selection left out some of its cases (`partial selection, 1/1 required`: no verdict).

use super::Report;
use crate::case::Level;
use crate::judge::outcome::StatusKind;
use crate::standing::{RuleStanding, Verdict};
use serde::Serialize;

/// A shields.io endpoint badge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Badge {
    /// Always 1.
    pub schema_version: u8,
    /// The left-hand text: the rule id.
    pub label: String,
    /// The right-hand text: the verdict, and the required cases passed.
    pub message: String,
    /// The right-hand color.
    pub color: String,
}

impl Badge {
    /// The badge of one rule's standing.
    pub fn of(rule: &RuleStanding) -> Badge {
        let judged = rule.totals.judged(Level::Required);
        let passed = rule.totals.get(Level::Required, StatusKind::Pass);
        let unjudged = rule.totals.get(Level::Required, StatusKind::Skip);
        if !rule.whole && rule.verdict != Verdict::NotRun {
            let message = format!("partial selection, {passed}/{judged} required");
            return Badge { schema_version: 1, label: rule.rule.clone(), message, color: "lightgrey".into() };
        }
        let message = match rule.verdict {
            Verdict::Conforms | Verdict::DoesNotConform if judged > 0 => {
                format!("{}, {passed}/{judged} required", rule.verdict.as_str())
            }
            Verdict::Incomplete => format!("incomplete, {passed}/{judged} required, {unjudged} skipped"),
            verdict => verdict.as_str().to_string(),
        };
        let color = match rule.verdict {
            Verdict::Conforms => "brightgreen",
            Verdict::DoesNotConform => "red",
            Verdict::Incomplete => "yellow",
            Verdict::NotClaimed | Verdict::NotRun => "lightgrey",
        };
        Badge { schema_version: 1, label: rule.rule.clone(), message, color: color.into() }
    }
}

/// The file name of a rule's badge.
#[doc(hidden)]
pub fn file_name(rule: &str) -> String {
    format!("badge-{rule}.json")
}

/// Every rule's badge, as (file name, JSON text), in catalog order.
pub fn render(report: &Report) -> Vec<(String, String)> {
    report
        .standing
        .rules
        .iter()
        .map(|rule| {
            let mut text = serde_json::to_string_pretty(&Badge::of(rule)).unwrap_or_default();
            text.push('\n');
            (file_name(&rule.rule), text)
        })
        .collect()
}
