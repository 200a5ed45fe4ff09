//! The harness as an MCP client, on its own channels: over stdio, a line per message on the
//! [`StdioChannel`] the protocol-v1 route uses (its caps, its stderr ring, its process group and
//! its timeouts); over Streamable HTTP, a POST per message with ureq as [`crate::peer::http`]
//! uses it, read as one JSON message or as the server-sent events it may answer with, whose
//! events are read as they arrive (a server may keep the stream open after the response).
//!
//! A call sends one request and waits, at most the timeout, for the response with its id:
//! notifications on the way are dropped, a server's `ping` is answered, any other request from the
//! server is answered that the harness does not offer it. Whatever else comes back (bytes that
//! are not a JSON-RPC message, a response to another id, a line past the cap, silence, an exit)
//! is a [`Trouble`] that says what happened and quotes what was sent and received.

use crate::json::Value;
use crate::peer::http::{agent, reason};
use crate::peer::mcp::wire::{self, Events, Message, RpcError};
use crate::peer::remote::{Channel, ChannelError};
use crate::peer::spec::HttpUrl;
use crate::peer::stdio::StdioChannel;
use crate::peer::transcript::{Exchange, Received, TRANSCRIPT_MESSAGE_CHARS, WireLog, truncate};
use serde_json::json;
use std::io::Read;
use std::time::{Duration, Instant};

/// How much of an HTTP error body is quoted.
const QUOTED_BODY_BYTES: u64 = 2048;

/// The most requests from the server one call answers (pings, or what the harness does not
/// offer); a server that sends more is broken, so that no server holds a call by asking.
pub(crate) const MAX_SERVER_REQUESTS: usize = 64;

/// Why a call gave up on a server that kept asking.
fn too_many_requests() -> String {
    format!("the server sent more than {MAX_SERVER_REQUESTS} requests of its own during one call")
}

/// A call that got no usable response.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Trouble {
    /// What happened, in one sentence.
    pub what: String,
    /// The request, as sent.
    pub sent: String,
    /// What came back instead of a response, when something did.
    pub received: Option<String>,
    /// Whether the implementation must be started again before it can be used.
    pub restart: bool,
}

/// How the client reaches the server.
pub(crate) enum Wire {
    /// A process speaking MCP on its stdin and stdout.
    Stdio(StdioChannel),
    /// A server speaking Streamable HTTP at a URL.
    Http(HttpSession),
}

/// A Streamable HTTP session: the URL, the connection, and the session id the server gave.
pub(crate) struct HttpSession {
    url: HttpUrl,
    max_body: usize,
    agent: Option<ureq::Agent>,
    session: Option<String>,
    protocol: Option<String>,
    /// Sent with every request (`--mcp-header`), name and value.
    headers: Vec<(String, String)>,
    /// The server's process, when the harness starts it (`--mcp-gateway-http`): started and
    /// ended with the session, and every trouble of the session restarts it.
    process: Option<StdioChannel>,
}

impl HttpSession {
    /// A session with the server at `url`, reading at most `max_body` bytes of a response.
    pub(crate) fn new(url: HttpUrl, max_body: usize) -> HttpSession {
        HttpSession { url, max_body, agent: None, session: None, protocol: None, headers: Vec::new(), process: None }
    }

    /// The same session, with the server's process (see [`crate::peer::mcp::bridge::process`]).
    pub(crate) fn with_process(mut self, process: StdioChannel) -> HttpSession {
        self.process = Some(process);
        self
    }

    /// Forgets the connection and the session id, as a new session begins.
    fn forget(&mut self) {
        self.agent = None;
        self.session = None;
        self.protocol = None;
    }

    /// The same session, sending `headers` (name, value) with every request.
    pub(crate) fn with_headers(mut self, headers: Vec<(String, String)>) -> HttpSession {
        self.headers = headers;
        self
    }

    /// `request` with the session's own headers.
    fn headed<B>(&self, mut request: ureq::RequestBuilder<B>) -> ureq::RequestBuilder<B> {
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        request
    }
}

