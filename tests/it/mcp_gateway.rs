//! `run --mcp-gateway` over the whole corpus, both rules at once, with the example gateway
//! validating (run as this test binary, as `mcp` runs it): what the upstream handler received
//! behind the gateway is what the reference normalized, so no case of either rule fails, PLAT-162
//! conforms, and RT-TOOL-8 is incomplete for one reason only, the normalize cases a validating
//! gateway must refuse, which MCP cannot tell from normalization (skipped, never passed); the
//! cases of the tools MCP cannot carry are not applicable, and no other. `mcp`
//! holds each rule's verdicts for each gateway mode on PLAT-162 alone.

use crate::util::text;
use serde_json::Value;
use std::process::Command;

fn the_validating_gateway_fails_no_case_of_the_whole_corpus() {
    let dir = tempfile::tempdir().expect("temp dir");
    let report = dir.path().join("report");
    let exe = std::env::current_exe().expect("this test binary");
    let gateway = shlex::try_quote(exe.to_str().expect("a UTF-8 path")).expect("quoted").into_owned();
    let output = Command::new(env!("CARGO_BIN_EXE_tool-conformance"))
        .args(["run", "--color", "never", "--mcp-gateway", &gateway, "--report"])
        .arg(&report)
        .env(crate::mcp::GATEWAY_MODE, "1")
        .output()
        .expect("run the binary");
    let printed = text(&output);
    let standing: Value = tool_conformance::json::from_str(
        &std::fs::read_to_string(report.join("standing.json")).unwrap_or_else(|e| panic!("{e}:\n{printed}")),
    )
    .expect("JSON");
    let verdict = |rule: &str| {
        let rules = standing["standing"]["rules"].as_array().expect("rules");
        rules.iter().find(|r| r["rule"] == rule).expect("the rule")["verdict"].clone()
    };
    let cases = standing["cases"].as_array().expect("cases");
    let with = |status: &str| cases.iter().filter(|c| c["status"] == status).collect::<Vec<_>>();

    assert_eq!(verdict("PLAT-162"), "conforms", "{printed}");
    assert!(with("fail").is_empty() && with("error").is_empty(), "{printed}");
    assert!(with("pass").iter().filter(|c| c["rule"] == "RT-TOOL-8").count() > 100, "RT-TOOL-8 ran: {printed}");
    assert_eq!(verdict("RT-TOOL-8"), "incomplete", "{printed}");
    let skipped = with("skip");
    assert!(!skipped.is_empty());
    for case in skipped {
        let reason = case["reason"].as_str().unwrap_or_default();
        assert!(
            case["rule"] == "RT-TOOL-8" && reason.starts_with("not observable: the runtime refused the arguments"),
            "{}: {reason}",
            case["id"]
        );
    }
    // The tools MCP cannot carry were never published, so their cases do not apply through a
    // gateway (the others left out call only on transports the route does not claim).
    let mut uncarried = 0;
    for case in with("not_applicable") {
        let reason = case["reason"].as_str().unwrap_or_default();
        if reason.starts_with("MCP cannot carry the tool ") && reason.contains("no MCP upstream can publish it") {
            uncarried += 1;
        } else {
            assert!(reason.starts_with("transport ") && reason.ends_with(" is not claimed"), "{}: {reason}", case["id"]);
        }
    }
    assert!(uncarried > 0, "{printed}");
    assert_eq!(output.status.code(), Some(tool_conformance::exit::NONCONFORMING as i32), "incomplete is no pass");
}

tests![the_validating_gateway_fails_no_case_of_the_whole_corpus];
