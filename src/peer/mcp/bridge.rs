//! The harness as the HTTP client of an HTTP bridge (MCP tools served as HTTP endpoints, such as
//! mcpo): the bridge's OpenAPI document, read with a GET of its path, says which tools it serves
//! (each path of the document that the endpoint template matches, with a POST operation) and the
//! schema each takes (the operation's JSON request body, its `$ref`s into the document gathered
//! under `$defs` so that the schema stands alone); a call is a POST of the arguments, exactly as
//! given, as the JSON body of the tool's endpoint, answered with a status and a body.
//!
//! A bridge the harness starts (`--http-bridge`) is a process on the harness's own channel (its
//! process group, its stderr ring): its stdout is sent to its stderr, so that a bridge logging
//! each request to stdout never fills a pipe nobody reads.

use crate::json::Value;
use crate::peer::http::{agent, reason};
use crate::peer::mcp::client::{Trouble, hide};
use crate::peer::remote::{Channel, ChannelError};
use crate::peer::spec::{BridgePaths, CommandLine, HttpUrl};
use crate::peer::stdio::StdioChannel;
use crate::peer::transcript::{Exchange, Received, TRANSCRIPT_MESSAGE_CHARS, WireLog, truncate};
use std::collections::HashMap;
use std::io::Read;
use std::time::{Duration, Instant};

/// The process of a server on HTTP the harness starts (an HTTP bridge, or a gateway of
/// `--mcp-gateway-http`), by `command` with `env`: on the harness's own channel, its stdout sent
/// to its stderr.
pub(crate) fn process(
    command: &CommandLine,
    env: Vec<(String, String)>,
    stderr_lines: usize,
) -> Result<StdioChannel, String> {
    let mut words = vec!["sh".to_string(), "-c".into(), "exec \"$@\" >&2".into(), "sh".into()];
    words.push(command.program().to_string());
    words.extend(command.args().iter().cloned());
    let text = shlex::try_join(words.iter().map(String::as_str)).map_err(|e| format!("the server's command: {e}"))?;
    let line = CommandLine::parse(&text).map_err(|e| e.to_string())?;
    Ok(StdioChannel::new(line, 4096, stderr_lines).with_env(env))
}

/// An HTTP bridge: where it is, how its tools and document are reached, and its process when the
/// harness started it.
pub(crate) struct Bridge {
    /// The base URL, without a trailing `/`.
    base: String,
    paths: BridgePaths,
    /// Sent with every request (`--mcp-header`), name and value.
    headers: Vec<(String, String)>,
    max_body: usize,
    agent: Option<ureq::Agent>,
    process: Option<StdioChannel>,
    log: WireLog,
    /// Whether exchanges are kept from the current case's reports (a restart's).
    pub quiet: bool,
    /// Texts never recorded or quoted (the values of `--mcp-header`).
    pub secrets: Vec<String>,
}

/// A bridge's answer to a call: its status and its body as text.
pub(crate) struct Answer {
    pub status: u16,
    pub body: String,
}

impl Bridge {
    /// A bridge at `base` (a URL to which the paths are appended), reading at most `max_body`
    /// bytes of a response, recording into `log`.
    pub(crate) fn new(base: &HttpUrl, paths: BridgePaths, max_body: usize, log: WireLog) -> Bridge {
        Bridge {
            base: base.as_str().trim_end_matches('/').to_string(),
            paths,
            headers: Vec::new(),
            max_body,
            agent: None,
            process: None,
            log,
            quiet: false,
            secrets: Vec::new(),
        }
    }

    /// The same bridge, sending `headers` with every request.
    pub(crate) fn with_headers(mut self, headers: Vec<(String, String)>) -> Bridge {
        self.headers = headers;
        self
    }

    /// The same bridge, started by `command` (its stdout sent to its stderr) with `env`.
    pub(crate) fn with_process(
        mut self,
        command: &CommandLine,
        env: Vec<(String, String)>,
        stderr_lines: usize,
    ) -> Result<Bridge, String> {
        self.process = Some(process(command, env, stderr_lines)?);
        Ok(self)
    }

