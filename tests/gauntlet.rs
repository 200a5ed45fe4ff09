//! The gauntlet: the binary run against implementations that break in every way an
//! implementation can, over stdio and over HTTP. Each run must end by itself within a bounded
//! time, give error results whose reasons say what happened, write a whole report, and exit 1.
//!
//! The broken implementations are this test binary itself: started with `GAUNTLET_MODE` set, it
//! acts as an implementation (the reference behind protocol v1, with one fault injected) instead
//! of running the tests. The HTTP ones are small servers on loopback threads of the test process.
//! Timeouts are short (`--timeout 300ms`, two restarts), so the whole gauntlet takes seconds.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
use tool_conformance::Reference;
use tool_conformance::serve::Server;

/// The environment variable that turns this binary into a broken implementation.
const MODE: &str = "GAUNTLET_MODE";
/// No run of the gauntlet may take longer than this.
const BOUND: Duration = Duration::from_secs(40);

fn main() {
    if let Ok(mode) = std::env::var(MODE) {
        broken(&mode);
    }
    let args = libtest_mimic::Arguments::from_args();
    let mut trials = Vec::new();
    for (mode, expected) in STDIO_MODES {
        trials.push(libtest_mimic::Trial::test(format!("stdio::{mode}"), move || {
            run_stdio(mode, expected, &[]).map_err(Into::into)
        }));
    }
    trials.push(libtest_mimic::Trial::test("stdio::crash-on-7 with --jobs 2", || {
        run_stdio("crash-on:7", "gauntlet: crashing on request 7", &["--jobs", "2"]).map_err(Into::into)
    }));
    trials.push(libtest_mimic::Trial::test("stdio::missing-fields with --validate-protocol", || {
        run_stdio(
            "missing-fields",
            "does not match schemas/protocol.schema.json: at #/$defs/",
            &["--validate-protocol"],
        )
        .map_err(Into::into)
    }));
    for (mode, expected) in HTTP_MODES {
        trials.push(libtest_mimic::Trial::test(format!("http::{mode}"), move || {
            let url = if mode == "connection-refused" { refused_url() } else { fake_http(mode) };
            gauntlet(mode, &["--http", &url], expected).map_err(Into::into)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
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

fn run_stdio(mode: &str, expected: &str, extra: &[&str]) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let exe = exe.to_str().ok_or("the test binary's path is not UTF-8")?;
    let command = shlex::try_quote(exe).map_err(|e| e.to_string())?.into_owned();
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
    serde_json::from_str(&text).map_err(|e| format!("standing.json is not JSON: {e}"))
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// This binary as a broken implementation: the reference behind protocol v1 on stdin and stdout,
/// with the fault `mode` names. Never returns.
fn broken(mode: &str) -> ! {
    let (name, argument) = mode.split_once(':').unwrap_or((mode, ""));
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
        let request: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
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
                let mut response: Value = serde_json::from_str(&good).unwrap_or(Value::Null);
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
    loop {
        let mut length = 0usize;
        loop {
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
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
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
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
