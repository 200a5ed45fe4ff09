//! The exit codes of the `tool-conformance` binary, as named constants.
//!
//! | code | constant | meaning |
//! |---|---|---|
//! | 0 | [`CONFORMS`] | every selected required case passed (or was skipped as not claimed) |
//! | 1 | [`NONCONFORMING`] | some required case failed or errored; with expected failures, an unlisted failure or a stale entry; for `compare`, a regression |
//! | 2 | [`USAGE`] | bad usage, or a bad corpus (a case file, the catalog, or clause coverage) |

/// Every selected required case passed.
pub const CONFORMS: u8 = 0;
/// Some required case failed or errored (with expected failures: a failure not listed, or a
/// listed case that now passes); for `compare`, a regression.
pub const NONCONFORMING: u8 = 1;
/// Bad usage or a bad corpus.
pub const USAGE: u8 = 2;