    /// Starts the bridge's process, if the harness runs it, and forgets the connection.
    pub(crate) fn open(&mut self) -> Result<(), ChannelError> {
        self.agent = None;
        match self.process.as_mut() {
            Some(process) => process.open(),
            None => Ok(()),
        }
    }

    /// Ends the bridge's process at once, if the harness runs it.
    pub(crate) fn close(&mut self) {
        self.agent = None;
        if let Some(process) = self.process.as_mut() {
            process.close();
        }
    }

    /// The bridge's process's last stderr lines of this case, when it has a process.
    pub(crate) fn stderr_tail(&self) -> Option<Vec<String>> {
        self.process.as_ref().and_then(StdioChannel::stderr_tail)
    }

    /// How the bridge's process ended, once it has; its stderr is then read to its end (a
    /// moment at most), so that the lines it wrote last are quoted.
    pub(crate) fn exit_status(&mut self) -> Option<String> {
        let process = self.process.as_mut()?;
        let status = process.exit_status()?;
        // Its stdout is its stderr: reading it waits for the end of both.
        let _ = process.receive(Duration::from_millis(500));
        Some(status)
    }

    /// Marks the start of a case, for [`Bridge::stderr_tail`].
    pub(crate) fn mark_case(&mut self) {
        if let Some(process) = self.process.as_mut() {
            process.mark_case();
        }
    }

    /// The bridge's OpenAPI document, read within `timeout`, at most `max` bytes of it.
    pub(crate) fn document(&mut self, timeout: Duration, max: usize) -> Result<Value, Trouble> {
        let sent = format!("GET {}", self.paths.spec());
        let began = Instant::now();
        let got = self.exchange(None, self.paths.spec().to_string(), timeout, max);
        let trouble = |what: String, received: Option<String>| Trouble {
            what: format!("the bridge's OpenAPI document ({sent}): {what}"),
            sent: sent.clone(),
            received,
            restart: false,
        };
        let answer = match got {
            Ok(answer) => answer,
            Err(what) => {
                self.record(&sent, Received::Nothing(what.clone()), began.elapsed());
                return Err(trouble(what, None));
            }
        };
        self.record(&sent, Received::Response(format!("HTTP {} {}", answer.status, answer.body)), began.elapsed());
        if answer.status != 200 {
            return Err(trouble(format!("HTTP status {}", answer.status), Some(answer.body)));
        }
        let document: Value = crate::json::from_str(&answer.body)
            .map_err(|e| trouble(format!("the body is not JSON: {e}"), Some(answer.body.clone())))?;
        if !document.is_object() {
            return Err(trouble("the body is not a JSON object".into(), Some(answer.body)));
        }
        Ok(document)
    }

    /// A call of the tool published as `name`: a POST of `arguments` to its endpoint, answered
    /// within `timeout`.
    pub(crate) fn call(&mut self, name: &str, arguments: &Value, timeout: Duration) -> Result<Answer, Trouble> {
        let path = self.paths.endpoint(name);
        let body = arguments.to_string();
        let sent = format!("POST {path} {body}");
        let began = Instant::now();
        let max = self.max_body;
        match self.exchange(Some(body), path, timeout, max) {
            Ok(answer) => {
                self.record(
                    &sent,
                    Received::Response(format!("HTTP {} {}", answer.status, answer.body)),
                    began.elapsed(),
                );
                Ok(answer)
            }
            Err(what) => {
                let what = hide(&format!("POST of {name}: {what}"), &self.secrets);
                self.record(&sent, Received::Nothing(what.clone()), began.elapsed());
                Err(Trouble { what, sent: hide(&sent, &self.secrets), received: None, restart: false })
            }
        }
    }

