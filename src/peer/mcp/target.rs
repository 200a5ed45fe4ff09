//! An MCP server, an MCP gateway or an HTTP bridge as a [`Target`]: [`McpTarget`], for the seven
//! routes of [`McpRoute`]. Through an HTTP bridge (`bridge`), the commands are HTTP requests
//! instead of MCP messages (docs/protocol.md, "HTTP bridges"); all else is as for a gateway.
//!
//! Every tool of the run is published at once, from the manifest of the selected cases
//! ([`Manifest`]), written with an empty record into a fresh folder per run and named to what the
//! harness starts in `TOOL_CONFORMANCE_MANIFEST` and `TOOL_CONFORMANCE_RECORD`. For a gateway, the
//! harness first starts its own recording upstream MCP server (`tool-conformance mcp-upstream`, on
//! a loopback port) and hands it to the gateway as `TOOL_CONFORMANCE_UPSTREAM_URL` /
//! `TOOL_CONFORMANCE_UPSTREAM_CMD`, also substituted for `{upstream_url}` / `{upstream_cmd}` in the
//! gateway's command line.
//!
//! The commands: `start` is `initialize` (the server's `serverInfo` names it; it claims every rule
//! of the corpus and the route's one transport), then `notifications/initialized` and the whole
//! `tools/list`, read once: tools never change during a run. `register` sends nothing: each case
//! tool must be in the listing under its published name. `describe` is the tool's `inputSchema`
//! as listed, for both views. `invoke` is `tools/call` on the published name with the case's
//! arguments as they are; `normalize` is `tools/call` on the normalize tool of the schema. What
//! a call led to is the response (an error is a JSON-RPC error or a result with `isError`) and the
//! record's lines appended during the call. An error that carries the protocol-v1 error object by
//! the structured-error convention (the `structuredContent` of the `isError` result, or the
//! `data` of the JSON-RPC error, an object with `problems`) is judged in full; any other is an
//! [`Invocation::RejectedUnstructured`] with the error's text.
//!
//! A server process that crashes, hangs or writes garbage is restarted (and initialized again)
//! before the next command, within the restart budget, as a protocol-v1 implementation is.
//!
//! A record the user's upstream writes (`--mcp-gateway-url` with `--mcp-record`, or a server's
//! under `--mcp-server-url`) must belong to this run: its last `{"manifest": FINGERPRINT}` line,
//! which `mcp-upstream` writes when it starts, must be the fingerprint of the run's own manifest
//! ([`record_mismatch`]); otherwise `normalize_N` and the renamed tools would name other schemas,
//! and the run is refused before any case (the binary exits 2).

use crate::case::tool::{Tool, Transport, View};
use crate::json::Value;
use crate::mcp::Manifest;
use crate::peer::lifecycle::{Lifecycle, State};
use crate::peer::mcp::bridge::{self, Bridge};
use crate::peer::mcp::client::{Client, HttpSession, Trouble, Wire, hide};
use crate::peer::mcp::record::Record;
use crate::peer::mcp::wire::{PROTOCOL_VERSION, RpcError};
use crate::peer::remote::Channel;
use crate::peer::spec::{CommandLine, Limits, McpOptions, McpRoute};
use crate::peer::stdio::StdioChannel;
use crate::peer::transcript::{WireLog, truncate};
use crate::peer::{Implementation, Invocation, Target, TargetError};
use serde_json::json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How much of a message an error reason quotes.
const QUOTED_CHARS: usize = 400;
/// The most pages of `tools/list` read (a server whose cursor never ends is an error).
const MAX_PAGES: usize = 1000;
/// The most characters of `serverInfo`'s name and version kept.
const INFO_CHARS: usize = 200;
/// How many times the response cap all the pages of `tools/list` may hold together (their JSON
/// text); a listing of more is an error, so that its pages are never all held.
const LISTING_CAPS: usize = 4;

/// A folder of the run's own, removed when the run ends.
#[derive(Debug)]
struct RunFolder(PathBuf);

impl RunFolder {
    fn create() -> std::io::Result<RunFolder> {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let path = std::env::temp_dir().join(format!("tool-conformance-mcp-{}-{nanos:x}", std::process::id()));
        std::fs::create_dir(&path)?;
        crate::peer::reaper::made(&path);
        Ok(RunFolder(path))
    }
}

impl Drop for RunFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        crate::peer::reaper::removed(&self.0);
    }
}

/// Why the record a `route` reads belongs to another run than one publishing `manifest`, if it
/// does: the upstream that writes it was started with a manifest of another case selection or
/// corpus (its fingerprint line says another), or, for a gateway whose upstream the user
/// started, no upstream has written to it at all. `None` when the harness writes the record
/// itself (it then starts what writes to it), or when it matches.
pub fn record_mismatch(route: &McpRoute, manifest: &Manifest) -> Option<String> {
    let path = route.given_record()?;
    let upstream_required = route.is_gateway();
    let ours = manifest.fingerprint();
    match Record::new(path.to_path_buf(), MAX_FINGERPRINT_LINE).fingerprint() {
        Some(theirs) if theirs == ours => None,
        Some(theirs) => Some(format!(
            "the record {} was written by an MCP upstream serving another manifest (fingerprint {}) than this run's \
             case selection and corpus make ({ours}): its tools, normalize_N among them, would name other schemas. \
             Mend it: print this run's manifest with `tool-conformance manifest` and the same selection flags \
             (--case, --rule, --clause, --skip, --cases, --add-cases), restart `tool-conformance mcp-upstream \
             --manifest FILE --record {}` on it, or run with the selection that upstream's manifest was made for",
            path.display(),
            truncate(&crate::json::inert::one_line(&theirs), 80),
            path.display()
        )),
        None if upstream_required => Some(format!(
            "the record {} has no {{\"manifest\": …}} line, which `tool-conformance mcp-upstream` writes when it \
             starts: no upstream of this harness writes to it. Mend it: start `tool-conformance mcp-upstream \
             --manifest FILE --record {}` (FILE printed by `tool-conformance manifest` with this run's selection \
             flags) and point the gateway at it, or give --mcp-record the file that upstream writes",
            path.display(),
            path.display()
        )),
        None => None,
    }
}

/// The longest record line read for a fingerprint.
const MAX_FINGERPRINT_LINE: usize = 64 * 1024;

