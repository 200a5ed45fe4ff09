//! Comparing two standings (`tool-conformance compare OLD.json NEW.json`): which cases regressed,
//! which progressed, and what else changed between two `standing.json` files.
//!
//! A case is *good* when it passed, or, for an informational case, when a behaviour was observed;
//! it is *bad* when it failed, errored or was skipped. Between the two files:
//!
//! - a **regression** is a case good in OLD and bad in NEW, at any level, a rule whose verdict
//!   was `conforms` and no longer is, or a behaviour a smaller share of whose required checks
//!   passed (both measured);
//! - a **progression** is a case bad in OLD and good in NEW, a rule that now conforms, or a
//!   behaviour a larger share of whose required checks passed;
//! - a **change** is any other difference in a case: fail became error, or an informational case
//!   saw another behaviour;
//! - cases only in NEW are **new**, cases only in OLD are **gone**; neither is a regression.
//!
//! The files are read leniently (only ids, levels, statuses, behaviours, verdicts and the suite
//! block), so standings written by other versions of the suite compare too; a corpus digest or
//! suite version that differs is said, since it explains new and gone cases.

use crate::case::Level;
use crate::judge::outcome::StatusKind;
use crate::standing::file::{StandingFile, StandingFileErrorKind};
use std::collections::BTreeMap;
use std::path::Path;

/// What a comparison reads of one standing.json.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// `name version` of the implementation.
    pub implementation: String,
    /// The suite version.
    pub suite_version: String,
    /// The corpus digest, when the file has one.
    pub corpus_digest: Option<String>,
    /// Per corpus file: its SHA-256.
    pub corpus_files: BTreeMap<String, String>,
    /// Per rule, in file order: the verdict.
    pub verdicts: Vec<(String, String)>,
    /// Per behaviour, in file order: its id and how its required checks came out.
    pub behaviours: Vec<(String, crate::standing::behaviours::CheckCounts)>,
    /// Every case, in file order.
    pub cases: Vec<CaseState>,
}

/// One case, as a comparison sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseState {
    /// The case id.
    pub id: String,
    /// Its level (`None` in a standing that did not write it).
    pub level: Option<Level>,
    /// Its status.
    pub status: StatusKind,
    /// For an observed case: the behaviour seen (`other` when none matched).
    pub behaviour: Option<String>,
}

impl CaseState {
    fn good(&self) -> bool {
        matches!(self.status, StatusKind::Pass | StatusKind::Observed)
    }

    fn shown(&self) -> String {
        match &self.behaviour {
            Some(behaviour) => format!("{} ({behaviour})", self.status.as_str()),
            None => self.status.as_str().to_string(),
        }
    }
}

/// A standing that cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct SnapshotError {
    /// The file.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl Snapshot {
    /// Reads a standing.json.
    pub fn load(path: &Path) -> Result<Snapshot, SnapshotError> {
        let error = |message: String| SnapshotError { path: path.display().to_string(), message };
        let text = crate::json::file::read_text(path, crate::standing::file::MAX_STANDING_BYTES)
            .map_err(|e| error(format!("cannot read: {e}")))?;
        Snapshot::parse(&text).map_err(|kind| error(kind.to_string()))
    }

    /// Parses a standing.json's text.
    pub fn parse(text: &str) -> Result<Snapshot, StandingFileErrorKind> {
        Ok(Snapshot::of(&StandingFile::parse(text)?))
    }

    /// What a comparison reads of a standing read by [`StandingFile`].
    pub fn of(file: &StandingFile) -> Snapshot {
        let cases = file
            .cases
            .iter()
            .map(|case| CaseState {
                id: case.id.clone(),
                level: case.level,
                status: case.status,
                behaviour: (case.status == StatusKind::Observed)
                    .then(|| case.behaviour.clone().unwrap_or_else(|| "other".into())),
            })
            .collect();
        let corpus = file.suite.corpus.as_ref();
        Snapshot {
            implementation: file.implementation_line(),
            suite_version: file.suite.version.clone().unwrap_or_else(|| "(unknown)".into()),
            corpus_digest: corpus.map(|c| c.digest.clone()),
            corpus_files: corpus
                .into_iter()
                .flat_map(|c| &c.files)
                .map(|f| (f.path.clone(), f.sha256.clone()))
                .collect(),
            verdicts: file.standing.rules.iter().map(|r| (r.rule.clone(), r.verdict.clone())).collect(),
            behaviours: file.behaviours.iter().map(|b| (b.id.clone(), b.required)).collect(),
            cases,
        }
    }
}

