//! The gauntlet: the binary run against implementations that break in every way an
//! implementation can, over stdio and over HTTP. Each run must end by itself within a bounded
//! time, give error results whose reasons say what happened, write a whole report, and exit 1.
//!
//! The broken implementations are this test binary itself: started with `GAUNTLET_MODE` set, it
//! acts as an implementation (the reference behind protocol v1, with one fault injected) instead
//! of running the tests. The HTTP ones are small servers on loopback threads of the test process.
//! Timeouts are short (`--timeout 300ms`, two restarts), so the whole gauntlet takes seconds.
//!
//! Two more kinds of trial use the same machinery. The identity trials run an implementation
//! whose faults depend only on what it is asked (failures with exchanges, error answers,
//! unreadable answers that force a restart, stderr lines, wrong seqs), and check that the report
//! files are byte for byte the same with `--jobs 1` and `--jobs 4`, and over HTTP whichever port
//! the server listens on and however many `--http` URLs are given. The lone-surrogate trial
//! checks that an answer holding a lone surrogate escape (valid JSON) is judged, not refused.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
use tool_conformance::Reference;
use tool_conformance::serve::Server;

/// The environment variable that turns this binary into a broken implementation.
pub(crate) const MODE: &str = "GAUNTLET_MODE";
/// No run of the gauntlet may take longer than this.
const BOUND: Duration = Duration::from_secs(40);

/// The gauntlet's trials, each named `gauntlet::` and what it runs.
pub(crate) fn trials() -> Vec<libtest_mimic::Trial> {
    let mut trials = Vec::new();
    for (mode, expected) in STDIO_MODES {
        trials.push(libtest_mimic::Trial::test(format!("gauntlet::stdio::{mode}"), move || {
            run_stdio(mode, expected, &[]).map_err(Into::into)
        }));
    }
    trials.push(libtest_mimic::Trial::test("gauntlet::stdio::crash-on-7 with --jobs 2", || {
        run_stdio("crash-on:7", "gauntlet: crashing on request 7", &["--jobs", "2"]).map_err(Into::into)
    }));
    trials.push(libtest_mimic::Trial::test("gauntlet::stdio::missing-fields with --validate-protocol", || {
        run_stdio(
            "missing-fields",
            "does not match schemas/protocol.schema.json: at #/$defs/",
            &["--validate-protocol"],
        )
        .map_err(Into::into)
    }));
    trials.push(libtest_mimic::Trial::test("gauntlet::identity::stdio with --jobs 1 and --jobs 4", || {
        stdio_reports_are_identical().map_err(Into::into)
    }));
    trials.push(libtest_mimic::Trial::test("gauntlet::identity::http on other ports and over two URLs", || {
        http_reports_are_identical().map_err(Into::into)
    }));
    trials.push(libtest_mimic::Trial::test("gauntlet::stdio::lone-surrogate is judged, not refused", || {
        lone_surrogates_are_judged(&[]).map_err(Into::into)
    }));
    trials.push(libtest_mimic::Trial::test("gauntlet::stdio::lone-surrogate with --validate-protocol", || {
        lone_surrogates_are_judged(&["--validate-protocol"]).map_err(Into::into)
    }));
    for (mode, expected) in HTTP_MODES {
        trials.push(libtest_mimic::Trial::test(format!("gauntlet::http::{mode}"), move || {
            let url = if mode == "connection-refused" { refused_url() } else { fake_http(mode) };
            gauntlet(mode, &["--http", &url], expected).map_err(Into::into)
        }));
    }
    trials
}

/// Each stdio mode, and words some error reason of its run must hold.
const STDIO_MODES: [(&str, &str); 11] = [
    ("exit-at-start", "gauntlet: refusing to start"),
    ("crash-on:40", "gauntlet: crashing on request 40"),
    ("hang", "timed out"),
    ("slow:1500", "timed out"),
    ("non-json", "is not JSON"),
    ("wrong-seq", "but the request had seq"),
    ("missing-fields", "has no `"),
    ("huge-line", "longer than"),
    ("close-stdout", "closed its stdout"),
    ("flood-stderr", "gauntlet: flood line"),
    ("invalid-utf8", "is not UTF-8"),
];

