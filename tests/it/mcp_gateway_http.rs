//! `run --mcp-gateway-http`: a gateway the harness starts on a loopback port of its choosing,
//! which serves MCP over Streamable HTTP and starts its upstream (the harness's recording
//! upstream, `{upstream_cmd}` spliced in as words) itself, as npm's mcp-proxy does; played by a
//! gateway in Python's standard library alone that relays each POST to that process's stdin and
//! answers with the line of the same id. A call it relays shows as the handler running, a gateway
//! that exits during a call is named as given (with its placeholders) and started again for the
//! next case, and one that exits before it answers ends the wait at once, with its last words.

use crate::util::text;
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const BINARY: &str = env!("CARGO_BIN_EXE_tool-conformance");

/// The gateway: on the port of its first argument (a second after it starts), in front of the
/// stdio MCP server its other arguments start. With CRASH_ONCE=FILE, the first tools/call it is
/// sent (when FILE does not exist yet) makes FILE and exits without an answer.
const GATEWAY: &str = r#"
import http.server, json, os, subprocess, sys, threading, time
port, upstream = int(sys.argv[1]), sys.argv[2:]
child = subprocess.Popen(upstream, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
crash = os.environ.get("CRASH_ONCE")
lock = threading.Lock()
class Gateway(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def answer(self, status, data):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        message = json.loads(body)
        if crash and message.get("method") == "tools/call" and not os.path.exists(crash):
            open(crash, "w").close()
            print("gateway: crashing on purpose", file=sys.stderr, flush=True)
            os._exit(1)
        with lock:
            child.stdin.write(json.dumps(message).encode() + b"\n")
            child.stdin.flush()
            if "id" not in message:
                return self.answer(202, b"")
            while True:
                line = child.stdout.readline()
                if not line or json.loads(line).get("id") == message["id"]:
                    break
        self.answer(200, line)
    def log_message(self, *args):
        print("gateway: %s" % (args,), flush=True)
time.sleep(1)
http.server.ThreadingHTTPServer(("127.0.0.1", port), Gateway).serve_forever()
"#;

/// `run --mcp-gateway-http` of `command` on the selected `cases` with `extra` flags and `env`:
/// its output and standing.
fn run(dir: &Path, command: &str, cases: &str, extra: &[&str], env: &[(&str, &str)]) -> (std::process::Output, Value) {
    let report = dir.join("report");
    let output = Command::new(BINARY)
        .args(["run", "--color", "never", "--mcp-gateway-http", command])
        .args(["--case", cases, "--report", report.to_str().unwrap()])
        .args(extra)
        .envs(env.iter().copied())
        .output()
        .expect("run the binary");
    let printed = text(&output);
    let standing = tool_conformance::json::from_str(
        &std::fs::read_to_string(report.join("standing.json")).unwrap_or_else(|e| panic!("{e}:\n{printed}")),
    )
    .expect("JSON");
    (output, standing)
}

/// The gateway's command line, its script written into `dir`.
fn gateway(dir: &Path) -> String {
    let script = dir.join("gateway.py");
    std::fs::write(&script, GATEWAY).expect("write the gateway");
    format!("python3 {} {{port}} {{upstream_cmd}}", shlex::try_quote(script.to_str().unwrap()).unwrap())
}

fn a_relayed_call_runs_the_handler_and_a_crash_restarts_the_gateway() {
    let dir = tempfile::tempdir().expect("temp dir");
    let command = gateway(dir.path());
    let marker = dir.path().join("crashed");
    let env = [("CRASH_ONCE", marker.to_str().unwrap())];
    let (output, standing) = run(dir.path(), &command, "PLAT-162/before-handler/*", &["--transcript"], &env);
    let printed = text(&output);
    assert!(marker.exists(), "the gateway was sent a call: {printed}");
    assert_eq!(output.status.code(), Some(tool_conformance::exit::NONCONFORMING as i32), "{printed}");
    assert_eq!(standing["implementation"]["transports"], serde_json::json!(["http"]), "{printed}");
    let cases = standing["cases"].as_array().expect("cases");
    // The one call it died on is an error, named as given; the cases after it ran on a gateway
    // started again.
    let errors: Vec<&Value> = cases.iter().filter(|c| c["status"] == "error").collect();
    assert_eq!(errors.len(), 1, "{printed}");
    let reason = errors[0]["reason"].as_str().unwrap_or_default();
    assert!(reason.contains(&format!("`{command}` (MCP over Streamable HTTP)")), "{reason}");
    assert!(reason.contains("gateway: crashing on purpose"), "its stderr is quoted: {reason}");
    let case = |id: &str| cases.iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("{id} ran: {printed}"));
    let relayed = case("PLAT-162/before-handler/wrong-type-on-http");
    let valid = case("PLAT-162/before-handler/valid-call-second-tool");
    let statuses = [&relayed["status"], &valid["status"]];
    assert!(statuses.iter().all(|s| *s != "error"), "restarted for the cases after the crash: {printed}");
    if relayed["status"] != "error" {
        assert_eq!((&relayed["status"], &relayed["actual"]["handler_calls"]), (&"fail".into(), &1.into()), "{printed}");
    }
    assert_eq!(valid["status"], "pass", "{printed}");
}

fn a_gateway_that_exits_before_it_answers_ends_the_wait() {
    let dir = tempfile::tempdir().expect("temp dir");
    let command = "sh -c 'echo no such upstream >&2; exit 3' {port} {upstream_cmd}";
    let began = Instant::now();
    let (output, standing) = run(
        dir.path(),
        command,
        "PLAT-162/before-handler/wrong-type-on-http",
        &["--start-timeout", "30s", "--restarts", "0"],
        &[],
    );
    let printed = text(&output);
    assert!(began.elapsed() < Duration::from_secs(20), "the wait ended with the process: {printed}");
    let standing = standing.to_string();
    assert!(standing.contains("the gateway's process exited"), "{standing}");
    assert!(standing.contains("no such upstream"), "its stderr is quoted: {standing}");
    assert!(!standing.contains("127.0.0.1:"), "no port in the report: {standing}");
}

tests![a_relayed_call_runs_the_handler_and_a_crash_restarts_the_gateway, a_gateway_that_exits_before_it_answers_ends_the_wait];
