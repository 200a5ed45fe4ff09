//! Running a selection against the implementation a [`RunConfig`] names, on one or more instances
//! at once (`--jobs N`), with the same result as a serial run.
//!
//! Each instance is its own target with its own [`Session`] (so its own registration cache), on
//! its own thread. The selected cases are handed out one at a time from a shared `Queue` that
//! gives each instance a contiguous share of them, so that an instance runs neighbouring cases
//! (which mostly share their tools, so that the instances together register about as often as a
//! serial run does: 706 requests at `--jobs 8` for 684 serially in `benches/harness.rs`), and an
//! instance that runs out takes the second half of the largest share left. Each outcome goes
//! back to its case's slot, so outcomes come out in corpus order whichever instance ran them. An
//! instance that did not start takes no cases while another did start; when none started, their
//! error is every case's. A target that panics gives an error outcome, not a crashed run.
//!
//! For an implementation reached over the protocol this is also where the [`WireLog`] is read:
//! the exchange that led to a failure goes into the failure, and with `--transcript` every
//! exchange is kept, per case, in corpus order.

use crate::case::Case;
use crate::corpus::Corpus;
use crate::judge::outcome::{Outcome, Status};
use crate::mcp::Manifest;
use crate::peer::http::HttpTarget;
use crate::peer::mcp::McpTarget;
use crate::peer::protocol_schema::{ProtocolSchema, SchemaError};
use crate::peer::remote::Remote;
use crate::peer::server::Loopback;
use crate::peer::stdio::StdioTarget;
use crate::peer::transcript::{Exchange, WireLog, report_lines};
use crate::peer::{Implementation, Target};
use crate::reference::Reference;
use crate::run::config::{Limits, RunConfig, TargetSpec};
use crate::run::{Run, Session};
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Barrier, Mutex};

/// A run, with the transcript when one was asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct Ran {
    /// Who was tested and every selected case's outcome, in corpus order.
    pub run: Run,
    /// With `--transcript`: the exchanges of each instance's start, then of each case in corpus
    /// order, then of each stop. Empty otherwise.
    pub transcript: Vec<Transcript>,
}

/// The exchanges of one part of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcript {
    /// What they belong to: a case id, or an instance's start or stop.
    pub title: String,
    /// The exchanges, in order.
    pub exchanges: Vec<Exchange>,
}

/// One instance of the implementation under test.
pub struct Instance {
    target: Box<dyn Target + Send>,
    log: Option<WireLog>,
}

impl Instance {
    /// An instance of any target; `log` when it records one (a [`Remote`] does).
    pub fn new(target: Box<dyn Target + Send>, log: Option<WireLog>) -> Instance {
        Instance { target, log }
    }

    /// The instance's target.
    pub(crate) fn target_mut(&mut self) -> &mut (dyn Target + Send) {
        self.target.as_mut()
    }
}

/// The instances `config` asks for: `config.jobs` of them (one per URL over HTTP; one over MCP,
/// publishing the tools of the cases of `corpus` it selects).
pub fn instances(config: &RunConfig, corpus: &Corpus) -> Result<Vec<Instance>, SchemaError> {
    if let TargetSpec::Mcp(route) = &config.target {
        let log = if config.transcript { WireLog::recording() } else { WireLog::new() };
        let manifest = Manifest::of(corpus.cases.iter().filter(|c| config.selection.matches(c)));
        let rules = corpus.catalog.rules.iter().map(|r| r.id.clone()).collect();
        let mut target = McpTarget::new(route.clone(), manifest, rules, config.limits.clone(), log.clone())
            .with_options(config.mcp.clone());
        if let Some(pointer) = &config.spec_pointer {
            target = target.with_spec_pointer(pointer.clone());
        }
        return Ok(vec![Instance::new(Box::new(target), Some(log))]);
    }
    let count = config.target.count(config.jobs);
    build(&config.target, &config.limits, count, config.transcript, config.validate_protocol)
}

