//! The exit codes of the `tool-conformance` binary, as named constants.
//!
//! | code | constant | meaning |
//! |---|---|---|
//! | 0 | [`CONFORMS`] | every rule conforms, is not claimed, or had no case selected; with expected failures, every required case that failed, errored or was skipped is listed and no entry is stale |
//! | 1 | [`NONCONFORMING`] | some rule does not conform (a required case failed) or is incomplete (a required case errored or was skipped, or a clause had no applicable required case); with expected failures, such a case not listed, or a stale entry; for `compare`, a regression |
//! | 2 | [`USAGE`] | bad usage, or a bad corpus (a case file, the catalog, or clause coverage) |

/// Every rule conforms, is not claimed, or had no case selected (with expected failures: every
/// failure, error and skip of a required case is listed, and no entry is stale).
pub const CONFORMS: u8 = 0;
/// Some rule does not conform or is incomplete (with expected failures: such a case not listed,
/// or a stale entry); for `compare`, a regression.
pub const NONCONFORMING: u8 = 1;
/// Bad usage or a bad corpus.
pub const USAGE: u8 = 2;