/// An MCP client of one server.
pub(crate) struct Client {
    wire: Wire,
    next_id: u64,
    /// The id of the current case's first request: ids in its reports are counted from it.
    base: u64,
    log: WireLog,
    /// Whether exchanges are kept from the current case's reports (a restart's).
    pub quiet: bool,
    /// How messages name the server, when not by its channel (a command line whose words hold
    /// what changes from one run to the next, such as a port).
    pub label: Option<String>,
    /// Texts never recorded or quoted (the values of `--mcp-header`), each replaced by
    /// [`HIDDEN`] wherever an exchange or a trouble would show it.
    pub secrets: Vec<String>,
}

/// What stands for a secret in what is recorded and quoted.
pub(crate) const HIDDEN: &str = "[hidden]";

/// `text` with every secret replaced by [`HIDDEN`].
pub(crate) fn hide(text: &str, secrets: &[String]) -> String {
    let mut text = text.to_string();
    for secret in secrets.iter().filter(|s| !s.is_empty()) {
        if text.contains(secret.as_str()) {
            text = text.replace(secret.as_str(), HIDDEN);
        }
    }
    text
}

impl Client {
    /// A client over `wire`, recording its exchanges into `log`.
    pub(crate) fn new(wire: Wire, log: WireLog) -> Client {
        Client { wire, next_id: 0, base: 0, log, quiet: false, label: None, secrets: Vec::new() }
    }

    /// Starts the server's process (or forgets the last HTTP session).
    pub(crate) fn open(&mut self) -> Result<(), ChannelError> {
        match &mut self.wire {
            Wire::Stdio(channel) => channel.open(),
            Wire::Http(http) => {
                http.forget();
                match http.process.as_mut() {
                    Some(process) => process.open(),
                    None => Ok(()),
                }
            }
        }
    }

    /// Begins a new session with the same server, still starting: an HTTP session is
    /// forgotten (its process, if any, left running), a process is started again.
    pub(crate) fn reconnect(&mut self) {
        match &mut self.wire {
            Wire::Http(http) => http.forget(),
            Wire::Stdio(_) => {
                self.close();
                let _ = self.open();
            }
        }
    }

    /// How the process of a server on HTTP the harness started ended, once it has (none for
    /// any other server, or one still running); its stderr is then read to its end (a moment at most).
    pub(crate) fn exit_status(&mut self) -> Option<String> {
        let Wire::Http(http) = &mut self.wire else { return None };
        let process = http.process.as_mut()?;
        let status = process.exit_status()?;
        // Its stdout is its stderr: reading it waits for the end of both.
        let _ = process.receive(Duration::from_millis(500));
        Some(status)
    }

    /// Ends the server's process at once (or drops the connection).
    pub(crate) fn close(&mut self) {
        match &mut self.wire {
            Wire::Stdio(channel) => channel.close(),
            Wire::Http(http) => {
                http.agent = None;
                if let Some(process) = http.process.as_mut() {
                    process.close();
                }
            }
        }
    }

    /// Ends the session: a process gets `grace` to exit once its stdin is closed (as MCP's
    /// stdio transport ends a session); an HTTP session is deleted.
    pub(crate) fn finish(&mut self, grace: Duration) {
        match &mut self.wire {
            Wire::Stdio(channel) => channel.finish(grace),
            Wire::Http(http) => {
                if let (Some(agent), Some(session)) = (http.agent.take(), http.session.take()) {
                    let request = agent.delete(http.url.as_str()).config().timeout_global(Some(grace)).build();
                    let _ = http.headed(request).header("Mcp-Session-Id", &session).call();
                }
                if let Some(process) = http.process.as_mut() {
                    process.close();
                }
            }
        }
    }

    /// The server, for messages: its command line, or how it is reached (no port).
    pub(crate) fn describe(&self) -> String {
        if let Some(label) = &self.label {
            return label.clone();
        }
        match &self.wire {
            Wire::Stdio(channel) => channel.describe().replace("(over stdio)", "(MCP over stdio)"),
            Wire::Http(_) => "the MCP server at the URL given (over Streamable HTTP)".into(),
        }
    }

    /// The server process's last stderr lines of this case, when it has a process.
    pub(crate) fn stderr_tail(&self) -> Option<Vec<String>> {
        match &self.wire {
            Wire::Stdio(channel) => channel.stderr_tail(),
            Wire::Http(http) => http.process.as_ref().and_then(StdioChannel::stderr_tail),
        }
    }

