//! What a user meets in the first hour when something is wrong, each said once and plainly: an
//! adapter that does not start (`--compact` gives the reason once, not one line per case), a
//! program to start that is not there (a usage error, exit 2, for `--stdio`, the MCP routes and
//! fuzz), a URL that refuses the connection (named, for `--http`, the MCP routes and fuzz), a typo
//! in a case id given to `show` (the nearest ids), a case file saved with a UTF-8 byte order mark
//! (read).

use crate::util::{copy_corpus, text};
use std::process::{Command, Output};
use tool_conformance::exit::USAGE;

fn tool(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tool-conformance")).args(args).output().expect("run the binary")
}

fn compact_says_once_why_the_adapter_did_not_start() {
    let output = tool(&["run", "--compact", "--color", "never", "--stdio", "false"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.matches("did not start: ").count(), 1, "{stdout}");
    assert!(stdout.contains("for one reason"), "{stdout}");
    assert!(stdout.lines().count() < 20, "{} lines:\n{stdout}", stdout.lines().count());
}

fn a_stdio_program_that_is_not_there_is_a_usage_error() {
    for command in ["no-such-program-anywhere --x", "./no/such/program"] {
        let output = tool(&["run", "--compact", "--stdio", command]);
        assert_eq!(output.status.code(), Some(i32::from(USAGE)), "{command}: {}", text(&output));
        let program = command.split(' ').next().unwrap();
        assert!(String::from_utf8_lossy(&output.stderr).contains(program), "{}", text(&output));
    }
}

fn a_program_to_start_that_is_not_there_is_a_usage_error_on_every_route_and_in_fuzz() {
    for args in [
        &["run", "--compact", "--mcp-server", "no-such-program-anywhere"][..],
        &["run", "--compact", "--mcp-gateway", "no-such-program-anywhere {upstream_url}"],
        &["run", "--compact", "--http-bridge", "no-such-program-anywhere --port {port}"],
        &["fuzz", "--cases", "2", "--stdio", "no-such-program-anywhere"],
    ] {
        let output = tool(args);
        assert_eq!(output.status.code(), Some(i32::from(USAGE)), "{args:?}: {}", text(&output));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("no-such-program-anywhere is not found on PATH"), "{args:?}: {}", text(&output));
    }
}

fn a_refused_http_connection_names_its_url() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}");
    let output = tool(&["run", "--compact", "--case", "RT-TOOL-8/keys/*", "--http", &url]);
    assert!(String::from_utf8_lossy(&output.stderr).contains(&url), "{}", text(&output));
    assert!(text(&output).contains("connection refused"), "{}", text(&output));
}

fn a_refused_connection_names_its_url_on_every_route_and_in_fuzz() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let record = tempfile::tempdir().unwrap();
    let record = record.path().join("record.jsonl");
    let keys = ["--compact", "--case", "RT-TOOL-8/keys/*"];
    let runs: [Vec<&str>; 4] = [
        [&["run", "--mcp-server-url", &url, "--mcp-record", record.to_str().unwrap()][..], &keys].concat(),
        [&["run", "--mcp-gateway-url", &url][..], &keys].concat(),
        [&["run", "--http-bridge-url", &url][..], &keys].concat(),
        vec!["fuzz", "--cases", "3", "--http", &url],
    ];
    for args in runs {
        let output = tool(&args);
        assert!(String::from_utf8_lossy(&output.stderr).contains(&url), "{args:?}: {}", text(&output));
    }
}

fn show_suggests_the_nearest_ids_for_a_typo() {
    let output = tool(&["show", "RT-TOOL-8/examples/doubly-escapd-title"]);
    assert_eq!(output.status.code(), Some(i32::from(USAGE)), "{}", text(&output));
    assert!(text(&output).contains("did you mean RT-TOOL-8/examples/doubly-escaped-title"), "{}", text(&output));
}

fn a_case_file_with_a_byte_order_mark_is_read() {
    let dir = copy_corpus();
    let file = walkdir::WalkDir::new(dir.path().join("RT-TOOL-8"))
        .into_iter()
        .filter_map(Result::ok)
        .find(|e| e.file_type().is_file() && e.file_name() != "rule.yaml")
        .expect("a case file")
        .into_path();
    let text_of = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, format!("\u{feff}{text_of}")).expect("write");
    let output = tool(&["check", "--cases", dir.path().to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output));
}

tests![
    compact_says_once_why_the_adapter_did_not_start,
    a_stdio_program_that_is_not_there_is_a_usage_error,
    a_program_to_start_that_is_not_there_is_a_usage_error_on_every_route_and_in_fuzz,
    a_refused_http_connection_names_its_url,
    a_refused_connection_names_its_url_on_every_route_and_in_fuzz,
    show_suggests_the_nearest_ids_for_a_typo,
    a_case_file_with_a_byte_order_mark_is_read,
];
