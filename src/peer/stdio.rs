//! An implementation run as a process and spoken to over its stdin and stdout, one JSON object per
//! line: [`StdioChannel`], and [`StdioTarget`], the [`Remote`] over it.
//!
//! The command line is split as a POSIX shell splits it ([`CommandLine`]) and run without a
//! shell. The process is started once per run (and again after it breaks, within the restart
//! budget). The harness never blocks on it: its stdin and stdout are non-blocking, and each
//! exchange writes the request and reads stdout on the calling thread, waiting with `poll(2)`
//! until the deadline, so a process that stops reading its stdin or never answers costs the
//! timeout and nothing more. Stdout lines are read up to a cap (a longer line is reported as soon
//! as the cap is passed, and never held whole). One thread per process drains stderr into a ring
//! of its last lines, off the request path, so a flood of log output costs no memory and never
//! stalls the process. The process is started in a process group of its own, and ending it
//! kills the whole group, so nothing it started (a shell's children, a server it forked) outlives
//! it; a process that is ended is never waited on without bound. When the process started has
//! exited but one it started still holds its stdout open, the reason says that it exited.
//! Error reasons quote only the stderr lines written since the current case began
//! ([`Channel::mark_case`]), so what they show does not depend on which cases the process ran
//! before.

use crate::peer::remote::{Channel, ChannelError, Remote};
use crate::peer::spec::{CommandLine, Limits};
use crate::peer::transcript::WireLog;
use rustix::event::{PollFd, PollFlags, Timespec};
use rustix::fs::OFlags;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The protocol over a process's stdin and stdout.
pub type StdioTarget = Remote<StdioChannel>;

impl StdioTarget {
    /// A target that runs `command`, within `limits`, recording into `log`. The process is
    /// started by [`crate::Target::start`] and speaks protocol v1 (docs/protocol.md) on its stdin and
    /// stdout.
    ///
    /// ```no_run
    /// use tool_conformance::{CommandLine, Corpus, Limits, Selection, StdioTarget, WireLog, run};
    ///
    /// let command = CommandLine::parse("node adapter.js").expect("one command");
    /// let mut target = StdioTarget::spawn(command, Limits::default(), WireLog::new());
    /// let corpus = Corpus::embedded().expect("the corpus loads");
    /// let ran = run(&corpus, &Selection::all(), &mut target);
    /// println!("{} breaks a rule: {}", ran.implementation.name, ran.breaks_a_rule());
    /// ```
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
/// The least of what may wait to be written to a process's stdin (the cap is the response cap
/// when that is more).
const MIN_QUEUE_BYTES: usize = 4 * 1024 * 1024;
/// How much of stdout one read takes.
const READ_CHUNK: usize = 64 * 1024;

/// A process speaking protocol v1 on its stdin and stdout.
pub struct StdioChannel {
    command: CommandLine,
    max_line: usize,
    stderr: Arc<StderrRing>,
    stderr_lines: usize,
    /// How many stderr lines the process had written when the current case began.
    stderr_mark: u64,
    process: Option<Process>,
    /// Environment variables set for the process, beyond the harness's own.
    env: Vec<(String, String)>,
}

/// A running process: its non-blocking stdin and stdout, what is still to be written to the one,
/// and what was read from the other but not yet taken as a line.
struct Process {
    child: Child,
    /// `None` once closed, or once writing to it failed (the process closed its end).
    stdin: Option<ChildStdin>,
    /// Bytes queued for stdin; `unwritten[written..]` is still to be written.
    unwritten: Vec<u8>,
    written: usize,
    stdout: ChildStdout,
    /// Bytes read from stdout and not yet taken as a line.
    pending: Vec<u8>,
    /// How many bytes at the start of `pending` are known to hold no `\n`.
    scanned: usize,
    /// How stdout ended, once it has.
    stdout_end: Option<Line>,
    chunk: Box<[u8]>,
}

/// What reading stdout gave.
enum Line {
    Complete(Vec<u8>),
    TooLong,
    End,
    Failed(String),
}

/// Makes a pipe end non-blocking.
fn non_blocking(fd: impl AsFd) -> std::io::Result<()> {
    let flags = rustix::fs::fcntl_getfl(&fd)?;
    rustix::fs::fcntl_setfl(&fd, flags | OFlags::NONBLOCK)?;
    Ok(())
}

impl Process {
    /// Writes what stdin takes without blocking. A failed write (the process closed its stdin)
    /// closes our end and drops what was queued, as a writer that can no longer write would.
    fn write_some(&mut self) {
        while self.written < self.unwritten.len() {
            let Some(stdin) = self.stdin.as_mut() else {
                self.unwritten.clear();
                self.written = 0;
                return;
            };
            match stdin.write(&self.unwritten[self.written..]) {
                Ok(0) => self.stdin = None,
                Ok(n) => self.written += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return,
                Err(_) => self.stdin = None,
            }
        }
        self.unwritten.clear();
        self.written = 0;
    }

