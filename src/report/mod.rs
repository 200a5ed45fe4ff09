//! Reports: every format reads the same [`Report`] value, built from a run's outcomes.
//!
//! - [`terminal`]: the standing as tables, then each failing case with its diff;
//! - [`markdown`]: `standing.md`, tables that render on GitHub, failures in ```diff blocks;
//! - [`json`]: `standing.json`, everything, for machines (its contract is
//!   `schemas/report.schema.json`);
//! - [`junit`]: `junit.xml`, a testsuite per rule and a testcase per case, for CI;
//! - [`html`]: `standing.html`, one self-contained page;
//! - [`badge`]: `badge-<rule>.json`, shields.io endpoint badges;
//! - `comparison`: two standings compared (`tool-conformance compare`);
//! - `expected`: the expected-failures file a run writes (`--write-expected-failures`);
//! - `fuzz`: what a fuzzing run found (`tool-conformance fuzz`);
//! - `transcript`: every exchange of the selected cases (`run --transcript`);
//! - `table`: the table of the standings published side by side (`reports/README.md`);
//! - `readme`: one published standing's page (`reports/<name>/README.md`), with what it
//!   measures (`about`: an adapter's `about.yaml`, its reproduction template, `timing.json`);
//! - `site`: the standings site, every published standing side by side, a page per case.
//!
//! Reports are deterministic: the same implementation and corpus give the same bytes (no
//! timestamps, cases in corpus order).

#[doc(hidden)]
pub mod about;
pub mod badge;
#[doc(hidden)]
pub mod comparison;
#[doc(hidden)]
pub mod expected;
pub(crate) mod figures;
#[doc(hidden)]
pub mod fuzz;
pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
#[doc(hidden)]
pub mod readme;
#[doc(hidden)]
pub mod site;
#[doc(hidden)]
pub mod table;
pub mod terminal;
#[doc(hidden)]
pub mod transcript;

use crate::case::{Case, Check};
use crate::corpus::Corpus;
use crate::corpus::rules::Catalog;
use crate::json::Value;
use crate::judge::outcome::{Outcome, Status};
use crate::peer::Implementation;
use crate::run::Run;
use crate::standing::Standing;
use crate::standing::behaviours::BehaviourStanding;
use crate::standing::digest::CorpusDigest;
use crate::standing::expectations::{ExpectedFailures, Triage};
use serde::Serialize;
use std::collections::BTreeMap;
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
    /// Per behaviour of each rule: how its required checks came out. Every report opens with it.
    pub behaviours: Vec<BehaviourStanding>,
    /// Every case, in corpus order.
    pub cases: Vec<Outcome>,
    /// With an expected-failures file: the listed failures, stale entries and new failures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_failures: Option<Triage>,
    /// For each failing or erroring case of a report made with [`Report::for_corpus`], what was
    /// sent to the implementation ([`sent`]), by case id; the terminal shows it cut,
    /// `standing.md` and `standing.html` whole.
    #[serde(skip)]
    pub sent: BTreeMap<String, Vec<(String, Value)>>,
}

/// The suite's name and version.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Suite {
    /// Always `tool-conformance`.
    pub name: String,
    /// The suite's version.
    pub version: String,
    /// The digest of the case files that ran (see [`Report::for_corpus`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corpus: Option<CorpusDigest>,
}

impl Report {
    /// The report of a run, without the digest of its case files (which `--report` always
    /// writes, and `schemas/report.schema.json` requires): use [`Report::for_corpus`] for files
    /// to publish.
    pub fn new(catalog: &Catalog, run: &Run) -> Report {
        Report {
            suite: Suite { name: "tool-conformance".into(), version: crate::suite::SUITE_VERSION.into(), corpus: None },
            standing: Standing::new(catalog, &run.implementation, &run.outcomes),
            behaviours: crate::standing::behaviours::tally(catalog, &run.outcomes),
            implementation: run.implementation.clone(),
            cases: run.outcomes.clone(),
            expected_failures: None,
            sent: BTreeMap::new(),
        }
    }

