//! `tool-conformance serve --http`: a [`Server`] behind a small HTTP/1.1 server of its own, on
//! `std::net`, whose request heads httparse reads.
//!
//! Every POST body is one request and the response body is its answer, whatever the path. The
//! server is built to be left running next to a harness, and to be hit by many at once, by
//! clients that may be slow, idle or hostile:
//! - it binds to loopback unless told otherwise ([`bind_address`]);
//! - each connection is served by a thread of its own, and kept alive; at most
//!   [`HttpOptions::max_connections`] are open at once: when a new one would pass the cap, the
//!   connection that has waited longest for its next request is closed to make room, and if
//!   every open connection is in the middle of a request the new one is answered 503 and closed;
//! - a request head is capped ([`HttpOptions::max_head`]: 431) and so is a body
//!   ([`HttpOptions::max_body`]: 413, answered from the head, before any of the body is read); a
//!   body needs a Content-Length (411; chunked bodies are 501);
//! - a whole request, head and body, must arrive within [`HttpOptions::request_timeout`] of its
//!   first byte (408), a kept-alive connection that sends nothing for
//!   [`HttpOptions::idle_timeout`] is closed, and a client that does not read its response is
//!   cut off after [`HttpOptions::write_timeout`];
//! - a body that is refused is never read to be discarded: the connection is closed after the
//!   answer (the little that is already on its way is drained for a moment, at most
//!   [`LINGER_BYTES`] into a fixed buffer, so that the client sees the answer rather than a
//!   reset);
//! - a malformed request or body is a 4xx whose body is a JSON error response `{"seq", "error"}`.
//!
//! All connections share one registry (one [`Server`]); `stop` answers and then resets it to a
//! fresh target, and the server stays up.
//!
//! The same server carries other request-response protocols over POST: [`serve_with`] serves any
//! [`Responder`] (the MCP upstream's Streamable HTTP is one), with the same limits.

use super::Server;
use crate::peer::Target;
use crate::peer::protocol::Answer;
use std::collections::HashMap;
use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Limits of the HTTP server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// The largest body accepted, in bytes.
    pub max_body: usize,
    /// The largest request head (request line and headers) accepted, in bytes.
    pub max_head: usize,
    /// How long a whole request (head and body) may take to arrive, from its first byte.
    pub request_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request.
    pub idle_timeout: Duration,
    /// How long one write of a response may wait.
    pub write_timeout: Duration,
    /// How many connections are open at once.
    pub max_connections: usize,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            max_body: 4 * 1024 * 1024,
            max_head: 64 * 1024,
            request_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(10),
            max_connections: 512,
        }
    }
}

/// The most bytes read (into a fixed buffer, and dropped) from a connection that is closed with
/// part of its request unread.
pub const LINGER_BYTES: usize = 256 * 1024;

/// How long a connection closed with part of its request unread is drained.
const LINGER: Duration = Duration::from_millis(250);

/// The most headers a request may have (more is answered 431).
const MAX_HEADERS: usize = 100;

/// The address `serve --http` binds to: `PORT` alone means `127.0.0.1:PORT`; otherwise
/// `HOST:PORT` (a name is resolved, loopback first).
pub fn bind_address(text: &str) -> Result<SocketAddr, AddressError> {
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    let error = |why: String| AddressError { address: text.to_string(), why };
    let mut addresses: Vec<SocketAddr> =
        text.to_socket_addrs().map_err(|e| error(format!("it is not PORT or HOST:PORT ({e})")))?.collect();
    addresses.sort_by_key(|a| !a.ip().is_loopback());
    addresses.into_iter().next().ok_or_else(|| error("it resolves to no address".into()))
}

/// An address `serve --http` cannot bind to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{address:?}: {why}")]
pub struct AddressError {
    /// The address as given.
    pub address: String,
    /// Why it cannot be used.
    pub why: String,
}

/// A listener on `address` for [`serve`].
pub fn listen(address: SocketAddr, _options: &HttpOptions) -> std::io::Result<TcpListener> {
    TcpListener::bind(address)
}

/// Serves on `listener` (best made by [`listen`]) until the process ends, with targets made by
/// `make`. A failed accept (out of descriptors, a connection reset before it was taken) is
/// waited out, never the end of serving.
pub fn serve<T, F>(listener: TcpListener, make: F, options: HttpOptions) -> std::io::Result<()>
where
    T: Target + Send + 'static,
    F: Fn() -> T + Send + Sync + 'static,
{
    serve_with(listener, Protocol { server: Mutex::new(Server::new(make())), make: Box::new(make) }, options)
}

