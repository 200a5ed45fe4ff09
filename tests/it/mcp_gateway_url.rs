//! A gateway tested as it is deployed, in one `run` command with no hand-off: a gateway already
//! configured with an upstream at a fixed loopback address, that needs a bearer token, publishes
//! every tool under a prefix and answers initialize with a random name of its own (as FastMCP's
//! proxy does). The harness starts its upstream at that address (`--mcp-upstream-listen`), waits
//! for the gateway still starting (`--wait`), sends the token read from the environment
//! (`--mcp-header 'Authorization: env:VAR'`), calls the tools by their published names
//! (`--mcp-tool-name`), and names the gateway as told (`--name`, `--version`); the token appears
//! in no report file and nowhere on stdout or stderr, though the gateway echoes it back.

use crate::util::text;
use serde_json::Value;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command};

const BINARY: &str = env!("CARGO_BIN_EXE_tool-conformance");

/// A gateway in Python's standard library alone: it starts listening on the port of its first
/// argument after a second, forwards every POST unvalidated to the upstream URL of its second
/// argument, refuses 401 a request whose Authorization is not `Bearer ` + TOKEN, publishes each
/// upstream tool as `up_` + its name (and strips the prefix when forwarding a call), and answers
/// initialize with a random name that quotes the Authorization it was sent.
const GATEWAY: &str = r#"
import http.server, json, os, random, sys, time, urllib.request, urllib.error
port, upstream = int(sys.argv[1]), sys.argv[2]
token = "Bearer " + os.environ["TOKEN"]
session = {}
class Gateway(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def answer(self, status, data, kind="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        auth = self.headers.get("Authorization", "")
        if auth != token:
            return self.answer(401, b"unauthorized", "text/plain")
        message = json.loads(body)
        if message.get("method") == "tools/call":
            name = message["params"]["name"]
            if not name.startswith("up_"):
                return self.answer(200, json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32602, "message": "unknown tool " + name}}).encode())
            message["params"]["name"] = name[3:]
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if "id" in session:
            headers["Mcp-Session-Id"] = session["id"]
        request = urllib.request.Request(upstream, data=json.dumps(message).encode(), headers=headers)
        try:
            response = urllib.request.urlopen(request)
        except urllib.error.HTTPError as error:
            response = error
        data = response.read()
        if response.headers.get("Mcp-Session-Id"):
            session["id"] = response.headers["Mcp-Session-Id"]
        if data and message.get("method") in ("initialize", "tools/list"):
            answer = json.loads(data)
            result = answer.get("result", {})
            if message["method"] == "initialize":
                result["serverInfo"] = {"name": "FastMCPProxy-%04x (%s)" % (random.randrange(65536), auth), "version": "2.0"}
            else:
                for tool in result.get("tools", []):
                    tool["name"] = "up_" + tool["name"]
            data = json.dumps(answer).encode()
        self.answer(response.status, data, response.headers.get("Content-Type", "application/json"))
    def log_message(self, *args):
        pass
time.sleep(1)
http.server.ThreadingHTTPServer(("127.0.0.1", port), Gateway).serve_forever()
"#;

/// A loopback port free a moment ago.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

/// The gateway, configured beforehand with the upstream at `upstream_port`, listening on
/// `port` a second after it starts.
fn gateway(dir: &Path, port: u16, upstream_port: u16, token: &str) -> Child {
    let script = dir.join("gateway.py");
    std::fs::write(&script, GATEWAY).expect("write the gateway");
    Command::new("python3")
        .arg(&script)
        .arg(port.to_string())
        .arg(format!("http://127.0.0.1:{upstream_port}/mcp"))
        .env("TOKEN", token)
        .spawn()
        .expect("start the gateway")
}

/// `run` of the gateway at `port`, its upstream at `upstream_port`, the token in GW_TOKEN.
fn run(port: u16, upstream_port: u16, token: Option<&str>, report: &Path, extra: &[&str]) -> std::process::Output {
    let wait = if extra.contains(&"--wait") { &[][..] } else { &["--wait", "20"][..] };
    let mut command = Command::new(BINARY);
    command
        .args(["run", "--color", "never", "--mcp-gateway-url", &format!("http://127.0.0.1:{port}/mcp")])
        .args(["--mcp-upstream-listen", &format!("127.0.0.1:{upstream_port}")])
        .args(wait)
        .args(["--mcp-header", "Authorization: env:GW_TOKEN", "--mcp-tool-name", "up_{name}"])
        .args(["--case", "PLAT-162/before-handler/*", "--report", report.to_str().unwrap()])
        .args(extra)
        .env_remove("GW_TOKEN");
    if let Some(token) = token {
        command.env("GW_TOKEN", format!("Bearer {token}"));
    }
    command.output().expect("run the binary")
}

