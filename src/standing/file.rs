//! One typed reader of `standing.json`, for every part that reads a published standing back
//! (`compare`, `table`).
//!
//! [`crate::report::json`] writes the file from a [`crate::report::Report`]; this module reads
//! what of it the readers need, leniently, so that standings written by other versions of the
//! suite still read: fields they lack take their defaults (`whole` is true, an absent triage is
//! empty), verdicts are kept as the words written, levels and statuses are read as the suite's
//! own [`Level`] and [`StatusKind`] (an unknown word is an error, so that nothing is silently
//! miscounted), and members this reader does not know are ignored. Its contract is `schemas/report.schema.json`.

use crate::case::Level;
use crate::judge::outcome::StatusKind;
use crate::standing::Counts;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A standing.json, as read back.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct StandingFile {
    /// The suite that wrote it.
    #[serde(default)]
    pub suite: SuiteEntry,
    /// The implementation's description of itself.
    pub implementation: ImplementationEntry,
    /// Per rule and clause.
    pub standing: StandingEntry,
    /// Per behaviour (empty in a standing written before behaviours were).
    #[serde(default)]
    pub behaviours: Vec<crate::standing::behaviours::BehaviourStanding>,
    /// Every case that ran.
    pub cases: Vec<CaseEntry>,
    /// With an expected-failures file: its triage.
    #[serde(default)]
    pub expected_failures: Option<TriageEntry>,
}

/// The suite block.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct SuiteEntry {
    /// The suite's version.
    #[serde(default)]
    pub version: Option<String>,
    /// The case files that ran.
    #[serde(default)]
    pub corpus: Option<CorpusEntry>,
}

/// The corpus block: its digest and files.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CorpusEntry {
    /// `sha256:…` of the listing.
    pub digest: String,
    /// Each file with its SHA-256.
    #[serde(default)]
    pub files: Vec<CorpusFileEntry>,
}

/// One corpus file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CorpusFileEntry {
    /// Relative to the corpus root.
    pub path: String,
    /// Its SHA-256.
    pub sha256: String,
}

/// The implementation block.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ImplementationEntry {
    /// Its name.
    pub name: String,
    /// Its version.
    #[serde(default)]
    pub version: String,
    /// The transports it claimed.
    #[serde(default)]
    pub transports: Vec<String>,
    /// The template its tools were called under (`--mcp-tool-name`), when one was given.
    #[serde(default)]
    pub tool_name: Option<String>,
}

/// The standing block.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct StandingEntry {
    /// One entry per rule.
    pub rules: Vec<RuleEntry>,
}

/// One rule's standing.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RuleEntry {
    /// The rule id.
    pub rule: String,
    /// The verdict as written (`conforms`, `does_not_conform`, `incomplete`, …).
    #[serde(default)]
    pub verdict: String,
    /// Whether the run covered every case of the rule.
    #[serde(default = "yes")]
    pub whole: bool,
    /// Counts over its cases.
    #[serde(default, deserialize_with = "counts")]
    pub totals: Counts,
    /// Per clause.
    #[serde(default)]
    pub clauses: Vec<ClauseEntry>,
}

/// One clause's counts.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ClauseEntry {
    /// The clause id.
    pub clause: String,
    /// Counts over the cases citing it.
    #[serde(default, deserialize_with = "counts")]
    pub counts: Counts,
}

/// One case's outcome.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CaseEntry {
    /// The case id.
    pub id: String,
    /// Its level (`None` in a standing that did not write it).
    #[serde(default)]
    pub level: Option<Level>,
    /// The clauses it cites.
    #[serde(default)]
    pub clauses: Vec<String>,
    /// Its status.
    pub status: StatusKind,
    /// Why it errored, was skipped or did not apply.
    #[serde(default)]
    pub reason: Option<String>,
    /// For an observed case: the behaviour seen (`None` for other).
    #[serde(default)]
    pub behaviour: Option<String>,
    /// What the case checks, in one line.
    #[serde(default)]
    pub summary: Option<String>,
    /// For a failed case: what was checked (`invoke on direct`, `arguments reaching the tool`).
    #[serde(default)]
    pub check: Option<String>,
    /// For a failed case: what was expected.
    #[serde(default)]
    pub expected: Option<crate::json::Value>,
    /// For a failed case: what happened instead.
    #[serde(default)]
    pub actual: Option<crate::json::Value>,
    /// Every check the case made, each with its behaviour and result (none in a standing that
    /// did not write them).
    #[serde(default)]
    pub checks: Vec<CheckEntry>,
}

