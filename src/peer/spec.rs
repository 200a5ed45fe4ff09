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
    /// `--mcp-gateway`, `--mcp-gateway-http`, `--mcp-gateway-url`), or an HTTP bridge in front of the harness's MCP
    /// upstream (`--http-bridge`, `--http-bridge-url`): one instance, which publishes every tool of the run
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

    /// The command line the harness starts the implementation with, and the flag that gave it
    /// (none for a URL, or the reference).
    pub fn started(&self) -> Option<(&'static str, &CommandLine)> {
        match self {
            TargetSpec::Stdio(command) => Some(("--stdio", command)),
            TargetSpec::Mcp(route @ (McpRoute::Server(command) | McpRoute::Gateway(command))) => {
                Some((route.flag(), command))
            }
            TargetSpec::Mcp(route @ McpRoute::Bridge { command, .. }) => Some((route.flag(), command)),
            TargetSpec::Mcp(route @ McpRoute::GatewayHttp(command)) => Some((route.flag(), command)),
            _ => None,
        }
    }

    /// The URLs the implementation is reached at, as given (none for one the harness starts, or
    /// the reference). A connection error names them: the reports do not, to stay the same from
    /// run to run.
    pub fn urls(&self) -> Vec<&HttpUrl> {
        match self {
            TargetSpec::Http(urls) => urls.iter().collect(),
            TargetSpec::Mcp(
                McpRoute::ServerUrl { url, .. } | McpRoute::GatewayUrl { url, .. } | McpRoute::BridgeUrl { url, .. },
            ) => vec![url],
            _ => Vec::new(),
        }
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
    /// `--mcp-gateway-http 'CMD'`: a gateway the harness starts on a loopback port of its choosing
    /// (`{port}` in CMD), in front of the harness's own upstream as for `--mcp-gateway`, and
    /// speaks to over Streamable HTTP at `http://127.0.0.1:{port}/mcp`, as to `--mcp-gateway-url`;
    /// claims `http`.
    GatewayHttp(CommandLine),
    /// `--http-bridge 'CMD'`: an HTTP bridge (MCP tools served as HTTP endpoints, with an
    /// OpenAPI document) the harness starts on a loopback port of its choosing (`{port}` in CMD),
    /// in front of the harness's own upstream as for a gateway; claims `http`.
    Bridge {
        /// Its command line, with `{port}`, `{upstream_url}` and `{upstream_cmd}` to substitute.
        command: CommandLine,
        /// Where it serves each tool and its OpenAPI document.
        paths: BridgePaths,
    },
    /// `--http-bridge-url URL`: an HTTP bridge already serving at this base URL, configured with
    /// the upstream the harness starts and prints, or, with `--mcp-record FILE`, already forwarding
    /// to one the user started; claims `http`.
    BridgeUrl {
        /// Its base URL, to which the paths are appended.
        url: HttpUrl,
        /// The record of the upstream the user started, if they did.
        record: Option<std::path::PathBuf>,
        /// Where it serves each tool and its OpenAPI document.
        paths: BridgePaths,
    },
}

/// Where an HTTP bridge serves a tool (`--http-bridge-path`, a path with `{name}` once, for the
/// tool's published name; `/{name}` by default, as mcpo serves them) and its OpenAPI document
/// (`--http-bridge-spec`, `/openapi.json` by default). The document's `paths` name each tool's
/// endpoint by the same path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BridgePaths {
    endpoint: String,
    spec: String,
}

impl Default for BridgePaths {
    fn default() -> BridgePaths {
        BridgePaths { endpoint: "/{name}".into(), spec: "/openapi.json".into() }
    }
}

impl BridgePaths {
    /// Checks `endpoint` (a path starting with `/`, `{name}` once) and `spec` (a path starting
    /// with `/`).
    pub fn new(endpoint: &str, spec: &str) -> Result<BridgePaths, ConfigError> {
        let bad = |flag: &'static str, text: &str, why: &str| ConfigError::BadBridgePath(flag, text.into(), why.into());
        let plain =
            |text: &str| text.starts_with('/') && !text.contains(['?', '#']) && !text.contains(char::is_whitespace);
        if !plain(endpoint) {
            return Err(bad("--http-bridge-path", endpoint, "a path starting with / (no query, fragment or space)"));
        }
        if endpoint.matches("{name}").count() != 1 {
            return Err(bad(
                "--http-bridge-path",
                endpoint,
                "the path must hold {name} exactly once, e.g. /tools/{name}",
            ));
        }
        if !plain(spec) {
            return Err(bad("--http-bridge-spec", spec, "a path starting with / (no query, fragment or space)"));
        }
        Ok(BridgePaths { endpoint: endpoint.into(), spec: spec.into() })
    }

