//! Keeps every test of this binary running: a test function outside its module's `tests![...]`
//! list, or under a `#[test]` attribute (compiled out of a `harness = false` binary), would
//! otherwise never run and never say so.

use crate::util::root;
use std::collections::BTreeSet;

/// The files of this binary that are not modules of test functions.
const INFRASTRUCTURE: [&str; 5] = ["main", "util", "registration", "conformance", "gauntlet"];

fn every_test_is_registered() {
    let dir = root().join("tests/it");
    let mut problems = Vec::new();
    let mut files = BTreeSet::new();
    for entry in walkdir::WalkDir::new(&dir) {
        let entry = entry.expect("walk tests/it");
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let relative = path.strip_prefix(&dir).expect("under tests/it").display().to_string();
        let text = std::fs::read_to_string(path).expect("read a test file");
        if text.lines().any(|line| line.trim() == concat!("#[", "test]")) {
            problems.push(format!("{relative}: a #[test] function, which this binary never runs"));
        }
        let stem = relative.trim_end_matches(".rs");
        if relative.contains('/') || INFRASTRUCTURE.contains(&stem) {
            continue;
        }
        files.insert(stem.to_string());
        let Some(list) = text.rfind("\ntests![") else {
            problems.push(format!("{relative}: no tests![...] list"));
            continue;
        };
        let registered: BTreeSet<&str> =
            text[list..].split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|word| !word.is_empty()).collect();
        for line in text[..list].lines() {
            let Some(rest) = line.strip_prefix("fn ") else { continue };
            let Some((name, signature)) = rest.split_once('(') else { continue };
            let used = text[..list].matches(name).count() > 1;
            if signature.starts_with(") {") && !used && !registered.contains(name) {
                problems.push(format!("{relative}: fn {name} is in no tests![...] list"));
            }
        }
    }
    let declared: BTreeSet<String> = crate::MODULES.iter().map(|name| name.to_string()).collect();
    for file in files.difference(&declared) {
        problems.push(format!("tests/it/{file}.rs is in no modules! line of tests/it/main.rs"));
    }
    assert!(problems.is_empty(), "tests that would not run:\n{}", problems.join("\n"));
}

tests![every_test_is_registered];