/// An MCP server or gateway under test, reached over MCP.
///
/// ```no_run
/// use tool_conformance::mcp::Manifest;
/// use tool_conformance::{CommandLine, Corpus, Limits, McpRoute, McpTarget, Selection, WireLog, run};
///
/// let corpus = Corpus::embedded().expect("the corpus loads");
/// let selection = Selection::all();
/// // Every tool of the selected cases, published at once.
/// let manifest = Manifest::of(corpus.cases.iter().filter(|c| selection.matches(c)));
/// let rules = corpus.catalog.rules.iter().map(|r| r.id.clone()).collect();
/// let route = McpRoute::Server(CommandLine::parse("python3 my_mcp_server.py").expect("one command"));
/// let mut target = McpTarget::new(route, manifest, rules, Limits::default(), WireLog::new());
/// let ran = run(&corpus, &selection, &mut target);
/// println!("{} breaks a rule: {}", ran.implementation.name, ran.breaks_a_rule());
/// ```
pub struct McpTarget {
    route: McpRoute,
    manifest: Manifest,
    rules: Vec<String>,
    limits: Limits,
    log: WireLog,
    program: Option<PathBuf>,
    folder: Option<RunFolder>,
    upstream: Option<StdioChannel>,
    client: Option<Client>,
    /// An HTTP bridge's client, in place of the MCP client.
    bridge: Option<Bridge>,
    /// How messages name the bridge (its command line as given), when the harness starts it.
    bridge_label: Option<String>,
    record: Option<Record>,
    implementation: Option<Implementation>,
    /// Each listed tool's published name and its `inputSchema`.
    listing: HashMap<String, Value>,
    /// The published name of each tool of the current registration.
    names: HashMap<String, String>,
    life: Lifecycle,
    case: u64,
    options: McpOptions,
    /// What its HTTP errors contain to point back to get_api_spec (`--get-api-spec`).
    spec_pointer: String,
}

impl McpTarget {
    /// A target reached by `route`, publishing `manifest`'s tools, claiming `rules`, within
    /// `limits`, recording into `log`.
    pub fn new(route: McpRoute, manifest: Manifest, rules: Vec<String>, limits: Limits, log: WireLog) -> McpTarget {
        McpTarget {
            route,
            manifest,
            rules,
            limits,
            log,
            program: None,
            folder: None,
            upstream: None,
            client: None,
            bridge: None,
            bridge_label: None,
            record: None,
            implementation: None,
            listing: HashMap::new(),
            names: HashMap::new(),
            life: Lifecycle::new(),
            case: 0,
            options: McpOptions::default(),
            spec_pointer: crate::peer::DEFAULT_SPEC_POINTER.into(),
        }
    }

    /// The same target, told `options` (headers, tool names, the upstream's address, the wait),
    /// which [`McpOptions::check`] has checked against its route.
    pub fn with_options(mut self, options: McpOptions) -> McpTarget {
        self.options = options;
        self
    }

    /// The values of the headers, which nothing recorded or quoted shows.
    fn secrets(&self) -> Vec<String> {
        self.options.headers.iter().map(|h| h.value().to_string()).collect()
    }

    /// The name the implementation publishes the manifest's tool `name` under.
    fn published_name(&self, name: &str) -> String {
        match &self.options.tool_name {
            Some(template) => template.apply(name),
            None => name.to_string(),
        }
    }

    /// `error` with the secrets hidden.
    fn hidden_error(&self, error: TargetError) -> TargetError {
        if self.options.headers.is_empty() {
            return error;
        }
        let secrets = self.secrets();
        match error {
            TargetError::Unsupported(why) => TargetError::Unsupported(hide(&why, &secrets)),
            TargetError::Broken(why) => TargetError::Broken(hide(&why, &secrets)),
            TargetError::NotApplicable(why) => TargetError::NotApplicable(hide(&why, &secrets)),
            TargetError::Refused(error) => TargetError::Refused(hidden_value(error, &secrets)),
            TargetError::NotJson(text) => TargetError::NotJson(hide(&text, &secrets)),
        }
    }

    /// `invocation` with the secrets hidden.
    fn hidden_invocation(&self, invocation: Invocation) -> Invocation {
        if self.options.headers.is_empty() {
            return invocation;
        }
        let secrets = self.secrets();
        match invocation {
            Invocation::Executed { handler_calls, received } => {
                Invocation::Executed { handler_calls, received: hidden_value(received, &secrets) }
            }
            Invocation::Rejected { handler_calls, error } => {
                Invocation::Rejected { handler_calls, error: hidden_value(error, &secrets) }
            }
            Invocation::RejectedUnstructured { handler_calls, message } => {
                Invocation::RejectedUnstructured { handler_calls, message: hide(&message, &secrets) }
            }
        }
    }

    /// What the implementation's HTTP errors contain to point callers back to get_api_spec, in
    /// place of the tool's name: MCP has no start answer to say it in.
    pub fn with_spec_pointer(mut self, pointer: String) -> McpTarget {
        self.spec_pointer = pointer;
        self
    }

    /// The `tool-conformance` program whose `mcp-upstream` a gateway route starts (default: the
    /// running program).
    pub fn with_upstream_program(mut self, program: PathBuf) -> McpTarget {
        self.program = Some(program);
        self
    }