    /// The path of the tool published as `name` (its characters other than letters, digits and
    /// `-._~` percent-encoded).
    pub fn endpoint(&self, name: &str) -> String {
        let mut encoded = String::new();
        for byte in name.bytes() {
            if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
                encoded.push(byte as char);
            } else {
                encoded.push_str(&format!("%{byte:02X}"));
            }
        }
        self.endpoint.replacen("{name}", &encoded, 1)
    }

    /// The published name a path of the OpenAPI document stands for, if it is a tool's endpoint.
    pub fn name_of(&self, path: &str) -> Option<String> {
        let (before, after) = self.endpoint.split_once("{name}")?;
        let name = path.strip_prefix(before)?.strip_suffix(after)?;
        (!name.is_empty()).then(|| name.to_string())
    }

    /// The endpoint's template, as given.
    pub fn endpoint_template(&self) -> &str {
        &self.endpoint
    }

    /// The path of the OpenAPI document.
    pub fn spec(&self) -> &str {
        &self.spec
    }
}

impl McpRoute {
    /// The one transport the route claims.
    pub fn transport(&self) -> crate::case::tool::Transport {
        use crate::case::tool::Transport;
        match self {
            McpRoute::Server(_) | McpRoute::Gateway(_) => Transport::Structured,
            McpRoute::ServerUrl { .. } | McpRoute::GatewayUrl { .. } | McpRoute::GatewayHttp(_) => Transport::Http,
            McpRoute::Bridge { .. } | McpRoute::BridgeUrl { .. } => Transport::Http,
        }
    }

    /// Whether the implementation is a gateway (an HTTP bridge included) in front of the
    /// harness's recording upstream.
    pub fn is_gateway(&self) -> bool {
        matches!(
            self,
            McpRoute::Gateway(_)
                | McpRoute::GatewayHttp(_)
                | McpRoute::GatewayUrl { .. }
                | McpRoute::Bridge { .. }
                | McpRoute::BridgeUrl { .. }
        )
    }

    /// Whether the implementation is an HTTP bridge, called by HTTP POSTs rather than MCP.
    pub fn is_bridge(&self) -> bool {
        matches!(self, McpRoute::Bridge { .. } | McpRoute::BridgeUrl { .. })
    }

    /// Whether the harness starts the recording upstream (the gateway or bridge then forwards to
    /// it), rather than reading the record of one the user started.
    pub fn starts_upstream(&self) -> bool {
        matches!(
            self,
            McpRoute::Gateway(_)
                | McpRoute::GatewayHttp(_)
                | McpRoute::GatewayUrl { record: None, .. }
                | McpRoute::Bridge { .. }
                | McpRoute::BridgeUrl { record: None, .. }
        )
    }

    /// The record of an upstream (or server) the user started, when the route reads one.
    pub fn given_record(&self) -> Option<&std::path::Path> {
        match self {
            McpRoute::ServerUrl { record, .. } => Some(record),
            McpRoute::GatewayUrl { record: Some(record), .. } | McpRoute::BridgeUrl { record: Some(record), .. } => {
                Some(record)
            }
            _ => None,
        }
    }

    /// The route as its flag names it, for messages.
    pub fn flag(&self) -> &'static str {
        match self {
            McpRoute::Server(_) => "--mcp-server",
            McpRoute::ServerUrl { .. } => "--mcp-server-url",
            McpRoute::Gateway(_) => "--mcp-gateway",
            McpRoute::GatewayHttp(_) => "--mcp-gateway-http",
            McpRoute::GatewayUrl { .. } => "--mcp-gateway-url",
            McpRoute::Bridge { .. } => "--http-bridge",
            McpRoute::BridgeUrl { .. } => "--http-bridge-url",
        }
    }
}

/// What the MCP routes are told beyond the route itself: headers for a URL route, the names the
/// tools are published under, where the harness's upstream listens, and how long a gateway that is
/// still starting is waited for. Checked against the route by [`McpOptions::check`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct McpOptions {
    /// Sent with every HTTP request of a URL route (`--mcp-header`).
    pub headers: Vec<Header>,
    /// The names the implementation publishes the tools under (`--mcp-tool-name`); the suite's own
    /// names when `None`.
    pub tool_name: Option<ToolNameTemplate>,
    /// The loopback address the harness's upstream listens on, for a gateway configured with it
    /// beforehand (`--mcp-upstream-listen`); a free port when `None`.
    pub upstream_listen: Option<std::net::SocketAddr>,
    /// How long `initialize` is tried again while a URL route's implementation is still starting
    /// (`--wait`); tried once when `None`.
    pub wait: Option<std::time::Duration>,
}

