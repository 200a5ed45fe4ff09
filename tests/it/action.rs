//! Runs the GitHub Action (action.yml) the way a runner would, in bash with a faked GitHub
//! environment: each step's `run` script with its `env` (the `${{ }}` expressions evaluated from
//! the inputs and the earlier steps' outputs), GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY,
//! RUNNER_TEMP, RUNNER_OS and RUNNER_ARCH. The release asset is served from a file:// folder laid
//! out as the release workflow publishes it. Three runs: the built-in reference, the example
//! Python adapter, and that adapter with an answer made wrong, which must fail with exit 1, an
//! annotation per failing required case and the standing in the summary.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;
use yaml_rust2::{Yaml, YamlLoader};
use crate::util::root;

const BIN: &str = env!("CARGO_BIN_EXE_tool-conformance");
const VERSION: &str = env!("CARGO_PKG_VERSION");
const TARGET: &str = "x86_64-unknown-linux-musl";

fn action() -> Yaml {
    let text = fs::read_to_string(root().join("action.yml")).expect("read action.yml");
    YamlLoader::load_from_str(&text).expect("action.yml parses").remove(0)
}

/// What one run of the action left behind.
struct Ran {
    /// The exit code of the first step that failed, or 0.
    code: i32,
    /// Every step's stdout and stderr, in order.
    log: String,
    summary: String,
    outputs: BTreeMap<String, String>,
}

/// Parses a GITHUB_OUTPUT file of `name=value` lines.
fn read_outputs(path: &Path) -> BTreeMap<String, String> {
    let text = fs::read_to_string(path).unwrap_or_default();
    text.lines().filter_map(|line| line.split_once('=')).map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// Evaluates the one kind of expression the action's steps use; anything else fails the test.
fn evaluate(
    value: &str,
    inputs: &BTreeMap<String, String>,
    steps: &BTreeMap<String, BTreeMap<String, String>>,
) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("}}").expect("closed expression") + start;
        let expr = rest[start + 3..end].trim();
        let parts: Vec<&str> = expr.split('.').collect();
        let resolved = match parts.as_slice() {
            ["inputs", name] => inputs.get(*name).unwrap_or_else(|| panic!("undeclared input {name}")).clone(),
            ["steps", id, "outputs", name] => steps.get(*id).and_then(|o| o.get(*name)).cloned().unwrap_or_default(),
            _ => panic!("the test cannot evaluate the expression `{expr}`"),
        };
        out.push_str(&resolved);
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

/// Runs every step of action.yml with these inputs, stopping at the first that fails, as a
/// runner does. `path_first` goes before PATH (for a fake cargo).
fn run_action(given: &[(&str, &str)], release: &Path, path_first: Option<&Path>) -> Ran {
    let action = action();
    let mut inputs = BTreeMap::new();
    for (name, spec) in action["inputs"].as_hash().expect("inputs") {
        let default = spec["default"].as_str().map(str::to_string).unwrap_or_default();
        inputs.insert(name.as_str().expect("input name").to_string(), default);
    }
    inputs.insert("download-url".into(), format!("file://{}", release.display()));
    for (name, value) in given {
        assert!(inputs.contains_key(*name), "action.yml declares no input {name}");
        inputs.insert(name.to_string(), value.to_string());
    }
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    let temp = tempfile::tempdir().expect("tempdir");
    let workspace = temp.path().join("workspace");
    let runner_temp = temp.path().join("runner");
    fs::create_dir_all(&workspace).unwrap();
    fs::create_dir_all(&runner_temp).unwrap();
    let summary = temp.path().join("summary.md");
    let github_path = temp.path().join("path.txt");
    fs::write(&summary, "").unwrap();
    fs::write(&github_path, "").unwrap();
    let mut steps: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut log = String::new();
    let mut code = 0;
    for (i, step) in action["runs"]["steps"].as_vec().expect("steps").iter().enumerate() {
        assert_eq!(step["shell"].as_str(), Some("bash"), "step {i} runs in bash");
        let script = step["run"].as_str().expect("a run step");
        let output = temp.path().join(format!("output-{i}"));
        fs::write(&output, "").unwrap();
        let added: Vec<String> = fs::read_to_string(&github_path).unwrap().lines().rev().map(str::to_string).collect();
        let mut path = added.join(":");
        if let Some(first) = path_first {
            path = format!("{}:{path}", first.display());
        }
        let path = format!("{path}:{}", std::env::var("PATH").unwrap_or_default());
        let mut command = Command::new("bash");
        command
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
            .current_dir(&workspace)
            .env("PATH", path.trim_start_matches(':'))
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_WORKSPACE", &workspace)
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_PATH", &github_path)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("RUNNER_TEMP", &runner_temp)
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .env("REPO", root());
        if let Some(env) = step["env"].as_hash() {
            for (k, v) in env {
                let v = v.as_str().map(str::to_string).unwrap_or_else(|| format!("{v:?}"));
                command.env(k.as_str().expect("env name"), evaluate(&v, &inputs, &steps));
            }
        }
        let result = command.output().expect("run bash");
        log.push_str(&String::from_utf8_lossy(&result.stdout));
        log.push_str(&String::from_utf8_lossy(&result.stderr));
        if let Some(id) = step["id"].as_str() {
            steps.insert(id.to_string(), read_outputs(&output));
        }
        if !result.status.success() {
            code = result.status.code().unwrap_or(-1);
            break;
        }
    }
    let mut outputs = BTreeMap::new();
    for (name, spec) in action["outputs"].as_hash().expect("outputs") {
        let value = evaluate(spec["value"].as_str().expect("output value"), &inputs, &steps);
        outputs.insert(name.as_str().unwrap().to_string(), value);
    }
    // The report folder is relative to the workspace: keep what the checks read.
    if let Some(dir) = outputs.get("report-dir").filter(|d| !d.is_empty()) {
        let junit = workspace.join(dir).join("junit.xml");
        assert!(junit.is_file(), "junit.xml is left in {dir}");
    }
    Ran { code, log, summary: fs::read_to_string(&summary).unwrap(), outputs }
}

/// A release folder as the release workflow lays it out: v<version>/<asset> and <asset>.sha256.
fn release(corrupt_checksum: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let stem = format!("tool-conformance-{VERSION}-{TARGET}");
    let staging = dir.path().join("staging").join(&stem);
    fs::create_dir_all(&staging).unwrap();
    fs::copy(BIN, staging.join("tool-conformance")).unwrap();
    let assets = dir.path().join(format!("v{VERSION}"));
    fs::create_dir_all(&assets).unwrap();
    let asset = assets.join(format!("{stem}.tar.gz"));
    let status = Command::new("tar")
        .arg("-czf")
        .arg(&asset)
        .arg("-C")
        .arg(dir.path().join("staging"))
        .arg(&stem)
        .status()
        .expect("tar");
    assert!(status.success());
    let sum = Command::new("sha256sum").arg(&asset).output().expect("sha256sum");
    let mut line = String::from_utf8(sum.stdout).unwrap();
    if corrupt_checksum {
        line = format!("{}{}", "0".repeat(64), &line[64..]);
    }
    fs::write(assets.join(format!("{stem}.tar.gz.sha256")), line).unwrap();
    dir
}

fn published_verdicts(name: &str) -> BTreeMap<String, String> {
    let text = fs::read_to_string(root().join("reports").join(name).join("standing.json")).unwrap();
    let value: serde_json::Value = tool_conformance::json::from_str(&text).unwrap();
    value["standing"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["rule"].as_str().unwrap().to_string(), r["verdict"].as_str().unwrap().to_string()))
        .collect()
}