    /// The folder, the manifest and the record; for a gateway, the upstream; then the client.
    fn prepare(&mut self) -> Result<(), String> {
        if let Some(mismatch) = record_mismatch(&self.route, &self.manifest) {
            return Err(mismatch);
        }
        let folder = RunFolder::create().map_err(|e| format!("the run's folder cannot be made: {e}"))?;
        let manifest = folder.0.join("manifest.json");
        std::fs::write(&manifest, self.manifest.to_text())
            .map_err(|e| format!("the manifest cannot be written to {}: {e}", manifest.display()))?;
        let record = match self.route.given_record() {
            Some(record) => record.to_path_buf(),
            None => {
                let record = folder.0.join("record.jsonl");
                std::fs::write(&record, b"").map_err(|e| format!("the record cannot be made: {e}"))?;
                record
            }
        };
        let mut env = vec![
            ("TOOL_CONFORMANCE_MANIFEST".to_string(), manifest.display().to_string()),
            ("TOOL_CONFORMANCE_RECORD".to_string(), record.display().to_string()),
        ];
        let mut substitutions = Vec::new();
        if self.route.starts_upstream() {
            let (url, command) = self.start_upstream(&manifest, &record)?;
            if let McpRoute::GatewayUrl { .. } | McpRoute::BridgeUrl { .. } = self.route {
                let what = if self.route.is_bridge() { "bridge" } else { "gateway" };
                eprintln!(
                    "the harness's upstream MCP server, for the {what} to forward to:\n  Streamable HTTP: {url}\n  stdio: {command}"
                );
            }
            env.push(("TOOL_CONFORMANCE_UPSTREAM_URL".into(), url.clone()));
            env.push(("TOOL_CONFORMANCE_UPSTREAM_CMD".into(), command.clone()));
            substitutions = vec![("{upstream_url}", url), ("{upstream_cmd}", command)];
        }
        let (max, lines) = (self.limits.max_response_bytes, self.limits.stderr_lines);
        let headers: Vec<(String, String)> =
            self.options.headers.iter().map(|h| (h.name().to_string(), h.value().to_string())).collect();
        let bridge = match &self.route {
            McpRoute::Bridge { command, paths } => {
                let port = free_port("bridge")?;
                substitutions.push(("{port}", port.to_string()));
                env.push(("TOOL_CONFORMANCE_BRIDGE_PORT".into(), port.to_string()));
                let given = command.as_str().to_string();
                let command = substituted(command, &substitutions)?;
                let base = crate::peer::spec::HttpUrl::parse(&format!("http://127.0.0.1:{port}"))
                    .map_err(|e| e.to_string())?;
                // Named as given, with its placeholders: the port changes from one run to the next.
                self.bridge_label = Some(format!("`{}` (an HTTP bridge)", given));
                Some(Bridge::new(&base, paths.clone(), max, self.log.clone()).with_process(
                    &command,
                    env.clone(),
                    lines,
                )?)
            }
            McpRoute::BridgeUrl { url, paths, .. } => Some(Bridge::new(url, paths.clone(), max, self.log.clone())),
            _ => None,
        };
        if let Some(bridge) = bridge {
            let mut bridge = bridge.with_headers(headers);
            bridge.secrets = self.secrets();
            self.bridge = Some(bridge);
            self.record = Some(Record::new(record, max));
            self.folder = Some(folder);
            return Ok(());
        }
        let wire = match &self.route {
            McpRoute::Server(command) | McpRoute::Gateway(command) => {
                let command = substituted(command, &substitutions)?;
                Wire::Stdio(StdioChannel::new(command, max, lines).with_env(env))
            }
            McpRoute::ServerUrl { url, .. } | McpRoute::GatewayUrl { url, .. } => {
                Wire::Http(HttpSession::new(url.clone(), max).with_headers(headers))
            }
            McpRoute::GatewayHttp(command) => {
                let port = free_port("gateway")?;
                substitutions.push(("{port}", port.to_string()));
                env.push(("TOOL_CONFORMANCE_GATEWAY_PORT".into(), port.to_string()));
                let process = bridge::process(&substituted(command, &substitutions)?, env, lines)?;
                let url = crate::peer::spec::HttpUrl::parse(&format!("http://127.0.0.1:{port}{GATEWAY_PATH}"))
                    .map_err(|e| e.to_string())?;
                Wire::Http(HttpSession::new(url, max).with_headers(headers).with_process(process))
            }
            McpRoute::Bridge { .. } | McpRoute::BridgeUrl { .. } => {
                return Err("an HTTP bridge has no MCP client (a bug of the suite)".into());
            }
        };
        let mut client = Client::new(wire, self.log.clone());
        client.secrets = self.secrets();
        // Named as given, with its placeholders: the upstream's port and folder (and the
        // gateway's own port) change from one run to the next, and reports must not.
        match &self.route {
            McpRoute::Gateway(command) => client.label = Some(format!("`{}` (MCP over stdio)", command.as_str())),
            McpRoute::GatewayHttp(command) => {
                client.label = Some(format!("`{}` (MCP over Streamable HTTP)", command.as_str()));
            }
            _ => {}
        }
        self.client = Some(client);
        self.record = Some(Record::new(record, max));
        self.folder = Some(folder);
        Ok(())
    }

    /// Starts `mcp-upstream` on a loopback port: its URL (the first line it prints) and the
    /// command line of the same server on stdio.
    fn start_upstream(&mut self, manifest: &Path, record: &Path) -> Result<(String, String), String> {
        let program = match &self.program {
            Some(program) => program.clone(),
            None => std::env::current_exe().map_err(|e| format!("the harness's own program is not found: {e}"))?,
        };
        let words = |http: bool| {
            let mut words = vec![
                program.display().to_string(),
                "mcp-upstream".into(),
                "--manifest".into(),
                manifest.display().to_string(),
                "--record".into(),
                record.display().to_string(),
            ];
            if http {
                let listen = self.options.upstream_listen.map_or_else(|| "127.0.0.1:0".into(), |a| a.to_string());
                words.extend(["--http".into(), listen]);
            }
            shlex::try_join(words.iter().map(String::as_str)).unwrap_or_default()
        };
        let line = CommandLine::parse(&words(true)).map_err(|e| e.to_string())?;
        let mut upstream = StdioChannel::new(line, 4096, self.limits.stderr_lines);
        let failed = |why: String, upstream: &StdioChannel| {
            let mut reason = format!("the upstream MCP server did not start: {why}");
            for line in upstream.stderr_tail().unwrap_or_default() {
                reason.push_str(&format!("\n    | {line}"));
            }
            reason
        };
        upstream.open().map_err(|e| failed(e.to_string(), &upstream))?;
        let first = upstream.receive(self.limits.start_timeout).map_err(|e| failed(e.to_string(), &upstream))?;
        let first = String::from_utf8_lossy(&first).into_owned();
        let Some(url) = first.split_whitespace().find(|w| w.starts_with("http://")) else {
            return Err(failed(format!("its first line names no http:// URL: {}", truncate(&first, 200)), &upstream));
        };
        let url = url.to_string();
        self.upstream = Some(upstream);
        Ok((url, words(false)))
    }

