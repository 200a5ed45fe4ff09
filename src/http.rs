//! An implementation already serving protocol v1 over HTTP: [`HttpChannel`], and [`HttpTarget`],
//! the [`Remote`] over it.
//!
//! Each request is POSTed as the body (`Content-Type: application/json`) to the one URL given;
//! the response body is the response object. Connections are kept alive between requests. Every
//! request is bounded by the timeout from connecting to the last body byte, the body read is
//! capped, and a status other than 200 is an error that quotes the start of the body. A server
//! cannot be restarted from here: "restarting" it means a fresh connection, `start` again, and
//! the registered tools sent again.
//!
//! The client is a small HTTP/1.1 client of its own on [`TcpStream`] (responses are read with
//! httparse): the request's head and body go out in one write, a response body may come with a
//! Content-Length, chunked, or up to the end of the connection, and a kept-alive connection is
//! checked before it is used again (one `poll(2)` that does not wait), so one the server closed
//! in the meantime is replaced by a fresh one. Doing this here rather than through a general client is what keeps a
//! request on loopback close to the cost of the round trip (see docs/performance.md).

use crate::config::{HttpUrl, Limits};
use crate::remote::{Channel, ChannelError, Remote};
use crate::transcript::WireLog;
use rustix::event::{PollFd, PollFlags, Timespec};
use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// The protocol over HTTP.
pub type HttpTarget = Remote<HttpChannel>;

impl HttpTarget {
    /// A target that POSTs to `url`, within `limits`, recording into `log`.
    pub fn connect(url: HttpUrl, limits: Limits, log: WireLog) -> HttpTarget {
        let channel = HttpChannel::new(url, limits.max_response_bytes);
        Remote::new(channel, limits, log)
    }
}

/// How much of an error body is quoted.
const QUOTED_BODY_BYTES: usize = 2048;
/// The longest response head read (status line and headers).
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// The most response headers read.
const MAX_HEADERS: usize = 64;
/// How much one read takes.
const READ_CHUNK: usize = 16 * 1024;

/// Protocol v1 requests POSTed to one URL.
pub struct HttpChannel {
    url: HttpUrl,
    max_body: usize,
    endpoint: Option<Endpoint>,
    connection: Option<Connection>,
    /// The request being sent, head and body (reused from request to request).
    request: Vec<u8>,
}

/// Where the requests go, read from the URL once.
struct Endpoint {
    host: String,
    port: u16,
    /// The request target: the URL's path and query.
    path: String,
    /// The `Host` header: the URL's authority.
    authority: String,
    /// The host's addresses, resolved once per open.
    addresses: Option<Vec<SocketAddr>>,
}

/// A connection to the server, and what was read from it past the last response.
struct Connection {
    stream: TcpStream,
    buffer: Vec<u8>,
    chunk: Box<[u8]>,
}

impl HttpChannel {
    /// A channel to `url`, reading response bodies of at most `max_body` bytes.
    pub fn new(url: HttpUrl, max_body: usize) -> HttpChannel {
        HttpChannel { url, max_body, endpoint: None, connection: None, request: Vec::new() }
    }

    fn endpoint(&mut self) -> Result<&mut Endpoint, ChannelError> {
        if self.endpoint.is_none() {
            let uri: ureq::http::Uri =
                self.url.as_str().parse().map_err(|_| ChannelError::Unreachable("the URL does not parse".into()))?;
            let host = uri.host().unwrap_or_default().trim_start_matches('[').trim_end_matches(']').to_string();
            let port = uri.port_u16().unwrap_or(80);
            let path = uri.path_and_query().map(|p| p.as_str()).filter(|p| !p.is_empty()).unwrap_or("/").to_string();
            let authority = uri.authority().map(|a| a.as_str().to_string()).unwrap_or_else(|| host.clone());
            self.endpoint = Some(Endpoint { host, port, path, authority, addresses: None });
        }
        Ok(self.endpoint.as_mut().expect("set above"))
    }

