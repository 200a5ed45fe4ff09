//! `tool-conformance compare`'s text: a [`Comparison`] of two standings, regressions first, then
//! progressions, other changes, and new and gone cases, with statuses and verdicts in words.

use crate::case::Level;
use crate::json::inert::one_line;
use crate::standing::regression::{Change, Comparison};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The comparison as terminal text; with `colored`, regressions in red and progressions in
/// green.
///
/// Every string from the two files is written as [`one_line`] writes it, so that no file can
/// move the cursor, retitle the terminal or forge a line of the comparison.
pub fn render(comparison: &Comparison, colored: bool) -> String {
    let paint = |style: anstyle::Style, text: &str| {
        if colored { format!("{style}{text}{style:#}") } else { text.to_string() }
    };
    let red = anstyle::AnsiColor::Red.on_default().bold();
    let green = anstyle::AnsiColor::Green.on_default().bold();
    let mut out = String::new();
    for (what, old, new) in &comparison.header {
        let (old, new) = (one_line(old), one_line(new));
        if old == new {
            let _ = writeln!(out, "{what}: {old}");
        } else {
            let _ = writeln!(out, "{what}: {old} -> {new}");
        }
    }
    if !comparison.corpus_files_changed.is_empty() {
        let files: Vec<String> = comparison.corpus_files_changed.iter().map(|f| one_line(f)).collect();
        let _ = writeln!(out, "corpus files that differ: {}", files.join(", "));
    }
    let mut section = |title: &str, changes: &[Change], style: Option<anstyle::Style>| {
        let n = changes.len();
        let heading = format!("{n} {title}{}", if n == 1 { "" } else { "s" });
        let _ = writeln!(out, "\n{}:", style.map(|s| paint(s, &heading)).unwrap_or(heading.clone()));
        for change in changes {
            let [id, level, from, to] =
                [&change.id, &change.level, &words(&change.from), &words(&change.to)].map(|s| one_line(s));
            let _ = writeln!(out, "  {id} ({level}): {from} -> {to}");
        }
    };
    section("regression", &comparison.regressions, (!comparison.regressions.is_empty()).then_some(red));
    section("progression", &comparison.progressions, (!comparison.progressions.is_empty()).then_some(green));
    if !comparison.changes.is_empty() {
        section("other change", &comparison.changes, None);
    }
    for (title, cases) in [("new case", &comparison.new), ("gone case", &comparison.gone)] {
        if cases.is_empty() {
            continue;
        }
        let mut by_status: BTreeMap<String, usize> = BTreeMap::new();
        for case in cases.iter() {
            *by_status.entry(one_line(&words(case.status.as_str()))).or_default() += 1;
        }
        let counts: Vec<String> = by_status.iter().map(|(status, n)| format!("{n} {status}")).collect();
        let n = cases.len();
        let _ = writeln!(out, "\n{n} {title}{} ({}):", if n == 1 { "" } else { "s" }, counts.join(", "));
        for case in cases.iter() {
            let status = words(case.status.as_str());
            let shown = match &case.behaviour {
                Some(behaviour) => format!("{status} ({})", one_line(behaviour)),
                None => status,
            };
            let _ = writeln!(out, "  {} ({}): {shown}", one_line(&case.id), case.level.map_or("", Level::as_str));
        }
    }
    out
}

/// A status or verdict as `standing.json` spells it (`does_not_conform`), in words.
fn words(name: &str) -> String {
    name.replace('_', " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standing::regression::{Snapshot, compare};

    fn standing(verdict: &str, cases: &[(&str, &str)]) -> Snapshot {
        let cases: Vec<String> = cases
            .iter()
            .map(|(id, status)| format!(r#"{{"id": "{id}", "level": "required", "status": "{status}"}}"#))
            .collect();
        let text = format!(
            r#"{{"implementation": {{"name": "x"}}, "standing": {{"rules": [{{"rule": "R-1", "verdict": "{verdict}"}}]}},
                "cases": [{}]}}"#,
            cases.join(", ")
        );
        Snapshot::parse(&text).unwrap()
    }

    #[test]
    fn statuses_and_verdicts_read_in_words() {
        let old = standing("conforms", &[("R-1/a/b", "pass"), ("R-1/a/c", "fail"), ("R-1/a/gone", "pass")]);
        let new =
            standing("does_not_conform", &[("R-1/a/b", "fail"), ("R-1/a/c", "pass"), ("R-1/a/new", "not_applicable")]);
        let text = render(&compare(&old, &new), false);
        assert!(text.contains("2 regressions:\n  R-1 (verdict): conforms -> does not conform\n"), "{text}");
        assert!(text.contains("1 progression:\n  R-1/a/c (required): fail -> pass\n"), "{text}");
        assert!(text.contains("1 new case (1 not applicable):\n  R-1/a/new (required): not applicable\n"), "{text}");
        assert!(!render(&compare(&old, &new), true).contains("does_not_conform"));
    }
}