    /// Opens the client and runs `initialize`, `notifications/initialized` and `tools/list`.
    fn connect(&mut self) -> Result<Implementation, TargetError> {
        if self.route.is_bridge() {
            return self.connect_bridge();
        }
        let timeout = self.limits.start_timeout;
        let Some(client) = self.client.as_mut() else {
            return Err(TargetError::Broken("the MCP client was not set up".into()));
        };
        if let Err(error) = client.open() {
            let mut reason = format!("{error}\n  implementation: {}", client.describe());
            for line in client.stderr_tail().unwrap_or_default() {
                reason.push_str(&format!("\n    | {line}"));
            }
            return Err(TargetError::Broken(reason));
        }
        let params = json!({
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "tool-conformance", "version": env!("CARGO_PKG_VERSION")},
        });
        let result = self.initialize(params, timeout)?;
        let info = result.get("serverInfo");
        // Cut where it is read: every report heads with the name, so a long one is never copied.
        let text = |key: &str| info.and_then(|i| i.get(key)).and_then(Value::as_str).map(|t| cut(t, INFO_CHARS));
        let version = result.get("protocolVersion").and_then(Value::as_str).map(String::from);
        if let Some(client) = self.client.as_mut() {
            client.initialized(version.as_deref());
        }
        let notified = self.client.as_mut().map(|c| c.notify("notifications/initialized", timeout));
        if let Some(Err(trouble)) = notified {
            return Err(self.broken(trouble));
        }
        self.listing = self.list(timeout)?;
        // A gateway that answers `initialize` with its upstream's own serverInfo is not the
        // upstream: it is named for what it did, so that no report credits the harness's server.
        let passed_on = self.route.is_gateway() && text("name").as_deref() == Some(crate::mcp::UPSTREAM_NAME);
        let (name, version) = if passed_on {
            ("(a gateway that answers with its upstream's serverInfo)".to_string(), String::new())
        } else {
            (
                text("name").unwrap_or_else(|| "(an MCP server with no serverInfo name)".into()),
                text("version").unwrap_or_default(),
            )
        };
        let secrets = self.secrets();
        Ok(Implementation {
            name: hide(&name, &secrets),
            version: hide(&version, &secrets),
            language: None,
            homepage: None,
            rules: self.rules.clone(),
            transports: vec![self.route.transport()],
            tool_name: self.options.tool_name.as_ref().map(|t| t.as_str().to_string()),
            answered: None,
            spec_pointer: self.spec_pointer.clone(),
        })
    }

    /// Starts an HTTP bridge's process, if the harness runs it, and reads its OpenAPI document:
    /// tried again every 200 ms until it is answered or the wait is over (`--wait`; for a bridge
    /// the harness starts, the start timeout when not given, while it binds its port); then the
    /// tools it serves, and its name and version from the document's `info`.
    fn connect_bridge(&mut self) -> Result<Implementation, TargetError> {
        let timeout = self.limits.start_timeout;
        let most = self.limits.max_response_bytes.saturating_mul(LISTING_CAPS);
        let started = matches!(self.route, McpRoute::Bridge { .. });
        let wait = self.options.wait.or(started.then_some(timeout));
        let label = self.bridge_label.clone();
        let Some(bridge) = self.bridge.as_mut() else {
            return Err(TargetError::Broken("the HTTP bridge's client was not set up".into()));
        };
        if let Err(error) = bridge.open() {
            let mut reason = format!("{error}\n  implementation: {}", bridge.describe(label.as_deref()));
            for line in bridge.stderr_tail().unwrap_or_default() {
                reason.push_str(&format!("\n    | {line}"));
            }
            return Err(TargetError::Broken(reason));
        }
        let deadline = Instant::now() + wait.unwrap_or_default();
        let document = loop {
            let got = bridge.document(timeout, most);
            match got {
                Ok(document) => break document,
                Err(mut trouble) => {
                    let exited = bridge.exit_status();
                    if exited.is_none() && Instant::now() < deadline {
                        std::thread::sleep(Duration::from_millis(200));
                        continue;
                    }
                    if let Some(status) = exited {
                        trouble.what = format!("{}; the bridge's process exited ({status})", trouble.what);
                    } else if let Some(wait) = wait {
                        trouble.what = format!("no answer within {wait:?}; the last: {}", trouble.what);
                    }
                    trouble.restart = started;
                    return Err(self.broken(trouble));
                }
            }
        };
        self.listing = bridge.tools(&document);
        let (title, version) = bridge::identity(&document);
        let secrets = self.secrets();
        // A bridge that titles its document with its upstream's serverInfo (as mcpo does) is not
        // the upstream: it is named for what it did, as a gateway that passes it on is.
        let (name, version) = match title {
            Some(title) if title == crate::mcp::UPSTREAM_NAME => {
                ("(an HTTP bridge that titles its OpenAPI document with its upstream's serverInfo)".to_string(), None)
            }
            Some(title) => (cut(&title, INFO_CHARS), version),
            None => ("(an HTTP bridge whose OpenAPI document has no info.title)".to_string(), version),
        };
        Ok(Implementation {
            name: hide(&name, &secrets),
            version: hide(&version.map(|v| cut(&v, INFO_CHARS)).unwrap_or_default(), &secrets),
            language: None,
            homepage: None,
            rules: self.rules.clone(),
            transports: vec![self.route.transport()],
            tool_name: self.options.tool_name.as_ref().map(|t| t.as_str().to_string()),
            answered: None,
            spec_pointer: self.spec_pointer.clone(),
        })
    }

    /// `initialize`: tried once, or, with a wait, again every 200 ms until it is answered or the
    /// wait is over (a gateway still starting refuses the connection, or answers an error while
    /// its upstream is not up); then the last failure is the error, with how long it was tried.
    /// A gateway the harness starts on HTTP (`--mcp-gateway-http`) is waited for so, the start
    /// timeout when `--wait` is not given, while it binds its port; a process that exits ends
    /// the wait.
    fn initialize(&mut self, params: Value, timeout: Duration) -> Result<Value, TargetError> {
        let started = matches!(self.route, McpRoute::GatewayHttp(_));
        let Some(wait) = self.options.wait.or(started.then_some(timeout)) else {
            return self.rpc("initialize", params, timeout, "the initialize result");
        };
        let flag = if self.options.wait.is_some() { "--wait " } else { "the start timeout " };
        let deadline = std::time::Instant::now() + wait;
        loop {
            let error = match self.try_rpc("initialize", params.clone(), timeout, "the initialize result") {
                Ok(result) => return Ok(result),
                Err(error) => error,
            };
            let exited = self.client.as_mut().and_then(Client::exit_status);
            if exited.is_some() || std::time::Instant::now() >= deadline {
                return Err(match error {
                    Err(mut trouble) => {
                        trouble.what = match exited {
                            Some(status) => format!("{}; the gateway's process exited ({status})", trouble.what),
                            None => {
                                format!("no answer to initialize within {flag}{wait:?}; the last: {}", trouble.what)
                            }
                        };
                        self.broken(trouble)
                    }
                    Ok(TargetError::Broken(why)) => {
                        TargetError::Broken(format!("no answer to initialize within {flag}{wait:?}; the last: {why}"))
                    }
                    Ok(other) => other,
                });
            }
            std::thread::sleep(Duration::from_millis(200));
            if let Some(client) = self.client.as_mut() {
                client.reconnect();
            }
        }
    }

    /// Every tool `tools/list` publishes, page by page: all the pages within `timeout`, and
    /// together at most [`LISTING_CAPS`] times the response cap.
    fn list(&mut self, timeout: Duration) -> Result<HashMap<String, Value>, TargetError> {
        let mut listing = HashMap::new();
        let mut cursor: Option<String> = None;
        let deadline = Instant::now() + timeout;
        let most = self.limits.max_response_bytes.saturating_mul(LISTING_CAPS);
        let mut held = 0usize;
        for page in 0..MAX_PAGES {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(TargetError::Broken(format!(
                    "tools/list did not end within {timeout:?} (the start timeout, for all its pages): {page} pages read"
                )));
            }
            let params = match &cursor {
                Some(cursor) => json!({ "cursor": cursor }),
                None => json!({}),
            };
            let result = self.rpc("tools/list", params, left, "the tools/list result")?;
            held = held.saturating_add(result.to_string().len());
            if held > most {
                return Err(TargetError::Broken(format!(
                    "tools/list's pages hold more than {most} bytes together ({LISTING_CAPS} times the response \
                     cap): {} pages read",
                    page + 1
                )));
            }
            let Some(tools) = result.get("tools").and_then(Value::as_array) else {
                return Err(TargetError::Broken(format!(
                    "the tools/list result has no tools array: {}",
                    truncate(&result.to_string(), QUOTED_CHARS)
                )));
            };
            for tool in tools {
                let (Some(name), Some(schema)) = (tool.get("name").and_then(Value::as_str), tool.get("inputSchema"))
                else {
                    return Err(TargetError::Broken(format!(
                        "tools/list lists a tool without a name or an inputSchema: {}",
                        truncate(&tool.to_string(), QUOTED_CHARS)
                    )));
                };
                listing.entry(name.to_string()).or_insert_with(|| schema.clone());
            }
            match result.get("nextCursor").and_then(Value::as_str) {
                Some(next) if !next.is_empty() => cursor = Some(next.to_string()),
                _ => return Ok(listing),
            }
        }
        Err(TargetError::Broken(format!("tools/list did not end within {MAX_PAGES} pages")))
    }

    /// A call whose error is not expected (`initialize`, `tools/list`): its result.
    fn rpc(&mut self, method: &str, params: Value, timeout: Duration, what: &str) -> Result<Value, TargetError> {
        self.try_rpc(method, params, timeout, what).map_err(|error| match error {
            Ok(error) => error,
            Err(trouble) => self.broken(trouble),
        })
    }

    /// [`McpTarget::rpc`], a call that got no usable response given back as its trouble, not
    /// yet the error (nor the restart) it leads to.
    fn try_rpc(
        &mut self,
        method: &str,
        params: Value,
        timeout: Duration,
        what: &str,
    ) -> Result<Value, Result<TargetError, Trouble>> {
        let Some(client) = self.client.as_mut() else {
            return Err(Ok(TargetError::Broken("the MCP client was not set up".into())));
        };
        match client.call(method, params, timeout) {
            Ok(Ok(result)) if result.is_object() => Ok(result),
            Ok(Ok(result)) => Err(Ok(TargetError::Broken(format!(
                "{what} is not an object: {}",
                truncate(&result.to_string(), QUOTED_CHARS)
            )))),
            Ok(Err(error)) => {
                let data = error.data.map(|d| format!(" (data: {})", truncate(&d.to_string(), QUOTED_CHARS)));
                Err(Ok(TargetError::Broken(format!(
                    "the server answered {method} with an error: {}{}",
                    truncate(&error.message, QUOTED_CHARS),
                    data.unwrap_or_default()
                ))))
            }
            Err(trouble) => Err(Err(trouble)),
        }
    }

    /// The reason for a trouble, marking the server for a restart when it needs one.
    fn broken(&mut self, trouble: Trouble) -> TargetError {
        let mut reason = format!("{}.\n  sent: {}", trouble.what, truncate(&trouble.sent, QUOTED_CHARS));
        if let Some(received) = &trouble.received {
            reason.push_str(&format!("\n  received: {}", truncate(received, QUOTED_CHARS)));
        }
        let bridge = self.bridge.as_mut().map(|bridge| (bridge.describe(self.bridge_label.as_deref()), bridge));
        if let Some((described, bridge)) = bridge {
            reason.push_str(&format!("\n  implementation: {described}"));
            if trouble.restart {
                bridge.close();
                for line in bridge.stderr_tail().unwrap_or_default() {
                    reason.push_str(&format!("\n    | {line}"));
                }
            }
        }
        if let Some(client) = self.client.as_mut() {
            reason.push_str(&format!("\n  implementation: {}", client.describe()));
            if trouble.restart {
                client.close();
                match client.stderr_tail() {
                    Some(lines) if lines.is_empty() => reason.push_str("\n  it wrote nothing to stderr in this case"),
                    Some(lines) => {
                        reason.push_str("\n  its last stderr lines in this case:");
                        for line in lines {
                            reason.push_str(&format!("\n    | {line}"));
                        }
                    }
                    None => {}
                }
            }
        }
        if trouble.restart {
            self.life.state = State::NeedsRestart(trouble.what);
        }
        TargetError::Broken(reason)
    }

    /// Before each command: a new case marks the stderr it quotes; a server that broke is
    /// started again, within the budget.
    fn ensure_up(&mut self) -> Result<(), TargetError> {
        let begun = self.log.cases_begun();
        let new_case = begun != self.case;
        self.case = begun;
        let Some(last) = self.life.restart_due(self.limits.restarts)? else {
            if new_case {
                self.client.iter_mut().for_each(Client::mark_case);
                self.bridge.iter_mut().for_each(Bridge::mark_case);
            }
            return Ok(());
        };
        if let Some(client) = self.client.as_mut() {
            client.close();
            client.quiet = new_case;
        }
        if let Some(bridge) = self.bridge.as_mut() {
            bridge.close();
            bridge.quiet = new_case;
        }
        let restarted = self.connect();
        if let Some(client) = self.client.as_mut() {
            client.quiet = false;
            if new_case {
                client.mark_case();
            }
        }
        if let Some(bridge) = self.bridge.as_mut() {
            bridge.quiet = false;
            if new_case {
                bridge.mark_case();
            }
        }
        match restarted {
            Ok(_) => {
                self.life.state = State::Up;
                Ok(())
            }
            Err(error) => {
                let first = error.to_string().lines().next().unwrap_or_default().to_string();
                self.life.state = State::Dead(format!("restart {} failed: {first}", self.life.restarts));
                Err(TargetError::Broken(format!("the implementation could not be restarted after: {last}\n{error}")))
            }
        }
    }

    /// `tools/call` of the manifest's tool `name`, under the name it is published as: what the
    /// response and the record (whose lines name the manifest's tool) show.
    fn call_tool(&mut self, name: &str, arguments: &Value) -> Result<Invocation, TargetError> {
        if self.route.is_bridge() {
            return self.call_bridge(name, arguments);
        }
        self.ensure_up()?;
        let published = self.published_name(name);
        let (Some(client), Some(record)) = (self.client.as_mut(), self.record.as_mut()) else {
            return Err(TargetError::Broken("the MCP client was not set up".into()));
        };
        record.mark().map_err(TargetError::Broken)?;
        let params = json!({ "name": published, "arguments": arguments });
        let outcome = match client.call("tools/call", params, self.limits.timeout) {
            Ok(outcome) => outcome,
            Err(trouble) => return Err(self.broken(trouble)),
        };
        let runs = self.runs_of(name, "tools/call")?;
        let handler_calls = runs.count;
        Ok(match outcome {
            Err(error) => rejection_of_error(handler_calls, error),
            Ok(result) if result.get("isError") == Some(&Value::Bool(true)) => {
                rejection_of_result(handler_calls, &result)
            }
            Ok(_) if let Some(text) = runs.not_json => return Err(TargetError::NotJson(text)),
            Ok(result) => match runs.last {
                Some(received) => Invocation::Executed { handler_calls, received },
                None => {
                    return Err(TargetError::Broken(format!(
                        "tools/call of {name} answered a success, but no handler ran (the record has no line for \
                         the call): {}",
                        truncate(&result.to_string(), QUOTED_CHARS)
                    )));
                }
            },
        })
    }

    /// What the record says the handler of the manifest's tool `name` did during the call just
    /// made (`call` names it): an error when the harness's own upstream is gone (the answer then
    /// means nothing) or the record cannot be read.
    fn runs_of(&mut self, name: &str, call: &str) -> Result<crate::peer::mcp::record::Runs, TargetError> {
        if let Some(status) = self.upstream.as_mut().and_then(StdioChannel::exit_status) {
            let mut reason = format!("the harness's upstream MCP server exited ({status}) during {call} of {name}");
            for line in self.upstream.as_ref().and_then(StdioChannel::stderr_tail).unwrap_or_default() {
                reason.push_str(&format!("\n    | {line}"));
            }
            return Err(TargetError::Broken(reason));
        }
        let Some(record) = self.record.as_mut() else {
            return Err(TargetError::Broken("the record was not set up".into()));
        };
        record.runs_since_mark(name).map_err(|why| {
            // A record the harness made is named without its folder, which changes every run.
            let path = match self.route.given_record() {
                Some(record) => record.display().to_string(),
                None => "the run's record (TOOL_CONFORMANCE_RECORD)".into(),
            };
            TargetError::Broken(format!("{call} of {name}: {why}\n  record: {path}"))
        })
    }

    /// A POST of the manifest's tool `name`, under the name it is published as, to an HTTP
    /// bridge: a success (a 2xx status) is what the record shows the handler received; any other
    /// status is a refusal, read as an MCP error is: by the structured-error convention when the
    /// body is the protocol-v1 error object (with `problems`), else as text, the status and body.
    fn call_bridge(&mut self, name: &str, arguments: &Value) -> Result<Invocation, TargetError> {
        self.ensure_up()?;
        let published = self.published_name(name);
        let restart = matches!(self.route, McpRoute::Bridge { .. });
        let (Some(bridge), Some(record)) = (self.bridge.as_mut(), self.record.as_mut()) else {
            return Err(TargetError::Broken("the HTTP bridge's client was not set up".into()));
        };
        record.mark().map_err(TargetError::Broken)?;
        let answer = match bridge.call(&published, arguments, self.limits.timeout) {
            Ok(answer) => answer,
            Err(mut trouble) => {
                trouble.restart = restart;
                return Err(self.broken(trouble));
            }
        };
        let runs = self.runs_of(name, "the POST")?;
        let handler_calls = runs.count;
        if !(200..300).contains(&answer.status) {
            // By the structured-error convention, the body is the protocol-v1 error object.
            let body = crate::json::from_str::<Value>(&answer.body).ok();
            if let Some(error) = body.filter(carries_problems) {
                return Ok(Invocation::Rejected { handler_calls, error });
            }
            return Ok(Invocation::RejectedUnstructured { handler_calls, message: bridge::refusal_text(&answer) });
        }
        match runs.last {
            Some(received) => Ok(Invocation::Executed { handler_calls, received }),
            None => Err(TargetError::Broken(format!(
                "the POST of {name} answered HTTP status {}, but no handler ran (the record has no line for the \
                 call): {}",
                answer.status,
                truncate(&answer.body, QUOTED_CHARS)
            ))),
        }
    }

    /// Why the tool published as `name` (`what` says which) is missing from the listing: a tool
    /// MCP cannot carry makes the case not applicable through a gateway (the harness's upstream
    /// cannot publish it); a tool the server's framework refused to register (its `refused` line
    /// in the record) declines the case with the framework's words; anything else is an error.
    fn unlisted(&self, name: &str, what: &str) -> TargetError {
        if self.route.is_gateway() {
            let outside = self.manifest.outside_mcp();
            if let Some((_, why)) = outside.iter().find(|(tool, _)| tool.name == name) {
                return TargetError::NotApplicable(format!(
                    "MCP cannot carry the tool {name} ({what}): {why}, and {}, so no MCP upstream can publish it \
                     to a gateway",
                    crate::mcp::manifest::MCP_TOOL_SHAPE
                ));
            }
        }
        if let Some(refusal) = self.record.as_ref().and_then(|record| record.refusal_of(name)) {
            return TargetError::Unsupported(refusal);
        }
        let hint = self.unlisted_hint();
        let published = self.published_name(name);
        let template = match &self.options.tool_name {
            Some(template) => format!(", published as --mcp-tool-name {} names it", template.as_str()),
            None => String::new(),
        };
        let listing = match &self.route {
            McpRoute::Bridge { paths, .. } | McpRoute::BridgeUrl { paths, .. } => format!(
                "the bridge's OpenAPI document ({}) has no POST at {}, the endpoint of",
                paths.spec(),
                paths.endpoint(&published)
            ),
            _ => "tools/list does not list".into(),
        };
        TargetError::Broken(format!(
            "{listing} {published:?} ({what}{template}): the implementation did not publish it, and the record has no \
             line saying it refused it{hint}"
        ))
    }

    /// What to do about a tool missing from the listing, when the route makes it likely.
    fn unlisted_hint(&self) -> &'static str {
        match self.route {
            McpRoute::ServerUrl { .. }
            | McpRoute::GatewayUrl { record: Some(_), .. }
            | McpRoute::BridgeUrl { record: Some(_), .. } => {
                "; a server or upstream started by hand publishes the manifest `tool-conformance manifest` \
                 prints with the run's selection flags"
            }
            _ => "",
        }
    }

    /// The manifest's name of a tool of the current registration.
    fn published(&self, tool: &str) -> Result<String, TargetError> {
        self.names
            .get(tool)
            .cloned()
            .ok_or_else(|| TargetError::Broken(format!("the tool {tool:?} was not registered (a bug of the suite)")))
    }
}

