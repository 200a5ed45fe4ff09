//! An implementation already serving protocol v1 over HTTP: [`HttpChannel`], and [`HttpTarget`],
//! the [`Remote`] over it.
//!
//! Each request is POSTed as the body (`Content-Type: application/json`) to the one URL given;
//! the response body is the response object. Connections are kept alive between requests. Every
//! request is bounded by the timeout from connecting to the last body byte, the body read is
//! capped, and a status other than 200 is an error that quotes the start of the body. A server
//! cannot be restarted from here: "restarting" it means a fresh connection, `start` again, and
//! the registered tools sent again.

use crate::config::{HttpUrl, Limits};
use crate::remote::{Channel, ChannelError, Remote};
use crate::transcript::WireLog;
use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
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
const QUOTED_BODY_BYTES: u64 = 2048;

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
}

fn agent() -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .proxy(None)
        .max_redirects(0)
        .max_idle_connections_per_host(2)
        .user_agent(concat!("tool-conformance/", env!("CARGO_PKG_VERSION")))
        .build();
    ureq::Agent::with_parts(config, DefaultConnector::new(), OnceResolver::default())
}

/// Resolves the one host a channel talks to once per agent, and an IP address not at all.
///
/// ureq resolves the host before every request, even one sent on a kept-alive connection, and
/// with a timeout it does so on a new thread each time: that thread was most of the cost of a
/// request on loopback (see docs/performance.md).
#[derive(Debug, Default)]
struct OnceResolver {
    resolved: std::sync::Mutex<Option<(String, ResolvedSocketAddrs)>>,
}

impl Resolver for OnceResolver {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let key = uri.authority().map(|a| a.as_str().to_string()).unwrap_or_default();
        if let Ok(cached) = self.resolved.lock() {
            if let Some((authority, addresses)) = cached.as_ref() {
                if *authority == key {
                    return Ok(addresses.clone());
                }
            }
        }
        let literal = uri.host().and_then(|h| h.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>().ok());
        let addresses = match (literal, uri.port_u16()) {
            (Some(ip), Some(port)) => {
                let mut addresses = self.empty();
                addresses.push(SocketAddr::new(ip, port));
                addresses
            }
            _ => DefaultResolver::default().resolve(uri, config, timeout)?,
        };
        if let Ok(mut cached) = self.resolved.lock() {
            *cached = Some((key, addresses.clone()));
        }
        Ok(addresses)
    }
}

fn io_error(error: ureq::Error, timeout: Duration) -> ChannelError {
    match error {
        ureq::Error::Timeout(_) => ChannelError::Timeout(timeout),
        ureq::Error::BodyExceedsLimit(limit) => ChannelError::TooLarge(limit as usize),
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
            ChannelError::Unreachable(format!("connection refused ({e})"))
        }
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut => ChannelError::Timeout(timeout),
        ureq::Error::Io(e) => ChannelError::Io(format!("HTTP I/O failed: {e}")),
        ureq::Error::HostNotFound => ChannelError::Unreachable("the host was not found".into()),
        ureq::Error::ConnectionFailed => ChannelError::Unreachable("the connection failed".into()),
        other => ChannelError::Io(format!("HTTP failed: {other}")),
    }
}

impl Channel for HttpChannel {
    fn open(&mut self) -> Result<(), ChannelError> {
        self.agent = Some(agent());
        Ok(())
    }

    fn exchange(&mut self, request: &[u8], timeout: Duration) -> Result<Vec<u8>, ChannelError> {
        let agent = self.agent.get_or_insert_with(agent);
        let response = agent
            .post(self.url.as_str())
            .header("Content-Type", "application/json")
            .config()
            .timeout_global(Some(timeout))
            .build()
            .send(request)
            .map_err(|e| io_error(e, timeout))?;
        let status = response.status().as_u16();
        let mut body = response.into_body();
        if status != 200 {
            let mut start = Vec::new();
            let _ = body.as_reader().take(QUOTED_BODY_BYTES).read_to_end(&mut start);
            return Err(ChannelError::Status { status, body: String::from_utf8_lossy(&start).into_owned() });
        }
        body.with_config().limit(self.max_body as u64).read_to_vec().map_err(|e| io_error(e, timeout))
    }

    fn close(&mut self) {
        self.agent = None;
    }

    fn is_stream(&self) -> bool {
        false
    }

    fn describe(&self) -> String {
        format!("{} (over HTTP)", self.url.as_str())
    }
}
