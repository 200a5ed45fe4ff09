//! Unified diffs of expected against actual JSON, for failure reports.
//!
//! Both sides are pretty-printed with sorted keys, so key order never shows up as a difference,
//! and diffed line by line with similar's Patience algorithm under a deadline, so a huge value
//! cannot stall a run.

use crate::compare::canonical;
use serde_json::Value;
use similar::{Algorithm, TextDiff};
use std::time::Duration;

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
    TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .timeout(DEADLINE)
        .diff_lines(&left, &right)
        .unified_diff()
        .context_radius(CONTEXT)
        .header("expected", "actual")
        .to_string()
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
}
