//! What this machine can check of the packaging: the release workflow, the action and the GitLab
//! template parse; the release assets are the names `[package.metadata.binstall]` points at; the
//! Dockerfile builds the same binary target, with the same features, as the release workflow, and
//! its context holds the corpus; the GitLab template's scripts run in bash against the reference
//! and fail on a wrong answer, leaving junit.xml where its artifacts say; the README shows no
//! placeholder and its CI snippets use only what the tested files declare.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;
use yaml_rust2::{Yaml, YamlLoader};
use crate::util::root;

const BIN: &str = env!("CARGO_BIN_EXE_tool-conformance");
const VERSION: &str = env!("CARGO_PKG_VERSION");
const REPOSITORY: &str = "https://github.com/tool-conformance/tool-conformance";
const TARGETS: [&str; 5] = [
    "x86_64-unknown-linux-musl",
    "aarch64-unknown-linux-musl",
    "aarch64-apple-darwin",
    "x86_64-apple-darwin",
    "x86_64-pc-windows-msvc",
];

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("read {path}: {e}"))
}

fn yaml(path: &str) -> Yaml {
    YamlLoader::load_from_str(&read(path)).unwrap_or_else(|e| panic!("{path} does not parse: {e}")).remove(0)
}

/// The value of `key = "..."` in the given `[table]` of Cargo.toml.
fn manifest_value(table: &str, key: &str) -> Option<String> {
    let manifest = read("Cargo.toml");
    let mut current = String::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            current = line.trim_matches(|c| c == '[' || c == ']').to_string();
        } else if current == table
            && let Some((k, v)) = line.split_once('=')
            && k.trim() == key
        {
            return Some(v.trim().trim_matches('"').to_string());
        }
    }
    None
}

fn the_manifest_names_the_canonical_repository_and_its_licenses() {
    assert_eq!(manifest_value("package", "repository").as_deref(), Some(REPOSITORY));
    assert_eq!(manifest_value("package", "homepage").as_deref(), Some(REPOSITORY));
    assert_eq!(manifest_value("package", "documentation").as_deref(), Some("https://docs.rs/tool-conformance"));
    assert_eq!(manifest_value("package", "license").as_deref(), Some("MIT OR Apache-2.0"));
    let include = manifest_value("package", "include").expect("include");
    for needed in ["/src/**", "/cases/**", "/schemas/**", "/specs/**", "/build.rs", "/LICENSE-MIT", "/LICENSE-APACHE"] {
        assert!(include.contains(&format!("\"{needed}\"")), "include lacks {needed}");
    }
    assert!(read("LICENSE-MIT").contains("MIT License"));
    assert!(read("LICENSE-APACHE").contains("Apache License"));
}

/// The asset name binstall computes for a target, from pkg-url and the per-target pkg-fmt.
fn binstall_url(target: &str) -> String {
    let pkg_url = manifest_value("package.metadata.binstall", "pkg-url").expect("binstall pkg-url");
    let fmt = manifest_value(&format!("package.metadata.binstall.overrides.{target}"), "pkg-fmt")
        .or_else(|| manifest_value("package.metadata.binstall", "pkg-fmt"))
        .expect("pkg-fmt");
    let suffix = match fmt.as_str() {
        "tgz" => ".tar.gz",
        "zip" => ".zip",
        other => panic!("pkg-fmt {other} is not one the release workflow makes"),
    };
    pkg_url
        .replace("{ repo }", REPOSITORY)
        .replace("{ version }", VERSION)
        .replace("{ name }", "tool-conformance")
        .replace("{ target }", target)
        .replace("{ archive-suffix }", suffix)
}

