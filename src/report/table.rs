//! The table of published standings (`tool-conformance table DIR`): every
//! `DIR/<name>/standing.json` in one Markdown page, a row per implementation and rule with the
//! verdict and the required cases counted apart (pass, fail, error, skip, not applicable), each
//! row linked to the implementation's `README.md` ([`crate::report::readme`]), which holds the
//! per-clause detail and what lies behind each failure ([`reasons`]).
//!
//! The page is generated, never written by hand: `reports/README.md` is this module's output for
//! `reports/`, and a test fails while the two differ. The standings are read leniently (only ids,
//! counts, verdicts, statuses and reasons), like [`crate::standing::regression`] reads them.
//!
//! What lies behind a failure is the reason of the expected-failures entry that covers it: a run
//! given `--expected-failures FILE` records, in `standing.json`, each failing case with the reason
//! of its entry. [`reasons`] groups failing cases by that reason, one sentence each, and counts
//! the failures no entry explains; skips are grouped by the reason the implementation gave.
//!
//! The rows stand in the order `DIR/columns.txt` gives (in `reports/`: the built-in reference,
//! then the example adapter), then by folder name.

use crate::case::Level;
use crate::judge::outcome::StatusKind;
use crate::report::about::Timing;
use crate::report::cell;
use crate::report::markdown::{encoded, escape};
use crate::standing::Counts;
use crate::standing::file::{StandingFile, StandingFileErrorKind};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The file of `DIR` that names the folders standing in the first rows, one a line, in order
/// (`#` starts a comment); the other folders follow by name.
pub const COLUMNS_FILE: &str = "columns.txt";

/// One implementation's published standing, as the table reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Published {
    /// The folder it was read from (its name heads the column).
    pub folder: String,
    /// `name version` of the implementation.
    pub implementation: String,
    /// The transports it claimed.
    pub transports: Vec<String>,
    /// The corpus digest it ran.
    pub corpus_digest: String,
    /// Per rule, in file order: the rule id, its verdict, its totals and its clauses' counts.
    pub rules: Vec<PublishedRule>,
    /// Failing or erroring cases: id, clauses, level, and the reason of the entry covering it.
    pub failures: Vec<PublishedFailure>,
    /// Skipped cases: id and the reason given.
    pub skips: Vec<(String, String)>,
    /// The time to this standing, from `folder/timing.json` when [`Published::load`] found one.
    pub timing: Option<Timing>,
    /// The API path of the row, from its adapter's `about.yaml` `path` when [`Published::load`]
    /// found one (`examples/adapters/<folder>`, [`crate::report::about::adapter_of`]).
    pub path: Option<String>,
    /// Per behaviour: how its required checks came out.
    pub behaviours: Vec<crate::standing::behaviours::BehaviourStanding>,
}

/// One rule of a published standing.
#[derive(Debug, Clone, PartialEq)]
pub struct PublishedRule {
    /// The rule id.
    pub rule: String,
    /// Its verdict, as written (`conforms`, `does_not_conform`, …).
    pub verdict: String,
    /// Counts over all its cases.
    pub totals: Counts,
    /// Per clause: its id and counts.
    pub clauses: Vec<(String, Counts)>,
}

/// A failing or erroring case of a published standing.
#[derive(Debug, Clone, PartialEq)]
pub struct PublishedFailure {
    /// The case id.
    pub case: String,
    /// The clauses it cites.
    pub clauses: Vec<String>,
    /// Its level (`None` in a standing that did not write it).
    pub level: Option<Level>,
    /// `fail` or `error`.
    pub status: StatusKind,
    /// The reason of the expected-failures entry covering it, when one did.
    pub explained: Option<String>,
}

/// A standing that cannot be read, with its file.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct TableError {
    /// The file or folder.
    pub path: PathBuf,
    /// What is wrong.
    pub message: String,
}