    /// One request: a POST of `body`, or a GET without one, to `path`; its status and body, or
    /// why there is none. The connection is not used again after a failure.
    fn exchange(
        &mut self,
        body: Option<String>,
        path: String,
        timeout: Duration,
        max: usize,
    ) -> Result<Answer, String> {
        let agent = self.agent.get_or_insert_with(agent).clone();
        let url = format!("{}{path}", self.base);
        let got = match body {
            Some(body) => {
                let mut request = agent
                    .post(&url)
                    .config()
                    .timeout_global(Some(timeout))
                    .build()
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json");
                for (name, value) in &self.headers {
                    request = request.header(name, value);
                }
                request.send(body.as_bytes())
            }
            None => {
                let mut request =
                    agent.get(&url).config().timeout_global(Some(timeout)).build().header("Accept", "application/json");
                for (name, value) in &self.headers {
                    request = request.header(name, value);
                }
                request.call()
            }
        };
        let result = got.map_err(|e| reason(e, timeout).to_string()).and_then(|mut response| {
            let status = response.status().as_u16();
            let mut bytes = Vec::new();
            let reader = response.body_mut().with_config().limit(max as u64).reader();
            reader.take(max as u64 + 1).read_to_end(&mut bytes).map_err(|e| match e.kind() {
                std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => {
                    ChannelError::Timeout(timeout).to_string()
                }
                _ => format!("the response body could not be read whole (more than {max} bytes, or cut off)"),
            })?;
            Ok(Answer { status, body: String::from_utf8_lossy(&bytes).into_owned() })
        });
        if result.is_err() {
            self.agent = None;
        }
        result
    }

    fn record(&self, sent: &str, received: Received, elapsed: Duration) {
        let cut = |text: &str| truncate(&hide(text, &self.secrets), TRANSCRIPT_MESSAGE_CHARS);
        let exchange = Exchange {
            sent: cut(sent),
            received: match received {
                Received::Response(text) => Received::Response(cut(&text)),
                Received::Nothing(why) => Received::Nothing(hide(&why, &self.secrets)),
            },
            elapsed,
        };
        let case = (!self.quiet).then(|| exchange.clone());
        self.log.record(|| exchange, case);
    }

    /// The bridge, for messages: how it is reached (no port).
    pub(crate) fn describe(&self, label: Option<&str>) -> String {
        match label {
            Some(label) => label.to_string(),
            None => "the HTTP bridge at the URL given".into(),
        }
    }

    /// Every tool the document serves, by its published name: the schema of its POST's JSON
    /// request body (`Value::Null` when the operation has none).
    pub(crate) fn tools(&self, document: &Value) -> HashMap<String, Value> {
        let mut tools = HashMap::new();
        let Some(paths) = document.get("paths").and_then(Value::as_object) else {
            return tools;
        };
        for (path, item) in paths {
            let (Some(name), Some(operation)) = (self.paths.name_of(path), item.get("post")) else {
                continue;
            };
            tools.insert(name, request_schema(document, operation));
        }
        tools
    }
}

/// The schema of `operation`'s JSON request body in `document`: a `$ref` at its top resolved,
/// and every `$ref` into the document's components within it pointed at `$defs` of the schema
/// itself, where what it names is copied; `Value::Null` when the operation has no JSON request body.
pub(crate) fn request_schema(document: &Value, operation: &Value) -> Value {
    let body = operation.get("requestBody").map(|body| resolved(document, body));
    let Some(schema) = body
        .as_ref()
        .and_then(|b| b.get("content"))
        .and_then(|c| c.get("application/json"))
        .and_then(|m| m.get("schema"))
    else {
        return Value::Null;
    };
    let top = resolved(document, schema);
    let mut defs = serde_json::Map::new();
    let mut schema = top.clone();
    let mut pending = Vec::new();
    rewrite(&mut schema, &mut pending);
    while let Some(pointer) = pending.pop() {
        let key = def_name(&pointer);
        if defs.contains_key(&key) {
            continue;
        }
        let mut target = document.pointer(&pointer).cloned().unwrap_or(Value::Bool(true));
        rewrite(&mut target, &mut pending);
        defs.insert(key, target);
    }
    if !defs.is_empty() {
        if let Some(object) = schema.as_object_mut() {
            let mut all = object.get("$defs").and_then(Value::as_object).cloned().unwrap_or_default();
            all.extend(defs);
            object.insert("$defs".into(), Value::Object(all));
        }
    }
    schema
}

