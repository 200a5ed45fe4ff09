//! `run` over MCP itself, as a user of an MCP server or gateway runs it: the harness's own
//! recording upstream as a server under test that never validates (over stdio, and over
//! Streamable HTTP with the manifest `tool-conformance manifest` prints), the example gateway
//! (`examples/mcp-gateway.rs`) validating, forwarding without validating, and answering errors as
//! text alone, an MCP server that talks between its answers (notifications, a ping), hostile MCP
//! peers (a garbage line, a hang, a 100 MB line, a crash), each an error with its reason and a
//! written report, and the flags a run over MCP refuses.
//!
//! The example gateway is compiled into this test binary and run as this binary with
//! [`GATEWAY_MODE`] set (as the gauntlet's broken implementations are), so the gateway the tests
//! run is always the example as it is now, whatever `cargo test` built.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{text, tool};

const BINARY: &str = env!("CARGO_BIN_EXE_tool-conformance");

#[path = "../../examples/mcp-gateway.rs"]
mod gateway;

/// Set, this test binary is the example gateway (its first argument its mode).
pub(crate) const GATEWAY_MODE: &str = "MCP_GATEWAY_MODE";

/// Runs the example gateway and exits with its result.
pub(crate) fn gateway() -> ! {
    match gateway::main() {
        Ok(()) => std::process::exit(0),
        Err(why) => {
            eprintln!("{why}");
            std::process::exit(1)
        }
    }
}

/// `run --mcp-gateway` of the example gateway in `mode` (nothing for its default), on `selection`,
/// with the report written to `dir`: the output and the standing.
fn run_gateway(mode: &str, selection: &[&str], dir: &Path) -> (std::process::Output, Value) {
    let exe = std::env::current_exe().expect("this test binary");
    let gateway = format!("{} {mode}", shlex::try_quote(exe.to_str().expect("a UTF-8 path")).expect("quoted"));
    let report = dir.join(format!("report{mode}"));
    let output = Command::new(BINARY)
        .args(["run", "--mcp-gateway", &gateway, "--report", report.to_str().unwrap()])
        .args(selection)
        .env(GATEWAY_MODE, "1")
        .output()
        .expect("run the binary");
    let standing = standing(&report);
    (output, standing)
}

fn a_gateway_that_validates_conforms_on_plat_162() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (output, standing) = run_gateway("", &["--rule", "PLAT-162"], dir.path());
    assert_eq!(output.status.code(), Some(tool_conformance::exit::CONFORMS as i32), "{}", text(&output));
    assert_eq!(verdict(&standing, "PLAT-162"), "conforms", "{}", text(&output));
    assert_eq!(standing["implementation"]["name"], "mcp-gateway-example", "named by the gateway's own serverInfo");
    // Its rejections carry the error object by the convention, so every one was judged in full.
    assert_eq!(count(&standing, "skip"), 0, "{}", text(&output));
    assert_eq!(count(&standing, "error"), 0, "{}", text(&output));
}

fn a_gateway_that_forwards_without_validating_does_not_conform_with_the_handler_runs_shown() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (output, standing) = run_gateway("--forward-only", &["--rule", "PLAT-162"], dir.path());
    assert_eq!(output.status.code(), Some(tool_conformance::exit::NONCONFORMING as i32), "{}", text(&output));
    assert_eq!(verdict(&standing, "PLAT-162"), "does_not_conform");
    let case = cases(&standing)
        .iter()
        .find(|c| c["id"] == "PLAT-162/before-handler/first-tool-wrapped")
        .expect("the case ran");
    assert_eq!(case["status"], "fail");
    // The upstream handler ran, behind the gateway, with what the gateway forwarded.
    assert_eq!((&case["actual"]["outcome"], &case["actual"]["handler_calls"]), (&serde_json::json!("executed"), &serde_json::json!(1)));
    assert!(text(&output).contains("\"handler_calls\": 1"), "{}", text(&output));
}