    /// Marks the start of a case, for [`Client::stderr_tail`] and the ids of its reports.
    pub(crate) fn mark_case(&mut self) {
        self.base = self.next_id;
        match &mut self.wire {
            Wire::Stdio(channel) => channel.mark_case(),
            Wire::Http(http) => http.process.iter_mut().for_each(StdioChannel::mark_case),
        }
    }

    /// Sends a notification.
    pub(crate) fn notify(&mut self, method: &str, timeout: Duration) -> Result<(), Trouble> {
        let sent = wire::notification(method);
        let trouble = |what: String, restart: bool| Trouble { what, sent: sent.clone(), received: None, restart };
        match &mut self.wire {
            Wire::Stdio(channel) => channel.send(sent.as_bytes()).map_err(|e| trouble(format!("{method}: {e}"), true)),
            Wire::Http(http) => match http.post(&sent, timeout, None) {
                Ok(_) => Ok(()),
                Err((error, _)) => Err(trouble(format!("{method}: {error}"), http.process.is_some())),
            },
        }
    }

    /// Sends a request and waits at most `timeout` for its response: its result, or its error.
    pub(crate) fn call(
        &mut self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Result<Value, RpcError>, Trouble> {
        let id = self.next_id;
        self.next_id += 1;
        let sent = wire::request(id, method, params);
        let began = Instant::now();
        let got = match &mut self.wire {
            Wire::Stdio(channel) => stdio_call(channel, &sent, id, timeout),
            Wire::Http(http) => {
                // A server the harness started is started again, as an HTTP bridge is.
                let restart = http.process.is_some();
                http.post(&sent, timeout, Some(id)).map_err(|(error, received)| (error, received, restart))
            }
        };
        let elapsed = began.elapsed();
        match got {
            Ok((text, outcome)) => {
                self.record(&sent, Received::Response(text), elapsed);
                Ok(outcome)
            }
            Err((what, received, restart)) => {
                let what = hide(&format!("{method}: {what}"), &self.secrets);
                self.record(&sent, Received::Nothing(what.clone()), elapsed);
                let received = received.map(|text| hide(&text, &self.secrets));
                Err(Trouble { what, sent: hide(&sent, &self.secrets), received, restart })
            }
        }
    }

    fn record(&self, sent: &str, received: Received, elapsed: Duration) {
        let cut = |text: &str| truncate(&hide(text, &self.secrets), TRANSCRIPT_MESSAGE_CHARS);
        let exchange = Exchange {
            sent: cut(sent),
            received: match received {
                Received::Response(text) => Received::Response(cut(&text)),
                nothing => nothing,
            },
            elapsed,
        };
        // A case's reports count ids from its first request, so they read the same whichever
        // cases ran before it.
        let case = (!self.quiet).then(|| Exchange {
            sent: relative_id(&exchange.sent, self.base),
            received: match &exchange.received {
                Received::Response(text) => Received::Response(relative_id(text, self.base)),
                nothing => nothing.clone(),
            },
            elapsed: exchange.elapsed,
        });
        self.log.record(|| exchange, case);
    }
}

/// `text` with its first `"id": N` counted from `base` (the message's own id: the harness writes
/// `jsonrpc` first and `id` second, and a response's `id` precedes its result in every server the
/// suite knows; a text without one is left as it is).
fn relative_id(text: &str, base: u64) -> String {
    let Some(at) = text.find("\"id\":") else {
        return text.to_string();
    };
    let start = at + "\"id\":".len();
    let start = start + text[start..].bytes().take_while(|b| *b == b' ').count();
    let digits = text[start..].bytes().take_while(u8::is_ascii_digit).count();
    match text[start..start + digits].parse::<u64>() {
        Ok(id) => format!("{}{}{}", &text[..start], i128::from(id) - i128::from(base), &text[start + digits..]),
        Err(_) => text.to_string(),
    }
}

/// What a failed exchange came to: what happened, what came back, and whether to restart.
type Failed = (String, Option<String>, bool);

/// One request over stdio: the response line with the request's id (and its text), answering
/// the server's requests and dropping its notifications on the way.
fn stdio_call(
    channel: &mut StdioChannel,
    sent: &str,
    id: u64,
    timeout: Duration,
) -> Result<(String, Result<Value, RpcError>), Failed> {
    let broke = |e: ChannelError| {
        let restart = !matches!(e, ChannelError::Status { .. });
        (e.to_string(), None, restart)
    };
    channel.send(sent.as_bytes()).map_err(broke)?;
    let deadline = Instant::now() + timeout;
    let mut asked_so_far = 0;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err((format!("no response within {timeout:?}"), None, true));
        }
        let line = channel
            .receive(left)
            .map_err(|e| if let ChannelError::Timeout(_) = e { ChannelError::Timeout(timeout) } else { e })
            .map_err(broke)?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let text = String::from_utf8_lossy(&line).into_owned();
        match wire::read(&line) {
            Err(why) => {
                return Err((format!("the server wrote a line that is not an MCP message: {why}"), Some(text), true));
            }
            Ok(Message::Response { id: got, outcome }) if got == json!(id) => return Ok((text, outcome)),
            Ok(Message::Response { id: got, .. }) => {
                let what = format!("the server answered id {got}, but the request had id {id}");
                return Err((what, Some(text), true));
            }
            Ok(Message::Request { id: asked, method }) => {
                asked_so_far += 1;
                if asked_so_far > MAX_SERVER_REQUESTS {
                    return Err((too_many_requests(), Some(text), true));
                }
                channel.send(wire::answer_to(&asked, &method).as_bytes()).map_err(broke)?;
            }
            Ok(Message::Notification) => {}
        }
    }
}

