//! What a rejection is held to depends on the case's rule: PLAT-162 cases hold every rejection to
//! the one error of PLAT-162.one-error (message naming problems, expected fields and get_api_spec,
//! the same error every time and on every transport); RT-TOOL-8, which says nothing of errors,
//! reads only the problems, which show what validation saw.

use crate::util::OnReference;
use serde_json::json;
use tool_conformance::case::{Check, Expect, InvokeExpectation};
use tool_conformance::run::run;
use tool_conformance::{Corpus, Invocation, Selection, Status};

/// The reference, with errors that keep only their problems, and whose message says nothing
/// useful and changes with every call.
fn bare_errors() -> OnReference {
    let mut count = 0u64;
    OnReference::new().with_invoke(move |invocation| match invocation {
        Invocation::Rejected { handler_calls, error } => {
            count += 1;
            let error = json!({"message": format!("invalid input #{count}"), "problems": error["problems"]});
            Invocation::Rejected { handler_calls, error }
        }
        executed => executed,
    })
}

fn rt_tool_8_reads_only_the_problems_while_plat_162_holds_rejections_to_the_one_error() {
    let corpus = Corpus::embedded().expect("the corpus loads");
    let ran = run(&corpus, &Selection::all(), &mut bare_errors());
    let mut plat_failures = 0;
    for outcome in &ran.outcomes {
        match (&outcome.status, outcome.rule.as_str()) {
            (Status::Fail(failure), "RT-TOOL-8") => panic!("{} fails on a bare error: {}", outcome.id, failure.check),
            (Status::Fail(_), "PLAT-162") => plat_failures += 1,
            _ => {}
        }
    }
    // Every PLAT-162 case that expects a rejection fails on the bare error.
    let rejections = corpus
        .cases
        .iter()
        .filter(|c| {
            c.rule == "PLAT-162"
                && matches!(&c.check, Check::Invoke { expect: Expect::One(InvokeExpectation::Rejected { .. }), .. })
        })
        .count();
    assert!(rejections > 100, "{rejections}");
    assert_eq!(plat_failures, rejections, "{plat_failures} PLAT-162 failures for {rejections} rejection cases");
}

tests![
    rt_tool_8_reads_only_the_problems_while_plat_162_holds_rejections_to_the_one_error,
];
