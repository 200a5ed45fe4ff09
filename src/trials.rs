//! The corpus as `cargo test` trials (libtest-mimic): one trial per case, named by its id, with
//! its rule as the kind, run against any [`Target`].
//!
//! A trial fails when its case fails or errors, at the required or the interpretation level, and
//! when a required case is skipped (declined as unsupported, or not observable): declining is never
//! conforming. Informational trials pass whatever behaviour they see, unless the target breaks.
//! Cases that do not apply (their rule, a rule they need, or their transports are not claimed)
//! are marked ignored.

use crate::case::Level;
use crate::corpus::Corpus;
use crate::judge::outcome::Status;
use crate::peer::Target;
use crate::report::terminal;
use crate::run::Session;
use libtest_mimic::{Failed, Trial};
use std::sync::{Arc, Mutex};

/// One trial per case of `corpus`, all sharing one started `target`. Another crate runs the
/// corpus against its own runtime from its own `cargo test`:
///
/// ```no_run
/// // tests/conformance.rs, with `harness = false` for this test in Cargo.toml
/// use tool_conformance::{Corpus, Reference};
///
/// fn main() {
///     let args = libtest_mimic::Arguments::from_args();
///     let corpus = Corpus::embedded().expect("the embedded corpus loads");
///     let trials = tool_conformance::trials(&corpus, Reference::new()); // your Target here
///     libtest_mimic::run(&args, trials).exit();
/// }
/// ```
pub fn trials<T: Target + Send + 'static>(corpus: &Corpus, target: T) -> Vec<Trial> {
    let session = Session::start(target);
    let skips: Vec<bool> = corpus.cases.iter().map(|case| session.not_applicable(case).is_some()).collect();
    let shared = Arc::new(Mutex::new(session));
    corpus
        .cases
        .iter()
        .zip(skips)
        .map(|(case, ignored)| {
            let session = Arc::clone(&shared);
            let (id, rule) = (case.id.clone(), case.rule.clone());
            let case = case.clone();
            Trial::test(id, move || {
                let outcome = match session.lock() {
                    Ok(mut session) => session.run_case(&case),
                    Err(poisoned) => poisoned.into_inner().run_case(&case),
                };
                match &outcome.status {
                    Status::Fail(_) | Status::Error { .. } => Err(Failed::from(terminal::failure(&outcome))),
                    Status::Skip { reason } if outcome.level == Level::Required => Err(Failed::from(format!(
                        "{}: skipped ({reason}); a required case declined or not observable leaves its rule incomplete",
                        outcome.id
                    ))),
                    Status::Pass | Status::Observed(_) | Status::Skip { .. } | Status::NotApplicable { .. } => Ok(()),
                }
            })
            .with_kind(rule)
            .with_ignored_flag(ignored)
        })
        .collect()
}
