//! The reference's standing is the same whichever way the harness reaches it: in process, over
//! `serve --stdio`, over `serve --http`, checked with `--validate-protocol`, and spread over
//! several instances with `--jobs`. standing.json is compared byte for byte, implementation block
//! included (the reference describes itself the same way over the protocol); under `--jobs` and
//! over several `--http` URLs every report file is. (tests/gauntlet.rs holds the same check
//! for an implementation that fails and breaks, whose reports carry exchanges and reasons.)

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_tool-conformance")
}

fn serve_stdio() -> String {
    format!("{} serve --stdio", shlex::try_quote(bin()).expect("quotable path"))
}

/// Runs `run` with `args` and a report directory; the exit code and standing.json.
fn standing(args: &[&str]) -> (Option<i32>, String) {
    let (code, files) = reports(args);
    let json = files.get("standing.json").unwrap_or_else(|| panic!("no standing.json for {args:?}"));
    (code, String::from_utf8_lossy(json).into_owned())
}

/// Runs `run` with `args` and a report directory; the exit code and every report file, by name.
fn reports(args: &[&str]) -> (Option<i32>, BTreeMap<String, Vec<u8>>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let output =
        Command::new(bin()).arg("run").args(args).arg("--report").arg(dir.path()).output().expect("run the binary");
    let files: BTreeMap<String, Vec<u8>> = std::fs::read_dir(dir.path())
        .expect("the report directory")
        .map(|entry| {
            let path = entry.expect("an entry").path();
            let name = path.file_name().expect("a name").to_string_lossy().into_owned();
            (name, std::fs::read(&path).expect("a report file"))
        })
        .collect();
    assert!(
        files.contains_key("standing.json"),
        "no standing.json for {args:?}:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code(), files)
}

/// The names of the files that differ between two sets of reports (a missing file differs).
fn differing(one: &BTreeMap<String, Vec<u8>>, other: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    one.keys().chain(other.keys()).filter(|name| one.get(*name) != other.get(*name)).cloned().collect()
}

/// `serve --http 127.0.0.1:0` in the background, killed on drop.
struct HttpServer {
    child: Child,
    url: String,
}

impl HttpServer {
    fn start() -> HttpServer {
        let mut child = Command::new(bin())
            .args(["serve", "--http", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("start serve --http");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(Duration::from_secs(20)).expect("serve --http prints its URL");
        let url = line.split_whitespace().last().expect("a URL").to_string();
        assert!(url.starts_with("http://127.0.0.1:"), "{line}");
        HttpServer { child, url }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn counts(json: &str) -> String {
    let report: serde_json::Value = tool_conformance::json::from_str(json).expect("standing.json is JSON");
    let mut by_status = std::collections::BTreeMap::<String, usize>::new();
    for case in report["cases"].as_array().expect("cases") {
        *by_status.entry(case["status"].as_str().unwrap_or("?").to_string()).or_default() += 1;
    }
    format!("{by_status:?}")
}

fn in_process_over_stdio_and_over_http_the_standing_is_identical() {
    let (code, in_process) = standing(&[]);
    assert_eq!(code, Some(0));
    let (code, over_stdio) = standing(&["--stdio", &serve_stdio()]);
    assert_eq!(code, Some(0));
    let server = HttpServer::start();
    let (code, over_http) = standing(&["--http", &server.url]);
    assert_eq!(code, Some(0));
    eprintln!("in process: {}", counts(&in_process));
    eprintln!("over stdio: {}", counts(&over_stdio));
    eprintln!("over http:  {}", counts(&over_http));
    assert!(in_process == over_stdio, "over stdio the standing differs");
    assert!(in_process == over_http, "over http the standing differs");
}

fn validating_the_protocol_changes_nothing_for_the_reference() {
    let (_, in_process) = standing(&[]);
    let (code, validated) = standing(&["--stdio", &serve_stdio(), "--validate-protocol"]);
    assert_eq!(code, Some(0));
    assert!(in_process == validated, "with --validate-protocol the standing differs");
    let (code, loopback) = standing(&["--validate-protocol"]);
    assert_eq!(code, Some(0));
    assert!(in_process == loopback, "through the in-process protocol loopback the standing differs");
}

fn jobs_give_the_serial_reports() {
    let (_, serial) = reports(&[]);
    assert!(serial.len() >= 5, "{:?}", serial.keys());
    let (code, jobs) = reports(&["--jobs", "3"]);
    assert_eq!(code, Some(0));
    assert_eq!(differing(&serial, &jobs), Vec::<String>::new(), "in process with --jobs 3");
    let (code, jobs) = reports(&["--stdio", &serve_stdio(), "--jobs", "3"]);
    assert_eq!(code, Some(0));
    assert_eq!(differing(&serial, &jobs), Vec::<String>::new(), "over stdio with --jobs 3");
    let (one, two) = (HttpServer::start(), HttpServer::start());
    let (code, jobs) = reports(&["--http", &one.url, "--http", &two.url]);
    assert_eq!(code, Some(0));
    assert_eq!(differing(&serial, &jobs), Vec::<String>::new(), "over two HTTP instances");
}

fn jobs_over_http_need_one_url_per_instance() {
    let output = Command::new(bin())
        .args(["run", "--http", "http://127.0.0.1:9/", "--jobs", "2"])
        .output()
        .expect("run the binary");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("one per running instance"));
}

fn the_transcript_shows_every_exchange_with_timing() {
    for target in [vec![], vec!["--stdio".to_string(), serve_stdio()]] {
        let mut args = vec!["run".to_string(), "--case".into(), "PLAT-162/scenarios/*".into(), "--transcript".into()];
        args.extend(target);
        let output = Command::new(bin()).args(&args).output().expect("run the binary");
        let printed = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "{printed}");
        assert!(
            printed.contains("--- start\n> {\"cmd\":\"start\",\"seq\":0,\"protocol\":1}\n< {\"seq\":0,"),
            "{printed}"
        );
        assert!(printed.contains("\n--- PLAT-162/scenarios/"), "{printed}");
        assert!(printed.contains("> {\"cmd\":\"invoke\","), "{printed}");
        assert!(printed.contains(" ms]\n"), "{printed}");
        assert!(printed.contains("--- stop\n> {\"cmd\":\"stop\""), "{printed}");
    }
    let output = Command::new(bin()).args(["run", "--transcript"]).output().expect("run the binary");
    assert_eq!(output.status.code(), Some(2), "--transcript needs --case");
}

tests![
    in_process_over_stdio_and_over_http_the_standing_is_identical,
    validating_the_protocol_changes_nothing_for_the_reference,
    jobs_give_the_serial_reports,
    jobs_over_http_need_one_url_per_instance,
    the_transcript_shows_every_exchange_with_timing,
];