/// A case or rule that differs between the two standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The case id, or the rule id for a verdict.
    pub id: String,
    /// The case's level in NEW, or `verdict`.
    pub level: String,
    /// What it was in OLD.
    pub from: String,
    /// What it is in NEW.
    pub to: String,
}

/// What changed from OLD to NEW.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Comparison {
    /// Good in OLD, bad in NEW (verdicts first, then cases in NEW's order).
    pub regressions: Vec<Change>,
    /// Bad in OLD, good in NEW (verdicts first, then cases in NEW's order).
    pub progressions: Vec<Change>,
    /// Other differences in cases both files have.
    pub changes: Vec<Change>,
    /// Cases only NEW has, with their status.
    pub new: Vec<CaseState>,
    /// Cases only OLD has.
    pub gone: Vec<CaseState>,
    /// `(OLD, NEW)` lines describing the two runs: implementation, suite version, corpus.
    pub header: Vec<(String, String, String)>,
    /// Corpus files whose digest differs, or that only one side has.
    pub corpus_files_changed: Vec<String>,
}

impl Comparison {
    /// Whether NEW regressed.
    pub fn has_regression(&self) -> bool {
        !self.regressions.is_empty()
    }
}

/// Compares two standings.
pub fn compare(old: &Snapshot, new: &Snapshot) -> Comparison {
    let mut comparison = Comparison::default();
    let digest = |s: &Snapshot| s.corpus_digest.clone().unwrap_or_else(|| "(none)".into());
    comparison.header = vec![
        ("implementation".into(), old.implementation.clone(), new.implementation.clone()),
        ("suite".into(), old.suite_version.clone(), new.suite_version.clone()),
        ("corpus".into(), digest(old), digest(new)),
    ];
    let mut paths: Vec<&String> = old.corpus_files.keys().chain(new.corpus_files.keys()).collect();
    paths.sort();
    paths.dedup();
    comparison.corpus_files_changed =
        paths.into_iter().filter(|p| old.corpus_files.get(*p) != new.corpus_files.get(*p)).cloned().collect();
    let old_verdicts: BTreeMap<&str, &str> = old.verdicts.iter().map(|(r, v)| (r.as_str(), v.as_str())).collect();
    for (rule, verdict) in &new.verdicts {
        let Some(before) = old_verdicts.get(rule.as_str()) else { continue };
        if before == verdict {
            continue;
        }
        let change =
            Change { id: rule.clone(), level: "verdict".into(), from: before.to_string(), to: verdict.clone() };
        if *before == "conforms" {
            comparison.regressions.push(change);
        } else if verdict == "conforms" {
            comparison.progressions.push(change);
        } else {
            comparison.changes.push(change);
        }
    }
    let old_behaviours: BTreeMap<&str, &crate::standing::behaviours::CheckCounts> =
        old.behaviours.iter().map(|(id, c)| (id.as_str(), c)).collect();
    for (id, after) in &new.behaviours {
        let Some(before) = old_behaviours.get(id.as_str()) else { continue };
        if before.measured() == 0 || after.measured() == 0 {
            continue;
        }
        // pass/measured compared as fractions, so that no rounding hides a change.
        let (was, is) = (before.pass * after.measured(), after.pass * before.measured());
        if was == is {
            continue;
        }
        let shown = |c: &crate::standing::behaviours::CheckCounts| {
            format!("{} {}% ({})", c.frequency().as_str(), c.percent().unwrap_or(0), c.over())
        };
        let change = Change { id: id.clone(), level: "behaviour".into(), from: shown(before), to: shown(after) };
        if is < was {
            comparison.regressions.push(change);
        } else {
            comparison.progressions.push(change);
        }
    }
    let old_cases: BTreeMap<&str, &CaseState> = old.cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let new_ids: std::collections::BTreeSet<&str> = new.cases.iter().map(|c| c.id.as_str()).collect();
    for case in &new.cases {
        let Some(before) = old_cases.get(case.id.as_str()) else {
            comparison.new.push(case.clone());
            continue;
        };
        if before.status == case.status && before.behaviour == case.behaviour {
            continue;
        }
        let change = Change {
            id: case.id.clone(),
            level: case.level.map_or("", Level::as_str).to_string(),
            from: before.shown(),
            to: case.shown(),
        };
        match (before.good(), case.good()) {
            (true, false) => comparison.regressions.push(change),
            (false, true) => comparison.progressions.push(change),
            _ => comparison.changes.push(change),
        }
    }
    comparison.gone = old.cases.iter().filter(|c| !new_ids.contains(c.id.as_str())).cloned().collect();
    comparison
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(verdict: &str, cases: &[(&str, &str, &str)]) -> Snapshot {
        Snapshot {
            implementation: "x 1".into(),
            suite_version: "0.1.0".into(),
            corpus_digest: None,
            corpus_files: BTreeMap::new(),
            verdicts: vec![("R-1".into(), verdict.into())],
            behaviours: Vec::new(),
            cases: cases
                .iter()
                .map(|(id, level, status)| CaseState {
                    id: id.to_string(),
                    level: Level::named(level),
                    status: StatusKind::named(status).expect("a status"),
                    behaviour: (*status == "observed").then(|| "one".to_string()),
                })
                .collect(),
        }
    }

    #[test]
    fn regressions_progressions_changes_new_and_gone() {
        let old = snapshot(
            "conforms",
            &[
                ("R-1/a/b", "required", "pass"),
                ("R-1/a/c", "required", "fail"),
                ("R-1/a/d", "required", "fail"),
                ("R-1/a/e", "interpretation", "pass"),
                ("R-1/a/gone", "required", "pass"),
            ],
        );
        let new = snapshot(
            "does_not_conform",
            &[
                ("R-1/a/b", "required", "fail"),
                ("R-1/a/c", "required", "pass"),
                ("R-1/a/d", "required", "error"),
                ("R-1/a/e", "interpretation", "skip"),
                ("R-1/a/new", "required", "fail"),
            ],
        );
        let c = compare(&old, &new);
        let ids = |changes: &[Change]| changes.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&c.regressions), ["R-1", "R-1/a/b", "R-1/a/e"]);
        assert_eq!(ids(&c.progressions), ["R-1/a/c"]);
        assert_eq!(ids(&c.changes), ["R-1/a/d"]);
        assert_eq!(c.new.len(), 1);
        assert_eq!(c.gone.len(), 1);
        assert!(c.has_regression());
        assert!(!compare(&old, &old).has_regression());
    }

    #[test]
    fn a_behaviour_whose_share_fell_is_a_regression_named_by_its_id() {
        use crate::standing::behaviours::CheckCounts;
        let counts = |pass, fail| CheckCounts { pass, fail, ..CheckCounts::default() };
        let mut old = snapshot("does_not_conform", &[]);
        old.behaviours =
            vec![("stops-invalid-calls".into(), counts(10, 0)), ("names-every-problem".into(), counts(1, 9))];
        let mut new = old.clone();
        new.behaviours =
            vec![("stops-invalid-calls".into(), counts(9, 1)), ("names-every-problem".into(), counts(2, 8))];
        let c = compare(&old, &new);
        assert_eq!(c.regressions.len(), 1);
        assert_eq!(c.regressions[0].id, "stops-invalid-calls");
        assert_eq!(c.regressions[0].from, "always 100% (10 of 10 checks)");
        assert_eq!(c.regressions[0].to, "mostly 90% (9 of 10 checks)");
        assert_eq!(c.progressions[0].id, "names-every-problem");
        // The same share over other counts is no change.
        new.behaviours =
            vec![("stops-invalid-calls".into(), counts(20, 0)), ("names-every-problem".into(), counts(2, 18))];
        assert!(compare(&old, &new).regressions.is_empty());
    }

    #[test]
    fn an_informational_case_that_sees_another_behaviour_is_a_change() {
        let old = snapshot("conforms", &[("R-1/a/i", "informational", "observed")]);
        let mut new = old.clone();
        new.cases[0].behaviour = Some("two".into());
        let c = compare(&old, &new);
        assert!(!c.has_regression());
        assert_eq!(c.changes[0].from, "observed (one)");
        assert_eq!(c.changes[0].to, "observed (two)");
    }
}
