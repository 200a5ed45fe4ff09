//! What the suite is, for every part that pins it in what it writes: its version.

/// The suite's version, pinned in every report.
pub const SUITE_VERSION: &str = env!("CARGO_PKG_VERSION");