impl HttpSession {
    fn agent(&mut self) -> ureq::Agent {
        self.agent.get_or_insert_with(agent).clone()
    }

    /// POSTs one message. For a request (`id`), the response with that id: its text and
    /// outcome; for a notification, nothing. `Err` with what happened and what came back; the
    /// connection is then not used again.
    #[allow(clippy::type_complexity)]
    fn post(
        &mut self,
        message: &str,
        timeout: Duration,
        id: Option<u64>,
    ) -> Result<(String, Result<Value, RpcError>), (String, Option<String>)> {
        let posted = self.post_once(message, timeout, Instant::now() + timeout, id);
        if posted.is_err() {
            self.agent = None;
        }
        posted
    }

    /// A POST of one message, with the headers Streamable HTTP asks of every one (the session
    /// and protocol version once the server gave them), timed out at `deadline`.
    fn request(&self, agent: &ureq::Agent, deadline: Instant) -> ureq::RequestBuilder<ureq::typestate::WithBody> {
        let left = deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(1));
        let mut request = agent
            .post(self.url.as_str())
            .config()
            .timeout_global(Some(left))
            .build()
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream");
        request = self.headed(request);
        if let Some(session) = &self.session {
            request = request.header("Mcp-Session-Id", session);
        }
        if let Some(protocol) = &self.protocol {
            request = request.header("MCP-Protocol-Version", protocol);
        }
        request
    }

    /// [`HttpSession::post`], all of it (the answers to the server's requests included) done by
    /// `deadline`, `timeout` after it began.
    #[allow(clippy::type_complexity)]
    fn post_once(
        &mut self,
        message: &str,
        timeout: Duration,
        deadline: Instant,
        id: Option<u64>,
    ) -> Result<(String, Result<Value, RpcError>), (String, Option<String>)> {
        let agent = self.agent();
        let request = self.request(&agent, deadline);
        let mut response = request.send(message.as_bytes()).map_err(|e| (reason(e, timeout).to_string(), None))?;
        let status = response.status().as_u16();
        if let Some(session) = response.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()) {
            self.session = Some(session.to_string());
        }
        let Some(id) = id else {
            return match status {
                200 | 202 => Ok((String::new(), Ok(Value::Null))),
                _ => Err((format!("HTTP status {status} for a notification"), None)),
            };
        };
        if status != 200 {
            let mut start = Vec::new();
            let _ = response.body_mut().as_reader().take(QUOTED_BODY_BYTES).read_to_end(&mut start);
            self.agent = None;
            let body = String::from_utf8_lossy(&start).into_owned();
            return Err((format!("HTTP status {status}"), Some(body)));
        }
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        let max = self.max_body as u64;
        let mut reader = response.body_mut().with_config().limit(max).reader();
        let too_large = |e: std::io::Error| {
            let kind = e.kind();
            let error = match e.into_inner().map(|inner| inner.downcast::<ureq::Error>()) {
                Some(Ok(error)) => reason(*error, timeout),
                _ if matches!(kind, std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock) => {
                    ChannelError::Timeout(timeout)
                }
                _ => ChannelError::Io(format!("reading the response failed: {kind}")),
            };
            match error {
                ChannelError::TooLarge(_) => ChannelError::TooLarge(max as usize).to_string(),
                other => other.to_string(),
            }
        };
        if !content_type.starts_with("text/event-stream") {
            let mut body = Vec::new();
            reader.read_to_end(&mut body).map_err(|e| (too_large(e), None))?;
            let text = String::from_utf8_lossy(&body).into_owned();
            return match wire::read(&body) {
                Ok(Message::Response { id: got, outcome }) if got == json!(id) => Ok((text, outcome)),
                Ok(Message::Response { id: got, .. }) => {
                    Err((format!("the server answered id {got}, but the request had id {id}"), Some(text)))
                }
                Ok(_) => Err(("the body is not a response".into(), Some(text))),
                Err(why) => Err((format!("the body is not an MCP message: {why}"), Some(text))),
            };
        }
        // Server-sent events: read as they come, until the response.
        let mut events = Events::default();
        let mut chunk = vec![0; 16 * 1024];
        let mut asked_so_far = 0;
        let late = || (ChannelError::Timeout(timeout).to_string(), None);
        loop {
            if Instant::now() >= deadline {
                return Err(late());
            }
            let read = reader.read(&mut chunk).map_err(|e| (too_large(e), None))?;
            let datas = if read == 0 { events.finish().into_iter().collect() } else { events.push(&chunk[..read]) };
            for data in datas {
                let text = String::from_utf8_lossy(&data).into_owned();
                match wire::read(&data) {
                    Ok(Message::Response { id: got, outcome }) if got == json!(id) => {
                        self.agent = None; // the rest of the stream is not read
                        return Ok((text, outcome));
                    }
                    Ok(Message::Request { id: asked, method }) => {
                        asked_so_far += 1;
                        if asked_so_far > MAX_SERVER_REQUESTS {
                            return Err((too_many_requests(), Some(text)));
                        }
                        // Answered on a POST of its own, as Streamable HTTP has it, within what is
                        // left of the call's time.
                        if Instant::now() >= deadline {
                            return Err(late());
                        }
                        let answer = wire::answer_to(&asked, &method);
                        let _ = self.headed(self.request(&agent, deadline)).send(answer.as_bytes());
                    }
                    Ok(Message::Notification) => {}
                    Ok(Message::Response { id: got, .. }) => {
                        let what = format!("the server answered id {got}, but the request had id {id}");
                        return Err((what, Some(text)));
                    }
                    Err(why) => return Err((format!("an event is not an MCP message: {why}"), Some(text))),
                }
            }
            if read == 0 {
                return Err(("the event stream ended without the response".into(), None));
            }
        }
    }

    /// Keeps the protocol version the server chose, for the header of later requests.
    pub(crate) fn set_protocol(&mut self, version: &str) {
        self.protocol = Some(version.to_string());
    }
}

