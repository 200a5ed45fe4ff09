//! Writes one module of Rust types per tool schema of `schemas.jsonl` (src/typegen.rs: the
//! structs an rmcp user writes for `Parameters<T>`), and `route_for`, which finds a schema's
//! types by its canonical JSON text and makes its tool.

use std::fmt::Write as _;

#[path = "src/typegen.rs"]
mod typegen;
use serde_json::Value;
use typegen::{canonical, generate};

fn main() {
    println!("cargo:rerun-if-changed=schemas.jsonl");
    println!("cargo:rerun-if-changed=src/typegen.rs");
    let text = std::fs::read_to_string("schemas.jsonl").expect("schemas.jsonl is beside Cargo.toml");
    let mut modules = String::new();
    let mut arms = String::new();
    for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let schema: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("schemas.jsonl line {}: {e}", i + 1));
        let source = generate(&schema);
        let _ = writeln!(
            modules,
            "pub mod s{i} {{\n#![allow(non_camel_case_types, non_snake_case, dead_code, clippy::all)]\n{source}\npub const SOURCE: &str = {source:?};\n}}"
        );
        let _ = writeln!(
            arms,
            "        {:?} => Some((crate::typed::make::<s{i}::Args>(name, description, records), s{i}::SOURCE)),",
            canonical(&schema)
        );
    }
    let code = format!(
        "{modules}\n/// The tool for the schema whose canonical text is `key`, and the source of its types.\n\
         pub fn route_for(key: &str, name: &str, description: Option<&str>, records: crate::Records)\n\
         -> Option<(Result<rmcp::handler::server::router::tool::ToolRoute<crate::Server>, String>, &'static str)> {{\n\
         match key {{\n{arms}        _ => None,\n    }}\n}}\n"
    );
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("typed_gen.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