fn a_gateway_whose_errors_are_text_alone_is_incomplete_never_conforming() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (output, standing) = run_gateway("--text-errors", &["--rule", "PLAT-162"], dir.path());
    assert_eq!(verdict(&standing, "PLAT-162"), "incomplete", "{}", text(&output));
    assert_eq!(count(&standing, "fail"), 0, "what MCP shows of its errors holds: {}", text(&output));
    let skips: Vec<&Value> = cases(&standing).iter().filter(|c| c["status"] == "skip").collect();
    assert!(!skips.is_empty());
    for skip in skips {
        let reason = skip["reason"].as_str().unwrap_or_default();
        assert!(reason.starts_with("not observable over MCP: the error carries no structured problems"), "{skip}");
    }
    // The cases whose calls run are judged as ever.
    assert!(count(&standing, "pass") > 0);
}

/// An MCP server on stdio, in Python's standard library alone, that publishes the manifest's
/// tools and records each call as the record asks, but misbehaves on `tools/call` as its first
/// argument says: `chatty` (a log notification and a ping before each answer, then a proper
/// answer), `garbage`, `hang`, `huge` (a 100 MB line) or `crash`.
const HOSTILE: &str = r#"
import json, os, sys, time
mode = sys.argv[1]
tools = json.load(open(os.environ["TOOL_CONFORMANCE_MANIFEST"]))["tools"]
listing = [{"name": t["name"], "inputSchema": t["input_schema"]} for t in tools]
record = os.environ["TOOL_CONFORMANCE_RECORD"]
def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message or "method" not in message:
        continue
    method, ident = message["method"], message["id"]
    if method == "initialize":
        info = {"name": "hostile-" + mode, "version": "1"}
        send({"jsonrpc": "2.0", "id": ident, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": info}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": ident, "result": {"tools": listing}})
    elif mode == "chatty":
        send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "calling"}})
        send({"jsonrpc": "2.0", "id": "ping-" + str(ident), "method": "ping"})
        with open(record, "a") as f:
            f.write(json.dumps({"tool": message["params"]["name"], "arguments": message["params"]["arguments"]}) + "\n")
        send({"jsonrpc": "2.0", "id": ident, "result": {"content": [{"type": "text", "text": "ok"}]}})
    elif mode == "garbage":
        sys.stdout.write("\x1b[31mthis is not a message\n")
        sys.stdout.flush()
    elif mode == "hang":
        time.sleep(60)
    elif mode == "huge":
        sys.stdout.write("x" * 100_000_000 + "\n")
        sys.stdout.flush()
    elif mode == "crash":
        sys.stderr.write("boom: the server fell over\n")
        sys.exit(3)
"#;

/// A gateway already serving Streamable HTTP, in Python's standard library alone, that forwards
/// every POST unvalidated to the upstream whose URL it finds in the file its first argument names
/// (waiting for it: the harness prints its upstream once it has started it); it writes the port
/// it listens on to the file its second argument names.
const FORWARDER: &str = r#"
import http.server, os, sys, time, urllib.request, urllib.error
url_file, port_file = sys.argv[1], sys.argv[2]
session = {}
def upstream():
    deadline = time.time() + 20
    while time.time() < deadline:
        if os.path.exists(url_file):
            url = open(url_file).read().strip()
            if url:
                return url
        time.sleep(0.02)
    raise SystemExit("no upstream URL")
class Forward(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if "id" in session:
            headers["Mcp-Session-Id"] = session["id"]
        request = urllib.request.Request(upstream(), data=body, headers=headers)
        try:
            response = urllib.request.urlopen(request)
        except urllib.error.HTTPError as error:
            response = error
        data = response.read()
        if response.headers.get("Mcp-Session-Id"):
            session["id"] = response.headers["Mcp-Session-Id"]
        self.send_response(response.status)
        self.send_header("Content-Type", response.headers.get("Content-Type", "application/json"))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Forward)
with open(port_file + ".part", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".part", port_file)
server.serve_forever()
"#;

