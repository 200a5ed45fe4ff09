//! Protocol v1: the messages the harness exchanges with an implementation it reaches over stdio or
//! HTTP, as values, with their JSON forms. `docs/protocol.md` describes them in prose and
//! `schemas/protocol.schema.json` pins them as JSON Schema ([`crate::peer::protocol_schema`] checks a
//! message against it).
//!
//! Both ends use this module: the harness's client ([`crate::peer::remote`]) encodes a [`Request`] and
//! decodes the [`Answer`]; the reference behind the protocol ([`crate::serve`]) does the reverse.
//! Each message is one serde type (in `message`, below), read and written by both ends; a message
//! with a missing or mistyped field is a [`ProtocolError`] that names the field, never a panic.

use crate::case::tool::{Tool, Transport, View};
use crate::peer::{Implementation, Invocation};
use serde_json::Value;

/// The protocol version this module speaks.
pub const VERSION: u64 = 1;

/// The commands of protocol v1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Command {
    Start,
    Normalize,
    Register,
    Describe,
    Invoke,
    Stop,
}

impl Command {
    /// Every command, in the order a run uses them.
    pub const ALL: [Command; 6] =
        [Command::Start, Command::Normalize, Command::Register, Command::Describe, Command::Invoke, Command::Stop];
}

impl std::fmt::Display for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A request from the harness, without its `seq`.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Starts a session; the implementation answers with its description and claims.
    Start {
        /// The protocol version the harness speaks.
        protocol: u64,
    },
    /// RT-TOOL-8: the arguments that would reach a tool with this input schema.
    Normalize {
        /// The tool's input schema.
        input_schema: Value,
        /// The arguments as a model sent them.
        arguments: Value,
    },
    /// Replaces the whole registry with these tools.
    Register {
        /// The tools, each to get a recording handler.
        tools: Vec<Tool>,
    },
    /// The input schema a view publishes for a registered tool.
    Describe {
        /// The tool's name.
        tool: String,
        /// The view.
        view: View,
    },
    /// Calls a registered tool on a transport.
    Invoke {
        /// The tool's name.
        tool: String,
        /// The transport the call arrives on.
        transport: Transport,
        /// The arguments as a model sent them.
        arguments: Value,
    },
    /// Ends the session; the implementation answers, then exits.
    Stop,
}

/// An answer from the implementation, without its `seq`.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The answer to start.
    Started(Implementation),
    /// The answer to normalize: the arguments that reach the tool.
    Normalized(Value),
    /// `{"seq", "rejected": error}`, to normalize only: the runtime refused the arguments before
    /// any tool ran; `error` is the object it gave the caller.
    Refused(Value),
    /// The answer to register (`"ok": true`).
    Registered,
    /// The answer to describe: the published input schema.
    Described(Value),
    /// The answer to invoke: what the recording handler saw.
    Invoked(Invocation),
    /// `{"seq", "not_json": text}`, to normalize and invoke: the tool ran and received a value
    /// JSON cannot carry, which `text` renders ([`crate::TargetError::NotJson`]).
    NotJson(String),
    /// The answer to stop (`"ok": true`).
    Stopped,
    /// `{"seq", "unsupported": why}`: the command or its input is not supported.
    Unsupported(String),
    /// `{"seq", "error": message}`: the implementation could not carry out the command.
    Failed(String),
}

/// A message that does not follow protocol v1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// The message is not a JSON object.
    #[error("the message is not a JSON object")]
    NotAnObject,
    /// A required field is absent.
    #[error("the {message} has no `{field}`")]
    Missing {
        /// Which message.
        message: String,
        /// The field.
        field: String,
    },
    /// A field has the wrong type or value.
    #[error("the {message} has a bad `{field}`: {problem}")]
    Bad {
        /// Which message.
        message: String,
        /// The field.
        field: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A request names a command protocol v1 does not have.
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
}

impl Request {
    /// The request's command.
    pub fn command(&self) -> Command {
        match self {
            Request::Start { .. } => Command::Start,
            Request::Normalize { .. } => Command::Normalize,
            Request::Register { .. } => Command::Register,
            Request::Describe { .. } => Command::Describe,
            Request::Invoke { .. } => Command::Invoke,
            Request::Stop => Command::Stop,
        }
    }

    /// The request as a JSON object with this `seq`.
    pub fn to_json(&self, seq: u64) -> Value {
        serde_json::to_value(self.message(seq)).unwrap_or(Value::Null)
    }

    /// The request as compact JSON text with this `seq`: the text of [`Request::to_json`],
    /// written straight from the request, without building the JSON value first.
    pub fn to_json_text(&self, seq: u64) -> String {
        serde_json::to_string(&self.message(seq)).unwrap_or_default()
    }

    /// The request's message, borrowing from it.
    fn message(&self, seq: u64) -> message::Sent<'_, message::RequestBody<'_>> {
        use message::*;
        let body = match self {
            Request::Start { protocol } => RequestBody::Start(StartRequest { protocol: Unsigned(*protocol) }),
            Request::Normalize { input_schema, arguments } => {
                RequestBody::Normalize(NormalizeRequest { input_schema, arguments })
            }
            Request::Register { tools } => RequestBody::Register(RegisterRequest { tools }),
            Request::Describe { tool, view } => RequestBody::Describe(DescribeRequest { tool, view: Word(*view) }),
            Request::Invoke { tool, transport, arguments } => {
                RequestBody::Invoke(InvokeRequest { tool, transport: Word(*transport), arguments })
            }
            Request::Stop => RequestBody::Stop(StopRequest {}),
        };
        Sent { cmd: Some(self.command().as_str()), seq: Some(seq), body }
    }

