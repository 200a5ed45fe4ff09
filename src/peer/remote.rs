//! An implementation reached through protocol v1, as a [`Target`]: [`Remote`] speaks the protocol
//! over any [`Channel`] (a process's stdin and stdout, HTTP, or an in-process server) and turns
//! every way the implementation can break into a [`TargetError`] with an actionable reason.
//!
//! For each command it numbers the request, sends it, waits at most the configured timeout, and
//! reads the answer: unreadable bytes, JSON that is not an object, a wrong `seq`, a schema
//! violation (with `--validate-protocol`) or a missing field each become
//! [`TargetError::Broken`], whose reason says what happened, what was sent (truncated), what came
//! back, the implementation's last stderr lines (when it had to be ended) and the earlier
//! exchanges of the case.
//! `{"unsupported": why}` becomes [`TargetError::Unsupported`]. A lone surrogate escape in an
//! answer is valid JSON, and is read as its stand-in ([`protocol::parse_answer`]).
//!
//! Reasons are the same whichever instance ran the case and whatever it ran before (so reports
//! are deterministic under `--jobs` and over several `--http` URLs): each `seq` in them is
//! numbered from the case's first request ([`crate::peer::transcript::renumbered`]), the implementation
//! is named without anything that changes from one run to the next (a URL's port), and stderr
//! lines are quoted only once the process was ended, so that all it wrote is there, and only
//! those it wrote since the case began.
//!
//! After a crash, a timeout, or a response that leaves a byte stream out of step, the
//! implementation is restarted before the next command: started again, and given the tools that
//! were registered, so the runner never notices. Restarts are bounded ([`Limits::restarts`]);
//! when they are used up, or a restart fails, every later command fails at once with why the
//! implementation can no longer be started.

use crate::case::tool::{Tool, Transport, View};
use crate::peer::lifecycle::{Lifecycle, State};
use crate::peer::protocol::{self, Answer, Command, Request};
use crate::peer::protocol_schema::ProtocolSchema;
use crate::peer::spec::Limits;
use crate::peer::transcript::{Exchange, Received, WireLog, renumbered, report_lines, truncate};
use crate::peer::{Implementation, Invocation, Target, TargetError};
use serde_json::Value;
use std::time::{Duration, Instant};

/// How much of a request or response an error reason quotes.
const QUOTED_CHARS: usize = 400;

/// One way to exchange protocol messages with an implementation.
pub trait Channel: Send {
    /// Starts the implementation (or gets ready to reach it). Called before the first request,
    /// and again after [`Channel::close`] for a restart.
    fn open(&mut self) -> Result<(), ChannelError>;

    /// Sends one request (JSON text, without a newline) and returns the response's bytes, waiting
    /// at most `timeout`.
    fn exchange(&mut self, request: &[u8], timeout: Duration) -> Result<Vec<u8>, ChannelError>;

    /// Ends the implementation at once (a process is killed). Does nothing when it is not open.
    fn close(&mut self);

    /// Ends the implementation after `stop` was answered: it gets `grace` to exit by itself.
    fn finish(&mut self, grace: Duration) {
        let _ = grace;
        self.close();
    }

    /// The last lines the implementation wrote to stderr, when the channel can see them.
    fn stderr_tail(&self) -> Option<Vec<String>> {
        None
    }

    /// Whether the channel is a byte stream, which a response that cannot be matched to its
    /// request leaves out of step (so the implementation must be restarted).
    fn is_stream(&self) -> bool;

    /// The implementation, for messages: its command line, or how it is reached. The same in
    /// every run of the same implementation (no port, no process id).
    fn describe(&self) -> String;

    /// Marks the start of a case: [`Channel::stderr_tail`] holds only lines written after it.
    fn mark_case(&mut self) {}
}

/// Why a channel could not deliver a response.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChannelError {
    /// The implementation could not be started or reached.
    #[error("could not start or reach the implementation: {0}")]
    Unreachable(String),
    /// No response within the timeout.
    #[error("no response within {0:?}")]
    Timeout(Duration),
    /// The process exited.
    #[error("the implementation exited ({0})")]
    Exited(String),
    /// The process closed its stdout but did not exit.
    #[error("the implementation closed its stdout")]
    ClosedOutput,
    /// The response is longer than the cap.
    #[error("the response is longer than {0} bytes (the cap; it was not read further)")]
    TooLarge(usize),
    /// Reading or writing failed.
    #[error("{0}")]
    Io(String),
    /// An HTTP response with a status other than 200.
    #[error("HTTP status {status}: {body}")]
    Status {
        /// The status code.
        status: u16,
        /// The start of the body.
        body: String,
    },
}

