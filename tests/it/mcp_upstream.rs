//! `tool-conformance manifest` and `tool-conformance mcp-upstream` as a gateway under test meets
//! them: raw JSON-RPC 2.0 over stdio (a line per message) and over Streamable HTTP (a POST per
//! message), the manifest's tools listed exactly, every call recorded with its numbers and key
//! order as sent, and MCP's errors for an unknown tool or method.

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use crate::util::{text, tool};
use tool_conformance::mcp::Manifest;

const BINARY: &str = env!("CARGO_BIN_EXE_tool-conformance");

/// A manifest with a tool whose schema has keys out of order and a long number.
const MANIFEST: &str = r#"{"manifest":1,"tools":[
  {"name":"update_step","description":"Moves a step.","input_schema":{"type":"object","properties":{"step":{"type":"integer","maximum":12345678901234567890123}},"required":["step"]}},
  {"name":"normalize_1","input_schema":{"type":"object","properties":{"z":{},"a":{}}}}
]}"#;

/// A call's arguments, whose digits and key order must reach the record as sent.
const ARGUMENTS: &str = r#"{"zeta":12345678901234567890123,"alpha":1.50,"nested":{"b":"&amp;","a":[1e2,-7]}}"#;

/// The spawned upstream, killed when dropped.
struct Upstream(Child);

impl Drop for Upstream {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).expect("serializes")
}

fn parse(text: &str) -> Value {
    tool_conformance::json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn files() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let manifest = dir.path().join("manifest.json");
    std::fs::write(&manifest, MANIFEST).expect("write the manifest");
    let record = dir.path().join("record.jsonl");
    (dir, manifest, record)
}