/// What answers the requests of [`serve_with`]: a request's method and body in, a response out.
pub trait Responder: Send + Sync + 'static {
    /// The methods answered; any other is 405. Only a POST must carry a Content-Length.
    fn methods(&self) -> &'static [&'static str] {
        &["POST"]
    }

    /// The response to a request of one of [`Responder::methods`] with this body.
    fn respond(&self, method: &str, body: &[u8]) -> Response;

    /// The body of a request refused before it reached [`Responder::respond`] (too large, too
    /// slow, not HTTP/1.1), saying `why`: protocol v1's error response unless told otherwise.
    fn refusal(&self, why: &str) -> Vec<u8> {
        error_body(why)
    }

    /// Whether a request with this Origin header (a browser's) is served; one that is not is
    /// answered 403 unread. Every origin is, unless told otherwise.
    fn allows_origin(&self, _origin: &str) -> bool {
        true
    }
}

/// A response of a [`Responder`]. A body is sent as `application/json`; an empty one with no
/// Content-Type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Headers besides Content-Type, Content-Length and Connection.
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Vec<u8>,
}

/// [`serve`] for any [`Responder`], with the same limits.
pub fn serve_with<R: Responder>(listener: TcpListener, responder: R, options: HttpOptions) -> std::io::Result<()> {
    let shared = Arc::new(Shared { responder, options, connections: Mutex::new(Connections::default()) });
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let Some(id) = admit(&shared, &stream) else {
            turn_away(&shared, stream);
            continue;
        };
        let connection = Arc::clone(&shared);
        let spawned = std::thread::Builder::new().name("serve-http".into()).spawn(move || {
            Connection { shared: &connection, stream, id, buffer: Vec::new() }.serve();
            lock(&connection.connections).open.remove(&id);
        });
        if spawned.is_err() {
            lock(&shared.connections).open.remove(&id);
        }
    }
}

struct Shared<R: Responder> {
    responder: R,
    options: HttpOptions,
    connections: Mutex<Connections>,
}

/// Protocol v1: one registry for every connection.
struct Protocol<T: Target> {
    server: Mutex<Server<T>>,
    make: Box<dyn Fn() -> T + Send + Sync>,
}

/// The open connections: a handle on each socket (to close an idle one), and since when it has
/// waited for its next request (`None` while in the middle of one).
#[derive(Default)]
struct Connections {
    next: u64,
    open: HashMap<u64, (TcpStream, Option<Instant>)>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Takes a new connection in, closing the longest-idle one if the cap is reached; `None` if
/// every open connection is busy.
fn admit<R: Responder>(shared: &Shared<R>, stream: &TcpStream) -> Option<u64> {
    let mut connections = lock(&shared.connections);
    if connections.open.len() >= shared.options.max_connections.max(1) {
        let idlest = connections
            .open
            .iter()
            .filter_map(|(id, (_, since))| since.map(|since| (since, *id)))
            .min()
            .map(|(_, id)| id)?;
        if let Some((idle, _)) = connections.open.remove(&idlest) {
            let _ = idle.shutdown(Shutdown::Both);
        }
    }
    let handle = stream.try_clone().ok()?;
    let id = connections.next;
    connections.next += 1;
    connections.open.insert(id, (handle, Some(Instant::now())));
    Some(id)
}

/// Answers a connection over the cap with 503, without waiting for anything.
fn turn_away<R: Responder>(shared: &Shared<R>, stream: TcpStream) {
    let _ = stream.set_nonblocking(true);
    let body = shared.responder.refusal("too many connections are open; try again shortly");
    let _ = (&stream).write_all(&response_bytes(503, &[], &body, true));
    let _ = stream.shutdown(Shutdown::Write);
}

/// A request that cannot be served: its status and why.
#[derive(Debug)]
struct Refusal {
    status: u16,
    why: String,
}

fn refuse(status: u16, why: impl Into<String>) -> Refusal {
    Refusal { status, why: why.into() }
}

/// How reading a request ended when it did not give one.
enum Unread {
    /// The connection is to be closed without an answer (closed by the client, idle too long).
    Close,
    /// The request is answered with this and the connection closed.
    Refused(Refusal),
}

/// A request's head as far as the server needs it.
#[derive(Debug)]
struct Head {
    method: String,
    /// The Origin header, when there is one (a browser's request).
    origin: Option<String>,
    body_length: usize,
    keep_alive: bool,
    expects_continue: bool,
}

struct Connection<'a, R: Responder> {
    shared: &'a Shared<R>,
    stream: TcpStream,
    id: u64,
    /// Bytes read and not yet used: the start of the next request.
    buffer: Vec<u8>,
}