fn assert_outputs_match(ran: &Ran, verdicts: &BTreeMap<String, String>) {
    for (rule, verdict) in verdicts {
        let key = format!("verdict-{}", rule.to_lowercase());
        assert_eq!(ran.outputs.get(&key), Some(verdict), "output {key}\n{}", ran.log);
        assert!(
            ran.summary.contains(&format!("## {rule}: {}", verdict.replace('_', " "))),
            "summary names {rule}: {verdict}\n{}",
            ran.summary
        );
    }
    let all: serde_json::Value = tool_conformance::json::from_str(&ran.outputs["verdicts"]).expect("verdicts is JSON");
    assert_eq!(all.as_object().unwrap().len(), verdicts.len());
    assert_eq!(ran.outputs["junit"], format!("{}/junit.xml", ran.outputs["report-dir"]));
}

fn against_the_reference_it_passes_with_a_summary_and_outputs() {
    let release = release(false);
    let ran = run_action(&[], release.path(), None);
    assert_eq!(ran.code, 0, "{}", ran.log);
    assert!(
        ran.log.contains(&format!("from tool-conformance-{VERSION}-{TARGET}.tar.gz")),
        "installed the release asset:\n{}",
        ran.log
    );
    assert!(!ran.log.contains("::error"), "{}", ran.log);
    assert_eq!(ran.outputs["exit-code"], "0");
    assert_outputs_match(&ran, &published_verdicts("reference"));
}

fn against_the_python_example_it_stands_as_published() {
    let release = release(false);
    let adapter = root().join("examples/adapters/python/adapter.py");
    let stdio = format!("python3 {}", adapter.display());
    let baseline = root().join("reports/python/standing.json");
    let ran =
        run_action(&[("stdio", &stdio), ("baseline", baseline.to_str().unwrap()), ("jobs", "2")], release.path(), None);
    assert_eq!(ran.code, 0, "{}", ran.log);
    assert!(ran.summary.contains("Against the baseline"), "{}", ran.summary);
    assert_outputs_match(&ran, &published_verdicts("python"));
}

