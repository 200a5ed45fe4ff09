//! `tool-conformance mcp-upstream`: a plain recording MCP server, the upstream a gateway under
//! test forwards its calls to (MCP's manifest is `crate::mcp`).
//!
//! It publishes the tools of a [`Manifest`], opens the record with the line
//! `{"manifest": FINGERPRINT}` (what it publishes, [`Manifest::fingerprint`], which a run compares
//! with its own manifest) and, for every `tools/call` of one of them, appends
//! one line `{"tool": NAME, "arguments": …}` to the record file and flushes it before it answers
//! `{"content":[{"type":"text","text":"ok"}]}`. It neither validates nor normalizes: what the
//! record holds is exactly what the gateway sent, numbers and key order kept (absent arguments
//! are recorded as `{}`, what an MCP handler is given).
//!
//! It speaks JSON-RPC 2.0 as MCP does: `initialize` (the protocol version the client asks for
//! when it is one of [`PROTOCOL_VERSIONS`], the newest otherwise), `ping`, `tools/list` (every
//! tool in one page), `tools/call`; notifications are read and never answered; an unknown method
//! is -32601 and an unknown tool -32602. [`serve_stdio`] serves it a line per message;
//! [`serve_http`] over Streamable HTTP on the hardened server of `serve::http` (a POST per
//! message answered with `application/json`, an `Mcp-Session-Id` on every answer, GET answered
//! 405 since the server sends nothing unasked, DELETE accepted and ignored, a request whose
//! Origin is not loopback refused 403, against DNS rebinding).

use crate::case::tool::Tool;
use crate::mcp::manifest::Manifest;
use crate::peer::stdio::{Bounded, read_bounded_line};
use crate::serve::http::{HttpOptions, Responder, Response};
use serde_json::{Map, Value, json};
use std::io::{BufRead, Write};
use std::net::TcpListener;
use std::sync::Mutex;

/// The MCP protocol versions spoken, oldest first; the last is answered to a client asking for
/// another.
pub const PROTOCOL_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The longest message line read on stdio, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// JSON-RPC's error codes used here.
mod code {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
}

/// What an integer `-0` is read as, for a while: the JSON reader keeps every number's text but
/// reads an integer that fits 64 bits as that integer, and `-0` as `0`; this text no sender
/// writes is kept as it is, and then made `-0` again.
const NEGATIVE_ZERO: &str = "-0e-00000000000000000000000000000000000000000000000000000000000000000";

/// `text` with every integer `-0` outside strings written as [`NEGATIVE_ZERO`].
fn mark_negative_zeros(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let (mut in_string, mut escaped) = (false, false);
    let mut out: Option<String> = None;
    let mut copied = 0;
    for (at, &b) in bytes.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'-' if bytes.get(at + 1) == Some(&b'0')
                && !matches!(bytes.get(at + 2), Some(b'0'..=b'9' | b'.' | b'e' | b'E')) =>
            {
                let out = out.get_or_insert_with(|| String::with_capacity(text.len() + 64));
                out.push_str(&text[copied..at]);
                out.push_str(NEGATIVE_ZERO);
                copied = at + 2;
            }
            _ => {}
        }
    }
    match out {
        Some(mut out) => {
            out.push_str(&text[copied..]);
            std::borrow::Cow::Owned(out)
        }
        None => std::borrow::Cow::Borrowed(text),
    }
}

/// Every [`NEGATIVE_ZERO`] in `value` made the integer `-0` again.
fn restore_negative_zeros(value: &mut Value) {
    match value {
        Value::Number(n) if n.to_string() == NEGATIVE_ZERO => {
            *n = serde_json::Number::from_string_unchecked("-0".into());
        }
        Value::Array(items) => items.iter_mut().for_each(restore_negative_zeros),
        Value::Object(map) => map.values_mut().for_each(restore_negative_zeros),
        _ => {}
    }
}