impl Published {
    /// Reads `folder/standing.json`.
    pub fn load(folder: &Path) -> Result<Published, TableError> {
        let path = folder.join("standing.json");
        let error = |message: String| TableError { path: path.clone(), message };
        let text = crate::json::file::read_text(&path, crate::standing::file::MAX_STANDING_BYTES)
            .map_err(|e| error(format!("cannot read: {e}")))?;
        let value: Value = crate::json::from_str(&text).map_err(|e| error(format!("not JSON: {e}")))?;
        let name = folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut published = Published::from_json(&name, &value).map_err(|kind| error(kind.to_string()))?;
        published.timing =
            Timing::load(folder).map_err(|e| TableError { path: e.path.clone(), message: e.to_string() })?;
        let (adapter, _) = crate::report::about::adapter_of(folder);
        if crate::json::file::exists(&adapter.join(crate::report::about::ABOUT_FILE)) {
            let about = crate::report::about::About::load(&adapter)
                .map_err(|e| TableError { path: e.path.clone(), message: e.to_string() })?;
            published.path = Some(about.path);
        }
        Ok(published)
    }

    /// Reads a parsed standing.json published in the folder `folder`.
    pub fn from_json(folder: &str, value: &Value) -> Result<Published, StandingFileErrorKind> {
        Ok(Published::from_file(folder, StandingFile::from_value(value)?))
    }

    /// A standing read by [`StandingFile`], published in the folder `folder`.
    pub fn from_file(folder: &str, file: StandingFile) -> Published {
        let rules = file
            .standing
            .rules
            .iter()
            .map(|rule| PublishedRule {
                rule: rule.rule.clone(),
                verdict: rule.verdict.clone(),
                totals: rule.totals.clone(),
                clauses: rule.clauses.iter().map(|c| (c.clause.clone(), c.counts.clone())).collect(),
            })
            .collect();
        let explained: BTreeMap<&str, &str> = file
            .expected_failures
            .iter()
            .flat_map(|t| &t.expected)
            .map(|e| (e.case.as_str(), e.reason.as_str()))
            .collect();
        let mut failures = Vec::new();
        let mut skips = Vec::new();
        for case in &file.cases {
            match case.status {
                StatusKind::Fail | StatusKind::Error => failures.push(PublishedFailure {
                    explained: explained.get(case.id.as_str()).map(|r| r.to_string()),
                    case: case.id.clone(),
                    clauses: case.clauses.clone(),
                    level: case.level,
                    status: case.status,
                }),
                StatusKind::Skip => skips.push((case.id.clone(), case.reason.clone().unwrap_or_default())),
                _ => {}
            }
        }
        Published {
            folder: folder.to_string(),
            implementation: file.implementation_line(),
            transports: file.implementation.transports.clone(),
            corpus_digest: file.suite.corpus.as_ref().map(|c| c.digest.clone()).unwrap_or_default(),
            rules,
            failures,
            skips,
            timing: None,
            path: None,
            behaviours: file.behaviours.clone(),
        }
    }

    /// The failing or erroring required cases no expected-failures entry explains. A reason is
    /// asked only of required cases: an interpretation or informational case fails no run, so its
    /// entry is welcome but not demanded.
    pub fn unexplained(&self) -> Vec<&PublishedFailure> {
        self.failures.iter().filter(|f| f.explained.is_none() && f.level == Some(Level::Required)).collect()
    }
}

/// Reads every `DIR/*/standing.json`: first the folders `DIR/columns.txt` names, in its order,
/// then the others by folder name. Folders without a standing.json are passed over; a folder that
/// is a symbolic link is refused.
pub fn load_all(dir: &Path) -> Result<Vec<Published>, TableError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| TableError { path: dir.into(), message: format!("cannot read: {e}") })?;
    let first = first_columns(dir)?;
    let mut folders = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        // A folder that is a link could bring in files from anywhere: refused, not followed.
        if entry.file_type().is_ok_and(|t| t.is_symlink()) && path.is_dir() {
            return Err(TableError {
                path,
                message: "this folder is a symbolic link, and no standing is read through one: put the folder \
                          itself here"
                    .into(),
            });
        }
        if entry.file_type().is_ok_and(|t| t.is_dir()) && crate::json::file::exists(&path.join("standing.json")) {
            folders.push(path);
        }
    }
    folders.sort_by_key(|p| {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        (first.iter().position(|f| *f == name).unwrap_or(first.len()), name)
    });
    folders.iter().map(|f| Published::load(f)).collect()
}

