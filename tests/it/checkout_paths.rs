//! The scripts of the tests take every build path from cargo, so they run with `CARGO_TARGET_DIR`
//! set (a shared or cached target directory) as they run without it. `run-frameworks.sh --paths`
//! says where it would find the harness and how it would start each adapter, without building or
//! running anything; with `CARGO_TARGET_DIR` pointing elsewhere, every build path must be there.
//! No script, adapter file or row README of the tests names a cargo build path in the checkout
//! literally; a harness that is not built is named as such before any row runs; and `.ci/run`
//! builds in a target folder outside the checkout (a stand-in checkout, with cargo and
//! tests/run.sh replaced by scripts that record what they are given, shows it), failing when a
//! `target/` appears in the checkout all the same.
//!
//! Why this and not a second run of tests/run.sh under another target directory: that run is a
//! cold build of everything and the longest step of CI, while this takes a second and fails on the
//! very mistake that made every row exit 127 (a build path of the checkout written into a script
//! or an `adapter.conf`). tests/run.sh itself asks cargo (`cargo metadata`) for its target
//! directory, and `.ci/run` runs it with `CARGO_TARGET_DIR` outside the checkout.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{root, text};

fn run_frameworks_takes_the_harness_and_each_built_adapter_from_cargos_target_directory() {
    let root = root();
    let dir = tempfile::tempdir().expect("tempdir");
    let elsewhere = dir.path().join("elsewhere");
    let output = Command::new("bash")
        .arg(root.join("examples/adapters/run-frameworks.sh"))
        .args(["--paths", "rmcp", "rmcp-raw", "python"])
        .env("CARGO_TARGET_DIR", &elsewhere)
        .env_remove("TOOL_CONFORMANCE")
        .output()
        .expect("run run-frameworks.sh");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{said}{}", String::from_utf8_lossy(&output.stderr));
    let at = elsewhere.to_string_lossy();
    for (line, program) in [
        ("harness: ", "debug/tool-conformance"),
        ("rmcp: ", "debug/rmcp-adapter --typed"),
        ("rmcp-raw: ", "debug/rmcp-adapter --raw"),
    ] {
        let expected = format!("{line}{at}/{program}");
        assert!(said.lines().any(|l| l == expected), "no line {expected:?} in:\n{said}");
    }
    assert!(said.lines().any(|l| l == "python: python3 examples/adapters/python/adapter.py"), "{said}");
    assert!(!elsewhere.exists(), "--paths built something");
}

/// Where a line names a cargo build folder of the checkout literally: `target/debug` or
/// `target/release` not written from a variable (`$target/debug`, `{target}/debug`), or `./target`.
fn literal_build_path(line: &str) -> Option<&str> {
    for word in ["target/debug", "target/release"] {
        for (at, _) in line.match_indices(word) {
            let before = line[..at].chars().last();
            if !matches!(before, Some(c) if c == '$' || c == '{' || c == '_' || c == '-' || c.is_alphanumeric()) {
                return Some(word);
            }
        }
    }
    for (at, _) in line.match_indices("./target") {
        let after = line[at + "./target".len()..].chars().next();
        if !matches!(after, Some(c) if c == '_' || c == '-' || c.is_alphanumeric()) {
            return Some("./target");
        }
    }
    None
}