/// The recording MCP server, whatever carries its messages.
pub struct Upstream {
    manifest: Manifest,
    record: Box<dyn Write + Send>,
    /// The names of the manifest's tools MCP cannot carry, which it does not publish.
    outside: Vec<String>,
}

impl Upstream {
    /// A server publishing `manifest`'s tools and appending a line to `record` per call, after a
    /// first line `{"manifest": FINGERPRINT}` ([`Manifest::fingerprint`]). A tool
    /// MCP cannot carry ([`Manifest::outside_mcp`]: an MCP SDK's client refuses a whole listing
    /// that holds one) is not published; the record says so at once, one `refused` line each,
    /// as any server whose framework refuses a tool does.
    pub fn new(manifest: Manifest, mut record: Box<dyn Write + Send>) -> Upstream {
        // First, what it publishes, for a run to compare with its own manifest.
        let line = json!({ "manifest": manifest.fingerprint() });
        let _ = writeln!(record, "{line}").and_then(|()| record.flush());
        let outside: Vec<String> = manifest
            .outside_mcp()
            .iter()
            .map(|(tool, why)| {
                let line = json!({"tool": tool.name, "refused": format!(
                    "tool-conformance mcp-upstream refused the tool: MCP cannot carry it ({why}; {})",
                    crate::mcp::manifest::MCP_TOOL_SHAPE
                )});
                let _ = writeln!(record, "{line}").and_then(|()| record.flush());
                tool.name.clone()
            })
            .collect();
        Upstream { manifest, record, outside }
    }

    /// The answer to one message, `None` for a notification (or a response, which a client may
    /// send and which needs none). A lone surrogate escape (valid JSON, which a gateway in
    /// JavaScript or Python may forward) is read as its stand-in, as the harness reads answers.
    pub fn handle_bytes(&mut self, bytes: &[u8]) -> Option<Value> {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return Some(error(Value::Null, code::PARSE_ERROR, "the message is not UTF-8"));
        };
        let marked = mark_negative_zeros(text);
        match crate::peer::protocol::parse_answer(&marked) {
            Ok(mut message) => {
                if matches!(marked, std::borrow::Cow::Owned(_)) {
                    restore_negative_zeros(&mut message);
                }
                self.handle(&message)
            }
            Err(e) => Some(error(Value::Null, code::PARSE_ERROR, &format!("the message is not JSON: {e}"))),
        }
    }

    /// The answer to one parsed message, `None` for a notification.
    pub fn handle(&mut self, message: &Value) -> Option<Value> {
        let Some(object) = message.as_object() else {
            return Some(error(Value::Null, code::INVALID_REQUEST, "a message is one JSON-RPC 2.0 object"));
        };
        let id = object.get("id").cloned();
        let Some(method) = object.get("method").and_then(Value::as_str) else {
            // A response to a request of ours (we send none), or garbage with an id.
            return match id {
                Some(id) if !object.contains_key("result") && !object.contains_key("error") => {
                    Some(error(id, code::INVALID_REQUEST, "a request needs a method"))
                }
                _ => None,
            };
        };
        let id = id?; // A notification: nothing to answer.
        let params = object.get("params").cloned().unwrap_or_else(|| Value::Object(Map::new()));
        Some(match self.answer(method, &params) {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err((code, message)) => error(id, code, &message),
        })
    }

    fn answer(&mut self, method: &str, params: &Value) -> Result<Value, (i64, String)> {
        match method {
            "initialize" => {
                let asked = params.get("protocolVersion").and_then(Value::as_str).unwrap_or_default();
                let version = PROTOCOL_VERSIONS.iter().find(|v| **v == asked).unwrap_or(&PROTOCOL_VERSIONS[3]);
                Ok(json!({
                    "protocolVersion": version,
                    "capabilities": {"tools": {"listChanged": false}},
                    "serverInfo": {"name": crate::mcp::UPSTREAM_NAME, "version": crate::suite::SUITE_VERSION},
                }))
            }
            "ping" => Ok(json!({})),
            "tools/list" => {
                let tools: Vec<Value> =
                    self.manifest.tools().iter().filter(|t| !self.outside.contains(&t.name)).map(published).collect();
                Ok(json!({"tools": tools}))
            }
            "tools/call" => self.call(params),
            other => Err((code::METHOD_NOT_FOUND, format!("method not found: {other}"))),
        }
    }

    fn call(&mut self, params: &Value) -> Result<Value, (i64, String)> {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Err((code::INVALID_PARAMS, "tools/call needs the tool's name".into()));
        };
        if self.manifest.tool(name).is_none() || self.outside.iter().any(|n| n == name) {
            return Err((code::INVALID_PARAMS, format!("unknown tool: {name}")));
        }
        let arguments = params.get("arguments").cloned().unwrap_or_else(|| Value::Object(Map::new()));
        // The line built as a map, the arguments moved in as they were read: `json!` would convert
        // them again, and that writes a received `-0` as `0`.
        let mut entry = Map::new();
        entry.insert("tool".into(), Value::String(name.to_string()));
        entry.insert("arguments".into(), arguments);
        let mut line = serde_json::to_vec(&Value::Object(entry))
            .map_err(|e| (code::INTERNAL_ERROR, format!("the call cannot be recorded: {e}")))?;
        line.push(b'\n');
        self.record
            .write_all(&line)
            .and_then(|()| self.record.flush())
            .map_err(|e| (code::INTERNAL_ERROR, format!("the record cannot be written: {e}")))?;
        Ok(json!({"content": [{"type": "text", "text": "ok"}]}))
    }
}

