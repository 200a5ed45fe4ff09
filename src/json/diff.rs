//! Unified diffs of expected against actual JSON, for failure reports.
//!
//! Both sides are pretty-printed with sorted keys, so key order never shows up as a difference,
//! and diffed line by line with similar's Patience algorithm under a deadline, so a huge value
//! cannot stall a run.
//!
//! A removed line and the added line that replaces it may differ only in characters that look
//! alike: a no-break space for a space, a decomposed accent (NFD) for a composed one (NFC), a
//! zero-width or other format character. Each such pair is diffed again character by character,
//! and where a changed stretch [looks alike](looks_alike) on both sides, its characters other
//! than printable ASCII are written escaped (`\u{A0}`), so the difference shows in every report.

use crate::json::compare::canonical;
use crate::json::inert::{escape_where, is_hidden};
use serde_json::Value;
use similar::{Algorithm, ChangeTag, DiffTag, TextDiff};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// How long a diff may take before similar falls back to a coarser result.
const DEADLINE: Duration = Duration::from_millis(250);

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// A value pretty-printed the way diffs show it: sorted keys, two-space indent.
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(&canonical(value)).unwrap_or_else(|_| value.to_string())
}

/// The unified diff of `expected` against `actual`, headed `expected` and `actual`.
/// Empty when the two print the same.
pub fn unified(expected: &Value, actual: &Value) -> String {
    let (left, right) = (pretty(expected) + "\n", pretty(actual) + "\n");
    if left == right {
        return String::new();
    }
    let deadline = Instant::now() + DEADLINE;
    let diff = TextDiff::configure().algorithm(Algorithm::Patience).deadline(deadline).diff_lines(&left, &right);
    let mut out = String::from("--- expected\n+++ actual\n");
    for hunk in diff.unified_diff().context_radius(CONTEXT).iter_hunks() {
        let _ = writeln!(out, "{}", hunk.header());
        let changes: Vec<(ChangeTag, &str)> = hunk.iter_changes().map(|c| (c.tag(), c.value())).collect();
        write_changes(&mut out, &changes, deadline);
    }
    out
}

/// Writes a hunk's lines, each removed line paired with the added line in the same place of the
/// block after it, and a pair marked by [`mark_alike`].
fn write_changes(out: &mut String, changes: &[(ChangeTag, &str)], deadline: Instant) {
    let mut i = 0;
    while i < changes.len() {
        let deleted = changes[i..].iter().take_while(|(tag, _)| *tag == ChangeTag::Delete).count();
        if deleted == 0 {
            let (tag, line) = changes[i];
            write_line(out, tag, line);
            i += 1;
            continue;
        }
        let inserted = changes[i + deleted..].iter().take_while(|(tag, _)| *tag == ChangeTag::Insert).count();
        let (old, new) = (&changes[i..i + deleted], &changes[i + deleted..i + deleted + inserted]);
        let mut marked: Vec<(String, String)> = Vec::new();
        for (k, (_, line)) in old.iter().enumerate() {
            let (o, n) = match new.get(k) {
                Some((_, other)) => mark_alike(line, other, deadline),
                None => (line.to_string(), String::new()),
            };
            marked.push((o, n));
        }
        for (o, _) in &marked {
            write_line(out, ChangeTag::Delete, o);
        }
        for (k, (_, line)) in new.iter().enumerate() {
            match marked.get(k) {
                Some((_, n)) => write_line(out, ChangeTag::Insert, n),
                None => write_line(out, ChangeTag::Insert, line),
            }
        }
        i += deleted + inserted;
    }
}

fn write_line(out: &mut String, tag: ChangeTag, line: &str) {
    let sign = match tag {
        ChangeTag::Delete => '-',
        ChangeTag::Insert => '+',
        ChangeTag::Equal => ' ',
    };
    out.push(sign);
    out.push_str(line);
    if !line.ends_with('\n') {
        out.push('\n');
    }
}

