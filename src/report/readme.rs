//! `reports/<name>/README.md`: what one published standing measures and what it finds, generated
//! (`tool-conformance readme reports/<name>`), never written by hand.
//!
//! It reads the folder's `standing.json`, its `timing.json` (the time to a standing, written by
//! `run-frameworks.sh`), and, for a framework adapter, the adapter's `about.yaml` and
//! reproduction template ([`crate::report::about`]). The page gives the package and version, the
//! API path measured, the adapter's choices, the transports claimed, the time to a standing, the
//! verdict per rule with pass, fail, error, skip and not-applicable counts, then the failures
//! grouped by clause: what lies behind them (the reasons of `expected-failures.yaml`, as the run
//! recorded them in `standing.json`), and a minimal reproduction, the template filled with the
//! schema and arguments of the group's smallest failing case from the corpus, with what was
//! expected and what happened.
//!
//! Every string from an implementation, an adapter or a case goes through the Markdown
//! reporter's escaping ([`crate::report::markdown`]): prose and cells are escaped, code is in
//! spans and fences longer than any backtick run in it. The bytes are deterministic.

use crate::case::{Check, Level};
use crate::corpus::Corpus;
use crate::json::Value;
use crate::judge::outcome::StatusKind;
use crate::report::about::{self, About, AboutError, Timing};
use crate::report::figures::{statuses, timing};
use crate::report::markdown::{code, escape, fenced};
use crate::standing::file::{CaseEntry, StandingFile, StandingFileError};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The file name of the generated page.
pub const README_FILE: &str = "README.md";

/// An adapter, as the page describes it: its description and reproduction template.
#[derive(Debug, Clone, PartialEq)]
pub struct Adapter {
    /// The adapter folder, as the page links it (relative to the repository root).
    pub folder: String,
    /// Its `about.yaml`.
    pub about: About,
    /// The text of its reproduction template.
    pub template: String,
}

/// Everything one page is made of.
#[derive(Debug, Clone)]
pub struct Inputs {
    /// The report folder's name (`mcp-python`).
    pub name: String,
    /// Its standing.json.
    pub standing: StandingFile,
    /// The adapter, for a framework adapter's standing.
    pub adapter: Option<Adapter>,
    /// Its timing.json, when one was written.
    pub timing: Option<Timing>,
}

