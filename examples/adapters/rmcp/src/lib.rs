//! A tool-conformance adapter (protocol v1, on stdin and stdout) for rmcp, the official Rust MCP
//! SDK, in one of two rows:
//!
//! - `--typed` (reports/rmcp): each tool is a handler taking `Parameters<T>`, `T` a struct its
//!   users write with serde and schemars (`#[derive(Deserialize, Serialize, JsonSchema)]`), one
//!   per schema of the corpus, written by build.rs (`typegen.rs`) with the nearest Rust types;
//!   its input schema is the one rmcp's `#[tool]` macro gives it (`schema_for_input::<T>()`), and
//!   rmcp deserializes the arguments into `T` before the handler runs.
//! - `--raw` (reports/rmcp-raw): each tool is a `Tool` built with the JSON Schema as it is
//!   (`Tool::new(name, description, schema)`) and a handler that gets the arguments object
//!   (`ToolRoute::new_dyn`), rmcp's path for a schema known only at run time.
//!
//! Either way the tools sit in a `ToolRouter` behind a `ServerHandler`, served by rmcp over an
//! in-memory duplex stream, and every call is a `tools/call` JSON-RPC request written on that
//! stream (the arguments exactly as the harness sent them) and read by rmcp's own decoder: the
//! `structured` transport. rmcp has no HTTP tool endpoint of its own beside its Streamable HTTP
//! MCP transport, and no call path besides `tools/call`. Nothing here validates, repairs or
//! rewrites arguments: what a handler receives, and the error the caller gets, are rmcp's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf};
use tokio::sync::RwLock;

pub mod typed;
pub mod typegen;

/// What the handlers of a tool received, one value per run, as JSON.
pub type Records = Arc<Mutex<Vec<Value>>>;

/// The rmcp version this adapter is built against (Cargo.lock pins it).
const RMCP_VERSION: &str = "3.11.0";
const SCRATCH_TOOL: &str = "repro";

/// The server: a tool router behind rmcp's `ServerHandler`, as rmcp's own examples write one for
/// tools that change at run time.
#[derive(Clone)]
pub struct Server {
    router: Arc<RwLock<ToolRouter<Server>>>,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, rmcp::ErrorData> {
        let router = self.router.read().await;
        router.call(ToolCallContext::new(self, request, context)).await
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, rmcp::ErrorData> {
        let router = self.router.read().await;
        Ok(ListToolsResult { tools: router.list_all(), ..Default::default() })
    }
}

/// The successful result every recording handler returns.
pub fn ok_result() -> CallToolResponse {
    CallToolResult::success(vec![ContentBlock::text("ok")]).into()
}

/// A raw tool: the JSON Schema as it is, and a handler that gets the arguments object.
fn raw_route(
    name: &str,
    description: Option<&str>,
    schema: &Value,
    records: Records,
) -> Result<ToolRoute<Server>, String> {
    // rmcp's Tool holds its input schema as a JSON object (`Arc<JsonObject>`): the boolean
    // schemas are given as the object schemas that say the same, `{}` and `{"not": {}}`.
    let schema = match schema {
        Value::Bool(true) => &json!({}),
        Value::Bool(false) => &json!({"not": {}}),
        other => other,
    };
    let Value::Object(object) = schema else {
        return Err(format!(
            "rmcp's Tool holds its input schema as an Arc<JsonObject> (a JSON object; model/tool.rs, `pub input_schema: Arc<JsonObject>`), so the schema {schema} cannot be given to it"
        ));
    };
    let tool =
        Tool::new_with_raw(name.to_string(), description.map(|d| d.to_string().into()), Arc::new(object.clone()));
    Ok(ToolRoute::new_dyn(tool, move |context: ToolCallContext<'_, Server>| {
        let records = records.clone();
        let received = context.arguments.clone().map(Value::Object).unwrap_or(Value::Null);
        Box::pin(async move {
            records.lock().expect("records").push(received);
            Ok(ok_result())
        })
    }))
}

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Mode {
    Typed,
    Raw,
}

