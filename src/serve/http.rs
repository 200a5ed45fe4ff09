//! `tool-conformance serve --http`: a [`Server`] behind a small HTTP/1.1 server on std::net.
//!
//! Every POST body is one request and the response body is its answer, whatever the path. The
//! server is built to be left running next to a harness, and to be hit by many at once:
//! - it binds to loopback unless told otherwise ([`bind_address`]);
//! - connections are kept alive; each has its own thread, and at most
//!   [`HttpOptions::max_connections`] are served at once (more are answered 503);
//! - a request's head and body must arrive within [`HttpOptions::request_timeout`], an idle kept-alive
//!   connection is closed after [`HttpOptions::idle_timeout`], and a client that does not read
//!   its response is cut off after [`HttpOptions::write_timeout`], so slow clients hold nothing;
//! - bodies are capped ([`HttpOptions::max_body`]: 413), a body needs a Content-Length (411;
//!   chunked bodies are 501), and anything malformed (HTTP, JSON, or protocol) is a 4xx whose body
//!   is a JSON error response `{"seq", "error"}`.
//!
//! All connections share one registry (one [`Server`]); `stop` answers and then resets it to a
//! fresh target, and the server stays up.

use super::Server;
use crate::protocol::Answer;
use crate::target::Target;
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Limits of the HTTP server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// The largest body accepted, in bytes.
    pub max_body: usize,
    /// The largest request head (request line and headers), in bytes.
    pub max_head: usize,
    /// How long a request may take to arrive, from its first byte to its last.
    pub request_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request.
    pub idle_timeout: Duration,
    /// How long writing a response may take.
    pub write_timeout: Duration,
    /// How many connections are served at once.
    pub max_connections: usize,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            max_body: 4 * 1024 * 1024,
            max_head: 16 * 1024,
            request_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(10),
            max_connections: 128,
        }
    }
}

/// The address `serve --http` binds to: `PORT` alone means `127.0.0.1:PORT`; otherwise
/// `HOST:PORT` (a name is resolved, loopback first).
pub fn bind_address(text: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    let mut addresses: Vec<SocketAddr> =
        text.to_socket_addrs().map_err(|e| format!("{text:?} is not PORT or HOST:PORT ({e})"))?.collect();
    addresses.sort_by_key(|a| !a.ip().is_loopback());
    addresses.into_iter().next().ok_or_else(|| format!("{text:?} resolves to no address"))
}

/// Serves on `listener` until the process ends, with targets made by `make`.
pub fn serve<T, F>(listener: TcpListener, make: F, options: HttpOptions) -> std::io::Result<()>
where
    T: Target + Send + 'static,
    F: Fn() -> T + Send + Sync + 'static,
{
    let shared = Arc::new(Shared {
        server: Mutex::new(Server::new(make())),
        make: Box::new(make),
        options,
        open: AtomicUsize::new(0),
    });
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(stream) => stream,
            Err(_) => {
                // Out of file descriptors, or a connection reset before accept: wait, go on.
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        if shared.open.fetch_add(1, Ordering::SeqCst) >= shared.options.max_connections {
            shared.open.fetch_sub(1, Ordering::SeqCst);
            let mut stream = stream;
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = write_response(&mut stream, 503, &error_body("too many connections; try again"), true);
            continue;
        }
        let shared = Arc::clone(&shared);
        let spawned = std::thread::Builder::new().name("serve-http".into()).spawn(move || {
            let _guard = OpenGuard(&shared.open);
            connection(stream, &shared);
        });
        if spawned.is_err() {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    Ok(())
}

struct Shared<T: Target> {
    server: Mutex<Server<T>>,
    make: Box<dyn Fn() -> T + Send + Sync>,
    options: HttpOptions,
    open: AtomicUsize,
}

struct OpenGuard<'a>(&'a AtomicUsize);

impl Drop for OpenGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A request that cannot be served: its status and why.
struct Refusal {
    status: u16,
    why: String,
}

fn refuse(status: u16, why: impl Into<String>) -> Refusal {
    Refusal { status, why: why.into() }
}

/// A request read off a connection.
struct HttpRequest {
    body: Vec<u8>,
    keep_alive: bool,
}

fn connection<T: Target>(mut stream: TcpStream, shared: &Shared<T>) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(shared.options.write_timeout));
    let mut pending = Vec::new();
    loop {
        match read_request(&mut stream, &mut pending, &shared.options) {
            Ok(None) => return,
            Ok(Some(request)) => {
                let (status, body) = answer(shared, &request.body);
                if write_response(&mut stream, status, &body, !request.keep_alive).is_err() || !request.keep_alive {
                    return;
                }
            }
            Err(refusal) => {
                let _ = write_response(&mut stream, refusal.status, &error_body(&refusal.why), true);
                return;
            }
        }
    }
}

fn answer<T: Target>(shared: &Shared<T>, body: &[u8]) -> (u16, Vec<u8>) {
    let mut server = match shared.server.lock() {
        Ok(server) => server,
        Err(poisoned) => poisoned.into_inner(),
    };
    let handled = server.handle_bytes(body);
    if handled.stop {
        *server = Server::new((shared.make)());
    }
    let status = if handled.malformed { 400 } else { 200 };
    (status, serde_json::to_vec(&handled.response).unwrap_or_default())
}

