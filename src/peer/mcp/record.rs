//! The record: the file every published tool's handler appends a line to each time it runs,
//! `{"tool": NAME, "arguments": …what the handler received…}`, flushed before it returns. The
//! harness marks where the file ends before each call and reads the lines appended since, once
//! the call's response has arrived: their count is how many times the handler ran, and the last
//! one's arguments are what it received.
//!
//! A handler that received a value JSON cannot carry (a NaN) writes `{"tool": NAME, "not_json":
//! TEXT}` instead, TEXT rendering the value as its runtime does (Python's repr): a run like any
//! other, whose value the harness reports as that text, never reads as JSON.
//!
//! A server whose framework refuses to register a tool of the manifest leaves it out of
//! `tools/list` and writes `{"tool": NAME, "refused": WHY}` instead, WHY quoting the framework's
//! error (`MCPServer.add_tool refused the signature: …`): the cases of that tool are then declined
//! with that reason, as a protocol-v1 adapter declines with `unsupported`. Such a line may stand
//! anywhere in the file; a call's reading passes over it.
//!
//! What an implementation wrote there is read as it reads anything from an implementation: a
//! line that is not such an object, or names another tool than the one called, is an error whose
//! reason quotes the line (inert and cut); so is more than the response cap, which is never read.
//! The server under test controls the file, so it is read as no more than a regular file can
//! hold: it is opened without following a symbolic link or waiting on a FIFO, and anything but a
//! regular file (a FIFO, `/dev/zero`) is an error; a call reads only the bytes appended since it
//! began, and the search for a refusal reads at most the file's first 64 MiB, in chunks, passing
//! over a line longer than the cap without holding it.

use crate::json::Value;
use crate::json::inert::one_line;
use crate::peer::transcript::truncate;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// How much of a bad line a reason quotes.
const QUOTED_CHARS: usize = 200;

/// How much of a `not_json` line's text a failure quotes.
const NOT_JSON_CHARS: usize = 1000;

/// How much of a refusal a decline's reason quotes.
const REFUSAL_CHARS: usize = 1000;

/// The most of the record read in search of a refusal.
const REFUSAL_SCAN_BYTES: u64 = 64 * 1024 * 1024;

/// How much of the record one read takes.
const SCAN_CHUNK: usize = 64 * 1024;

/// The record opened for reading, without following a symbolic link and without waiting on a
/// FIFO, and its length then: `None` when there is no such file, an error when it is not a regular
/// file (a FIFO, a device such as `/dev/zero`, a directory, a link), which is never read.
fn open_regular(path: &Path) -> Result<Option<(File, u64)>, String> {
    let unreadable = |e: std::io::Error| format!("the record {} cannot be read: {e}", path.display());
    let file = match crate::json::file::open_regular(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(unreadable(e)),
    };
    let len = file.metadata().map_err(unreadable)?.len();
    Ok(Some((file, len)))
}

/// One line of the record, read as the harness reads an answer: a lone surrogate escape (which
/// Python's and JavaScript's JSON writers emit for a lone surrogate a handler received) as its
/// stand-in.
fn read_line(line: &[u8]) -> Result<Value, String> {
    let text = std::str::from_utf8(line).map_err(|_| "not UTF-8".to_string())?;
    crate::peer::protocol::parse_answer(text).map_err(|e| e.to_string())
}

/// What the handlers of one call recorded.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Runs {
    /// How many times a handler ran.
    pub count: u64,
    /// What the last run received.
    pub last: Option<Value>,
    /// What the last run received, when JSON cannot carry it: the record line's `not_json`, the
    /// value as the handler's runtime renders it (never read as JSON).
    pub not_json: Option<String>,
}

/// The record file, read from where it ended when the current call began.
#[derive(Debug)]
pub(crate) struct Record {
    path: PathBuf,
    mark: u64,
    max_bytes: usize,
}

impl Record {
    /// The record at `path`, of which one call's lines are read up to `max_bytes`.
    pub(crate) fn new(path: PathBuf, max_bytes: usize) -> Record {
        Record { path, mark: 0, max_bytes }
    }

    /// Marks where the file ends now: what is appended after this belongs to the next call.
    pub(crate) fn mark(&mut self) -> Result<(), String> {
        self.mark = open_regular(&self.path)?.map_or(0, |(_, length)| length);
        Ok(())
    }