fn a_gateway_that_needs_a_token_and_prefixes_its_tools_is_tested_in_one_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let token = format!("s3cret-{}", std::process::id());
    let (port, upstream_port) = (free_port(), free_port());
    let mut child = gateway(dir.path(), port, upstream_port, &token);
    let report = dir.path().join("report");
    let output =
        run(port, upstream_port, Some(&token), &report, &["--name", "example proxy", "--version", "1", "--transcript"]);
    let _ = child.kill();
    let _ = child.wait();
    let printed = text(&output);
    let standing: Value = tool_conformance::json::from_str(
        &std::fs::read_to_string(report.join("standing.json")).unwrap_or_else(|e| panic!("{e}:\n{printed}")),
    )
    .expect("JSON");
    // Forwarded unvalidated: PLAT-162 broken, every case judged (none an error), by the
    // published names.
    assert_eq!(output.status.code(), Some(tool_conformance::exit::NONCONFORMING as i32), "{printed}");
    let cases = standing["cases"].as_array().expect("cases");
    assert!(!cases.is_empty() && cases.iter().all(|c| c["status"] != "error"), "{printed}");
    let case = cases.iter().find(|c| c["id"] == "PLAT-162/before-handler/wrong-type-on-http").expect("the case ran");
    assert_eq!((&case["status"], &case["actual"]["handler_calls"]), (&serde_json::json!("fail"), &serde_json::json!(1)));
    let implementation = &standing["implementation"];
    assert_eq!((&implementation["name"], &implementation["version"]), (&"example proxy".into(), &"1".into()));
    assert_eq!(implementation["tool_name"], "up_{name}");
    // What it answered, a name random from run to run, is shown on the terminal and kept out of
    // the report, so that two runs write the same standing.json.
    assert!(implementation.get("answered").is_none(), "{implementation}");
    assert!(printed.contains("(named by the run; it answered FastMCPProxy-"), "{printed}");
    assert!(printed.contains("against example proxy 1") && printed.contains("[hidden]"), "{printed}");
    // The token: sent, echoed back, and never shown.
    assert!(!printed.contains(&token), "the token is on stdout or stderr:\n{printed}");
    for entry in std::fs::read_dir(&report).expect("the report") {
        let path = entry.expect("an entry").path();
        let written = std::fs::read(&path).expect("a report file");
        assert!(!String::from_utf8_lossy(&written).contains(&token), "the token is in {}", path.display());
    }
    let schema: Value =
        tool_conformance::json::from_str(include_str!("../../schemas/report.schema.json")).expect("the schema");
    let validator =
        jsonschema::draft202012::new(&tool_conformance::json::to_serde(&schema)).expect("the schema compiles");
    let document = tool_conformance::json::to_serde(&standing);
    let errors: Vec<String> = validator.iter_errors(&document).take(5).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "standing.json against its schema: {errors:?}");
}

fn without_the_token_the_gateway_refuses_and_the_run_says_so_without_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let token = format!("other-{}", std::process::id());
    let (port, upstream_port) = (free_port(), free_port());
    let mut child = gateway(dir.path(), port, upstream_port, &token);
    let report = dir.path().join("report");
    // A wrong token: the gateway answers 401 until the wait is over.
    let output = run(port, upstream_port, Some("wrong"), &report, &["--wait", "3"]);
    let _ = child.kill();
    let _ = child.wait();
    let printed = text(&output);
    assert_eq!(output.status.code(), Some(tool_conformance::exit::NONCONFORMING as i32), "{printed}");
    let standing = std::fs::read_to_string(report.join("standing.json")).expect("standing.json");
    assert!(standing.contains("HTTP status 401") && standing.contains("no answer to initialize within"), "{standing}");
    assert!(!printed.contains("Bearer wrong") && !standing.contains("Bearer wrong"), "{printed}");
    // No value at all: a usage error naming the header.
    let output = run(port, upstream_port, None, &report, &[]);
    assert_eq!(output.status.code(), Some(tool_conformance::exit::USAGE as i32));
    assert!(text(&output).contains("--mcp-header Authorization: the environment variable GW_TOKEN is not set"));
}

tests![
    a_gateway_that_needs_a_token_and_prefixes_its_tools_is_tested_in_one_command,
    without_the_token_the_gateway_refuses_and_the_run_says_so_without_it
];
