//! The suite's JSON features stay its own: a crate that depends on tool-conformance and on
//! serde_json (tests/fixtures/downstream) gets serde_json with neither `arbitrary_precision` nor
//! `preserve_order`, and its own test shows serde_json's default number handling and map order
//! there. The one feature beyond the defaults, `float_roundtrip`, is jsonschema's own: every crate
//! that uses jsonschema has it, and it changes no type and no order, only how closely a float's
//! text is parsed.

use std::path::Path;
use std::process::Command;

fn cargo() -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    command
        .current_dir(manifest.join("tests/fixtures/downstream"))
        .env("CARGO_TARGET_DIR", manifest.join("target/downstream"))
        .env_remove("RUSTFLAGS");
    command
}

#[test]
fn serde_json_has_only_its_defaults_in_a_dependent_crate() {
    let tree = cargo()
        .args(["tree", "--locked", "-e", "features", "-i", "serde_json@1", "--prefix", "none", "--no-dedupe"])
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

    let test = cargo().args(["test", "--locked", "--quiet"]).output().expect("cargo runs");
    assert!(
        test.status.success(),
        "the downstream crate's test failed:\n{}\n{}",
        String::from_utf8_lossy(&test.stdout),
        String::from_utf8_lossy(&test.stderr)
    );
    assert!(String::from_utf8_lossy(&test.stdout).contains("2 passed"), "{}", String::from_utf8_lossy(&test.stdout));
}
