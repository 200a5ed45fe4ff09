//! What this machine can check of the packaging: the release workflow, the action and the GitLab
//! template parse; the release assets are the names `[package.metadata.binstall]` points at; the
//! Dockerfile builds the same binary target, with the same features, as the release workflow, and
//! its context holds the corpus; the GitLab template's scripts run in bash against the reference
//! and fail on a wrong answer, leaving junit.xml where its artifacts say; the README and docs/
//! show no placeholder and their CI snippets use only what the tested files declare.

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

/// README.md and every docs/*.md, each with its path.
fn pages() -> Vec<(String, String)> {
    let mut names: Vec<String> = fs::read_dir(root().join("docs"))
        .expect("docs/")
        .filter_map(Result::ok)
        .map(|entry| format!("docs/{}", entry.file_name().to_string_lossy()))
        .filter(|name| name.ends_with(".md"))
        .collect();
    names.sort();
    names.insert(0, "README.md".into());
    names.into_iter().map(|name| (name.clone(), read(&name))).collect()
}

/// The fenced blocks of a section of a page.
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

fn the_docs_name_no_placeholder_and_their_snippets_use_what_the_tested_files_declare() {
    for (page, text) in pages() {
        for placeholder in ["OWNER", "<owner>", "example.com/tool-conformance"] {
            assert!(!text.contains(placeholder), "{page} names the placeholder {placeholder}");
        }
    }
    let action = yaml("action.yml");
    let gating = snippets(&read("docs/ci.md"), "Gating CI");
    let workflow =
        gating.iter().find(|s| s.contains("uses: tool-conformance/tool-conformance@v0.1")).expect("a uses: snippet");
    let doc = YamlLoader::load_from_str(workflow).expect("the workflow snippet parses").remove(0);
    let steps = doc["jobs"]["conformance"]["steps"].as_vec().expect("steps");
    let step = steps.iter().find(|s| s["uses"].as_str() == Some("tool-conformance/tool-conformance@v0.1")).unwrap();
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
    for page in ["README.md", "docs/install.md"] {
        let install = snippets(&read(page), "Install").join("\n");
        for way in [
            "cargo binstall tool-conformance",
            "cargo install --locked tool-conformance",
            "docker run --rm ghcr.io/tool-conformance/tool-conformance",
            "pip install tool-conformance",
            "npm install tool-conformance",
        ] {
            assert!(install.contains(way), "{page}'s Install shows {way}");
        }
    }
}

