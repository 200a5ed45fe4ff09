//! The library's parts use each other in one direction only, as docs/architecture.md draws it:
//! every `crate::<part>` path in a part's code (comments and tests aside) names a part below it,
//! and none reaches up to what the crate root re-exports.
//! A new part, or a new use against the direction, fails here until the picture says so; so does
//! an arrow the picture allows that no code draws (the picture is exactly the uses there are).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each part of `src/`, and the parts it may use.
const ALLOWED: &[(&str, &[&str])] = &[
    ("json", &[]),
    ("exit", &[]),
    ("suite", &[]),
    ("case", &[]),
    ("mcp", &["case", "json"]),
    ("peer", &["mcp", "case", "json"]),
    ("judge", &["peer", "case", "json"]),
    ("corpus", &["judge", "case", "json"]),
    ("reference", &["suite", "peer", "case", "json"]),
    ("run", &["judge", "corpus", "peer", "reference", "mcp", "case"]),
    ("standing", &["judge", "corpus", "peer", "case", "json"]),
    ("report", &["suite", "fuzz", "judge", "standing", "run", "corpus", "peer", "case", "json"]),
    ("serve", &["suite", "mcp", "peer", "case"]),
    ("trials", &["judge", "report", "run", "corpus", "peer", "case"]),
    ("fuzz", &["judge", "run", "peer", "reference", "case", "json"]),
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

fn parts_use_only_the_parts_below_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let allowed: BTreeMap<&str, BTreeSet<&str>> =
        ALLOWED.iter().map(|(part, uses)| (*part, uses.iter().copied().collect())).collect();
    let mut against = Vec::new();
    let mut seen = BTreeSet::new();
    // Each part, and the parts its code does use.
    let mut present: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
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
        let uses = present.entry(here.clone()).or_default();
        for used in used_parts(&text) {
            if used != here && allowed.contains_key(used.as_str()) {
                uses.insert(used.clone());
            }
            if used != here && allowed.contains_key(used.as_str()) && !may.contains(used.as_str()) {
                against.push(format!("{}: {here} uses {used}", relative.display()));
            }
            // The crate root is the crate's face, not a ground to reach up to.
            if used.starts_with(|c: char| c.is_ascii_uppercase()) {
                against.push(format!("{}: {here} reaches up to the crate root for {used}", relative.display()));
            }
        }
    }
    against.sort();
    against.dedup();
    assert!(against.is_empty(), "uses against the direction of docs/architecture.md:\n{}", against.join("\n"));
    for (part, _) in ALLOWED {
        assert!(seen.contains(*part), "the picture names {part}, which src/ does not have");
    }
    // Every arrow the picture allows is one the code draws: an allowance no code uses is removed.
    let unused: Vec<String> = ALLOWED
        .iter()
        .flat_map(|(part, uses)| uses.iter().map(move |used| (*part, *used)))
        .filter(|(part, used)| !present.get(*part).is_some_and(|uses| uses.contains(*used)))
        .map(|(part, used)| format!("{part} may use {used}, and does not"))
        .collect();
    assert!(unused.is_empty(), "arrows of docs/architecture.md that src/ does not draw:\n{}", unused.join("\n"));
}

/// The first name after each `crate::` in `text`, and each name of a group `crate::{a, b::c}`.
fn used_parts(text: &str) -> Vec<String> {
    let name = |rest: &str| rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>();
    let mut used = Vec::new();
    for (index, _) in text.match_indices("crate::") {
        let rest = &text[index + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let end = group
                .char_indices()
                .find(|(_, c)| {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => return true,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    false
                })
                .map_or(group.len(), |(i, _)| i);
            let mut level = 0;
            let mut start = true;
            for (i, c) in group[..end].char_indices() {
                match c {
                    '{' => level += 1,
                    '}' => level -= 1,
                    ',' if level == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        used.push(name(&group[i..]));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            used.push(name(rest));
        }
    }
    used
}

/// The module of a part a file of `src/` belongs to (its second component, without `.rs`), or
/// `None` for the part's own root (`mod.rs`, or a part that is one file).
fn module(relative: &Path) -> Option<String> {
    let second = relative.components().nth(1)?.as_os_str().to_string_lossy().into_owned();
    (second != "mod.rs").then(|| second.trim_end_matches(".rs").to_string())
}

fn the_modules_of_a_part_use_each_other_without_a_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // part -> module -> the sibling modules it uses
    let mut edges: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for entry in walkdir::WalkDir::new(&root).into_iter().filter_map(Result::ok) {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let relative = path.strip_prefix(&root).unwrap();
        let (here, Some(from)) = (part(relative), module(relative)) else { continue };
        let text = code(&std::fs::read_to_string(path).unwrap());
        let siblings = edges.entry(here.clone()).or_default();
        let uses = siblings.entry(from.clone()).or_default();
        for prefix in [format!("crate::{here}::"), "super::".to_string()] {
            for (index, _) in text.match_indices(&prefix) {
                let rest = &text[index + prefix.len()..];
                let used: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                // `super::x` names `x` in the part's root (a sibling module, when `x` is one) from a
                // module's own file; from a file further down it names something of its own module.
                let deeper = relative.components().count() > 2 && !relative.ends_with("mod.rs");
                let sibling = (prefix != "super::" || !deeper).then_some(used);
                if let Some(used) = sibling.filter(|u| *u != from && !u.is_empty()) {
                    uses.insert(used);
                }
            }
        }
    }
    let mut cycles = Vec::new();
    for (part, modules) in &edges {
        for start in modules.keys() {
            // A path from `start` back to itself through the modules it uses.
            let mut stack = vec![(start.clone(), vec![start.clone()])];
            let mut visited = BTreeSet::new();
            while let Some((at, trail)) = stack.pop() {
                for next in modules.get(&at).into_iter().flatten() {
                    if next == start {
                        let mut cycle = trail.clone();
                        cycle.push(next.clone());
                        cycles.push(format!("{part}: {}", cycle.join(" -> ")));
                    } else if visited.insert(next.clone()) {
                        let mut longer = trail.clone();
                        longer.push(next.clone());
                        stack.push((next.clone(), longer));
                    }
                }
            }
        }
    }
    assert!(cycles.is_empty(), "modules of one part that use each other in a cycle:\n{}", cycles.join("\n"));
}

fn the_picture_in_the_docs_lists_every_part() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
        .expect("docs/architecture.md");
    for (part, uses) in ALLOWED {
        let row = format!("| `{part}` |");
        let line = doc.lines().find(|l| l.starts_with(&row)).unwrap_or_else(|| panic!("no row for {part}"));
        // The last cell names exactly the parts it may use ("nothing" for none).
        let cell = line.trim_end().trim_end_matches('|').rsplit('|').next().unwrap_or_default();
        let named: BTreeSet<&str> = cell.split('`').skip(1).step_by(2).collect();
        assert_eq!(named, uses.iter().copied().collect::<BTreeSet<&str>>(), "the row of {part}: {line}");
        if uses.is_empty() {
            assert_eq!(cell.trim(), "nothing", "the row of {part}: {line}");
        }
    }
}

tests![
    parts_use_only_the_parts_below_them,
    the_modules_of_a_part_use_each_other_without_a_cycle,
    the_picture_in_the_docs_lists_every_part,
];