impl ChannelError {
    /// Whether the implementation must be restarted before it can be used again.
    fn needs_restart(&self) -> bool {
        !matches!(self, ChannelError::Status { .. })
    }
}

/// A failed exchange, before it is turned into a reason.
struct Trouble {
    what: String,
    sent: String,
    received: Option<String>,
    restart: bool,
    /// Whether the failed exchange was recorded among the case's exchanges.
    recorded: bool,
}

/// A [`Target`] reached through protocol v1 over a [`Channel`].
pub struct Remote<C: Channel> {
    channel: C,
    limits: Limits,
    schema: Option<ProtocolSchema>,
    log: WireLog,
    seq: u64,
    life: Lifecycle,
    registered: Option<Vec<Tool>>,
    /// The last request sent, as JSON text.
    last_sent: String,
    /// The case count of the log when this remote last saw it ([`WireLog::cases_begun`]).
    case: u64,
    /// The seq of the current case's first request: seqs in reasons and reports are relative
    /// to it.
    base: u64,
    /// Whether exchanges are kept from the case's reports (a restart at the start of a case,
    /// which a break in the case before left to it).
    quiet: bool,
    /// The last register exchange, as the first of a case shows it.
    register_exchange: Option<Exchange>,
}

impl<C: Channel> Remote<C> {
    /// A remote over `channel`, within `limits`, recording into `log`.
    pub fn new(channel: C, limits: Limits, log: WireLog) -> Remote<C> {
        Remote {
            channel,
            limits,
            schema: None,
            log,
            seq: 0,
            life: Lifecycle::new(),
            registered: None,
            last_sent: String::new(),
            case: 0,
            base: 0,
            quiet: false,
            register_exchange: None,
        }
    }

    /// Checks every message against `schemas/protocol.schema.json` (`--validate-protocol`).
    pub fn validating(mut self, schema: ProtocolSchema) -> Remote<C> {
        self.schema = Some(schema);
        self
    }

    /// The wire log this remote records into.
    pub fn log(&self) -> &WireLog {
        &self.log
    }

    /// How many times the implementation was restarted.
    pub fn restarts(&self) -> u32 {
        self.life.restarts
    }