/// Every workflow file, parsed: `.github/workflows/*.yml`.
fn workflows() -> Vec<(String, Yaml)> {
    let mut files: Vec<String> = fs::read_dir(root().join(".github/workflows"))
        .expect("the workflows folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".yml") || name.ends_with(".yaml"))
        .collect();
    files.sort();
    files.into_iter().map(|name| (name.clone(), yaml(&format!(".github/workflows/{name}")))).collect()
}

fn every_job_a_workflow_needs_exists_and_every_runner_label_is_a_hosted_one() {
    // GitHub's hosted runner labels, as actions/runner-images lists them (the release workflow
    // says so too); macos-13 is retired.
    const LABELS: [&str; 8] = [
        "ubuntu-latest",
        "ubuntu-24.04",
        "ubuntu-24.04-arm",
        "macos-latest",
        "macos-15",
        "macos-15-intel",
        "windows-latest",
        "windows-2025",
    ];
    let workflows = workflows();
    assert!(!workflows.is_empty());
    for (name, workflow) in &workflows {
        let jobs = workflow["jobs"].as_hash().unwrap_or_else(|| panic!("{name}: no jobs"));
        for (id, job) in jobs {
            let id = id.as_str().expect("a job id");
            let needs = match &job["needs"] {
                Yaml::String(one) => vec![one.clone()],
                Yaml::Array(many) => many.iter().map(|n| n.as_str().expect("a job id").to_string()).collect(),
                Yaml::BadValue => Vec::new(),
                other => panic!("{name}: {id}: needs is {other:?}"),
            };
            for need in needs {
                assert!(jobs.contains_key(&Yaml::String(need.clone())), "{name}: {id} needs {need}, no such job");
            }
            let runs_on = job["runs-on"].as_str().unwrap_or_else(|| panic!("{name}: {id}: no runs-on"));
            let labels: Vec<String> = if runs_on == "${{ matrix.os }}" {
                let include = job["strategy"]["matrix"]["include"].as_vec().expect("a matrix of runners");
                include.iter().map(|m| m["os"].as_str().expect("os").to_string()).collect()
            } else {
                vec![runs_on.to_string()]
            };
            for label in labels {
                assert!(LABELS.contains(&label.as_str()), "{name}: {id} runs on {label}, not a hosted runner label");
            }
        }
    }
}

/// Runs the release workflow's `major-tag` script for a pushed tag, with a `git` that records
/// what it is asked: the tags it would make and push.
fn series_tag(pushed: &str) -> Vec<String> {
    let release = yaml(".github/workflows/release.yml");
    let steps = release["jobs"]["major-tag"]["steps"].as_vec().expect("the major-tag job");
    let script = steps.iter().find_map(|s| s["run"].as_str()).expect("a run step");
    let fake = tempfile::tempdir().unwrap();
    let log = fake.path().join("git.log");
    let git = fake.path().join("git");
    fs::write(&git, format!("#!/bin/sh\necho \"$@\" >>{}\n", log.display())).unwrap();
    Command::new("chmod").arg("+x").arg(&git).status().unwrap();
    let path = format!("{}:{}", fake.path().display(), std::env::var("PATH").unwrap_or_default());
    let ran = Command::new("bash")
        .args(["-c", script])
        .env("PATH", path)
        .env("GITHUB_REF_NAME", pushed)
        .env("GITHUB_SHA", "0123456789abcdef")
        .output()
        .unwrap();
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    fs::read_to_string(&log).unwrap_or_default().lines().map(str::to_string).collect()
}

fn the_release_job_moves_the_series_tag_the_readme_names_and_the_trigger_never_takes_it() {
    assert_eq!(series_tag("v1.4.2"), ["tag -f v1 0123456789abcdef", "push -f origin refs/tags/v1"]);
    assert_eq!(series_tag("v0.1.0"), ["tag -f v0.1 0123456789abcdef", "push -f origin refs/tags/v0.1"]);
    assert!(series_tag("v1.5.0-rc.1").is_empty(), "a prerelease moves no tag");
    let made = [format!("v{VERSION}"), series_tag(&format!("v{VERSION}"))[0].split(' ').nth(2).unwrap().to_string()];
    // The trigger: GitHub's filter pattern, where `[0-9]+` is one or more digits and `*` anything.
    let release = yaml(".github/workflows/release.yml");
    let patterns = release["on"]["push"]["tags"].as_vec().expect("tag patterns");
    let pattern = patterns[0].as_str().unwrap();
    assert_eq!(pattern, "v[0-9]+.[0-9]+.[0-9]+*");
    let triggers = |tag: &str| {
        let mut rest = tag.strip_prefix('v').unwrap_or("x");
        for part in 0..3 {
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits == 0 {
                return false;
            }
            rest = &rest[digits..];
            if part < 2 {
                match rest.strip_prefix('.') {
                    Some(r) => rest = r,
                    None => return false,
                }
            }
        }
        true
    };
    assert!(triggers(&made[0]) && triggers("v1.2.3-rc.1"));
    for series in ["v1", "v0.1", &made[1]] {
        assert!(!triggers(series), "pushing {series} would start a release");
    }
    // Every tag the README and docs/ name (`uses: …@TAG`, the GitLab template's `/TAG/ci/`) is one
    // the workflows make.
    let readme: String = pages().into_iter().map(|(_, text)| text).collect();
    let mut named = Vec::new();
    for (marker, end) in [("tool-conformance/tool-conformance@", '\n'), ("tool-conformance/tool-conformance/", '/')] {
        for (at, _) in readme.match_indices(marker) {
            let tag: String =
                readme[at + marker.len()..].chars().take_while(|c| *c != end && !c.is_whitespace()).collect();
            if tag.starts_with('v') {
                named.push(tag);
            }
        }
    }
    assert!(named.len() >= 2, "the README names the action's and the template's tags: {named:?}");
    for tag in named {
        assert!(made.contains(&tag), "the README names {tag}, which no workflow makes (they make {made:?})");
    }
}

/// The targets a script maps the runner's platform to (`… ) target=TRIPLE ;;` lines).
fn mapped_targets(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.split_once(") target=").map(|(_, t)| t.trim_end_matches(" ;;").trim().to_string()))
        .filter(|t| !t.is_empty() && t != "\"\"")
        .collect()
}

