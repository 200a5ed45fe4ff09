//! `run --http-bridge` and `run --http-bridge-url`: an HTTP bridge in front of the harness's
//! recording upstream, as mcpo is (a POST per tool at /<name>, the schemas in /openapi.json, a
//! refusal a 422 with a `detail` list), played by a bridge in Python's standard library alone
//! that speaks MCP to the upstream over Streamable HTTP. A call it forwards shows as the handler
//! running (from the record), a 422 is judged as an unstructured error, a bridge that never
//! answers a call is an error with a reason, and the header the bridge needs reaches it but no
//! report, though the bridge echoes it in its document's title.

use crate::util::text;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const BINARY: &str = env!("CARGO_BIN_EXE_tool-conformance");

/// The bridge: on the port of its first argument, in front of the upstream URL of its second.
/// It lists the upstream's tools, publishes each as a POST at /<name> whose request body is a
/// `$ref` to the tool's inputSchema under components, refuses 401 a request without the
/// X-Api-Key of BRIDGE_KEY, refuses 422 (FastAPI's shape) a body that is not an object or lacks a
/// top-level required field, and forwards anything else unvalidated as tools/call: 200 with the
/// result, 500 when it is an error. With BRIDGE_HANG=1 it never answers a POST; with
/// BRIDGE_PROBLEMS=1 its 422 body is the protocol-v1 error object instead. An upstream not
/// up yet is tried again for 20 seconds before the bridge listens.
const BRIDGE: &str = r##"
import http.server, json, os, sys, time, urllib.request
port, upstream = int(sys.argv[1]), sys.argv[2]
key = os.environ.get("BRIDGE_KEY", "")
hang = os.environ.get("BRIDGE_HANG") == "1"
problems = os.environ.get("BRIDGE_PROBLEMS") == "1"
session = {}
def rpc(method, params, id=None):
    message = {"jsonrpc": "2.0", "method": method, "params": params}
    if id is not None:
        message["id"] = id
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    headers.update({k: v for k, v in session.items()})
    response = urllib.request.urlopen(urllib.request.Request(upstream, data=json.dumps(message).encode(), headers=headers))
    if response.headers.get("Mcp-Session-Id"):
        session["Mcp-Session-Id"] = response.headers["Mcp-Session-Id"]
    text = response.read().decode()
    if id is None:
        return None
    if response.headers.get("Content-Type", "").startswith("text/event-stream"):
        for line in text.splitlines():
            if line.startswith("data:") and json.loads(line[5:]).get("id") == id:
                return json.loads(line[5:])
    return json.loads(text)
for attempt in range(100):
    try:
        init = rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bridge", "version": "0"}}, 0)
        break
    except OSError:
        time.sleep(0.2)
session["MCP-Protocol-Version"] = init["result"]["protocolVersion"]
rpc("notifications/initialized", {})
tools, cursor, n = [], None, 1
while True:
    page = rpc("tools/list", {"cursor": cursor} if cursor else {}, n)["result"]
    tools += page["tools"]
    n += 1
    cursor = page.get("nextCursor")
    if not cursor:
        break
