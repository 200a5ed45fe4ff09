//! The side-by-side table of published standings (`tool-conformance table DIR`): every
//! `DIR/<name>/standing.json` in one Markdown page, a column per implementation and a row per
//! clause, then, per implementation, what lies behind its failures and skips.
//!
//! The page is generated, never written by hand: `reports/README.md` is this module's output for
//! `reports/`, and a test fails while the two differ. The standings are read leniently (only ids,
//! counts, verdicts, statuses and reasons), like [`crate::standing::regression`] reads them.
//!
//! What lies behind a failure is the reason of the expected-failures entry that covers it: a run
//! given `--expected-failures FILE` records, in `standing.json`, each failing case with the reason
//! of its entry. The page groups failing cases by that reason, one sentence each, and counts the
//! failures no entry explains. Skips are grouped by the reason the implementation gave.
//!
//! The columns stand in the order `DIR/columns.txt` gives (in `reports/`: the built-in reference,
//! then the example adapter), then by folder name.

use crate::case::Level;
use crate::report::cell;
use crate::standing::Counts;
use crate::standing::file::{StandingFile, StandingFileErrorKind};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The file of `DIR` that names the folders standing in the first columns, one a line, in order
/// (`#` starts a comment); the other folders follow by name.
pub const COLUMNS_FILE: &str = "columns.txt";

/// How many distinct skip reasons a section lists before it sums up the rest.
const SKIP_REASONS_SHOWN: usize = 8;

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
    /// Its level.
    pub level: String,
    /// `fail` or `error`.
    pub status: String,
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
        let text = std::fs::read_to_string(&path).map_err(|e| error(format!("cannot read: {e}")))?;
        let value: Value = crate::json::from_str(&text).map_err(|e| error(format!("not JSON: {e}")))?;
        let name = folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        Published::from_json(&name, &value).map_err(|kind| error(kind.to_string()))
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
            match case.status.as_str() {
                "fail" | "error" => failures.push(PublishedFailure {
                    explained: explained.get(case.id.as_str()).map(|r| r.to_string()),
                    case: case.id.clone(),
                    clauses: case.clauses.clone(),
                    level: case.level.clone(),
                    status: case.status.clone(),
                }),
                "skip" => skips.push((case.id.clone(), case.reason.clone().unwrap_or_default())),
                _ => {}
            }
        }
        Published {
            folder: folder.to_string(),
            implementation: format!("{} {}", file.implementation.name, file.implementation.version),
            transports: file.implementation.transports.clone(),
            corpus_digest: file.suite.corpus.as_ref().map(|c| c.digest.clone()).unwrap_or_default(),
            rules,
            failures,
            skips,
        }
    }

    /// The failing cases no expected-failures entry explains.
    pub fn unexplained(&self) -> Vec<&PublishedFailure> {
        self.failures.iter().filter(|f| f.explained.is_none()).collect()
    }
}

/// Reads every `DIR/*/standing.json`: first the folders `DIR/columns.txt` names, in its order,
/// then the others by folder name. Folders without a standing.json are passed over.
pub fn load_all(dir: &Path) -> Result<Vec<Published>, TableError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| TableError { path: dir.into(), message: format!("cannot read: {e}") })?;
    let first = first_columns(dir)?;
    let mut folders: Vec<PathBuf> =
        entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.join("standing.json").is_file()).collect();
    folders.sort_by_key(|p| {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        (first.iter().position(|f| *f == name).unwrap_or(first.len()), name)
    });
    folders.iter().map(|f| Published::load(f)).collect()
}

