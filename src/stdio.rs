//! An implementation run as a process and spoken to over its stdin and stdout, one JSON object per
//! line: [`StdioChannel`], and [`StdioTarget`], the [`Remote`] over it.
//!
//! The command line is split as a POSIX shell splits it ([`CommandLine`]) and run without a
//! shell. The process is started once per run (and again after it breaks, within the restart
//! budget). Three threads per process keep the harness from ever blocking on it: one writes the
//! requests, one reads stdout lines up to a cap (a longer line is reported as soon as the cap is
//! passed, and never held whole), and one drains stderr into a ring of its last lines, so a flood
//! of log output costs no memory and never stalls the process. Waiting for a response is bounded
//! by the timeout; a process that is ended is killed, and never waited on without bound.

use crate::config::{CommandLine, Limits};
use crate::remote::{Channel, ChannelError, Remote};
use crate::transcript::WireLog;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The protocol over a process's stdin and stdout.
pub type StdioTarget = Remote<StdioChannel>;

impl StdioTarget {
    /// A target that runs `command`, within `limits`, recording into `log`.
    pub fn spawn(command: CommandLine, limits: Limits, log: WireLog) -> StdioTarget {
        let channel = StdioChannel::new(command, limits.max_response_bytes, limits.stderr_lines);
        Remote::new(channel, limits, log)
    }
}

/// How long a closed or crashed process gets to finish writing stderr before the reason is
/// composed.
const STDERR_SETTLE: Duration = Duration::from_millis(300);
/// The longest stderr line kept, in bytes (the rest of the line is dropped).
const STDERR_LINE_BYTES: usize = 500;

/// A process speaking protocol v1 on its stdin and stdout.
pub struct StdioChannel {
    command: CommandLine,
    max_line: usize,
    stderr: Arc<StderrRing>,
    stderr_lines: usize,
    process: Option<Process>,
}

struct Process {
    child: Child,
    requests: Option<Sender<Vec<u8>>>,
    lines: Receiver<Line>,
}

/// What the stdout reader saw.
enum Line {
    Complete(Vec<u8>),
    TooLong,
    End,
    Failed(String),
}

impl StdioChannel {
    /// A channel that runs `command`, reading lines of at most `max_line` bytes and keeping the
    /// last `stderr_lines` lines of stderr.
    pub fn new(command: CommandLine, max_line: usize, stderr_lines: usize) -> StdioChannel {
        StdioChannel { command, max_line, stderr: Arc::new(StderrRing::new(stderr_lines)), stderr_lines, process: None }
    }

    /// Why stdout ended: the process exited (with what), or it only closed stdout.
    fn ended(&mut self) -> ChannelError {
        let Some(process) = self.process.as_mut() else {
            return ChannelError::ClosedOutput;
        };
        let deadline = Instant::now() + STDERR_SETTLE;
        loop {
            match process.child.try_wait() {
                Ok(Some(status)) => {
                    self.stderr.wait_for_end(deadline.saturating_duration_since(Instant::now()));
                    return ChannelError::Exited(status.to_string());
                }
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                Ok(None) => return ChannelError::ClosedOutput,
                Err(e) => return ChannelError::Io(format!("could not check the process: {e}")),
            }
        }
    }
}