impl McpOptions {
    /// Checks that each option given applies to `route`.
    pub fn check(&self, route: &McpRoute) -> Result<(), ConfigError> {
        let url = matches!(
            route,
            McpRoute::ServerUrl { .. }
                | McpRoute::GatewayUrl { .. }
                | McpRoute::GatewayHttp(_)
                | McpRoute::Bridge { .. }
                | McpRoute::BridgeUrl { .. }
        );
        let routes = "a route over HTTP (--mcp-server-url, --mcp-gateway-url, --mcp-gateway-http) or an HTTP bridge \
                      (--http-bridge, --http-bridge-url)";
        if !self.headers.is_empty() && !url {
            return Err(ConfigError::McpOption("--mcp-header", routes));
        }
        if self.wait.is_some() && !url {
            return Err(ConfigError::McpOption("--wait", routes));
        }
        if let Some(address) = self.upstream_listen {
            if !matches!(route, McpRoute::GatewayUrl { record: None, .. } | McpRoute::BridgeUrl { record: None, .. }) {
                return Err(ConfigError::McpOption(
                    "--mcp-upstream-listen",
                    "--mcp-gateway-url or --http-bridge-url without --mcp-record (the harness starts the upstream)",
                ));
            }
            if !address.ip().is_loopback() {
                return Err(ConfigError::NotLoopback(address.to_string()));
            }
        }
        Ok(())
    }
}

/// The names an implementation publishes the suite's tools under: a text with `{name}` once,
/// which stands for the suite's name (`up_{name}`, `{name}@upstream`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolNameTemplate(String);

impl ToolNameTemplate {
    /// Checks `text`: `{name}` exactly once.
    pub fn parse(text: &str) -> Result<ToolNameTemplate, ConfigError> {
        match text.matches("{name}").count() {
            1 => Ok(ToolNameTemplate(text.to_string())),
            n => Err(ConfigError::BadToolName(text.to_string(), n)),
        }
    }

    /// The published name of the suite's tool `name`.
    pub fn apply(&self, name: &str) -> String {
        self.0.replacen("{name}", name, 1)
    }

    /// The template as given.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The headers the harness's MCP client sets itself, which `--mcp-header` may not.
const OWN_HEADERS: [&str; 7] =
    ["accept", "content-type", "content-length", "host", "transfer-encoding", "mcp-session-id", "mcp-protocol-version"];

/// An HTTP header sent with every request of a URL route. Its value is a secret (a bearer token,
/// an API key): it is never printed, its `Debug` included, and the MCP target hides it wherever
/// it would show text the implementation sent back.
#[derive(Clone, PartialEq, Eq)]
pub struct Header {
    name: String,
    value: String,
}

impl std::fmt::Debug for Header {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Header({}: [hidden])", self.name)
    }
}

