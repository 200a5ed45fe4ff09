//! Every case of the embedded corpus as one `cargo test` trial against the reference, named by
//! its case id with its rule as the kind: `cargo test -- RT-TOOL-8/` runs one rule.

use tool_conformance::{Corpus, Reference};

/// One trial per case of the embedded corpus against the reference; a corpus that does not load
/// is one failing trial that prints its errors.
pub(crate) fn trials() -> Vec<libtest_mimic::Trial> {
    match Corpus::embedded() {
        Ok(corpus) => tool_conformance::trials(&corpus, Reference::new()),
        Err(errors) => {
            let errors = errors.to_string();
            vec![libtest_mimic::Trial::test("conformance::the embedded corpus loads", move || Err(errors.into()))]
        }
    }
}