/// The client half: JSON-RPC lines written to rmcp's server over the duplex stream, as an MCP
/// client sends them, and its answers read back.
struct Wire {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    writer: WriteHalf<DuplexStream>,
    next_id: u64,
}

impl Wire {
    async fn send(&mut self, text: String) -> Result<(), String> {
        self.writer.write_all(text.as_bytes()).await.map_err(|e| e.to_string())?;
        self.writer.write_all(b"\n").await.map_err(|e| e.to_string())
    }

    /// One request (`params` as JSON text); the response object with its id.
    async fn request(&mut self, method: &str, params: &str) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":{},"params":{params}}}"#, json!(method))).await?;
        loop {
            let line = self.lines.next_line().await.map_err(|e| e.to_string())?.ok_or("rmcp closed the stream")?;
            let Ok(value) = serde_json::from_str::<Value>(&line) else { continue };
            // A request rmcp cannot parse at all is answered with an error whose id is null.
            if value.get("id") == Some(&json!(id))
                || (value.get("id") == Some(&Value::Null) && value.get("error").is_some())
            {
                return Ok(value);
            }
        }
    }
}

struct Adapter {
    mode: Mode,
    server: Server,
    wire: Wire,
    records: HashMap<String, Records>,
    refused: HashMap<String, String>,
}

/// Raises `{"unsupported": ...}` or `{"error": ...}`.
pub(crate) enum Answer {
    Unsupported(String),
    Error(String),
}

