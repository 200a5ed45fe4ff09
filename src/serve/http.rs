//! `tool-conformance serve --http`: a [`Server`] behind tiny_http.
//!
//! Every POST body is one request and the response body is its answer, whatever the path. The
//! server is built to be left running next to a harness, and to be hit by many at once:
//! - it binds to loopback unless told otherwise ([`bind_address`]);
//! - connections are kept alive, each read by a thread of tiny_http's; at most
//!   [`HttpOptions::max_connections`] requests are served at once, by as many worker threads
//!   (more wait their turn);
//! - every read from a client waits at most [`HttpOptions::idle_timeout`] (an idle kept-alive
//!   connection is closed then, and a client that stops sending its head is answered 408), a body
//!   must arrive within [`HttpOptions::request_timeout`] (408), and a client that does not read
//!   its response is cut off after [`HttpOptions::write_timeout`], so slow clients hold nothing;
//!   tiny_http accepts connections itself, so these are set on the listening socket, whose
//!   accepted sockets inherit them (Linux);
//! - bodies are capped ([`HttpOptions::max_body`]: 413), a body needs a Content-Length (411;
//!   chunked bodies are 501), and a malformed body (JSON or protocol) is a 4xx whose body is a JSON
//!   error response `{"seq", "error"}`. A request tiny_http cannot read as HTTP at all it answers
//!   itself (400, 408 or 505, with no body) and closes the connection.
//!
//! All connections share one registry (one [`Server`]); `stop` answers and then resets it to a
//! fresh target, and the server stays up.

use super::Server;
use crate::peer::Target;
use crate::peer::protocol::Answer;
use rustix::net::sockopt::{Timeout, set_socket_timeout, set_tcp_nodelay};
use std::io::ErrorKind;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Limits of the HTTP server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// The largest body accepted, in bytes.
    pub max_body: usize,
    /// How long a request's body may take to arrive.
    pub request_timeout: Duration,
    /// How long one read from a client may wait: a kept-alive connection waiting for its next
    /// request, or a client that stopped sending.
    pub idle_timeout: Duration,
    /// How long one write of a response may wait.
    pub write_timeout: Duration,
    /// How many requests are served at once.
    pub max_connections: usize,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            max_body: 4 * 1024 * 1024,
            request_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(10),
            max_connections: 128,
        }
    }
}

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

/// A listener on `address` for [`serve`], its timeouts set at once: tiny_http accepts
/// connections itself, and what bounds each connection's reads and writes is what its socket
/// inherits from the listener when the connection is made (Linux), so a connection made before
/// these are set is not bounded.
pub fn listen(address: SocketAddr, options: &HttpOptions) -> std::io::Result<TcpListener> {
    let listener = TcpListener::bind(address)?;
    set_timeouts(&listener, options)?;
    Ok(listener)
}

fn set_timeouts(listener: &TcpListener, options: &HttpOptions) -> std::io::Result<()> {
    set_socket_timeout(listener, Timeout::Recv, Some(options.idle_timeout))?;
    set_socket_timeout(listener, Timeout::Send, Some(options.write_timeout))?;
    // tiny_http may write a response's head and body apart: without this, the body would wait
    // for the client's delayed acknowledgement of the head.
    set_tcp_nodelay(listener, true)?;
    Ok(())
}

/// Serves on `listener` (best made by [`listen`]) until the process ends, with targets made by
/// `make`.
pub fn serve<T, F>(listener: TcpListener, make: F, options: HttpOptions) -> std::io::Result<()>
where
    T: Target + Send + 'static,
    F: Fn() -> T + Send + Sync + 'static,
{
    let local = listener.local_addr()?;
    set_timeouts(&listener, &options)?;
    let http = tiny_http::Server::from_listener(listener, None).map_err(std::io::Error::other)?;
    keep_accepting(local, options.idle_timeout)?;
    let shared = Arc::new(Shared {
        http,
        server: Mutex::new(Server::new(make())),
        make: Box::new(make),
        options,
        workers: AtomicUsize::new(1),
        idle: AtomicUsize::new(0),
    });
    worker(&shared)
}