    /// Sends one request and reads its answer, recording the exchange.
    fn exchange(&mut self, request: &Request, timeout: Duration) -> Result<Answer, Trouble> {
        let command = request.command();
        let seq = self.seq;
        self.seq += 1;
        // Written straight from the request (the text of its JSON value, without the value).
        let sent = request.to_json_text(seq);
        self.last_sent.clone_from(&sent);
        let recorded = !self.quiet;
        let trouble = |what: String, received: Option<String>, restart: bool| Trouble {
            what,
            sent: sent.clone(),
            received,
            restart,
            recorded,
        };
        if let Some(schema) = &self.schema {
            if let Err(violation) = schema.check_request(command, &request.to_json(seq)) {
                let violation = self.seq_words_relative(&violation.to_string(), seq);
                return Err(Trouble {
                    recorded: false,
                    ..trouble(format!("the harness built a bad request (a bug of the suite): {violation}"), None, false)
                });
            }
        }
        let began = Instant::now();
        let result = self.channel.exchange(sent.as_bytes(), timeout);
        let elapsed = began.elapsed();
        let bytes = match result {
            Ok(bytes) => {
                // Valid UTF-8, the common case, is checked with the fast validator.
                let text = match std::str::from_utf8(&bytes) {
                    Ok(text) => std::borrow::Cow::Borrowed(text),
                    Err(_) => String::from_utf8_lossy(&bytes),
                };
                self.record(command, &sent, Ok(&text), elapsed);
                bytes
            }
            Err(error) => {
                let what = match &error {
                    ChannelError::Timeout(_) => format!("{command} timed out: {error}"),
                    _ => format!("{command} failed: {error}"),
                };
                self.record(command, &sent, Err(&what), elapsed);
                return Err(trouble(what, None, error.needs_restart()));
            }
        };
        let stream = self.channel.is_stream();
        let text = match std::str::from_utf8(&bytes) {
            Ok(text) => text,
            Err(e) => {
                let what = format!("the {command} response is not UTF-8 (invalid bytes at offset {})", e.valid_up_to());
                return Err(trouble(what, Some(String::from_utf8_lossy(&bytes).into_owned()), stream));
            }
        };
        let quoted = || Some(text.to_string());
        let value: Value = match protocol::parse_answer(text) {
            Ok(value) => value,
            Err(e) => return Err(trouble(format!("the {command} response is not JSON ({e})"), quoted(), stream)),
        };
        if !value.is_object() {
            return Err(trouble(format!("the {command} response is JSON but not an object"), quoted(), stream));
        }
        if let Some(key) = protocol::repeated_key(text) {
            let what = format!("the {command} response has the key {key:?} twice (a reader may keep either)");
            return Err(trouble(what, quoted(), stream));
        }
        match protocol::seq_of(&value) {
            Ok(Some(got)) if got == seq => {}
            Ok(Some(got)) => {
                let (got, seq) = (self.relative(got), self.relative(seq));
                let what = format!("the {command} response has seq {got}, but the request had seq {seq}");
                return Err(trouble(what, quoted(), stream));
            }
            Ok(None) => {
                let seq = self.relative(seq);
                let what = format!("the {command} response has no seq (the request had seq {seq})");
                return Err(trouble(what, quoted(), stream));
            }
            Err(problem) => return Err(trouble(format!("the {command} response's {problem}"), quoted(), stream)),
        }
        if let Some(schema) = &self.schema {
            if let Err(violation) = schema.check_response(command, &value) {
                return Err(trouble(self.seq_words_relative(&violation.to_string(), seq), quoted(), false));
            }
        }
        Answer::from_json(command, &value).map_err(|e| trouble(e.to_string(), quoted(), false))
    }

    /// The reason for a trouble: what happened, what was sent and received, the last stderr
    /// lines, and the earlier exchanges of the case.
    fn reason(&self, trouble: &Trouble) -> String {
        let sent = renumbered(&trouble.sent, self.base);
        let mut reason = format!("{}.\n  sent: {}", trouble.what, truncate(&sent, QUOTED_CHARS));
        if let Some(received) = &trouble.received {
            let received = renumbered(received, self.base);
            reason.push_str(&format!("\n  received: {}", truncate(&received, QUOTED_CHARS)));
        }
        reason.push_str(&format!("\n  implementation: {}", self.channel.describe()));
        if trouble.restart {
            // The process was ended, so all it wrote to stderr has been read.
            reason.push_str(&self.stderr_words());
        }
        let mut earlier = self.log.current_case();
        if trouble.recorded {
            earlier.pop(); // the failed exchange itself, quoted above
        }
        if !earlier.is_empty() {
            reason.push_str("\n  earlier in this case:");
            for line in report_lines(&earlier) {
                reason.push_str(&format!("\n    {line}"));
            }
        }
        reason
    }

    /// What the implementation wrote to stderr during this case, as reason lines (nothing when
    /// the channel cannot see its stderr).
    fn stderr_words(&self) -> String {
        match self.channel.stderr_tail() {
            Some(lines) if lines.is_empty() => "\n  it wrote nothing to stderr in this case".into(),
            Some(lines) => {
                let mut words = String::from("\n  its last stderr lines in this case:");
                for line in lines {
                    words.push_str(&format!("\n    | {line}"));
                }
                words
            }
            None => String::new(),
        }
    }

    /// `seq` relative to the current case's first request, as reasons show it.
    fn relative(&self, seq: u64) -> i128 {
        i128::from(seq) - i128::from(self.base)
    }

    /// A schema violation's words with the message's `(seq N)` relative to the case.
    fn seq_words_relative(&self, words: &str, seq: u64) -> String {
        words.replacen(&format!("(seq {seq})"), &format!("(seq {})", self.relative(seq)), 1)
    }