fn the_action_and_the_gitlab_template_download_the_assets_binstall_names() {
    let action = read("action.yml");
    let gitlab = read("ci/gitlab.yml");
    for (file, text, template) in [
        ("action.yml", &action, r#"asset="$name-$INPUT_VERSION-$target$ext""#),
        ("ci/gitlab.yml", &gitlab, r#"stem="tool-conformance-$TOOL_CONFORMANCE_VERSION-$target""#),
    ] {
        assert!(text.contains(template), "{file} names its asset as {template}");
        let targets = mapped_targets(text);
        assert!(!targets.is_empty(), "{file} maps no platform to a target");
        for target in targets {
            assert!(TARGETS.contains(&target.as_str()), "{file} downloads {target}, which the release does not build");
            let ext = if target.contains("windows") { ".zip" } else { ".tar.gz" };
            let asset = format!("tool-conformance-{VERSION}-{target}{ext}");
            let url = format!("{REPOSITORY}/releases/download/v{VERSION}/{asset}");
            assert_eq!(binstall_url(&target), url, "{file}: {target}");
        }
    }
    assert!(action.contains(r#"url="$INPUT_DOWNLOAD_URL/v$INPUT_VERSION/$asset""#));
    assert!(gitlab.contains(r#"url="$TOOL_CONFORMANCE_DOWNLOAD_URL/v$TOOL_CONFORMANCE_VERSION/$stem.tar.gz""#));
}

/// The index of the first step of a release job whose `run` or `uses` contains `needle`.
fn step_at(job: &str, needle: &str) -> usize {
    let release = yaml(".github/workflows/release.yml");
    let steps = release["jobs"][job]["steps"].as_vec().unwrap_or_else(|| panic!("the {job} job"));
    steps
        .iter()
        .position(|s| [&s["run"], &s["uses"]].iter().any(|v| v.as_str().is_some_and(|t| t.contains(needle))))
        .unwrap_or_else(|| panic!("the {job} job has no step with {needle}"))
}

fn the_release_publishes_only_under_names_the_project_holds() {
    // Who may hold the names: a committed, non-empty list per registry.
    let owners: BTreeMap<String, Vec<String>> =
        tool_conformance::json::from_str(&read("packaging/owners.json")).expect("packaging/owners.json");
    for registry in ["npm", "pypi"] {
        assert!(owners.get(registry).is_some_and(|o| !o.is_empty() && o.iter().all(|n| !n.is_empty())), "{registry}");
    }
    // Each publish comes after the check of every name it publishes, on the files it publishes.
    assert!(step_at("npm", "packaging/owners.py npm npm/*.tgz") > step_at("npm", "packaging/npm/pack.sh"));
    assert!(step_at("npm", "packaging/owners.py npm npm/*.tgz") < step_at("npm", "npm publish"));
    assert!(step_at("pypi", "actions/checkout") < step_at("pypi", "packaging/owners.py pypi wheels/*.whl"));
    assert!(step_at("pypi", "actions/download-artifact") < step_at("pypi", "packaging/owners.py pypi wheels/*.whl"));
    assert!(step_at("pypi", "packaging/owners.py pypi wheels/*.whl") < step_at("pypi", "pypa/gh-action-pypi-publish"));
    // The platform packages are unscoped, named alike where they are made, listed and resolved,
    // and listed at exactly the main package's version.
    let pack = read("packaging/npm/pack.sh");
    assert!(pack.contains("[`tool-conformance-${p}`, version]"), "pack.sh lists tool-conformance-<platform> at VERSION");
    assert!(pack.contains("not an exact version"), "pack.sh refuses a version range");
    assert!(read("packaging/npm/platform/package.json").contains(r#""name": "tool-conformance-PLATFORM""#));
    assert!(read("packaging/npm/tool-conformance/binary.js").contains("`tool-conformance-${platform}-${arch}`"));
    let readme = read("docs/install.md");
    let install = &readme[readme.find("## Install\n").expect("an Install section")..];
    let install = &install[..install[4..].find("\n## ").map_or(install.len(), |at| at + 4)];
    for said in ["tool-conformance-linux-x64", "packaging/owners.py", "packaging/owners.json"] {
        assert!(install.contains(said), "docs/install.md's Install says {said}");
    }
    for file in ["packaging/npm/pack.sh", "packaging/npm/tool-conformance/binary.js", ".github/workflows/release.yml"] {
        assert!(!read(file).contains("@tool-conformance/"), "{file} names a scoped package the project does not hold");
    }
}

tests![
    the_manifest_names_the_canonical_repository_and_its_licenses,
    the_release_assets_are_the_ones_binstall_points_at,
    the_dockerfile_parses_and_builds_what_the_release_builds_with_the_corpus_inside,
    the_action_parses,
    #[cfg(target_os = "linux")] the_gitlab_template_runs_and_leaves_its_junit_report,
    the_docs_name_no_placeholder_and_their_snippets_use_what_the_tested_files_declare,
    every_job_a_workflow_needs_exists_and_every_runner_label_is_a_hosted_one,
    the_release_job_moves_the_series_tag_the_readme_names_and_the_trigger_never_takes_it,
    the_action_and_the_gitlab_template_download_the_assets_binstall_names,
    the_release_publishes_only_under_names_the_project_holds,
];
