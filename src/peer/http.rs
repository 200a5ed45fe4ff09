//! An implementation already serving protocol v1 over HTTP: [`HttpChannel`], and [`HttpTarget`],
//! the [`Remote`] over it.
//!
//! Each request is POSTed as the body (`Content-Type: application/json`) to the one URL given;
//! the response body is the response object. The HTTP is ureq's: one [`ureq::Agent`] per
//! channel, which keeps the connection alive between requests (and replaces one the server
//! closed meanwhile). Every request is bounded by the timeout from connecting to the last body
//! byte, the body read is capped, and a status other than 200 is an error that quotes the start
//! of the body. A server cannot be restarted from here: "restarting" it means a fresh agent (so a
//! fresh connection), `start` again, and the registered tools sent again.
//!
//! Reasons never quote ureq's own messages, which may name the URL: a report reads the same
//! whichever port the server listens on.

use crate::peer::remote::{Channel, ChannelError, Remote};
use crate::peer::spec::{HttpUrl, Limits};
use crate::peer::transcript::WireLog;
use std::io::{ErrorKind, Read};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

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

/// Protocol v1 requests POSTed to one URL.
pub struct HttpChannel {
    url: HttpUrl,
    max_body: usize,
    agent: Option<ureq::Agent>,
}

impl HttpChannel {
    /// A channel to `url`, reading response bodies of at most `max_body` bytes.
    pub fn new(url: HttpUrl, max_body: usize) -> HttpChannel {
        HttpChannel { url, max_body, agent: None }
    }

    fn agent(&mut self) -> &ureq::Agent {
        self.agent.get_or_insert_with(agent)
    }
}

/// An agent for one implementation: statuses are values, the URL is reached as given (no proxy
/// from the environment, no redirect), one connection kept alive.
pub(crate) fn agent() -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .proxy(None)
        .max_redirects(0)
        .max_idle_connections(1)
        .max_idle_connections_per_host(1)
        .user_agent(concat!("tool-conformance/", env!("CARGO_PKG_VERSION")))
        .build();
    ureq::Agent::with_parts(config, DefaultConnector::new(), AddressFirst::default())
}

/// ureq's resolver, but for a host that is an IP address (as a server's printed URL usually is),
/// which is its own address. ureq resolves the host before every request, even on a kept-alive
/// connection, and with a timeout set it looks the name up on a new thread each time: a thread
/// started per request (`strace -f -c` of a whole-corpus `run --http`: 1,284 `clone3` for 1,283
/// requests).
#[derive(Debug, Default)]
struct AddressFirst(DefaultResolver);

impl Resolver for AddressFirst {
    fn resolve(&self, uri: &Uri, config: &Config, timeout: NextTimeout) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let address = uri.authority().and_then(|authority| {
            let host = authority.host().trim_start_matches('[').trim_end_matches(']');
            let ip: IpAddr = host.parse().ok()?;
            Some(SocketAddr::new(ip, authority.port_u16().unwrap_or(80)))
        });
        match address {
            Some(address) => {
                let mut addresses = self.empty();
                addresses.push(address);
                Ok(addresses)
            }
            None => self.0.resolve(uri, config, timeout),
        }
    }
}

