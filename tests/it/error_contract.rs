//! What a rejection is held to depends on the case's rule: PLAT-162 cases hold every rejection to
//! the one error of PLAT-162.one-error (message naming problems, expected fields and get_api_spec,
//! the same error every time and on every transport); RT-TOOL-8, which says nothing of errors,
//! reads only the problems, which show what validation saw. A required PLAT-162 case whose
//! arguments are not an object holds only the rejection; the rest is a reading check.

use crate::util::OnReference;
use serde_json::json;
use tool_conformance::case::{Case, Check, Expect, InvokeExpectation, checks};
use tool_conformance::run::run;
use tool_conformance::{Corpus, Invocation, Level, Selection, Status};

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
    // Every PLAT-162 case that expects a rejection fails on the bare error, but a required one whose
    // arguments are not an object: that holds only the rejection, and the bare error fails the
    // reading check beside it.
    let rejecting = |c: &&Case| {
        c.rule == "PLAT-162"
            && matches!(&c.check, Check::Invoke { expect: Expect::One(InvokeExpectation::Rejected { .. }), .. })
    };
    let rejection_only = |c: &&Case| c.level == Level::Required && checks::rejection_only(&c.check);
    let rejections = corpus.cases.iter().filter(rejecting).filter(|c| !rejection_only(c)).count();
    assert!(rejections > 100, "{rejections}");
    assert_eq!(plat_failures, rejections, "{plat_failures} PLAT-162 failures for {rejections} rejection cases");
    let only: Vec<&Case> = corpus.cases.iter().filter(rejecting).filter(rejection_only).collect();
    assert!(only.len() >= 9, "{} required cases with a root that is not an object", only.len());
    for case in only {
        let outcome = ran.outcomes.iter().find(|o| o.id == case.id).expect("judged");
        assert_eq!(outcome.status, Status::Pass, "{}", case.id);
        let reading = outcome.readings.iter().find(|r| r.check == "non-object-root-gets-the-one-error");
        assert!(reading.is_some_and(|r| r.failure.is_some()), "{}: {:?}", case.id, outcome.readings);
    }
}

tests![
    rt_tool_8_reads_only_the_problems_while_plat_162_holds_rejections_to_the_one_error,
];