/// Each HTTP mode, and words some error reason of its run must hold.
const HTTP_MODES: [(&str, &str); 4] = [
    ("http-500", "HTTP status 500: internal error"),
    ("http-non-json", "is not JSON"),
    ("http-hang", "timed out"),
    ("connection-refused", "connection refused"),
];

/// This test binary as a command line for `--stdio`.
fn this_binary() -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let exe = exe.to_str().ok_or("the test binary's path is not UTF-8")?;
    Ok(shlex::try_quote(exe).map_err(|e| e.to_string())?.into_owned())
}

fn run_stdio(mode: &str, expected: &str, extra: &[&str]) -> Result<(), String> {
    let command = this_binary()?;
    let mut args = vec!["--stdio", command.as_str()];
    args.extend_from_slice(extra);
    gauntlet(mode, &args, expected)
}

/// Runs the binary against a broken implementation and checks the run.
fn gauntlet(mode: &str, target: &[&str], expected: &str) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let report = dir.path().join("report");
    let began = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_tool-conformance"))
        .arg("run")
        .args(target)
        .args(["--timeout", "300ms", "--start-timeout", "3s", "--restarts", "2", "--report"])
        .arg(&report)
        .env(MODE, mode)
        .output()
        .map_err(|e| format!("could not run the binary: {e}"))?;
    let elapsed = began.elapsed();
    let printed = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    let context = || format!("mode {mode}, {elapsed:.1?}:\n{}", tail(&printed, 60));
    eprintln!("gauntlet {mode} {}: {elapsed:.2?}", target.join(" "));
    if elapsed > BOUND {
        return Err(format!("took longer than {BOUND:?}; {}", context()));
    }
    if output.status.code() != Some(1) {
        return Err(format!("exit code {:?}, not 1; {}", output.status.code(), context()));
    }
    if printed.contains("panicked") {
        return Err(format!("something panicked; {}", context()));
    }
    let standing = read_report(&report).map_err(|e| format!("{e}; {}", context()))?;
    let cases = standing["cases"].as_array().cloned().unwrap_or_default();
    let errors: Vec<&str> =
        cases.iter().filter(|c| c["status"] == "error").filter_map(|c| c["reason"].as_str()).collect();
    if errors.is_empty() {
        return Err(format!("no case is an error; {}", context()));
    }
    if errors.iter().any(|r| r.trim().is_empty()) {
        return Err(format!("an error has no reason; {}", context()));
    }
    if !errors.iter().any(|r| r.contains(expected)) {
        let first = errors.iter().take(3).copied().collect::<Vec<_>>().join("\n---\n");
        return Err(format!("no error reason mentions {expected:?}; the first ones:\n{first}\n{}", context()));
    }
    Ok(())
}

