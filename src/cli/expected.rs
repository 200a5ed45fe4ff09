//! `run --write-expected-failures FILE`: the cases that fail a run, written as an
//! expected-failures file (`schemas/expected-failures.schema.json`) whose reasons are left to
//! fill in. A case already listed in the `--expected-failures` file given keeps its reason; an
//! entry that no longer fails is left out. Given back with `--expected-failures`, the file lets
//! the run pass, and any of its cases that passes later is a stale entry that fails the run.

use anyhow::{Context, Result};
use std::path::Path;
use tool_conformance::report::Report;

/// Warns, on stderr, of each entry of `file` whose reason is still the one written to fill in.
pub(super) fn warn_unfilled(file: &tool_conformance::standing::expectations::ExpectedFailures) {
    use tool_conformance::report::expected::TO_FILL_IN;
    let unfilled: Vec<String> =
        file.entries.iter().filter(|e| e.reason.starts_with("TO FILL IN")).map(|e| e.subject.to_string()).collect();
    if let Some(first) = unfilled.first() {
        let more = if unfilled.len() > 1 { format!(" and {} more", unfilled.len() - 1) } else { String::new() };
        eprintln!(
            "warning: {}: {} entr{} still say{} \"{TO_FILL_IN}\" ({first}{more}): write why each case fails",
            file.path.display(),
            unfilled.len(),
            if unfilled.len() == 1 { "y" } else { "ies" },
            if unfilled.len() == 1 { "s" } else { "" },
        );
    }
}

/// Writes the expected-failures file of `report` (`report::expected`) to `path`, and says how many entries it holds.
pub(super) fn write(report: &Report, path: &Path) -> Result<usize> {
    let text = tool_conformance::report::expected::render(report);
    std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?;
    Ok(text.lines().filter(|l| l.starts_with("- case: ")).count())
}