/// One check a case made, as standing.json writes it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct CheckEntry {
    /// The check's kind (`handler-not-run`, `problems-named`, …).
    pub check: String,
    /// The id of the behaviour it shows.
    pub behaviour: String,
    /// `pass`, `fail`, `error`, `skip`, `not_observable` or `not_applicable`.
    pub result: String,
}

impl CaseEntry {
    /// The case's checks of `behaviour` that did not hold: failed, errored or declined.
    pub fn misses<'a>(&'a self, behaviour: &'a str) -> impl Iterator<Item = &'a CheckEntry> + 'a {
        self.checks
            .iter()
            .filter(move |c| c.behaviour == behaviour && matches!(c.result.as_str(), "fail" | "error" | "skip"))
    }
}

/// The expected-failures triage.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct TriageEntry {
    /// The cases that did what an entry expects, with its reason.
    #[serde(default)]
    pub expected: Vec<ExpectedEntry>,
}

/// One expected failure.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ExpectedEntry {
    /// The case id.
    pub case: String,
    /// The entry's reason.
    pub reason: String,
}

/// A standing.json that cannot be read, with its file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {kind}", path.display())]
pub struct StandingFileError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong.
    pub kind: StandingFileErrorKind,
}

/// What makes a standing.json unreadable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StandingFileErrorKind {
    /// The file cannot be read.
    #[error("cannot read: {0}")]
    Unreadable(String),
    /// Its text is not a standing.json (not JSON, a missing member, an unknown level or status);
    /// the parser's words on one line, since they quote the file.
    #[error("not a standing.json: {0}")]
    NotAStanding(String),
}

fn yes() -> bool {
    true
}

/// Counts as written: `{"required": {"pass": 3, "fail": 1}, …}`; unknown levels or statuses are
/// an error, so that a count is never silently lost.
fn counts<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Counts, D::Error> {
    use serde::de::Error;
    let written: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::deserialize(deserializer)?;
    let mut counts = Counts::default();
    for (level, statuses) in written {
        let level = Level::named(&level).ok_or_else(|| D::Error::custom(format!("unknown level {level:?}")))?;
        for (status, n) in statuses {
            let kind =
                StatusKind::named(&status).ok_or_else(|| D::Error::custom(format!("unknown status {status:?}")))?;
            *counts.0.entry(level).or_default().entry(kind).or_insert(0) += n;
        }
    }
    Ok(counts)
}

/// The largest standing.json read back, in bytes (a published one is about a megabyte).
pub const MAX_STANDING_BYTES: u64 = 64 * 1024 * 1024;

impl StandingFile {
    /// Reads the standing.json at `path`.
    pub fn load(path: &Path) -> Result<StandingFile, StandingFileError> {
        let error = |kind| StandingFileError { path: path.to_path_buf(), kind };
        let text = crate::json::file::read_text(path, MAX_STANDING_BYTES)
            .map_err(|e| error(StandingFileErrorKind::Unreadable(e.to_string())))?;
        StandingFile::parse(&text).map_err(error)
    }

    /// Parses a standing.json's text.
    pub fn parse(text: &str) -> Result<StandingFile, StandingFileErrorKind> {
        crate::json::from_str(text)
            .map_err(|e| StandingFileErrorKind::NotAStanding(crate::json::inert::one_line(&e.to_string())))
    }

    /// Reads a parsed standing.json.
    pub fn from_value(value: &crate::json::Value) -> Result<StandingFile, StandingFileErrorKind> {
        serde_json::from_value(value.clone())
            .map_err(|e| StandingFileErrorKind::NotAStanding(crate::json::inert::one_line(&e.to_string())))
    }

    /// `name version` of the implementation.
    pub fn implementation_line(&self) -> String {
        format!("{} {}", self.implementation.name, self.implementation.version).trim_end().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_standing_reads_back_and_an_old_one_too() {
        let old = r#"{"implementation": {"name": "x"}, "standing": {"rules": [{"rule": "R-1",
            "verdict": "conforms", "totals": {"required": {"pass": 2}}}]},
            "cases": [{"id": "R-1/a/b", "status": "pass", "extra": 1}]}"#;
        let file = StandingFile::parse(old).unwrap();
        assert!(file.standing.rules[0].whole);
        assert_eq!(file.standing.rules[0].totals.get(Level::Required, StatusKind::Pass), 2);
        assert_eq!(file.implementation_line(), "x");
        let bad = old.replace("\"pass\": 2", "\"passed\": 2");
        assert!(StandingFile::parse(&bad).unwrap_err().to_string().contains("unknown status"));
    }
}