/// `old` and `new` with each changed stretch that [looks alike](looks_alike) on both sides
/// written escaped (all but printable ASCII), and everything else as it was.
pub fn mark_alike(old: &str, new: &str, deadline: Instant) -> (String, String) {
    let (a, b): (Vec<char>, Vec<char>) = (old.chars().collect(), new.chars().collect());
    let ops = similar::capture_diff_slices_deadline(Algorithm::Myers, &a, &b, Some(deadline));
    let (mut left, mut right) = (String::new(), String::new());
    for op in ops {
        let (tag, from, to) = op.as_tag_tuple();
        let (x, y): (String, String) = (a[from].iter().collect(), b[to].iter().collect());
        if tag != DiffTag::Equal && looks_alike(&x, &y) {
            left.push_str(&escape_where(&x, |c| !c.is_ascii_graphic()));
            right.push_str(&escape_where(&y, |c| !c.is_ascii_graphic()));
        } else {
            left.push_str(&x);
            right.push_str(&y);
        }
    }
    (left, right)
}

/// Whether two changed stretches may render the same: one holds a character other than
/// printable ASCII (a space, a no-break space, a combining mark, a format character, a letter
/// outside ASCII), and both are as long once whitespace counts as one kind and what shows no
/// glyph of its own (hidden characters, combining marks) is left out. So `"é"` (NFC) and
/// `"e\u{301}"` (NFD) look alike, and so do a space and U+00A0; `"日本"` and `"日本語"` do not.
pub fn looks_alike(old: &str, new: &str) -> bool {
    let unusual = |s: &str| s.chars().any(|c| !c.is_ascii_graphic());
    (unusual(old) || unusual(new)) && glyphs(old) == glyphs(new)
}

/// How many characters of `text` show a glyph of their own.
fn glyphs(text: &str) -> usize {
    text.chars().filter(|&c| !is_hidden(c) && !is_combining(c)).count()
}

/// Combining marks of the blocks that hold them (Latin accents, extended and supplementary
/// marks, marks for symbols, half marks).
fn is_combining(c: char) -> bool {
    matches!(c, '\u{300}'..='\u{36F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn diff_marks_the_changed_line_only() {
        let diff = unified(&json!({"a": 1, "b": "x"}), &json!({"b": "y", "a": 1}));
        assert_eq!(
            diff,
            "--- expected\n+++ actual\n@@ -1,4 +1,4 @@\n {\n   \"a\": 1,\n-  \"b\": \"x\"\n+  \"b\": \"y\"\n }\n"
        );
    }

    #[test]
    fn equal_values_give_no_diff() {
        assert_eq!(unified(&json!({"a": [1]}), &json!({"a": [1]})), "");
    }

    #[test]
    fn a_no_break_space_for_a_space_shows_escaped() {
        let diff = unified(&json!({"t": "Ember Oak"}), &json!({"t": "Ember\u{a0}Oak"}));
        assert!(diff.contains("\n-  \"t\": \"Ember\\u{20}Oak\"\n"), "{diff}");
        assert!(diff.contains("\n+  \"t\": \"Ember\\u{A0}Oak\"\n"), "{diff}");
        assert!(!diff.contains('\u{a0}'), "{diff}");
    }

    #[test]
    fn composed_against_decomposed_accents_show_escaped() {
        let diff = unified(&json!({"t": "caf\u{e9}"}), &json!({"t": "cafe\u{301}"}));
        assert!(diff.contains("\n-  \"t\": \"caf\\u{E9}\"\n"), "{diff}");
        assert!(diff.contains("\n+  \"t\": \"cafe\\u{301}\"\n"), "{diff}");
    }

    #[test]
    fn a_zero_width_character_shows_escaped() {
        let diff = unified(&json!(["ab"]), &json!(["a\u{200b}b"]));
        assert!(diff.contains("\n-  \"ab\"\n+  \"a\\u{200B}b\"\n"), "{diff}");
    }

    #[test]
    fn visible_differences_are_left_as_they_are() {
        let diff = unified(&json!({"t": "日本"}), &json!({"t": "日本語"}));
        assert!(diff.contains("\n-  \"t\": \"日本\"\n+  \"t\": \"日本語\"\n"), "{diff}");
        let diff = unified(&json!({"t": "Ember & Oak"}), &json!({"t": "Ember &amp; Oak"}));
        assert!(diff.contains("\n-  \"t\": \"Ember & Oak\"\n+  \"t\": \"Ember &amp; Oak\"\n"), "{diff}");
    }

    #[test]
    fn alike_stretches_are_told_from_different_ones() {
        assert!(looks_alike(" ", "\u{a0}"));
        assert!(looks_alike("\u{e9}", "e\u{301}"));
        assert!(looks_alike("", "\u{feff}"));
        assert!(!looks_alike("a", "b"));
        assert!(!looks_alike("", " "));
        assert!(!looks_alike("x", "\u{e9}\u{e9}"));
    }
}