impl Adapter {
    async fn start(mode: Mode) -> Result<Adapter, String> {
        let server = Server { router: Arc::new(RwLock::new(ToolRouter::new())) };
        let (server_side, client_side) = tokio::io::duplex(1 << 20);
        let serving = server.clone();
        tokio::spawn(async move {
            if let Ok(running) = serving.serve(server_side).await {
                let _ = running.waiting().await;
            }
        });
        let (read, writer) = tokio::io::split(client_side);
        let mut wire = Wire { lines: BufReader::new(read).lines(), writer, next_id: 0 };
        let init = json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "tool-conformance", "version": "1"}});
        let answer = wire.request("initialize", &init.to_string()).await?;
        if answer.get("result").is_none() {
            return Err(format!("rmcp refused initialize: {answer}"));
        }
        wire.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_string()).await?;
        Ok(Adapter { mode, server, wire, records: HashMap::new(), refused: HashMap::new() })
    }

    fn route(
        &self,
        name: &str,
        description: Option<&str>,
        schema: &Value,
        records: Records,
    ) -> Result<ToolRoute<Server>, Answer> {
        match self.mode {
            Mode::Raw => raw_route(name, description, schema, records).map_err(Answer::Unsupported),
            Mode::Typed => typed::route(name, description, schema, records),
        }
    }

    async fn register(&mut self, tools: &[Value]) -> Result<Value, Answer> {
        let mut router = ToolRouter::new();
        self.records.clear();
        self.refused.clear();
        for tool in tools {
            let name = tool["name"].as_str().ok_or_else(|| Answer::Error("a tool needs a name".into()))?.to_string();
            let schema =
                tool.get("input_schema").ok_or_else(|| Answer::Error(format!("tool {name} has no input_schema")))?;
            if let Ok(path) = std::env::var("RMCP_ADAPTER_RECORD") {
                // Every schema met, one canonical line each: how schemas.jsonl is made.
                use std::io::Write as _;
                if let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
                    let _ = writeln!(file, "{}", typegen::canonical(schema));
                }
            }
            let records = Records::default();
            match self.route(&name, tool["description"].as_str(), schema, records.clone()) {
                Ok(route) => {
                    router.add_route(route);
                    self.records.insert(name, records);
                }
                Err(Answer::Unsupported(why)) => {
                    self.refused.insert(name, why);
                }
                Err(error) => return Err(error),
            }
        }
        *self.server.router.write().await = router;
        Ok(json!({"ok": true}))
    }

    fn entry(&self, name: &str) -> Result<Records, Answer> {
        if let Some(why) = self.refused.get(name) {
            return Err(Answer::Unsupported(why.clone()));
        }
        self.records.get(name).cloned().ok_or_else(|| Answer::Error(format!("no tool named {name} is registered")))
    }

    async fn describe(&mut self, name: &str) -> Result<Value, Answer> {
        self.entry(name)?;
        let answer = self.wire.request("tools/list", "{}").await.map_err(Answer::Error)?;
        let tools = answer["result"]["tools"].as_array().cloned().unwrap_or_default();
        tools
            .into_iter()
            .find(|t| t["name"] == name)
            .map(|t| json!({"input_schema": t["inputSchema"]}))
            .ok_or_else(|| Answer::Error(format!("tools/list does not list {name}: {answer}")))
    }

    /// One tools/call with the arguments as sent: (what the handler received per run, the
    /// caller's error when it did not run).
    async fn call(&mut self, name: &str, arguments: &str) -> Result<(Vec<Value>, Option<Value>), Answer> {
        let records = self.entry(name)?;
        records.lock().expect("records").clear();
        let params = format!(r#"{{"name":{},"arguments":{arguments}}}"#, json!(name));
        let answer = self.wire.request("tools/call", &params).await.map_err(Answer::Error)?;
        let calls = std::mem::take(&mut *records.lock().expect("records"));
        if !calls.is_empty() {
            return Ok((calls, None));
        }
        let error = if let Some(error) = answer.get("error") {
            let message = format!("MCP error {}: {}", error["code"], error["message"].as_str().unwrap_or_default());
            error_object(message)
        } else if answer["result"]["isError"] == json!(true) {
            let text: Vec<&str> = answer["result"]["content"]
                .as_array()
                .map(|c| c.iter().filter_map(|b| b["text"].as_str()).collect())
                .unwrap_or_default();
            error_object(text.join("\n"))
        } else {
            return Err(Answer::Error(format!("rmcp answered without running the tool: {answer}")));
        };
        Ok((calls, Some(error)))
    }

    async fn handle(&mut self, request: &Request<'_>) -> Result<Value, Answer> {
        match request.cmd.as_str() {
            "start" => Ok(json!({
                "protocol": 1,
                "implementation": {"name": "rmcp", "version": RMCP_VERSION, "language": "rust", "homepage": "https://github.com/modelcontextprotocol/rust-sdk"},
                "rules": ["RT-TOOL-8", "PLAT-162"],
                "transports": ["structured"],
            })),
            "register" => self.register(request.tools.as_deref().unwrap_or_default()).await,
            "describe" => self.describe(request.tool.as_deref().unwrap_or_default()).await,
            "invoke" => {
                if request.transport.as_deref() != Some("structured") {
                    return Err(Answer::Unsupported(format!("no transport {:?}", request.transport)));
                }
                let name = request.tool.clone().unwrap_or_default();
                let arguments = request.arguments.map(RawValue::get).unwrap_or("{}");
                let (calls, error) = self.call(&name, arguments).await?;
                Ok(match (calls.last(), error) {
                    (Some(received), _) => {
                        json!({"outcome": "executed", "handler_calls": calls.len(), "received": received})
                    }
                    (None, Some(error)) => json!({"outcome": "rejected", "handler_calls": 0, "error": error}),
                    (None, None) => unreachable!("a call either ran or was refused"),
                })
            }
            "normalize" => {
                let schema = request.input_schema.clone().unwrap_or(Value::Null);
                let tools = [json!({"name": SCRATCH_TOOL, "input_schema": schema})];
                self.register(&tools).await?;
                let arguments = request.arguments.map(RawValue::get).unwrap_or("{}");
                let (calls, error) = self.call(SCRATCH_TOOL, arguments).await?;
                Ok(match (calls.last(), error) {
                    (Some(received), _) => json!({"arguments": received}),
                    (None, Some(error)) => json!({"rejected": error}),
                    (None, None) => unreachable!("a call either ran or was refused"),
                })
            }
            "stop" => Ok(json!({"ok": true})),
            other => Err(Answer::Unsupported(format!("no command {other:?}"))),
        }
    }
}

/// The error object of a refused call: rmcp's message, and the problems serde's text names
/// (serde's errors are text only, and name one problem each).
fn error_object(message: String) -> Value {
    json!({"message": message, "problems": problems_in(&message), "expected_fields": []})
}

