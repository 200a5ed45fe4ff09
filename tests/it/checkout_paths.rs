//! The scripts of the tests take every build path from cargo, so they run with `CARGO_TARGET_DIR`
//! set (a shared or cached target directory) as they run without it. `run-frameworks.sh --paths`
//! says where it would find the harness and how it would start each adapter, without building or
//! running anything; with `CARGO_TARGET_DIR` pointing elsewhere, every build path must be there.
//!
//! Why this and not a second run of tests/run.sh under another target directory: that run is a
//! cold build of everything and the longest step of CI, while this takes a second and fails on the
//! very mistake that made every row exit 127 (a `./target/debug` written into a script or an
//! `adapter.conf`). tests/run.sh itself asks cargo (`cargo metadata`) for its target directory.

use std::path::Path;
use std::process::Command;

fn run_frameworks_takes_the_harness_and_each_built_adapter_from_cargos_target_directory() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
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

tests![run_frameworks_takes_the_harness_and_each_built_adapter_from_cargos_target_directory];
