// One tool-conformance case against rmcp 3.11.0 (the official Rust MCP SDK), as the rmcp adapter
// runs it: a tool whose handler takes Parameters<Args>, Args the serde + schemars types the
// adapter's build.rs writes for the schema (src/typegen.rs; printed below), registered with the
// input schema rmcp's #[tool] macro gives it, in a ToolRouter behind a ServerHandler served over
// an in-memory stream, and called with one tools/call request holding the arguments as sent.
// From examples/adapters/rmcp, with its pins (Cargo.lock): bash run-repro.sh < this-file.rs
fn main() {
    tool_conformance_adapter_rmcp::reproduce(
        "typed",
        "__TOOL__",
        r####"__SCHEMA__"####,
        r####"__ARGUMENTS__"####,
    );
}
