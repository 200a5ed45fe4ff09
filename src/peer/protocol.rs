//! Protocol v1: the messages the harness exchanges with an implementation it reaches over stdio or
//! HTTP, as values, with their JSON forms. `docs/protocol.md` describes them in prose and
//! `schemas/protocol.schema.json` pins them as JSON Schema ([`crate::peer::protocol_schema`] checks a
//! message against it).
//!
//! Both ends use this module: the harness's client ([`crate::peer::remote`]) encodes a [`Request`] and
//! decodes the [`Answer`]; the reference behind the protocol ([`crate::serve`]) does the reverse.
//! Decoding is done field by field, so a message with a missing or mistyped field is a
//! [`ProtocolError`] that names the field, never a panic.

use crate::case::tool::{Tool, Transport, View};
use crate::peer::{Implementation, Invocation};
use serde_json::{Map, Value, json};

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
        let mut map = Map::new();
        map.insert("cmd".into(), json!(self.command().as_str()));
        map.insert("seq".into(), json!(seq));
        match self {
            Request::Start { protocol } => {
                map.insert("protocol".into(), json!(protocol));
            }
            Request::Normalize { input_schema, arguments } => {
                map.insert("input_schema".into(), input_schema.clone());
                map.insert("arguments".into(), arguments.clone());
            }
            Request::Register { tools } => {
                map.insert("tools".into(), serde_json::to_value(tools).unwrap_or(Value::Null));
            }
            Request::Describe { tool, view } => {
                map.insert("tool".into(), json!(tool));
                map.insert("view".into(), json!(view.as_str()));
            }
            Request::Invoke { tool, transport, arguments } => {
                map.insert("tool".into(), json!(tool));
                map.insert("transport".into(), json!(transport.as_str()));
                map.insert("arguments".into(), arguments.clone());
            }
            Request::Stop => {}
        }
        Value::Object(map)
    }

    /// The request as compact JSON text with this `seq`: the text of [`Request::to_json`],
    /// written straight from the request, without building the JSON value first.
    pub fn to_json_text(&self, seq: u64) -> String {
        serde_json::to_string(&WireRequest { request: self, seq }).unwrap_or_else(|_| self.to_json(seq).to_string())
    }

    /// Reads a request: its `seq` and the request. An unknown `cmd` is
    /// [`ProtocolError::UnknownCommand`], which an implementation answers with `unsupported`.
    pub fn from_json(value: &Value) -> Result<(u64, Request), ProtocolError> {
        let object = value.as_object().ok_or(ProtocolError::NotAnObject)?;
        let fields = Fields { object, message: "request".into() };
        let seq = fields.seq()?;
        let name = fields.string("cmd")?;
        let command = Command::named(name).ok_or_else(|| ProtocolError::UnknownCommand(name.to_string()))?;
        let fields = Fields { object, message: format!("{command} request") };
        let request = match command {
            Command::Start => Request::Start { protocol: fields.unsigned("protocol")? },
            Command::Normalize => Request::Normalize {
                input_schema: fields.value("input_schema")?.clone(),
                arguments: fields.value("arguments")?.clone(),
            },
            Command::Register => {
                let tools = serde_json::from_value::<Vec<Tool>>(fields.value("tools")?.clone())
                    .map_err(|e| fields.bad("tools", e.to_string()))?;
                Request::Register { tools }
            }
            Command::Describe => {
                let view = fields.string("view")?;
                let view = View::named(view)
                    .ok_or_else(|| fields.bad("view", format!("{view:?} is not get_api_spec or direct")))?;
                Request::Describe { tool: fields.string("tool")?.to_string(), view }
            }
            Command::Invoke => Request::Invoke {
                tool: fields.string("tool")?.to_string(),
                transport: transport_named(fields.string("transport")?).map_err(|p| fields.bad("transport", p))?,
                arguments: fields.value("arguments")?.clone(),
            },
            Command::Stop => Request::Stop,
        };
        Ok((seq, request))
    }
}

/// A request with its `seq`, serialized with the members of [`Request::to_json`], in its order.
struct WireRequest<'a> {
    request: &'a Request,
    seq: u64,
}

