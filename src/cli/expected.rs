//! `run --write-expected-failures FILE`: the cases that fail a run, written as an
//! expected-failures file (`schemas/expected-failures.schema.json`) whose reasons are left to
//! fill in. A case already listed in the `--expected-failures` file given keeps its reason; an
//! entry that no longer fails is left out. Given back with `--expected-failures`, the file lets
//! the run pass, and any of its cases that passes later is a stale entry that fails the run.

use anyhow::{Context, Result};
use std::path::Path;
use tool_conformance::report::Report;

/// Writes the expected-failures file of `report` (`report::expected`) to `path`, and says how many entries it holds.
pub(super) fn write(report: &Report, path: &Path) -> Result<usize> {
    let text = tool_conformance::report::expected::render(report);
    std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?;
    Ok(text.lines().filter(|l| l.starts_with("- case: ")).count())
}