    /// Reads a request: its `seq` and the request. An unknown `cmd` is
    /// [`ProtocolError::UnknownCommand`], which an implementation answers with `unsupported`.
    pub fn from_json(value: &Value) -> Result<(u64, Request), ProtocolError> {
        use message::*;
        if !value.is_object() {
            return Err(ProtocolError::NotAnObject);
        }
        let RequestHead { seq, cmd } = read(value, "request")?;
        let command = Command::named(&cmd.0).ok_or(ProtocolError::UnknownCommand(cmd.0))?;
        let message = format!("{command} request");
        let request = match command {
            Command::Start => {
                let StartRequest { protocol } = read(value, &message)?;
                Request::Start { protocol: protocol.0 }
            }
            Command::Normalize => {
                let NormalizeRequest { input_schema, arguments } = read(value, &message)?;
                Request::Normalize { input_schema, arguments }
            }
            Command::Register => {
                Request::Register { tools: read::<RegisterRequest<Vec<Tool>>>(value, &message)?.tools }
            }
            Command::Describe => {
                let DescribeRequest { tool, view } = read::<DescribeRequest<Text>>(value, &message)?;
                Request::Describe { tool: tool.0, view: view.0 }
            }
            Command::Invoke => {
                let InvokeRequest { tool, transport, arguments } = read::<InvokeRequest<Text, Value>>(value, &message)?;
                Request::Invoke { tool: tool.0, transport: transport.0, arguments }
            }
            Command::Stop => Request::Stop,
        };
        Ok((seq.0, request))
    }
}

impl Answer {
    /// The answer as a JSON object with this `seq` (`null` when the request had none).
    pub fn to_json(&self, seq: Option<u64>) -> Value {
        serde_json::to_value(self.message(seq)).unwrap_or(Value::Null)
    }

    /// The answer as compact JSON text with this `seq`: the text of [`Answer::to_json`].
    pub fn to_json_text(&self, seq: Option<u64>) -> String {
        serde_json::to_string(&self.message(seq)).unwrap_or_default()
    }

    /// The answer's message, borrowing from it.
    fn message(&self, seq: Option<u64>) -> message::Sent<'_, message::AnswerBody<'_>> {
        use message::*;
        let body = match self {
            Answer::Started(implementation) => AnswerBody::Started(StartedAnswer {
                protocol: Unsigned(VERSION),
                implementation: About {
                    name: &implementation.name,
                    version: &implementation.version,
                    language: implementation.language.as_deref(),
                    homepage: implementation.homepage.as_deref(),
                },
                rules: Words(implementation.rules.iter().map(String::as_str).collect()),
                transports: Words(implementation.transports.clone()),
                get_api_spec: (implementation.spec_pointer != crate::peer::DEFAULT_SPEC_POINTER)
                    .then_some(implementation.spec_pointer.as_str()),
            }),
            Answer::Normalized(arguments) => AnswerBody::Normalized(NormalizedAnswer { arguments }),
            Answer::Refused(rejected) => AnswerBody::Refused(RefusedAnswer { rejected: Object(rejected) }),
            Answer::Registered | Answer::Stopped => AnswerBody::Done(DoneAnswer { ok: True }),
            Answer::Described(input_schema) => AnswerBody::Described(DescribedAnswer { input_schema }),
            Answer::Invoked(Invocation::Executed { handler_calls, received }) => AnswerBody::Executed(ExecutedAnswer {
                outcome: Word(Outcome::Executed),
                handler_calls: Unsigned(*handler_calls),
                received,
            }),
            Answer::Invoked(Invocation::Rejected { handler_calls, error }) => AnswerBody::Rejected(RejectedAnswer {
                outcome: Word(Outcome::Rejected),
                handler_calls: Unsigned(*handler_calls),
                error: Object(error),
            }),
            // Protocol v1 has no unstructured rejection: written as the rejection it is, with
            // only its message, which the harness judges as an error without its other parts.
            Answer::Invoked(Invocation::RejectedUnstructured { handler_calls, message }) => {
                AnswerBody::RejectedText(RejectedAnswer {
                    outcome: Word(Outcome::Rejected),
                    handler_calls: Unsigned(*handler_calls),
                    error: Object(MessageOnly { message }),
                })
            }
            Answer::Unsupported(unsupported) => AnswerBody::Unsupported(UnsupportedAnswer { unsupported }),
            Answer::Failed(error) => AnswerBody::Failed(FailedAnswer { error }),
            Answer::NotJson(not_json) => AnswerBody::NotJson(NotJsonAnswer { not_json }),
        };
        Sent { cmd: None, seq, body }
    }