    /// One read of what stdout holds, without blocking.
    fn read_some(&mut self) {
        if self.stdout_end.is_some() {
            return;
        }
        match self.stdout.read(&mut self.chunk) {
            Ok(0) => self.stdout_end = Some(Line::End),
            Ok(n) => self.pending.extend_from_slice(&self.chunk[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::Interrupted | ErrorKind::WouldBlock) => {}
            Err(e) => self.stdout_end = Some(Line::Failed(e.to_string())),
        }
    }

    /// The next line of stdout when one is there, or how stdout ended (reported once; after
    /// that, as its end). A line longer than `max` is reported as soon as the cap is passed, and
    /// nothing more is read.
    fn take_line(&mut self, max: usize) -> Option<Line> {
        match self.pending[self.scanned..].iter().position(|&b| b == b'\n') {
            Some(at) => {
                let end = self.scanned + at;
                if end > max {
                    return Some(self.too_long());
                }
                let mut line = self.pending[..end].to_vec();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                self.pending.drain(..=end);
                self.scanned = 0;
                return Some(Line::Complete(line));
            }
            None => self.scanned = self.pending.len(),
        }
        if self.pending.len() > max {
            return Some(self.too_long());
        }
        match self.stdout_end.take()? {
            // Bytes at the end of output without a final `\n` count as a line.
            end @ Line::End if !self.pending.is_empty() => {
                self.stdout_end = Some(end);
                self.scanned = 0;
                Some(Line::Complete(std::mem::take(&mut self.pending)))
            }
            end => {
                self.stdout_end = Some(Line::End);
                Some(end)
            }
        }
    }

    fn too_long(&mut self) -> Line {
        self.pending = Vec::new();
        self.scanned = 0;
        self.stdout_end = Some(Line::End);
        Line::TooLong
    }

    /// Waits until stdin can take more (when something is queued) or stdout has something to
    /// read, at most until `deadline`. `Ok(false)` when the deadline passed.
    fn wait(&mut self, deadline: Instant) -> Result<bool, ChannelError> {
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Ok(false);
            }
            let left = deadline - now;
            let timeout = Timespec { tv_sec: left.as_secs() as _, tv_nsec: left.subsec_nanos() as _ };
            let writing = self.written < self.unwritten.len();
            let stdout = PollFd::new(&self.stdout, PollFlags::IN);
            let polled = match (writing, self.stdin.as_ref()) {
                (true, Some(stdin)) => {
                    let mut fds = [stdout, PollFd::new(stdin, PollFlags::OUT)];
                    rustix::event::poll(&mut fds, Some(&timeout))
                }
                _ => rustix::event::poll(&mut [stdout], Some(&timeout)),
            };
            match polled {
                Ok(0) => continue,
                Ok(_) => return Ok(true),
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(ChannelError::Io(format!("waiting for the process failed: {e}"))),
            }
        }
    }
}

impl StdioChannel {
    /// A channel that runs `command`, reading lines of at most `max_line` bytes and keeping the
    /// last `stderr_lines` lines of stderr.
    pub fn new(command: CommandLine, max_line: usize, stderr_lines: usize) -> StdioChannel {
        StdioChannel {
            command,
            max_line,
            stderr: Arc::new(StderrRing::new(stderr_lines)),
            stderr_lines,
            stderr_mark: 0,
            process: None,
            env: Vec::new(),
        }
    }

    /// The same channel, starting its process with these environment variables set too.
    pub(crate) fn with_env(mut self, env: Vec<(String, String)>) -> StdioChannel {
        self.env = env;
        self
    }

    /// Queues one message (without its newline) for the process's stdin and writes what it takes
    /// now; the rest is written while [`StdioChannel::receive`] waits.
    pub(crate) fn send(&mut self, message: &[u8]) -> Result<(), ChannelError> {
        let Some(process) = self.process.as_mut() else {
            return Err(ChannelError::Unreachable("the process is not running".into()));
        };
        if process.stdin.is_none() {
            return Err(self.ended());
        }
        // What a process leaves unread stays queued, up to a cap: one that never reads its stdin
        // while answers to its own requests keep coming is broken, not a growing queue.
        process.write_some();
        let waiting = process.unwritten.len() - process.written;
        let cap = self.max_line.max(MIN_QUEUE_BYTES);
        if waiting > 0 && waiting + message.len() > cap {
            return Err(ChannelError::Io(format!(
                "the implementation does not read its stdin: {waiting} bytes still wait to be written to it, and \
                 {} more would pass the cap of {cap}",
                message.len() + 1
            )));
        }
        process.unwritten.extend_from_slice(message);
        process.unwritten.push(b'\n');
        process.write_some();
        Ok(())
    }