/// What keeps a page from being made.
#[derive(Debug, thiserror::Error)]
pub enum ReadmeError {
    /// The standing cannot be read.
    #[error(transparent)]
    Standing(#[from] StandingFileError),
    /// The adapter's about.yaml, its template or the timing cannot be read.
    #[error(transparent)]
    About(#[from] AboutError),
}

impl Inputs {
    /// Reads `report_dir` (`reports/<name>`) and, when `adapter_dir` has an `about.yaml`, the
    /// adapter there. `adapter_link` is how the page names the adapter folder (relative to the
    /// repository root, e.g. `examples/adapters/<name>`).
    pub fn load(report_dir: &Path, adapter_dir: &Path, adapter_link: &str) -> Result<Inputs, ReadmeError> {
        let name = report_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let standing = StandingFile::load(&report_dir.join("standing.json"))?;
        let adapter = if adapter_dir.join(about::ABOUT_FILE).is_file() {
            let about = About::load(adapter_dir)?;
            let path = adapter_dir.join(&about.repro);
            let template = std::fs::read_to_string(&path).map_err(|e| AboutError {
                path: path.clone(),
                place: None,
                message: format!("cannot read: {e}"),
            })?;
            Some(Adapter { folder: adapter_link.to_string(), about, template })
        } else {
            None
        };
        Ok(Inputs { name, standing, adapter, timing: Timing::load(report_dir)? })
    }
}

/// The adapter folder of a report folder in the repository's layout: `reports/<name>` is
/// measured by `examples/adapters/<name>`. Returns the folder and its path from the root.
pub fn adapter_of(report_dir: &Path) -> (PathBuf, String) {
    let name = report_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let root = report_dir.parent().and_then(Path::parent).unwrap_or(Path::new("."));
    let link = format!("examples/adapters/{name}");
    (root.join(&link), link)
}

/// The page.
pub fn render(inputs: &Inputs, corpus: &Corpus) -> String {
    let mut out = String::new();
    let file = &inputs.standing;
    let implementation = file.implementation_line();
    let title = match &inputs.adapter {
        Some(a) => format!("{} {}", a.about.package, a.about.version),
        None => implementation.clone(),
    };
    let _ = writeln!(out, "# {}: {}\n", escape(&inputs.name), escape(&title));
    let _ = writeln!(
        out,
        "<!-- Generated by `tool-conformance readme reports/{name} > reports/{name}/README.md` from this folder's \
         standing.json and timing.json and the adapter's about.yaml and reproduction template. Do not edit: \
         regenerate. -->\n",
        name = inputs.name
    );
    let _ = writeln!(out, "| what | |\n|---|---|");
    if let Some(a) = &inputs.adapter {
        let _ = writeln!(
            out,
            "| package | {} {}, from {} |",
            code(&a.about.package),
            escape(&a.about.version),
            escape(&a.about.registry)
        );
    }
    let _ = writeln!(out, "| implementation, as it answered `start` | {} |", escape(&implementation));
    if let Some(a) = &inputs.adapter {
        if a.about.version != file.implementation.version {
            let _ = writeln!(
                out,
                "| **version differs** | about.yaml pins {}, the run reported {} |",
                escape(&a.about.version),
                escape(&file.implementation.version)
            );
        }
        let _ = writeln!(out, "| path | {} |", escape(&a.about.path));
        if let Some(behind) = &a.about.pinned_behind {
            let _ = writeln!(out, "| **pinned behind the newest major release** | {} |", escape(behind));
        }
        let _ = writeln!(out, "| API path measured | {} |", escape(&a.about.api));
        let _ = writeln!(out, "| language | {} |", escape(&a.about.language));
    }
    let transports: Vec<String> = file.implementation.transports.iter().map(|t| escape(t)).collect();
    let _ = writeln!(
        out,
        "| transports claimed | {} |",
        if transports.is_empty() { "none".to_string() } else { transports.join(", ") }
    );
    let digest = file.suite.corpus.as_ref().map(|c| c.digest.as_str()).unwrap_or("");
    let _ = writeln!(
        out,
        "| corpus | {} |",
        code(digest.strip_prefix("sha256:").unwrap_or(digest).get(..12).unwrap_or(digest))
    );
    let _ = writeln!(out, "| time to a standing | {} |", timing(inputs.timing.as_ref()));
    if let Some(a) = &inputs.adapter {
        let _ = writeln!(out, "| adapter | [{}](../../{}/) |", escape(&a.folder), a.folder);
    }
    let _ = writeln!(
        out,
        "| files | [standing.md](standing.md), [standing.json](standing.json){} |",
        if file.expected_failures.is_some() {
            ", [expected-failures.yaml](expected-failures.yaml) (the run's known failures, each with its reason)"
        } else {
            ""
        }
    );
    if let Some(a) = &inputs.adapter {
        let _ = writeln!(out, "\n## Choices the adapter made\n");
        let _ =
            writeln!(out, "Each shapes the numbers below; a failure that follows from one says so in its reason.\n");
        for choice in &a.about.choices {
            let _ = writeln!(out, "- {}", escape(choice));
        }
    }
    verdicts(&mut out, file);
    let _ = writeln!(out, "\n## What lies behind the failures and skips\n");
    let published = crate::report::table::Published::from_file(&inputs.name, file.clone());
    out.push_str(&crate::report::table::reasons(&published));
    failures(&mut out, inputs, corpus);
    out
}

/// The verdict per rule, then each rule's clauses, with every status apart.
fn verdicts(out: &mut String, file: &StandingFile) {
    let _ = writeln!(out, "\n## Verdicts\n");
    let _ = writeln!(
        out,
        "Required cases: pass, fail, error, skip (declined as `unsupported`, or not observable: never a pass) \
         and n/a (not applicable: the rule, a rule it needs, or every transport it calls on is not claimed). \
         Interpretation cases never decide a verdict.\n"
    );
    let _ = writeln!(out, "| rule | verdict | pass | fail | error | skip | n/a | interpretation |");
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
    for rule in &file.standing.rules {
        let _ = writeln!(
            out,
            "| {} | **{}** | {} | {} |",
            escape(&rule.rule),
            escape(&rule.verdict.replace('_', " ")),
            statuses(&rule.totals),
            crate::report::cell(&rule.totals, Level::Interpretation)
        );
    }
    for rule in &file.standing.rules {
        let _ = writeln!(out, "\n### {} by clause\n", escape(&rule.rule));
        let _ = writeln!(out, "| clause | pass | fail | error | skip | n/a | interpretation |");
        let _ = writeln!(out, "|---|---|---|---|---|---|---|");
        for clause in &rule.clauses {
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                escape(&clause.clause),
                statuses(&clause.counts),
                crate::report::cell(&clause.counts, Level::Interpretation)
            );
        }
    }
}

/// The failing and erroring cases, grouped by each clause they cite, in the standing's clause
/// order, each group with its reasons and the reproduction of its smallest case (a required case
/// when the group has one).
fn failures(out: &mut String, inputs: &Inputs, corpus: &Corpus) {
    let file = &inputs.standing;
    let failing: Vec<&CaseEntry> =
        file.cases.iter().filter(|c| matches!(c.status, StatusKind::Fail | StatusKind::Error)).collect();
    let _ = writeln!(out, "\n## Failures by clause\n");
    if failing.is_empty() {
        let _ = writeln!(out, "No case failed or errored.");
        return;
    }
    let reasons: BTreeMap<&str, &str> =
        file.expected_failures.iter().flat_map(|t| &t.expected).map(|e| (e.case.as_str(), e.reason.as_str())).collect();
    let _ = writeln!(
        out,
        "A case citing several clauses is in each of their groups. Each group gives what lies behind its \
         failures ({}) and a minimal reproduction: its smallest failing case (a required one first){}.",
        if file.expected_failures.is_some() {
            "the reasons of [expected-failures.yaml](expected-failures.yaml)"
        } else {
            "none: the run was given no expected-failures file"
        },
        if inputs.adapter.is_some() {
            ", the adapter's reproduction template filled with that case's schema and arguments"
        } else {
            ""
        }
    );
    let mut clauses: Vec<&str> =
        file.standing.rules.iter().flat_map(|r| r.clauses.iter().map(|c| c.clause.as_str())).collect();
    for case in &failing {
        for clause in &case.clauses {
            if !clauses.contains(&clause.as_str()) {
                clauses.push(clause);
            }
        }
    }
    for clause in clauses {
        let group: Vec<&CaseEntry> =
            failing.iter().copied().filter(|c| c.clauses.iter().any(|x| x == clause)).collect();
        if group.is_empty() {
            continue;
        }
        let required = group.iter().filter(|c| c.level == Some(Level::Required)).count();
        let errors = group.iter().filter(|c| c.status == StatusKind::Error).count();
        let _ = writeln!(
            out,
            "\n### {}: {} failing {} ({required} required{})\n",
            escape(clause),
            group.len(),
            if group.len() == 1 { "case" } else { "cases" },
            if errors > 0 { format!(", {errors} errored") } else { String::new() }
        );
        let mut by_reason: Vec<(String, usize)> = Vec::new();
        for case in &group {
            // The words of the summary table (report::table::reasons) for a failure with no entry.
            let reason = match reasons.get(case.id.as_str()).copied().unwrap_or("") {
                "" if case.level == Some(Level::Required) => {
                    "**Not explained**: no expected-failures entry covers these.".to_string()
                }
                "" => "No reason given (a reason is asked only where a required case fails).".to_string(),
                given => escape(given),
            };
            match by_reason.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, n)) => *n += 1,
                None => by_reason.push((reason, 1)),
            }
        }
        by_reason.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let _ = writeln!(out, "| what lies behind them | cases |\n|---|---|");
        for (reason, n) in by_reason {
            let _ = writeln!(out, "| {reason} | {n} |");
        }
        reproduction(out, inputs, corpus, &group);
    }
}