impl<R: Responder> Connection<'_, R> {
    fn serve(mut self) {
        let _ = self.stream.set_write_timeout(Some(self.shared.options.write_timeout));
        loop {
            let outcome = self.request();
            match outcome {
                Ok((method, body, keep_alive)) => {
                    let response = self.shared.responder.respond(&method, &body);
                    let bytes = response_bytes(response.status, &response.headers, &response.body, !keep_alive);
                    if self.stream.write_all(&bytes).is_err() || !keep_alive {
                        return;
                    }
                }
                Err(Unread::Close) => return,
                Err(Unread::Refused(refusal)) => {
                    let body = self.shared.responder.refusal(&refusal.why);
                    let allow = self.shared.responder.methods().join(", ");
                    let headers = if refusal.status == 405 { vec![("Allow", allow)] } else { Vec::new() };
                    let _ = self.stream.write_all(&response_bytes(refusal.status, &headers, &body, true));
                    return self.linger();
                }
            }
        }
    }

    fn set_idle(&self, idle: bool) {
        if let Some((_, since)) = lock(&self.shared.connections).open.get_mut(&self.id) {
            *since = idle.then(Instant::now);
        }
    }

    /// Reads into the buffer once, waiting until `deadline` at most: the number of bytes read,
    /// `Ok(0)` at the end of the stream, `Err(true)` when the time is up, `Err(false)` when the read
    /// fails.
    fn fill(&mut self, deadline: Instant) -> Result<usize, bool> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(true);
        }
        let _ = self.stream.set_read_timeout(Some(left));
        let mut chunk = [0u8; 16 * 1024];
        loop {
            match self.stream.read(&mut chunk) {
                Ok(n) => {
                    self.buffer.extend_from_slice(&chunk[..n]);
                    return Ok(n);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => return Err(true),
                Err(_) => return Err(false),
            }
        }
    }

    /// The next request's method and body, and whether the connection stays open after it.
    fn request(&mut self) -> Result<(String, Vec<u8>, bool), Unread> {
        let options = &self.shared.options;
        let (request_timeout, max_head, max_body) = (options.request_timeout, options.max_head, options.max_body);
        if self.buffer.is_empty() {
            // Idle until the next request begins: such a connection may be closed to make room.
            self.set_idle(true);
            let idle_deadline = Instant::now() + options.idle_timeout;
            match self.fill(idle_deadline) {
                Ok(0) | Err(_) => return Err(Unread::Close),
                Ok(_) => {}
            }
        }
        self.set_idle(false);
        let deadline = Instant::now() + request_timeout;
        let late = || Unread::Refused(refuse(408, "the request did not arrive in time"));
        let (head, used) = loop {
            match parse_head(&self.buffer, max_head, max_body, self.shared.responder.methods()) {
                Ok(Some(parsed)) => break parsed,
                Ok(None) => {}
                Err(refusal) => return Err(Unread::Refused(refusal)),
            }
            match self.fill(deadline) {
                Ok(0) | Err(false) => return Err(Unread::Close),
                Ok(_) => {}
                Err(true) => return Err(late()),
            }
        };
        self.buffer.drain(..used);
        if let Some(origin) = head.origin.as_deref().filter(|o| !self.shared.responder.allows_origin(o)) {
            return Err(Unread::Refused(refuse(403, format!("requests from the origin {origin:?} are not served"))));
        }
        if head.expects_continue && self.buffer.len() < head.body_length {
            let _ = self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        while self.buffer.len() < head.body_length {
            match self.fill(deadline) {
                Ok(0) | Err(false) => return Err(Unread::Close),
                Ok(_) => {}
                Err(true) => return Err(late()),
            }
        }
        let rest = self.buffer.split_off(head.body_length);
        let body = std::mem::replace(&mut self.buffer, rest);
        Ok((head.method, body, head.keep_alive))
    }

    /// Stops sending, and drains for a moment what the client still sends (at most
    /// [`LINGER_BYTES`], into a fixed buffer), so that closing with bytes unread does not reset
    /// the connection before the client has read the answer.
    fn linger(self) {
        let _ = self.stream.shutdown(Shutdown::Write);
        let deadline = Instant::now() + LINGER;
        let mut chunk = [0u8; 8 * 1024];
        let mut drained = 0;
        while drained < LINGER_BYTES {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || self.stream.set_read_timeout(Some(left)).is_err() {
                return;
            }
            match (&self.stream).read(&mut chunk) {
                Ok(0) | Err(_) => return,
                Ok(n) => drained += n,
            }
        }
    }
}