    /// The report of a run of `corpus`, with the digest of the case files that ran.
    /// A selection that leaves out some case of a rule is marked as partial for that rule.
    ///
    /// ```no_run
    /// use tool_conformance::{Corpus, Reference, Selection, report::Report, run};
    ///
    /// let corpus = Corpus::embedded().expect("the corpus loads");
    /// let ran = run(&corpus, &Selection::all(), &mut Reference::new());
    /// Report::for_corpus(&corpus, &ran).write_dir(std::path::Path::new("report"))?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn for_corpus(corpus: &Corpus, run: &Run) -> Report {
        let mut report = Report::new(&corpus.catalog, run);
        report.standing = Standing::of_run(corpus, &run.implementation, &run.outcomes);
        report.suite.corpus = Some(CorpusDigest::of_run(corpus, &run.outcomes));
        let problems: Vec<&str> = report.problems().map(|o| o.id.as_str()).collect();
        report.sent = corpus
            .cases
            .iter()
            .filter(|c| problems.contains(&c.id.as_str()))
            .map(|c| (c.id.clone(), sent(c)))
            .collect();
        report
    }

    /// The same report, seen through an expected-failures file's triage.
    pub fn with_expected_failures(mut self, triage: Triage) -> Report {
        self.expected_failures = Some(triage);
        self
    }

    /// The same report, seen through `file` (the triage of [`ExpectedFailures::triage`], given
    /// this report's outcomes and unjudged clauses).
    pub fn triaged(self, file: &ExpectedFailures) -> Report {
        let unjudged: Vec<String> =
            self.standing.rules.iter().flat_map(|r| r.unjudged_clauses.iter().cloned()).collect();
        let triage = file.triage(&self.cases, &unjudged);
        self.with_expected_failures(triage)
    }

    /// Whether the run this report shows fails: with an expected-failures triage, when it has a
    /// new failure, a stale entry or an unjudged clause; without, when some rule's verdict is
    /// `does not conform` or `incomplete`.
    pub fn fails_run(&self) -> bool {
        match &self.expected_failures {
            Some(triage) => triage.fails_run(),
            None => self.standing.rules.iter().any(|r| !r.verdict.is_clean()),
        }
    }

    /// The required cases that were skipped (declined as `unsupported`, or not observable), each
    /// group sharing one reason, groups in the order of their first case: a rule they belong to
    /// is incomplete, whatever the reason, and a reader is told why.
    pub fn skipped(&self) -> Vec<(&str, Vec<&Outcome>)> {
        let mut groups: Vec<(&str, Vec<&Outcome>)> = Vec::new();
        for outcome in self.cases.iter().filter(|o| o.level == crate::case::Level::Required) {
            if let Status::Skip { reason } = &outcome.status {
                match groups.iter_mut().find(|(r, _)| *r == reason.as_str()) {
                    Some((_, cases)) => cases.push(outcome),
                    None => groups.push((reason.as_str(), vec![outcome])),
                }
            }
        }
        groups
    }

    /// The outcomes a reader must look at: failures and errors, at any level.
    pub fn problems(&self) -> impl Iterator<Item = &Outcome> {
        self.cases.iter().filter(|o| matches!(o.status, Status::Fail(_) | Status::Error { .. }))
    }

    /// Every file `--report` writes, as (file name, contents): standing.json, standing.md,
    /// junit.xml, standing.html, then `badge-<rule>.json` per rule in catalog order.
    pub fn files(&self) -> Vec<(String, String)> {
        let mut files = vec![
            ("standing.json".to_string(), json::render(self)),
            ("standing.md".to_string(), markdown::render(self)),
            ("junit.xml".to_string(), junit::render(self)),
            ("standing.html".to_string(), html::render(self)),
        ];
        files.extend(badge::render(self));
        files
    }

    /// Writes every file of [`Report::files`] into `dir`, creating it. Each file is written to a
    /// temporary name and renamed, so a report is never left half-written.
    ///
    /// ```
    /// use tool_conformance::{Corpus, Reference, Selection, report::Report, run};
    ///
    /// let corpus = Corpus::embedded().expect("the corpus loads");
    /// let examples = Selection::new(vec![], vec![], vec!["RT-TOOL-8/examples/*".into()]).unwrap();
    /// let ran = run(&corpus, &examples, &mut Reference::new());
    /// let dir = std::env::temp_dir().join(format!("tool-conformance-doc-{}", std::process::id()));
    /// Report::for_corpus(&corpus, &ran).write_dir(&dir)?;
    /// assert!(dir.join("junit.xml").is_file() && dir.join("standing.json").is_file());
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write_dir(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        for (name, contents) in self.files() {
            write_atomically(&dir.join(name), &contents)?;
        }
        Ok(())
    }
}

