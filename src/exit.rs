//! The exit codes of the `tool-conformance` binary, as named constants, and [`TABLE`], the one
//! place that says what each means: `--help` prints it, the exit-code table of docs/ci.md is checked
//! against it (`tests/it/exit_codes.rs`), and that test runs each code as documented.

/// Every rule conforms, is not claimed, or had no case selected (with expected failures: every
/// failure, error and skip of a required case is listed, and no entry is stale); for `check`, a
/// valid corpus with a required case for every clause; for `compare`, no regression; for `fuzz`, no
/// required finding.
pub const CONFORMS: u8 = 0;
/// Some rule does not conform or is incomplete (with expected failures: such a case not listed,
/// or a stale entry); for `compare`, a regression; for `table`, a failure with no reason; for
/// `fuzz`, a required finding (a generated case whose answer the rule text forces, failed), or a
/// target that did not start or stopped answering, so that nothing more could be judged.
pub const NONCONFORMING: u8 = 1;
/// Bad usage or a bad corpus.
pub const USAGE: u8 = 2;

/// Every exit code: (code, constant name, meaning), in order.
pub const TABLE: &[(u8, &str, &str)] = &[
    (
        CONFORMS,
        "CONFORMS",
        "run: every rule conforms, is not claimed, or had no case selected; with --expected-failures, \
         every required case that failed, errored or was skipped is listed, and no entry is stale. \
         check: the corpus is valid and every clause has a required case. compare: no regression. \
         table: every failing required case has a reason. fuzz: no required finding (interpretation \
         findings and the target's errors on single cases are reported apart)",
    ),
    (
        NONCONFORMING,
        "NONCONFORMING",
        "run: some rule does not conform (a required case failed) or is incomplete (a required case \
         errored or was skipped, or a clause had no applicable required case); with \
         --expected-failures, such a case the file does not list, or a stale entry. compare: a \
         regression. table: a failing required case with no expected-failures reason. fuzz: a \
         required finding, or a target that did not start or stopped answering",
    ),
    (
        USAGE,
        "USAGE",
        "bad usage (an unknown option or case id, a bad value, a file that cannot be read) or a bad \
         corpus (a malformed case file, an unknown clause); for check alone, also a clause with no \
         required case (run judges the cases there are, and does not lint coverage)",
    ),
];

/// [`TABLE`] as the text `--help` ends with.
pub fn help_text() -> String {
    let mut out = String::from("Exit codes:\n");
    for (code, name, meaning) in TABLE {
        out.push_str(&format!("  {code} {name}: {meaning}\n"));
    }
    out
}