/// The forwarding gateway started on a loopback port: the process, its URL, and the file it reads
/// its upstream's URL from.
fn forwarder(dir: &Path) -> (Child, String, PathBuf) {
    let script = dir.join("forwarder.py");
    std::fs::write(&script, FORWARDER).expect("write the gateway");
    let (url_file, port_file) = (dir.join("upstream-url"), dir.join("port"));
    let gateway = Command::new("python3").args([&script, &url_file, &port_file]).spawn().expect("start the gateway");
    let began = Instant::now();
    while !port_file.exists() && began.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let port = std::fs::read_to_string(&port_file).expect("the gateway's port");
    (gateway, format!("http://127.0.0.1:{port}/mcp"), url_file)
}

/// What a forwarding gateway comes to: PLAT-162 broken, with the handler runs shown.
fn forwarded_unvalidated(status: std::process::ExitStatus, report: &Path, printed: &str) {
    assert_eq!(status.code(), Some(tool_conformance::exit::NONCONFORMING as i32), "{printed}");
    let standing = standing(report);
    assert_eq!(standing["implementation"]["transports"], serde_json::json!(["http"]));
    assert_eq!(verdict(&standing, "PLAT-162"), "does_not_conform");
    assert_eq!(count(&standing, "error"), 0, "{printed}");
    let case = cases(&standing)
        .iter()
        .find(|c| c["id"] == "PLAT-162/before-handler/wrong-type-on-http")
        .expect("the case ran");
    assert_eq!((&case["status"], &case["actual"]["handler_calls"]), (&serde_json::json!("fail"), &serde_json::json!(1)));
}

fn a_gateway_already_serving_http_is_given_the_upstream_the_harness_prints() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut gateway, url, url_file) = forwarder(dir.path());
    let report = dir.path().join("report");
    let mut run = Command::new(BINARY)
        .args(["run", "--mcp-gateway-url", &url])
        .args(["--case", "PLAT-162/before-handler/*", "--report", report.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the binary");
    // The user's part: the upstream the harness prints is given to the gateway.
    let mut printed = String::new();
    for line in BufReader::new(run.stderr.take().expect("stderr")).lines().map_while(Result::ok) {
        if let Some(url) = line.trim().strip_prefix("Streamable HTTP: ") {
            std::fs::write(&url_file, url).expect("configure the gateway");
        }
        printed.push_str(&line);
        printed.push('\n');
    }
    let status = run.wait().expect("the run ends");
    let _ = gateway.kill();
    let _ = gateway.wait();
    assert!(printed.contains("stdio: ") && printed.contains("mcp-upstream --manifest"), "{printed}");
    forwarded_unvalidated(status, &report, &printed);
}

fn a_gateway_configured_beforehand_forwards_to_an_upstream_started_by_hand() {
    let dir = tempfile::tempdir().expect("temp dir");
    let selection = ["--case", "PLAT-162/before-handler/*"];
    // The user's part, before the run: the upstream, and the gateway configured with it.
    let (mut upstream, upstream_url, record) = http_server(dir.path(), &selection);
    let (mut gateway, url, url_file) = forwarder(dir.path());
    std::fs::write(&url_file, &upstream_url).expect("configure the gateway");
    let report = dir.path().join("report");
    let output = tool(&[
        "run",
        "--mcp-gateway-url",
        &url,
        "--mcp-record",
        record.to_str().unwrap(),
        selection[0],
        selection[1],
        "--report",
        report.to_str().unwrap(),
    ]);
    for child in [&mut gateway, &mut upstream] {
        let _ = child.kill();
        let _ = child.wait();
    }
    assert!(!text(&output).contains("Streamable HTTP: "), "no upstream of the harness's own: {}", text(&output));
    forwarded_unvalidated(output.status, &report, &text(&output));
}

/// The issue's mis-set run: the upstream started by hand with the manifest of one selection, the
/// run asked for another. Its `normalize_N` would name other schemas, so the run is refused with
/// exit 2 before any case, saying which record and how to mend it; so is a record no upstream
/// writes. (The upstream's own selection runs as usual:
/// `a_gateway_configured_beforehand_forwards_to_an_upstream_started_by_hand`.)
fn a_record_of_another_selection_is_a_usage_error_never_a_standing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut upstream, upstream_url, record) = http_server(dir.path(), &["--case", "PLAT-162/*"]);
    let (mut gateway, url, url_file) = forwarder(dir.path());
    std::fs::write(&url_file, &upstream_url).expect("configure the gateway");
    let report = dir.path().join("report");
    let run = |record: &Path, selection: &str| {
        tool(&[
            "run",
            "--mcp-gateway-url",
            &url,
            "--mcp-record",
            record.to_str().unwrap(),
            "--case",
            selection,
            "--report",
            report.to_str().unwrap(),
        ])
    };
    let other = run(&record, "RT-TOOL-8/*");
    let elsewhere = run(&dir.path().join("no-upstream-writes-here.jsonl"), "PLAT-162/*");
    let same = run(&record, "PLAT-162/before-handler/first-tool-wrapped");
    for child in [&mut gateway, &mut upstream] {
        let _ = child.kill();
        let _ = child.wait();
    }
    let usage = Some(tool_conformance::exit::USAGE as i32);
    assert_eq!(other.status.code(), usage, "{}", text(&other));
    let said = text(&other);
    assert!(said.contains("another manifest") && said.contains(record.to_str().unwrap()), "{said}");
    assert!(said.contains("tool-conformance manifest") && said.contains("--record"), "how to mend it: {said}");
    assert!(!report.exists(), "no standing is written: {said}");
    assert_eq!(elsewhere.status.code(), usage, "{}", text(&elsewhere));
    assert!(text(&elsewhere).contains("has no {\"manifest\": …} line"), "{}", text(&elsewhere));
    // A part of the upstream's selection is another manifest too: the one case alone publishes
    // other tools than PLAT-162/*, and its normalize_N could be numbered otherwise.
    assert_eq!(same.status.code(), usage, "{}", text(&same));
}