    /// The next line the process writes to stdout, waiting at most `timeout` (and writing what
    /// is still queued for its stdin meanwhile).
    pub(crate) fn receive(&mut self, timeout: Duration) -> Result<Vec<u8>, ChannelError> {
        let deadline = Instant::now() + timeout;
        let max = self.max_line;
        let Some(process) = self.process.as_mut() else {
            return Err(ChannelError::Unreachable("the process is not running".into()));
        };
        let line = loop {
            if let Some(line) = process.take_line(max) {
                break line;
            }
            if !process.wait(deadline)? {
                // A process that exited while one it started holds stdout open did not time out.
                if let Ok(Some(status)) = process.child.try_wait() {
                    return Err(ChannelError::Exited(format!(
                        "{status}; a process it started still holds its stdout open"
                    )));
                }
                return Err(ChannelError::Timeout(timeout));
            }
            process.write_some();
            process.read_some();
        };
        match line {
            Line::Complete(bytes) => Ok(bytes),
            Line::TooLong => Err(ChannelError::TooLarge(self.max_line)),
            Line::Failed(why) => Err(ChannelError::Io(format!("reading stdout failed: {why}"))),
            Line::End => Err(self.ended()),
        }
    }

    /// How the process ended, once it has; `None` while it runs (or was never started).
    pub(crate) fn exit_status(&mut self) -> Option<String> {
        let process = self.process.as_mut()?;
        match process.child.try_wait() {
            Ok(Some(status)) => Some(status.to_string()),
            _ => None,
        }
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
        self.stderr_mark = 0;
        let mut child = Command::new(self.command.program())
            .args(self.command.args())
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| ChannelError::Unreachable(format!("could not run {:?}: {e}", self.command.program())))?;
        crate::peer::reaper::started(rustix::process::Pid::from_child(&child).as_raw_nonzero().get());
        let (Some(stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            end(&mut child);
            return Err(ChannelError::Unreachable("the process's pipes could not be set up".into()));
        };
        if let Err(e) = non_blocking(&stdin).and_then(|()| non_blocking(&stdout)) {
            end(&mut child);
            return Err(ChannelError::Unreachable(format!("the process's pipes could not be made non-blocking: {e}")));
        }
        let ring = Arc::clone(&self.stderr);
        let spawned = std::thread::Builder::new().name("stdio-stderr".into()).spawn(move || ring.drain(stderr));
        if let Err(e) = spawned {
            end(&mut child);
            return Err(ChannelError::Unreachable(format!("could not start a reader thread: {e}")));
        }
        self.process = Some(Process {
            child,
            stdin: Some(stdin),
            unwritten: Vec::new(),
            written: 0,
            stdout,
            pending: Vec::new(),
            scanned: 0,
            stdout_end: None,
            chunk: vec![0; READ_CHUNK].into_boxed_slice(),
        });
        Ok(())
    }

    fn exchange(&mut self, request: &[u8], timeout: Duration) -> Result<Vec<u8>, ChannelError> {
        self.send(request)?;
        self.receive(timeout)
    }

    fn close(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.stdin = None;
            end(&mut process.child);
            self.stderr.wait_for_end(STDERR_SETTLE);
        }
    }

    fn finish(&mut self, grace: Duration) {
        if let Some(process) = self.process.as_mut() {
            // Closing stdin tells the process no more requests come.
            process.write_some();
            process.stdin = None;
            let deadline = Instant::now() + grace;
            // A process that exits closes its stdout: wait for that (whatever it still writes is
            // dropped) rather than checking on the process every few milliseconds.
            while process.stdout_end.is_none() && matches!(process.wait(deadline), Ok(true)) {
                process.read_some();
                process.pending.clear();
                process.scanned = 0;
            }
            let mut pause = Duration::from_micros(100);
            while Instant::now() < deadline {
                match process.child.try_wait() {
                    Ok(None) => {
                        std::thread::sleep(pause);
                        pause = (pause * 2).min(Duration::from_millis(5));
                    }
                    _ => break,
                }
            }
        }
        self.close();
    }

    fn stderr_tail(&self) -> Option<Vec<String>> {
        Some(self.stderr.lines_since(self.stderr_mark))
    }

    fn mark_case(&mut self) {
        self.stderr_mark = self.stderr.written();
    }

    fn is_stream(&self) -> bool {
        true
    }

    fn describe(&self) -> String {
        format!("`{}` (over stdio)", self.command.as_str())
    }
}