fn the_release_assets_are_the_ones_binstall_points_at() {
    let release = yaml(".github/workflows/release.yml");
    assert!(!release["on"]["push"]["tags"].is_badvalue(), "released on a tag");
    let matrix = release["jobs"]["build"]["strategy"]["matrix"]["include"].as_vec().expect("matrix");
    let targets: Vec<&str> = matrix.iter().map(|m| m["target"].as_str().unwrap()).collect();
    assert_eq!(targets, TARGETS);
    let steps = release["jobs"]["build"]["steps"].as_vec().unwrap();
    let package = steps.iter().find(|s| s["name"].as_str() == Some("Package")).expect("a Package step");
    let script = package["run"].as_str().unwrap();
    assert!(script.contains(r#"version="${GITHUB_REF_NAME#v}""#));
    assert!(script.contains(r#"stem="tool-conformance-$version-$TARGET""#));
    assert!(script.contains(r#"mkdir -p "dist/$stem""#), "the binary sits in <stem>/, as bin-dir says");
    assert!(script.contains("sha256"), "each asset has its checksum");
    let bin_dir = manifest_value("package.metadata.binstall", "bin-dir").unwrap();
    assert_eq!(bin_dir, "{ name }-{ version }-{ target }/{ bin }{ binary-ext }");
    for entry in matrix {
        let target = entry["target"].as_str().unwrap();
        let archive = entry["archive"].as_str().unwrap();
        // The tag is v<version>; the Package step names the asset <stem>.<archive>.
        let published =
            format!("{REPOSITORY}/releases/download/v{VERSION}/tool-conformance-{VERSION}-{target}.{archive}");
        assert_eq!(binstall_url(target), published, "{target}");
    }
    let publish = format!("{:?}", release["jobs"]["publish"]);
    assert!(publish.contains("SHA256SUMS") && publish.contains("reports"), "checksums and standings are published");
}

/// The `cargo build` line of a Dockerfile or a workflow step, without its --target.
fn build_line(text: &str) -> String {
    let line = text.lines().find(|l| l.contains("cargo build")).expect("a cargo build line");
    let command = &line[line.find("cargo build").unwrap()..];
    let words: Vec<&str> = command.split_whitespace().collect();
    let mut kept = Vec::new();
    let mut skip = false;
    for w in words {
        if skip {
            skip = false;
        } else if w == "--target" {
            skip = true;
        } else {
            kept.push(w);
        }
    }
    kept.join(" ")
}

fn the_dockerfile_parses_and_builds_what_the_release_builds_with_the_corpus_inside() {
    let dockerfile = read("Dockerfile");
    let known = ["FROM", "RUN", "COPY", "WORKDIR", "ENTRYPOINT", "CMD", "ENV", "ARG", "LABEL"];
    let mut stages = 0;
    let mut continued = false;
    for line in dockerfile.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if !continued {
            let word = trimmed.split_whitespace().next().unwrap();
            assert!(known.contains(&word), "unknown Dockerfile instruction {word}");
            if word == "FROM" {
                stages += 1;
            }
            if word == "ENTRYPOINT" || word == "CMD" {
                let args = trimmed[word.len()..].trim();
                tool_conformance::json::from_str::<Vec<String>>(args).expect("exec form is a JSON array");
            }
        }
        continued = trimmed.ends_with('\\');
    }
    assert_eq!(stages, 2, "a build stage and a minimal one");
    let release = read(".github/workflows/release.yml");
    assert_eq!(build_line(&dockerfile), build_line(&release), "the same binary, features and profile as the release");
    assert!(dockerfile.contains("--target x86_64-unknown-linux-musl"), "a static binary");
    assert!(dockerfile.contains("COPY . ."));
    let ignored = read(".dockerignore");
    for needed in ["cases", "schemas", "specs", "src", "build.rs", "Cargo.toml", "Cargo.lock"] {
        assert!(!ignored.lines().any(|l| l.trim() == needed), ".dockerignore drops {needed}");
    }
}

fn the_action_parses() {
    let action = yaml("action.yml");
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    for input in ["stdio", "http", "rules", "expected-failures", "jobs", "baseline", "version"] {
        assert!(!action["inputs"][input].is_badvalue(), "input {input}");
    }
}

/// Runs the GitLab template's script as a runner would: one shell, stopping at the first failure.
fn run_gitlab(variables: &[(&str, &str)], release: &Path) -> (i32, String, tempfile::TempDir) {
    let template = yaml("ci/gitlab.yml");
    let job = &template[".tool-conformance"];
    let script: Vec<&str> = job["script"].as_vec().expect("script").iter().map(|s| s.as_str().unwrap()).collect();
    let project = tempfile::tempdir().unwrap();
    let mut command = Command::new("bash");
    command.args(["-e", "-o", "pipefail", "-c", &script.join("\n")]).current_dir(project.path());
    command.env("CI", "true").env("GITLAB_CI", "true").env("CI_PROJECT_DIR", project.path());
    let mut vars = BTreeMap::new();
    for (k, v) in job["variables"].as_hash().expect("variables") {
        vars.insert(
            k.as_str().unwrap().to_string(),
            v.as_str().map(str::to_string).unwrap_or_else(|| format!("{v:?}")),
        );
    }
    vars.insert("TOOL_CONFORMANCE_DOWNLOAD_URL".into(), format!("file://{}", release.display()));
    for (k, v) in variables {
        assert!(vars.contains_key(*k), "the template declares no variable {k}");
        vars.insert(k.to_string(), v.to_string());
    }
    command.envs(&vars);
    let out = command.output().unwrap();
    let log = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), log, project)
}

fn release_folder() -> tempfile::TempDir {
    let target = if cfg!(target_arch = "aarch64") { "aarch64-unknown-linux-musl" } else { "x86_64-unknown-linux-musl" };
    let dir = tempfile::tempdir().unwrap();
    let stem = format!("tool-conformance-{VERSION}-{target}");
    fs::create_dir_all(dir.path().join(&stem)).unwrap();
    fs::copy(BIN, dir.path().join(&stem).join("tool-conformance")).unwrap();
    let assets = dir.path().join(format!("v{VERSION}"));
    fs::create_dir_all(&assets).unwrap();
    let tar = Command::new("tar")
        .arg("-czf")
        .arg(assets.join(format!("{stem}.tar.gz")))
        .arg("-C")
        .arg(dir.path())
        .arg(&stem)
        .status();
    assert!(tar.unwrap().success());
    let sum = Command::new("sha256sum").arg(format!("{stem}.tar.gz")).current_dir(&assets).output().unwrap();
    fs::write(assets.join(format!("{stem}.tar.gz.sha256")), sum.stdout).unwrap();
    dir
}

#[cfg(target_os = "linux")]
fn the_gitlab_template_runs_and_leaves_its_junit_report() {
    let template = yaml("ci/gitlab.yml");
    let job = &template[".tool-conformance"];
    let report = job["variables"]["TOOL_CONFORMANCE_REPORT"].as_str().unwrap();
    assert_eq!(job["artifacts"]["reports"]["junit"].as_str(), Some(format!("{report}/junit.xml").as_str()));
    assert_eq!(job["artifacts"]["when"].as_str(), Some("always"));
    assert_eq!(job["variables"]["TOOL_CONFORMANCE_VERSION"].as_str(), Some(VERSION));
    let release = release_folder();
    let baseline = root().join("reports/reference/standing.json");
    let (code, log, project) = run_gitlab(&[("TOOL_CONFORMANCE_BASELINE", baseline.to_str().unwrap())], release.path());
    assert_eq!(code, 0, "{log}");
    assert!(log.contains("from tool-conformance-"), "installed the verified release asset:\n{log}");
    assert!(project.path().join(report).join("junit.xml").is_file());
    let wrapper = root().join("tests/action/wrong_answers.py");
    let adapter = root().join("examples/adapters/python/adapter.py");
    let stdio = format!("python3 {} {}", wrapper.display(), adapter.display());
    let (code, log, project) =
        run_gitlab(&[("TOOL_CONFORMANCE_STDIO", &stdio), ("TOOL_CONFORMANCE_RULES", "PLAT-162")], release.path());
    assert_eq!(code, 1, "{log}");
    let junit = fs::read_to_string(project.path().join(report).join("junit.xml")).unwrap();
    assert!(junit.contains("<failure"), "the failing cases are in junit.xml");
}

/// The fenced blocks of a README section.
fn snippets(readme: &str, section: &str) -> Vec<String> {
    let start = readme.find(&format!("## {section}\n")).unwrap_or_else(|| panic!("README has no {section}"));
    let rest = &readme[start + 4..];
    let body = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
    body.split("```")
        .skip(1)
        .step_by(2)
        .map(|block| block.split_once('\n').map(|(_, b)| b.to_string()).unwrap_or_default())
        .collect()
}

fn the_readme_names_no_placeholder_and_its_snippets_use_what_the_tested_files_declare() {
    let readme = read("README.md");
    for placeholder in ["OWNER", "<owner>", "example.com/tool-conformance"] {
        assert!(!readme.contains(placeholder), "README names the placeholder {placeholder}");
    }
    let action = yaml("action.yml");
    let gating = snippets(&readme, "Gating CI");
    let workflow =
        gating.iter().find(|s| s.contains("uses: tool-conformance/tool-conformance@v1")).expect("a uses: snippet");
    let doc = YamlLoader::load_from_str(workflow).expect("the workflow snippet parses").remove(0);
    let steps = doc["jobs"]["conformance"]["steps"].as_vec().expect("steps");
    let step = steps.iter().find(|s| s["uses"].as_str() == Some("tool-conformance/tool-conformance@v1")).unwrap();
    for (key, _) in step["with"].as_hash().expect("with:") {
        let key = key.as_str().unwrap();
        assert!(!action["inputs"][key].is_badvalue(), "the README passes {key}, which action.yml does not declare");
    }
    let id = step["id"].as_str().expect("the step has an id");
    for line in workflow.lines().filter(|l| l.contains(&format!("steps.{id}.outputs."))) {
        let name = line
            .split(&format!("steps.{id}.outputs."))
            .nth(1)
            .unwrap()
            .split(|c: char| c.is_whitespace() || c == '}')
            .next()
            .unwrap();
        assert!(
            !action["outputs"][name].is_badvalue(),
            "the README reads output {name}, which action.yml does not declare"
        );
    }
    let template = yaml("ci/gitlab.yml");
    let gitlab = gating.iter().find(|s| s.contains("extends: .tool-conformance")).expect("a GitLab snippet");
    let doc = YamlLoader::load_from_str(gitlab).expect("the GitLab snippet parses").remove(0);
    let remote = doc["include"][0]["remote"].as_str().expect("include: remote");
    assert_eq!(
        remote,
        format!("https://raw.githubusercontent.com/tool-conformance/tool-conformance/v{VERSION}/ci/gitlab.yml")
    );
    for (key, _) in doc["conformance"]["variables"].as_hash().expect("variables") {
        let key = key.as_str().unwrap();
        assert!(
            !template[".tool-conformance"]["variables"][key].is_badvalue(),
            "the README sets {key}, which ci/gitlab.yml does not declare"
        );
    }
    let install = snippets(&readme, "Install").join("\n");
    for way in [
        "cargo binstall tool-conformance",
        "cargo install --locked tool-conformance",
        "docker run --rm ghcr.io/tool-conformance/tool-conformance",
    ] {
        assert!(install.contains(way), "README's Install shows {way}");
    }
}

tests![
    the_manifest_names_the_canonical_repository_and_its_licenses,
    the_release_assets_are_the_ones_binstall_points_at,
    the_dockerfile_parses_and_builds_what_the_release_builds_with_the_corpus_inside,
    the_action_parses,
    #[cfg(target_os = "linux")] the_gitlab_template_runs_and_leaves_its_junit_report,
    the_readme_names_no_placeholder_and_its_snippets_use_what_the_tested_files_declare,
];