/// The problem serde's message names: `missing field `x``, `unknown field `x``, `invalid type`
/// or `invalid value` (no field named), `data did not match any variant of untagged enum`.
fn problems_in(message: &str) -> Vec<Value> {
    let named = |marker: &str| {
        message.find(marker).and_then(|at| {
            let rest = &message[at + marker.len()..];
            rest.find('`').map(|end| rest[..end].to_string())
        })
    };
    let mut problems = Vec::new();
    if let Some(field) = named("missing field `") {
        problems.push(json!({"kind": "missing_required", "field": field}));
    } else if let Some(field) = named("unknown field `") {
        problems.push(json!({"kind": "unknown_field", "field": field}));
    } else if message.contains("invalid type:") || message.contains("invalid length") {
        problems.push(json!({"kind": "wrong_type"}));
    } else if message.contains("unknown variant `") || message.contains("invalid value:") {
        problems.push(json!({"kind": "not_in_enum"}));
    } else if message.contains("did not match any variant of untagged enum") {
        problems.push(json!({"kind": "no_alternative"}));
    }
    problems
}

#[derive(Deserialize)]
struct Request<'a> {
    cmd: String,
    seq: Option<Value>,
    #[serde(borrow)]
    arguments: Option<&'a RawValue>,
    input_schema: Option<Value>,
    tools: Option<Vec<Value>>,
    tool: Option<String>,
    transport: Option<String>,
}

/// The adapter's command line: `--typed` or `--raw`, then protocol v1 on stdin and stdout.
pub fn main() {
    let mode = match std::env::args().nth(1).as_deref() {
        Some("--typed") => Mode::Typed,
        Some("--raw") => Mode::Raw,
        _ => {
            eprintln!("usage: rmcp-adapter --typed|--raw   (protocol v1 on stdin and stdout)");
            std::process::exit(2);
        }
    };
    runtime().block_on(serve(mode));
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a tokio runtime")
}

/// One reproduction, as the row's repro.rs runs it: the tool `name` made from `schema` the way
/// the adapter makes it (in `mode`: "typed" or "raw"), called once with `tools/call` and the
/// arguments text exactly; prints the Rust types of a typed tool, then `the tool received: ...`
/// or `the caller got: ...`.
pub fn reproduce(mode: &str, name: &str, schema: &str, arguments: &str) {
    let mode = if mode == "typed" { Mode::Typed } else { Mode::Raw };
    let schema: Value = serde_json::from_str(schema).expect("the schema is JSON");
    if mode == Mode::Typed {
        match typed::source(&schema) {
            Some(source) => println!("the types of Parameters<Args>:\n{source}\n"),
            None => println!("no Rust type was written for this schema (it is not a line of schemas.jsonl)"),
        }
    }
    runtime().block_on(async {
        let mut adapter = Adapter::start(mode).await.expect("rmcp starts");
        let tools = [json!({"name": name, "input_schema": schema})];
        match adapter.register(&tools).await {
            Ok(_) => {}
            Err(Answer::Unsupported(why) | Answer::Error(why)) => {
                println!("the tool cannot be made: {why}");
                return;
            }
        }
        if let Some(why) = adapter.refused.get(name) {
            println!("the tool cannot be made: {why}");
            return;
        }
        match adapter.call(name, arguments).await {
            Ok((calls, error)) => {
                for received in &calls {
                    println!("the tool received: {received}");
                }
                if let Some(error) = error {
                    println!("the caller got: {}", error["message"].as_str().unwrap_or_default());
                }
            }
            Err(Answer::Unsupported(why) | Answer::Error(why)) => println!("the call failed: {why}"),
        }
    });
}