impl Header {
    /// Reads `NAME: VALUE`, or `NAME: env:VARIABLE` whose value `env` looks up (so that the secret
    /// is on no command line). An error names the header, never its value.
    pub fn parse(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<Header, ConfigError> {
        let Some((name, value)) = text.split_once(':') else {
            return Err(ConfigError::BadHeader(
                "(no name)".into(),
                "write NAME: VALUE, or NAME: env:VARIABLE to read the value from the environment".into(),
            ));
        };
        let name = name.trim();
        let value = value.trim_matches([' ', '\t']);
        let value = match value.strip_prefix("env:") {
            Some(variable) => env(variable).ok_or_else(|| {
                ConfigError::BadHeader(name.to_string(), format!("the environment variable {variable} is not set"))
            })?,
            None => value.to_string(),
        };
        Header::new(name, &value)
    }

    /// A header of `name` and `value`, checked: the name an HTTP token the client does not set
    /// itself, the value without line breaks or other control characters.
    pub fn new(name: &str, value: &str) -> Result<Header, ConfigError> {
        let bad = |why: &str| ConfigError::BadHeader(name.to_string(), why.to_string());
        let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
        if name.is_empty() || !name.chars().all(token) {
            let shown = if name.chars().all(|c| c.is_ascii_graphic() || c == ' ') { name } else { "(not text)" };
            return Err(ConfigError::BadHeader(
                shown.to_string(),
                "the name is not an HTTP header name (letters, digits and !#$%&'*+-.^_`|~)".into(),
            ));
        }
        if OWN_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
            return Err(bad("the harness sets this header itself"));
        }
        if value.contains(['\r', '\n']) {
            return Err(bad("the value holds a line break (CR or LF)"));
        }
        if value.chars().any(|c| c.is_control() && c != '\t') {
            return Err(bad("the value holds a control character"));
        }
        if value.trim().is_empty() {
            return Err(bad("the value is empty"));
        }
        Ok(Header { name: name.to_string(), value: value.to_string() })
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its value (a secret: not to be printed).
    pub fn value(&self) -> &str {
        &self.value
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
    /// An MCP option given with a route it does not apply to: the option, and the routes it does.
    #[error("{0} goes with {1}")]
    McpOption(&'static str, &'static str),
    /// An HTTP bridge's path option is not a path the harness can use.
    #[error("{0} {1:?}: {2}")]
    BadBridgePath(&'static str, String, String),
    /// A listen address that is not loopback.
    #[error("--mcp-upstream-listen {0}: not a loopback address (the recording upstream serves loopback only)")]
    NotLoopback(String),
    /// A `--mcp-tool-name` template without `{name}` exactly once: the template and the count.
    #[error("--mcp-tool-name {0:?}: the template must hold {{name}} exactly once ({1} found), e.g. up_{{name}}")]
    BadToolName(String, usize),
    /// A `--mcp-header` that cannot be sent: the header's name (never its value) and why.
    #[error("--mcp-header {0}: {1}")]
    BadHeader(String, String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_urls_a_target_is_reached_at_are_those_given() {
        let url = |text: &str| HttpUrl::parse(text).unwrap();
        let urls = |spec: &TargetSpec| spec.urls().iter().map(|u| u.as_str().to_string()).collect::<Vec<_>>();
        let http = TargetSpec::Http(vec![url("http://127.0.0.1:1"), url("http://127.0.0.1:2")]);
        assert_eq!(urls(&http), [url("http://127.0.0.1:1").as_str(), url("http://127.0.0.1:2").as_str()]);
        let server = TargetSpec::Mcp(McpRoute::ServerUrl { url: url("http://127.0.0.1:3/mcp"), record: "r".into() });
        assert_eq!(urls(&server), [url("http://127.0.0.1:3/mcp").as_str()]);
        let gateway = TargetSpec::Mcp(McpRoute::GatewayUrl { url: url("http://127.0.0.1:4/mcp"), record: None });
        assert_eq!(urls(&gateway), [url("http://127.0.0.1:4/mcp").as_str()]);
        let bridge = TargetSpec::Mcp(McpRoute::BridgeUrl {
            url: url("http://127.0.0.1:5"),
            record: None,
            paths: BridgePaths::default(),
        });
        assert_eq!(urls(&bridge), [url("http://127.0.0.1:5").as_str()]);
        let started = TargetSpec::Stdio(CommandLine::parse("adapter --x").unwrap());
        assert!(started.urls().is_empty() && TargetSpec::Reference.urls().is_empty());
        assert!(http.started().is_none() && server.started().is_none() && bridge.started().is_none());
    }

    #[test]
    fn the_command_a_target_is_started_with_is_the_one_given_under_its_flag() {
        let command = |text: &str| CommandLine::parse(text).unwrap();
        let flag_and_program =
            |spec: &TargetSpec| spec.started().map(|(flag, command)| (flag, command.program().to_string()));
        let stdio = TargetSpec::Stdio(command("adapter --x"));
        assert_eq!(flag_and_program(&stdio), Some(("--stdio", "adapter".into())));
        let server = TargetSpec::Mcp(McpRoute::Server(command("server --y")));
        assert_eq!(flag_and_program(&server), Some(("--mcp-server", "server".into())));
        let gateway = TargetSpec::Mcp(McpRoute::Gateway(command("gateway {upstream_url}")));
        assert_eq!(flag_and_program(&gateway), Some(("--mcp-gateway", "gateway".into())));
        let bridge = TargetSpec::Mcp(McpRoute::Bridge {
            command: command("bridge --port {port}"),
            paths: BridgePaths::default(),
        });
        assert_eq!(flag_and_program(&bridge), Some(("--http-bridge", "bridge".into())));
        let over_http = McpRoute::GatewayHttp(command("gateway --port {port} -- {upstream_cmd}"));
        assert!(over_http.is_gateway() && over_http.starts_upstream() && !over_http.is_bridge());
        assert_eq!(over_http.transport(), crate::case::tool::Transport::Http);
        let over_http = TargetSpec::Mcp(over_http);
        assert_eq!(flag_and_program(&over_http), Some(("--mcp-gateway-http", "gateway".into())));
        assert!(over_http.urls().is_empty(), "its URL is the harness's choice, not given");
        assert_eq!(flag_and_program(&TargetSpec::Reference), None);
    }
}
