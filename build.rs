//! Embeds the corpus (cases/) and the rule texts (specs/) into the binary, so that
//! `tool-conformance run` and `show` work from any directory after `cargo install`: writes
//! `$OUT_DIR/corpus.rs` and `$OUT_DIR/specs.rs`, each a sorted list of (path relative to its
//! folder, contents) pairs, of every `.yaml` file under cases/ and every `.txt` file in specs/.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    embed(&manifest.join("cases"), "corpus.rs", "The corpus as built", &["yaml", "yml"]);
    embed(&manifest.join("specs"), "specs.rs", "The rule texts as built", &["txt"]);
}

/// Writes `$OUT_DIR/<out>`: `FILES`, every file under `root` whose extension is one of
/// `extensions`, as (path relative to `root`, `include_str!` of it), sorted by path.
fn embed(root: &Path, out: &str, what: &str, extensions: &[&str]) {
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
        let entry = entry.unwrap_or_else(|e| panic!("walk {}: {e}", root.display()));
        println!("cargo:rerun-if-changed={}", entry.path().display());
        let extension = entry.path().extension().and_then(|e| e.to_str());
        if entry.file_type().is_file() && extension.is_some_and(|e| extensions.contains(&e)) {
            files.push(entry.path().to_path_buf());
        }
    }
    let folder = root.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let mut text = format!("/// {what}: (path relative to {folder}/, contents), sorted by path.\n");
    text.push_str("pub static FILES: &[(&str, &str)] = &[\n");
    for path in &files {
        let relative = path.strip_prefix(root).expect("under its folder");
        let relative = relative.to_str().expect("UTF-8 path").replace('\\', "/");
        writeln!(text, "    ({relative:?}, include_str!({:?})),", path.display().to_string()).unwrap();
    }
    text.push_str("];\n");
    let target = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR")).join(out);
    fs::write(&target, text).unwrap_or_else(|e| panic!("write {}: {e}", target.display()));
}