/// The record's lines after the first, `{"manifest": FINGERPRINT}`, which every start writes.
fn record_lines(record: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(record).unwrap_or_default();
    let mut lines = text.lines().map(str::to_string);
    if let Some(first) = lines.next() {
        let fingerprint = Manifest::from_slice(MANIFEST.as_bytes()).expect("the manifest").fingerprint();
        assert_eq!(first, format!(r#"{{"manifest":"{fingerprint}"}}"#), "the record opens with what is published");
    }
    lines.collect()
}

/// Sends one line and reads the answer line.
fn ask(stdin: &mut ChildStdin, stdout: &mut BufReader<ChildStdout>, message: &str) -> Value {
    writeln!(stdin, "{message}").expect("write");
    stdin.flush().expect("flush");
    let mut line = String::new();
    stdout.read_line(&mut line).expect("read");
    parse(line.trim_end())
}

/// The tools of `tools/list`'s result, as exact text, against the manifest's.
fn assert_lists_the_manifest(listed: &Value) {
    let manifest = parse(MANIFEST);
    let tools = listed["result"]["tools"].as_array().expect("a tools array");
    assert_eq!(tools.len(), 2, "{listed}");
    for (published, entry) in tools.iter().zip(manifest["tools"].as_array().unwrap()) {
        assert_eq!(published["name"], entry["name"]);
        assert_eq!(published.get("description"), entry.get("description"));
        assert_eq!(compact(&published["inputSchema"]), compact(&entry["input_schema"]), "the schema is exact");
    }
    assert!(listed["result"].get("nextCursor").is_none(), "one page");
}

fn stdio_answers_initialize_list_call_and_errors_and_records_each_call_exactly() {
    let (_dir, manifest, record) = files();
    // The manifest and record come from the environment when no flag names them.
    let mut child = Command::new(BINARY)
        .arg("mcp-upstream")
        .env("TOOL_CONFORMANCE_MANIFEST", &manifest)
        .env("TOOL_CONFORMANCE_RECORD", &record)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn mcp-upstream");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let child = Upstream(child);

    for (asked, answered) in [("2024-11-05", "2024-11-05"), ("2025-06-18", "2025-06-18"), ("1999-01-01", "2025-11-25")]
    {
        let init = ask(
            &mut stdin,
            &mut stdout,
            &format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{asked}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
            ),
        );
        assert_eq!(init["id"], 1);
        assert_eq!(init["result"]["protocolVersion"], answered, "{init}");
        assert_eq!(init["result"]["capabilities"]["tools"]["listChanged"], false);
        assert_eq!(init["result"]["serverInfo"]["name"], "tool-conformance-upstream");
    }
    // A notification is not answered: the next line read is the ping's answer.
    writeln!(stdin, r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#).unwrap();
    let ping = ask(&mut stdin, &mut stdout, r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    assert_eq!(compact(&ping), r#"{"jsonrpc":"2.0","id":"p","result":{}}"#);

    assert_lists_the_manifest(&ask(&mut stdin, &mut stdout, r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#));

    let call = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"update_step","arguments":{ARGUMENTS}}}}}"#
    );
    let answer = ask(&mut stdin, &mut stdout, &call);
    assert_eq!(compact(&answer), r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"ok"}]}}"#);
    // The line is there, flushed, as soon as the answer is.
    assert_eq!(record_lines(&record), [format!(r#"{{"tool":"update_step","arguments":{ARGUMENTS}}}"#)]);

    let unknown_tool = ask(
        &mut stdin,
        &mut stdout,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}"#,
    );
    assert_eq!(unknown_tool["error"]["code"], -32602, "{unknown_tool}");
    assert!(unknown_tool["error"]["message"].as_str().unwrap().contains("no_such_tool"));
    let unknown_method = ask(&mut stdin, &mut stdout, r#"{"jsonrpc":"2.0","id":5,"method":"resources/list"}"#);
    assert_eq!(unknown_method["error"]["code"], -32601, "{unknown_method}");
    assert_eq!(ask(&mut stdin, &mut stdout, "{not json")["error"]["code"], -32700);

    let again = ask(
        &mut stdin,
        &mut stdout,
        r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"normalize_1","arguments":{"z":"[1]","a":true}}}"#,
    );
    assert!(again.get("result").is_some(), "{again}");
    assert_eq!(record_lines(&record).len(), 2, "errors record nothing; each call one line");
    assert_eq!(record_lines(&record)[1], r#"{"tool":"normalize_1","arguments":{"z":"[1]","a":true}}"#);

    // The end of input ends the server, successfully.
    drop(stdin);
    let mut child = child;
    let status = child.0.wait().expect("wait");
    assert!(status.success(), "{status}");
}

/// One HTTP exchange on a fresh connection: status, headers (lower-case names) and body.
fn http(url: &str, method: &str, body: Option<&str>) -> (u16, Vec<(String, String)>, String) {
    http_from(url, method, body, "http://localhost")
}

/// [`http`], as a browser page of `origin` sends it.
fn http_from(url: &str, method: &str, body: Option<&str>, origin: &str) -> (u16, Vec<(String, String)>, String) {
    let config = ureq::Agent::config_builder().http_status_as_error(false).timeout_global(Some(Duration::from_secs(10)));
    let agent: ureq::Agent = config.build().into();
    let response = match body {
        Some(body) => agent
            .post(url)
            .header("Origin", origin)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .send(body.as_bytes()),
        None if method == "GET" => agent.get(url).header("Accept", "text/event-stream").call(),
        None => agent.delete(url).call(),
    };
    let mut response = response.expect("an HTTP answer");
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(name, value)| (name.as_str().to_ascii_lowercase(), value.to_str().unwrap_or("").to_string()))
        .collect();
    let body = response.body_mut().read_to_string().unwrap_or_default();
    (status, headers, body)
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

fn http_answers_each_post_with_json_gives_a_session_and_records_each_call_exactly() {
    let (_dir, manifest, record) = files();
    let mut child = Command::new(BINARY)
        .args(["mcp-upstream", "--http", "127.0.0.1:0", "--manifest"])
        .arg(&manifest)
        .arg("--record")
        .arg(&record)
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn mcp-upstream --http");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let _child = Upstream(child);
    let mut url = String::new();
    stdout.read_line(&mut url).expect("the URL line");
    let url = url.trim_end();
    assert!(url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"), "{url}");

    let (status, headers, body) = http(
        url,
        "POST",
        Some(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}"#),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(header(&headers, "content-type"), Some("application/json"));
    let session = header(&headers, "mcp-session-id").expect("an Mcp-Session-Id").to_string();
    assert!(!session.is_empty() && session.bytes().all(|b| (0x21..=0x7e).contains(&b)), "{session}");
    assert_eq!(parse(&body)["result"]["protocolVersion"], "2025-03-26");

    let (status, headers, body) = http(url, "POST", Some(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#));
    assert_eq!((status, body.as_str()), (202, ""), "a notification is accepted with no body");
    assert_eq!(header(&headers, "mcp-session-id"), Some(session.as_str()));

    let (status, _, body) = http(url, "POST", Some(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#));
    assert_eq!(status, 200);
    assert_lists_the_manifest(&parse(&body));

    let call = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"update_step","arguments":{ARGUMENTS}}}}}"#
    );
    let (status, _, body) = http(url, "POST", Some(&call));
    assert_eq!((status, body.as_str()), (200, r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"ok"}]}}"#));
    assert_eq!(record_lines(&record), [format!(r#"{{"tool":"update_step","arguments":{ARGUMENTS}}}"#)]);

    let (_, _, body) = http(
        url,
        "POST",
        Some(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#),
    );
    assert_eq!(parse(&body)["error"]["code"], -32602, "{body}");
    let (_, _, body) = http(url, "POST", Some(r#"{"jsonrpc":"2.0","id":5,"method":"prompts/list"}"#));
    assert_eq!(parse(&body)["error"]["code"], -32601, "{body}");
    let (status, _, body) = http(url, "POST", Some("{oops"));
    assert_eq!((status, parse(&body)["error"]["code"].as_i64()), (400, Some(-32700)));

    // No stream to offer: GET is 405 (as MCP allows); DELETE ends nothing and is accepted.
    let (status, headers, _) = http(url, "GET", None);
    assert_eq!(status, 405);
    assert_eq!(header(&headers, "allow"), Some("POST, DELETE"));
    assert_eq!(http(url, "DELETE", None).0, 200);
    // A page of another site reaching the loopback server through a browser is refused unread.
    let (status, _, body) = http_from(url, "POST", Some(&call), "http://rebound.example");
    assert_eq!(status, 403, "{body}");
    assert_eq!(parse(&body)["error"]["code"], -32600, "a JSON-RPC error: {body}");
    assert_eq!(record_lines(&record).len(), 1, "only the call to a published tool was recorded");
}

fn manifest_prints_the_selection_and_the_upstream_needs_one() {
    let printed = tool(&["manifest", "--case", "PLAT-162/closed-root/*"]);
    assert!(printed.status.success(), "{}", text(&printed));
    let manifest = parse(&String::from_utf8_lossy(&printed.stdout));
    assert_eq!(manifest["manifest"], 1);
    let names: Vec<&str> = manifest["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"set_counters"), "{names:?}");
    assert!(names.iter().all(|n| !n.starts_with("normalize_")), "no normalize case selected: {names:?}");
    let mut whole = tool(&["manifest"]);
    assert!(whole.status.success());
    let whole = parse(&String::from_utf8_lossy(&std::mem::take(&mut whole.stdout)));
    let all: Vec<&str> = whole["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(all.contains(&"set_counters_2") && all.contains(&"normalize_1"), "{all:?}");

    let clean = tool(&["manifest", "--case", "PLAT-162/before-handler/*"]);
    assert!(clean.status.success() && clean.stderr.is_empty(), "MCP allows every schema: {}", text(&clean));
    // A schema MCP does not allow is in the manifest as written, with a note saying what becomes of
    // its cases.
    let boolean = tool(&["manifest", "--case", "RT-TOOL-8/json-decoding/true-root-schema-decodes-nothing"]);
    assert!(boolean.status.success());
    assert_eq!(parse(&String::from_utf8_lossy(&boolean.stdout))["tools"][0]["input_schema"], true);
    let note = String::from_utf8_lossy(&boolean.stderr);
    assert!(
        note.contains("normalize_1 (it is not an object)")
            && note.contains("mcp-upstream does not publish it, and through a gateway its 1 case(s) are not applicable"),
        "{note}"
    );

    let typo = tool(&["manifest", "--case", "PLAT-162/no-such-topic/*"]);
    assert!(!typo.status.success() && text(&typo).contains("matches no case"), "{}", text(&typo));

    let missing = Command::new(BINARY)
        .args(["mcp-upstream", "--record", "unused.jsonl"])
        .env_remove("TOOL_CONFORMANCE_MANIFEST")
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert!(!missing.status.success());
    assert!(text(&missing).contains("TOOL_CONFORMANCE_MANIFEST"), "{}", text(&missing));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"manifest":1,"tools":[{"name":"a"}]}"#).unwrap();
    let unread = Command::new(BINARY)
        .arg("mcp-upstream")
        .arg("--manifest")
        .arg(&bad)
        .arg("--record")
        .arg(dir.path().join("r.jsonl"))
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert!(!unread.status.success());
    assert!(text(&unread).contains("bad.json") && text(&unread).contains("input_schema"), "{}", text(&unread));
}

tests![
    stdio_answers_initialize_list_call_and_errors_and_records_each_call_exactly,
    http_answers_each_post_with_json_gives_a_session_and_records_each_call_exactly,
    manifest_prints_the_selection_and_the_upstream_needs_one,
];
