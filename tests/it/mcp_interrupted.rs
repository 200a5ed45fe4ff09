//! A run over MCP interrupted (SIGTERM, or SIGINT as Ctrl-C sends it) while its gateway starts:
//! it ends the processes it started, its own `mcp-upstream` serving on a loopback port among them,
//! removes its run folder, and exits 143 or 130; and a gateway's command line with a placeholder
//! the harness does not know is refused before anything starts.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::text;

const BINARY: &str = env!("CARGO_BIN_EXE_tool-conformance");

/// Waits at most `seconds` for `ready`.
fn wait_for(seconds: u64, mut ready: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < deadline {
        if ready() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

fn interrupted_by(signal: &str, code: i32) {
    let dir = tempfile::tempdir().expect("temp dir");
    let said = dir.path().join("said");
    // The gateway says where the upstream is, its own process id and the run's manifest, then
    // never answers.
    let script = format!(
        "echo \"$TOOL_CONFORMANCE_UPSTREAM_URL $$ $TOOL_CONFORMANCE_MANIFEST\" > {0}.part && mv {0}.part {0} && exec sleep 30",
        said.display()
    );
    let gateway = format!("sh -c {}", shlex::try_quote(&script).unwrap());
    let report = dir.path().join("report");
    let mut harness = Command::new(BINARY)
        .args(["run", "--mcp-gateway", &gateway, "--start-timeout", "20s", "--rule", "PLAT-162"])
        .args(["--report", report.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run the binary");
    assert!(wait_for(10, || said.exists()), "the gateway started");
    let said = std::fs::read_to_string(&said).unwrap();
    let words: Vec<&str> = said.split_whitespace().collect();
    let (url, gateway_pid, manifest) = (words[0], words[1], Path::new(words[2]));
    assert!(manifest.exists());
    let status = Command::new("kill").args([&format!("-{signal}"), &harness.id().to_string()]).status().unwrap();
    assert!(status.success());
    let mut exited = None;
    wait_for(5, || {
        exited = harness.try_wait().unwrap();
        exited.is_some()
    });
    let Some(exited) = exited else {
        let _ = harness.kill();
        let _ = harness.wait();
        panic!("the harness did not end within 5 s of SIG{signal}");
    };
    assert_eq!(exited.code(), Some(code), "{exited}");
    assert!(!manifest.parent().unwrap().exists(), "the run folder is removed");
    let address = url.trim_start_matches("http://").split('/').next().unwrap().to_string();
    assert!(
        wait_for(3, || std::net::TcpStream::connect(&address).is_err()),
        "the harness's upstream no longer serves at {address}"
    );
    let alive = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| !stat.contains(") Z "))
    };
    assert!(wait_for(3, || !alive(gateway_pid)), "the gateway {gateway_pid} is ended");
}

fn sigterm_ends_the_run_s_processes_and_removes_its_folder() {
    interrupted_by("TERM", 143);
}

fn sigint_ends_the_run_s_processes_and_removes_its_folder() {
    interrupted_by("INT", 130);
}

fn a_gateway_command_with_an_unknown_placeholder_is_refused() {
    let output = Command::new(BINARY)
        .args(["run", "--mcp-gateway", "gw --to {upstream_uri}", "--rule", "PLAT-162"])
        .output()
        .expect("run the binary");
    assert_eq!(output.status.code(), Some(tool_conformance::exit::USAGE as i32), "{}", text(&output));
    let said = text(&output);
    assert!(said.contains("{upstream_uri} is no placeholder") && said.contains("{upstream_url} and {upstream_cmd}"), "{said}");
}

tests![
    a_gateway_command_with_an_unknown_placeholder_is_refused,
    sigterm_ends_the_run_s_processes_and_removes_its_folder, sigint_ends_the_run_s_processes_and_removes_its_folder];