/// The listening socket's receive timeout bounds `accept(2)` too, and tiny_http stops serving
/// when an accept fails: a thread connects to it (and hangs up at once) well within every such
/// timeout, so an accept never waits that long.
fn keep_accepting(local: SocketAddr, idle: Duration) -> std::io::Result<()> {
    let address = match local.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), local.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => SocketAddr::new(IpAddr::V6(Ipv6Addr::LOCALHOST), local.port()),
        _ => local,
    };
    let every = (idle / 4).max(Duration::from_millis(10));
    std::thread::Builder::new().name("serve-http-accept".into()).spawn(move || {
        loop {
            std::thread::sleep(every);
            let _ = TcpStream::connect_timeout(&address, every);
        }
    })?;
    Ok(())
}

struct Shared<T: Target> {
    http: tiny_http::Server,
    server: Mutex<Server<T>>,
    make: Box<dyn Fn() -> T + Send + Sync>,
    options: HttpOptions,
    /// Worker threads running.
    workers: AtomicUsize,
    /// Worker threads waiting for a request.
    idle: AtomicUsize,
}

/// Takes requests and answers them, until tiny_http stops (its accept failed). A worker that
/// takes a request while no other waits starts another, up to the cap.
fn worker<T: Target + Send + 'static>(shared: &Arc<Shared<T>>) -> std::io::Result<()> {
    loop {
        shared.idle.fetch_add(1, Ordering::SeqCst);
        let request = shared.http.recv();
        shared.idle.fetch_sub(1, Ordering::SeqCst);
        let request = request?;
        if shared.idle.load(Ordering::SeqCst) == 0 {
            spawn_worker(shared);
        }
        handle(shared, request);
    }
}

fn spawn_worker<T: Target + Send + 'static>(shared: &Arc<Shared<T>>) {
    let running = shared.workers.fetch_add(1, Ordering::SeqCst);
    if running >= shared.options.max_connections.max(1) {
        shared.workers.fetch_sub(1, Ordering::SeqCst);
        return;
    }
    let worker_shared = Arc::clone(shared);
    let spawned = std::thread::Builder::new().name("serve-http".into()).spawn(move || {
        let _ = worker(&worker_shared);
        worker_shared.workers.fetch_sub(1, Ordering::SeqCst);
    });
    if spawned.is_err() {
        // Out of threads: the workers there are serve on.
        shared.workers.fetch_sub(1, Ordering::SeqCst);
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

fn handle<T: Target>(shared: &Shared<T>, mut request: tiny_http::Request) {
    let (status, body) = match read_body(&mut request, &shared.options) {
        Ok(body) => answer(shared, &body),
        Err(refusal) => (refusal.status, error_body(&refusal.why)),
    };
    let mut response = tiny_http::Response::from_data(body)
        .with_status_code(status)
        .with_chunked_threshold(usize::MAX)
        .with_header(header("Content-Type", "application/json"));
    if status == 405 {
        response.add_header(header("Allow", "POST"));
    }
    let _ = request.respond(response);
}

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

/// The request's body, within the limits.
fn read_body(request: &mut tiny_http::Request, options: &HttpOptions) -> Result<Vec<u8>, Refusal> {
    if *request.method() != tiny_http::Method::Post {
        let method = request.method().to_string();
        return Err(refuse(405, format!("{method} is not served: POST one protocol v1 request as the body")));
    }
    let has = |name: &'static str| request.headers().iter().any(|h| h.field.equiv(name));
    if has("Transfer-Encoding") {
        return Err(refuse(501, "chunked bodies are not supported: send a Content-Length"));
    }
    let Some(length) = request.body_length() else {
        return Err(refuse(
            if has("Content-Length") { 400 } else { 411 },
            if has("Content-Length") { "bad Content-Length" } else { "a Content-Length is required" },
        ));
    };
    if length > options.max_body {
        return Err(refuse(413, format!("the body is longer than {} bytes", options.max_body)));
    }
    let deadline = Instant::now() + options.request_timeout;
    let mut body = vec![0; length];
    let mut read = 0;
    let reader = request.as_reader();
    while read < length {
        if Instant::now() >= deadline {
            return Err(refuse(408, "the request did not arrive in time"));
        }
        match reader.read(&mut body[read..]) {
            Ok(0) => return Err(refuse(400, "the connection closed before the whole body arrived")),
            Ok(n) => read += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Err(refuse(408, "the request did not arrive in time"));
            }
            Err(_) => return Err(refuse(400, "the connection closed before the whole body arrived")),
        }
    }
    Ok(body)
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
