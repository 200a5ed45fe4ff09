//! The suite's JSON features stay its own: a crate that depends on tool-conformance and on
//! serde_json (tests/fixtures/downstream) gets serde_json with neither `arbitrary_precision` nor
//! `preserve_order`, and its own test shows serde_json's default number handling and map order
//! there. The one feature beyond the defaults, `float_roundtrip`, is jsonschema's own: every crate
//! that uses jsonschema has it, and it changes no type and no order, only how closely a float's
//! text is parsed.

use std::path::Path;
use std::process::Command;

/// The downstream crate, copied into `dir` with this package's Cargo.lock (so that it resolves to
/// the versions the suite is tested with), its path dependency pointing here.
fn downstream(dir: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = root.join("tests/fixtures/downstream");
    for file in ["Cargo.toml", "src/lib.rs", "tests/defaults.rs"] {
        let text = std::fs::read_to_string(fixture.join(file)).expect("the fixture crate");
        let text = text.replace("path = \"../../..\"", &format!("path = {:?}", root.display().to_string()));
        std::fs::create_dir_all(dir.join(file).parent().unwrap()).unwrap();
        std::fs::write(dir.join(file), text).unwrap();
    }
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("this package's Cargo.lock");
}

fn cargo(dir: &Path) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    // Built within this build's own target directory (CARGO_TARGET_DIR when set), never the
    // checkout's target/ by name.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("downstream");
    command.current_dir(dir).env("CARGO_TARGET_DIR", target).env_remove("RUSTFLAGS");
    command
}

fn serde_json_has_only_its_defaults_in_a_dependent_crate() {
    let dir = tempfile::tempdir().unwrap();
    downstream(dir.path());
    let tree = cargo(dir.path())
        .args(["tree", "-e", "features", "-i", "serde_json@1", "--prefix", "none", "--no-dedupe"])
        .output()
        .expect("cargo runs");
    assert!(tree.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&tree.stderr));
    let text = String::from_utf8_lossy(&tree.stdout);
    let mut features: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("serde_json feature \""))
        .filter_map(|rest| rest.split('"').next())
        .collect();
    features.sort();
    features.dedup();
    assert_eq!(features, ["default", "float_roundtrip", "std"], "{text}");

    let test = cargo(dir.path()).args(["test", "--quiet"]).output().expect("cargo runs");
    assert!(
        test.status.success(),
        "the downstream crate's test failed:\n{}\n{}",
        String::from_utf8_lossy(&test.stdout),
        String::from_utf8_lossy(&test.stderr)
    );
    assert!(String::from_utf8_lossy(&test.stdout).contains("2 passed"), "{}", String::from_utf8_lossy(&test.stdout));
}

/// The fork's own `from_str` accepts comments and trailing commas, so every parse of JSON text in
/// the suite goes through `tool_conformance::json::{from_str, from_slice}`, which are strict.
fn json_text_is_parsed_only_by_the_strict_functions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut offenders = Vec::new();
    for dir in ["src", "tests", "benches", "build.rs"] {
        for entry in walkdir::WalkDir::new(root.join(dir)).into_iter().filter_map(Result::ok) {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "rs") || path.ends_with("src/json/mod.rs") {
                continue;
            }
            if path.components().any(|c| c.as_os_str() == "downstream") || path.ends_with("tests/it/feature_leakage.rs") {
                continue;
            }
            let text = std::fs::read_to_string(path).expect("a source file");
            for needle in
                ["serde_json::from_str", "serde_json::from_slice", "serde_json::from_reader", "Deserializer::from"]
            {
                if text.contains(needle) {
                    offenders.push(format!("{}: {needle}", path.display()));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "JSON parsed outside tool_conformance::json:\n{}", offenders.join("\n"));
}

tests![
    serde_json_has_only_its_defaults_in_a_dependent_crate,
    json_text_is_parsed_only_by_the_strict_functions,
];