/// The rejection a JSON-RPC error is: by the convention when its `data` carries the protocol-v1
/// error object, else its text: the message, and on a line of its own the data when it has some
/// (a string as it is, other JSON as its text), so that nothing the error shows is lost.
fn rejection_of_error(handler_calls: u64, error: RpcError) -> Invocation {
    match error.data {
        Some(data) if carries_problems(&data) => Invocation::Rejected { handler_calls, error: data },
        data => Invocation::RejectedUnstructured { handler_calls, message: with_text_of(error.message, data.as_ref()) },
    }
}

/// The rejection an `isError` result is: by the convention when its `structuredContent` carries
/// the protocol-v1 error object, else its text: the `text` of its text content items joined with
/// `\n`, and on a line of its own its structured content when it has some.
fn rejection_of_result(handler_calls: u64, result: &Value) -> Invocation {
    let structured = result.get("structuredContent");
    if let Some(structured) = structured.filter(|s| carries_problems(s)) {
        return Invocation::Rejected { handler_calls, error: structured.clone() };
    }
    let texts: Vec<&str> = result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|item| item.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|item| item.get("text").and_then(Value::as_str))
        .collect();
    Invocation::RejectedUnstructured { handler_calls, message: with_text_of(texts.join("\n"), structured) }
}

/// `message`, with the text of `more` on a line of its own when there is any.
fn with_text_of(message: String, more: Option<&Value>) -> String {
    match more {
        None | Some(Value::Null) => message,
        Some(Value::String(text)) if text.is_empty() => message,
        Some(Value::String(text)) => format!("{message}\n{text}"),
        Some(other) => format!("{message}\n{other}"),
    }
}