    /// The runs of `tool` recorded since the mark; the mark moves past them.
    pub(crate) fn runs_since_mark(&mut self, tool: &str) -> Result<Runs, String> {
        let bytes = self.appended()?;
        let mut runs = Runs { count: 0, last: None, not_json: None };
        if bytes.is_empty() {
            return Ok(runs);
        }
        let quoted = |line: &[u8]| truncate(&one_line(&String::from_utf8_lossy(line)), QUOTED_CHARS);
        let Some(body) = bytes.strip_suffix(b"\n") else {
            return Err(format!(
                "the record's last line has no newline (a handler must write its whole line, and flush it, before it returns): {}",
                quoted(bytes.rsplit(|&b| b == b'\n').next().unwrap_or_default())
            ));
        };
        for line in body.split(|&b| b == b'\n') {
            let bad = |why: &str| format!("the record has a line {why}: {}", quoted(line));
            let value = read_line(line).map_err(|e| bad(&format!("that is not JSON ({e})")))?;
            // A refusal, or an upstream's fingerprint line (written when it starts), is no run.
            if value.get("refused").is_some_and(Value::is_string) || value.get("manifest").is_some_and(Value::is_string)
            {
                continue;
            }
            let name = value.get("tool").and_then(Value::as_str);
            let (received, not_json) = match (value.get("arguments"), value.get("not_json")) {
                (Some(arguments), None) => (Some(arguments.clone()), None),
                // The handler ran, on a value JSON cannot carry: a run, whose value is its text.
                (None, Some(Value::String(text))) => (None, Some(truncate(&one_line(text), NOT_JSON_CHARS))),
                _ => return Err(bad("that is not {\"tool\": NAME, \"arguments\": …}")),
            };
            let Some(name) = name else {
                return Err(bad("that is not {\"tool\": NAME, \"arguments\": …}"));
            };
            if name != tool {
                return Err(bad(&format!("of another tool than the one called ({tool})")));
            }
            runs.count += 1;
            runs.last = received;
            runs.not_json = not_json;
        }
        Ok(runs)
    }

    /// Why the server refused to register `tool`, as a `refused` line of the record says (the
    /// first one, quoted inert and cut), `None` when no line says so.
    pub(crate) fn refusal_of(&self, tool: &str) -> Option<String> {
        let mut refusal = None;
        self.scan(|line| {
            let value = read_line(line).ok();
            refusal = value.filter(|v| v.get("tool").and_then(Value::as_str) == Some(tool)).and_then(|v| {
                v.get("refused").and_then(Value::as_str).map(|why| truncate(&one_line(why), REFUSAL_CHARS))
            });
            if refusal.is_some() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        refusal
    }

    /// The fingerprint of the manifest the upstream writing the record publishes: the last
    /// `{"manifest": FINGERPRINT}` line of the file (each start of `mcp-upstream` writes one),
    /// `None` when it has none (or cannot be read).
    pub(crate) fn fingerprint(&self) -> Option<String> {
        let mut last = None;
        self.scan(|line| {
            if let Some(fingerprint) =
                read_line(line).ok().and_then(|v| v.get("manifest").and_then(Value::as_str).map(String::from))
            {
                last = Some(fingerprint);
            }
            ControlFlow::Continue(())
        });
        last
    }

    /// Hands `visit` each line of the record, from its start, until it breaks: the file as long as
    /// it was when the scan began and at most [`REFUSAL_SCAN_BYTES`] of it, read in chunks, through
    /// no link and only if it is a regular file; a line longer than the cap is passed over without
    /// being held.
    fn scan(&self, mut visit: impl FnMut(&[u8]) -> ControlFlow<()>) {
        let Ok(Some((file, length))) = open_regular(&self.path) else { return };
        let mut reader = file.take(length.min(REFUSAL_SCAN_BYTES));
        let mut chunk = vec![0; SCAN_CHUNK];
        let mut line = Vec::new();
        let mut skipping = false;
        loop {
            let read = match reader.read(&mut chunk) {
                Ok(0) | Err(_) => return,
                Ok(read) => read,
            };
            let mut rest = &chunk[..read];
            while !rest.is_empty() {
                let (piece, ended) = match rest.iter().position(|&b| b == b'\n') {
                    Some(at) => (&rest[..at], Some(at + 1)),
                    None => (rest, None),
                };
                if !skipping {
                    if line.len() + piece.len() > self.max_bytes {
                        skipping = true;
                        line = Vec::new();
                    } else {
                        line.extend_from_slice(piece);
                    }
                }
                let Some(next) = ended else { break };
                if !skipping && visit(&line).is_break() {
                    return;
                }
                line.clear();
                skipping = false;
                rest = &rest[next..];
            }
        }
    }

    /// The bytes appended since the mark (at most the cap), moving the mark past them.
    fn appended(&mut self) -> Result<Vec<u8>, String> {
        let unreadable = |e: std::io::Error| format!("the record {} cannot be read: {e}", self.path.display());
        let Some((mut file, length)) = open_regular(&self.path)? else {
            return Ok(Vec::new());
        };
        if length < self.mark {
            self.mark = length;
            return Err("the record is shorter than before the call (something truncated it)".into());
        }
        let new = length - self.mark;
        if new > self.max_bytes as u64 {
            self.mark = length;
            return Err(format!("the call's handlers recorded {new} bytes, more than the cap of {}", self.max_bytes));
        }
        file.seek(SeekFrom::Start(self.mark)).map_err(unreadable)?;
        let mut bytes = Vec::with_capacity(new as usize);
        file.take(new).read_to_end(&mut bytes).map_err(unreadable)?;
        self.mark += bytes.len() as u64;
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::path::Path;
    use std::time::Duration;

    /// `f` on a thread of its own, failing the test when it takes more than five seconds (so a
    /// record that holds the harness fails rather than hangs).
    fn within_seconds<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (done, result) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(f());
        });
        result.recv_timeout(Duration::from_secs(5)).expect("the record was read within five seconds")
    }