/// The report written: both files whole, none left half-written.
fn read_report(dir: &Path) -> Result<Value, String> {
    let entries: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("no report directory: {e}"))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    if entries.iter().any(|name| name.ends_with(".partial")) {
        return Err(format!("a partial report was left: {entries:?}"));
    }
    let markdown = std::fs::read_to_string(dir.join("standing.md")).map_err(|e| format!("standing.md: {e}"))?;
    if !markdown.contains("## Failing cases") {
        return Err("standing.md lists no failing case".into());
    }
    let text = std::fs::read_to_string(dir.join("standing.json")).map_err(|e| format!("standing.json: {e}"))?;
    tool_conformance::json::from_str(&text).map_err(|e| format!("standing.json is not JSON: {e}"))
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// This binary as a broken implementation: the reference behind protocol v1 on stdin and stdout,
/// with the fault `mode` names. Never returns.
pub(crate) fn broken(mode: &str) -> ! {
    let (name, argument) = mode.split_once(':').unwrap_or((mode, ""));
    if name == "judged-faults" || name == "lone-surrogate" {
        judged_over_stdio(name);
    }
    if name == "exit-at-start" {
        eprintln!("gauntlet: refusing to start");
        std::process::exit(3);
    }
    let mut server = Server::new(Reference::new());
    let mut out = Some(std::io::stdout());
    let write = |out: &mut Option<std::io::Stdout>, bytes: &[u8]| {
        if let Some(out) = out.as_mut() {
            let mut lock = out.lock();
            if lock.write_all(bytes).and_then(|()| lock.flush()).is_err() {
                std::process::exit(0);
            }
        }
    };
    for (index, line) in std::io::stdin().lock().lines().enumerate() {
        let Ok(line) = line else { break };
        let number = index + 1;
        let request: Value = tool_conformance::json::from_str(&line).unwrap_or(Value::Null);
        let seq = request["seq"].as_u64().unwrap_or(0);
        let good = format!("{}\n", server.handle(&request).response);
        if request["cmd"] == "start" {
            write(&mut out, good.as_bytes());
            if name == "close-stdout" {
                close_stdout();
                out = None;
            }
            continue;
        }
        match name {
            "crash-on" if argument.parse() == Ok(number) => {
                eprintln!("gauntlet: crashing on request {number}");
                std::process::exit(101);
            }
            "hang" | "close-stdout" => std::thread::sleep(Duration::from_secs(3600)),
            "slow" => {
                std::thread::sleep(Duration::from_millis(argument.parse().unwrap_or(1000)));
                write(&mut out, good.as_bytes());
            }
            "non-json" => write(&mut out, b"this is not JSON\n"),
            "wrong-seq" => {
                let mut response: Value = tool_conformance::json::from_str(&good).unwrap_or(Value::Null);
                response["seq"] = json!(seq + 1000);
                write(&mut out, format!("{response}\n").as_bytes());
            }
            "missing-fields" => write(&mut out, format!("{}\n", json!({ "seq": seq })).as_bytes()),
            "huge-line" => {
                let chunk = vec![b'x'; 1024 * 1024];
                for _ in 0..100 {
                    write(&mut out, &chunk);
                }
                write(&mut out, b"\n");
            }
            "flood-stderr" => {
                let mut stderr = std::io::stderr().lock();
                for i in 0u64.. {
                    if writeln!(stderr, "gauntlet: flood line {i}").is_err() {
                        std::process::exit(0);
                    }
                }
            }
            "invalid-utf8" => {
                let mut bytes = format!("{{\"seq\":{seq},\"arguments\":\"").into_bytes();
                bytes.extend_from_slice(b"\xff\xfe\"}\n");
                write(&mut out, &bytes);
            }
            _ => write(&mut out, good.as_bytes()),
        }
    }
    std::process::exit(0);
}

/// Closes file descriptor 1, leaving the process running.
fn close_stdout() {
    use std::os::fd::FromRawFd;
    // SAFETY: fd 1 is this process's stdout; nothing else in the process writes to it after this
    // (the caller stops using `std::io::stdout`), so owning and dropping it closes it once.
    drop(unsafe { std::os::fd::OwnedFd::from_raw_fd(1) });
}

/// A port nothing listens on.
fn refused_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    drop(listener);
    format!("http://{address}/")
}

/// A broken HTTP implementation on a loopback thread: it answers `start` correctly, then breaks
/// as `mode` says.
fn fake_http(mode: &'static str) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/", listener.local_addr().expect("address"));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || fake_connection(stream, mode));
        }
    });
    url
}

fn fake_connection(stream: TcpStream, mode: &str) {
    let mut writer = match stream.try_clone() {
        Ok(writer) => writer,
        Err(_) => return,
    };
    let mut reader = BufReader::new(stream);
    while let Some(body) = read_http_request(&mut reader) {
        let request: Value = tool_conformance::json::from_slice(&body).unwrap_or(Value::Null);
        let (status, body) = if request["cmd"] == "start" {
            (200, Server::new(Reference::new()).handle(&request).response.to_string())
        } else {
            match mode {
                "http-500" => (500, "internal error: the adapter crashed".to_string()),
                "http-hang" => {
                    std::thread::sleep(Duration::from_secs(3600));
                    return;
                }
                _ => (200, "<html>oops</html>".to_string()),
            }
        };
        let response = format!(
            "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        if writer.write_all(response.as_bytes()).is_err() {
            return;
        }
    }
}

