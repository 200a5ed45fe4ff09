//! reports/reference/ is the built-in reference's published standing, every file `--report`
//! writes. This test runs the reference in process over the embedded corpus and fails when any
//! committed file differs from what the run gives now, or when the folder holds a file a run no
//! longer writes (its README.md aside). Regenerate the folder with:
//!
//! ```sh
//! cargo run -- run --report reports/reference
//! cargo run -- readme reports/reference > reports/reference/README.md
//! ```
//!
//! Every reports/<name>/README.md is the page `tool-conformance readme reports/<name>` makes of
//! that folder (and of examples/adapters/<name>/about.yaml), and reports/README.md the table of
//! them all.

use std::collections::BTreeSet;
use std::path::PathBuf;
use tool_conformance::report::Report;
use tool_conformance::report::about::TIMING_FILE;
use tool_conformance::report::readme::{self, README_FILE};
use tool_conformance::run::run;
use tool_conformance::{Corpus, Reference, Selection};

const REGENERATE: &str = "cargo run -- run --report reports/reference";

fn reports_reference_is_current() {
    let corpus = Corpus::embedded().unwrap_or_else(|errors| panic!("{errors}"));
    let report = Report::for_corpus(&corpus, &run(&corpus, &Selection::all(), &mut Reference::new()));
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("reports/reference");
    let files = report.files();
    let mut stale = Vec::new();
    for (name, contents) in &files {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(committed) if &committed == contents => {}
            Ok(committed) => {
                let diff = similar::TextDiff::from_lines(committed.as_str(), contents.as_str())
                    .unified_diff()
                    .context_radius(1)
                    .header("committed", "now")
                    .to_string();
                let shown: String = diff.lines().take(30).map(|l| format!("    {l}\n")).collect();
                stale.push(format!("{name} differs:\n{shown}"));
            }
            Err(error) => stale.push(format!("{name} is missing ({error})")),
        }
    }
    let written: BTreeSet<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !written.contains(name.as_str()) && name != README_FILE && name != TIMING_FILE {
                stale.push(format!("{name} is no longer written by a run: delete it"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "reports/reference/ is stale; regenerate it with `{REGENERATE}` and commit the result:\n{}",
        stale.join("\n")
    );
}

/// reports/README.md is the table `tool-conformance table reports` makes of the standings
/// published in reports/, and every failure in them has an expected-failures reason.
fn reports_readme_is_the_table_of_the_published_standings() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("reports");
    let standings = tool_conformance::report::table::load_all(&dir).expect("the published standings load");
    assert!(standings.iter().any(|s| s.folder == "reference"), "reports/reference/ is published");
    let page = tool_conformance::report::table::render("reports", &standings);
    let committed = std::fs::read_to_string(dir.join("README.md")).unwrap_or_default();
    assert!(
        committed.trim_end() == page.trim_end(),
        "reports/README.md is stale; regenerate it with `cargo run -- table reports > reports/README.md` \
         (examples/adapters/run-frameworks.sh does) and commit the result"
    );
    // A behaviour cell links to the row's README, at the heading of that behaviour's cases when
    // one of its checks missed: the heading is there (GitHub's anchor of `### id` is `id`).
    let mut anchored = 0;
    for link in page.split("](").skip(1).map(|rest| rest.split(')').next().unwrap()) {
        if let Some((folder, anchor)) = link.split_once("/README.md#") {
            let readme = std::fs::read_to_string(dir.join(folder).join("README.md")).unwrap();
            assert!(readme.contains(&format!("\n### {anchor}\n")), "reports/README.md links to {link}, no heading of it");
            anchored += 1;
        }
    }
    assert!(anchored > 0, "no behaviour cell links to its cases");
    let unexplained: Vec<String> = standings
        .iter()
        .flat_map(|s| s.unexplained().into_iter().map(move |f| format!("{}: {}", s.folder, f.case)))
        .collect();
    assert!(unexplained.is_empty(), "failures without an expected-failures reason:\n{}", unexplained.join("\n"));
}

/// Every reports/<name>/README.md is what `tool-conformance readme reports/<name>` writes now.
fn every_published_readme_is_current() {
    let corpus = Corpus::embedded().unwrap_or_else(|errors| panic!("{errors}"));
    let reports = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("reports");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&reports)
        .expect("reports/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("standing.json").is_file())
        .collect();
    folders.sort();
    let mut stale = Vec::new();
    for folder in &folders {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let (adapter_dir, link) = readme::adapter_of(folder);
        let inputs = readme::Inputs::load(folder, &adapter_dir, &link).unwrap_or_else(|e| panic!("{name}: {e}"));
        let page = readme::render(&inputs, &corpus);
        match std::fs::read_to_string(folder.join(README_FILE)) {
            Ok(committed) if committed == page => {}
            Ok(_) => stale.push(format!(
                "reports/{name}/README.md is stale: regenerate it with \
                 `cargo run -- readme reports/{name} > reports/{name}/README.md`"
            )),
            Err(e) => stale.push(format!(
                "reports/{name}/README.md is missing ({e}): write it with \
                 `cargo run -- readme reports/{name} > reports/{name}/README.md`"
            )),
        }
    }
    assert!(folders.len() >= 3, "only {} published standings", folders.len());
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

tests![
    reports_reference_is_current,
    reports_readme_is_the_table_of_the_published_standings,
    every_published_readme_is_current,
];
