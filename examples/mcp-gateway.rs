//! A small MCP gateway, as the suite's gateway route tests one: an MCP server on stdin and stdout
//! that is an MCP client of the upstream server `TOOL_CONFORMANCE_UPSTREAM_CMD` starts (on its
//! stdin and stdout). It lists the upstream's tools once, at start, publishes them as they are,
//! and on each `tools/call`:
//!
//! - by default, validates and normalizes the arguments against the tool's schema with the
//!   suite's reference (`tool_conformance::Reference`). A rejection is answered as an `isError`
//!   result whose text is the error's message and whose `structuredContent` is the error object
//!   (`message`, `problems`, `expected_fields`): the suite's structured-error convention. Accepted
//!   arguments are forwarded upstream normalized, and the upstream's answer is returned as it is;
//! - with `--forward-only`, forwards the arguments as they were sent (a gateway that does not
//!   validate);
//! - with `--text-errors`, validates, but answers a rejection with its text alone.
//!
//! ```sh
//! tool-conformance run --mcp-gateway 'cargo run --example mcp-gateway'
//! ```

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use tool_conformance::json::{Map, Value};
use tool_conformance::{Invocation, Reference, Target, Tool, Transport};

/// What the gateway does with a call.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Validate,
    ForwardOnly,
    TextErrors,
}

/// The upstream MCP server, reached over its stdin and stdout.
struct Upstream {
    _child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next_id: u64,
}

impl Upstream {
    fn start(command: &str) -> Result<Upstream, String> {
        let words = shlex::split(command).filter(|w| !w.is_empty()).ok_or("the upstream command does not parse")?;
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("the upstream {command:?} does not start: {e}"))?;
        let input = child.stdin.take().ok_or("no upstream stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no upstream stdout")?);
        let mut upstream = Upstream { _child: child, input, output, next_id: 0 };
        upstream.request(
            "initialize",
            object([
                ("protocolVersion", "2025-11-25".into()),
                ("capabilities", object([])),
                ("clientInfo", object([("name", "mcp-gateway".into()), ("version", "1".into())])),
            ]),
        )?;
        upstream.send(&object([("jsonrpc", "2.0".into()), ("method", "notifications/initialized".into())]))?;
        Ok(upstream)
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        writeln!(self.input, "{message}").and_then(|()| self.input.flush()).map_err(|e| format!("upstream: {e}"))
    }

    /// Sends a request and returns the whole response (its `result` or its `error`).
    fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = Value::from(self.next_id);
        self.send(&object([
            ("jsonrpc", "2.0".into()),
            ("id", id.clone()),
            ("method", method.into()),
            ("params", params),
        ]))?;
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line).map_err(|e| format!("upstream: {e}"))? == 0 {
                return Err("the upstream closed its output".into());
            }
            let message: Value =
                tool_conformance::json::from_str(line.trim_end()).map_err(|e| format!("upstream: {e}"))?;
            // Ours, or an error the upstream could not tie to a request (a message it could not read).
            if message.get("id") == Some(&id)
                || (message.get("id") == Some(&Value::Null) && message.get("error").is_some())
            {
                return Ok(message);
            }
        }
    }

    /// Every tool the upstream lists, following `nextCursor`.
    fn tools(&mut self) -> Result<Vec<Value>, String> {
        let mut tools = Vec::new();
        let mut cursor: Option<Value> = None;
        loop {
            let params = match cursor.take() {
                Some(cursor) => object([("cursor", cursor)]),
                None => object([]),
            };
            let response = self.request("tools/list", params)?;
            let result = response.get("result").ok_or(format!("tools/list failed upstream: {response}"))?;
            tools.extend(result.get("tools").and_then(Value::as_array).cloned().unwrap_or_default());
            match result.get("nextCursor") {
                Some(next) if !next.is_null() => cursor = Some(next.clone()),
                _ => return Ok(tools),
            }
        }
    }
}

fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    Value::Object(entries.into_iter().map(|(k, v)| (k.to_string(), v)).collect::<Map<String, Value>>())
}

