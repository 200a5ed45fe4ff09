//! Which implementation a run reaches, and the limits it is reached within: the `--stdio`
//! command line, the `--http` URLs, the MCP routes, timeouts and restarts, validated before a run starts. Only
//! the channels of this module's parent use them; the run's configuration ([`crate::run::config`])
//! holds one.

/// Which implementation a run tests.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum TargetSpec {
    /// The built-in reference, in process.
    #[default]
    Reference,
    /// An implementation the harness starts as a process and speaks protocol v1 to over its stdin
    /// and stdout (`--stdio 'CMD ARGS'`), once per instance.
    Stdio(CommandLine),
    /// Implementations already serving protocol v1 over HTTP (`--http URL`): one instance per
    /// URL, since each running server has its own registry.
    Http(Vec<HttpUrl>),
    /// An MCP server or gateway reached over MCP itself (`--mcp-server`, `--mcp-server-url`,
    /// `--mcp-gateway`, `--mcp-gateway-url`): one instance, which publishes every tool of the run
    /// at once and records what each handler received in one file.
    Mcp(McpRoute),
}

impl TargetSpec {
    /// How many instances a run with `jobs` (as given, if given) uses, or why it cannot.
    pub fn instances(&self, jobs: Option<usize>) -> Result<usize, ConfigError> {
        match (self, jobs) {
            (_, Some(0)) => Err(ConfigError::NoJobs),
            (TargetSpec::Http(urls), Some(jobs)) if jobs != urls.len() => {
                Err(ConfigError::JobsNeedUrls { jobs, urls: urls.len() })
            }
            (TargetSpec::Mcp(route), Some(jobs)) if jobs > 1 => Err(ConfigError::McpJobs(route.flag())),
            (_, jobs) => Ok(self.count(jobs.unwrap_or(1))),
        }
    }

    /// How many instances a run asked for `jobs` uses: one per URL over HTTP, else `jobs` (at
    /// least one). The one place the count is worked out.
    pub fn count(&self, jobs: usize) -> usize {
        match self {
            TargetSpec::Http(urls) => urls.len(),
            TargetSpec::Mcp(_) => 1,
            _ => jobs,
        }
        .max(1)
    }
}

/// How the harness reaches the MCP implementation under test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpRoute {
    /// `--mcp-server 'CMD'`: an MCP server the harness starts and speaks to over stdio; claims
    /// the `structured` transport.
    Server(CommandLine),
    /// `--mcp-server-url URL --mcp-record FILE`: an MCP server already serving Streamable HTTP,
    /// started with the run's manifest and `TOOL_CONFORMANCE_RECORD=FILE`; claims `http`.
    ServerUrl {
        /// Its URL.
        url: HttpUrl,
        /// The record its handlers append to.
        record: std::path::PathBuf,
    },
    /// `--mcp-gateway 'CMD'`: a gateway the harness starts and speaks to over stdio, forwarding
    /// to the harness's own upstream; claims `structured`.
    Gateway(CommandLine),
    /// `--mcp-gateway-url URL`: a gateway already serving Streamable HTTP; claims `http`.
    /// Without a record, it is to be configured with the upstream the harness starts and prints;
    /// with `--mcp-record FILE`, it already forwards to an upstream the user started (`tool-conformance
    /// mcp-upstream` with the run's manifest and that record), and the harness starts none.
    GatewayUrl {
        /// Its URL.
        url: HttpUrl,
        /// The record of the upstream the user started, if they did.
        record: Option<std::path::PathBuf>,
    },
}

impl McpRoute {
    /// The one transport the route claims.
    pub fn transport(&self) -> crate::case::tool::Transport {
        use crate::case::tool::Transport;
        match self {
            McpRoute::Server(_) | McpRoute::Gateway(_) => Transport::Structured,
            McpRoute::ServerUrl { .. } | McpRoute::GatewayUrl { .. } => Transport::Http,
        }
    }

    /// Whether the implementation is a gateway in front of the harness's recording upstream.
    pub fn is_gateway(&self) -> bool {
        matches!(self, McpRoute::Gateway(_) | McpRoute::GatewayUrl { .. })
    }

    /// The route as its flag names it, for messages.
    pub fn flag(&self) -> &'static str {
        match self {
            McpRoute::Server(_) => "--mcp-server",
            McpRoute::ServerUrl { .. } => "--mcp-server-url",
            McpRoute::Gateway(_) => "--mcp-gateway",
            McpRoute::GatewayUrl { .. } => "--mcp-gateway-url",
        }
    }
}