/// `--get-api-spec` says what stands for get_api_spec in HTTP errors over MCP, which has no start
/// answer: only with an MCP route, and only a usable pointer.
fn get_api_spec_goes_with_an_mcp_route_and_must_be_usable() {
    let usage = Some(tool_conformance::exit::USAGE as i32);
    let alone = tool(&["run", "--get-api-spec", "/v1/spec", "--case", "PLAT-162/before-handler/*"]);
    assert_eq!(alone.status.code(), usage, "{}", text(&alone));
    assert!(text(&alone).contains("--get-api-spec goes with an MCP route"), "{}", text(&alone));
    let upstream = format!("{BINARY} mcp-upstream");
    let case = "PLAT-162/before-handler/first-tool-wrapped";
    for (pointer, why) in [("", "it is empty"), (&*"x".repeat(513), "longer than 512")] {
        let bad = tool(&["run", "--mcp-server", &upstream, "--get-api-spec", pointer, "--case", case]);
        assert_eq!(bad.status.code(), usage, "{}", text(&bad));
        assert!(text(&bad).contains(why), "{}", text(&bad));
    }
    let given = tool(&["run", "--mcp-server", &upstream, "--get-api-spec", "/v1/spec", "--case", case]);
    assert_ne!(given.status.code(), usage, "{}", text(&given));
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    tool_conformance::json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON ({e})", path.display()))
}

/// The standing.json of a run written to `dir`.
fn standing(dir: &Path) -> Value {
    read_json(&dir.join("standing.json"))
}

fn verdict(standing: &Value, rule: &str) -> String {
    let rules = standing["standing"]["rules"].as_array().expect("rules");
    let rule = rules.iter().find(|r| r["rule"] == rule).unwrap_or_else(|| panic!("no {rule}"));
    rule["verdict"].as_str().expect("a verdict").to_string()
}