/// A manifest tool as `tools/list` publishes it.
fn published(tool: &Tool) -> Value {
    let mut entry = Map::new();
    entry.insert("name".into(), Value::String(tool.name.clone()));
    if let Some(description) = &tool.description {
        entry.insert("description".into(), Value::String(description.clone()));
    }
    entry.insert("inputSchema".into(), tool.input_schema.clone());
    Value::Object(entry)
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Serves `upstream` on `input` and `output`, a message per line, until the end of input. A line
/// longer than `max_message` is answered with a parse error and skipped.
pub fn serve_lines(
    upstream: &mut Upstream,
    mut input: impl BufRead,
    mut output: impl Write,
    max_message: usize,
) -> std::io::Result<()> {
    let mut line = Vec::new();
    loop {
        let answer = match read_bounded_line(&mut input, max_message, &mut line, true)? {
            Bounded::End => return Ok(()),
            Bounded::TooLong => {
                Some(error(Value::Null, code::PARSE_ERROR, &format!("the message is longer than {max_message} bytes")))
            }
            Bounded::Line if line.iter().all(u8::is_ascii_whitespace) => None,
            Bounded::Line => upstream.handle_bytes(&line),
        };
        if let Some(answer) = answer {
            let mut bytes = serde_json::to_vec(&answer)?;
            bytes.push(b'\n');
            output.write_all(&bytes)?;
            output.flush()?;
        }
    }
}

/// Serves `upstream` on this process's stdin and stdout until the end of input.
pub fn serve_stdio(mut upstream: Upstream) -> std::io::Result<()> {
    serve_lines(&mut upstream, std::io::stdin().lock(), std::io::stdout().lock(), MAX_MESSAGE_BYTES)
}

/// Serves `upstream` over Streamable HTTP on `listener` until the process ends.
pub fn serve_http(upstream: Upstream, listener: TcpListener, options: HttpOptions) -> std::io::Result<()> {
    let session = session_id(&listener);
    crate::serve::http::serve_with(listener, Streamable { upstream: Mutex::new(upstream), session }, options)
}

/// A session id no other server of this machine is likely to give at the same time.
fn session_id(listener: &TcpListener) -> String {
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("tc-{}-{port}-{nanos:x}", std::process::id())
}

/// The upstream as a [`Responder`]: one session for every client (a run has one gateway).
struct Streamable {
    upstream: Mutex<Upstream>,
    session: String,
}

impl Responder for Streamable {
    fn methods(&self) -> &'static [&'static str] {
        &["POST", "DELETE"]
    }

    /// MCP asks a Streamable HTTP server to check the Origin of every request against DNS
    /// rebinding: a page of another site reaching this loopback server through the browser. Only
    /// a loopback origin is served (a client that is not a browser sends none).
    fn allows_origin(&self, origin: &str) -> bool {
        let Some((_, rest)) = origin.split_once("://") else { return false };
        let host = match rest.strip_prefix('[') {
            Some(v6) => v6.split_once(']').map_or("", |(host, _)| host),
            None => rest.split([':', '/']).next().unwrap_or_default(),
        };
        matches!(host.to_ascii_lowercase().as_str(), "localhost" | "127.0.0.1" | "::1")
    }

    fn refusal(&self, why: &str) -> Vec<u8> {
        serde_json::to_vec(&error(Value::Null, code::INVALID_REQUEST, why)).unwrap_or_default()
    }

    fn respond(&self, method: &str, body: &[u8]) -> Response {
        let session = ("Mcp-Session-Id", self.session.clone());
        if method == "DELETE" {
            return Response { status: 200, headers: vec![session], body: Vec::new() };
        }
        let answer = self.upstream.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).handle_bytes(body);
        match answer {
            // A notification or a response: accepted, nothing to say.
            None => Response { status: 202, headers: vec![session], body: Vec::new() },
            Some(answer) => {
                let malformed = answer.get("id").is_some_and(Value::is_null) && answer.get("error").is_some();
                Response {
                    status: if malformed { 400 } else { 200 },
                    headers: vec![session],
                    body: serde_json::to_vec(&answer).unwrap_or_default(),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex as StdMutex};

    /// A record that the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<StdMutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn upstream() -> (Upstream, Shared) {
        let manifest = Manifest::from_slice(
            br#"{"manifest":1,"tools":[{"name":"t","description":"d","input_schema":{"type":"object","properties":{"n":{"type":"number"}}}}]}"#,
        )
        .unwrap();
        let fingerprint = manifest.fingerprint();
        let record = Shared::default();
        let upstream = Upstream::new(manifest, Box::new(record.clone()));
        // The record opens with what the upstream publishes; the tests read the calls after it.
        let first = String::from_utf8(std::mem::take(&mut *record.0.lock().unwrap())).unwrap();
        assert_eq!(first, format!("{{\"manifest\":\"{fingerprint}\"}}\n"));
        (upstream, record)
    }

    fn text(value: &Option<Value>) -> String {
        serde_json::to_string(value.as_ref().unwrap()).unwrap()
    }

    #[test]
    fn only_loopback_origins_are_served() {
        let (upstream, _) = upstream();
        let streamable = Streamable { upstream: Mutex::new(upstream), session: "s".into() };
        for origin in ["http://localhost:3000", "https://127.0.0.1", "http://[::1]:8080", "http://LOCALHOST"] {
            assert!(streamable.allows_origin(origin), "{origin}");
        }
        for origin in ["http://evil.example", "http://localhost.evil.example", "null", "http://127.0.0.1.nip.io", ""] {
            assert!(!streamable.allows_origin(origin), "{origin}");
        }
    }

    #[test]
    fn lines_are_answered_and_notifications_are_not() {
        let (mut upstream, record) = upstream();
        let input: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\"}}\n\
            {\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n\n\
            {\"jsonrpc\":\"2.0\",\"id\":\"c\",\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{\"z\":1e400,\"a\":[],\"m\":-0,\"f\":-0.0}}}\n";
        let mut output = Vec::new();
        serve_lines(&mut upstream, input, &mut output, 1024).unwrap();
        let lines: Vec<&str> = std::str::from_utf8(&output).unwrap().lines().collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].contains(r#""protocolVersion":"2025-03-26""#));
        assert_eq!(lines[1], r#"{"jsonrpc":"2.0","id":"c","result":{"content":[{"type":"text","text":"ok"}]}}"#);
        let recorded = String::from_utf8(record.0.lock().unwrap().clone()).unwrap();
        assert_eq!(recorded, "{\"tool\":\"t\",\"arguments\":{\"z\":1e400,\"a\":[],\"m\":-0,\"f\":-0.0}}\n");
    }

    #[test]
    fn versions_methods_and_tools_are_answered_as_mcp_asks() {
        let (mut upstream, record) = upstream();
        assert_eq!(upstream.handle_bytes(&[b'"', 0xFF, b'"']).unwrap()["error"]["code"], -32700);
        let mut ask = |text: &str| upstream.handle_bytes(text.as_bytes());
        let old = ask(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}"#);
        assert!(text(&old).contains(r#""protocolVersion":"2025-11-25""#));
        assert_eq!(
            text(&ask(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)),
            r#"{"jsonrpc":"2.0","id":2,"result":{}}"#
        );
        let list = ask(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}"#);
        assert_eq!(
            text(&list),
            r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"n":{"type":"number"}}}}]}}"#
        );
        let unknown = ask(r#"{"jsonrpc":"2.0","id":4,"method":"resources/list"}"#);
        assert_eq!(unknown.unwrap()["error"]["code"], -32601);
        let no_tool = ask(r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"u","arguments":{}}}"#);
        assert_eq!(no_tool.unwrap()["error"]["code"], -32602);
        assert_eq!(ask("{oops").unwrap()["error"]["code"], -32700);
        assert_eq!(ask("[]").unwrap()["error"]["code"], -32600);
        assert_eq!(ask("\"\u{FF}\"").unwrap()["error"]["code"], -32600);
        assert!(ask(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#).is_none());
        assert!(record.0.lock().unwrap().is_empty(), "nothing was called");
        let surrogate =
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"t","arguments":{"s":"a\ud800"}}}"#;
        assert!(ask(surrogate).unwrap().get("result").is_some());
        let line = String::from_utf8(record.0.lock().unwrap().clone()).unwrap();
        let recorded: Value = crate::peer::protocol::parse_answer(line.trim_end()).unwrap();
        let stand_in = crate::json::surrogate::stand_in(0xD800).unwrap();
        assert_eq!(recorded["arguments"]["s"], format!("a{stand_in}"), "read back as the harness reads it");
    }

    #[test]
    fn a_tool_mcp_cannot_carry_is_not_published_and_the_record_says_so() {
        let manifest = Manifest::from_slice(
            br#"{"manifest":1,"tools":[{"name":"e","input_schema":{}},{"name":"t","input_schema":{"type":"object"}},{"name":"p","input_schema":{"type":"object","properties":{"a":true}}}]}"#,
        )
        .unwrap();
        let record = Shared::default();
        let mut upstream = Upstream::new(manifest, Box::new(record.clone()));
        let lines = String::from_utf8(record.0.lock().unwrap().clone()).unwrap();
        let refused: Vec<Value> = lines.lines().skip(1).map(|l| crate::json::from_str(l).unwrap()).collect();
        let names: Vec<&str> = refused.iter().map(|l| l["tool"].as_str().unwrap()).collect();
        assert_eq!(names, ["e", "p"], "{lines}");
        assert!(refused.iter().all(|l| {
            l["refused"]
                .as_str()
                .unwrap()
                .starts_with("tool-conformance mcp-upstream refused the tool: MCP cannot carry it")
        }));
        let list = upstream.handle_bytes(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#).unwrap();
        assert_eq!(text(&Some(list["result"]["tools"].clone())), r#"[{"name":"t","inputSchema":{"type":"object"}}]"#);
        let call = upstream
            .handle_bytes(br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"e","arguments":{}}}"#);
        assert_eq!(call.unwrap()["error"]["code"], -32602, "an unpublished tool is unknown");
    }
}