fn no_script_or_row_names_a_build_path_in_the_checkout() {
    let root = root();
    for (line, named) in [
        ("'examples/adapters/rmcp/target/debug/rmcp-adapter --raw'", true),
        ("command=./target/debug/tool-conformance", true),
        ("\"$PWD/target/release/x\"", true),
        ("--target-dir ./target", true),
        ("command='{target}/debug/rmcp-adapter --raw'", false),
        ("\"$target/debug/tool-conformance\" run", false),
        ("-cp 'target/classes:target/lib/*'", false),
        ("/src/target/x86_64-unknown-linux-musl/release/tool-conformance", false),
    ] {
        assert_eq!(literal_build_path(line).is_some(), named, "{line}");
    }
    // The adapters' own environments and build outputs are not the project's files.
    let skipped = [".venv", "node_modules", ".build", "target", "__pycache__", ".git"];
    let mut found = Vec::new();
    let mut read = 0;
    for top in ["tests", "examples/adapters", ".ci", "packaging", "src"] {
        let walk = walkdir::WalkDir::new(root.join(top))
            .into_iter()
            .filter_entry(|e| !(e.file_type().is_dir() && skipped.contains(&e.file_name().to_string_lossy().as_ref())));
        for entry in walk {
            let entry = entry.expect("walk");
            // This file names the mistake it looks for.
            if !entry.file_type().is_file() || entry.path().ends_with("tests/it/checkout_paths.rs") {
                continue;
            }
            let Ok(content) = std::fs::read_to_string(entry.path()) else { continue };
            read += 1;
            for (n, line) in content.lines().enumerate() {
                if let Some(word) = literal_build_path(line) {
                    let file = entry.path().strip_prefix(&root).unwrap_or(entry.path()).display();
                    found.push(format!("{file}:{}: {word}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(read > 50, "only {read} files read: the walk is looking in the wrong place");
    assert!(
        found.is_empty(),
        "these name a build folder of the checkout, which is not there when CARGO_TARGET_DIR is set \
         (take it from cargo metadata's target_directory, or {{target}} in an adapter.conf):\n{}",
        found.join("\n")
    );
}

fn run_frameworks_names_a_harness_that_is_not_built_before_any_row() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("debug/tool-conformance");
    let output = Command::new("bash")
        .arg(root().join("examples/adapters/run-frameworks.sh"))
        .args(["--check", "python"])
        .env("TOOL_CONFORMANCE", &missing)
        .output()
        .expect("run run-frameworks.sh");
    let said = text(&output);
    assert_eq!(output.status.code(), Some(2), "{said}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("{} not found", missing.display())), "{said}");
    assert!(!said.contains("== python") && !said.contains("FAILED python"), "a row ran: {said}");
}

/// A stand-in checkout holding the real `.ci/run`, a tests/run.sh that records the target folder
/// it is given (and makes a `target/` in the checkout when `MAKE_TARGET` is set), and a cargo
/// that records each command and its target folder, all committed to a git repository.
fn stand_in_checkout(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let checkout = dir.join("checkout");
    let bin = dir.join("bin");
    let log = dir.join("log");
    for folder in [checkout.join(".ci"), checkout.join("tests"), bin.clone(), dir.join("tmp")] {
        std::fs::create_dir_all(folder).expect("mkdir");
    }
    std::fs::copy(root().join(".ci/run"), checkout.join(".ci/run")).expect("copy .ci/run");
    std::fs::copy(root().join(".gitignore"), checkout.join(".gitignore")).expect("copy .gitignore");
    std::fs::write(
        checkout.join("tests/run.sh"),
        "echo \"tests/run.sh: $CARGO_TARGET_DIR\" >>\"$LOG\"\n[ -z \"${MAKE_TARGET:-}\" ] || mkdir -p target/debug\n",
    )
    .expect("write tests/run.sh");
    std::fs::write(bin.join("cargo"), "#!/bin/sh\necho \"cargo $1: $CARGO_TARGET_DIR\" >>\"$LOG\"\n").expect("write cargo");
    let status = Command::new("chmod").arg("+x").arg(bin.join("cargo")).status().expect("chmod");
    assert!(status.success());
    for args in [
        &["init", "-q"][..],
        &["add", "-A"],
        &["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "commit", "-qm", "stand-in"],
    ] {
        let output = Command::new("git").args(args).current_dir(&checkout).output().expect("git");
        assert!(output.status.success(), "git {args:?}: {}", text(&output));
    }
    (checkout, bin, log)
}

fn ci_runs_the_suite_with_a_target_folder_outside_the_checkout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (checkout, bin, log) = stand_in_checkout(dir.path());
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let ci = |make_target: bool, target: Option<&Path>| {
        let _ = std::fs::remove_file(&log);
        let mut command = Command::new("bash");
        command
            .arg(checkout.join(".ci/run"))
            .env("PATH", &path)
            .env("LOG", &log)
            .env("TMPDIR", dir.path().join("tmp"))
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("MAKE_TARGET");
        if make_target {
            command.env("MAKE_TARGET", "1");
        }
        if let Some(target) = target {
            command.env("CARGO_TARGET_DIR", target);
        }
        let output = command.output().expect("run .ci/run");
        (output, std::fs::read_to_string(&log).unwrap_or_default())
    };

    // Unset: a folder of its own in the temporary folder, the same for the lints and the tests.
    let (output, said) = ci(false, None);
    assert!(output.status.success(), "{}{said}", text(&output));
    let own = dir.path().join("tmp/tool-conformance-ci-target");
    let expected: Vec<String> = ["cargo fmt", "cargo clippy", "tests/run.sh"]
        .iter()
        .map(|step| format!("{step}: {}", own.display()))
        .collect();
    assert_eq!(said.lines().collect::<Vec<_>>(), expected, "{}", text(&output));
    assert!(!checkout.join("target").exists(), "a target/ in the checkout");

    // Given, outside the checkout: that one.
    let shared = dir.path().join("shared");
    let (output, said) = ci(false, Some(&shared));
    assert!(output.status.success(), "{}{said}", text(&output));
    assert!(said.lines().all(|l| l.ends_with(&format!(": {}", shared.display()))), "{said}");

    // A target/ that the tests make in the checkout all the same fails the run.
    let (output, _) = ci(true, None);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(String::from_utf8_lossy(&output.stderr).contains("!! target/"), "{}", text(&output));

    // Given, inside the checkout: refused before anything runs.
    std::fs::remove_dir_all(checkout.join("target")).expect("rm target");
    let (output, said) = ci(false, Some(&checkout.join("build")));
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(said.is_empty(), "something ran: {said}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("is inside it"), "{}", text(&output));
}

tests![
    run_frameworks_takes_the_harness_and_each_built_adapter_from_cargos_target_directory,
    no_script_or_row_names_a_build_path_in_the_checkout,
    run_frameworks_names_a_harness_that_is_not_built_before_any_row,
    ci_runs_the_suite_with_a_target_folder_outside_the_checkout,
];