fn cases(standing: &Value) -> &Vec<Value> {
    standing["cases"].as_array().expect("cases")
}

fn count(standing: &Value, status: &str) -> usize {
    cases(standing).iter().filter(|c| c["status"] == status).count()
}

fn python() -> PathBuf {
    let script = tempfile::Builder::new().suffix(".py").tempfile().expect("temp file");
    std::fs::write(script.path(), HOSTILE).expect("write the server");
    script.into_temp_path().keep().expect("keep the script")
}

fn a_server_that_records_but_never_validates_does_not_conform_with_the_handler_runs_shown() {
    let dir = tempfile::tempdir().expect("temp dir");
    let report = dir.path().join("report");
    let server = format!("{BINARY} mcp-upstream");
    let output = tool(&["run", "--mcp-server", &server, "--rule", "PLAT-162", "--report", report.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(tool_conformance::exit::NONCONFORMING as i32), "{}", text(&output));
    let standing = standing(&report);
    assert_eq!(standing["implementation"]["name"], "tool-conformance-upstream", "named by its serverInfo");
    assert_eq!(standing["implementation"]["transports"], serde_json::json!(["structured"]));
    assert_eq!(verdict(&standing, "PLAT-162"), "does_not_conform");
    assert_eq!(count(&standing, "error"), 0, "{}", text(&output));
    // A call the rule says must never reach its handler reached it, and the failure shows what
    // the handler received, with the tools/call that led to it.
    let case = cases(&standing)
        .iter()
        .find(|c| c["id"] == "PLAT-162/before-handler/first-tool-wrapped")
        .expect("the case ran");
    assert_eq!(case["status"], "fail");
    assert_eq!(case["actual"]["outcome"], "executed");
    assert_eq!(case["actual"]["handler_calls"], 1);
    assert!(case["actual"]["received"].is_object(), "{case}");
    let exchange = case["exchange"].to_string();
    assert!(exchange.contains("tools/call") && exchange.contains("create_folder"), "{exchange}");
    // Calls the rule lets through reach the handler with the arguments exactly as sent.
    assert!(count(&standing, "pass") > 0, "{}", text(&output));
    // The server refused to publish the tool MCP cannot carry, and said so in the record: its
    // cases are declined with the server's words, never an error and never a pass.
    let declined: Vec<&Value> = cases(&standing).iter().filter(|c| c["status"] == "skip").collect();
    assert!(!declined.is_empty(), "{}", text(&output));
    for case in declined {
        let reason = case["reason"].as_str().unwrap_or_default();
        assert!(
            reason.starts_with("unsupported: tool-conformance mcp-upstream refused the tool: MCP cannot carry it"),
            "{case}"
        );
    }
}

fn reports_over_mcp_read_the_same_from_run_to_run_and_in_any_selection() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = format!("{BINARY} mcp-upstream");
    let report = |name: &str, selection: &str| {
        let report = dir.path().join(name);
        tool(&["run", "--mcp-server", &server, "--case", selection, "--report", report.to_str().unwrap()]);
        report
    };
    let (first, again) = (report("first", "PLAT-162/*"), report("again", "PLAT-162/*"));
    for file in ["standing.json", "junit.xml", "standing.md"] {
        let read = |dir: &Path| std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(read(&first) == read(&again), "{file} differs between two runs");
    }
    // A case reads the same, its exchanges included, whichever cases ran before it.
    let alone = standing(&report("alone", "PLAT-162/before-handler/shared-name-string-tool"));
    let whole = standing(&first);
    let case = &cases(&alone)[0];
    assert_eq!(case["status"], "fail", "{case}");
    assert!(case["exchange"].to_string().contains(r#"\"id\":0"#), "ids counted from the case's first call: {case}");
    assert_eq!(Some(case), cases(&whole).iter().find(|c| c["id"] == case["id"]));
}

/// `mcp-upstream` on a loopback port with the manifest of the selection `selection`: the process,
/// its URL, and the record file.
fn http_server(dir: &Path, selection: &[&str]) -> (Child, String, PathBuf) {
    let mut args = vec!["manifest"];
    args.extend_from_slice(selection);
    let manifest = tool(&args);
    assert!(manifest.status.success(), "{}", text(&manifest));
    let manifest_path = dir.join("manifest.json");
    std::fs::write(&manifest_path, &manifest.stdout).expect("write the manifest");
    let record = dir.join("record.jsonl");
    let mut child = Command::new(BINARY)
        .args(["mcp-upstream", "--manifest", manifest_path.to_str().unwrap(), "--record", record.to_str().unwrap()])
        .args(["--http", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start mcp-upstream");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("its URL");
    (child, line.trim().to_string(), record)
}

fn the_streamable_http_route_reads_the_record_the_server_was_given() {
    let dir = tempfile::tempdir().expect("temp dir");
    let selection = ["--rule", "PLAT-162"];
    let (mut server, url, record) = http_server(dir.path(), &selection);
    let report = dir.path().join("report");
    let output = tool(&[
        "run",
        "--mcp-server-url",
        &url,
        "--mcp-record",
        record.to_str().unwrap(),
        selection[0],
        selection[1],
        "--report",
        report.to_str().unwrap(),
    ]);
    let _ = server.kill();
    let _ = server.wait();
    let standing = standing(&report);
    assert_eq!(standing["implementation"]["transports"], serde_json::json!(["http"]), "{}", text(&output));
    assert_eq!(verdict(&standing, "PLAT-162"), "does_not_conform");
    assert_eq!(count(&standing, "error"), 0, "{}", text(&output));
    let case = cases(&standing)
        .iter()
        .find(|c| c["id"] == "PLAT-162/before-handler/first-tool-wrapped")
        .expect("the case ran");
    assert_eq!((&case["check"], &case["actual"]["handler_calls"]), (&serde_json::json!("invoke on http"), &serde_json::json!(1)));
    assert!(std::fs::metadata(&record).map(|m| m.len()).unwrap_or(0) > 0, "the handlers wrote the record");
}

fn a_server_that_talks_between_its_answers_is_read_like_one_that_does_not() {
    let script = python();
    let dir = tempfile::tempdir().expect("temp dir");
    let (chatty, quiet) = (dir.path().join("chatty"), dir.path().join("quiet"));
    let server = format!("python3 {} chatty", script.display());
    let selection = ["--case", "PLAT-162/before-handler/*"];
    let first = tool(&["run", "--mcp-server", &server, selection[0], selection[1], "--report", chatty.to_str().unwrap()]);
    let upstream = format!("{BINARY} mcp-upstream");
    tool(&["run", "--mcp-server", &upstream, selection[0], selection[1], "--report", quiet.to_str().unwrap()]);
    let _ = std::fs::remove_file(&script);
    let (chatty, quiet) = (standing(&chatty), standing(&quiet));
    assert_eq!(count(&chatty, "error"), 0, "{}", text(&first));
    let statuses = |s: &Value| cases(s).iter().map(|c| (c["id"].clone(), c["status"].clone())).collect::<Vec<_>>();
    assert_eq!(statuses(&chatty), statuses(&quiet));
}

/// Runs a few cases against the hostile server in `mode`, with `timeout` and one restart: the
/// report written, every case an error, and the reasons.
fn hostile(mode: &str, timeout: &str) -> (Vec<String>, Duration) {
    let script = python();
    let dir = tempfile::tempdir().expect("temp dir");
    let report = dir.path().join("report");
    let server = format!("python3 {} {mode}", script.display());
    let began = Instant::now();
    let output = tool(&[
        "run",
        "--mcp-server",
        &server,
        "--case",
        "PLAT-162/before-handler/*-tool-wrapped",
        "--timeout",
        timeout,
        "--restarts",
        "1",
        "--report",
        report.to_str().unwrap(),
    ]);
    let elapsed = began.elapsed();
    let _ = std::fs::remove_file(&script);
    assert_eq!(output.status.code(), Some(tool_conformance::exit::NONCONFORMING as i32), "{}", text(&output));
    let standing = standing(&report);
    assert!(std::fs::read_to_string(report.join("junit.xml")).expect("junit.xml written").contains("<testsuites"));
    let reasons: Vec<String> = cases(&standing)
        .iter()
        .map(|c| {
            assert_eq!(c["status"], "error", "{c}");
            c["reason"].as_str().expect("a reason").to_string()
        })
        .collect();
    assert_eq!(reasons.len(), 3);
    let printed = text(&output);
    assert!(!printed.contains('\u{1b}'), "what is printed is inert: {printed}");
    (reasons, elapsed)
}

fn a_garbage_line_is_an_error_that_quotes_it() {
    let (reasons, _) = hostile("garbage", "5s");
    assert!(reasons[0].contains("not an MCP message") && reasons[0].contains("this is not a message"), "{}", reasons[0]);
    assert!(reasons[2].contains("can no longer be started"), "{}", reasons[2]);
}

fn a_hang_costs_the_timeout_and_no_more() {
    let (reasons, elapsed) = hostile("hang", "1s");
    assert!(reasons[0].contains("no response within 1s"), "{}", reasons[0]);
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
}

fn a_100_mb_line_is_cut_at_the_cap() {
    // Time enough to write the cap's 8 MiB on a loaded machine: the line is cut at the cap, not
    // at the timeout.
    let (reasons, _) = hostile("huge", "20s");
    assert!(reasons[0].contains("longer than"), "{}", reasons[0]);
}

fn a_crash_is_an_error_with_its_exit_and_stderr() {
    let (reasons, _) = hostile("crash", "5s");
    assert!(reasons[0].contains("exited") && reasons[0].contains("boom: the server fell over"), "{}", reasons[0]);
}

fn a_run_over_mcp_refuses_more_than_one_job_and_protocol_flags() {
    let server = format!("{BINARY} mcp-upstream");
    let output = tool(&["run", "--mcp-server", &server, "--jobs", "2"]);
    assert_eq!(output.status.code(), Some(tool_conformance::exit::USAGE as i32));
    assert!(text(&output).contains("--jobs runs one instance with --mcp-server"), "{}", text(&output));
    let output = tool(&["run", "--mcp-server", &server, "--stdio", "x"]);
    assert_eq!(output.status.code(), Some(tool_conformance::exit::USAGE as i32));
    let output = tool(&["run", "--mcp-server-url", "http://127.0.0.1:9/"]);
    assert!(text(&output).contains("--mcp-record"), "{}", text(&output));
}

tests![
    reports_over_mcp_read_the_same_from_run_to_run_and_in_any_selection,
    a_gateway_already_serving_http_is_given_the_upstream_the_harness_prints,
    a_gateway_configured_beforehand_forwards_to_an_upstream_started_by_hand,
    a_record_of_another_selection_is_a_usage_error_never_a_standing,
    get_api_spec_goes_with_an_mcp_route_and_must_be_usable,
    a_gateway_that_validates_conforms_on_plat_162,
    a_gateway_that_forwards_without_validating_does_not_conform_with_the_handler_runs_shown,
    a_gateway_whose_errors_are_text_alone_is_incomplete_never_conforming,
    a_server_that_records_but_never_validates_does_not_conform_with_the_handler_runs_shown,
    the_streamable_http_route_reads_the_record_the_server_was_given,
    a_server_that_talks_between_its_answers_is_read_like_one_that_does_not,
    a_garbage_line_is_an_error_that_quotes_it,
    a_hang_costs_the_timeout_and_no_more,
    a_100_mb_line_is_cut_at_the_cap,
    a_crash_is_an_error_with_its_exit_and_stderr,
    a_run_over_mcp_refuses_more_than_one_job_and_protocol_flags,
];