/// A command line, split into words as a POSIX shell splits them (quotes and backslashes work;
/// nothing is expanded: no variables, globs, pipes or redirections), to be run without a shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    text: String,
    words: Vec<String>,
}

impl CommandLine {
    /// Splits `text`; an empty command or unbalanced quotes are refused.
    pub fn parse(text: &str) -> Result<CommandLine, ConfigError> {
        let bad = |why: &str| ConfigError::BadCommand(text.to_string(), why.to_string());
        let words = shlex::split(text).ok_or_else(|| bad("unbalanced quotes or a trailing backslash"))?;
        if words.is_empty() {
            return Err(bad("the command is empty"));
        }
        Ok(CommandLine { text: text.to_string(), words })
    }

    /// The program to run (the first word).
    pub fn program(&self) -> &str {
        &self.words[0]
    }

    /// Its arguments (the other words).
    pub fn args(&self) -> &[String] {
        &self.words[1..]
    }

    /// The command line as given.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// An `http://` URL that protocol v1 requests are POSTed to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpUrl(String);

impl HttpUrl {
    /// Checks `text`: an absolute `http://` URL with a host.
    pub fn parse(text: &str) -> Result<HttpUrl, ConfigError> {
        let bad = |why: &str| ConfigError::BadUrl(text.to_string(), why.to_string());
        let uri: ureq::http::Uri = text.parse().map_err(|_| bad("not a URL"))?;
        match uri.scheme_str() {
            Some("http") => {}
            Some("https") => return Err(bad("https is not supported: serve the protocol over plain http on loopback")),
            _ => return Err(bad("write an absolute http:// URL, e.g. http://127.0.0.1:8080/")),
        }
        if uri.host().is_none_or(str::is_empty) {
            return Err(bad("the URL has no host"));
        }
        Ok(HttpUrl(text.to_string()))
    }

    /// The URL as given.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// How long the harness waits for an external implementation, how often it restarts it, and how
/// much it reads from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// The longest wait for the response to one request (`--timeout`).
    pub timeout: std::time::Duration,
    /// The longest wait for an implementation to start and answer `start` (`--start-timeout`).
    pub start_timeout: std::time::Duration,
    /// How many times an instance is restarted after a crash, a timeout or an unreadable
    /// response, before its remaining cases are errors (`--restarts`).
    pub restarts: u32,
    /// The largest response read, in bytes; a longer one is an error (and is never held whole).
    pub max_response_bytes: usize,
    /// How many of the last stderr lines are kept for error reasons.
    pub stderr_lines: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            timeout: std::time::Duration::from_secs(5),
            start_timeout: std::time::Duration::from_secs(10),
            restarts: 3,
            max_response_bytes: 8 * 1024 * 1024,
            stderr_lines: 20,
        }
    }
}

/// A duration as written on the command line: `500ms`, `5s`, `2.5s`, `1m`, or a plain number of
/// seconds. It must be more than zero.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, ConfigError> {
    let bad = || ConfigError::BadDuration(text.to_string());
    let trimmed = text.trim();
    let (number, scale) = if let Some(n) = trimmed.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = trimmed.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = trimmed.strip_suffix('m') {
        (n, 60.0)
    } else {
        (trimmed, 1.0)
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    let seconds = value * scale;
    if !seconds.is_finite() || seconds <= 0.0 || seconds > 86_400.0 {
        return Err(bad());
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

/// A target, jobs or limit setting that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A `--stdio` command line that cannot be split.
    #[error("--stdio {0:?}: {1}")]
    BadCommand(String, String),
    /// A `--http` URL that cannot be used.
    #[error("--http {0:?}: {1}")]
    BadUrl(String, String),
    /// A duration that cannot be read.
    #[error("{0:?} is not a duration: write e.g. 500ms, 5s or 2.5 (seconds), more than zero")]
    BadDuration(String),
    /// `--jobs 0`.
    #[error("--jobs must be at least 1")]
    NoJobs,
    /// `--jobs N` over HTTP with a different number of URLs.
    #[error(
        "--jobs {jobs} over HTTP needs {jobs} --http URLs, one per running instance (each server has its own registry); {urls} given"
    )]
    JobsNeedUrls {
        /// The jobs asked for.
        jobs: usize,
        /// The URLs given.
        urls: usize,
    },
    /// `--jobs N` (N > 1) with an MCP route.
    #[error(
        "--jobs runs one instance with {0}: an MCP run publishes every tool at once to one server and reads one record \
         (a run is one implementation process)"
    )]
    McpJobs(&'static str),
}
