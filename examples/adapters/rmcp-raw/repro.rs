// One tool-conformance case against rmcp 3.11.0 (the official Rust MCP SDK), as the rmcp adapter
// runs it with --raw: a Tool built with the JSON Schema as it is (Tool::new_with_raw) and a
// handler that gets the arguments object (ToolRoute::new_dyn), in a ToolRouter behind a
// ServerHandler served over an in-memory stream, called with one tools/call request holding the
// arguments as sent. The crate is examples/adapters/rmcp (shared with the typed row).
// From examples/adapters/rmcp, with its pins (Cargo.lock): bash run-repro.sh < this-file.rs
fn main() {
    tool_conformance_adapter_rmcp::reproduce(
        "raw",
        "__TOOL__",
        r####"__SCHEMA__"####,
        r####"__ARGUMENTS__"####,
    );
}