/// Kills `child`'s process group (it leads one: see [`Channel::open`]), so that whatever it
/// started goes with it, then reaps `child`. (Linux does not reuse a process id while a
/// process group of that id has members, so the group is the one `child` led even when `child`
/// itself was reaped first.)
fn end(child: &mut Child) {
    let group = rustix::process::Pid::from_child(child);
    let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    let _ = child.kill();
    let _ = child.wait();
    crate::peer::reaper::ended(group.as_raw_nonzero().get());
}

impl Drop for StdioChannel {
    fn drop(&mut self) {
        self.close();
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
    state: Mutex<RingState>,
    ended: Condvar,
}

#[derive(Default)]
struct RingState {
    lines: VecDeque<String>,
    /// How many lines were written in all.
    written: u64,
    ended: bool,
}

impl StderrRing {
    fn new(capacity: usize) -> StderrRing {
        StderrRing { capacity, state: Mutex::new(RingState::default()), ended: Condvar::new() }
    }

    fn push(&self, line: &[u8], cut: bool) {
        let mut text = String::from_utf8_lossy(line).into_owned();
        if cut {
            text.push_str(" …(cut)");
        }
        if let Ok(mut state) = self.state.lock() {
            state.written += 1;
            if state.lines.len() == self.capacity {
                state.lines.pop_front();
            }
            if self.capacity > 0 {
                state.lines.push_back(text);
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
            state.ended = true;
        }
        self.ended.notify_all();
    }

    fn wait_for_end(&self, within: Duration) {
        if let Ok(state) = self.state.lock() {
            let _ = self.ended.wait_timeout_while(state, within, |s| !s.ended);
        }
    }

    /// How many lines were written in all.
    fn written(&self) -> u64 {
        self.state.lock().map(|s| s.written).unwrap_or_default()
    }

    /// The last lines kept of those written after the first `mark`.
    fn lines_since(&self, mark: u64) -> Vec<String> {
        self.state
            .lock()
            .map(|s| {
                let since = usize::try_from(s.written.saturating_sub(mark)).unwrap_or(usize::MAX);
                s.lines.iter().skip(s.lines.len().saturating_sub(since)).cloned().collect()
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(command: &str, max_line: usize) -> StdioChannel {
        let mut channel = StdioChannel::new(CommandLine::parse(command).unwrap(), max_line, 10);
        channel.open().unwrap();
        channel
    }

    #[test]
    fn a_request_longer_than_the_pipe_is_written_while_its_echo_is_read() {
        // cat answers each line with itself, while the rest of the request is still being
        // written: neither side may wait for the other.
        let cap = 2 * 1024 * 1024;
        let mut cat = channel("cat", cap);
        let request = vec![b'x'; 1024 * 1024];
        for _ in 0..2 {
            assert_eq!(cat.exchange(&request, Duration::from_secs(10)).unwrap(), request);
        }
        // A line past the cap is reported as soon as the cap is passed.
        let error = cat.exchange(&vec![b'y'; 3 * 1024 * 1024], Duration::from_secs(10)).unwrap_err();
        assert_eq!(error, ChannelError::TooLarge(cap));
    }

    #[test]
    fn an_answer_before_the_request_is_read_and_then_silence() {
        let mut early = channel("sh -c 'echo \"{}\"; exec sleep 5'", 1024);
        // The answer comes although the process never reads the request, which does not fit
        // in the pipe; the rest stays queued, and the next request times out.
        assert_eq!(early.exchange(&vec![b'x'; 1024 * 1024], Duration::from_secs(5)).unwrap(), b"{}");
        let timeout = Duration::from_millis(200);
        assert_eq!(early.exchange(b"{}", timeout), Err(ChannelError::Timeout(timeout)));
        early.close();
    }

    #[test]
    fn a_process_that_never_reads_its_stdin_has_its_queue_capped() {
        let mut deaf = channel("sleep 30", 1024);
        let message = vec![b'x'; 64 * 1024];
        let error = (0..200).find_map(|_| deaf.send(&message).err()).expect("the queue is capped");
        assert!(error.to_string().contains("does not read its stdin"), "{error}");
        let waiting = deaf.process.as_ref().map(|p| p.unwritten.len() - p.written).unwrap();
        assert!(waiting <= MIN_QUEUE_BYTES, "{waiting}");
        deaf.close();
    }

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
        assert_eq!(ring.lines_since(0), vec!["three".to_string(), format!("{} …(cut)", "x".repeat(STDERR_LINE_BYTES))]);
        assert_eq!(ring.written(), 4);
        assert_eq!(ring.lines_since(3), vec![format!("{} …(cut)", "x".repeat(STDERR_LINE_BYTES))]);
        assert!(ring.lines_since(4).is_empty());
    }
}