    /// Records one exchange, whose response is `Ok(text)` or `Err(what happened instead)`: as
    /// it went for the transcript, and renumbered for the case's reports unless
    /// [`Remote::quiet`]. A register exchange is kept, as the first of a case would show it, for
    /// cases that use what it registered.
    fn record(&mut self, command: Command, sent: &str, received: Result<&str, &str>, elapsed: Duration) {
        let cap = crate::peer::transcript::TRANSCRIPT_MESSAGE_CHARS;
        // Renumbered before being cut, so that a cut message says the same length in every run.
        let exchange = |edit: &dyn Fn(&str) -> String| Exchange {
            sent: edit(sent),
            received: match received {
                Ok(text) => Received::Response(edit(text)),
                Err(why) => Received::Nothing(why.to_string()),
            },
            elapsed,
        };
        let for_reports = |base: u64| exchange(&|text| truncate(&renumbered(text, base), cap));
        let case = (!self.quiet).then(|| for_reports(self.base));
        if command == Command::Register {
            self.register_exchange = Some(for_reports(self.seq - 1));
        }
        self.log.record(|| exchange(&|text| truncate(text, cap)), case);
    }

    /// Makes the registration just answered the one in effect, for later cases.
    fn registration_in_effect(&mut self) {
        self.log.set_registration(self.register_exchange.take());
    }

    /// Called before each command: when a new case has begun, its seqs are numbered from here,
    /// and a restart it needs first (left by a break in an earlier case) is kept from its
    /// reports.
    fn ensure_up_for_case(&mut self) -> Result<(), TargetError> {
        let begun = self.log.cases_begun();
        if begun == self.case {
            return self.ensure_up();
        }
        self.case = begun;
        self.base = self.seq;
        self.quiet = true;
        let up = self.ensure_up();
        self.quiet = false;
        self.base = self.seq;
        self.channel.mark_case();
        up
    }

    /// Turns a trouble into a target error, closing the implementation when it must restart.
    fn broken(&mut self, trouble: Trouble) -> TargetError {
        if trouble.restart {
            self.channel.close();
            self.life.state = State::NeedsRestart(trouble.what.clone());
        }
        TargetError::Broken(self.reason(&trouble))
    }

    /// Opens the channel and starts a session.
    fn open_and_start(&mut self) -> Result<Implementation, TargetError> {
        if let Err(error) = self.channel.open() {
            let mut reason = format!("{error}\n  implementation: {}", self.channel.describe());
            if let Some(lines) = self.channel.stderr_tail().filter(|l| !l.is_empty()) {
                reason.push_str("\n  its last stderr lines:");
                for line in lines {
                    reason.push_str(&format!("\n    | {line}"));
                }
            }
            return Err(TargetError::Broken(reason));
        }
        match self.exchange(&Request::Start { protocol: protocol::VERSION }, self.limits.start_timeout) {
            Ok(Answer::Started(implementation)) => Ok(implementation),
            Ok(other) => {
                let what = format!("start was answered with {}", answer_words(&other));
                let sent = self.last_sent.clone();
                let trouble = Trouble { what, sent, received: None, restart: true, recorded: !self.quiet };
                Err(self.broken(trouble))
            }
            Err(mut trouble) => {
                trouble.restart = true;
                Err(self.broken(trouble))
            }
        }
    }

    /// Makes sure the implementation is up: restarts it when it broke, within the budget.
    fn ensure_up(&mut self) -> Result<(), TargetError> {
        let Some(last) = self.life.restart_due(self.limits.restarts)? else {
            return Ok(());
        };
        self.channel.close();
        let restarted = self.open_and_start().and_then(|_| match self.registered.clone() {
            Some(tools) => self.register_now(&tools),
            None => Ok(()),
        });
        match restarted {
            Ok(()) => {
                self.life.state = State::Up;
                Ok(())
            }
            Err(error) => {
                let why = format!(
                    "restart {} failed: {}",
                    self.life.restarts,
                    error.to_string().lines().next().unwrap_or_default()
                );
                self.channel.close();
                self.life.state = State::Dead(why);
                Err(TargetError::Broken(format!("the implementation could not be restarted after: {last}\n{error}")))
            }
        }
    }