/// The selection the identity trials run: normalize, invoke and describe cases, enough of each
/// for every fault of [`judged_faults`] to occur, and few enough for a quick run.
const IDENTITY_CASES: [&str; 8] = [
    "--case",
    "RT-TOOL-8/entity-decoding/*",
    "--case",
    "PLAT-162/before-handler/*",
    "--case",
    "PLAT-162/scenarios/*",
    "--case",
    "PLAT-162/one-schema/*",
];

/// What a faulty implementation gives for one request: the response's text, and a line it
/// writes to stderr first.
struct Reply {
    text: String,
    stderr: Option<String>,
}

/// The reference behind protocol v1 with faults that depend only on the request, never on its
/// `seq` or on what came before: a normalize of text holding `&amp;` gives the arguments back
/// undecoded (a failure), and by a hash of the request without its seq some invokes are answered
/// unreadably (after a stderr line), with an error, with a wrong seq, or as executed when they
/// were rejected (a failure), and some describes with an error.
fn judged_faults(server: &mut Server<Reference>, request: &Value) -> Reply {
    let seq = request["seq"].as_u64().unwrap_or(0);
    let good = server.handle(request).response;
    let reply = |value: Value| Reply { text: value.to_string(), stderr: None };
    let mut unnumbered = request.clone();
    if let Some(object) = unnumbered.as_object_mut() {
        object.remove("seq");
    }
    let text = unnumbered.to_string();
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    match (request["cmd"].as_str().unwrap_or_default(), hash % 6) {
        ("normalize", _) if text.contains("&amp;") => reply(json!({"seq": seq, "arguments": request["arguments"]})),
        ("normalize", 0) => reply(json!({"seq": seq + 5, "arguments": request["arguments"]})),
        ("invoke", 0) => Reply {
            text: "garbled: this is not JSON".into(),
            stderr: Some(format!("gauntlet: garbling the invoke of {}", request["tool"])),
        },
        ("invoke", 1) => reply(json!({"seq": seq, "error": "gauntlet: this invoke fails"})),
        ("invoke", 2 | 3) if good["outcome"] == "rejected" => reply(json!({
            "seq": seq, "outcome": "executed", "handler_calls": 1, "received": request["arguments"]
        })),
        ("describe", 0 | 1) => reply(json!({"seq": seq, "error": "gauntlet: this describe fails"})),
        _ => reply(good),
    }
}

/// A normalize answered with lone surrogates in a key and in a string (and a pair, which stays
/// a pair), as `json.dumps` writes them; everything else as the reference answers it.
fn lone_surrogate(server: &mut Server<Reference>, request: &Value) -> Reply {
    let text = match request["cmd"].as_str() {
        Some("normalize") => {
            let seq = request["seq"].as_u64().unwrap_or(0);
            format!(r#"{{"seq": {seq}, "arguments": {{"\udc00": "a\ud800", "pair": "\ud83d\ude00", "b": "\\ud800"}}}}"#)
        }
        _ => server.handle(request).response.to_string(),
    };
    Reply { text, stderr: None }
}

/// This binary as the implementation `mode` names, on stdin and stdout. With `GAUNTLET_STARTS`
/// set to a file, a line is appended to it at every start. Never returns.
fn judged_over_stdio(mode: &str) -> ! {
    let mut server = Server::new(Reference::new());
    let mut out = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let request: Value = tool_conformance::json::from_str(&line).unwrap_or(Value::Null);
        if request["cmd"] == "start" {
            note_start();
        }
        let reply = if mode == "lone-surrogate" {
            lone_surrogate(&mut server, &request)
        } else {
            judged_faults(&mut server, &request)
        };
        if let Some(words) = reply.stderr {
            eprintln!("{words}");
        }
        if writeln!(out, "{}", reply.text).and_then(|()| out.flush()).is_err() || request["cmd"] == "stop" {
            break;
        }
    }
    std::process::exit(0);
}