/// What the smallest case of a group sends: (tool name, schema, arguments) for a normalize or
/// invoke case, found in the corpus.
fn what_is_sent<'a>(corpus: &'a Corpus, id: &str) -> Option<(&'a str, &'a Value, &'a Value)> {
    let case = corpus.cases.iter().find(|c| c.id == id)?;
    match &case.check {
        Check::Normalize { input_schema, arguments, .. } => Some(("repro", input_schema, arguments)),
        Check::Invoke { tools, tool, arguments, .. } => {
            let registered = tools.iter().find(|t| &t.name == tool)?;
            Some((tool.as_str(), &registered.input_schema, arguments))
        }
        Check::Describe { .. } => None,
    }
}

fn reproduction(out: &mut String, inputs: &Inputs, corpus: &Corpus, group: &[&CaseEntry]) {
    let size = |(_, schema, arguments): (&str, &Value, &Value)| {
        about::json_text(schema).len() + about::json_text(arguments).len()
    };
    // A required case before any other, then the fewest bytes sent, then the id.
    let smallest = group
        .iter()
        .filter_map(|c| {
            what_is_sent(corpus, &c.id)
                .map(|sent| ((c.level != Some(Level::Required), size(sent), c.id.as_str()), *c, sent))
        })
        .min_by(|a, b| a.0.cmp(&b.0));
    let Some((_, case, (tool, schema, arguments))) = smallest else {
        // Describe cases only (or cases the corpus no longer has): what was registered and read.
        let case = group
            .iter()
            .min_by_key(|c| (c.level != Some(Level::Required), c.id.as_str()))
            .expect("a group is never empty");
        let _ = writeln!(out, "\nSmallest case: {}{}.", code(&case.id), summary(case));
        match corpus.cases.iter().find(|c| c.id == case.id) {
            Some(found) => {
                for (what, value) in crate::report::sent(found) {
                    let json = crate::json::diff::pretty(&value) + "\n";
                    let _ = writeln!(out, "\nRegistered, {}:\n\n{}", escape(&what), fenced("json", &json));
                }
            }
            None => {
                let _ = writeln!(out, "\nThe corpus built into this binary has no such case: regenerate the standing.");
            }
        }
        outcome(out, case);
        return;
    };
    let _ = writeln!(out, "\nMinimal reproduction: {}{}.\n", code(&case.id), summary(case));
    match &inputs.adapter {
        Some(adapter) => {
            let filled = about::fill(&adapter.template, tool, schema, arguments);
            let _ = writeln!(
                out,
                "{} (from {}, as the adapter calls it):\n\n{}",
                escape(&adapter.about.language),
                code(&adapter.about.repro),
                fenced(&adapter.about.language, &filled)
            );
        }
        None => {
            let _ = writeln!(
                out,
                "Tool {}, input schema:\n\n{}\nArguments:\n\n{}",
                code(tool),
                fenced("json", &(crate::json::diff::pretty(schema) + "\n")),
                fenced("json", &(crate::json::diff::pretty(arguments) + "\n"))
            );
        }
    }
    outcome(out, case);
}

fn summary(case: &CaseEntry) -> String {
    let level = format!(" ({})", escape(case.level.map_or("", Level::as_str)));
    match &case.summary {
        Some(s) => format!("{level}: {}", escape(s.trim_end_matches('.'))),
        None => level,
    }
}

/// What was expected and what happened, or why the case errored.
fn outcome(out: &mut String, case: &CaseEntry) {
    if case.status == StatusKind::Error {
        let reason = case.reason.clone().unwrap_or_default() + "\n";
        let _ = writeln!(out, "It errored:\n\n{}", fenced("text", &reason));
        return;
    }
    let null = Value::Null;
    let check = case.check.as_deref().unwrap_or("the case's check");
    let expected = crate::json::diff::pretty(case.expected.as_ref().unwrap_or(&null)) + "\n";
    let actual = crate::json::diff::pretty(case.actual.as_ref().unwrap_or(&null)) + "\n";
    let _ = writeln!(
        out,
        "Expected, {}:\n\n{}\nWhat happened:\n\n{}",
        escape(check),
        fenced("json", &expected),
        fenced("json", &actual)
    );
}