    /// One command: the implementation up, the request sent, the answer read.
    fn call(&mut self, request: Request) -> Result<Answer, TargetError> {
        self.ensure_up_for_case()?;
        if matches!(request, Request::Describe { .. } | Request::Invoke { .. }) {
            // Tools an earlier case registered on this instance: shown as this case's first
            // exchange, as on an instance where this case registered them itself.
            if self.log.carry_registration() {
                self.base = self.base.saturating_sub(1);
            }
        }
        match self.exchange(&request, self.limits.timeout) {
            Ok(Answer::Unsupported(why)) => Err(TargetError::Unsupported(why)),
            Ok(Answer::Failed(message)) => {
                let sent = self.last_sent.clone();
                let what = format!("the implementation answered {} with an error: {message}", request.command());
                Err(self.broken(Trouble { what, sent, received: None, restart: false, recorded: true }))
            }
            Ok(answer) => Ok(answer),
            Err(trouble) => Err(self.broken(trouble)),
        }
    }

    fn register_now(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
        match self.exchange(&Request::Register { tools: tools.to_vec() }, self.limits.timeout) {
            Ok(Answer::Registered) => {
                self.registration_in_effect();
                Ok(())
            }
            Ok(other) => Err(TargetError::Broken(format!("register was answered with {}", answer_words(&other)))),
            Err(trouble) => Err(self.broken(trouble)),
        }
    }
}

/// An answer of the wrong kind, in words.
fn answer_words(answer: &Answer) -> String {
    match answer {
        Answer::Unsupported(why) => format!("unsupported: {why}"),
        Answer::Failed(message) => format!("an error: {message}"),
        other => format!("{other:?}"),
    }
}

/// The answer was of another kind than the command's (cannot happen with [`Answer::from_json`],
/// which decodes by command; reported rather than trusted).
fn unexpected(command: Command, answer: Answer) -> TargetError {
    TargetError::Broken(format!("the {command} response was read as {}", answer_words(&answer)))
}

impl<C: Channel> Target for Remote<C> {
    fn start(&mut self) -> Result<Implementation, TargetError> {
        let implementation = self.open_and_start()?;
        self.life.state = State::Up;
        Ok(implementation)
    }

    fn normalize(&mut self, input_schema: &Value, arguments: &Value) -> Result<Value, TargetError> {
        match self.call(Request::Normalize { input_schema: input_schema.clone(), arguments: arguments.clone() })? {
            Answer::Normalized(arguments) => Ok(arguments),
            Answer::Refused(error) => Err(TargetError::Refused(error)),
            Answer::NotJson(text) => Err(TargetError::NotJson(text)),
            other => Err(unexpected(Command::Normalize, other)),
        }
    }

    fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
        self.registered = None;
        self.log.set_registration(None);
        match self.call(Request::Register { tools: tools.to_vec() })? {
            Answer::Registered => {
                self.registered = Some(tools.to_vec());
                self.registration_in_effect();
                Ok(())
            }
            other => Err(unexpected(Command::Register, other)),
        }
    }

    fn describe(&mut self, tool: &str, view: View) -> Result<Value, TargetError> {
        match self.call(Request::Describe { tool: tool.to_string(), view })? {
            Answer::Described(schema) => Ok(schema),
            other => Err(unexpected(Command::Describe, other)),
        }
    }

    fn invoke(&mut self, tool: &str, transport: Transport, arguments: &Value) -> Result<Invocation, TargetError> {
        match self.call(Request::Invoke { tool: tool.to_string(), transport, arguments: arguments.clone() })? {
            Answer::Invoked(invocation) => Ok(invocation),
            Answer::NotJson(text) => Err(TargetError::NotJson(text)),
            other => Err(unexpected(Command::Invoke, other)),
        }
    }

    fn stop(&mut self) -> Result<(), TargetError> {
        if self.life.state != State::Up {
            self.channel.close();
            return Ok(());
        }
        let result = self.exchange(&Request::Stop, self.limits.timeout);
        self.life.state = State::NotStarted;
        match result {
            Ok(_) => {
                self.channel.finish(Duration::from_secs(2));
                Ok(())
            }
            Err(trouble) => {
                self.channel.close();
                Err(TargetError::Broken(self.reason(&trouble)))
            }
        }
    }
}

impl<C: Channel> Drop for Remote<C> {
    fn drop(&mut self) {
        self.channel.close();
    }
}
