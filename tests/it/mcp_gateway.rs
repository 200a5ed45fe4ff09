//! `run --mcp-gateway` end to end, as a gateway's developer runs it: the harness is the gateway's
//! upstream MCP server and its client at once. The gateway is the example `mcp-gateway` (built by
//! `cargo test` with the other examples): validating with the reference it conforms to PLAT-162;
//! forwarding without validation (`--forward-only`) it does not, and the report shows the
//! handler runs; answering errors as text alone (`--text-errors`) its problem checks are not
//! observable, so PLAT-162 is incomplete, never passed.

use crate::util::text;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// The example gateway, beside this test binary's folder (`target/debug/examples/`).
fn gateway() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let debug = exe.parent().and_then(|deps| deps.parent()).expect("target/debug");
    let path = debug.join("examples").join(format!("mcp-gateway{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{} is missing: `cargo test` builds the examples; or run `cargo build --example mcp-gateway`",
        path.display()
    );
    path
}

/// Runs the suite's PLAT-162 and RT-TOOL-8 cases through the gateway with `flags`: the exit code,
/// the printed text and standing.json.
fn run(flags: &str) -> (i32, String, Value) {
    let dir = tempfile::tempdir().expect("temp dir");
    let report = dir.path().join("report");
    let command = format!("'{}' {flags}", gateway().display());
    let output = Command::new(env!("CARGO_BIN_EXE_tool-conformance"))
        .args(["run", "--color", "never", "--mcp-gateway", &command, "--report"])
        .arg(&report)
        .output()
        .expect("run the binary");
    let printed = text(&output);
    let standing = std::fs::read_to_string(report.join("standing.json"))
        .unwrap_or_else(|e| panic!("no standing.json ({e}):\n{printed}"));
    (output.status.code().unwrap_or(-1), printed, tool_conformance::json::from_str(&standing).expect("JSON"))
}

fn verdict<'a>(standing: &'a Value, rule: &str) -> &'a str {
    let rules = standing["standing"]["rules"].as_array().expect("rules");
    let rule = rules.iter().find(|r| r["rule"] == rule).unwrap_or_else(|| panic!("no {rule}"));
    rule["verdict"].as_str().expect("a verdict")
}

fn cases<'a>(standing: &'a Value, status: &str) -> Vec<&'a Value> {
    standing["cases"].as_array().expect("cases").iter().filter(|c| c["status"] == status).collect()
}

fn the_validating_gateway_conforms_to_plat_162_and_fails_nothing() {
    let (code, printed, standing) = run("");
    assert_eq!(standing["implementation"]["name"], "mcp-gateway-example", "the gateway's own serverInfo");
    assert_eq!(verdict(&standing, "PLAT-162"), "conforms", "{printed}");
    assert!(cases(&standing, "fail").is_empty() && cases(&standing, "error").is_empty(), "{printed}");
    // Its normalize cases whose normalized arguments break the schema are refused by a gateway
    // that validates, which the route cannot tell from normalization: skipped, so RT-TOOL-8 is
    // incomplete, and the run does not pass.
    assert_eq!(verdict(&standing, "RT-TOOL-8"), "incomplete", "{printed}");
    assert!(cases(&standing, "skip").iter().all(|c| c["rule"] == "RT-TOOL-8"), "{printed}");
    assert_ne!(code, 0, "an incomplete rule is not a pass: {printed}");
    let passed = cases(&standing, "pass");
    assert!(passed.iter().filter(|c| c["rule"] == "PLAT-162").count() > 100, "PLAT-162's cases ran: {printed}");
}

fn the_forwarding_gateway_does_not_conform_and_the_handler_runs_are_shown() {
    let (code, printed, standing) = run("--forward-only");
    assert_eq!(code, 1, "{printed}");
    assert_eq!(verdict(&standing, "PLAT-162"), "does_not_conform", "{printed}");
    let failed = cases(&standing, "fail");
    let wrapped = failed
        .iter()
        .find(|c| c["id"] == "PLAT-162/before-handler/first-tool-wrapped")
        .unwrap_or_else(|| panic!("the unvalidated call fails its case:\n{printed}"));
    // What the upstream handler received, as the gateway forwarded it, unvalidated.
    assert_eq!(wrapped["actual"]["outcome"], "executed");
    assert_eq!(wrapped["actual"]["handler_calls"], 1);
    assert_eq!(serde_json::to_string(&wrapped["actual"]["received"]).unwrap(), r#"{"path":"","recursive":true}"#);
    assert!(printed.contains("PLAT-162/before-handler/first-tool-wrapped"), "{printed}");
    assert!(printed.contains("\"handler_calls\": 1"), "the terminal shows the handler run:\n{printed}");
}

fn the_gateway_with_text_errors_leaves_plat_162_incomplete_never_passed() {
    let (code, printed, standing) = run("--text-errors");
    assert_ne!(code, 0, "{printed}");
    assert_eq!(verdict(&standing, "PLAT-162"), "incomplete", "{printed}");
    assert!(cases(&standing, "fail").is_empty(), "what MCP shows is right: {printed}");
    let skipped = cases(&standing, "skip");
    let plat: Vec<_> = skipped.iter().filter(|c| c["rule"] == "PLAT-162").collect();
    assert!(!plat.is_empty(), "{printed}");
    for case in plat {
        let reason = case["reason"].as_str().unwrap_or_default();
        assert!(reason.starts_with("not observable over MCP"), "{}: {reason}", case["id"]);
    }
}

tests![
    the_validating_gateway_conforms_to_plat_162_and_fails_nothing,
    the_forwarding_gateway_does_not_conform_and_the_handler_runs_are_shown,
    the_gateway_with_text_errors_leaves_plat_162_incomplete_never_passed,
];