schemas = {t["name"]: t["inputSchema"] for t in tools}
document = {"openapi": "3.1.0", "info": {"title": "fixture bridge (key %s)" % key, "version": "0.1"}, "paths": {}, "components": {"schemas": {}}}
for name, schema in schemas.items():
    document["components"]["schemas"][name + "_form_model"] = schema
    body = {"required": True, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/" + name + "_form_model"}}}}
    document["paths"]["/" + name] = {"post": {"requestBody": body}}
class Bridge(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def answer(self, status, value):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def allowed(self):
        if self.headers.get("X-Api-Key", "") != key:
            self.answer(401, {"detail": "Not authenticated"})
            return False
        return True
    def do_GET(self):
        if self.allowed():
            self.answer(200, document) if self.path == "/openapi.json" else self.answer(404, {"detail": "Not Found"})
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if not self.allowed():
            return
        name = self.path[1:]
        if name not in schemas:
            return self.answer(404, {"detail": "Not Found"})
        if hang:
            time.sleep(3600)
        arguments = json.loads(body)
        if not isinstance(arguments, dict):
            return self.answer(422, {"detail": [{"type": "model_attributes_type", "loc": ["body"], "msg": "Input should be a valid dictionary or object to extract fields from", "input": arguments}]})
        missing = [f for f in schemas[name].get("required", []) if f not in arguments]
        if missing and problems:
            error = {"message": "invalid arguments; see get_api_spec", "problems": [{"kind": "missing_required", "field": f} for f in missing], "expected_fields": sorted(schemas[name].get("properties", {}))}
            return self.answer(422, error)
        if missing:
            return self.answer(422, {"detail": [{"type": "missing", "loc": ["body", f], "msg": "Field required", "input": arguments} for f in missing]})
        result = rpc("tools/call", {"name": name, "arguments": arguments}, 1000)["result"]
        self.answer(500 if result.get("isError") else 200, result)
    def log_message(self, *args):
        sys.stdout.write("%s\n" % (args,))
        sys.stdout.flush()
http.server.ThreadingHTTPServer(("127.0.0.1", port), Bridge).serve_forever()
"##;

/// The bridge's script, written into `dir`.
fn script(dir: &Path) -> std::path::PathBuf {
    let script = dir.join("bridge.py");
    std::fs::write(&script, BRIDGE).expect("write the bridge");
    script
}

/// `run --http-bridge` of the bridge on the selected `cases`, its key in BRIDGE_KEY, with
/// `extra` flags and `env`.
fn run(dir: &Path, cases: &str, key: &str, extra: &[&str], env: &[(&str, &str)]) -> (std::process::Output, Value) {
    let script = script(dir);
    let command = format!("python3 {} {{port}} {{upstream_url}}", shlex::try_quote(script.to_str().unwrap()).unwrap());
    run_route(dir, &["--http-bridge", &command], cases, key, extra, env)
}

/// `run` of the bridge `route` names on the selected `cases`, its key in BRIDGE_KEY, with `extra`
/// flags and `env`: its output and standing, checked for the key.
fn run_route(
    dir: &Path,
    route: &[&str],
    cases: &str,
    key: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (std::process::Output, Value) {
    let report = dir.join("report");
    let output = Command::new(BINARY)
        .args(["run", "--color", "never"])
        .args(route)
        .args(["--mcp-header", "X-Api-Key: env:BRIDGE_KEY", "--case", cases, "--report", report.to_str().unwrap()])
        .args(extra)
        .env("BRIDGE_KEY", key)
        .envs(env.iter().copied())
        .output()
        .expect("run the binary");
    let printed = text(&output);
    let standing = tool_conformance::json::from_str(
        &std::fs::read_to_string(report.join("standing.json")).unwrap_or_else(|e| panic!("{e}:\n{printed}")),
    )
    .expect("JSON");
    for entry in std::fs::read_dir(&report).expect("the report") {
        let path = entry.expect("an entry").path();
        let written = std::fs::read(&path).expect("a report file");
        assert!(!String::from_utf8_lossy(&written).contains(key), "the key is in {}", path.display());
    }
    assert!(!printed.contains(key), "the key is on stdout or stderr:\n{printed}");
    (output, standing)
}

/// The case of `standing` with `id`.
fn case<'a>(standing: &'a Value, id: &str) -> &'a Value {
    let cases = standing["cases"].as_array().expect("cases");
    cases.iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("{id} ran"))
}

fn a_forwarded_call_runs_the_handler_and_a_422_is_an_unstructured_refusal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let key = format!("k3y-{}", std::process::id());
    let (output, standing) = run(dir.path(), "PLAT-162/before-handler/*", &key, &["--transcript"], &[]);
    let printed = text(&output);
    // Forwarded unvalidated but for missing fields: PLAT-162 broken, no case an error.
    assert_eq!(output.status.code(), Some(tool_conformance::exit::NONCONFORMING as i32), "{printed}");
    let cases = standing["cases"].as_array().expect("cases");
    assert!(cases.iter().all(|c| c["status"] != "error"), "{printed}");
    let forwarded = case(&standing, "PLAT-162/before-handler/wrong-type-on-http");
    assert_eq!((&forwarded["status"], &forwarded["actual"]["handler_calls"]), (&"fail".into(), &1.into()), "{printed}");
    let valid = case(&standing, "PLAT-162/before-handler/valid-call-second-tool");
    assert_eq!(valid["status"], "pass", "{printed}");
    let implementation = &standing["implementation"];
    assert_eq!(implementation["name"], "fixture bridge (key [hidden])", "{printed}");
    assert_eq!(implementation["transports"], serde_json::json!(["http"]));
    // A 422 is a refusal read from its status and body, as an unstructured MCP error is: the
    // handler did not run, the problems cannot be told, and the text is what is judged.
    let refused = case(&standing, "PLAT-162/before-handler/second-tool-wrapped");
    let message = refused["actual"]["message"].as_str().unwrap_or_default();
    assert!(message.starts_with("HTTP status 422\n{\"detail\": [{\"type\": \"missing\""), "{message}\n{printed}");
    let result = |check: &str| {
        let checks = refused["checks"].as_array().expect("checks");
        checks.iter().find(|c| c["check"] == check).expect("the check")["result"].clone()
    };
    assert_eq!(
        (result("handler-not-run"), result("problems-named"), result("points-to-schema")),
        ("pass".into(), "not_observable".into(), "fail".into()),
        "{printed}"
    );
    assert!(printed.contains("< HTTP 422 {\"detail\""), "the transcript shows the answer: {printed}");
}