/// The folders `DIR/columns.txt` names, in order; none when there is no such file.
fn first_columns(dir: &Path) -> Result<Vec<String>, TableError> {
    let path = dir.join(COLUMNS_FILE);
    let text = match crate::json::file::read_text(&path, crate::corpus::yaml::MAX_SOURCE_BYTES) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(TableError { path, message: format!("cannot read: {e}") }),
    };
    Ok(text
        .lines()
        .map(|line| line.split_once('#').map_or(line, |(before, _)| before).trim())
        .filter(|line| !line.is_empty())
        .map(str::to_string)
        .collect())
}

/// The Markdown page for these standings. `dir` is how the page names the folder they came from.
///
/// One row per implementation and rule, with the verdict and the required cases counted apart:
/// pass, fail, error, skip and not applicable; each row links to the implementation's
/// `README.md` ([`crate::report::readme`]), which has the per-clause detail and what lies behind
/// each failure.
pub fn render(dir: &str, standings: &[Published]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Published standings\n");
    let _ = writeln!(
        out,
        "<!-- Generated by `tool-conformance table {dir} > {dir}/README.md` from the standing.json files \
         of this folder. Do not edit: regenerate. -->\n"
    );
    let _ = writeln!(
        out,
        "Each row is one implementation's verdict on one rule, from its `standing.json` in this folder. The \
         counts are of the rule's required cases: pass, fail, error, skip (declined as `unsupported`, or an \
         answer that could not show what the case checks: never a pass) and n/a (not applicable: the rule, \
         a rule it needs, or every transport it calls on is not claimed; never a pass either). \
         `interpretation` counts the cases that read an open point of the rule one way (passed/judged); they \
         never decide a verdict. Each implementation's README says what its standing measures (package, API \
         path, the adapter's choices, time to a standing) and gives its failures by clause, each with a \
         minimal reproduction.\n"
    );
    if standings.is_empty() {
        let _ = writeln!(out, "No standing has been published here yet.");
        return out;
    }
    out.push_str(&behaviour_grid(standings, |s, b| {
        let anchor = if b.required.misses() { format!("#{}", encoded(&b.id)) } else { String::new() };
        format!("{}/README.md{anchor}", encoded(&s.folder))
    }));
    let _ = writeln!(out, "\n## Verdicts\n");
    let _ = writeln!(
        out,
        "| standing | implementation, version (path) | transports | rule | verdict | pass | fail | error | skip | n/a | interpretation |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|");
    for s in standings {
        let link = readme_link(&s.folder);
        let transports = if s.transports.is_empty() { "none".to_string() } else { s.transports.join(", ") };
        let implementation = match &s.path {
            Some(path) => format!("{} ({path})", s.implementation),
            None => s.implementation.clone(),
        };
        for rule in &s.rules {
            let _ = writeln!(
                out,
                "| {link} | {} | {} | {} | **{}** | {} | {} |",
                escape(&implementation),
                escape(&transports),
                escape(&rule.rule),
                escape(&rule.verdict.replace('_', " ")),
                crate::report::figures::statuses(&rule.totals),
                cell(&rule.totals, Level::Interpretation)
            );
        }
        if s.rules.is_empty() {
            let _ =
                writeln!(out, "| {link} | {} | {} | - | - | | | | | | |", escape(&implementation), escape(&transports));
        }
    }
    let mut digests: Vec<(String, Vec<&str>)> = Vec::new();
    for s in standings {
        let digest = short_digest(&s.corpus_digest);
        match digests.iter_mut().find(|(d, _)| *d == digest) {
            Some((_, folders)) => folders.push(&s.folder),
            None => digests.push((digest, vec![&s.folder])),
        }
    }
    // A row is compared with this suite's own corpus too: one that ran another is marked.
    let suite = crate::corpus::Corpus::embedded()
        .ok()
        .map(|c| short_digest(&crate::standing::digest::CorpusDigest::of_whole(&c).digest));
    let whose = |digest: &str| match &suite {
        Some(suite) if suite != digest => format!(", not this suite's ({suite})"),
        Some(_) => ", this suite's".to_string(),
        None => String::new(),
    };
    match digests.as_slice() {
        [(digest, _)] if suite.as_ref().is_none_or(|s| s == digest) => {
            let _ = writeln!(out, "\nEvery row ran the corpus {digest}.");
        }
        [(digest, _)] => {
            let _ = writeln!(out, "\nEvery row ran the corpus {digest}{}: regenerate them.", whose(digest));
        }
        _ => {
            let _ = writeln!(out, "\nThe rows ran different corpora, so their counts are not comparable:\n");
            for (digest, folders) in &digests {
                let _ = writeln!(out, "- {digest}{}: {}", whose(digest), escape(&folders.join(", ")));
            }
        }
    }
    if standings.iter().any(|s| s.timing.is_some()) {
        let _ = writeln!(
            out,
            "\n## Time to a standing\n\nThe wall time of a whole run of the corpus, install excluded, as measured \
             when the standing was published (`timing.json` beside it; machines and their load differ, so \
             compare within a row more than across rows).\n\n| standing | time to a standing |\n|---|---|"
        );
        for s in standings {
            let link = readme_link(&s.folder);
            let _ = writeln!(out, "| {link} | {} |", crate::report::figures::timing(s.timing.as_ref()));
        }
    }
    let unexplained: usize = standings.iter().map(|s| s.unexplained().len()).sum();
    if unexplained > 0 {
        let _ = writeln!(
            out,
            "\n**{unexplained} failing required cases have no expected-failures reason**: see the rows' READMEs."
        );
    }
    out
}

