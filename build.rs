//! Embeds the corpus (cases/) into the binary, so that `tool-conformance run` works from any
//! directory after `cargo install`: writes `$OUT_DIR/corpus.rs`, a sorted list of
//! (path relative to cases/, contents) pairs.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR")).join("cases");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let entry = entry.expect("walk cases/");
        println!("cargo:rerun-if-changed={}", entry.path().display());
        if entry.file_type().is_file() && is_yaml(entry.path()) {
            files.push(entry.path().to_path_buf());
        }
    }
    let mut out = String::from("/// The corpus as built: (path relative to cases/, contents), sorted by path.\n");
    out.push_str("pub static FILES: &[(&str, &str)] = &[\n");
    for path in &files {
        let relative = path.strip_prefix(&root).expect("under cases/");
        let relative = relative.to_str().expect("UTF-8 path").replace('\\', "/");
        writeln!(out, "    ({relative:?}, include_str!({:?})),", path.display().to_string()).unwrap();
    }
    out.push_str("];\n");
    let target = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR")).join("corpus.rs");
    fs::write(target, out).expect("write corpus.rs");
}

fn is_yaml(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
}