impl Client {
    /// After `initialize`: an HTTP session sends the protocol version the server chose with
    /// every later request.
    pub(crate) fn initialized(&mut self, version: Option<&str>) {
        if let (Wire::Http(http), Some(version)) = (&mut self.wire, version) {
            http.set_protocol(version);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, Write};
    use std::net::TcpListener;

    /// A Streamable HTTP server on a loopback thread that answers each POST with the next of
    /// `responses` (raw bytes) and then holds the connection open (as a server whose event stream
    /// stays open after the response does), recording each request's head.
    fn server(responses: Vec<&'static [u8]>) -> (HttpSession, std::sync::mpsc::Receiver<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = HttpUrl::parse(&format!("http://{}/mcp", listener.local_addr().unwrap())).unwrap();
        let (heads, seen) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut responses = responses.into_iter();
            for stream in listener.incoming().flatten() {
                let mut reader = std::io::BufReader::new(stream.try_clone().unwrap());
                let (mut head, mut length) = (String::new(), 0);
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                        break;
                    }
                    if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = value.trim().parse().unwrap();
                    }
                    head.push_str(&line);
                }
                let mut body = vec![0; length];
                reader.read_exact(&mut body).unwrap();
                let _ = heads.send(head);
                let Some(response) = responses.next() else { return };
                let mut writer = stream;
                writer.write_all(response).unwrap();
                writer.flush().unwrap();
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_secs(30));
                    drop(writer);
                });
            }
        });
        (HttpSession::new(url, 4096), seen)
    }

    #[test]
    fn a_response_in_an_event_stream_is_read_as_it_arrives() {
        let (http, seen) = server(vec![
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nMcp-Session-Id: s-1\r\nTransfer-Encoding: chunked\r\n\r\n\
              55\r\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n\r\n\
              40\r\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"a\":1}}\n\n\r\n",
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 36\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}",
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 15\r\n\r\nno such session",
        ]);
        let mut client = Client::new(Wire::Http(http), WireLog::new());
        let began = Instant::now();
        let result = client.call("initialize", json!({}), Duration::from_secs(10)).unwrap().unwrap();
        assert_eq!(result, json!({"a": 1}));
        assert!(began.elapsed() < Duration::from_secs(5), "not held by the open stream: {:?}", began.elapsed());
        assert!(!seen.recv().unwrap().to_ascii_lowercase().contains("mcp-session-id"));
        client.initialized(Some("2025-06-18"));
        let trouble = client.call("tools/list", json!({}), Duration::from_secs(10)).unwrap_err();
        assert!(trouble.what.contains("answered id 7, but the request had id 1"), "{trouble:?}");
        let head = seen.recv().unwrap().to_ascii_lowercase();
        assert!(head.contains("mcp-session-id: s-1") && head.contains("mcp-protocol-version: 2025-06-18"), "{head}");
        let trouble = client.call("tools/list", json!({}), Duration::from_secs(10)).unwrap_err();
        assert_eq!(
            (trouble.what.as_str(), trouble.received.as_deref()),
            ("tools/list: HTTP status 404", Some("no such session"))
        );
    }

    #[test]
    fn over_stdio_notifications_are_dropped_and_a_ping_is_answered_before_the_response() {
        // The server logs, pings the harness, writes the harness's answer to stderr, then answers.
        let script = r#"read request
            echo '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}'
            echo
            echo '{"jsonrpc":"2.0","id":"p1","method":"ping"}'
            read pong; echo "$pong" >&2
            echo '{"jsonrpc":"2.0","id":"r1","method":"roots/list"}'
            read refused; echo "$refused" >&2
            echo '{"jsonrpc":"2.0","id":0,"result":{"z":12345678901234567890123,"a":1}}'
            read request
            echo 'not a message'"#;
        let command =
            crate::peer::spec::CommandLine::parse(&format!("sh -c {}", shlex::try_quote(script).unwrap())).unwrap();
        let mut client = Client::new(Wire::Stdio(StdioChannel::new(command, 1024, 10)), WireLog::new());
        client.open().unwrap();
        let result = client.call("initialize", json!({}), Duration::from_secs(10)).unwrap().unwrap();
        assert_eq!(result.to_string(), r#"{"z":12345678901234567890123,"a":1}"#, "exact, in order");
        let trouble = client.call("tools/list", json!({}), Duration::from_secs(10)).unwrap_err();
        assert!(trouble.what.contains("not an MCP message") && trouble.restart, "{trouble:?}");
        assert_eq!(trouble.received.as_deref(), Some("not a message"));
        client.close();
        let stderr = client.stderr_tail().unwrap();
        assert_eq!(stderr[0], r#"{"jsonrpc":"2.0","id":"p1","result":{}}"#);
        assert!(stderr[1].contains(r#""id":"r1","error":{"code":-32601"#), "{stderr:?}");
    }

    #[test]
    fn a_stream_that_never_answers_costs_the_timeout() {
        let (http, _seen) = server(vec![b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n: waiting\n\n"]);
        let mut client = Client::new(Wire::Http(http), WireLog::new());
        let trouble = client.call("initialize", json!({}), Duration::from_millis(300)).unwrap_err();
        assert!(trouble.what.contains("no response within"), "{trouble:?}");
    }

    /// A Streamable HTTP server that answers the first POST with an open event stream of `pings`
    /// pings and no response, and each later POST (the harness's answers) with 202 when
    /// `answering`, else never; the head of each later POST is sent on.
    fn asking_server(pings: usize, answering: bool) -> (HttpSession, std::sync::mpsc::Receiver<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = HttpUrl::parse(&format!("http://{}/mcp", listener.local_addr().unwrap())).unwrap();
        let (heads, seen) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut held = Vec::new();
            for (n, stream) in listener.incoming().flatten().enumerate() {
                let mut reader = std::io::BufReader::new(stream.try_clone().unwrap());
                let (mut head, mut length) = (String::new(), 0);
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                        break;
                    }
                    if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = value.trim().parse().unwrap();
                    }
                    head.push_str(&line);
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                let mut writer = stream;
                if n == 0 {
                    let mut events = String::new();
                    for ping in 0..pings {
                        events
                            .push_str(&format!("data: {{\"jsonrpc\":\"2.0\",\"id\":{ping},\"method\":\"ping\"}}\n\n"));
                    }
                    let _ = write!(
                        writer,
                        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nMcp-Session-Id: s-9\r\n\r\n{events}"
                    );
                } else {
                    let _ = heads.send(head);
                    if answering {
                        let _ = writer
                            .write_all(b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                        continue;
                    }
                }
                let _ = writer.flush();
                held.push(writer);
            }
        });
        (HttpSession::new(url, 1 << 20), seen)
    }

    #[test]
    fn a_call_whose_server_never_takes_the_answers_to_its_pings_costs_its_timeout_once() {
        let (http, seen) = asking_server(40, false);
        let mut client = Client::new(Wire::Http(http), WireLog::new());
        client.initialized(Some("2025-06-18"));
        let began = Instant::now();
        let trouble = client.call("tools/call", json!({}), Duration::from_millis(500)).unwrap_err();
        assert!(began.elapsed() < Duration::from_secs(3), "one timeout for the call: {:?}", began.elapsed());
        assert!(trouble.what.contains("no response within 500ms"), "{trouble:?}");
        // The answer to a ping goes out as every POST of the session does.
        let head = seen.recv_timeout(Duration::from_secs(1)).unwrap().to_ascii_lowercase();
        for header in
            ["mcp-session-id: s-9", "mcp-protocol-version: 2025-06-18", "accept: application/json, text/event-stream"]
        {
            assert!(head.contains(header), "{header} missing from {head}");
        }
    }

    #[test]
    fn a_call_answers_so_many_server_requests_and_no_more() {
        let (http, _seen) = asking_server(MAX_SERVER_REQUESTS + 10, true);
        let mut client = Client::new(Wire::Http(http), WireLog::new());
        let began = Instant::now();
        let trouble = client.call("tools/call", json!({}), Duration::from_secs(4)).unwrap_err();
        assert!(trouble.what.contains(&format!("more than {MAX_SERVER_REQUESTS} requests")), "{trouble:?}");
        assert!(began.elapsed() < Duration::from_secs(3), "{:?}", began.elapsed());
    }

    #[test]
    fn ids_in_a_case_s_reports_are_counted_from_its_first_request() {
        assert_eq!(
            relative_id(r#"{"jsonrpc":"2.0","id":12,"method":"tools/call"}"#, 10),
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#
        );
        assert_eq!(
            relative_id(r#"{"jsonrpc": "2.0", "id": 10, "result": {"id": 99}}"#, 10),
            r#"{"jsonrpc": "2.0", "id": 0, "result": {"id": 99}}"#
        );
        assert_eq!(relative_id(r#"{"id":"abc"}"#, 3), r#"{"id":"abc"}"#);
    }
}