/// `text` cut to `max` characters, with an ellipsis when it was longer.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// `value` with the secrets hidden in each of its strings (keys too).
fn hidden_value(value: Value, secrets: &[String]) -> Value {
    match value {
        Value::String(text) => Value::String(hide(&text, secrets)),
        Value::Array(items) => Value::Array(items.into_iter().map(|v| hidden_value(v, secrets)).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (hide(&k, secrets), hidden_value(v, secrets))).collect())
        }
        other => other,
    }
}

/// Whether an error's structured part follows the convention: an object with `problems`.
fn carries_problems(value: &Value) -> bool {
    value.as_object().is_some_and(|object| object.contains_key("problems"))
}

/// Where a gateway the harness starts on HTTP (`--mcp-gateway-http`) serves MCP, on its port.
pub const GATEWAY_PATH: &str = "/mcp";

/// A loopback port free a moment ago, for the bridge or gateway (`what`) the harness starts to
/// listen on.
fn free_port(what: &str) -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|e| format!("no loopback port is free for the {what}: {e}"))
}

/// The placeholders of a gateway's command line.
pub const PLACEHOLDERS: [&str; 2] = ["{upstream_url}", "{upstream_cmd}"];

/// The placeholders of the command line of an HTTP bridge or of a gateway on HTTP
/// (`--mcp-gateway-http`): a gateway's, and the port it is to listen on.
pub const BRIDGE_PLACEHOLDERS: [&str; 3] = ["{upstream_url}", "{upstream_cmd}", "{port}"];