/// The answer to a `tools/call`: a JSON-RPC `result` or `error` member.
fn call(
    mode: Mode,
    reference: &mut Reference,
    upstream: &mut Upstream,
    params: &Value,
) -> Result<(&'static str, Value), String> {
    let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
    let arguments = params.get("arguments").cloned().unwrap_or_else(|| object([]));
    let forwarded = if mode == Mode::ForwardOnly {
        arguments
    } else {
        match reference.invoke(name, Transport::Structured, &arguments).map_err(|e| e.to_string())? {
            Invocation::Executed { received, .. } => received,
            Invocation::Rejected { error, .. } => {
                let text = error.get("message").and_then(Value::as_str).unwrap_or("invalid arguments").to_string();
                let mut result = object([
                    ("content", Value::Array(vec![object([("type", "text".into()), ("text", text.into())])])),
                    ("isError", true.into()),
                ]);
                if mode == Mode::Validate {
                    result.as_object_mut().unwrap().insert("structuredContent".into(), error);
                }
                return Ok(("result", result));
            }
            // The reference always rejects with its error object.
            Invocation::RejectedUnstructured { message, .. } => return Err(message),
        }
    };
    let response = upstream.request("tools/call", object([("name", name.into()), ("arguments", forwarded)]))?;
    match (response.get("result"), response.get("error")) {
        (Some(result), _) => Ok(("result", result.clone())),
        (None, Some(error)) => Ok(("error", error.clone())),
        (None, None) => Err(format!("the upstream answered neither a result nor an error: {response}")),
    }
}

pub fn main() -> Result<(), String> {
    let mode = match std::env::args().nth(1).as_deref() {
        None => Mode::Validate,
        Some("--forward-only") => Mode::ForwardOnly,
        Some("--text-errors") => Mode::TextErrors,
        Some(other) => return Err(format!("unknown flag {other}: --forward-only or --text-errors")),
    };
    let command =
        std::env::var("TOOL_CONFORMANCE_UPSTREAM_CMD").map_err(|_| "TOOL_CONFORMANCE_UPSTREAM_CMD is not set")?;
    let mut upstream = Upstream::start(&command)?;
    let tools = upstream.tools()?;
    let mut reference = Reference::new();
    let registered: Vec<Tool> = tools
        .iter()
        .map(|tool| Tool {
            name: tool.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
            description: tool.get("description").and_then(Value::as_str).map(str::to_string),
            input_schema: tool.get("inputSchema").cloned().unwrap_or_else(|| object([])),
        })
        .collect();
    reference.register(&registered).map_err(|e| e.to_string())?;

    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        let Ok(message) = tool_conformance::json::from_str::<Value>(&line) else { continue };
        let Some(id) = message.get("id").cloned() else { continue }; // a notification
        let params = message.get("params").cloned().unwrap_or_else(|| object([]));
        let method = message.get("method").and_then(Value::as_str).unwrap_or_default();
        let known = |name: Option<&str>| registered.iter().any(|t| Some(t.name.as_str()) == name);
        let (member, value) = match method {
            "initialize" => (
                "result",
                object([
                    ("protocolVersion", params.get("protocolVersion").cloned().unwrap_or_else(|| "2025-11-25".into())),
                    ("capabilities", object([("tools", object([]))])),
                    ("serverInfo", object([("name", "mcp-gateway-example".into()), ("version", "1".into())])),
                ]),
            ),
            "ping" => ("result", object([])),
            "tools/list" => ("result", object([("tools", Value::Array(tools.clone()))])),
            "tools/call" if !known(params.get("name").and_then(Value::as_str)) => {
                ("error", object([("code", (-32602).into()), ("message", "unknown tool".into())]))
            }
            "tools/call" => call(mode, &mut reference, &mut upstream, &params)?,
            _ => ("error", object([("code", (-32601).into()), ("message", "method not found".into())])),
        };
        let answer = object([("jsonrpc", "2.0".into()), ("id", id), (member, value)]);
        writeln!(stdout.lock(), "{answer}").and_then(|()| stdout.lock().flush()).map_err(|e| e.to_string())?;
    }
    Ok(())
}
