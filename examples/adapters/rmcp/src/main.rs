//! `rmcp-adapter --typed|--raw`: protocol v1 on stdin and stdout (the library says how).
fn main() {
    tool_conformance_adapter_rmcp::main();
}