fn note_start() {
    if let Ok(path) = std::env::var("GAUNTLET_STARTS") {
        if let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
            let _ = writeln!(file, "start");
        }
    }
}

/// An implementation with [`judged_faults`] over HTTP on a loopback thread: its URL.
fn judged_http() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/", listener.local_addr().expect("address"));
    let server = std::sync::Arc::new(std::sync::Mutex::new(Server::new(Reference::new())));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let server = std::sync::Arc::clone(&server);
            std::thread::spawn(move || judged_connection(stream, &server));
        }
    });
    url
}

fn judged_connection(stream: TcpStream, server: &std::sync::Mutex<Server<Reference>>) {
    let Ok(mut writer) = stream.try_clone() else { return };
    let mut reader = BufReader::new(stream);
    while let Some(body) = read_http_request(&mut reader) {
        let request: Value = tool_conformance::json::from_slice(&body).unwrap_or(Value::Null);
        let reply = match server.lock() {
            Ok(mut server) => judged_faults(&mut server, &request),
            Err(_) => return,
        };
        let response = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
            reply.text.len(),
            reply.text
        );
        if writer.write_all(response.as_bytes()).is_err() {
            return;
        }
    }
}

/// The body of the next request on a connection, or `None` at its end.
fn read_http_request(reader: &mut BufReader<TcpStream>) -> Option<Vec<u8>> {
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).ok()?;
    Some(body)
}

/// Every report file a run writes, by name, with the run's exit code.
type Reports = (Option<i32>, std::collections::BTreeMap<String, Vec<u8>>);

/// Runs the binary on [`IDENTITY_CASES`] with `target` (its implementation set to `mode`), and
/// reads the reports it wrote.
fn reports(mode: &str, target: &[&str]) -> Result<Reports, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let report = dir.path().join("report");
    let output = Command::new(env!("CARGO_BIN_EXE_tool-conformance"))
        .arg("run")
        .args(IDENTITY_CASES)
        .args(target)
        .args(["--timeout", "5s", "--restarts", "1000", "--report"])
        .arg(&report)
        .env(MODE, mode)
        .output()
        .map_err(|e| format!("could not run the binary: {e}"))?;
    let mut files = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(&report).map_err(|e| format!("no report for {target:?}: {e}"))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        files.insert(name, std::fs::read(&path).map_err(|e| e.to_string())?);
    }
    if output.status.code() != Some(1) || files.is_empty() {
        let printed = String::from_utf8_lossy(&output.stderr);
        return Err(format!(
            "{target:?}: exit {:?}, files {:?}:\n{}",
            output.status.code(),
            files.keys(),
            tail(&printed, 30)
        ));
    }
    Ok((output.status.code(), files))
}

/// The first file that differs between two runs' reports, with the first line that differs.
fn compare(what: &str, one: &Reports, other: &Reports) -> Result<(), String> {
    if one.0 != other.0 {
        return Err(format!("{what}: exit codes {:?} and {:?}", one.0, other.0));
    }
    if one.1.keys().ne(other.1.keys()) {
        return Err(format!("{what}: files {:?} and {:?}", one.1.keys(), other.1.keys()));
    }
    for (name, bytes) in &one.1 {
        if *bytes != other.1[name] {
            let (a, b) = (String::from_utf8_lossy(bytes), String::from_utf8_lossy(&other.1[name]));
            let first = a.lines().zip(b.lines()).find(|(x, y)| x != y);
            return Err(format!("{what}: {name} differs; first differing lines:\n{first:#?}"));
        }
    }
    Ok(())
}