    /// Reads the answer to `command` (its `seq` is checked by the caller, with [`seq_of`]).
    pub fn from_json(command: Command, value: &Value) -> Result<Answer, ProtocolError> {
        use message::*;
        let object = value.as_object().ok_or(ProtocolError::NotAnObject)?;
        let message = format!("{command} response");
        if object.contains_key("unsupported") {
            return Ok(Answer::Unsupported(read::<UnsupportedAnswer<Text>>(value, &message)?.unsupported.0));
        }
        // An invoke's rejection carries an `error` object; a string `error` is a failure.
        if object.contains_key("error") && (command != Command::Invoke || object["error"].is_string()) {
            return Ok(Answer::Failed(read::<FailedAnswer<Text>>(value, &message)?.error.0));
        }
        if object.contains_key("not_json") && matches!(command, Command::Normalize | Command::Invoke) {
            return Ok(Answer::NotJson(read::<NotJsonAnswer<Text>>(value, &message)?.not_json.0));
        }
        Ok(match command {
            Command::Start => {
                // The version first: an answer in another version is read no further.
                let Spoken { protocol } = read(value, &message)?;
                if protocol.0 != VERSION {
                    let problem = format!("the implementation speaks {}; the harness speaks {VERSION}", protocol.0);
                    return Err(bad(&message, "protocol", problem));
                }
                if object.get("implementation").is_some_and(|about| !about.is_object()) {
                    return Err(bad(&message, "implementation", "it is not an object".into()));
                }
                let StartedAnswer { implementation, rules, transports, get_api_spec, .. } =
                    read::<StartedAnswer<Text, Words<String>, Words<Transport>>>(value, &message)?;
                let spec_pointer = match get_api_spec {
                    Some(pointer) => match crate::peer::spec_pointer_problem(&pointer.0) {
                        Some(problem) => return Err(bad(&message, "get_api_spec", problem)),
                        None => pointer.0,
                    },
                    None => crate::peer::DEFAULT_SPEC_POINTER.into(),
                };
                Answer::Started(Implementation {
                    name: implementation.name.0,
                    version: implementation.version.0,
                    language: implementation.language.map(|t| t.0),
                    homepage: implementation.homepage.map(|t| t.0),
                    rules: rules.0,
                    transports: transports.0,
                    tool_name: None,
                    answered: None,
                    spec_pointer,
                })
            }
            Command::Normalize if object.contains_key("rejected") => {
                Answer::Refused(read::<RefusedAnswer<Value>>(value, &message)?.rejected.0)
            }
            Command::Normalize => Answer::Normalized(read::<NormalizedAnswer<Value>>(value, &message)?.arguments),
            Command::Register => {
                read::<DoneAnswer>(value, &message)?;
                Answer::Registered
            }
            Command::Describe => Answer::Described(read::<DescribedAnswer<Value>>(value, &message)?.input_schema),
            Command::Invoke => {
                let InvokeHead { handler_calls, outcome } = read(value, &message)?;
                let handler_calls = handler_calls.0;
                match outcome.0 {
                    Outcome::Executed => {
                        let received = read::<ExecutedAnswer<Value>>(value, &message)?.received;
                        Answer::Invoked(Invocation::Executed { handler_calls, received })
                    }
                    Outcome::Rejected => {
                        let error = read::<RejectedAnswer<Value>>(value, &message)?.error.0;
                        Answer::Invoked(Invocation::Rejected { handler_calls, error })
                    }
                }
            }
            Command::Stop => {
                read::<DoneAnswer>(value, &message)?;
                Answer::Stopped
            }
        })
    }
}

/// Reads an answer's JSON text. A lone surrogate escape in it (a `\uD800`..`\uDBFF` not followed
/// by a low-surrogate escape, or a `\uDC00`..`\uDFFF` not preceded by a high one) is valid JSON
/// by RFC 8259's grammar but stands for no Unicode character, so it is read as its stand-in
/// ([`crate::json::surrogate::stand_in`]); paired escapes and everything else are read as they are.
pub fn parse_answer(text: &str) -> serde_json::Result<Value> {
    match with_stand_ins(text) {
        std::borrow::Cow::Borrowed(text) => crate::json::from_str(text),
        std::borrow::Cow::Owned(text) => crate::json::from_str(&text),
    }
}

/// The first key that an answer's JSON object (its top level) has twice, if any. A JSON reader
/// keeps either one of the two (this one keeps the last), so an answer with `seq` or
/// `arguments` twice says two things at once.
pub fn repeated_key(text: &str) -> Option<String> {
    /// The first key an object has twice, read by the strict parser.
    struct Repeated(Option<String>);
    struct Keys;
    impl<'de> serde::de::Visitor<'de> for Keys {
        type Value = Repeated;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Repeated, A::Error> {
            // Read to the end: a map left half read is an error.
            let (mut seen, mut repeated) = (std::collections::HashSet::new(), None);
            while let Some(key) = map.next_key::<String>()? {
                if seen.contains(&key) {
                    repeated.get_or_insert(key);
                } else {
                    seen.insert(key);
                }
                map.next_value::<serde::de::IgnoredAny>()?;
            }
            Ok(Repeated(repeated))
        }
    }
    impl<'de> serde::Deserialize<'de> for Repeated {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Repeated, D::Error> {
            deserializer.deserialize_map(Keys)
        }
    }
    crate::json::from_str::<Repeated>(&with_stand_ins(text)).ok().and_then(|r| r.0)
}

/// `text` with each lone surrogate escape replaced by its stand-in character (written as itself,
/// which a JSON string may hold). Text with no `\u` escape of a surrogate is returned as it is,
/// without being copied (an escaped backslash followed by `ud800` included). A backslash outside a string is left for the JSON parser to refuse.
pub fn with_stand_ins(text: &str) -> std::borrow::Cow<'_, str> {
    if !has_surrogate_escape(text) {
        return std::borrow::Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut copied, mut at) = (0, 0);
    while let Some(offset) = bytes[at..].iter().position(|&b| b == b'\\') {
        let start = at + offset;
        let unit = escaped_unit(bytes, start);
        at = match unit {
            Some(0xD800..=0xDBFF) if escaped_unit(bytes, start + 6).is_some_and(is_low) => start + 12,
            Some(unit @ 0xD800..=0xDFFF) => {
                out.push_str(&text[copied..start]);
                out.extend(crate::json::surrogate::stand_in(unit));
                copied = start + 6;
                start + 6
            }
            Some(_) => start + 6,
            // Any other escape is two characters: `\\` is one of them, so the `u` after it is
            // never read as an escape.
            None => start + 2,
        };
        at = at.min(bytes.len());
    }
    if copied == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    std::borrow::Cow::Owned(out)
}

