//! Running cases against a target: each case becomes an [`Outcome`].
//!
//! A [`Session`] starts the target once and then runs cases one by one; [`run`] does a whole
//! selection. The session only asks: what the target answered goes to [`crate::judge`], which
//! decides what it comes to. Whatever the target returns is compared, never trusted: a mismatch
//! is a failure value, a target that cannot answer is an error value, and nothing a target does
//! makes the runner panic.
//!
//! A case applies to an implementation that claims its rule, every rule it `needs`, and at least
//! one transport it calls on; any other case is `not applicable`. A case the implementation
//! declines (`unsupported`) is skipped, which leaves a required case's rule incomplete.

pub mod config;
pub mod jobs;

use crate::case::tool::{Tool, Transport, View};
use crate::case::{Case, Check, Level};
use crate::corpus::Corpus;
use crate::judge::outcome::{Outcome, Status};
use crate::judge::{Answers, describe, invoke};
use crate::peer::{Implementation, Target, TargetError};
use crate::run::config::Selection;

/// A whole run: who was tested, and every selected case's outcome, in corpus order.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The implementation's description of itself.
    pub implementation: Implementation,
    /// One outcome per selected case.
    pub outcomes: Vec<Outcome>,
}

impl Run {
    /// Whether some required case failed.
    pub fn breaks_a_rule(&self) -> bool {
        self.outcomes.iter().any(Outcome::breaks_rule)
    }
}

/// Runs every case of `corpus` that `selection` selects, starting and stopping `target` once.
///
/// ```
/// use tool_conformance::{Corpus, Reference, Selection, run};
///
/// let corpus = Corpus::embedded().expect("the corpus loads");
/// let one = Selection::new(vec![], vec![], vec!["RT-TOOL-8/examples/*".into()]).unwrap();
/// let ran = run::run(&corpus, &one, &mut Reference::new());
/// assert!(ran.outcomes.iter().all(|o| o.status == tool_conformance::Status::Pass));
/// ```
pub fn run(corpus: &Corpus, selection: &Selection, target: &mut dyn Target) -> Run {
    let mut session = Session::start(target);
    let outcomes = corpus.cases.iter().filter(|c| selection.matches(c)).map(|c| session.run_case(c)).collect();
    let implementation = session.finish();
    Run { implementation, outcomes }
}

/// A started target, ready to run cases.
pub struct Session<T: Target> {
    target: T,
    implementation: Implementation,
    start_error: Option<String>,
    registered: Option<Vec<Tool>>,
}

impl<T: Target> Session<T> {
    /// Starts the target. A target that fails to start still gives a session, whose every case
    /// is an error naming why.
    pub fn start(mut target: T) -> Session<T> {
        let (implementation, start_error) = match target.start() {
            Ok(implementation) => (implementation, None),
            Err(error) => (Implementation::not_started(), Some(error.to_string())),
        };
        Session { target, implementation, start_error, registered: None }
    }

    /// The implementation's description of itself.
    pub fn implementation(&self) -> &Implementation {
        &self.implementation
    }

    /// Why the target did not start, or `None` when it did.
    pub fn start_error(&self) -> Option<&str> {
        self.start_error.as_deref()
    }

    /// Stops the target and returns its description.
    pub fn finish(mut self) -> Implementation {
        if self.start_error.is_none() {
            let _ = self.target.stop();
        }
        self.implementation
    }

    /// Runs one case.
    pub fn run_case(&mut self, case: &Case) -> Outcome {
        match self.answers(case) {
            Ok(answers) => crate::judge::judge(case, &answers),
            Err(status) => {
                let claimed: Vec<Transport> = match &case.check {
                    Check::Invoke { transports, .. } => {
                        transports.iter().copied().filter(|t| self.implementation.transports.contains(t)).collect()
                    }
                    _ => Transport::ALL.to_vec(),
                };
                Outcome::unjudged(case, *status, &claimed)
            }
        }
    }

    /// Why `case` does not apply to this implementation (its rule, a rule it needs, or all its
    /// transports are not claimed), or `None` when it applies.
    pub fn not_applicable(&self, case: &Case) -> Option<String> {
        if self.start_error.is_some() {
            return None;
        }
        if !self.implementation.rules.contains(&case.rule) {
            return Some(format!("{} is not claimed", case.rule));
        }
        if let Some(need) = case.needs.iter().find(|r| !self.implementation.rules.contains(r)) {
            return Some(format!("the case needs {need} too, which is not claimed"));
        }
        if let Check::Invoke { transports, .. } = &case.check {
            if !transports.iter().any(|t| self.implementation.transports.contains(t)) {
                let names: Vec<&str> = transports.iter().map(|t| t.as_str()).collect();
                return Some(format!("transport {} is not claimed", names.join(", ")));
            }
        }
        None
    }