    /// A fresh connection, within the deadline.
    fn connect(&mut self, deadline: Instant, timeout: Duration) -> Result<Connection, ChannelError> {
        let endpoint = self.endpoint()?;
        if endpoint.addresses.is_none() {
            let addresses: Vec<SocketAddr> = match endpoint.host.parse::<IpAddr>() {
                Ok(ip) => vec![SocketAddr::new(ip, endpoint.port)],
                Err(_) => (endpoint.host.as_str(), endpoint.port)
                    .to_socket_addrs()
                    .map_err(|e| ChannelError::Unreachable(format!("the host was not found ({e})")))?
                    .collect(),
            };
            if addresses.is_empty() {
                return Err(ChannelError::Unreachable("the host was not found".into()));
            }
            endpoint.addresses = Some(addresses);
        }
        let mut last = None;
        for address in endpoint.addresses.iter().flatten() {
            let left = remaining(deadline).ok_or(ChannelError::Timeout(timeout))?;
            match TcpStream::connect_timeout(address, left) {
                Ok(stream) => {
                    let _ = stream.set_nodelay(true);
                    return Ok(Connection {
                        stream,
                        buffer: Vec::new(),
                        chunk: vec![0; READ_CHUNK].into_boxed_slice(),
                    });
                }
                Err(e) => last = Some(e),
            }
        }
        Err(match last {
            Some(e) if e.kind() == ErrorKind::ConnectionRefused => {
                ChannelError::Unreachable(format!("connection refused ({e})"))
            }
            Some(e) if matches!(e.kind(), ErrorKind::TimedOut | ErrorKind::WouldBlock) => {
                ChannelError::Timeout(timeout)
            }
            Some(e) => ChannelError::Unreachable(format!("the connection failed ({e})")),
            None => ChannelError::Unreachable("the connection failed".into()),
        })
    }

    /// The request's head and body, in one buffer.
    fn build_request(&mut self, body: &[u8]) -> Result<(), ChannelError> {
        self.endpoint()?;
        let Some(endpoint) = self.endpoint.as_ref() else {
            return Err(ChannelError::Unreachable("the URL does not parse".into()));
        };
        let request = &mut self.request;
        request.clear();
        request.extend_from_slice(b"POST ");
        request.extend_from_slice(endpoint.path.as_bytes());
        request.extend_from_slice(b" HTTP/1.1\r\nHost: ");
        request.extend_from_slice(endpoint.authority.as_bytes());
        request.extend_from_slice(
            concat!(
                "\r\nUser-Agent: tool-conformance/",
                env!("CARGO_PKG_VERSION"),
                "\r\nAccept: */*\r\nContent-Type: application/json\r\nContent-Length: "
            )
            .as_bytes(),
        );
        request.extend_from_slice(body.len().to_string().as_bytes());
        request.extend_from_slice(b"\r\n\r\n");
        request.extend_from_slice(body);
        Ok(())
    }

    /// One request on `connection`; `Ok((body, keep))`, where `keep` says whether the
    /// connection can carry another.
    fn send(
        &self,
        connection: &mut Connection,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(Vec<u8>, bool), ChannelError> {
        let left = remaining(deadline).ok_or(ChannelError::Timeout(timeout))?;
        let _ = connection.stream.set_write_timeout(Some(left));
        connection.stream.write_all(&self.request).map_err(|e| io_error(e, timeout))?;
        let head = connection.read_head(deadline, timeout)?;
        if head.status != 200 {
            let start = connection.read_body(&head, QUOTED_BODY_BYTES, true, deadline, timeout).unwrap_or_default();
            let body = String::from_utf8_lossy(&start).into_owned();
            return Err(ChannelError::Status { status: head.status, body });
        }
        let body = connection.read_body(&head, self.max_body, false, deadline, timeout)?;
        Ok((body, head.keep_alive && head.framed))
    }
}

/// What a response head says.
struct Head {
    status: u16,
    content_length: Option<usize>,
    chunked: bool,
    keep_alive: bool,
    /// Whether the body's end is known without the connection closing.
    framed: bool,
}

fn remaining(deadline: Instant) -> Option<Duration> {
    let left = deadline.saturating_duration_since(Instant::now());
    (!left.is_zero()).then_some(left)
}

fn io_error(e: std::io::Error, timeout: Duration) -> ChannelError {
    match e.kind() {
        ErrorKind::TimedOut | ErrorKind::WouldBlock => ChannelError::Timeout(timeout),
        ErrorKind::ConnectionRefused => ChannelError::Unreachable(format!("connection refused ({e})")),
        _ => ChannelError::Io(format!("HTTP I/O failed: {e}")),
    }
}

impl Connection {
    /// Whether a kept-alive connection can take another request: the server has not closed it,
    /// nor sent anything nobody asked for (one `poll(2)` that does not wait).
    fn is_open(&self) -> bool {
        let mut fds = [PollFd::new(&self.stream, PollFlags::IN)];
        let now = Timespec { tv_sec: 0, tv_nsec: 0 };
        self.buffer.is_empty() && matches!(rustix::event::poll(&mut fds, Some(&now)), Ok(0))
    }

