//! Every case of the embedded corpus as one `cargo test` trial against the reference, named by
//! its case id with its rule as the kind: `cargo test -- RT-TOOL-8/` runs one rule.

use tool_conformance::{Corpus, Reference};

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let corpus = match Corpus::embedded() {
        Ok(corpus) => corpus,
        Err(errors) => {
            eprintln!("{errors}");
            std::process::exit(2);
        }
    };
    let trials = tool_conformance::trials(&corpus, Reference::new());
    libtest_mimic::run(&args, trials).exit();
}