    /// What the target answers to `case`'s requests, for the judge; `Err` with the case's status
    /// when there is nothing to judge (the target did not start, the case does not apply, or the
    /// target declined or could not answer).
    pub(crate) fn answers(&mut self, case: &Case) -> Result<Answers, Box<Status>> {
        if let Some(why) = &self.start_error {
            return Err(Box::new(Status::Error { reason: format!("the implementation did not start: {why}") }));
        }
        if let Some(reason) = self.not_applicable(case) {
            return Err(Box::new(Status::NotApplicable { reason }));
        }
        let answers = match &case.check {
            Check::Normalize { input_schema, arguments, .. } => match self.target.normalize(input_schema, arguments) {
                Ok(arguments) => Ok(Answers::Normalized(Ok(arguments), self.target.normalize_is_a_call())),
                Err(TargetError::Refused(error)) => {
                    Ok(Answers::Normalized(Err(error), self.target.normalize_is_a_call()))
                }
                Err(TargetError::NotJson(text)) => Ok(Answers::RanOnNotJson { transport: None, text }),
                Err(other) => Err(other),
            },
            Check::Invoke { tools, tool, arguments, transports, .. } => {
                let claimed: Vec<_> =
                    transports.iter().copied().filter(|t| self.implementation.transports.contains(t)).collect();
                self.invoke(tools, tool, arguments, &claimed, case)
            }
            Check::Describe { tools, tool, views } => self.describe(tools, tool, views, case.level),
        };
        answers.map_err(|error| {
            Box::new(match error {
                TargetError::Unsupported(why) => Status::Skip { reason: format!("unsupported: {why}") },
                TargetError::Broken(why) => Status::Error { reason: why },
                TargetError::NotApplicable(reason) => Status::NotApplicable { reason },
                TargetError::Refused(error) => Status::Error {
                    reason: format!(
                        "a command other than normalize refused its input, which only normalize may do: {error}"
                    ),
                },
                TargetError::NotJson(text) => Status::Error {
                    reason: format!("a describe or register answered that a tool received {text} (not JSON)"),
                },
            })
        })
    }

    fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
        if self.registered.as_deref() != Some(tools) {
            self.registered = None;
            self.target.register(tools)?;
            self.registered = Some(tools.to_vec());
        }
        Ok(())
    }

    /// Each view's published schema, in order, until one fails what `level` holds it to.
    fn describe(&mut self, tools: &[Tool], tool: &str, views: &[View], level: Level) -> Result<Answers, TargetError> {
        self.register(tools)?;
        let registered = describe::registered(tools, tool);
        let mut published = Vec::with_capacity(views.len());
        for view in views {
            let schema = self.target.describe(tool, *view)?;
            let failed = describe::view_failure(level, &registered, *view, &schema).is_some();
            published.push((*view, schema));
            if failed {
                break;
            }
        }
        Ok(Answers::Described(published))
    }

    /// The case's call on each claimed transport, and for a rejection under the one-error
    /// contract the first call repeated and with its keys reversed.
    fn invoke(
        &mut self,
        tools: &[Tool],
        tool: &str,
        arguments: &serde_json::Value,
        claimed: &[crate::case::tool::Transport],
        case: &Case,
    ) -> Result<Answers, TargetError> {
        let Some(&first) = claimed.first() else {
            let pointer = self.implementation.spec_pointer.clone();
            return Ok(Answers::Invoked { calls: Vec::new(), rechecks: None, pointer });
        };
        self.register(tools)?;
        let mut calls = Vec::with_capacity(claimed.len());
        for transport in claimed {
            match self.target.invoke(tool, *transport, arguments) {
                Ok(invocation) => calls.push((*transport, invocation)),
                Err(TargetError::NotJson(text)) => {
                    return Ok(Answers::RanOnNotJson { transport: Some(*transport), text });
                }
                Err(other) => return Err(other),
            }
        }
        let rechecks = if invoke::wants_rechecks(case.rejections, &calls) {
            let ran = |text| Ok(Answers::RanOnNotJson { transport: Some(first), text });
            let repeated = match self.target.invoke(tool, first, arguments) {
                Err(TargetError::NotJson(text)) => return ran(text),
                other => other?,
            };
            let permuted = match self.target.invoke(tool, first, &invoke::reversed(arguments)) {
                Err(TargetError::NotJson(text)) => return ran(text),
                other => other?,
            };
            Some((repeated, permuted))
        } else {
            None
        };
        Ok(Answers::Invoked { calls, rechecks, pointer: self.implementation.spec_pointer.clone() })
    }
}