/// The head at the start of `bytes` and its length, `None` if it is not all there yet.
fn parse_head(
    bytes: &[u8],
    max_head: usize,
    max_body: usize,
    methods: &[&str],
) -> Result<Option<(Head, usize)>, Refusal> {
    let too_large = || refuse(431, format!("the request head is longer than {max_head} bytes"));
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    let used = match request.parse(bytes) {
        Ok(httparse::Status::Complete(used)) if used <= max_head => used,
        Ok(httparse::Status::Complete(_)) => return Err(too_large()),
        Ok(httparse::Status::Partial) if bytes.len() > max_head => return Err(too_large()),
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(refuse(431, format!("the request has more than {MAX_HEADERS} headers")));
        }
        Err(e) => return Err(refuse(400, format!("the request is not HTTP/1.1: {e}"))),
    };
    let method = request.method.unwrap_or_default();
    if !methods.contains(&method) {
        return Err(refuse(405, format!("{method} is not served: POST one request as the body")));
    }
    let values = |name: &str| {
        request.headers.iter().filter(move |h| h.name.eq_ignore_ascii_case(name)).map(|h| h.value).collect::<Vec<_>>()
    };
    if !values("Transfer-Encoding").is_empty() {
        return Err(refuse(501, "chunked bodies are not supported: send a Content-Length"));
    }
    let origin = values("Origin").first().map(|o| String::from_utf8_lossy(o).into_owned());
    let lengths = values("Content-Length");
    let Some(first) = lengths.first() else {
        if method != "POST" {
            let keep_alive = request.version != Some(0);
            let head = Head { method: method.to_string(), origin, body_length: 0, keep_alive, expects_continue: false };
            return Ok(Some((head, used)));
        }
        return Err(refuse(411, "a Content-Length is required"));
    };
    let digits = std::str::from_utf8(first).unwrap_or("").trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || lengths.iter().any(|l| l != first) {
        return Err(refuse(400, "bad Content-Length"));
    }
    // Any length with more digits than usize can hold is longer than the cap.
    let body_length = digits.parse::<usize>().unwrap_or(usize::MAX);
    if body_length > max_body {
        return Err(refuse(413, format!("the body is longer than {max_body} bytes")));
    }
    let has_token = |name: &str, token: &str| {
        values(name)
            .iter()
            .any(|v| std::str::from_utf8(v).unwrap_or("").split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    };
    let keep_alive = if request.version == Some(0) {
        has_token("Connection", "keep-alive")
    } else {
        !has_token("Connection", "close")
    };
    let expects_continue = has_token("Expect", "100-continue");
    Ok(Some((Head { method: method.to_string(), origin, body_length, keep_alive, expects_continue }, used)))
}

fn response_bytes(status: u16, headers: &[(&str, String)], body: &[u8], close: bool) -> Vec<u8> {
    let reason = match status {
        200 => "OK",
        202 => "Accepted",
        403 => "Forbidden",
        400 => "Bad Request",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "",
    };
    let connection = if close { "Connection: close\r\n" } else { "" };
    let content_type = if body.is_empty() { "" } else { "Content-Type: application/json\r\n" };
    let mut head = format!("HTTP/1.1 {status} {reason}\r\n{content_type}Content-Length: {}\r\n", body.len());
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    let mut bytes = format!("{head}{connection}\r\n").into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

impl<T: Target + Send + 'static> Responder for Protocol<T> {
    fn respond(&self, _method: &str, body: &[u8]) -> Response {
        let mut server = lock(&self.server);
        let handled = server.handle_bytes(body);
        if handled.stop {
            *server = Server::new((self.make)());
        }
        let status = if handled.malformed { 400 } else { 200 };
        Response { status, headers: Vec::new(), body: serde_json::to_vec(&handled.response).unwrap_or_default() }
    }
}

fn error_body(why: &str) -> Vec<u8> {
    serde_json::to_vec(&Answer::Failed(why.to_string()).to_json(None)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(bytes: &[u8]) -> Result<Option<(Head, usize)>, Refusal> {
        parse_head(bytes, 64, 1000, &["POST"])
    }

    #[test]
    fn heads_are_read_within_their_caps() {
        let status = |bytes: &[u8]| head(bytes).err().map(|r| r.status);
        assert!(head(b"POST / HTTP/1.1\r\nContent-Le").unwrap().is_none());
        let (parsed, used) = head(b"POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc").unwrap().unwrap();
        assert_eq!((parsed.body_length, parsed.keep_alive, used), (3, true, 38));
        assert!(!head(b"POST / HTTP/1.0\r\nContent-Length: 0\r\n\r\n").unwrap().unwrap().0.keep_alive);
        assert_eq!(status(&[b'x'; 65]), Some(431));
        assert_eq!(status(b"POST / HTTP/1.1\r\nContent-Length: 1000000000000000000000000\r\n\r\n"), Some(413));
        assert_eq!(status(b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"), Some(400));
        assert_eq!(status(b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"), Some(400));
        assert_eq!(status(b"GET / HTTP/1.1\r\n\r\n"), Some(405));
    }
}