fn error_body(why: &str) -> Vec<u8> {
    serde_json::to_vec(&Answer::Failed(why.to_string()).to_json(None)).unwrap_or_default()
}

/// Reads one request; `Ok(None)` when the client closed the connection or stayed idle too long.
/// `pending` holds bytes read past the previous request.
fn read_request(
    stream: &mut TcpStream,
    pending: &mut Vec<u8>,
    options: &HttpOptions,
) -> Result<Option<HttpRequest>, Refusal> {
    let mut deadline = if pending.is_empty() { None } else { Some(Instant::now() + options.request_timeout) };
    let (head_len, content_length, keep_alive, expects_continue) = loop {
        if !pending.is_empty() {
            let mut headers = [httparse::EMPTY_HEADER; 32];
            let mut request = httparse::Request::new(&mut headers);
            match request.parse(pending) {
                Ok(httparse::Status::Complete(head_len)) => break head_facts(&request, head_len)?,
                Ok(httparse::Status::Partial) => {}
                Err(httparse::Error::TooManyHeaders) => return Err(refuse(431, "more than 32 headers")),
                Err(e) => return Err(refuse(400, format!("malformed HTTP request: {e}"))),
            }
            if pending.len() > options.max_head {
                return Err(refuse(431, format!("the request head is longer than {} bytes", options.max_head)));
            }
        }
        match read_some(stream, pending, deadline, options.idle_timeout)? {
            0 if pending.is_empty() => return Ok(None),
            0 => return Err(refuse(400, "the connection closed in the middle of a request")),
            _ => deadline = deadline.or_else(|| Some(Instant::now() + options.request_timeout)),
        }
    };
    if content_length > options.max_body {
        return Err(refuse(413, format!("the body is longer than {} bytes", options.max_body)));
    }
    if expects_continue && pending.len() < head_len + content_length {
        let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    while pending.len() < head_len + content_length {
        if read_some(stream, pending, deadline, options.idle_timeout)? == 0 {
            return Err(refuse(400, "the connection closed before the whole body arrived"));
        }
    }
    let body = pending[head_len..head_len + content_length].to_vec();
    pending.drain(..head_len + content_length);
    Ok(Some(HttpRequest { body, keep_alive }))
}

/// What the head says: its length, the body's length, keep-alive, and `Expect: 100-continue`.
fn head_facts(request: &httparse::Request<'_, '_>, head_len: usize) -> Result<(usize, usize, bool, bool), Refusal> {
    let method = request.method.unwrap_or_default();
    if method != "POST" {
        return Err(refuse(405, format!("{method} is not served: POST one protocol v1 request as the body")));
    }
    let header = |name: &str| {
        request
            .headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| String::from_utf8_lossy(h.value).trim().to_ascii_lowercase())
    };
    if header("transfer-encoding").is_some() {
        return Err(refuse(501, "chunked bodies are not supported: send a Content-Length"));
    }
    let content_length = match header("content-length") {
        None => return Err(refuse(411, "a Content-Length is required")),
        Some(value) => value.parse::<usize>().map_err(|_| refuse(400, format!("bad Content-Length {value:?}")))?,
    };
    let connection = header("connection").unwrap_or_default();
    let keep_alive = match request.version {
        Some(1) => !connection.contains("close"),
        _ => connection.contains("keep-alive"),
    };
    let expects_continue = header("expect").is_some_and(|e| e == "100-continue");
    Ok((head_len, content_length, keep_alive, expects_continue))
}

/// Reads what is there into `pending`, waiting until `deadline` (or `idle` when no request has
/// begun). `Ok(0)` is the end of the connection, or an idle timeout between requests.
fn read_some(
    stream: &mut TcpStream,
    pending: &mut Vec<u8>,
    deadline: Option<Instant>,
    idle: Duration,
) -> Result<usize, Refusal> {
    let wait = match deadline {
        None => idle,
        Some(deadline) => deadline.saturating_duration_since(Instant::now()),
    };
    if wait.is_zero() {
        return Err(refuse(408, "the request did not arrive in time"));
    }
    let _ = stream.set_read_timeout(Some(wait));
    let mut chunk = [0u8; 16 * 1024];
    loop {
        match stream.read(&mut chunk) {
            Ok(n) => {
                pending.extend_from_slice(&chunk[..n]);
                return Ok(n);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                return match deadline {
                    None => Ok(0),
                    Some(_) => Err(refuse(408, "the request did not arrive in time")),
                };
            }
            Err(_) => return Ok(0),
        }
    }
}

fn write_response(stream: &mut TcpStream, status: u16, body: &[u8], close: bool) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Error",
    };
    let mut head =
        format!("HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n", body.len());
    if status == 405 {
        head.push_str("Allow: POST\r\n");
    }
    head.push_str(if close { "Connection: close\r\n\r\n" } else { "Connection: keep-alive\r\n\r\n" });
    let mut message = head.into_bytes();
    message.extend_from_slice(body);
    stream.write_all(&message)?;
    stream.flush()
}