impl Channel for StdioChannel {
    fn open(&mut self) -> Result<(), ChannelError> {
        self.close();
        self.stderr = Arc::new(StderrRing::new(self.stderr_lines));
        let mut child = Command::new(self.command.program())
            .args(self.command.args())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| ChannelError::Unreachable(format!("could not run {:?}: {e}", self.command.program())))?;
        let (Some(stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ChannelError::Unreachable("the process's pipes could not be set up".into()));
        };
        let (requests, to_write) = mpsc::channel::<Vec<u8>>();
        let (line_sender, lines) = mpsc::sync_channel::<Line>(4);
        let max_line = self.max_line;
        let ring = Arc::clone(&self.stderr);
        let spawned = std::thread::Builder::new()
            .name("stdio-writer".into())
            .spawn(move || write_requests(stdin, to_write))
            .and_then(|_| {
                std::thread::Builder::new()
                    .name("stdio-stdout".into())
                    .spawn(move || read_stdout(BufReader::with_capacity(64 * 1024, stdout), max_line, line_sender))
            })
            .and_then(|_| std::thread::Builder::new().name("stdio-stderr".into()).spawn(move || ring.drain(stderr)));
        if let Err(e) = spawned {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ChannelError::Unreachable(format!("could not start a reader thread: {e}")));
        }
        self.process = Some(Process { child, requests: Some(requests), lines });
        Ok(())
    }

    fn exchange(&mut self, request: &[u8], timeout: Duration) -> Result<Vec<u8>, ChannelError> {
        let Some(process) = self.process.as_mut() else {
            return Err(ChannelError::Unreachable("the process is not running".into()));
        };
        let mut line = Vec::with_capacity(request.len() + 1);
        line.extend_from_slice(request);
        line.push(b'\n');
        let sent = process.requests.as_ref().is_some_and(|r| r.send(line).is_ok());
        if !sent {
            return Err(self.ended());
        }
        match process.lines.recv_timeout(timeout) {
            Ok(Line::Complete(bytes)) => Ok(bytes),
            Ok(Line::TooLong) => Err(ChannelError::TooLarge(self.max_line)),
            Ok(Line::Failed(why)) => Err(ChannelError::Io(format!("reading stdout failed: {why}"))),
            Ok(Line::End) | Err(RecvTimeoutError::Disconnected) => Err(self.ended()),
            Err(RecvTimeoutError::Timeout) => Err(ChannelError::Timeout(timeout)),
        }
    }

    fn close(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.requests = None;
            let _ = process.child.kill();
            let _ = process.child.wait();
            self.stderr.wait_for_end(STDERR_SETTLE);
        }
    }

    fn finish(&mut self, grace: Duration) {
        if let Some(process) = self.process.as_mut() {
            // Closing stdin tells the process no more requests come.
            process.requests = None;
            let deadline = Instant::now() + grace;
            while Instant::now() < deadline {
                match process.child.try_wait() {
                    Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                    _ => break,
                }
            }
        }
        self.close();
    }

    fn stderr_tail(&self) -> Option<Vec<String>> {
        Some(self.stderr.lines())
    }

    fn is_stream(&self) -> bool {
        true
    }

    fn describe(&self) -> String {
        format!("`{}` (over stdio)", self.command.as_str())
    }
}

impl Drop for StdioChannel {
    fn drop(&mut self) {
        self.close();
    }
}

/// The writer thread: requests to stdin until the sender is dropped or the pipe breaks.
fn write_requests(mut stdin: ChildStdin, requests: Receiver<Vec<u8>>) {
    for request in requests {
        if stdin.write_all(&request).and_then(|()| stdin.flush()).is_err() {
            return;
        }
    }
}

/// The stdout reader thread: one message per line, a line longer than `max` reported as soon as
/// the cap is passed (and the reading stops there).
fn read_stdout(mut reader: impl BufRead, max: usize, lines: SyncSender<Line>) {
    loop {
        let mut line = Vec::new();
        let message = match read_bounded_line(&mut reader, max, &mut line, false) {
            Ok(Bounded::Line) => Line::Complete(line),
            Ok(Bounded::TooLong) => Line::TooLong,
            Ok(Bounded::End) => Line::End,
            Err(e) => Line::Failed(e.to_string()),
        };
        let last = !matches!(message, Line::Complete(_));
        if lines.send(message).is_err() || last {
            return;
        }
    }
}

/// What [`read_bounded_line`] read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bounded {
    /// A whole line (without its `\n`, and without a `\r` before it).
    Line,
    /// A line longer than the cap: when discarding, its start is kept and the rest was dropped.
    TooLong,
    /// The end of input before any byte of a new line.
    End,
}

