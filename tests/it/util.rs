//! What the modules of this binary share: the repository's root, the built binary run as a user
//! runs it, and a copy of the corpus to edit.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's root.
pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the built binary with these arguments and waits for it.
pub(crate) fn tool(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tool-conformance")).args(args).output().expect("run the binary")
}

/// Standard output then standard error, as text.
pub(crate) fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// A copy of the built-in corpus (`cases/`) in a temp dir, to edit.
pub(crate) fn copy_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases = root().join("cases");
    for entry in walkdir::WalkDir::new(&cases) {
        let entry = entry.expect("walk");
        let target = dir.path().join(entry.path().strip_prefix(&cases).expect("under cases"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
    dir
}

/// Replaces the first `from` in a file by `to`; fails if the file does not hold `from`.
pub(crate) fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).expect("read");
    assert!(text.contains(from), "{} does not contain {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).expect("write");
}