/// The reports show what the identity trials are about: failing cases with their exchanges,
/// errors whose reasons quote what was sent and earlier exchanges, a restart, and stderr.
fn check_reports_have_faults(reports: &Reports, over_stdio: bool) -> Result<(), String> {
    let json = reports.1.get("standing.json").ok_or("no standing.json")?;
    let standing: Value = tool_conformance::json::from_slice(json).map_err(|e| format!("standing.json: {e}"))?;
    let cases = standing["cases"].as_array().cloned().unwrap_or_default();
    let status = |s: &str| cases.iter().filter(|c| c["status"] == s).count();
    let text = String::from_utf8_lossy(json);
    let mut wanted = vec![
        ("a failing case", status("fail") > 0),
        ("an error", status("error") > 0),
        ("an exchange line", text.contains("\"> {\\\"cmd\\\":")),
        ("a carried registration", text.contains("\"> {\\\"cmd\\\":\\\"register\\\",\\\"seq\\\":0,")),
        ("an error answer", text.contains("gauntlet: this invoke fails")),
        ("earlier exchanges", text.contains("earlier in this case:")),
        ("a wrong seq", text.contains("has seq 5, but the request had seq 0")),
        ("no port", !text.contains("127.0.0.1")),
    ];
    if over_stdio {
        wanted.push(("an unreadable answer", text.contains("is not JSON")));
        wanted.push(("stderr", text.contains("| gauntlet: garbling the invoke of")));
    }
    let missing: Vec<&str> = wanted.iter().filter(|(_, ok)| !ok).map(|(what, _)| *what).collect();
    if missing.is_empty() { Ok(()) } else { Err(format!("the reports lack {missing:?}")) }
}

fn stdio_reports_are_identical() -> Result<(), String> {
    let command = this_binary()?;
    let serial = reports("judged-faults", &["--stdio", &command, "--jobs", "1"])?;
    check_reports_have_faults(&serial, true)?;
    let parallel = reports("judged-faults", &["--stdio", &command, "--jobs", "4"])?;
    compare("--jobs 1 and --jobs 4", &serial, &parallel)?;
    let again = reports("judged-faults", &["--stdio", &command, "--jobs", "4"])?;
    compare("two runs with --jobs 4", &parallel, &again)
}

fn http_reports_are_identical() -> Result<(), String> {
    let (one, two) = (judged_http(), judged_http());
    let first = reports("", &["--http", &one])?;
    check_reports_have_faults(&first, false)?;
    compare("a server on another port", &first, &reports("", &["--http", &two])?)?;
    compare("two --http URLs", &first, &reports("", &["--http", &one, "--http", &two])?)
}

/// A normalize answered with lone surrogates is judged (a failure, or observed), and the
/// implementation is neither restarted nor found in error.
fn lone_surrogates_are_judged(extra: &[&str]) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let starts = dir.path().join("starts");
    let report = dir.path().join("report");
    let command = this_binary()?;
    let output = Command::new(env!("CARGO_BIN_EXE_tool-conformance"))
        .args(["run", "--case", "RT-TOOL-8/entity-decoding/*", "--stdio", &command, "--report"])
        .arg(&report)
        .args(extra)
        .env(MODE, "lone-surrogate")
        .env("GAUNTLET_STARTS", &starts)
        .output()
        .map_err(|e| format!("could not run the binary: {e}"))?;
    let printed = String::from_utf8_lossy(&output.stderr);
    if output.status.code() != Some(1) {
        return Err(format!("exit {:?}:\n{}", output.status.code(), tail(&printed, 30)));
    }
    let started = std::fs::read_to_string(&starts).map_err(|e| format!("no start was noted: {e}"))?;
    if started.lines().count() != 1 {
        return Err(format!("started {} times, not once", started.lines().count()));
    }
    let standing = read_report(&report)?;
    let cases = standing["cases"].as_array().cloned().unwrap_or_default();
    let judged = |c: &&Value| c["status"] == "fail" || c["status"] == "observed";
    if cases.is_empty() || !cases.iter().all(|c| judged(&c)) {
        let other: Vec<&Value> = cases.iter().filter(|c| !judged(c)).take(2).collect();
        return Err(format!("not every case was judged: {other:#?}"));
    }
    let exchange = standing["cases"][0]["exchange"].to_string();
    if !exchange.contains(r#"\"a\\ud800\""#) {
        return Err(format!("the exchange does not show the answer as it came: {exchange}"));
    }
    Ok(())
}