/// Reads one line into `out` (cleared first), holding at most `max` bytes of it. With
/// `discard_rest`, a too-long line's first `max` bytes are kept in `out` and the rest is read and
/// dropped, so the next call starts at the next line; without, reading stops at the cap. Bytes at the end of input without a final `\n`
/// count as a line.
pub fn read_bounded_line(
    reader: &mut impl BufRead,
    max: usize,
    out: &mut Vec<u8>,
    discard_rest: bool,
) -> std::io::Result<Bounded> {
    out.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(if too_long {
                Bounded::TooLong
            } else if any {
                Bounded::Line
            } else {
                Bounded::End
            });
        }
        any = true;
        let (chunk, consumed, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (&buffer[..at], at + 1, true),
            None => (buffer, buffer.len(), false),
        };
        if !too_long {
            if out.len() + chunk.len() > max {
                too_long = true;
                if !discard_rest {
                    out.clear();
                    return Ok(Bounded::TooLong);
                }
                let room = max - out.len();
                out.extend_from_slice(&chunk[..room]);
            } else {
                out.extend_from_slice(chunk);
            }
        }
        reader.consume(consumed);
        if done {
            if too_long {
                return Ok(Bounded::TooLong);
            }
            if out.last() == Some(&b'\r') {
                out.pop();
            }
            return Ok(Bounded::Line);
        }
    }
}

/// The last lines a process wrote to stderr, and whether stderr has ended.
struct StderrRing {
    capacity: usize,
    state: Mutex<(VecDeque<String>, bool)>,
    ended: Condvar,
}

impl StderrRing {
    fn new(capacity: usize) -> StderrRing {
        StderrRing { capacity, state: Mutex::new((VecDeque::new(), false)), ended: Condvar::new() }
    }

    fn push(&self, line: &[u8], cut: bool) {
        let mut text = String::from_utf8_lossy(line).into_owned();
        if cut {
            text.push_str(" …(cut)");
        }
        if let Ok(mut state) = self.state.lock() {
            if state.0.len() == self.capacity {
                state.0.pop_front();
            }
            if self.capacity > 0 {
                state.0.push_back(text);
            }
        }
    }

    /// The stderr reader thread: every line into the ring, each cut to [`STDERR_LINE_BYTES`].
    fn drain(&self, stderr: impl Read) {
        let mut reader = BufReader::with_capacity(16 * 1024, stderr);
        let mut line = Vec::new();
        loop {
            match read_bounded_line(&mut reader, STDERR_LINE_BYTES, &mut line, true) {
                Ok(Bounded::Line) => self.push(&line, false),
                Ok(Bounded::TooLong) => self.push(&line, true),
                Ok(Bounded::End) | Err(_) => break,
            }
        }
        if let Ok(mut state) = self.state.lock() {
            state.1 = true;
        }
        self.ended.notify_all();
    }

    fn wait_for_end(&self, within: Duration) {
        if let Ok(state) = self.state.lock() {
            let _ = self.ended.wait_timeout_while(state, within, |s| !s.1);
        }
    }

    fn lines(&self) -> Vec<String> {
        self.state.lock().map(|s| s.0.iter().cloned().collect()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_lines() {
        let mut input: &[u8] = b"{\"a\":1}\r\nxxxxxxxxxx\nlast";
        let mut line = Vec::new();
        assert_eq!(read_bounded_line(&mut input, 8, &mut line, true).unwrap(), Bounded::Line);
        assert_eq!(line, b"{\"a\":1}");
        assert_eq!(read_bounded_line(&mut input, 8, &mut line, true).unwrap(), Bounded::TooLong);
        assert_eq!(line, b"xxxxxxxx");
        assert_eq!(read_bounded_line(&mut input, 8, &mut line, true).unwrap(), Bounded::Line);
        assert_eq!(line, b"last");
        assert_eq!(read_bounded_line(&mut input, 8, &mut line, true).unwrap(), Bounded::End);
        let mut input: &[u8] = b"xxxxxxxxxx\nnext\n";
        assert_eq!(read_bounded_line(&mut input, 4, &mut line, false).unwrap(), Bounded::TooLong);
    }

    #[test]
    fn the_ring_keeps_the_last_lines() {
        let ring = StderrRing::new(2);
        let long = vec![b'x'; 2000];
        let mut text = b"one\ntwo\nthree\n".to_vec();
        text.extend_from_slice(&long);
        text.push(b'\n');
        ring.drain(&text[..]);
        assert_eq!(ring.lines(), vec!["three".to_string(), format!("{} …(cut)", "x".repeat(STDERR_LINE_BYTES))]);
    }
}