/// `count` instances of the implementation `target` names, reached within `limits` (the `i`th
/// over HTTP at the `i`th URL), recording every exchange with `transcript` and checking every
/// message against the protocol's schema with `validate`: the one place instances are built, for
/// `run` and `fuzz` alike.
pub(crate) fn build(
    target: &TargetSpec,
    limits: &Limits,
    count: usize,
    transcript: bool,
    validate: bool,
) -> Result<Vec<Instance>, SchemaError> {
    let mut instances = Vec::with_capacity(count);
    for index in 0..count {
        let log = if transcript { WireLog::recording() } else { WireLog::new() };
        let schema = if validate { Some(ProtocolSchema::load()?) } else { None };
        let limits = limits.clone();
        let target: Box<dyn Target + Send> = match target {
            TargetSpec::Reference if schema.is_none() && !transcript => {
                instances.push(Instance::new(Box::new(Reference::new()), None));
                continue;
            }
            TargetSpec::Reference => boxed(Remote::new(Loopback::new(Reference::new), limits, log.clone()), schema),
            TargetSpec::Stdio(command) => boxed(StdioTarget::spawn(command.clone(), limits, log.clone()), schema),
            TargetSpec::Http(urls) => boxed(HttpTarget::connect(urls[index].clone(), limits, log.clone()), schema),
            // An MCP route publishes the tools of a run's cases, known to `instances` only (the
            // cases `fuzz` generates are in no manifest): nothing is built here.
            TargetSpec::Mcp(_) => continue,
        };
        instances.push(Instance::new(target, Some(log)));
    }
    Ok(instances)
}

fn boxed<C: crate::peer::remote::Channel + 'static>(
    remote: Remote<C>,
    schema: Option<ProtocolSchema>,
) -> Box<dyn Target + Send> {
    match schema {
        Some(schema) => Box::new(remote.validating(schema)),
        None => Box::new(remote),
    }
}

/// Runs the cases `config` selects against the implementation it names.
///
/// ```no_run
/// use tool_conformance::{CommandLine, Corpus, RunConfig, TargetSpec, run_config};
///
/// // Four instances of an implementation in any language, speaking protocol v1 on stdio.
/// let config = RunConfig {
///     target: TargetSpec::Stdio(CommandLine::parse("python3 my_adapter.py").expect("one command")),
///     jobs: 4,
///     ..RunConfig::default()
/// };
/// let corpus = Corpus::embedded().expect("the corpus loads");
/// let ran = run_config(&corpus, &config).expect("the protocol schema compiles");
/// println!("{} cases", ran.run.outcomes.len());
/// ```
pub fn run(corpus: &Corpus, config: &RunConfig) -> Result<Ran, SchemaError> {
    run_with_progress(corpus, config, &|_| {})
}

/// [`run`], calling `progress` with each outcome as soon as its case ends (on the thread of the
/// instance that ran it, so in any order): for a progress bar.
pub fn run_with_progress(
    corpus: &Corpus,
    config: &RunConfig,
    progress: &(dyn Fn(&Outcome) + Sync),
) -> Result<Ran, SchemaError> {
    let cases: Vec<&Case> = corpus.cases.iter().filter(|c| config.selection.matches(c)).collect();
    let mut ran = run_cases_with_progress(&cases, instances(config, corpus)?, config.transcript, progress);
    ran.run.implementation = config.identity.apply(ran.run.implementation);
    Ok(ran)
}

/// What one instance's thread hands back.
struct Finished {
    implementation: Implementation,
    started: bool,
    start: Vec<Exchange>,
    stop: Vec<Exchange>,
}

/// Runs `cases` spread over `instances`; outcomes in the order of `cases`, and with `transcript`
/// the exchanges.
pub fn run_cases(cases: &[&Case], instances: Vec<Instance>, transcript: bool) -> Ran {
    run_cases_with_progress(cases, instances, transcript, &|_| {})
}

