//! The integration tests, as one binary: every module here is one concern of the suite tested from
//! outside, as a user or a CI job uses it. One binary links the crate once instead of once per file.
//!
//! Why a `harness = false` main on libtest-mimic rather than libtest's own harness: two kinds of
//! trial are only known at run time (one per case of the embedded corpus against the reference,
//! and the gauntlet's broken implementations, which are this binary started with `GAUNTLET_MODE`
//! set, so `main` must look at that variable before anything else). libtest cannot register
//! trials at run time, and a `#[test]` item is compiled out of a `harness = false` binary, so each
//! module lists its test functions in one `tests![...]` call at its end, and `main` runs them all
//! as libtest-mimic trials named `module::function`. `cargo test NAME` filters as it always did
//! (`cargo test cli::`, `cargo test -- RT-TOOL-8/`), and `cargo test` prints one line per trial.
//! An attribute that gathers `#[test]` functions before `main` (libtest-mimic-collect) was weighed
//! and left: it names a trial by its function alone, drops the function's other attributes, and
//! runs code before `main`; the lists here are plain `macro_rules!` and checked.
//!
//! A test function that is in no list is dead code, which `cargo clippy --all-targets -D warnings`
//! refuses; `registration::every_test_is_registered` also fails on it, on a `#[test]` left in a
//! module (it would be compiled out, so silently never run) and on a file here that no `modules!`
//! line declares.
//!
//! To add a module `x`: put `tests/it/x.rs` here, with a `tests![...]` list in place of its
//! `#[test]` attributes, and add the one line `x,` to the `modules!` list below.

/// Declares a module's test functions as its trials: `tests![a, b, #[cfg(unix)] c];` at the end of
/// the module defines `trials()`, which `main` collects. An attribute before a name applies to it.
macro_rules! tests {
    ($($(#[$meta:meta])* $name:ident),* $(,)?) => {
        /// This module's test functions, as trials named `module::function`.
        pub(crate) fn trials() -> Vec<libtest_mimic::Trial> {
            let module = module_path!().rsplit("::").next().unwrap_or_default();
            #[allow(unused_mut)]
            let mut trials = Vec::new();
            $(
                $(#[$meta])*
                trials.push(libtest_mimic::Trial::test(format!("{module}::{}", stringify!($name)), || {
                    $name();
                    Ok(())
                }));
            )*
            trials
        }
    };
}

/// Declares the modules that hold test functions and collects their trials, in this order.
macro_rules! modules {
    ($($module:ident),* $(,)?) => {
        $(mod $module;)*

        /// The names of the modules of test functions, for the registration check.
        const MODULES: &[&str] = &[$(stringify!($module)),*];

        /// Every module's test functions, as trials.
        fn tests() -> Vec<libtest_mimic::Trial> {
            let mut trials = Vec::new();
            $(trials.extend($module::trials());)*
            trials
        }
    };
}

mod conformance;
mod gauntlet;
mod registration;
mod util;

modules! {
    action,
    adapter_about,
    architecture,
    checkout_paths,
    clause_texts,
    cli,
    corpus,
    decode_equivalence,
    defects,
    error_contract,
    exit_codes,
    expected_failures,
    explain,
    feature_leakage,
    first_hour,
    first_hour_mends,
    fuzz,
    hostile,
    html5lib,
    html_chromium,
    http_bridge,
    mcp_gateway,
    mcp_interrupted,
    mcp_gateway_url,
    mcp_gateway_http,
    mcp,
    mcp_upstream,
    packaging,
    protocol,
    protocol_doc,
    published_standing,
    readings,
    readme,
    report_formats,
    report_inertness,
    reports,
    restated_views,
    serve_http,
    site,
    specs,
    standing_identity,
    third_rule,
    untrusted_files,
    verdicts,
}

fn main() {
    if let Ok(mode) = std::env::var(gauntlet::MODE) {
        gauntlet::broken(&mode);
    }
    if std::env::var_os(mcp::GATEWAY_MODE).is_some() {
        mcp::gateway();
    }
    let args = libtest_mimic::Arguments::from_args();
    let mut trials = tests();
    trials.extend(registration::trials());
    trials.extend(gauntlet::trials());
    trials.extend(conformance::trials());
    // In name order, as libtest runs its tests, so that the tests that run side by side are the
    // neighbours they were in a binary of their own.
    trials.sort_by(|a, b| a.name().cmp(b.name()));
    libtest_mimic::run(&args, trials).exit();
}