/// `value` itself, or what its `$ref` into the document names when it is only a reference.
fn resolved(document: &Value, value: &Value) -> Value {
    let mut value = value.clone();
    for _ in 0..16 {
        let Some(pointer) = value.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix('#')) else {
            break;
        };
        match document.pointer(pointer) {
            Some(target) => value = target.clone(),
            None => break,
        }
    }
    value
}

/// The key under `$defs` of a pointer into the document: its last segment.
fn def_name(pointer: &str) -> String {
    pointer.rsplit('/').next().unwrap_or(pointer).to_string()
}

/// Points each `$ref` into the document within `value` at `#/$defs/…`, noting the pointers.
fn rewrite(value: &mut Value, pending: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get_mut("$ref") {
                // Only what the document's components hold: a reference within the schema (to its
                // own `$defs`, or to itself) means the same once the schema stands alone.
                if let Some(pointer) = reference.strip_prefix('#').filter(|p| p.starts_with("/components/")) {
                    let pointer = pointer.to_string();
                    *reference = format!("#/$defs/{}", def_name(&pointer));
                    pending.push(pointer);
                }
            }
            for (key, inner) in object.iter_mut() {
                if key != "$ref" {
                    rewrite(inner, pending);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| rewrite(item, pending)),
        _ => {}
    }
}

/// What a bridge's refusal says, to be judged as an unstructured error: the status, and the body
/// on a line of its own when there is one.
pub(crate) fn refusal_text(answer: &Answer) -> String {
    match answer.body.trim() {
        "" => format!("HTTP status {}", answer.status),
        body => format!("HTTP status {}\n{body}", answer.status),
    }
}

/// The identity an OpenAPI document gives its bridge: `info.title` and `info.version`.
pub(crate) fn identity(document: &Value) -> (Option<String>, Option<String>) {
    let text = |key: &str| document.get("info").and_then(|i| i.get(key)).and_then(Value::as_str).map(String::from);
    (text("title"), text("version"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_request_body_s_references_are_gathered_under_defs() {
        let document = json!({
            "paths": {"/t": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/t_form"}}}}}}},
            "components": {"schemas": {
                "t_form": {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/A"}}, "required": ["a"]},
                "A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
                "B": {"type": "integer", "not": {"$ref": "#"}}
            }}
        });
        let schema = request_schema(&document, &document["paths"]["/t"]["post"]);
        assert_eq!(
            schema,
            json!({
                "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "required": ["a"],
                "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}}, "B": {"type": "integer", "not": {"$ref": "#"}}}
            })
        );
        assert_eq!(request_schema(&document, &json!({})), Value::Null, "no request body");
    }

    #[test]
    fn the_endpoint_template_names_the_tools_of_the_document() {
        let paths = BridgePaths::new("/tools/{name}/call", "/spec.json").unwrap();
        assert_eq!(paths.endpoint("a b/c"), "/tools/a%20b%2Fc/call");
        assert_eq!(paths.name_of("/tools/t_1/call").as_deref(), Some("t_1"));
        assert_eq!(paths.name_of("/tools//call"), None);
        assert_eq!(paths.name_of("/openapi.json"), None);
        let bridge = Bridge::new(&HttpUrl::parse("http://127.0.0.1:9/").unwrap(), paths, 100, WireLog::new());
        let document =
            json!({"paths": {"/tools/t/call": {"post": {}}, "/tools/u/call": {"get": {}}, "/health": {"post": {}}}});
        let tools = bridge.tools(&document);
        assert_eq!(tools.keys().collect::<Vec<_>>(), ["t"]);
        assert!(BridgePaths::new("/tools", "/openapi.json").is_err());
        assert!(BridgePaths::new("{name}", "/openapi.json").is_err());
        assert!(BridgePaths::new("/{name}", "openapi.json").is_err());
    }

    #[test]
    fn a_refusal_reads_as_its_status_and_body() {
        let answer = Answer { status: 422, body: "{\"detail\":[]}\n".into() };
        assert_eq!(refusal_text(&answer), "HTTP status 422\n{\"detail\":[]}");
        assert_eq!(refusal_text(&Answer { status: 500, body: " ".into() }), "HTTP status 500");
    }
}