/// What each implementation does, behaviour by behaviour: per rule, a table with a row per
/// implementation and a column per behaviour, each cell the share of that behaviour's required
/// checks that passed, in a word and a percentage, linked to where its cases are (`link`); the
/// behaviours' sentences stand above as the columns' key.
pub(crate) fn behaviour_grid(
    standings: &[Published],
    link: impl Fn(&Published, &crate::standing::behaviours::BehaviourStanding) -> String,
) -> String {
    let mut out = String::new();
    let mut rules: Vec<&str> = Vec::new();
    for b in standings.iter().flat_map(|s| &s.behaviours) {
        if !rules.contains(&b.rule.as_str()) {
            rules.push(&b.rule);
        }
    }
    if rules.is_empty() {
        return out;
    }
    let _ = writeln!(out, "## What each runtime does\n");
    let _ = writeln!(
        out,
        "Each cell is the share of a behaviour's required checks that passed, in a word (always, mostly: 80% or \
         more, sometimes: 20% or more, rarely, never) and a percentage. A check the answer cannot show (a refusal \
         by a runtime that validates, an error with no structured problems) is not measured, so validating never \
         reads worse than doing nothing; a declined or errored case is measured. `-`: not measured (the rule is \
         not claimed, or nothing of it could be seen).\n"
    );
    for rule in rules {
        let mut columns: Vec<&crate::standing::behaviours::BehaviourStanding> = Vec::new();
        for b in standings.iter().flat_map(|s| &s.behaviours).filter(|b| b.rule == rule) {
            if !columns.iter().any(|c| c.id == b.id) {
                columns.push(b);
            }
        }
        let _ = writeln!(out, "### {}\n", escape(rule));
        for (n, column) in columns.iter().enumerate() {
            let _ = writeln!(out, "{}. **{}**: {}", n + 1, escape(&column.id), escape(&column.sentence));
        }
        let _ = writeln!(out);
        let heads: Vec<String> = (1..=columns.len()).map(|n| n.to_string()).collect();
        let _ = writeln!(out, "| standing | {} |", heads.join(" | "));
        let _ = writeln!(out, "|---|{}", "---|".repeat(columns.len()));
        for s in standings {
            let cells: Vec<String> = columns
                .iter()
                .map(|column| match s.behaviours.iter().find(|b| b.id == column.id) {
                    Some(b) => {
                        let c = &b.required;
                        match c.percent() {
                            Some(p) => format!("[{} {p}%]({})", c.frequency().as_str(), link(s, b)),
                            None => "-".into(),
                        }
                    }
                    None => "-".into(),
                })
                .collect();
            let _ = writeln!(out, "| {} | {} |", readme_link(&s.folder), cells.join(" | "));
        }
        let _ = writeln!(out);
    }
    out
}

