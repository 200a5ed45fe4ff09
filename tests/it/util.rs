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

/// The browser the tests run: `CHROMIUM` if set, else Debian's `/usr/bin/chromium`. A test that
/// needs it fails, saying how to get one, where it is missing: it never passes without it.
pub(crate) fn chromium_binary() -> PathBuf {
    let binary = std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    assert!(
        binary.is_file(),
        "{} is missing: this test needs headless Chromium. `bash tests/run.sh` installs Debian's chromium \
         package (as root); or run `apt-get install chromium`, or set CHROMIUM to a Chromium binary",
        binary.display()
    );
    binary
}

/// Runs headless Chromium on the file `page` with `mode` (`--dump-dom`, or `--screenshot=PATH`)
/// and the `extra` flags, in a fresh profile and with no network of its own, within two minutes;
/// fails unless it exits successfully. Its stdout and stderr.
pub(crate) fn chromium(page: &Path, mode: &str, extra: &[String]) -> (String, String) {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let profile = tempfile::tempdir().expect("a profile directory");
    let mut child = Command::new(chromium_binary())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .args(extra)
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(mode)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for chromium") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within two minutes");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let (out, err) = (out.join().unwrap_or_default(), err.join().unwrap_or_default());
    assert!(status.success(), "chromium failed ({status}):\n{err}");
    (out, err)
}

/// The built-in reference with some of its answers rewritten: an implementation that differs
/// from the reference in one way, for a test to run, without a copy of every `Target` method.
/// Each `with_*` takes what the reference answered and returns what this implementation answers.
pub(crate) struct OnReference {
    reference: tool_conformance::Reference,
    started: Box<dyn FnMut(tool_conformance::Implementation) -> tool_conformance::Implementation>,
    described: Box<dyn FnMut(serde_json::Value) -> serde_json::Value>,
    invoked: Box<dyn FnMut(tool_conformance::Invocation) -> tool_conformance::Invocation>,
}

impl OnReference {
    /// The reference, answering as it does.
    pub(crate) fn new() -> OnReference {
        OnReference {
            reference: tool_conformance::Reference::new(),
            started: Box::new(|implementation| implementation),
            described: Box::new(|schema| schema),
            invoked: Box::new(|invocation| invocation),
        }
    }

    /// Its start answer rewritten.
    pub(crate) fn with_start(
        mut self,
        started: impl FnMut(tool_conformance::Implementation) -> tool_conformance::Implementation + 'static,
    ) -> OnReference {
        self.started = Box::new(started);
        self
    }

    /// Every schema a view publishes rewritten.
    pub(crate) fn with_describe(
        mut self,
        described: impl FnMut(serde_json::Value) -> serde_json::Value + 'static,
    ) -> OnReference {
        self.described = Box::new(described);
        self
    }

    /// Every call's outcome rewritten.
    pub(crate) fn with_invoke(
        mut self,
        invoked: impl FnMut(tool_conformance::Invocation) -> tool_conformance::Invocation + 'static,
    ) -> OnReference {
        self.invoked = Box::new(invoked);
        self
    }
}

impl tool_conformance::Target for OnReference {
    fn start(&mut self) -> Result<tool_conformance::Implementation, tool_conformance::TargetError> {
        Ok((self.started)(self.reference.start()?))
    }
    fn normalize(
        &mut self,
        input_schema: &serde_json::Value,
        arguments: &serde_json::Value,
    ) -> Result<serde_json::Value, tool_conformance::TargetError> {
        self.reference.normalize(input_schema, arguments)
    }
    fn register(&mut self, tools: &[tool_conformance::Tool]) -> Result<(), tool_conformance::TargetError> {
        self.reference.register(tools)
    }
    fn describe(
        &mut self,
        tool: &str,
        view: tool_conformance::View,
    ) -> Result<serde_json::Value, tool_conformance::TargetError> {
        Ok((self.described)(self.reference.describe(tool, view)?))
    }
    fn invoke(
        &mut self,
        tool: &str,
        transport: tool_conformance::Transport,
        arguments: &serde_json::Value,
    ) -> Result<tool_conformance::Invocation, tool_conformance::TargetError> {
        Ok((self.invoked)(self.reference.invoke(tool, transport, arguments)?))
    }
}