/// [`run_cases`], calling `progress` with each outcome as soon as its case ends.
pub fn run_cases_with_progress(
    cases: &[&Case],
    instances: Vec<Instance>,
    transcript: bool,
    progress: &(dyn Fn(&Outcome) + Sync),
) -> Ran {
    let count = instances.len().max(1);
    let slots: Vec<Slot> = cases.iter().map(|_| Mutex::new(None)).collect();
    let next = Queue::new(cases.len(), count);
    let started: Vec<Mutex<bool>> = (0..count).map(|_| Mutex::new(false)).collect();
    let barrier = Barrier::new(instances.len());
    let finished: Vec<Finished> = std::thread::scope(|scope| {
        let handles: Vec<_> = instances
            .into_iter()
            .enumerate()
            .map(|(index, instance)| {
                let (slots, next, started, barrier) = (&slots, &next, &started, &barrier);
                scope.spawn(move || worker(index, instance, cases, slots, next, started, barrier, progress))
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let ran: Vec<(Outcome, Vec<Exchange>)> = slots
        .into_iter()
        .zip(cases)
        .map(|(slot, case)| {
            let taken = slot.into_inner().unwrap_or_else(|p| p.into_inner());
            taken.unwrap_or_else(|| {
                let reason = "no instance of the implementation ran this case".into();
                (Outcome::new(case, Status::Error { reason }), Vec::new())
            })
        })
        .collect();
    let implementation = finished
        .iter()
        .find(|f| f.started)
        .or(finished.first())
        .map(|f| f.implementation.clone())
        .unwrap_or_else(Implementation::not_started);
    let mut transcripts = Vec::new();
    let instance = |index: usize| if count > 1 { format!(" of instance {}", index + 1) } else { String::new() };
    if transcript {
        for (index, f) in finished.iter().enumerate() {
            transcripts.push(Transcript { title: format!("start{}", instance(index)), exchanges: f.start.clone() });
        }
    }
    let mut outcomes = Vec::with_capacity(ran.len());
    for (outcome, exchanges) in ran {
        if transcript {
            transcripts.push(Transcript { title: outcome.id.clone(), exchanges });
        }
        outcomes.push(outcome);
    }
    if transcript {
        for (index, f) in finished.iter().enumerate() {
            transcripts.push(Transcript { title: format!("stop{}", instance(index)), exchanges: f.stop.clone() });
        }
    }
    Ran { run: Run { implementation, outcomes }, transcript: transcripts }
}

/// The cases not yet handed out, as one contiguous range of case indexes per instance.
///
/// An instance takes the first case of its own range; when that is empty, it takes over the second
/// half of the largest range left (all of it when one case is left). So every case is handed out
/// exactly once, an instance that never asks (one that did not start) leaves its share to the
/// others, and with one instance the cases go out in order.
pub(crate) struct Queue {
    ranges: Mutex<Vec<Range<usize>>>,
}

impl Queue {
    /// `cases` cases shared out among `instances` instances, in contiguous ranges of sizes that
    /// differ by at most one.
    pub(crate) fn new(cases: usize, instances: usize) -> Queue {
        let instances = instances.max(1);
        let ranges = (0..instances).map(|i| cases * i / instances..cases * (i + 1) / instances).collect();
        Queue { ranges: Mutex::new(ranges) }
    }

    /// The next case for instance `index`, or `None` when every case has been handed out.
    pub(crate) fn take(&self, index: usize) -> Option<usize> {
        let mut ranges = self.ranges.lock().unwrap_or_else(|p| p.into_inner());
        if ranges.get(index)?.is_empty() {
            let (victim, largest) = ranges.iter().enumerate().max_by_key(|(i, r)| (r.len(), std::cmp::Reverse(*i)))?;
            if largest.is_empty() {
                return None;
            }
            let middle = largest.start + largest.len() / 2;
            let stolen = middle..largest.end;
            ranges[victim].end = middle;
            ranges[index] = stolen;
        }
        let own = &mut ranges[index];
        let at = own.start;
        own.start += 1;
        Some(at)
    }
}

/// Where a case's outcome (and its exchanges) goes, whichever instance ran it.
type Slot = Mutex<Option<(Outcome, Vec<Exchange>)>>;

#[allow(clippy::too_many_arguments)]
fn worker(
    index: usize,
    instance: Instance,
    cases: &[&Case],
    slots: &[Slot],
    next: &Queue,
    started: &[Mutex<bool>],
    barrier: &Barrier,
    progress: &(dyn Fn(&Outcome) + Sync),
) -> Finished {
    let Instance { target, log } = instance;
    let take = |log: &Option<WireLog>| log.as_ref().map(WireLog::take).unwrap_or_default();
    let session = catch_unwind(AssertUnwindSafe(|| Session::start(target))).ok();
    let up = session.as_ref().is_some_and(|s| s.start_error().is_none());
    if let Ok(mut flag) = started[index].lock() {
        *flag = up;
    }
    let start = take(&log);
    barrier.wait();
    let any_up = started.iter().any(|f| f.lock().map(|f| *f).unwrap_or(false));
    let mut session = session;
    if up || (!any_up && index == 0) {
        while let Some(at) = next.take(index) {
            let Some(case) = cases.get(at) else { break };
            if let Some(log) = &log {
                log.begin_case();
            }
            let outcome = match session.as_mut() {
                Some(session) => catch_unwind(AssertUnwindSafe(|| session.run_case(case))).unwrap_or_else(|panic| {
                    Outcome::new(
                        case,
                        Status::Error { reason: format!("the target panicked: {}", panic_words(&panic)) },
                    )
                }),
                None => Outcome::new(case, Status::Error { reason: "the target panicked while starting".into() }),
            };
            let outcome = with_exchange(outcome, log.as_ref());
            progress(&outcome);
            let exchanges = take(&log);
            if let Ok(mut slot) = slots[at].lock() {
                *slot = Some((outcome, exchanges));
            }
        }
    }
    let implementation = match session {
        Some(session) => {
            catch_unwind(AssertUnwindSafe(|| session.finish())).unwrap_or_else(|_| Implementation::not_started())
        }
        None => Implementation::not_started(),
    };
    Finished { implementation, started: up, start, stop: take(&log) }
}

/// A failing outcome with the exchange that led to it.
fn with_exchange(mut outcome: Outcome, log: Option<&WireLog>) -> Outcome {
    if let (Status::Fail(failure), Some(log)) = (&mut outcome.status, log) {
        failure.exchange = report_lines(&log.current_case());
    }
    outcome
}

fn panic_words(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

#[cfg(test)]
mod tests {
    use super::Queue;

    /// Drains a queue with instances asking in the given order (cycled), giving what each took.
    fn drain(queue: &Queue, askers: &[usize], instances: usize) -> Vec<Vec<usize>> {
        let mut taken = vec![Vec::new(); instances];
        let mut done = vec![false; instances];
        for &index in askers.iter().cycle() {
            if done.iter().enumerate().all(|(i, d)| *d || !askers.contains(&i)) {
                break;
            }
            match queue.take(index) {
                Some(at) => taken[index].push(at),
                None => done[index] = true,
            }
        }
        taken
    }

    #[test]
    fn every_case_once_in_contiguous_shares() {
        let queue = Queue::new(10, 3);
        let taken = drain(&queue, &[0, 1, 2], 3);
        // Shares of 3, 3 and 4; asking in turns, instance 0 runs out first and takes the last case.
        assert_eq!(taken, vec![vec![0, 1, 2, 9], vec![3, 4, 5], vec![6, 7, 8]]);
    }

    #[test]
    fn one_instance_takes_the_cases_in_order() {
        let queue = Queue::new(5, 1);
        assert_eq!(drain(&queue, &[0], 1), vec![vec![0, 1, 2, 3, 4]]);
        assert_eq!(queue.take(0), None);
    }

    #[test]
    fn an_instance_that_never_asks_leaves_its_share_to_the_others() {
        let queue = Queue::new(12, 3);
        let taken = drain(&queue, &[0, 2], 3);
        let mut all: Vec<usize> = taken.concat();
        all.sort();
        assert_eq!(all, (0..12).collect::<Vec<_>>());
        assert!(taken[1].is_empty());
        // Instance 0 ran out first and took the second half of instance 1's share.
        assert_eq!(taken[0][..6], [0, 1, 2, 3, 6, 7]);
    }

    #[test]
    fn more_instances_than_cases() {
        let queue = Queue::new(2, 4);
        let mut all = drain(&queue, &[0, 1, 2, 3], 4).concat();
        all.sort();
        assert_eq!(all, vec![0, 1]);
        assert_eq!(Queue::new(0, 3).take(1), None);
    }
}