/// A link to `folder/README.md`: the folder's name escaped as text, and percent-encoded in the
/// destination (every byte but ASCII letters, digits and `-._~`), so that no folder name can
/// end the link, split the table's row or open an HTML tag.
fn readme_link(folder: &str) -> String {
    format!("[{}]({}/README.md)", escape(folder), encoded(folder))
}

/// What lies behind one implementation's failures and skips, as Markdown tables: the failing
/// cases grouped by the reason of the expected-failures entry covering them (with their count
/// and clauses), then the skipped cases grouped by the reason the implementation gave.
pub fn reasons(s: &Published) -> String {
    let mut out = String::new();
    if s.failures.is_empty() && s.skips.is_empty() {
        let _ = writeln!(out, "Every case ran, and none failed.");
        return out;
    }
    if !s.failures.is_empty() {
        let _ = writeln!(out, "| failures | cases | clauses |\n|---|---|---|");
        let mut groups: Vec<(String, Vec<&PublishedFailure>)> = Vec::new();
        for f in &s.failures {
            let reason = f.explained.as_deref().map(escape).unwrap_or_else(|| match f.level {
                Some(Level::Required) => "**Not explained**: no expected-failures entry covers these.".into(),
                _ => "No reason given (a reason is asked only where a required case fails).".into(),
            });
            match groups.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, cases)) => cases.push(f),
                None => groups.push((reason, vec![f])),
            }
        }
        groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
        for (reason, cases) in groups {
            let mut clauses: Vec<&str> = cases.iter().flat_map(|f| f.clauses.iter().map(String::as_str)).collect();
            clauses.sort_unstable();
            clauses.dedup();
            let _ = writeln!(out, "| {reason} | {} | {} |", case_count(&cases), escape(&clauses.join(", ")));
        }
    }
    if !s.skips.is_empty() {
        let mut groups: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, reason) in &s.skips {
            *groups.entry(reason.as_str()).or_default() += 1;
        }
        let mut groups: Vec<(&str, usize)> = groups.into_iter().collect();
        groups.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        if !s.failures.is_empty() {
            out.push('\n');
        }
        let _ = writeln!(out, "| skipped, as the implementation said | cases |\n|---|---|");
        for (reason, n) in groups {
            let _ = writeln!(out, "| {} | {n} |", escape(reason));
        }
    }
    out
}

/// `N` cases, with how many are required, interpretation and errors.
fn case_count(cases: &[&PublishedFailure]) -> String {
    let required = cases.iter().filter(|f| f.level == Some(Level::Required)).count();
    let errors = cases.iter().filter(|f| f.status == StatusKind::Error).count();
    let mut text = format!("{} ({required} required", cases.len());
    if errors > 0 {
        let _ = write!(text, ", {errors} {}", if errors == 1 { "error" } else { "errors" });
    }
    text.push(')');
    text
}