impl serde::Serialize for WireRequest<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("cmd", self.request.command().as_str())?;
        map.serialize_entry("seq", &self.seq)?;
        match self.request {
            Request::Start { protocol } => map.serialize_entry("protocol", protocol)?,
            Request::Normalize { input_schema, arguments } => {
                map.serialize_entry("input_schema", input_schema)?;
                map.serialize_entry("arguments", arguments)?;
            }
            Request::Register { tools } => map.serialize_entry("tools", tools)?,
            Request::Describe { tool, view } => {
                map.serialize_entry("tool", tool)?;
                map.serialize_entry("view", view.as_str())?;
            }
            Request::Invoke { tool, transport, arguments } => {
                map.serialize_entry("tool", tool)?;
                map.serialize_entry("transport", transport.as_str())?;
                map.serialize_entry("arguments", arguments)?;
            }
            Request::Stop => {}
        }
        map.end()
    }
}

impl Answer {
    /// The answer as a JSON object with this `seq` (`null` when the request had none).
    pub fn to_json(&self, seq: Option<u64>) -> Value {
        let mut map = Map::new();
        map.insert("seq".into(), seq.map_or(Value::Null, |s| json!(s)));
        match self {
            Answer::Started(implementation) => {
                let mut about = Map::new();
                about.insert("name".into(), json!(implementation.name));
                about.insert("version".into(), json!(implementation.version));
                if let Some(language) = &implementation.language {
                    about.insert("language".into(), json!(language));
                }
                if let Some(homepage) = &implementation.homepage {
                    about.insert("homepage".into(), json!(homepage));
                }
                map.insert("protocol".into(), json!(VERSION));
                map.insert("implementation".into(), Value::Object(about));
                map.insert("rules".into(), json!(implementation.rules));
                let transports: Vec<&str> = implementation.transports.iter().map(|t| t.as_str()).collect();
                map.insert("transports".into(), json!(transports));
            }
            Answer::Normalized(arguments) => {
                map.insert("arguments".into(), arguments.clone());
            }
            Answer::Refused(error) => {
                map.insert("rejected".into(), error.clone());
            }
            Answer::Registered | Answer::Stopped => {
                map.insert("ok".into(), Value::Bool(true));
            }
            Answer::Described(schema) => {
                map.insert("input_schema".into(), schema.clone());
            }
            Answer::Invoked(Invocation::Executed { handler_calls, received }) => {
                map.insert("outcome".into(), json!("executed"));
                map.insert("handler_calls".into(), json!(handler_calls));
                map.insert("received".into(), received.clone());
            }
            Answer::Invoked(Invocation::Rejected { handler_calls, error }) => {
                map.insert("outcome".into(), json!("rejected"));
                map.insert("handler_calls".into(), json!(handler_calls));
                map.insert("error".into(), error.clone());
            }
            // Protocol v1 has no unstructured rejection: written as the rejection it is, with
            // only its message, which the harness judges as an error without its other parts.
            Answer::Invoked(Invocation::RejectedUnstructured { handler_calls, message }) => {
                map.insert("outcome".into(), json!("rejected"));
                map.insert("handler_calls".into(), json!(handler_calls));
                map.insert("error".into(), json!({ "message": message }));
            }
            Answer::Unsupported(why) => {
                map.insert("unsupported".into(), json!(why));
            }
            Answer::Failed(message) => {
                map.insert("error".into(), json!(message));
            }
        }
        Value::Object(map)
    }