/// The folders `DIR/columns.txt` names, in order; none when there is no such file.
fn first_columns(dir: &Path) -> Result<Vec<String>, TableError> {
    let path = dir.join(COLUMNS_FILE);
    let text = match std::fs::read_to_string(&path) {
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
        "Each column is one implementation's `standing.json` in this folder, as a run with `--report` \
         wrote it. A cell counts the required cases of a clause: passed/judged (judged: passed, failed or \
         errored), then failures, errors and skips (a skip is a case the implementation declined as \
         `unsupported`, or whose answer could not show what it checks: never a pass, and never in the \
         denominator); `N n/a` when no case applied (its rule, a rule it needs, or its transports are not \
         claimed). Below the tables, each implementation's failures are grouped by what lies behind \
         them.\n"
    );
    if standings.is_empty() {
        let _ = writeln!(out, "No standing has been published here yet.");
        return out;
    }
    let header = |out: &mut String, first: &str| {
        let _ = write!(out, "| {first} |");
        for s in standings {
            let _ = write!(out, " [{}]({}/standing.md) |", s.folder, s.folder);
        }
        let _ = write!(out, "\n|---|");
        for _ in standings {
            let _ = write!(out, "---|");
        }
        out.push('\n');
    };
    let row = |out: &mut String, label: &str, cells: Vec<String>| {
        let _ = writeln!(out, "| {label} | {} |", cells.join(" | "));
    };
    header(&mut out, "");
    row(&mut out, "implementation", standings.iter().map(|s| escape(&s.implementation)).collect());
    row(&mut out, "transports claimed", standings.iter().map(|s| s.transports.join(", ")).collect());
    let digests: Vec<String> = standings.iter().map(|s| short_digest(&s.corpus_digest)).collect();
    row(&mut out, "corpus", digests);
    let mut rules: Vec<&str> = Vec::new();
    for s in standings {
        for r in &s.rules {
            if !rules.contains(&r.rule.as_str()) {
                rules.push(&r.rule);
            }
        }
    }
    for rule in rules {
        let _ = writeln!(out, "\n## {rule}\n");
        header(&mut out, "clause");
        fn of<'a>(s: &'a Published, rule: &str) -> Option<&'a PublishedRule> {
            s.rules.iter().find(|r| r.rule == rule)
        }
        row(
            &mut out,
            "**verdict**",
            standings
                .iter()
                .map(|s| of(s, rule).map(|r| format!("**{}**", r.verdict.replace('_', " "))).unwrap_or("-".into()))
                .collect(),
        );
        let mut clauses: Vec<&str> = Vec::new();
        for s in standings {
            for (clause, _) in of(s, rule).map(|r| r.clauses.as_slice()).unwrap_or_default() {
                if !clauses.contains(&clause.as_str()) {
                    clauses.push(clause);
                }
            }
        }
        for clause in clauses {
            let cells = standings
                .iter()
                .map(|s| {
                    of(s, rule)
                        .and_then(|r| r.clauses.iter().find(|(c, _)| c == clause))
                        .map(|(_, counts)| cell(counts, Level::Required))
                        .unwrap_or("-".into())
                })
                .collect();
            row(&mut out, clause, cells);
        }
        for (label, level) in [
            ("all required", Level::Required),
            ("interpretation", Level::Interpretation),
            ("informational", Level::Informational),
        ] {
            row(
                &mut out,
                label,
                standings.iter().map(|s| of(s, rule).map(|r| cell(&r.totals, level)).unwrap_or("-".into())).collect(),
            );
        }
    }
    let _ = writeln!(out, "\n## What lies behind each failure and skip");
    for s in standings {
        let _ = writeln!(out, "\n### {}: {}\n", s.folder, escape(&s.implementation));
        if s.failures.is_empty() && s.skips.is_empty() {
            let _ = writeln!(out, "Every case ran, and none failed.");
            continue;
        }
        if !s.failures.is_empty() {
            let _ = writeln!(out, "| failures | cases | clauses |\n|---|---|---|");
            let mut groups: Vec<(String, Vec<&PublishedFailure>)> = Vec::new();
            for f in &s.failures {
                let reason = f
                    .explained
                    .clone()
                    .unwrap_or_else(|| "**Not explained**: no expected-failures entry covers these.".into());
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
                let _ = writeln!(out, "| {} | {} | {} |", escape(&reason), case_count(&cases), clauses.join(", "));
            }
        }
        if !s.skips.is_empty() {
            let mut groups: BTreeMap<&str, usize> = BTreeMap::new();
            for (_, reason) in &s.skips {
                *groups.entry(reason.as_str()).or_default() += 1;
            }
            let mut groups: Vec<(&str, usize)> = groups.into_iter().collect();
            groups.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
            let _ = writeln!(out, "\n| skipped, as the implementation said | cases |\n|---|---|");
            for (reason, n) in groups.iter().take(SKIP_REASONS_SHOWN) {
                let _ = writeln!(out, "| {} | {n} |", escape(reason));
            }
            if groups.len() > SKIP_REASONS_SHOWN {
                let rest: usize = groups[SKIP_REASONS_SHOWN..].iter().map(|(_, n)| n).sum();
                let _ = writeln!(
                    out,
                    "| {} other reasons (see [standing.md]({}/standing.md)) | {rest} |",
                    groups.len() - SKIP_REASONS_SHOWN,
                    s.folder
                );
            }
        }
    }
    out
}

/// `N` cases, with how many are required, interpretation and errors.
fn case_count(cases: &[&PublishedFailure]) -> String {
    let required = cases.iter().filter(|f| f.level == "required").count();
    let errors = cases.iter().filter(|f| f.status == "error").count();
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

/// Text for a Markdown table cell: pipes escaped, one line.
fn escape(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
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
    fn a_page_has_a_column_per_standing_and_groups_failures_by_reason() {
        let standings = vec![
            Published::from_json("reference", &standing("ref", "pass", None)).unwrap(),
            Published::from_json("framework", &standing("fw", "fail", Some("It decodes | nothing."))).unwrap(),
            Published::from_json("other", &standing("o", "error", None)).unwrap(),
            Published::from_json("skipper", &standing("s", "skip", None)).unwrap(),
        ];
        let page = render("reports", &standings);
        assert!(
            page.contains(
                "| **verdict** | **conforms** | **does not conform** | **does not conform** | **does not conform** |"
            ),
            "{page}"
        );
        assert!(page.contains("| R-1.a | 1/1 | 0/1, 1 fail | 0/1, 1 error | 0/0, 1 skip |"), "{page}");
        assert!(page.contains("| corpus | `0123456789ab` |"), "{page}");
        assert!(page.contains("| It decodes \\| nothing. | 1 (1 required) | R-1.a |"), "{page}");
        assert!(
            page.contains(
                "| **Not explained**: no expected-failures entry covers these. | 1 (1 required, 1 error) | R-1.a |"
            ),
            "{page}"
        );
        assert!(page.contains("| unsupported: no way | 1 |"), "{page}");
        assert!(page.contains("### reference: ref 1.0\n\nEvery case ran, and none failed."), "{page}");
        assert_eq!(standings[2].unexplained().len(), 1);
        assert!(standings[1].unexplained().is_empty());
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
