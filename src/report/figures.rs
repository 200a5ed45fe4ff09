//! The figures a published standing's README and the table of standings both print: the counts
//! of a rule's or a clause's required cases, and the time to a standing.

use crate::case::Level;
use crate::judge::outcome::StatusKind as S;
use crate::report::about::Timing;
use crate::standing::Counts;

/// `8.1 s at --jobs 1, 3.9 s at --jobs 4`, or why there is no figure.
pub(crate) fn timing(timing: Option<&Timing>) -> String {
    match timing {
        Some(t) if !t.runs.is_empty() => {
            t.runs
                .iter()
                .map(|r| format!("{} s at `--jobs {}`", seconds(r.seconds), r.jobs))
                .collect::<Vec<_>>()
                .join(", ")
                + " (wall time of the whole corpus, install excluded)"
        }
        _ => "not measured (no timing.json)".to_string(),
    }
}

/// Seconds to one decimal, or to two under a second, so that a run of 0.05 s does not read 0.1 s.
fn seconds(value: f64) -> String {
    if value < 1.0 { format!("{value:.2}") } else { format!("{value:.1}") }
}

/// `pass | fail | error | skip | n/a` of the required cases.
pub(crate) fn statuses(counts: &Counts) -> String {
    [S::Pass, S::Fail, S::Error, S::Skip, S::NotApplicable]
        .iter()
        .map(|&k| counts.get(Level::Required, k).to_string())
        .collect::<Vec<_>>()
        .join(" | ")
}