/// `sha256:` and the first 12 hex digits.
fn short_digest(digest: &str) -> String {
    let hex = digest.strip_prefix("sha256:").unwrap_or(digest);
    format!("`{}`", hex.get(..12).unwrap_or(hex))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn standing(name: &str, status: &str, reason: Option<&str>) -> Value {
        let mut value = json!({
            "suite": {"corpus": {"digest": "sha256:0123456789abcdef0123"}},
            "implementation": {"name": name, "version": "1.0", "transports": ["direct"]},
            "standing": {"rules": [{"rule": "R-1", "verdict": if status == "pass" { "conforms" } else { "does_not_conform" },
                "totals": {"required": {status: 1}},
                "clauses": [{"clause": "R-1.a", "counts": {"required": {status: 1}}}]}]},
            "cases": [{"id": "R-1/t/a", "clauses": ["R-1.a"], "level": "required", "status": status, "reason": "unsupported: no way"}]
        });
        if let Some(reason) = reason {
            value["expected_failures"] =
                json!({"expected": [{"case": "R-1/t/a", "reason": reason}], "stale": [], "unexpected": []});
        }
        value
    }

    #[test]
    fn a_page_has_a_row_per_standing_and_rule_and_reasons_group_failures() {
        let standings = vec![
            Published::from_json("reference", &standing("ref", "pass", None)).unwrap(),
            Published::from_json("framework", &standing("fw", "fail", Some("It decodes | nothing."))).unwrap(),
            Published::from_json("other", &standing("o", "error", None)).unwrap(),
            Published::from_json("skipper", &standing("s", "skip", None)).unwrap(),
        ];
        let page = render("reports", &standings);
        assert!(
            page.contains(
                "| [reference](reference/README.md) | ref 1.0 | direct | R-1 | **conforms** | 1 | 0 | 0 | 0 | 0 | - |"
            ),
            "{page}"
        );
        assert!(page.contains("| [framework](framework/README.md) | fw 1.0 | direct | R-1 | **does not conform** | 0 | 1 | 0 | 0 | 0 | - |"), "{page}");
        assert!(
            page.contains(
                "| [other](other/README.md) | o 1.0 | direct | R-1 | **does not conform** | 0 | 0 | 1 | 0 | 0 | - |"
            ),
            "{page}"
        );
        assert!(
            page.contains(
                "| [skipper](skipper/README.md) | s 1.0 | direct | R-1 | **does not conform** | 0 | 0 | 0 | 1 | 0 | - |"
            ),
            "{page}"
        );
        assert!(page.contains("Every row ran the corpus `0123456789ab`, not this suite's"), "{page}");
        assert!(page.contains("**1 failing required cases have no expected-failures reason**"), "{page}");
        let reasons_of = |i: usize| reasons(&standings[i]);
        assert!(reasons_of(1).contains("| It decodes \\| nothing. | 1 (1 required) | R-1.a |"), "{}", reasons_of(1));
        assert!(
            reasons_of(2).contains(
                "| **Not explained**: no expected-failures entry covers these. | 1 (1 required, 1 error) | R-1.a |"
            ),
            "{}",
            reasons_of(2)
        );
        assert!(reasons_of(3).contains("| unsupported: no way | 1 |"), "{}", reasons_of(3));
        assert_eq!(reasons_of(0), "Every case ran, and none failed.\n");
        assert_eq!(standings[2].unexplained().len(), 1);
        assert!(standings[1].unexplained().is_empty());
    }

    #[test]
    fn a_row_gives_its_api_path_beside_the_package_and_loads_it_from_the_adapter() {
        let mut zod = Published::from_json("ai-zod", &standing("ai", "fail", Some("x"))).unwrap();
        zod.path = Some("zod inputSchema | strict".into());
        let page = render("reports", &[zod]);
        assert!(
            page.contains("| [ai-zod](ai-zod/README.md) | ai 1.0 (zod inputSchema \\| strict) | direct |"),
            "{page}"
        );
        // Loaded: reports/<name> is measured by examples/adapters/<name>, whose about.yaml says the path.
        let root = std::env::temp_dir().join(format!("table-path-{}", std::process::id()));
        let (report, adapter) = (root.join("reports/row"), root.join("examples/adapters/row"));
        std::fs::create_dir_all(&report).unwrap();
        std::fs::create_dir_all(&adapter).unwrap();
        std::fs::write(report.join("standing.json"), standing("fw", "pass", None).to_string()).unwrap();
        std::fs::write(adapter.join("repro.py"), "__TOOL__ __SCHEMA__ __ARGUMENTS__").unwrap();
        std::fs::write(
            adapter.join("about.yaml"),
            "package: fw\nversion: '1.0'\nregistry: pypi\nlanguage: python\npath: raw schema\napi: x\n\
             choices: [One.]\nrepro: repro.py\n",
        )
        .unwrap();
        let loaded = Published::load(&report);
        std::fs::remove_dir_all(&root).unwrap();
        assert_eq!(loaded.unwrap().path.as_deref(), Some("raw schema"));
    }

    #[test]
    fn a_reason_is_asked_only_where_a_required_case_fails() {
        let mut value = standing("fw", "fail", None);
        value["cases"][0]["level"] = json!("interpretation");
        let interpretation = Published::from_json("framework", &value).unwrap();
        assert!(interpretation.unexplained().is_empty());
        assert!(!render("reports", std::slice::from_ref(&interpretation)).contains("no expected-failures reason"));
        assert!(
            reasons(&interpretation).contains(
                "| No reason given (a reason is asked only where a required case fails). | 1 (0 required) | R-1.a |"
            ),
            "{}",
            reasons(&interpretation)
        );
        let required = Published::from_json("framework", &standing("fw", "fail", None)).unwrap();
        assert_eq!(required.unexplained().len(), 1);
    }

    #[test]
    fn times_to_a_standing_stand_in_a_table_of_their_own() {
        let mut timed = Published::from_json("framework", &standing("fw", "pass", None)).unwrap();
        let untimed = Published::from_json("reference", &standing("ref", "pass", None)).unwrap();
        assert!(!render("reports", &[untimed.clone(), timed.clone()]).contains("## Time to a standing"));
        timed.timing = Some(Timing {
            runs: vec![
                crate::report::about::TimedRun { jobs: 1, seconds: 8.14 },
                crate::report::about::TimedRun { jobs: 4, seconds: 0.05 },
            ],
        });
        let page = render("reports", &[untimed, timed]);
        assert!(page.contains("## Time to a standing"), "{page}");
        assert!(
            page.contains("| [framework](framework/README.md) | 8.1 s at `--jobs 1`, 0.05 s at `--jobs 4` (wall time"),
            "{page}"
        );
        assert!(page.contains("| [reference](reference/README.md) | not measured (no timing.json) |"), "{page}");
    }

    #[test]
    fn rows_with_different_corpora_say_so() {
        let mut other = standing("b", "pass", None);
        other["suite"]["corpus"]["digest"] = json!("sha256:ffffffffffffffffffff");
        let standings = vec![
            Published::from_json("a", &standing("a", "pass", None)).unwrap(),
            Published::from_json("b", &other).unwrap(),
        ];
        let page = render("reports", &standings);
        assert!(page.contains("not comparable:\n\n- `0123456789ab`, not this suite's (`"), "{page}");
        assert!(page.contains("`): a\n- `ffffffffffff`, not this suite's (`"), "{page}");
    }

    #[test]
    fn columns_txt_orders_the_first_columns() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a", "b", "c", "d"] {
            std::fs::create_dir(dir.path().join(name)).unwrap();
            let text = standing(name, "pass", None).to_string();
            std::fs::write(dir.path().join(name).join("standing.json"), text).unwrap();
        }
        let folders = |dir: &Path| load_all(dir).unwrap().into_iter().map(|p| p.folder).collect::<Vec<_>>();
        assert_eq!(folders(dir.path()), ["a", "b", "c", "d"]);
        std::fs::write(dir.path().join(COLUMNS_FILE), "# first\nc  # then\n\nb\nnone\n").unwrap();
        assert_eq!(folders(dir.path()), ["c", "b", "a", "d"]);
    }

    #[test]
    fn what_is_not_a_standing_is_refused() {
        assert!(Published::from_json("x", &json!({"cases": []})).unwrap_err().to_string().contains("standing.json"));
        let mut bad = standing("x", "pass", None);
        bad["standing"]["rules"][0]["totals"] = json!({"required": {"won": 1}});
        assert!(Published::from_json("x", &bad).unwrap_err().to_string().contains("unknown status \"won\""));
    }
}