/// Writes `contents` to a new file beside `path` and renames it to `path`. Neither step follows
/// a symbolic link: whatever lies at the temporary name is removed first (a link is removed, not
/// what it points to), the file is created only if nothing is there (`O_EXCL`, which never
/// follows a link), and a rename replaces a link at `path` rather than writing through it.
pub(crate) fn write_atomically(path: &Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let partial = path.with_extension("partial");
    match std::fs::remove_file(&partial) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&partial)?;
    file.write_all(contents.as_bytes())?;
    drop(file);
    std::fs::rename(&partial, path)
}

impl Report {
    /// The required checks showing behaviour `id` that did not pass (failed, errored or were
    /// declined), with their cases, in corpus order.
    pub fn behaviour_misses<'a>(
        &'a self,
        id: &'a str,
    ) -> impl Iterator<Item = (&'a Outcome, &'a crate::judge::outcome::CheckOutcome)> + 'a {
        use crate::judge::outcome::CheckResult;
        self.cases.iter().flat_map(move |o| {
            o.checks
                .iter()
                .filter(move |c| {
                    c.behaviour == id && matches!(c.result, CheckResult::Fail | CheckResult::Error | CheckResult::Skip)
                })
                .map(move |c| (o, c))
        })
    }
}

/// A table cell for one level of a [`crate::standing::Counts`]: `passed/judged` (judged: passed,
/// failed or errored; a skip is never in the denominator), then any failures, errors and skips,
/// or the number observed for informational cases; `N n/a` when none applied; `-` when empty.
#[doc(hidden)]
pub fn cell(counts: &crate::standing::Counts, level: crate::case::Level) -> String {
    use crate::case::Level;
    use crate::judge::outcome::StatusKind as S;
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
    let judged = counts.judged(level);
    if judged == 0 && counts.get(level, S::Skip) == 0 {
        return format!("{} n/a", counts.get(level, S::NotApplicable));
    }
    let mut text = format!("{}/{}", counts.get(level, S::Pass), judged);
    for kind in [S::Fail, S::Error, S::Skip] {
        let n = counts.get(level, kind);
        if n > 0 {
            text.push_str(&format!(", {n} {}", kind.as_str()));
        }
    }
    text
}

/// What a case hands the implementation, labelled: the input schema or the registered tools'
/// schemas, and the arguments.
#[doc(hidden)]
pub fn sent(case: &Case) -> Vec<(String, Value)> {
    let tools = |tools: &[crate::case::tool::Tool]| {
        tools.iter().map(|t| (format!("tool {} (input schema)", t.name), t.input_schema.clone())).collect::<Vec<_>>()
    };
    match &case.check {
        Check::Normalize { input_schema, arguments, .. } => {
            vec![("input schema".into(), input_schema.clone()), ("arguments".into(), arguments.clone())]
        }
        Check::Invoke { tools: registered, tool, arguments, transports, .. } => {
            let mut out = tools(registered);
            let on: Vec<&str> = transports.iter().map(|t| t.as_str()).collect();
            out.push((format!("arguments to {tool} (on {})", on.join(", ")), arguments.clone()));
            out
        }
        Check::Describe { tools: registered, .. } => tools(registered),
    }
}