/// A ureq error as a reason that names no URL.
pub(crate) fn reason(error: ureq::Error, timeout: Duration) -> ChannelError {
    match error {
        ureq::Error::Timeout(_) => ChannelError::Timeout(timeout),
        ureq::Error::BodyExceedsLimit(_) => ChannelError::TooLarge(0),
        ureq::Error::HostNotFound => ChannelError::Unreachable("the host was not found".into()),
        ureq::Error::ConnectionFailed => ChannelError::Unreachable("the connection failed".into()),
        ureq::Error::BadUri(_) => ChannelError::Unreachable("the URL does not parse".into()),
        // A header value that cannot be sent (a session id with a control character, say).
        ureq::Error::Http(e) => ChannelError::Io(format!("the request could not be made: {e}")),
        ureq::Error::Io(e) => match e.kind() {
            ErrorKind::TimedOut | ErrorKind::WouldBlock => ChannelError::Timeout(timeout),
            ErrorKind::ConnectionRefused => ChannelError::Unreachable(format!("connection refused ({})", os_error(&e))),
            ErrorKind::UnexpectedEof | ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted => {
                ChannelError::Io(format!(
                    "HTTP I/O failed: the server closed the connection without a whole response ({})",
                    os_error(&e)
                ))
            }
            _ => ChannelError::Io(format!("HTTP I/O failed: {}", os_error(&e))),
        },
        ureq::Error::Protocol(e) => ChannelError::Io(format!("the response is not HTTP ({e})")),
        ureq::Error::LargeResponseHeader(_, limit) => {
            ChannelError::Io(format!("the response head is longer than {limit} bytes"))
        }
        ureq::Error::BodyStalled => ChannelError::Io("HTTP I/O failed: the response body stalled".into()),
        other => ChannelError::Io(format!("HTTP failed: {}", ureq_kind(&other))),
    }
}

/// An I/O error's own text (ureq's wrapping may add the address).
fn os_error(e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(code) => std::io::Error::from_raw_os_error(code).to_string(),
        None => e.kind().to_string(),
    }
}

/// The kind of a ureq error, without its message.
fn ureq_kind(error: &ureq::Error) -> String {
    let debug = format!("{error:?}");
    debug.split(['(', ' ', '{']).next().unwrap_or("error").to_string()
}

impl Channel for HttpChannel {
    fn open(&mut self) -> Result<(), ChannelError> {
        self.agent = None;
        Ok(())
    }

    fn exchange(&mut self, request: &[u8], timeout: Duration) -> Result<Vec<u8>, ChannelError> {
        let max_body = self.max_body;
        let url = self.url.as_str().to_string();
        let agent = self.agent();
        let mut response = agent
            .post(&url)
            .config()
            .timeout_global(Some(timeout))
            .build()
            .header("Content-Type", "application/json")
            .send(request)
            .map_err(|e| reason(e, timeout))?;
        let status = response.status().as_u16();
        if status != 200 {
            let mut start = Vec::new();
            let _ = response.body_mut().as_reader().take(QUOTED_BODY_BYTES as u64).read_to_end(&mut start);
            // The rest is not read, so the connection is not kept.
            self.agent = None;
            return Err(ChannelError::Status { status, body: String::from_utf8_lossy(&start).into_owned() });
        }
        // The body is read as it comes (the request asks for no encoding, and none is decoded):
        // an encoded one is named for what it is rather than read as text that is not UTF-8.
        if let Some(encoding) = response.headers().get("content-encoding") {
            let encoding = encoding.to_str().unwrap_or("(not text)").trim().to_string();
            if !encoding.eq_ignore_ascii_case("identity") && !encoding.is_empty() {
                self.agent = None;
                return Err(ChannelError::Io(format!(
                    "the response body is encoded (Content-Encoding: {encoding}); send it unencoded"
                )));
            }
        }
        let declared = response.body().content_length();
        if declared.is_some_and(|length| length > max_body as u64) {
            // Not read at all: the connection is not kept.
            self.agent = None;
            return Err(ChannelError::TooLarge(max_body));
        }
        response.body_mut().with_config().limit(max_body as u64).read_to_vec().map_err(|e| match reason(e, timeout) {
            ChannelError::TooLarge(_) => ChannelError::TooLarge(max_body),
            other => other,
        })
    }

    fn close(&mut self) {
        self.agent = None;
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
    use std::io::{BufRead, Write};
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
            (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n41\r\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\n0\r\n\r\n", false),
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
    fn a_header_that_cannot_be_sent_is_named_for_what_it_is() {
        let bad: ureq::http::Error = ureq::http::HeaderValue::from_bytes(b"a\nb").unwrap_err().into();
        let error = reason(ureq::Error::Http(bad), Duration::from_secs(1)).to_string();
        assert!(error.contains("header value") && !error.contains("URL"), "{error}");
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