fn a_bridge_that_never_answers_is_an_error_with_a_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    let key = format!("k3y-{}", std::process::id());
    let extra = ["--timeout", "1s", "--restarts", "0"];
    let id = "PLAT-162/before-handler/wrong-type-on-http";
    let (output, standing) = run(dir.path(), id, &key, &extra, &[("BRIDGE_HANG", "1")]);
    let printed = text(&output);
    let hung = case(&standing, id);
    let reason = hung["reason"].as_str().unwrap_or_default();
    assert_eq!(hung["status"], "error", "{printed}");
    assert!(reason.starts_with("POST of share_file: no response within 1s"), "{reason}");
    assert!(reason.contains("sent: POST /share_file {") && reason.contains("(an HTTP bridge)"), "{reason}");
    assert!(reason.contains("{port} {upstream_url}"), "named as given, without its port: {reason}");
}

fn a_bridge_without_its_key_is_refused_at_its_document() {
    let dir = tempfile::tempdir().expect("temp dir");
    let key = format!("k3y-{}", std::process::id());
    let script = dir.path().join("bridge.py");
    std::fs::write(&script, BRIDGE).expect("write the bridge");
    let command = format!("python3 {} {{port}} {{upstream_url}}", script.display());
    let report = dir.path().join("report");
    let output = Command::new(BINARY)
        .args(["run", "--color", "never", "--http-bridge", &command, "--start-timeout", "3s"])
        .args(["--case", "PLAT-162/before-handler/wrong-type-on-http", "--report", report.to_str().unwrap()])
        .env("BRIDGE_KEY", &key)
        .output()
        .expect("run the binary");
    let printed = text(&output);
    let standing = std::fs::read_to_string(report.join("standing.json")).unwrap_or_else(|e| panic!("{e}:\n{printed}"));
    assert!(standing.contains("GET /openapi.json") && standing.contains("HTTP status 401"), "{standing}");
}

/// A loopback port free a moment ago.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

fn a_bridge_at_a_url_configured_with_a_fixed_upstream_is_tested_in_one_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let key = format!("k3y-{}", std::process::id());
    let (port, upstream_port) = (free_port(), free_port());
    let mut child = Command::new("python3")
        .arg(script(dir.path()))
        .arg(port.to_string())
        .arg(format!("http://127.0.0.1:{upstream_port}/mcp"))
        .env("BRIDGE_KEY", &key)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("start the bridge");
    let url = format!("http://127.0.0.1:{port}");
    let upstream = format!("127.0.0.1:{upstream_port}");
    let route = ["--http-bridge-url", &url, "--mcp-upstream-listen", &upstream, "--wait", "20"];
    let id = "PLAT-162/before-handler/valid-call-second-tool";
    let (output, standing) = run_route(dir.path(), &route, id, &key, &[], &[]);
    let _ = child.kill();
    let _ = child.wait();
    let printed = text(&output);
    let valid = case(&standing, id);
    assert_eq!((&valid["status"], &standing["implementation"]["version"]), (&"pass".into(), &"0.1".into()), "{printed}");
    assert!(printed.contains("for the bridge to forward to"), "{printed}");
}

fn a_refusal_whose_body_is_the_error_object_is_judged_in_full() {
    let dir = tempfile::tempdir().expect("temp dir");
    let key = format!("k3y-{}", std::process::id());
    let id = "PLAT-162/before-handler/second-tool-wrapped";
    let (output, standing) = run(dir.path(), id, &key, &[], &[("BRIDGE_PROBLEMS", "1")]);
    let printed = text(&output);
    let refused = case(&standing, id);
    let checks = refused["checks"].as_array().expect("checks");
    let result = |check: &str| checks.iter().find(|c| c["check"] == check).expect("the check")["result"].clone();
    // Judged in full: what it names is read, no check left unobservable.
    assert_eq!((result("handler-not-run"), result("points-to-schema")), ("pass".into(), "pass".into()), "{printed}");
    assert!(checks.iter().all(|c| c["result"] != "not_observable"), "{printed}");
}

tests![
    a_refusal_whose_body_is_the_error_object_is_judged_in_full,
    a_bridge_at_a_url_configured_with_a_fixed_upstream_is_tested_in_one_command,
    a_forwarded_call_runs_the_handler_and_a_422_is_an_unstructured_refusal,
    a_bridge_that_never_answers_is_an_error_with_a_reason,
    a_bridge_without_its_key_is_refused_at_its_document
];
