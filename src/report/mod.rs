//! Reports: every format reads the same [`Report`] value, built from a run's outcomes.
//!
//! - [`terminal`]: the standing as tables, then each failing case with its diff;
//! - [`markdown`]: `standing.md`, tables that render on GitHub, failures in ```diff blocks;
//! - [`json`]: `standing.json`, everything, for machines.
//!
//! Reports are deterministic: the same implementation and corpus give the same bytes (no
//! timestamps, cases in corpus order).

pub mod json;
pub mod markdown;
pub mod terminal;

use crate::outcome::{Outcome, Status};
use crate::rules::Catalog;
use crate::runner::Run;
use crate::standing::Standing;
use crate::target::Implementation;
use serde::Serialize;
use std::path::Path;

/// Everything a reporter shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The suite that ran.
    pub suite: Suite,
    /// The implementation tested.
    pub implementation: Implementation,
    /// Per rule and clause.
    pub standing: Standing,
    /// Every case, in corpus order.
    pub cases: Vec<Outcome>,
}

/// The suite's name and version.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Suite {
    /// Always `tool-conformance`.
    pub name: String,
    /// The suite's version.
    pub version: String,
}

impl Report {
    /// The report of a run.
    pub fn new(catalog: &Catalog, run: &Run) -> Report {
        Report {
            suite: Suite { name: "tool-conformance".into(), version: crate::SUITE_VERSION.into() },
            standing: Standing::new(catalog, &run.implementation, &run.outcomes),
            implementation: run.implementation.clone(),
            cases: run.outcomes.clone(),
        }
    }

    /// The outcomes a reader must look at: failures and errors, at any level.
    pub fn problems(&self) -> impl Iterator<Item = &Outcome> {
        self.cases.iter().filter(|o| matches!(o.status, Status::Fail(_) | Status::Error { .. }))
    }

    /// Writes standing.json and standing.md into `dir`, creating it. Each file is written to a
    /// temporary name and renamed, so a report is never left half-written.
    pub fn write_dir(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        write_atomically(&dir.join("standing.json"), &json::render(self))?;
        write_atomically(&dir.join("standing.md"), &markdown::render(self))?;
        Ok(())
    }
}

fn write_atomically(path: &Path, contents: &str) -> std::io::Result<()> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, contents)?;
    std::fs::rename(&partial, path)
}

/// A table cell for one level of a [`crate::standing::Counts`]: `passed/total`, then any
/// failures, errors and skips, or the number observed for informational cases; `-` when empty.
pub fn cell(counts: &crate::standing::Counts, level: crate::case::Level) -> String {
    use crate::case::Level;
    use crate::outcome::StatusKind as S;
    let total = counts.total(level);
    if total == 0 {
        return "-".into();
    }
    if level == Level::Informational {
        let mut text = format!("{} seen", counts.get(level, S::Observed));
        for kind in [S::Error, S::Skip] {
            let n = counts.get(level, kind);
            if n > 0 {
                text.push_str(&format!(", {n} {}", kind.as_str()));
            }
        }
        return text;
    }
    let mut text = format!("{}/{}", counts.get(level, S::Pass), total);
    for kind in [S::Fail, S::Error, S::Skip] {
        let n = counts.get(level, kind);
        if n > 0 {
            text.push_str(&format!(", {n} {}", kind.as_str()));
        }
    }
    text
}