async fn serve(mode: Mode) {
    let mut adapter = match Adapter::start(mode).await {
        Ok(adapter) => adapter,
        Err(why) => {
            eprintln!("rmcp did not start: {why}");
            std::process::exit(1);
        }
    };
    let mut input = BufReader::new(tokio::io::stdin()).lines();
    let mut output = tokio::io::stdout();
    while let Ok(Some(line)) = input.next_line().await {
        let (response, stop) = match serde_json::from_str::<Request>(&line) {
            Ok(request) => {
                let mut answer = match adapter.handle(&request).await {
                    Ok(Value::Object(map)) => map,
                    Ok(other) => {
                        Map::from_iter([("error".to_string(), json!(format!("the adapter answered {other}")))])
                    }
                    Err(Answer::Unsupported(why)) => Map::from_iter([("unsupported".to_string(), json!(why))]),
                    Err(Answer::Error(why)) => Map::from_iter([("error".to_string(), json!(why))]),
                };
                answer.insert("seq".into(), request.seq.clone().unwrap_or(Value::Null));
                (Value::Object(answer), request.cmd == "stop")
            }
            Err(why) => (
                json!({"seq": serde_json::from_str::<Value>(&line).ok().and_then(|v| v.get("seq").cloned()), "error": format!("the request cannot be read: {why}")}),
                false,
            ),
        };
        let mut text = response.to_string();
        text.push('\n');
        if output.write_all(text.as_bytes()).await.is_err() || output.flush().await.is_err() {
            break;
        }
        if stop {
            break;
        }
    }
    std::process::exit(0);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One call through rmcp in `mode`: what the handler received, or the caller's message.
    fn call(mode: Mode, schema: Value, arguments: &str) -> Result<Value, String> {
        runtime().block_on(async {
            let mut adapter = Adapter::start(mode).await.expect("rmcp starts");
            let tools = [json!({"name": "t", "input_schema": schema})];
            assert!(adapter.register(&tools).await.is_ok());
            match adapter.call("t", arguments).await {
                Ok((calls, None)) => Ok(calls[0].clone()),
                Ok((_, Some(error))) => Err(error["message"].as_str().unwrap_or_default().to_string()),
                Err(Answer::Unsupported(why) | Answer::Error(why)) => panic!("{why}"),
            }
        })
    }

    /// A schema of schemas.jsonl (the typed row has types for those only).
    fn corpus_schema(with: &str) -> Value {
        let text = include_str!("../schemas.jsonl");
        serde_json::from_str(text.lines().find(|l| l.contains(with)).expect("a corpus schema")).unwrap()
    }

    #[test]
    fn the_raw_path_hands_the_handler_the_arguments_unchecked() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        assert_eq!(call(Mode::Raw, schema, r#"{"m": "x &amp; y"}"#), Ok(json!({"m": "x &amp; y"})));
    }

    #[test]
    fn the_typed_path_refuses_a_missing_field_with_serdes_message_and_drops_unknown_names() {
        let schema =
            corpus_schema(r#""subject":{"type":"string"},"to":{"type":"string"}},"required":["to","subject"]"#);
        let refused = call(Mode::Typed, schema.clone(), r#"{"subject": "x"}"#).unwrap_err();
        assert_eq!(refused, "failed to deserialize parameters: missing field `to`");
        assert_eq!(problems_in(&refused), vec![json!({"kind": "missing_required", "field": "to"})]);
        let ran = call(Mode::Typed, schema, r#"{"to": "a", "subject": "b", "cc": "c"}"#).unwrap();
        assert_eq!(ran, json!({"to": "a", "subject": "b"}));
    }

    #[test]
    fn a_closed_root_is_deny_unknown_fields() {
        let source = typegen::generate(
            &json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}),
        );
        assert!(source.contains("#[serde(deny_unknown_fields)]\npub struct Args"), "{source}");
    }

    #[test]
    fn canonical_text_sorts_keys_at_every_depth() {
        let a: Value = serde_json::from_str(r#"{"b": {"d": 1, "c": [2, {"f": 3, "e": 4}]}, "a": true}"#).unwrap();
        assert_eq!(typegen::canonical(&a), r#"{"a":true,"b":{"c":[2,{"e":4,"f":3}],"d":1}}"#);
    }

    #[test]
    fn every_schema_of_the_catalogue_has_types() {
        for line in include_str!("../schemas.jsonl").lines() {
            let schema: Value = serde_json::from_str(line).unwrap();
            assert!(typed::source(&schema).is_some(), "no types for {line}");
        }
    }
}