/// The first `{name}` (a name of ASCII letters, digits and `_`) in a gateway's command line
/// `text` that is none of [`PLACEHOLDERS`], with why it is refused: left as it is, the gateway
/// would be given the braces as they are.
pub fn unknown_placeholder(text: &str) -> Option<String> {
    unknown_placeholder_of(text, &PLACEHOLDERS)
}

/// The first `{name}` in the command line `text` that is none of `known`, with why it is refused.
pub fn unknown_placeholder_of(text: &str, known: &[&str]) -> Option<String> {
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let name = after.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
        if name > 0 && after.as_bytes().get(name) == Some(&b'}') {
            let found = &rest[open..open + name + 2];
            if !known.contains(&found) {
                let (last, others) = known.split_last().unwrap_or((&"", &[]));
                let list =
                    if others.is_empty() { last.to_string() } else { format!("{} and {last}", others.join(", ")) };
                return Some(format!("{found} is no placeholder the harness knows; it substitutes {list}"));
            }
        }
        rest = after;
    }
    None
}

/// `command` with `{upstream_url}` and `{upstream_cmd}` replaced in each of its words (so a
/// command line substituted stays one word, shell-quoted as it was built).
fn substituted(command: &CommandLine, substitutions: &[(&str, String)]) -> Result<CommandLine, String> {
    if substitutions.is_empty() {
        return Ok(command.clone());
    }
    let given = std::iter::once(command.program().to_string()).chain(command.args().iter().cloned());
    let mut words: Vec<String> = Vec::new();
    for mut word in given {
        // A word that is the placeholder alone stands for the command's own words, as a gateway
        // that takes its upstream's program and arguments as words of its own wants them.
        if let Some((_, value)) = substitutions.iter().find(|(p, _)| *p == "{upstream_cmd}" && word == *p) {
            let spliced = CommandLine::parse(value).map_err(|e| e.to_string())?;
            words.push(spliced.program().to_string());
            words.extend(spliced.args().iter().cloned());
            continue;
        }
        for (placeholder, value) in substitutions {
            word = word.replace(placeholder, value);
        }
        words.push(word);
    }
    let text =
        shlex::try_join(words.iter().map(String::as_str)).map_err(|e| format!("the gateway's command line: {e}"))?;
    CommandLine::parse(&text).map_err(|e| e.to_string())
}

impl Target for McpTarget {
    fn start(&mut self) -> Result<Implementation, TargetError> {
        self.prepare().map_err(|why| self.hidden_error(TargetError::Broken(why)))?;
        let implementation = self.connect().map_err(|e| self.hidden_error(e))?;
        self.life.state = State::Up;
        self.case = self.log.cases_begun();
        self.implementation = Some(implementation.clone());
        Ok(implementation)
    }

    fn normalize(&mut self, input_schema: &Value, arguments: &Value) -> Result<Value, TargetError> {
        let Some(name) = self.manifest.name_of_normalize(input_schema).map(String::from) else {
            return Err(TargetError::Broken(
                "the manifest has no tool for this normalize schema (a bug of the suite)".into(),
            ));
        };
        if !self.listing.contains_key(&self.published_name(&name)) {
            return Err(self.hidden_error(self.unlisted(&name, "the tool of this normalize schema")));
        }
        let called = self.call_tool(&name, arguments).map_err(|e| self.hidden_error(e))?;
        match self.hidden_invocation(called) {
            Invocation::Executed { received, .. } => Ok(received),
            Invocation::Rejected { error, .. } => Err(TargetError::Refused(error)),
            Invocation::RejectedUnstructured { message, .. } => {
                Err(TargetError::Refused(json!({ "message": message })))
            }
        }
    }

    fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
        self.names.clear();
        for tool in tools {
            let Some(published) = self.manifest.name_of_tool(tool) else {
                return Err(TargetError::Broken(format!(
                    "the manifest has no tool {:?} of this definition (a bug of the suite)",
                    tool.name
                )));
            };
            if !self.listing.contains_key(&self.published_name(published)) {
                let what = if published == tool.name {
                    "a tool of the case".to_string()
                } else {
                    format!("the case's {:?}", tool.name)
                };
                let published = published.to_string();
                return Err(self.hidden_error(self.unlisted(&published, &what)));
            }
            self.names.insert(tool.name.clone(), published.to_string());
        }
        Ok(())
    }

    fn describe(&mut self, tool: &str, _view: View) -> Result<Value, TargetError> {
        let published = self.published_name(&self.published(tool)?);
        match self.listing.get(&published) {
            Some(Value::Null) => Err(TargetError::Broken(format!(
                "the bridge's OpenAPI document gives the POST of {published:?} no JSON request body schema"
            ))),
            Some(schema) => Ok(schema.clone()),
            None => Err(TargetError::Broken(format!("tools/list does not list the tool {published:?}"))),
        }
    }

    fn invoke(&mut self, tool: &str, transport: Transport, arguments: &Value) -> Result<Invocation, TargetError> {
        if transport != self.route.transport() {
            return Err(TargetError::Unsupported(format!(
                "{} reaches the implementation on {} only",
                self.route.flag(),
                self.route.transport()
            )));
        }
        let name = self.published(tool)?;
        let called = self.call_tool(&name, arguments).map_err(|e| self.hidden_error(e))?;
        Ok(self.hidden_invocation(called))
    }

    fn normalize_is_a_call(&self) -> bool {
        true
    }

    fn stop(&mut self) -> Result<(), TargetError> {
        if let Some(client) = self.client.as_mut() {
            client.finish(Duration::from_secs(2));
        }
        if let Some(bridge) = self.bridge.as_mut() {
            bridge.close();
        }
        if let Some(mut upstream) = self.upstream.take() {
            upstream.close();
        }
        self.life.state = State::NotStarted;
        self.folder = None;
        Ok(())
    }
}