    /// Reads the answer to `command` (its `seq` is checked by the caller, with [`seq_of`]).
    pub fn from_json(command: Command, value: &Value) -> Result<Answer, ProtocolError> {
        let object = value.as_object().ok_or(ProtocolError::NotAnObject)?;
        let fields = Fields { object, message: format!("{command} response") };
        if object.contains_key("unsupported") {
            return Ok(Answer::Unsupported(fields.string("unsupported")?.to_string()));
        }
        if object.contains_key("error") && command != Command::Invoke {
            return Ok(Answer::Failed(fields.string("error")?.to_string()));
        }
        if command == Command::Invoke && object.get("error").is_some_and(Value::is_string) {
            return Ok(Answer::Failed(fields.string("error")?.to_string()));
        }
        Ok(match command {
            Command::Start => Answer::Started(fields.implementation()?),
            Command::Normalize if object.contains_key("rejected") => {
                let error = fields.value("rejected")?;
                if !error.is_object() {
                    return Err(fields.bad("rejected", "it is not an object".into()));
                }
                Answer::Refused(error.clone())
            }
            Command::Normalize => Answer::Normalized(fields.value("arguments")?.clone()),
            Command::Register => {
                fields.ok()?;
                Answer::Registered
            }
            Command::Describe => Answer::Described(fields.value("input_schema")?.clone()),
            Command::Invoke => {
                let handler_calls = fields.unsigned("handler_calls")?;
                match fields.string("outcome")? {
                    "executed" => Answer::Invoked(Invocation::Executed {
                        handler_calls,
                        received: fields.value("received")?.clone(),
                    }),
                    "rejected" => {
                        let error = fields.value("error")?;
                        if !error.is_object() {
                            return Err(fields.bad("error", "it is not an object".into()));
                        }
                        Answer::Invoked(Invocation::Rejected { handler_calls, error: error.clone() })
                    }
                    other => {
                        return Err(fields.bad("outcome", format!("{other:?} is not \"executed\" or \"rejected\"")));
                    }
                }
            }
            Command::Stop => {
                fields.ok()?;
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

fn transport_named(name: &str) -> Result<Transport, String> {
    Transport::named(name).ok_or_else(|| format!("{name:?} is not one of direct, structured, http"))
}

/// The fields of one message, read with errors that name the message and the field.
struct Fields<'a> {
    object: &'a Map<String, Value>,
    message: String,
}

impl<'a> Fields<'a> {
    fn value(&self, field: &str) -> Result<&'a Value, ProtocolError> {
        self.object
            .get(field)
            .ok_or_else(|| ProtocolError::Missing { message: self.message.clone(), field: field.to_string() })
    }

    fn bad(&self, field: &str, problem: String) -> ProtocolError {
        ProtocolError::Bad { message: self.message.clone(), field: field.to_string(), problem }
    }

    fn string(&self, field: &str) -> Result<&'a str, ProtocolError> {
        let value = self.value(field)?;
        value.as_str().ok_or_else(|| self.bad(field, format!("{} is not a string", kind(value))))
    }

    fn unsigned(&self, field: &str) -> Result<u64, ProtocolError> {
        let value = self.value(field)?;
        value.as_u64().ok_or_else(|| self.bad(field, format!("{value} is not a non-negative integer")))
    }

    fn seq(&self) -> Result<u64, ProtocolError> {
        self.unsigned("seq")
    }

    fn strings(&self, field: &str) -> Result<Vec<&'a str>, ProtocolError> {
        let value = self.value(field)?;
        let items = value.as_array().ok_or_else(|| self.bad(field, format!("{} is not an array", kind(value))))?;
        items
            .iter()
            .map(|item| item.as_str().ok_or_else(|| self.bad(field, format!("it holds {}, not a string", kind(item)))))
            .collect()
    }

    fn ok(&self) -> Result<(), ProtocolError> {
        match self.value("ok")? {
            Value::Bool(true) => Ok(()),
            other => Err(self.bad("ok", format!("{other} is not true"))),
        }
    }

    fn implementation(&self) -> Result<Implementation, ProtocolError> {
        let protocol = self.unsigned("protocol")?;
        if protocol != VERSION {
            return Err(
                self.bad("protocol", format!("the implementation speaks {protocol}; the harness speaks {VERSION}"))
            );
        }
        let about = self.value("implementation")?;
        let about = about.as_object().ok_or_else(|| self.bad("implementation", "it is not an object".into()))?;
        let inner = Fields { object: about, message: format!("{}'s implementation", self.message) };
        let optional = |field: &str| -> Result<Option<String>, ProtocolError> {
            match about.get(field) {
                None | Some(Value::Null) => Ok(None),
                Some(_) => inner.string(field).map(|s| Some(s.to_string())),
            }
        };
        let transports = self
            .strings("transports")?
            .into_iter()
            .map(|name| transport_named(name).map_err(|p| self.bad("transports", p)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Implementation {
            name: inner.string("name")?.to_string(),
            version: inner.string("version")?.to_string(),
            language: optional("language")?,
            homepage: optional("homepage")?,
            rules: self.strings("rules")?.into_iter().map(String::from).collect(),
            transports,
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            Request::from_json(&json!({"seq": 1, "cmd": "dance"})),
            Err(ProtocolError::UnknownCommand("dance".into()))
        );
    }
}

crate::case::words::words! { Command { Start => "start", Normalize => "normalize", Register => "register", Describe => "describe", Invoke => "invoke", Stop => "stop" } }
