//! The library's parts use each other in one direction only, as docs/architecture.md draws it:
//! every `crate::<part>` path in a part's code (comments and tests aside) names a part below it.
//! A new part, or a new use against the direction, fails here until the picture says so.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each part of `src/`, and the parts it may use.
const ALLOWED: &[(&str, &[&str])] = &[
    ("json", &[]),
    ("exit", &[]),
    ("case", &["json"]),
    ("corpus", &["case", "json"]),
    ("peer", &["case", "json"]),
    ("judge", &["peer", "case", "json"]),
    ("reference", &["peer", "case", "json"]),
    ("run", &["judge", "corpus", "peer", "reference", "case", "json"]),
    ("standing", &["judge", "run", "corpus", "peer", "case", "json"]),
    ("report", &["judge", "standing", "run", "corpus", "peer", "case", "json"]),
    ("serve", &["peer", "reference", "case", "json"]),
    ("trials", &["judge", "report", "run", "corpus", "peer", "case", "json"]),
    ("fuzz", &["judge", "run", "corpus", "peer", "reference", "case", "json"]),
];

/// The part a file of `src/` belongs to: its folder, or its name for a file at the top.
fn part(relative: &Path) -> String {
    let first = relative.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
    first.trim_end_matches(".rs").to_string()
}

/// The code of a file without its comments and its `#[cfg(test)]` module.
fn code(text: &str) -> String {
    let body = text.split("#[cfg(test)]").next().unwrap_or_default();
    body.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

#[test]
fn parts_use_only_the_parts_below_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let allowed: BTreeMap<&str, BTreeSet<&str>> =
        ALLOWED.iter().map(|(part, uses)| (*part, uses.iter().copied().collect())).collect();
    let mut against = Vec::new();
    let mut seen = BTreeSet::new();
    for entry in walkdir::WalkDir::new(&root).into_iter().filter_map(Result::ok) {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let relative = path.strip_prefix(&root).unwrap();
        let here = part(relative);
        if matches!(here.as_str(), "lib" | "main" | "cli") {
            continue; // the crate's root re-exports; the binary may use anything public
        }
        seen.insert(here.clone());
        let Some(may) = allowed.get(here.as_str()) else {
            against.push(format!("{}: part {here} is not in the picture", relative.display()));
            continue;
        };
        let text = code(&std::fs::read_to_string(path).unwrap());
        for (index, _) in text.match_indices("crate::") {
            let rest = &text[index + "crate::".len()..];
            let used: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if used != here && allowed.contains_key(used.as_str()) && !may.contains(used.as_str()) {
                against.push(format!("{}: {here} uses {used}", relative.display()));
            }
        }
    }
    against.sort();
    against.dedup();
    assert!(against.is_empty(), "uses against the direction of docs/architecture.md:\n{}", against.join("\n"));
    for (part, _) in ALLOWED {
        assert!(seen.contains(*part), "the picture names {part}, which src/ does not have");
    }
}

#[test]
fn the_picture_in_the_docs_lists_every_part() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
        .expect("docs/architecture.md");
    for (part, uses) in ALLOWED {
        let row = format!("| `{part}` |");
        let line = doc.lines().find(|l| l.starts_with(&row)).unwrap_or_else(|| panic!("no row for {part}"));
        for used in *uses {
            assert!(line.contains(&format!("`{used}`")), "the row of {part} does not name {used}: {line}");
        }
    }
}