    /// Reads more into the buffer, waiting at most until `deadline`; `Ok(0)` at the end of the
    /// connection.
    fn fill(&mut self, deadline: Instant, timeout: Duration) -> Result<usize, ChannelError> {
        // An answer that comes within the spin is read without sleeping for it.
        let _ = crate::readiness::spin_until_readable(&self.stream, deadline);
        loop {
            let left = remaining(deadline).ok_or(ChannelError::Timeout(timeout))?;
            let _ = self.stream.set_read_timeout(Some(left));
            match self.stream.read(&mut self.chunk) {
                Ok(n) => {
                    self.buffer.extend_from_slice(&self.chunk[..n]);
                    return Ok(n);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(io_error(e, timeout)),
            }
        }
    }

    /// Reads a response head (skipping any 1xx), leaving the body's first bytes in the buffer.
    fn read_head(&mut self, deadline: Instant, timeout: Duration) -> Result<Head, ChannelError> {
        loop {
            if self.buffer.is_empty() && self.fill(deadline, timeout)? == 0 {
                return Err(ChannelError::Io(
                    "HTTP I/O failed: the server closed the connection without a response".into(),
                ));
            }
            let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
            let mut response = httparse::Response::new(&mut headers);
            match response.parse(&self.buffer) {
                Ok(httparse::Status::Complete(length)) => {
                    let status = response.code.unwrap_or(0);
                    let head = head_facts(&response, status);
                    self.buffer.drain(..length);
                    if (100..200).contains(&status) {
                        continue;
                    }
                    return head;
                }
                Ok(httparse::Status::Partial) => {}
                Err(e) => {
                    let start = String::from_utf8_lossy(&self.buffer[..self.buffer.len().min(80)]).into_owned();
                    return Err(ChannelError::Io(format!("the response is not HTTP ({e}); it began {start:?}")));
                }
            }
            if self.buffer.len() > MAX_HEAD_BYTES {
                return Err(ChannelError::Io(format!("the response head is longer than {MAX_HEAD_BYTES} bytes")));
            }
            if self.fill(deadline, timeout)? == 0 {
                return Err(ChannelError::Io(if self.buffer.is_empty() {
                    "HTTP I/O failed: the server closed the connection without a response".into()
                } else {
                    "HTTP I/O failed: the server closed the connection in the middle of the response head".into()
                }));
            }
        }
    }

    /// Reads the body the head announces, at most `max` bytes of it: more is an error, or with
    /// `truncate` the rest is not read.
    fn read_body(
        &mut self,
        head: &Head,
        max: usize,
        truncate: bool,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<Vec<u8>, ChannelError> {
        let too_large = |have: usize| -> Result<(), ChannelError> {
            if have > max && !truncate { Err(ChannelError::TooLarge(max)) } else { Ok(()) }
        };
        if head.chunked {
            return self.read_chunked(max, truncate, deadline, timeout);
        }
        match head.content_length {
            Some(length) => {
                too_large(length)?;
                let wanted = length.min(max);
                while self.buffer.len() < wanted {
                    if self.fill(deadline, timeout)? == 0 {
                        return Err(ChannelError::Io(format!(
                            "HTTP I/O failed: the connection closed after {} of the body's {length} bytes",
                            self.buffer.len()
                        )));
                    }
                }
                Ok(self.buffer.drain(..wanted).collect())
            }
            None => {
                // The body ends with the connection.
                loop {
                    if self.buffer.len() > max {
                        too_large(self.buffer.len())?;
                        self.buffer.truncate(max);
                        return Ok(std::mem::take(&mut self.buffer));
                    }
                    if self.fill(deadline, timeout)? == 0 {
                        return Ok(std::mem::take(&mut self.buffer));
                    }
                }
            }
        }
    }

    /// A chunked body, decoded.
    fn read_chunked(
        &mut self,
        max: usize,
        truncate: bool,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<Vec<u8>, ChannelError> {
        let closed =
            || ChannelError::Io("HTTP I/O failed: the connection closed in the middle of a chunked body".into());
        let mut body = Vec::new();
        loop {
            let line = loop {
                if let Some(at) = self.buffer.windows(2).position(|w| w == b"\r\n") {
                    break at;
                }
                if self.buffer.len() > 1024 {
                    return Err(ChannelError::Io("a chunk size line of the response is too long".into()));
                }
                if self.fill(deadline, timeout)? == 0 {
                    return Err(closed());
                }
            };
            let text = String::from_utf8_lossy(&self.buffer[..line]).into_owned();
            let digits = text.split(';').next().unwrap_or_default().trim();
            let size = usize::from_str_radix(digits, 16)
                .map_err(|_| ChannelError::Io(format!("the response has a bad chunk size {digits:?}")))?;
            self.buffer.drain(..line + 2);
            if size == 0 {
                // Trailers, up to an empty line.
                loop {
                    match self.buffer.windows(2).position(|w| w == b"\r\n") {
                        Some(0) => {
                            self.buffer.drain(..2);
                            return Ok(body);
                        }
                        Some(at) => {
                            self.buffer.drain(..at + 2);
                        }
                        None => {
                            if self.buffer.len() > MAX_HEAD_BYTES {
                                return Err(ChannelError::Io("the response's trailers are too long".into()));
                            }
                            if self.fill(deadline, timeout)? == 0 {
                                return Err(closed());
                            }
                        }
                    }
                }
            }
            if body.len() + size > max {
                if !truncate {
                    return Err(ChannelError::TooLarge(max));
                }
                let room = max - body.len();
                while self.buffer.len() < room {
                    if self.fill(deadline, timeout)? == 0 {
                        break;
                    }
                }
                let take = room.min(self.buffer.len());
                body.extend(self.buffer.drain(..take));
                return Ok(body);
            }
            while self.buffer.len() < size + 2 {
                if self.fill(deadline, timeout)? == 0 {
                    return Err(closed());
                }
            }
            body.extend_from_slice(&self.buffer[..size]);
            self.buffer.drain(..size + 2);
        }
    }
}

/// The facts of a parsed response head.
fn head_facts(response: &httparse::Response<'_, '_>, status: u16) -> Result<Head, ChannelError> {
    let mut content_length = None;
    let mut chunked = false;
    let mut connection_close = false;
    let mut connection_keep_alive = false;
    for header in response.headers.iter() {
        let value = std::str::from_utf8(header.value).unwrap_or_default().trim();
        if header.name.eq_ignore_ascii_case("content-length") {
            let length = value
                .parse::<usize>()
                .map_err(|_| ChannelError::Io(format!("the response has a bad Content-Length {value:?}")))?;
            content_length = Some(length);
        } else if header.name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.to_ascii_lowercase().split(',').any(|coding| coding.trim() == "chunked");
        } else if header.name.eq_ignore_ascii_case("connection") {
            let value = value.to_ascii_lowercase();
            connection_close |= value.split(',').any(|token| token.trim() == "close");
            connection_keep_alive |= value.split(',').any(|token| token.trim() == "keep-alive");
        }
    }
    let keep_alive = match response.version {
        Some(1) => !connection_close,
        _ => connection_keep_alive && !connection_close,
    };
    // 204 and 304 have no body whatever the headers say.
    let empty = status == 204 || status == 304 || (100..200).contains(&status);
    let content_length = if empty { Some(0) } else { content_length };
    let chunked = chunked && !empty;
    Ok(Head { status, content_length, chunked, keep_alive, framed: chunked || content_length.is_some() })
}

impl Channel for HttpChannel {
    fn open(&mut self) -> Result<(), ChannelError> {
        self.connection = None;
        self.endpoint = None;
        Ok(())
    }

    fn exchange(&mut self, request: &[u8], timeout: Duration) -> Result<Vec<u8>, ChannelError> {
        let deadline = Instant::now() + timeout;
        self.build_request(request)?;
        let mut connection = match self.connection.take() {
            Some(connection) if connection.is_open() => connection,
            _ => self.connect(deadline, timeout)?,
        };
        let (body, keep) = self.send(&mut connection, deadline, timeout)?;
        if keep {
            self.connection = Some(connection);
        }
        Ok(body)
    }

    fn close(&mut self) {
        self.connection = None;
    }

    fn is_stream(&self) -> bool {
        false
    }

    fn describe(&self) -> String {
        // Not the URL: its port changes from one run to the next, and with several `--http` URLs
        // which one answered depends on how the cases were spread.
        "the --http URL (over HTTP)".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;
    use std::net::TcpListener;

    /// A server on a loopback thread that answers each request with the next of `responses`
    /// (raw bytes), closing the connection after the ones marked so.
    fn server(responses: Vec<(&'static [u8], bool)>) -> HttpChannel {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = HttpUrl::parse(&format!("http://{}/rpc", listener.local_addr().unwrap())).unwrap();
        std::thread::spawn(move || {
            let mut responses = responses.into_iter();
            'connections: for stream in listener.incoming().flatten() {
                let mut reader = std::io::BufReader::new(stream.try_clone().unwrap());
                let mut writer = stream;
                loop {
                    let mut length = 0;
                    loop {
                        let mut line = String::new();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            continue 'connections;
                        }
                        if line.trim().is_empty() {
                            break;
                        }
                        if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                            length = value.trim().parse().unwrap();
                        }
                    }
                    let mut body = vec![0; length];
                    reader.read_exact(&mut body).unwrap();
                    let Some((response, close)) = responses.next() else { return };
                    writer.write_all(response).unwrap();
                    if close {
                        continue 'connections;
                    }
                }
            }
        });
        HttpChannel::new(url, 64)
    }

    fn exchange(channel: &mut HttpChannel) -> Result<Vec<u8>, ChannelError> {
        channel.exchange(b"{}", Duration::from_secs(5))
    }

    #[test]
    fn bodies_by_length_chunked_and_to_the_end() {
        let mut channel = server(vec![
            (b"HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n{\"a\":1}", false),
            (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"b\r\n4;x=y\r\n\":2}\r\n0\r\nT: 1\r\n\r\n", false),
            (b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{\"c\":3}", true),
            (b"HTTP/1.1 500 Oops\r\nContent-Length: 4\r\n\r\nbang", false),
            (b"HTTP/1.1 200 OK\r\nContent-Length: 65\r\n\r\n", false),
            (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n41\r\n", false),
            (b"nonsense\r\n\r\n", false),
        ]);
        assert_eq!(exchange(&mut channel).unwrap(), b"{\"a\":1}");
        assert_eq!(exchange(&mut channel).unwrap(), b"{\"b\":2}");
        assert_eq!(exchange(&mut channel).unwrap(), b"{\"c\":3}");
        assert_eq!(exchange(&mut channel), Err(ChannelError::Status { status: 500, body: "bang".into() }));
        assert_eq!(exchange(&mut channel), Err(ChannelError::TooLarge(64)));
        channel.close();
        assert_eq!(exchange(&mut channel), Err(ChannelError::TooLarge(64)));
        channel.close();
        let error = exchange(&mut channel).unwrap_err().to_string();
        assert!(error.contains("not HTTP"), "{error}");
    }

    #[test]
    fn a_dropped_kept_alive_connection_is_replaced() {
        // The server closes after the first response without saying so.
        let mut channel = server(vec![
            (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", true),
            (b"HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n{\"n\":2}", false),
        ]);
        assert_eq!(exchange(&mut channel).unwrap(), b"{}");
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(exchange(&mut channel).unwrap(), b"{\"n\":2}");
    }

    #[test]
    fn no_answer_is_a_timeout_and_no_server_is_refused() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = HttpUrl::parse(&format!("http://{}/", listener.local_addr().unwrap())).unwrap();
        let mut channel = HttpChannel::new(url, 64);
        let timeout = Duration::from_millis(100);
        assert_eq!(channel.exchange(b"{}", timeout), Err(ChannelError::Timeout(timeout)));
        drop(listener);
        channel.close();
        let error = channel.exchange(b"{}", timeout).unwrap_err().to_string();
        assert!(error.contains("connection refused"), "{error}");
    }
}