    #[test]
    fn a_record_that_is_no_regular_file_is_an_error_and_never_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), &link).unwrap();
        std::fs::write(
            dir.path().join("elsewhere"),
            "{\"manifest\":\"sha256:0\"}\n{\"tool\":\"t\",\"refused\":\"no\"}\n",
        )
        .unwrap();
        for (path, says) in
            [(fifo, "a FIFO"), (PathBuf::from("/dev/zero"), "a character device"), (link, "symbolic link")]
        {
            let error = within_seconds(move || {
                let mut record = Record::new(path.clone(), 1024);
                let marked = record.mark();
                record.mark = 0;
                let read = record.runs_since_mark("t");
                assert_eq!(record.refusal_of("t"), None);
                assert_eq!(record.fingerprint(), None);
                (marked.unwrap_err(), read.unwrap_err())
            });
            assert!(error.0.contains(says) && error.1.contains(says), "{error:?}");
        }
    }

    #[test]
    fn a_refusal_is_found_past_an_over_long_line_without_holding_it_and_the_search_is_capped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.jsonl");
        let long = format!("{{\"tool\":\"r\",\"refused\":\"{}\"}}\n", "x".repeat(300_000));
        append(&path, &long);
        append(&path, "{\"tool\":\"t\",\"refused\":\"too long\"}\n");
        append(&path, "{\"tool\":\"r\",\"refused\":\"short\"}\n");
        let record = Record::new(path.clone(), 1024);
        assert_eq!(record.refusal_of("r").as_deref(), Some("short"), "the long line is passed over");
        assert_eq!(record.refusal_of("t").as_deref(), Some("too long"));
        // A one-line record of a gigabyte (sparse: no disk) is searched within the scan's cap.
        let huge = dir.path().join("huge.jsonl");
        std::fs::File::create(&huge).unwrap().set_len(1 << 30).unwrap();
        append(&huge, "\n{\"tool\":\"r\",\"refused\":\"after\"}\n");
        let huge_fingerprint = huge.clone();
        assert_eq!(within_seconds(move || Record::new(huge, 1024).refusal_of("r")), None);
        assert_eq!(within_seconds(move || Record::new(huge_fingerprint, 1024).fingerprint()), None);
    }

    #[test]
    fn the_fingerprint_is_the_last_one_written_past_over_long_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.jsonl");
        let record = Record::new(path.clone(), 1024);
        assert_eq!(record.fingerprint(), None, "no record yet");
        append(&path, "{\"manifest\":\"sha256:first\"}\n{\"tool\":\"t\",\"arguments\":{}}\n");
        assert_eq!(record.fingerprint().as_deref(), Some("sha256:first"));
        append(&path, &format!("{{\"manifest\":\"sha256:{}\"}}\n", "x".repeat(300_000)));
        append(&path, "{\"manifest\":\"sha256:again\"}\n");
        assert_eq!(
            record.fingerprint().as_deref(),
            Some("sha256:again"),
            "a restarted upstream's line, the long one passed over"
        );
    }

    fn append(path: &Path, text: &str) {
        std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap().write_all(text.as_bytes()).unwrap();
    }

    #[test]
    fn each_call_reads_the_lines_appended_since_it_began() {
        let dir = std::env::temp_dir().join(format!("tc-record-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("record.jsonl");
        let _ = std::fs::remove_file(&path);
        let mut record = Record::new(path.clone(), 1024);
        record.mark().unwrap();
        assert_eq!(
            record.runs_since_mark("t").unwrap(),
            Runs { count: 0, last: None, not_json: None },
            "no file yet: no run"
        );
        append(&path, "{\"tool\":\"t\",\"arguments\":{\"z\":12345678901234567890123,\"a\":1}}\n");
        append(&path, "{\"tool\":\"t\",\"arguments\":{\"n\":2}}\n");
        let runs = record.runs_since_mark("t").unwrap();
        assert_eq!(runs.count, 2);
        assert_eq!(runs.last.unwrap().to_string(), r#"{"n":2}"#);
        record.mark().unwrap();
        append(&path, "{\"tool\":\"t\",\"arguments\":{\"z\":12345678901234567890123,\"a\":1}}\n");
        let last = record.runs_since_mark("t").unwrap().last.unwrap();
        assert_eq!(last.to_string(), r#"{"z":12345678901234567890123,"a":1}"#, "exact, in order");
        record.mark().unwrap();
        append(&path, "{\"tool\":\"u\",\"arguments\":{}}\n");
        assert!(record.runs_since_mark("t").unwrap_err().contains("another tool"));
        record.mark().unwrap();
        append(&path, "\u{1b}[31mnot json\n");
        let error = record.runs_since_mark("t").unwrap_err();
        assert!(error.contains("not JSON") && !error.contains('\u{1b}'), "{error}");
        record.mark().unwrap();
        append(&path, "{\"tool\":\"t\",\"arguments\":{}}");
        assert!(record.runs_since_mark("t").unwrap_err().contains("no newline"));
        record.mark().unwrap();
        append(&path, &format!("{{\"tool\":\"t\",\"arguments\":\"{}\"}}\n", "x".repeat(2000)));
        assert!(record.runs_since_mark("t").unwrap_err().contains("cap"));
        record.mark().unwrap();
        append(&path, "{\"tool\":\"t\",\"arguments\":{\"s\":\"\\ud800\"}}\n");
        let last = record.runs_since_mark("t").unwrap().last.unwrap();
        let stand_in = crate::json::surrogate::stand_in(0xD800).unwrap();
        assert_eq!(last["s"], Value::String(stand_in.to_string()), "a lone surrogate is read as its stand-in");
        record.mark().unwrap();
        append(&path, "{\"tool\":\"t\",\"arguments\":{}}\n");
        append(&path, "{\"tool\":\"t\",\"not_json\":\"{'tags': [1, nan]} (Python repr)\"}\n");
        let runs = record.runs_since_mark("t").unwrap();
        let not_json = Some("{'tags': [1, nan]} (Python repr)".to_string());
        assert_eq!(runs, Runs { count: 2, last: None, not_json }, "a run on a value JSON cannot carry is a run");
        record.mark().unwrap();
        append(&path, "{\"tool\":\"t\",\"not_json\":\"nan\"}\n");
        append(&path, "{\"tool\":\"t\",\"arguments\":{\"n\":1}}\n");
        let runs = record.runs_since_mark("t").unwrap();
        assert_eq!(
            (runs.count, runs.not_json, runs.last),
            (2, None, Some(serde_json::json!({"n": 1}))),
            "the last run counts"
        );
        record.mark().unwrap();
        append(&path, "{\"tool\":\"t\",\"not_json\":{\"a\":1}}\n");
        assert!(record.runs_since_mark("t").unwrap_err().contains("is not"), "a not_json that is no text is garbage");
        record.mark().unwrap();
        append(&path, "{\"tool\":\"r\",\"refused\":\"add_tool refused the function: \\u001b[31mNo\"}\n");
        append(&path, "{\"tool\":\"t\",\"arguments\":{}}\n");
        assert_eq!(record.runs_since_mark("t").unwrap().count, 1, "a refusal is no run");
        assert_eq!(record.refusal_of("r").unwrap(), "add_tool refused the function: \\u{1B}[31mNo");
        assert_eq!(record.refusal_of("t"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
