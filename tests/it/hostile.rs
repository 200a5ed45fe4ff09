//! Hostile peers and files, met as a user meets them: real sockets against `serve --http`, real
//! alias-bomb and deeply nested files given to the binary, a real adapter behind `sh -c` that
//! forks, standing files whose strings carry terminal escapes or Markdown, each read by the
//! command a user would run (and the Markdown by a real renderer). The harness survives each,
//! refuses what it must with a clear reason, and leaves nothing behind.

use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};
use tool_conformance::Reference;
use tool_conformance::serve::http::{HttpOptions, listen, serve};

const BIN: &str = env!("CARGO_BIN_EXE_tool-conformance");

// ---------------------------------------------------------------------------------------------
// Helpers

/// Waits for `child` at most `within`; a child still running then is killed and `None` returned.
fn wait_within(mut child: Child, within: Duration) -> Option<Output> {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if child.try_wait().expect("wait").is_some() {
            return Some(child.wait_with_output().expect("output"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Runs the binary with `args` in an address space of at most `megabytes` (`ulimit -v`), killed
/// if it has not ended within 20 s (a guard against a hang, not a measure of speed).
fn run_within(args: &[&str], megabytes: u64) -> Output {
    let quoted: Vec<String> = std::iter::once(BIN).chain(args.iter().copied()).map(shell_quote).collect();
    let script = format!("ulimit -v {}; exec {}", megabytes * 1024, quoted.join(" "));
    // One malloc arena: each further arena glibc opens for a thread reserves 64 MiB of address
    // space it never uses, which the cap would count as memory (and fail at random under load).
    let child = Command::new("sh")
        .args(["-c", &script])
        .env("MALLOC_ARENA_MAX", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the binary");
    wait_within(child, Duration::from_secs(20)).expect("the binary did not end within 20 s")
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn tool(args: &[&str]) -> Output {
    Command::new(BIN).args(args).env_remove("NO_COLOR").output().expect("run the binary")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A `serve --http` process, killed on drop.
struct Served {
    child: Child,
    address: SocketAddr,
}

impl Served {
    fn start(extra: &[&str]) -> Served {
        let mut child = Command::new(BIN)
            .args(["serve", "--http", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start serve --http");
        let mut stdout = child.stdout.take().expect("stdout");
        let mut line = Vec::new();
        let mut byte = [0u8; 1];
        while !line.ends_with(b"\n") {
            assert_eq!(stdout.read(&mut byte).expect("read the URL"), 1, "serve --http printed no URL");
            line.push(byte[0]);
        }
        let url = text(&line);
        let address = url.trim().trim_start_matches("serving protocol v1 on http://").trim_end_matches('/');
        Served { child, address: address.parse().expect("an address") }
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().expect("wait").is_none()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `serve --http` on a thread of this process, with short limits.
fn serve_here(options: HttpOptions) -> SocketAddr {
    let listener = listen("127.0.0.1:0".parse().expect("an address"), &options).expect("bind");
    let address = listener.local_addr().expect("address");
    std::thread::spawn(move || serve(listener, Reference::new, options));
    address
}

/// A request timeout of two seconds, and an idle timeout far longer (as the defaults are, 10 s
/// and 30 s), so that a wait bounded by the one is told from one bounded by the other, even on
/// a loaded machine.
fn short_options() -> HttpOptions {
    HttpOptions {
        request_timeout: Duration::from_secs(2),
        idle_timeout: Duration::from_secs(20),
        ..HttpOptions::default()
    }
}

/// The status of the first response that arrives on `stream` within `within` (0 if none).
fn status_of(stream: &mut TcpStream, within: Duration) -> u16 {
    stream.set_read_timeout(Some(within)).expect("timeout");
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => seen.extend_from_slice(&buffer[..n]),
        }
    }
    text(&seen).split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// A fresh client's `start` on a new connection: its status, and how long it took.
fn fresh_start(address: SocketAddr) -> (u16, Duration) {
    let began = Instant::now();
    let Ok(mut stream) = TcpStream::connect_timeout(&address, Duration::from_secs(5)) else {
        return (0, began.elapsed());
    };
    let body = r#"{"cmd":"start","seq":0,"protocol":1}"#;
    let request = format!("POST / HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}", body.len());
    if stream.write_all(request.as_bytes()).is_err() {
        return (0, began.elapsed());
    }
    let status = status_of(&mut stream, Duration::from_secs(5));
    (status, began.elapsed())
}

/// Any character a terminal acts on or a reader cannot see, but the newline: controls (C0, DEL,
/// C1), bidi controls, zero-width characters.
fn acts_on_a_terminal(c: char) -> bool {
    c != '\n' && tool_conformance::json::inert::is_hidden(c)
}

/// A standing.json of a real run of a few cases against the reference.
fn real_standing(dir: &Path) -> Value {
    let report = dir.join("real-report");
    let output = tool(&["run", "--case", "RT-TOOL-8/keys/*", "--report", report.to_str().expect("utf-8")]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let standing = std::fs::read_to_string(report.join("standing.json")).expect("standing.json");
    tool_conformance::json::from_str(&standing).expect("JSON")
}

fn write_json(path: &Path, value: &Value) {
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
    std::fs::write(path, serde_json::to_string_pretty(value).expect("JSON")).expect("write");
}

/// A string that rewrites a terminal: a window title (OSC), a cleared line, a carriage return
/// and a newline that forge a line of output.
const FORGERY: &str = "x\u{1b}]0;owned\u{7}\u{1b}[2K\r\n0 regressions, all clear\u{9b}31m\u{202e}";

// ---------------------------------------------------------------------------------------------
// serve --http: no client can kill or starve it

fn serve_http_answers_a_declared_terabyte_body_with_413_and_stays_up() {
    let mut served = Served::start(&[]);
    let mut stream = TcpStream::connect(served.address).expect("connect");
    stream.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000\r\n\r\n").expect("write");
    assert_eq!(status_of(&mut stream, Duration::from_secs(5)), 413);
    drop(stream);
    // The server that aborted did so once the answer was written, when it discarded the body (a
    // second or so later, with a backtrace to print first).
    std::thread::sleep(Duration::from_secs(2));
    assert!(served.alive(), "serve --http died after refusing the body");
    assert_eq!(fresh_start(served.address).0, 200);
}

fn serve_http_refuses_a_head_past_64_kib_with_431_before_it_ends() {
    let mut served = Served::start(&[]);
    let mut stream = TcpStream::connect(served.address).expect("connect");
    let address = served.address;
    // A header line that never ends: a megabyte of it, written on a thread of its own (the
    // server stops reading long before).
    let mut writer = stream.try_clone().expect("clone");
    let pushing = std::thread::spawn(move || {
        let _ = writer.write_all(b"POST / HTTP/1.1\r\nX-Long: ");
        let chunk = vec![b'a'; 64 * 1024];
        for _ in 0..16 {
            if writer.write_all(&chunk).is_err() {
                return;
            }
        }
    });
    assert_eq!(status_of(&mut stream, Duration::from_secs(5)), 431);
    let _ = stream.shutdown(std::net::Shutdown::Both);
    let _ = pushing.join();
    assert!(served.alive());
    assert_eq!(fresh_start(address).0, 200);
}

fn serve_http_cuts_bodies_that_never_come_at_the_request_timeout_and_serves_a_fresh_client_meanwhile() {
    let options = short_options();
    let address = serve_here(options.clone());
    // 130 clients, each declaring a 5,000-byte body and sending ten bytes of it.
    let mut slow: Vec<TcpStream> = (0..130)
        .map(|_| {
            let mut stream = TcpStream::connect(address).expect("connect");
            stream.write_all(b"POST / HTTP/1.1\r\nContent-Length: 5000\r\n\r\n{\"cmd\":\"st").expect("write");
            stream
        })
        .collect();
    let began = Instant::now();
    let (status, took) = fresh_start(address);
    assert_eq!(status, 200, "a fresh client was not served while slow ones were open");
    assert!(took < options.request_timeout, "a fresh client waited {took:?} behind slow ones");
    // Each slow one is answered 408 once the request timeout is up, not at the idle timeout.
    for stream in &mut slow[..5] {
        assert_eq!(status_of(stream, Duration::from_secs(8)), 408);
    }
    let bound = options.request_timeout + Duration::from_secs(2);
    assert!(began.elapsed() < bound, "the 408s came after {:?}", began.elapsed());
}

fn serve_http_cuts_a_dripping_head_at_the_request_timeout() {
    let options = short_options();
    let address = serve_here(options.clone());
    let mut stream = TcpStream::connect(address).expect("connect");
    let mut writer = stream.try_clone().expect("clone");
    let began = Instant::now();
    // One byte every 100 ms: each read gets something, but the head never ends.
    let dripping = std::thread::spawn(move || {
        for byte in b"POST / HTTP/1.1\r\nX-Slow: ".iter().chain(&[b'a'; 100]) {
            if writer.write_all(&[*byte]).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    assert_eq!(status_of(&mut stream, Duration::from_secs(8)), 408);
    let bound = options.request_timeout + Duration::from_secs(2);
    assert!(began.elapsed() < bound, "a dripping head was answered after {:?}", began.elapsed());
    let _ = stream.shutdown(std::net::Shutdown::Both);
    let _ = dripping.join();
}

fn serve_http_past_its_connection_cap_closes_an_idle_connection_or_answers_503() {
    // Busy connections stay busy for the whole test.
    let options = HttpOptions { max_connections: 3, request_timeout: Duration::from_secs(20), ..short_options() };
    let address = serve_here(options);
    // One idle kept-alive connection (it made a request and waits for its next), two busy ones.
    let mut idle = TcpStream::connect(address).expect("connect");
    let body = r#"{"cmd":"start","seq":0,"protocol":1}"#;
    idle.write_all(format!("POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n{body}", body.len()).as_bytes())
        .expect("write");
    assert_eq!(status_of(&mut idle, Duration::from_secs(5)), 200);
    let busy: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut stream = TcpStream::connect(address).expect("connect");
            stream.write_all(b"POST / HTTP/1.1\r\nContent-Length: 50\r\n\r\n{").expect("write");
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_millis(50));
    // The idle one makes room for a newcomer, which is served at once.
    let (status, took) = fresh_start(address);
    assert_eq!(status, 200);
    assert!(took < Duration::from_secs(2), "the newcomer waited {took:?}");
    let mut rest = Vec::new();
    idle.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
    assert_eq!(idle.read_to_end(&mut rest).unwrap_or(0), 0, "the idle connection was not closed");
    // A third busy connection, once the newcomer's has gone (until then it is turned away).
    let third = (0..50)
        .find_map(|_| {
            std::thread::sleep(Duration::from_millis(50));
            let mut stream = TcpStream::connect(address).expect("connect");
            stream.write_all(b"POST / HTTP/1.1\r\nContent-Length: 50\r\n\r\n{").expect("write");
            (status_of(&mut stream, Duration::from_millis(100)) == 0).then_some(stream)
        })
        .expect("a third connection was admitted");
    // With every connection busy, a newcomer is answered 503 at once.
    let (status, took) = fresh_start(address);
    assert_eq!(status, 503);
    assert!(took < Duration::from_secs(2), "the 503 took {took:?}");
    drop((busy, third));
}

fn serve_http_refuses_a_non_loopback_address_without_allow_remote() {
    let child = Command::new(BIN)
        .args(["serve", "--http", "0.0.0.0:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let output = wait_within(child, Duration::from_secs(5)).expect("serve --http 0.0.0.0:0 served");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--allow-remote"), "{}", text(&output.stderr));
    let mut served = Served::start(&["--allow-remote"]);
    assert!(served.alive());
}

// ---------------------------------------------------------------------------------------------
// Files of bounded cost

/// A file of about 600 bytes whose aliases of aliases stand for 10^10 nodes.
fn alias_bomb() -> String {
    let mut lines = vec!["a0: &a0 [x, x, x, x, x, x, x, x, x, x]".to_string()];
    for i in 1..10 {
        let aliases = vec![format!("*a{}", i - 1); 10].join(", ");
        lines.push(format!("a{i}: &a{i} [{aliases}]"));
    }
    lines.join("\n") + "\n"
}

fn case_dir(dir: &Path, name: &str, body: &str) -> PathBuf {
    let cases = dir.join("cases");
    std::fs::create_dir_all(cases.join("RT-TOOL-8")).expect("mkdir");
    std::fs::write(cases.join("RT-TOOL-8").join(name), body).expect("write");
    cases
}

fn an_alias_bomb_case_file_is_refused_at_its_line_and_column_within_100_mb() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = case_dir(dir.path(), "bomb.yaml", &alias_bomb());
    for args in [vec!["check", cases.to_str().unwrap()], vec!["list", "--add-cases", cases.to_str().unwrap()]] {
        let output = run_within(&args, 100);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output.stderr));
        assert!(text(&output.stderr).contains("RT-TOOL-8/bomb.yaml:4:"), "{}", text(&output.stderr));
        assert!(text(&output.stderr).contains("aliases expand"), "{}", text(&output.stderr));
    }
}

fn a_30000_deep_block_nesting_is_refused_at_its_line_and_column_within_100_mb() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = case_dir(dir.path(), "deep.yaml", &("- ".repeat(30_000) + "x\n"));
    let output = run_within(&["check", cases.to_str().unwrap()], 100);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("RT-TOOL-8/deep.yaml:1:"), "{stderr}");
    assert!(stderr.contains("nest deeper than"), "{stderr}");
    assert!(stderr.len() < 2000, "a {}-byte error", stderr.len());
}

fn an_alias_bomb_expected_failures_file_is_refused_within_100_mb() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("expected.yaml");
    std::fs::write(&file, alias_bomb()).expect("write");
    let output = run_within(&["run", "--case", "RT-TOOL-8/keys/*", "--expected-failures", file.to_str().unwrap()], 100);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("expected.yaml:4:"), "{}", text(&output.stderr));
}

fn expected_failures_from_dev_zero_is_refused_within_100_mb() {
    let output = run_within(&["run", "--expected-failures", "/dev/zero"], 100);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("/dev/zero"), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("not a regular file"), "{}", text(&output.stderr));
}

// ---------------------------------------------------------------------------------------------
// Inert on every terminal and renderer

fn compare_prints_no_terminal_control_from_a_standing_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let old = real_standing(dir.path());
    let mut new = old.clone();
    new["implementation"]["name"] = Value::String(FORGERY.into());
    new["cases"][0]["id"] = Value::String(format!("RT-TOOL-8/keys/{FORGERY}"));
    let mut old = old;
    old["cases"][0]["id"] = new["cases"][0]["id"].clone();
    old["cases"][0]["status"] = Value::String("pass".into());
    new["cases"][0]["status"] = Value::String("fail".into());
    let (old_path, new_path) = (dir.path().join("old.json"), dir.path().join("new.json"));
    write_json(&old_path, &old);
    write_json(&new_path, &new);
    let output = tool(&["--color", "never", "compare", old_path.to_str().unwrap(), new_path.to_str().unwrap()]);
    let stdout = text(&output.stdout);
    assert!(stdout.contains("owned"), "the hostile strings are not shown at all:\n{stdout}");
    assert!(!stdout.chars().any(acts_on_a_terminal), "{stdout:?}");
    assert!(!stdout.lines().any(|l| l.starts_with("0 regressions, all clear")), "a forged line:\n{stdout}");

    // A status that is no status word is refused, and the error quotes it inertly too.
    new["cases"][0]["status"] = Value::String(format!("fail{FORGERY}"));
    write_json(&new_path, &new);
    let output = tool(&["--color", "never", "compare", old_path.to_str().unwrap(), new_path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    let both = format!("{}{}", text(&output.stdout), text(&output.stderr));
    assert!(!both.chars().any(acts_on_a_terminal), "{both:?}");
    assert!(!both.lines().any(|l| l.starts_with("0 regressions, all clear")), "a forged line:\n{both}");
}

/// A folder of published standings: one real standing in a folder named `name`, its first case
/// failing (with no expected-failures reason) under a hostile id.
fn published(dir: &Path, name: &str) -> PathBuf {
    let mut standing = real_standing(dir);
    standing["cases"][0]["status"] = Value::String("fail".into());
    standing["cases"][0]["id"] = Value::String(format!("RT-TOOL-8/keys/{FORGERY}"));
    let reports = dir.join("reports");
    write_json(&reports.join(name).join("standing.json"), &standing);
    reports
}

fn table_prints_no_terminal_control_on_stdout_or_stderr() {
    let dir = tempfile::tempdir().expect("tempdir");
    let reports = published(dir.path(), &format!("fw{}", &FORGERY[..FORGERY.find('\r').unwrap()]));
    let output = tool(&["table", reports.to_str().unwrap()]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(stderr.contains("owned"), "the failing case is not listed:\n{stderr}");
    assert!(!stdout.chars().any(acts_on_a_terminal), "{stdout:?}");
    assert!(!stderr.chars().any(acts_on_a_terminal), "{stderr:?}");
}

fn table_renders_a_hostile_folder_name_as_text_in_its_link() {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let dir = tempfile::tempdir().expect("tempdir");
    let folder = "<img src=x onerror=alert(1)> x|y";
    let reports = published(dir.path(), folder);
    let output = tool(&["table", reports.to_str().unwrap()]);
    let markdown = text(&output.stdout);
    let events: Vec<Event> = Parser::new_ext(&markdown, Options::ENABLE_TABLES).collect();
    let html: Vec<&Event> = events.iter().filter(|e| matches!(e, Event::Html(_) | Event::InlineHtml(_))).collect();
    // The page's own generated-by comment is its only HTML.
    assert!(html.iter().all(|e| matches!(e, Event::Html(h) if h.starts_with("<!--"))), "{html:?}");
    let links: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Start(Tag::Link { dest_url, .. }) => Some(dest_url.to_string()),
            _ => None,
        })
        .collect();
    // A row per rule, and the behaviour grid's row and cells, each linking to the folder's README.
    assert!(links.len() >= 2, "{links:?}\n{markdown}");
    for link in &links {
        assert_eq!(percent_decode(link), format!("{folder}/README.md"));
    }
    // The verdict rows keep their eleven cells, the behaviour grid's rows one per behaviour of the
    // rule and one for the folder: the folder's `|` did not split them.
    let mut rows = Vec::new();
    let mut cells = 0;
    for event in &events {
        match event {
            Event::Start(Tag::TableRow) => cells = 0,
            Event::Start(Tag::TableCell) => cells += 1,
            Event::End(TagEnd::TableRow) => rows.push(cells),
            _ => {}
        }
    }
    assert!(rows.contains(&11) && rows.iter().all(|&n| [11, 6, 9].contains(&n)), "{rows:?}\n{markdown}");
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            out.push(u8::from_str_radix(&text[i + 1..i + 3], 16).expect("hex"));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("utf-8")
}

fn readme_prints_no_terminal_control_from_a_standing_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut standing = real_standing(dir.path());
    standing["implementation"]["name"] = Value::String(FORGERY.into());
    standing["implementation"]["version"] = Value::String(FORGERY.into());
    standing["cases"][0]["status"] = Value::String("fail".into());
    standing["cases"][0]["id"] = Value::String(format!("RT-TOOL-8/keys/{FORGERY}"));
    let folder = dir.path().join("reports").join("fw");
    write_json(&folder.join("standing.json"), &standing);
    let output = tool(&["readme", folder.to_str().unwrap(), "--adapter", dir.path().join("none").to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("owned"), "{stdout}");
    assert!(!stdout.chars().any(acts_on_a_terminal), "{stdout:?}");
}

fn an_error_message_prints_no_terminal_control_from_a_file_or_its_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join(format!("expected{FORGERY}.yaml"));
    std::fs::write(&file, format!("- case: RT-TOOL-8/keys/x\n  reason: r\n  \"{FORGERY}\": 1\n")).expect("write");
    let output = tool(&["run", "--case", "RT-TOOL-8/keys/*", "--expected-failures", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("owned"), "{stderr}");
    assert!(!stderr.chars().any(acts_on_a_terminal), "{stderr:?}");
}

fn fuzz_prints_no_terminal_control_from_an_implementation() {
    // The reference behind a filter that puts the forgery into every answer's strings, and on
    // stderr.
    let script = format!(
        "'{BIN}' serve --stdio | sed -u 's/\\(\"[a-z_]*\":\"\\)/\\1\\\\u001b]0;owned\\\\u0007\\\\u202e/g'; \
         printf '\\033]0;owned\\007\\342\\200\\256\\n' >&2"
    );
    let adapter = format!("sh -c {}", shell_quote(&script));
    let output = tool(&["fuzz", "--seed", "1", "--cases", "30", "--stdio", &adapter]);
    let stdout = text(&output.stdout);
    assert!(stdout.contains("u{1B}]0;owned") || stdout.contains("u001b]0;owned"), "{stdout}");
    assert!(!stdout.chars().any(acts_on_a_terminal), "{stdout:?}");
}

// ---------------------------------------------------------------------------------------------
// Nothing left behind

/// Whether a process whose command line holds `marker` is running; any such is killed (by its
/// id), so that a failing test leaves nothing behind either.
fn left_running(marker: &str) -> bool {
    let pids: Vec<String> = std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter(|entry| {
            std::fs::read(entry.path().join("cmdline")).is_ok_and(|cmdline| text(&cmdline).contains(marker))
        })
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    for pid in &pids {
        let _ = Command::new("kill").args(["-9", pid]).status();
    }
    !pids.is_empty()
}

fn an_adapter_behind_sh_c_that_forks_leaves_no_process_after_the_run() {
    // A sleep with a length no other process has, so it can be found.
    let marker = format!("{}.{}", 300 + std::process::id() % 100, std::process::id());
    let adapter = format!("sh -c 'sleep {marker} & sleep {marker} & exec {BIN} serve --stdio'");
    let output = tool(&["run", "--case", "RT-TOOL-8/keys/*", "--stdio", &adapter]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    std::thread::sleep(Duration::from_millis(200));
    let left = left_running(&format!("sleep\0{marker}\0"));
    assert!(!left, "a process the adapter started outlived the run");
}

fn the_reason_says_the_adapter_exited_when_a_process_it_started_holds_its_stdout() {
    let marker = format!("{}.{}", 200 + std::process::id() % 100, std::process::id());
    let adapter = format!("sh -c 'sleep {marker} & exit 3'");
    let output =
        tool(&["run", "--case", "RT-TOOL-8/keys/*", "--restarts", "0", "--start-timeout", "1s", "--stdio", &adapter]);
    let printed = text(&output.stdout) + &text(&output.stderr);
    let left = left_running(&format!("sleep\0{marker}\0"));
    assert!(printed.contains("exited (exit status: 3"), "{printed}");
    assert!(!printed.contains("timed out"), "{printed}");
    assert!(!left, "a process the adapter started outlived the run");
}

// ---------------------------------------------------------------------------------------------
// Round trips and plain answers

fn a_case_file_whose_name_cannot_be_written_back_in_expected_failures_is_refused_at_check() {
    let dir = tempfile::tempdir().expect("tempdir");
    let case = "groups:\n  - input_schema: { type: object, properties: { title: { type: string } } }\n    cases:\n\
                \x20     - name: plain\n        clauses: [RT-TOOL-8.4]\n        level: required\n\
                \x20       summary: An added case.\n        normalize:\n\
                \x20         arguments: { title: \"a\" }\n          expected: { title: \"a\" }\n";
    let cases = case_dir(dir.path(), "with space.yaml", case);
    let output = tool(&["check", cases.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stdout));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("RT-TOOL-8/with space.yaml:1:1"), "{stderr}");
    assert!(stderr.contains("cannot name a topic"), "{stderr}");
    // The same case in a file whose name can be written back: its id, written as an expected
    // failure, is read back.
    std::fs::rename(cases.join("RT-TOOL-8/with space.yaml"), cases.join("RT-TOOL-8/with-dash.yaml")).expect("rename");
    assert_eq!(tool(&["check", cases.to_str().unwrap()]).status.code(), Some(0));
    let expected = dir.path().join("expected.yaml");
    std::fs::write(&expected, "- case: RT-TOOL-8/with-dash/plain\n  reason: r\n").expect("write");
    let output = tool(&[
        "run",
        "--add-cases",
        cases.to_str().unwrap(),
        "--case",
        "RT-TOOL-8/with-dash/*",
        "--expected-failures",
        expected.to_str().unwrap(),
    ]);
    assert_ne!(output.status.code(), Some(2), "{}", text(&output.stderr));
}

fn the_report_writer_never_writes_through_a_symlink() {
    let dir = tempfile::tempdir().expect("tempdir");
    let report = dir.path().join("report");
    std::fs::create_dir_all(&report).expect("mkdir");
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").expect("write");
    std::os::unix::fs::symlink(&victim, report.join("standing.partial")).expect("symlink");
    std::os::unix::fs::symlink(&victim, report.join("junit.partial")).expect("symlink");
    let output = tool(&["run", "--case", "RT-TOOL-8/keys/*", "--report", report.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(std::fs::read_to_string(&victim).expect("read"), "precious");
    assert!(std::fs::read_to_string(report.join("standing.json")).expect("standing.json").starts_with('{'));
}

fn a_response_with_seq_twice_is_refused_with_a_reason_that_says_so() {
    let start = r#"{"seq":7,"seq":0,"protocol":1,"implementation":{"name":"x","version":"1","language":"sh"},"rules":["RT-TOOL-8"],"transports":["direct"]}"#;
    let adapter = format!("sh -c 'read line; echo {}; sleep 5'", shell_quote(start).replace('\'', r"'\''"));
    let output = tool(&["run", "--case", "RT-TOOL-8/keys/*", "--restarts", "0", "--stdio", &adapter]);
    let printed = text(&output.stdout) + &text(&output.stderr);
    assert!(printed.contains(r#"the start response has the key "seq" twice"#), "{printed}");
}

fn a_gzip_answer_is_named_by_its_content_encoding() {
    // `{"seq":0,"protocol":1}`, gzip-compressed.
    const GZIP: [u8; 42] = [
        0x1f, 0x8b, 0x8, 0x0, 0x0, 0x0, 0x0, 0x0, 0x2, 0x3, 0xab, 0x56, 0x2a, 0x4e, 0x2d, 0x54, 0xb2, 0x32, 0xd0, 0x51,
        0x2a, 0x28, 0xca, 0x2f, 0xc9, 0x4f, 0xce, 0xcf, 0x51, 0xb2, 0x32, 0xac, 0x5, 0x0, 0x7b, 0x44, 0x33, 0x76, 0x16,
        0x0, 0x0, 0x0,
    ];
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
                head.push(byte[0]);
            }
            let length = text(&head)
                .lines()
                .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_string()))
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(0);
            let mut body = vec![0; length];
            let _ = stream.read_exact(&mut body);
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n",
                GZIP.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&GZIP);
        }
    });
    let output =
        tool(&["run", "--case", "RT-TOOL-8/keys/*", "--restarts", "0", "--http", &format!("http://{address}/")]);
    let printed = text(&output.stdout) + &text(&output.stderr);
    assert!(printed.contains("Content-Encoding: gzip"), "{printed}");
    assert!(!printed.contains("not UTF-8"), "{printed}");
}

tests![
    serve_http_answers_a_declared_terabyte_body_with_413_and_stays_up,
    serve_http_refuses_a_head_past_64_kib_with_431_before_it_ends,
    serve_http_cuts_bodies_that_never_come_at_the_request_timeout_and_serves_a_fresh_client_meanwhile,
    serve_http_cuts_a_dripping_head_at_the_request_timeout,
    serve_http_past_its_connection_cap_closes_an_idle_connection_or_answers_503,
    serve_http_refuses_a_non_loopback_address_without_allow_remote,
    an_alias_bomb_case_file_is_refused_at_its_line_and_column_within_100_mb,
    a_30000_deep_block_nesting_is_refused_at_its_line_and_column_within_100_mb,
    an_alias_bomb_expected_failures_file_is_refused_within_100_mb,
    expected_failures_from_dev_zero_is_refused_within_100_mb,
    compare_prints_no_terminal_control_from_a_standing_file,
    table_prints_no_terminal_control_on_stdout_or_stderr,
    table_renders_a_hostile_folder_name_as_text_in_its_link,
    readme_prints_no_terminal_control_from_a_standing_file,
    an_error_message_prints_no_terminal_control_from_a_file_or_its_name,
    fuzz_prints_no_terminal_control_from_an_implementation,
    an_adapter_behind_sh_c_that_forks_leaves_no_process_after_the_run,
    the_reason_says_the_adapter_exited_when_a_process_it_started_holds_its_stdout,
    a_case_file_whose_name_cannot_be_written_back_in_expected_failures_is_refused_at_check,
    the_report_writer_never_writes_through_a_symlink,
    a_response_with_seq_twice_is_refused_with_a_reason_that_says_so,
    a_gzip_answer_is_named_by_its_content_encoding,
];