impl Drop for McpTarget {
    fn drop(&mut self) {
        if let Some(client) = self.client.as_mut() {
            client.close();
        }
        if let Some(bridge) = self.bridge.as_mut() {
            bridge.close();
        }
        if let Some(mut upstream) = self.upstream.take() {
            upstream.close();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_read_by_the_convention_or_as_text() {
        let structured =
            json!({"message": "m", "problems": [{"kind": "missing_required", "field": "n"}], "expected_fields": ["n"]});
        let result = json!({"isError": true, "content": [{"type": "text", "text": "n is"}, {"type": "image"}, {"type": "text", "text": "required"}]});
        assert_eq!(
            rejection_of_result(0, &result),
            Invocation::RejectedUnstructured { handler_calls: 0, message: "n is\nrequired".into() }
        );
        let mut with = result.clone();
        with["structuredContent"] = structured.clone();
        assert_eq!(rejection_of_result(0, &with), Invocation::Rejected { handler_calls: 0, error: structured.clone() });
        // Structured content without problems is not the convention: it is shown as text.
        with["structuredContent"] = json!({"detail": "see get_api_spec"});
        let text = "n is\nrequired\n{\"detail\":\"see get_api_spec\"}".to_string();
        assert_eq!(rejection_of_result(1, &with), Invocation::RejectedUnstructured { handler_calls: 1, message: text });
        let error = RpcError { message: "Invalid params".into(), data: Some(structured.clone()) };
        assert_eq!(rejection_of_error(0, error), Invocation::Rejected { handler_calls: 0, error: structured });
        let error = RpcError { message: "Invalid params".into(), data: Some(json!("see get_api_spec")) };
        let message = "Invalid params\nsee get_api_spec".to_string();
        assert_eq!(rejection_of_error(0, error), Invocation::RejectedUnstructured { handler_calls: 0, message });
        let error = RpcError { message: "Invalid params".into(), data: Some(json!("")) };
        let message = "Invalid params".to_string();
        assert_eq!(rejection_of_error(0, error), Invocation::RejectedUnstructured { handler_calls: 0, message });
        let error = RpcError { message: "Invalid params".into(), data: None };
        let message = "Invalid params".to_string();
        assert_eq!(rejection_of_error(0, error), Invocation::RejectedUnstructured { handler_calls: 0, message });
    }

    /// An MCP server in Python on stdio that answers `initialize` with `info` as its serverInfo
    /// and every `tools/list` with a page of `page` (a Python expression of the page number `n`)
    /// and a next cursor (up to page `pages`, when not 0), after `pause` seconds.
    fn paging_server(info: &str, page: &str, pause: f64, pages: usize) -> McpRoute {
        let script = format!(
            r#"
import json, sys, time
n = 0
for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m:
        continue
    if m["method"] == "initialize":
        r = {{"protocolVersion": "2025-06-18", "capabilities": {{}}, "serverInfo": {info}}}
    else:
        time.sleep({pause})
        n += 1
        r = {{"tools": {page}}}
        if n != {pages}:
            r["nextCursor"] = str(n)
    sys.stdout.write(json.dumps({{"jsonrpc": "2.0", "id": m["id"], "result": r}}) + "\n")
    sys.stdout.flush()
"#
        );
        McpRoute::Server(CommandLine::parse(&format!("python3 -c {}", shlex::try_quote(&script).unwrap())).unwrap())
    }

    /// Starts `route` with `limits` on a thread, failing when that takes more than five seconds.
    fn started(route: McpRoute, limits: Limits) -> Result<Implementation, TargetError> {
        let (done, result) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let manifest = Manifest::from_slice(br#"{"manifest":1,"tools":[]}"#).unwrap();
            let mut target = McpTarget::new(route, manifest, vec![], limits, WireLog::new());
            let _ = done.send(target.start());
        });
        result.recv_timeout(Duration::from_secs(5)).expect("start ended within five seconds")
    }

    #[test]
    fn a_listing_that_never_ends_costs_the_start_timeout_once() {
        let route = paging_server(r#"{"name": "s"}"#, "[]", 0.2, 0);
        let limits = Limits { start_timeout: Duration::from_secs(1), ..Limits::default() };
        let error = started(route, limits).unwrap_err().to_string();
        assert!(error.contains("tools/list did not end within 1s") || error.contains("no response within"), "{error}");
    }

    #[test]
    fn a_listing_of_many_big_pages_is_not_kept_past_its_cap() {
        let page = r#"[{"name": "t%d" % n, "inputSchema": {"type": "object", "description": "x" * 60000}}]"#;
        let limits = Limits { max_response_bytes: 64 * 1024, ..Limits::default() };
        let error = started(paging_server(r#"{"name": "s"}"#, page, 0.0, 0), limits).unwrap_err().to_string();
        assert!(error.contains(&format!("hold more than {} bytes", 4 * 64 * 1024)), "{error}");
    }

    #[test]
    fn a_long_server_name_is_cut_where_it_is_read() {
        let info = r#"{"name": "n" * 3000000, "version": "v" * 1000}"#;
        let implementation = started(paging_server(info, "[]", 0.0, 1), Limits::default()).unwrap();
        assert_eq!(implementation.name, format!("{}…", "n".repeat(INFO_CHARS)));
        assert_eq!(implementation.version, format!("{}…", "v".repeat(INFO_CHARS)));
    }

    #[test]
    fn an_unknown_placeholder_is_named() {
        assert_eq!(unknown_placeholder("gw --to {upstream_url} {upstream_cmd} -c '{\"a\": 1}' {}"), None);
        let why = unknown_placeholder("gw --to {upstream_uri}").unwrap();
        assert!(why.starts_with("{upstream_uri} is no placeholder") && why.contains("{upstream_cmd}"), "{why}");
    }

    #[test]
    fn a_long_server_name_is_cut() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("ab\u{e9}d", 3), "ab\u{e9}…");
        assert_eq!(cut(&"n".repeat(7_000_000), INFO_CHARS).chars().count(), INFO_CHARS + 1);
    }

    #[test]
    fn the_upstream_is_substituted_into_the_gateway_s_words() {
        let command = CommandLine::parse("gw --to {upstream_url}/mcp --spawn={upstream_cmd} {upstream_cmd}").unwrap();
        let cmd = "'/a b/tool-conformance' mcp-upstream --manifest /t/m.json".to_string();
        let done =
            substituted(&command, &[("{upstream_url}", "http://127.0.0.1:9/".into()), ("{upstream_cmd}", cmd.clone())])
                .unwrap();
        let inside = format!("--spawn={cmd}");
        assert_eq!(
            done.args(),
            [
                "--to",
                "http://127.0.0.1:9//mcp",
                inside.as_str(),
                "/a b/tool-conformance",
                "mcp-upstream",
                "--manifest",
                "/t/m.json"
            ],
            "inside a word, the command line as one word; a word of its own, the command's words"
        );
        assert_eq!(
            shlex::split(done.args()[2].trim_start_matches("--spawn=")).unwrap()[0],
            "/a b/tool-conformance",
            "the command inside a word stays text a shell reads back"
        );
    }
}