fn a_wrong_answer_fails_with_annotations_and_a_summary() {
    let release = release(false);
    let wrapper = root().join("tests/action/wrong_answers.py");
    let adapter = root().join("examples/adapters/python/adapter.py");
    let stdio = format!("python3 {} {}", wrapper.display(), adapter.display());
    let ran = run_action(&[("stdio", &stdio), ("rules", "PLAT-162")], release.path(), None);
    assert_eq!(ran.code, 1, "{}", ran.log);
    assert_eq!(ran.outputs["verdict-plat-162"], "does_not_conform");
    assert!(ran.summary.contains("## PLAT-162: does not conform"), "{}", ran.summary);
    let report = tempfile::tempdir().unwrap();
    let direct = Command::new(BIN)
        .args(["run", "--color", "never", "--rule", "PLAT-162", "--stdio", &stdio, "--report"])
        .arg(report.path())
        .output()
        .unwrap();
    assert_eq!(direct.status.code(), Some(1));
    let text = fs::read_to_string(report.path().join("standing.json")).unwrap();
    let standing: serde_json::Value = tool_conformance::json::from_str(&text).unwrap();
    let failing: Vec<&serde_json::Value> = standing["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["level"] == "required" && c["status"] == "fail")
        .collect();
    assert!(!failing.is_empty());
    let annotations: Vec<&str> = ran.log.lines().filter(|l| l.starts_with("::error ")).collect();
    // GitHub shows 10 error annotations per step; the rest are counted in the summary.
    let shown = failing.len().min(10);
    assert_eq!(annotations.len(), shown, "one annotation per failing required case, up to 10:\n{}", ran.log);
    let unannotated = failing.len() - shown;
    assert_eq!(
        ran.summary.contains(&format!("{unannotated} of them are not annotated")),
        unannotated > 0,
        "{}",
        ran.summary
    );
    // The case files are the suite's, not in the caller's repository: no annotation points there.
    assert!(annotations.iter().all(|l| !l.contains("file=")), "{}", ran.log);
    for case in failing.into_iter().take(shown) {
        let id = case["id"].as_str().unwrap();
        let line = annotations
            .iter()
            .find(|l| l.starts_with(&format!("::error title={}::", id.replace(':', "%3A").replace(',', "%2C"))))
            .unwrap_or_else(|| panic!("no annotation titled {id}:\n{}", ran.log));
        let message = line.split_once("::").unwrap().1.split_once("::").unwrap().1;
        assert!(message.contains(case["check"].as_str().unwrap()), "{line}");
        assert!(
            message.contains(&format!("at {}", case["pointer"].as_str().unwrap())) || case["pointer"] == "",
            "{line}"
        );
        assert!(message.contains(&format!("got {}", serde_json::to_string(&case["actual"]).unwrap())), "{line}");
    }
}

fn a_bad_checksum_is_refused_and_falls_back_to_cargo_install() {
    let release = release(true);
    let fake = tempfile::tempdir().unwrap();
    let record = fake.path().join("cargo-args");
    let cargo = fake.path().join("cargo");
    fs::write(&cargo, format!("#!/bin/sh\necho \"$@\" > {}\nexit 1\n", record.display())).unwrap();
    Command::new("chmod").arg("+x").arg(&cargo).status().unwrap();
    let ran = run_action(&[], release.path(), Some(fake.path()));
    assert_ne!(ran.code, 0);
    assert!(ran.log.contains("SHA-256"), "{}", ran.log);
    let args = fs::read_to_string(&record).expect("cargo install was tried");
    assert!(args.starts_with(&format!("install --locked tool-conformance --version {VERSION} ")), "{args}");
    assert!(ran.outputs["exit-code"].is_empty(), "the suite did not run");
}

fn the_default_version_is_the_crate_version_and_every_rule_has_an_output() {
    let action = action();
    assert_eq!(action["inputs"]["version"]["default"].as_str(), Some(VERSION));
    let corpus = tool_conformance::Corpus::embedded().unwrap_or_else(|e| panic!("{e}"));
    for rule in &corpus.catalog.rules {
        let key = format!("verdict-{}", rule.id.to_lowercase());
        assert!(!action["outputs"][key.as_str()].is_badvalue(), "action.yml declares no output {key}");
    }
}

tests![
    against_the_reference_it_passes_with_a_summary_and_outputs,
    against_the_python_example_it_stands_as_published,
    a_wrong_answer_fails_with_annotations_and_a_summary,
    a_bad_checksum_is_refused_and_falls_back_to_cargo_install,
    the_default_version_is_the_crate_version_and_every_rule_has_an_output,
];