/// Whether `text` has a `\u` followed by `d` and one of `8`..`f` (some escapes so found may be
/// an escaped backslash followed by `u`; [`with_stand_ins`] tells them apart).
fn has_surrogate_escape(text: &str) -> bool {
    text.match_indices("\\u").any(|(at, _)| {
        let rest = &text.as_bytes()[at + 2..];
        rest.len() >= 2
            && rest[0].eq_ignore_ascii_case(&b'd')
            && matches!(rest[1], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
    })
}

/// The code unit of the `\uXXXX` escape at `at`, or `None` when there is none there.
fn escaped_unit(bytes: &[u8], at: usize) -> Option<u16> {
    let escape = bytes.get(at..at + 6)?;
    if escape[0] != b'\\' || escape[1] != b'u' {
        return None;
    }
    let hex = std::str::from_utf8(&escape[2..]).ok()?;
    u16::from_str_radix(hex, 16).ok().filter(|_| hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_low(unit: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&unit)
}

/// The `seq` of a message: `Ok(None)` when it has none, `Err` when it is not a non-negative
/// integer.
pub fn seq_of(value: &Value) -> Result<Option<u64>, String> {
    match value.get("seq") {
        None | Some(Value::Null) => Ok(None),
        Some(seq) => seq.as_u64().map(Some).ok_or_else(|| format!("`seq` is {seq}, not a non-negative integer")),
    }
}

fn bad(message: &str, field: &str, problem: String) -> ProtocolError {
    ProtocolError::Bad { message: message.to_string(), field: field.to_string(), problem }
}

/// The messages of protocol v1 as serde types, one per message, which both ends read and write:
/// the harness writes requests and reads answers, `serve` does the reverse. A type's data is a
/// type parameter, so that a message is written borrowing from a [`Request`] or an [`Answer`]
/// and read into owned values.
///
/// A message is read straight from its JSON value, never through serde's internally tagged or
/// untagged enums or `flatten`, which buffer values and so lose arbitrary-precision numbers: which
/// message a value is, is decided by [`Request::from_json`] and [`Answer::from_json`]. The leaf
/// types ([`Unsigned`], [`Text`], [`Word`], ...) say what is wrong with a field in words a
/// [`ProtocolError`] quotes, and the field itself is found by `serde_path_to_error`.
mod message {
    use super::ProtocolError;
    use crate::case::tool::{Transport, View};
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::Value;

    /// A message as written: `cmd` (requests only), then `seq`, then the message's own fields.
    #[derive(Serialize)]
    pub(super) struct Sent<'a, B> {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub cmd: Option<&'a str>,
        /// Written even when it is `null` (an answer to a request without one).
        pub seq: Option<u64>,
        #[serde(flatten)]
        pub body: B,
    }

    /// The body of a request, written as the one message it holds (written only: never read).
    #[derive(Serialize)]
    #[serde(untagged)]
    pub(super) enum RequestBody<'a> {
        Start(StartRequest),
        Normalize(NormalizeRequest<&'a Value>),
        Register(RegisterRequest<&'a [crate::case::tool::Tool]>),
        Describe(DescribeRequest<&'a str>),
        Invoke(InvokeRequest<&'a str, &'a Value>),
        Stop(StopRequest),
    }

    /// The body of an answer, written as the one message it holds (written only: never read).
    #[derive(Serialize)]
    #[serde(untagged)]
    pub(super) enum AnswerBody<'a> {
        Started(StartedAnswer<&'a str, Words<&'a str>, Words<Transport>>),
        Normalized(NormalizedAnswer<&'a Value>),
        Refused(RefusedAnswer<&'a Value>),
        Done(DoneAnswer),
        Described(DescribedAnswer<&'a Value>),
        Executed(ExecutedAnswer<&'a Value>),
        Rejected(RejectedAnswer<&'a Value>),
        RejectedText(RejectedAnswer<MessageOnly<'a>>),
        Unsupported(UnsupportedAnswer<&'a String>),
        Failed(FailedAnswer<&'a String>),
        NotJson(NotJsonAnswer<&'a String>),
    }

    /// What every request has: `{"seq", "cmd"}`.
    #[derive(Deserialize)]
    pub(super) struct RequestHead {
        pub seq: Unsigned,
        pub cmd: Text,
    }

    /// `{"cmd": "start", "seq", "protocol"}`.
    #[derive(Serialize, Deserialize)]
    pub(super) struct StartRequest {
        pub protocol: Unsigned,
    }

    /// `{"cmd": "normalize", "seq", "input_schema", "arguments"}`.
    #[derive(Serialize, Deserialize)]
    pub(super) struct NormalizeRequest<V> {
        pub input_schema: V,
        pub arguments: V,
    }

    /// `{"cmd": "register", "seq", "tools"}`.
    #[derive(Serialize, Deserialize)]
    pub(super) struct RegisterRequest<T> {
        pub tools: T,
    }

    /// `{"cmd": "describe", "seq", "tool", "view"}`.
    #[derive(Serialize, Deserialize)]
    pub(super) struct DescribeRequest<S> {
        pub tool: S,
        pub view: Word<View>,
    }

    /// `{"cmd": "invoke", "seq", "tool", "transport", "arguments"}`.
    #[derive(Serialize, Deserialize)]
    pub(super) struct InvokeRequest<S, V> {
        pub tool: S,
        pub transport: Word<Transport>,
        pub arguments: V,
    }

    /// `{"cmd": "stop", "seq"}`.
    #[derive(Serialize, Deserialize)]
    pub(super) struct StopRequest {}

    /// The `protocol` a started answer speaks.
    #[derive(Deserialize)]
    pub(super) struct Spoken {
        pub protocol: Unsigned,
    }

    /// `{"seq", "protocol", "implementation", "rules", "transports"}`, the answer to start.
    #[derive(Serialize, Deserialize)]
    pub(super) struct StartedAnswer<S, R, T> {
        pub protocol: Unsigned,
        pub implementation: About<S>,
        pub rules: R,
        pub transports: T,
        /// What an HTTP error contains to point back to get_api_spec, when not the tool's name.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub get_api_spec: Option<S>,
    }

    /// The `implementation` of a started answer.
    #[derive(Serialize, Deserialize)]
    pub(super) struct About<S> {
        pub name: S,
        pub version: S,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub language: Option<S>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub homepage: Option<S>,
    }

    /// `{"seq", "arguments"}`, the answer to normalize.
    #[derive(Serialize, Deserialize)]
    pub(super) struct NormalizedAnswer<V> {
        pub arguments: V,
    }

    /// `{"seq", "rejected": error}`, normalize's refusal.
    #[derive(Serialize, Deserialize)]
    #[serde(bound(deserialize = "Object<V>: Deserialize<'de>"))]
    pub(super) struct RefusedAnswer<V> {
        pub rejected: Object<V>,
    }

    /// `{"seq", "ok": true}`, the answer to register and to stop.
    #[derive(Serialize, Deserialize)]
    pub(super) struct DoneAnswer {
        pub ok: True,
    }

    /// `{"seq", "input_schema"}`, the answer to describe.
    #[derive(Serialize, Deserialize)]
    pub(super) struct DescribedAnswer<V> {
        pub input_schema: V,
    }

    /// What every answer to invoke has: `{"handler_calls", "outcome"}`.
    #[derive(Deserialize)]
    pub(super) struct InvokeHead {
        pub handler_calls: Unsigned,
        pub outcome: Word<Outcome>,
    }

    /// `{"seq", "outcome": "executed", "handler_calls", "received"}`.
    #[derive(Serialize, Deserialize)]
    pub(super) struct ExecutedAnswer<V> {
        pub outcome: Word<Outcome>,
        pub handler_calls: Unsigned,
        pub received: V,
    }

    /// `{"seq", "outcome": "rejected", "handler_calls", "error"}`.
    #[derive(Serialize, Deserialize)]
    #[serde(bound(deserialize = "Object<V>: Deserialize<'de>"))]
    pub(super) struct RejectedAnswer<V> {
        pub outcome: Word<Outcome>,
        pub handler_calls: Unsigned,
        pub error: Object<V>,
    }

    /// `{"seq", "unsupported": why}`.
    #[derive(Serialize, Deserialize)]
    pub(super) struct UnsupportedAnswer<S> {
        pub unsupported: S,
    }

    /// `{"seq", "error": message}`.
    #[derive(Serialize, Deserialize)]
    pub(super) struct FailedAnswer<S> {
        pub error: S,
    }

    /// `{"seq", "not_json": text}`, to normalize and invoke.
    #[derive(Serialize, Deserialize)]
    pub(super) struct NotJsonAnswer<S> {
        pub not_json: S,
    }

    /// An invoke's `outcome`.
    #[derive(Clone, Copy)]
    pub(super) enum Outcome {
        Executed,
        Rejected,
    }

    /// Reads the message `T` from `value`; a field that is absent or wrong is named in the
    /// error, as a field of `message`.
    pub(super) fn read<'a, T: Deserialize<'a>>(value: &'a Value, message: &str) -> Result<T, ProtocolError> {
        serde_path_to_error::deserialize(value).map_err(|e| error(message, &e))
    }

    /// The [`ProtocolError`] of a message that could not be read, where the path names the field
    /// (a field of a nested object is named as a field of `<message>'s <object>`).
    fn error(message: &str, error: &serde_path_to_error::Error<serde_json::Error>) -> ProtocolError {
        use serde_path_to_error::Segment;
        let mut keys = Vec::new();
        let mut nested = false;
        for segment in error.path().iter() {
            match segment {
                Segment::Map { key } if !nested => keys.push(key.as_str()),
                _ => nested = true,
            }
        }
        // A path of object keys alone names the field (its last key) and the objects it is in; a
        // path into an array is named by the field that holds the array.
        let problem = error.inner().to_string();
        let missing =
            if nested { None } else { problem.strip_prefix("missing field `").and_then(|rest| rest.strip_suffix('`')) };
        let (owners, field): (&[&str], &str) = match (missing, keys.split_last()) {
            (Some(field), _) => (&keys, field),
            (None, Some((last, owners))) if !nested => (owners, last),
            (None, _) => (&[], keys.first().copied().unwrap_or(".")),
        };
        let message = owners.iter().fold(message.to_string(), |message, owner| format!("{message}'s {owner}"));
        match missing {
            Some(_) => ProtocolError::Missing { message, field: field.to_string() },
            None => ProtocolError::Bad { message, field: field.to_string(), problem },
        }
    }

    /// A field read as a JSON value and checked, with the problem in words when it fails.
    fn checked<'de, D: Deserializer<'de>, T>(
        deserializer: D,
        check: impl FnOnce(Value) -> Result<T, String>,
    ) -> Result<T, D::Error> {
        check(Value::deserialize(deserializer)?).map_err(D::Error::custom)
    }

    /// A non-negative integer.
    #[derive(Serialize)]
    #[serde(transparent)]
    pub(super) struct Unsigned(pub u64);

    impl<'de> Deserialize<'de> for Unsigned {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            checked(deserializer, |value| {
                value.as_u64().map(Unsigned).ok_or_else(|| format!("{value} is not a non-negative integer"))
            })
        }
    }

    /// A string.
    pub(super) struct Text(pub String);

    impl<'de> Deserialize<'de> for Text {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            checked(deserializer, |value| match value {
                Value::String(text) => Ok(Text(text)),
                other => Err(format!("{} is not a string", kind(&other))),
            })
        }
    }

    /// The error of a rejection that carries only its message, `{"message"}`.
    #[derive(Serialize)]
    pub(super) struct MessageOnly<'a> {
        pub message: &'a str,
    }

    /// A JSON object, as a value.
    #[derive(Serialize)]
    #[serde(transparent)]
    pub(super) struct Object<V>(pub V);

    impl<'de> Deserialize<'de> for Object<Value> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            checked(deserializer, |value| match value {
                Value::Object(_) => Ok(Object(value)),
                _ => Err("it is not an object".to_string()),
            })
        }
    }

    /// `true`, the `ok` of an answer.
    pub(super) struct True;

    impl Serialize for True {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_bool(true)
        }
    }

    impl<'de> Deserialize<'de> for True {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            checked(deserializer, |value| match value {
                Value::Bool(true) => Ok(True),
                other => Err(format!("{other} is not true")),
            })
        }
    }

    /// A value written as a word on the wire.
    pub(super) trait Spelled {
        fn word(&self) -> &str;
    }

    /// A value read from a word on the wire, with what is said of a word that names none.
    pub(super) trait Named: Sized {
        fn named(word: &str) -> Result<Self, String>;
    }

    impl Spelled for View {
        fn word(&self) -> &str {
            self.as_str()
        }
    }

    impl Named for View {
        fn named(word: &str) -> Result<Self, String> {
            View::named(word).ok_or_else(|| format!("{word:?} is not get_api_spec or direct"))
        }
    }

    impl Spelled for Transport {
        fn word(&self) -> &str {
            self.as_str()
        }
    }

    impl Named for Transport {
        fn named(word: &str) -> Result<Self, String> {
            Transport::named(word).ok_or_else(|| format!("{word:?} is not one of direct, structured, http"))
        }
    }

    impl Spelled for Outcome {
        fn word(&self) -> &str {
            match self {
                Outcome::Executed => "executed",
                Outcome::Rejected => "rejected",
            }
        }
    }

    impl Named for Outcome {
        fn named(word: &str) -> Result<Self, String> {
            match word {
                "executed" => Ok(Outcome::Executed),
                "rejected" => Ok(Outcome::Rejected),
                other => Err(format!("{other:?} is not \"executed\" or \"rejected\"")),
            }
        }
    }

    impl Named for String {
        fn named(word: &str) -> Result<Self, String> {
            Ok(word.to_string())
        }
    }

    impl Spelled for &str {
        fn word(&self) -> &str {
            self
        }
    }

    /// A word that names a `T`.
    pub(super) struct Word<T>(pub T);

    impl<T: Spelled> Serialize for Word<T> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_str(self.0.word())
        }
    }

    impl<'de, T: Named> Deserialize<'de> for Word<T> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let Text(word) = Text::deserialize(deserializer)?;
            T::named(&word).map(Word).map_err(D::Error::custom)
        }
    }

    /// An array of words, each naming a `T`.
    pub(super) struct Words<T>(pub Vec<T>);

    impl<T: Spelled> Serialize for Words<T> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(self.0.iter().map(Spelled::word))
        }
    }

    impl<'de, T: Named> Deserialize<'de> for Words<T> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            checked(deserializer, |value| {
                let Value::Array(items) = value else { return Err(format!("{} is not an array", kind(&value))) };
                let words = items
                    .iter()
                    .map(|item| item.as_str().ok_or_else(|| format!("it holds {}, not a string", kind(item))))
                    .collect::<Result<Vec<_>, _>>()?;
                words.into_iter().map(T::named).collect::<Result<_, _>>().map(Words)
            })
        }
    }

    /// A JSON value's kind, for messages.
    fn kind(value: &Value) -> &'static str {
        match value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stand_in(unit: u16) -> char {
        crate::json::surrogate::stand_in(unit).expect("a surrogate")
    }

    #[test]
    fn lone_surrogate_escapes_are_read_as_their_stand_ins() {
        let read = |text: &str| parse_answer(text).map_err(|e| e.to_string());
        // A pair stays a pair, in either case of hex digits.
        assert_eq!(read(r#""\ud83d\ude00""#), Ok(json!("😀")));
        assert_eq!(read(r#""\uD83D\uDE00""#), Ok(json!("😀")));
        // A high surrogate alone, at the end of a string.
        assert_eq!(read(r#"{"a":"x\ud800"}"#), Ok(json!({"a": format!("x{}", stand_in(0xD800))})));
        // A high surrogate followed by something other than a low one.
        assert_eq!(read(r#""\udbff\u0041""#), Ok(json!(format!("{}A", stand_in(0xDBFF)))));
        assert_eq!(read(r#""\ud800\ud800\udc00""#), Ok(json!(format!("{}𐀀", stand_in(0xD800)))));
        assert_eq!(read(r#""\ud800\n""#), Ok(json!(format!("{}\n", stand_in(0xD800)))));
        // A low surrogate alone.
        assert_eq!(read(r#""a\udc00b""#), Ok(json!(format!("a{}b", stand_in(0xDC00)))));
        assert_eq!(read(r#""\udfff\udfff""#), Ok(json!(format!("{0}{0}", stand_in(0xDFFF)))));
        // An escaped backslash followed by `ud800` is no escape of a surrogate.
        assert_eq!(read(r#""\\ud800""#), Ok(json!("\\ud800")));
        assert_eq!(read(r#""\\\ud800""#), Ok(json!(format!("\\{}", stand_in(0xD800)))));
        // In a key, too.
        assert_eq!(read(r#"{"\udc01":1}"#), Ok(json!({stand_in(0xDC01).to_string(): 1})));
        // What is not JSON stays not JSON.
        assert!(read(r#""\ud800"#).is_err());
        assert!(read(r#""\ud8"#).is_err());
        assert!(read(r#""\udxyz""#).is_err());
    }

    #[test]
    fn text_without_surrogate_escapes_is_not_copied() {
        for text in [r#"{"a":"\u00e9\\"}"#, r#""\u0041""#, r#""plain""#, r#""\\u""#, r#""\\ud800""#] {
            assert!(matches!(with_stand_ins(text), std::borrow::Cow::Borrowed(_)), "{text}");
        }
    }

    #[test]
    fn requests_round_trip() {
        let requests = [
            Request::Start { protocol: VERSION },
            Request::Normalize { input_schema: json!({"type": "object"}), arguments: json!({"a": "&amp;"}) },
            Request::Register {
                tools: vec![
                    Tool {
                        name: "t".into(),
                        description: Some("d".into()),
                        input_schema: json!({"z": 1, "a": [1.50]}),
                    },
                    Tool { name: "u\"é".into(), description: None, input_schema: json!(true) },
                ],
            },
            Request::Describe { tool: "t".into(), view: View::GetApiSpec },
            Request::Invoke { tool: "t".into(), transport: Transport::Http, arguments: json!({"b": 1}) },
            Request::Stop,
        ];
        for (seq, request) in requests.into_iter().enumerate() {
            let wire = request.to_json(seq as u64);
            assert_eq!(request.to_json_text(seq as u64), wire.to_string());
            assert_eq!(Request::from_json(&wire), Ok((seq as u64, request)));
        }
    }

    #[test]
    fn requests_read_name_the_field() {
        let read = |request: Value| Request::from_json(&request).unwrap_err().to_string();
        assert_eq!(read(json!({"cmd": "describe", "seq": 3, "tool": "t"})), "the describe request has no `view`");
        assert_eq!(
            read(json!({"cmd": "describe", "seq": 3, "tool": "t", "view": "side"})),
            "the describe request has a bad `view`: \"side\" is not get_api_spec or direct"
        );
        assert_eq!(
            read(json!({"cmd": "start", "seq": "0"})),
            "the request has a bad `seq`: \"0\" is not a non-negative integer"
        );
        assert_eq!(read(json!({"seq": 0})), "the request has no `cmd`");
        let error = read(json!({"cmd": "register", "seq": 1, "tools": [{"name": "t"}]}));
        assert!(error.starts_with("the register request has a bad `tools`: missing field `input_schema`"), "{error}");
        assert_eq!(Request::from_json(&json!([1])), Err(ProtocolError::NotAnObject));
    }

    #[test]
    fn numbers_cross_exactly_both_ways() {
        let text = r#"{"cmd":"normalize","seq":7,"input_schema":{"maximum":1.50},"arguments":{"n":100000000000000000000000000001,"e":1e400}}"#;
        let (seq, request) = Request::from_json(&crate::json::from_str(text).unwrap()).unwrap();
        assert_eq!(request.to_json_text(seq), text);
        let text =
            r#"{"seq":2,"outcome":"executed","handler_calls":1,"received":{"n":-0.0,"m":12345678901234567890123}}"#;
        let answer = Answer::from_json(Command::Invoke, &crate::json::from_str(text).unwrap()).unwrap();
        assert_eq!(answer.to_json_text(Some(2)), text);
        assert_eq!(answer.to_json(Some(2)).to_string(), text);
        assert_eq!(Answer::Failed("x".into()).to_json_text(None), r#"{"seq":null,"error":"x"}"#);
    }

    #[test]
    fn answers_round_trip() {
        let answers = [
            (
                Command::Start,
                Answer::Started(Implementation {
                    name: "x".into(),
                    version: "1".into(),
                    language: Some("py".into()),
                    homepage: None,
                    rules: vec!["RT-TOOL-8".into()],
                    transports: vec![Transport::Direct],
                    tool_name: None,
                    answered: None,
                    spec_pointer: crate::peer::DEFAULT_SPEC_POINTER.into(),
                }),
            ),
            (
                Command::Start,
                Answer::Started(Implementation {
                    name: "x".into(),
                    version: "1".into(),
                    language: None,
                    homepage: None,
                    rules: vec!["PLAT-162".into()],
                    transports: vec![Transport::Http],
                    tool_name: None,
                    answered: None,
                    spec_pointer: "GET /v1/spec".into(),
                }),
            ),
            (Command::Normalize, Answer::Normalized(json!({"a": 1}))),
            (Command::Normalize, Answer::Refused(json!({"message": "m", "detail": [1]}))),
            (Command::Register, Answer::Registered),
            (Command::Describe, Answer::Described(json!({"type": "object"}))),
            (Command::Invoke, Answer::Invoked(Invocation::Executed { handler_calls: 1, received: json!({}) })),
            (
                Command::Invoke,
                Answer::Invoked(Invocation::Rejected { handler_calls: 0, error: json!({"message": "m"}) }),
            ),
            (Command::Stop, Answer::Stopped),
            (Command::Invoke, Answer::Unsupported("no".into())),
            (Command::Describe, Answer::Failed("broke".into())),
            (Command::Normalize, Answer::NotJson("{'a': nan} (Python's repr)".into())),
            (Command::Invoke, Answer::NotJson("{'a': inf}".into())),
        ];
        for (command, answer) in answers {
            let wire = answer.to_json(Some(3));
            assert_eq!(seq_of(&wire), Ok(Some(3)));
            assert_eq!(Answer::from_json(command, &wire), Ok(answer));
        }
    }

    #[test]
    fn bad_answers_name_the_field() {
        let error = Answer::from_json(Command::Normalize, &json!({"seq": 1})).unwrap_err();
        assert_eq!(error.to_string(), "the normalize response has no `arguments`");
        let error = Answer::from_json(Command::Normalize, &json!({"seq": 1, "rejected": "no"})).unwrap_err();
        assert!(error.to_string().contains("`rejected`"), "{error}");
        // Only normalize may refuse: elsewhere `rejected` is no answer at all.
        let error = Answer::from_json(Command::Describe, &json!({"seq": 1, "rejected": {"message": "m"}})).unwrap_err();
        assert_eq!(error.to_string(), "the describe response has no `input_schema`");
        let error = Answer::from_json(Command::Invoke, &json!({"seq": 1, "outcome": "executed"})).unwrap_err();
        assert_eq!(error.to_string(), "the invoke response has no `handler_calls`");
        let error = Answer::from_json(
            Command::Start,
            &json!({"seq": 0, "protocol": 2, "implementation": {}, "rules": [], "transports": []}),
        )
        .unwrap_err();
        assert!(error.to_string().contains("speaks 2"), "{error}");
        assert_eq!(seq_of(&json!({"seq": -1})).unwrap_err(), "`seq` is -1, not a non-negative integer");
        let started = |about: Value, transports: Value| {
            let answer =
                json!({"seq": 0, "protocol": 1, "implementation": about, "rules": [], "transports": transports});
            Answer::from_json(Command::Start, &answer).unwrap_err().to_string()
        };
        assert_eq!(started(json!({"version": "1"}), json!([])), "the start response's implementation has no `name`");
        assert_eq!(
            started(json!({"name": "x", "version": 1}), json!([])),
            "the start response's implementation has a bad `version`: a number is not a string"
        );
        assert_eq!(
            started(json!("x"), json!([])),
            "the start response has a bad `implementation`: it is not an object"
        );
        assert_eq!(
            started(json!({"name": "x", "version": "1"}), json!(["direct", 3])),
            "the start response has a bad `transports`: it holds a number, not a string"
        );
        assert_eq!(
            started(json!({"name": "x", "version": "1"}), json!(["pigeon"])),
            "the start response has a bad `transports`: \"pigeon\" is not one of direct, structured, http"
        );
        let pointed = |pointer: Value| {
            let answer = json!({"seq": 0, "protocol": 1, "implementation": {"name": "x", "version": "1"},
                "rules": [], "transports": [], "get_api_spec": pointer});
            Answer::from_json(Command::Start, &answer).map_err(|e| e.to_string())
        };
        assert_eq!(pointed(json!("")).unwrap_err(), "the start response has a bad `get_api_spec`: it is empty");
        assert!(pointed(json!(3)).unwrap_err().starts_with("the start response has a bad `get_api_spec`"));
        assert_eq!(
            pointed(json!("x".repeat(513))).unwrap_err(),
            "the start response has a bad `get_api_spec`: it is longer than 512 characters"
        );
        let Ok(Answer::Started(declared)) = pointed(json!("/v1/spec")) else { panic!("a pointer is read") };
        assert_eq!(declared.spec_pointer, "/v1/spec");
        let invoked = |answer: Value| Answer::from_json(Command::Invoke, &answer).unwrap_err().to_string();
        assert_eq!(
            invoked(json!({"seq": 1, "outcome": "maybe", "handler_calls": 0})),
            "the invoke response has a bad `outcome`: \"maybe\" is not \"executed\" or \"rejected\""
        );
        assert_eq!(
            invoked(json!({"seq": 1, "outcome": "rejected", "handler_calls": 1.5, "error": {}})),
            "the invoke response has a bad `handler_calls`: 1.5 is not a non-negative integer"
        );
        assert_eq!(
            invoked(json!({"seq": 1, "outcome": "rejected", "handler_calls": 0})),
            "the invoke response has no `error`"
        );
        assert_eq!(
            Answer::from_json(Command::Stop, &json!({"seq": 1, "ok": false})).unwrap_err().to_string(),
            "the stop response has a bad `ok`: false is not true"
        );
        assert_eq!(
            Answer::from_json(Command::Describe, &json!({"seq": 1, "error": 7})).unwrap_err().to_string(),
            "the describe response has a bad `error`: a number is not a string"
        );
        assert_eq!(
            Request::from_json(&json!({"seq": 1, "cmd": "dance"})),
            Err(ProtocolError::UnknownCommand("dance".into()))
        );
    }
}

crate::case::words::words! { Command { Start => "start", Normalize => "normalize", Register => "register", Describe => "describe", Invoke => "invoke", Stop => "stop" } }
