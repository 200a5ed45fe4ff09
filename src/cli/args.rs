//! The command line's arguments: the clap types of every command and option (the help text is
//! their doc comments), and how each group of them becomes the library's validated configuration
//! ([`RunConfig`], a [`TargetSpec`], [`Limits`], a [`CorpusSource`]). Nothing here runs a command;
//! that is [`super::commands`].

use super::{show, upstream};
use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use tool_conformance::Corpus;
use tool_conformance::peer::mcp::McpRoute;
use tool_conformance::run::config::{
    BridgePaths, CommandLine, ConfigError, CorpusSource, Header, HttpUrl, Identity, Limits, McpOptions, RunConfig,
    Selection, TargetSpec, ToolNameTemplate,
};
use tool_conformance::serve;

/// Conformance suite for RT-TOOL-8 (tool argument normalization) and PLAT-162 (schema
/// enforcement before dispatch).
#[derive(Parser)]
#[command(name = "tool-conformance", version, about, long_about = None)]
pub(super) struct Cli {
    /// Color the output: auto (when stdout is a terminal that shows colors and NO_COLOR is
    /// unset), always, or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto", global = true)]
    pub(super) color: ColorWhen,
    #[command(subcommand)]
    pub(super) command: Command,
}

/// When to color what is printed.
#[derive(Clone, Copy, ValueEnum)]
pub(super) enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
pub(super) enum Command {
    /// Run the suite and print the standing (against the built-in reference, an implementation
    /// reached with --stdio or --http, or an MCP server or gateway reached over MCP).
    Run(Box<RunArgs>),
    /// Lint the corpus: every file valid, ids unique, every clause with a required case. With DIR,
    /// lint that folder: a whole corpus (it has a <RULE>/rule.yaml), or new case files alone,
    /// checked against the built-in rules and cases.
    Check(CheckArgs),
    /// List the selected cases: id, level, clauses and summary.
    List(ListArgs),
    /// Print one case: what it sends and expects, the rule sentence behind each clause it cites,
    /// the exact requests as sent over protocol v1 (with the reference's answers), and why.
    Show(show::ShowArgs),
    /// Serve the built-in reference over protocol v1, on stdin/stdout or on a loopback HTTP port.
    Serve(ServeArgs),
    /// Compare two standing.json files: print regressions and progressions, exit 1 on a
    /// regression.
    Compare(CompareArgs),
    /// Print, as Markdown, the side-by-side table of the standings published in DIR (every
    /// DIR/<name>/standing.json); exit 1 when a failing required case has no expected-failures
    /// reason.
    Table(TableArgs),
    /// Print, as Markdown, the page of one published standing (reports/<name>/README.md): what it
    /// measures (from the adapter's about.yaml and reproduction template, and timing.json), the
    /// verdict per rule, and the failures grouped by clause with a minimal reproduction each.
    Readme(ReadmeArgs),
    /// Write the standings site of DIR (every DIR/<name>/standing.json) into OUT: an index of
    /// verdicts, a page per implementation and a page per case, static, with no script.
    Site(SiteArgs),
    /// Differential fuzzing against the reference: generated schemas and calls, judged only by
    /// what the rule text forces, each finding shrunk and written as a case file; exit 1 on a
    /// required finding.
    Fuzz(FuzzArgs),
    /// Print the MCP tool manifest of the selected cases: every tool they register and one tool
    /// per normalize schema, under the names the MCP routes publish them.
    Manifest(upstream::ManifestArgs),
    /// Serve a manifest's tools as a recording MCP server (stdio, or Streamable HTTP with --http):
    /// the upstream a gateway under test forwards to.
    McpUpstream(upstream::UpstreamArgs),
}

#[derive(Args)]
pub(super) struct RunArgs {
    #[command(flatten)]
    pub(super) select: SelectArgs,
    /// Write standing.json, standing.md, junit.xml, standing.html and badge-<rule>.json into DIR.
    #[arg(long, value_name = "DIR")]
    pub(super) report: Option<PathBuf>,
    /// Known failures, in YAML (case or clause ids, each with a reason): listed
    /// failures do not fail the run; a listed case that now passes, or a failure not listed, does.
    #[arg(long, value_name = "FILE")]
    pub(super) expected_failures: Option<PathBuf>,
    /// Write the cases that fail the run to FILE as an expected-failures file, each with a reason
    /// to fill in (an existing FILE is replaced). Listed cases that pass later are stale entries
    /// and fail the run.
    #[arg(long, value_name = "FILE")]
    pub(super) write_expected_failures: Option<PathBuf>,
    /// Print the whole exchange of the selected cases, each request and response uncut up to
    /// 64 KiB, and each failing case's arguments, schema, expected and actual values in full
    /// (needs --case).
    #[arg(long, requires = "case_globs")]
    pub(super) full: bool,
    /// Print a line per rule and one line per failing case, instead of the tables and
    /// each failure's diff.
    #[arg(long, conflicts_with = "full")]
    pub(super) compact: bool,
    /// What the reports call the implementation, whatever it answers (an MCP server's
    /// serverInfo that is missing, its upstream's, or random from run to run); the report keeps
    /// what it answered beside it.
    #[arg(long, value_name = "NAME", value_parser = non_empty)]
    pub(super) name: Option<String>,
    /// The version the reports give the implementation, whatever it answers.
    #[arg(long = "version", value_name = "VERSION", value_parser = non_empty)]
    pub(super) implementation_version: Option<String>,
    #[command(flatten)]
    pub(super) target: TargetArgs,
}

impl RunArgs {
    pub(super) fn config(&self) -> Result<RunConfig> {
        let selection = self.select.selection()?;
        // Parsed once: the route, the jobs, the MCP options and --get-api-spec all read it.
        let target = self.target.spec()?;
        Ok(RunConfig {
            corpus: self.select.corpus.source(),
            selection,
            report_dir: self.report.clone(),
            jobs: target.instances(self.target.jobs)?,
            limits: self.target.reach.limits()?,
            validate_protocol: self.target.validate_protocol,
            transcript: self.target.transcript || self.full,
            mcp: self.target.mcp.options(&target)?,
            identity: Identity { name: self.name.clone(), version: self.implementation_version.clone() },
            spec_pointer: self.target.mcp.spec_pointer(&target)?,
            target,
        })
    }
}

/// A value that is not empty or blank.
fn non_empty(text: &str) -> Result<String, String> {
    if text.trim().is_empty() { Err("the value is empty".into()) } else { Ok(text.to_string()) }
}

/// Which cases: the corpus and the filters on it.
#[derive(Args)]
pub(super) struct SelectArgs {
    #[command(flatten)]
    pub(super) corpus: CorpusArgs,
    /// Only cases of this rule (repeatable).
    #[arg(long, value_name = "RULE")]
    pub(super) rule: Vec<String>,
    /// Only cases citing this clause (repeatable).
    #[arg(long, value_name = "CLAUSE")]
    pub(super) clause: Vec<String>,
    /// Only cases whose id matches this glob; `*` also matches `/` (repeatable).
    #[arg(long = "case", value_name = "GLOB")]
    pub(super) case_globs: Vec<String>,
    /// Leave out the cases whose id matches this glob; `*` also matches `/` (repeatable).
    #[arg(long = "skip", value_name = "GLOB")]
    pub(super) skip_globs: Vec<String>,
}

impl SelectArgs {
    pub(super) fn selection(&self) -> Result<Selection> {
        let selection = Selection::new(self.rule.clone(), self.clause.clone(), self.case_globs.clone())?;
        Ok(selection.skipping(self.skip_globs.clone())?)
    }
}

#[derive(Args)]
pub(super) struct CorpusArgs {
    /// Use the corpus in DIR (one folder per rule, each with its rule.yaml) instead of the one built in.
    #[arg(long, value_name = "DIR")]
    pub(super) cases: Option<PathBuf>,
    /// Add the case files in DIR (laid out as <RULE>/<topic>.yaml) to the corpus, built in or
    /// --cases (repeatable). A file may not replace one the corpus has.
    #[arg(long, value_name = "DIR")]
    pub(super) add_cases: Vec<PathBuf>,
}

impl CorpusArgs {
    pub(super) fn base(&self) -> CorpusSource {
        match &self.cases {
            Some(dir) => CorpusSource::Directory(dir.clone()),
            None => CorpusSource::Embedded,
        }
    }

    pub(super) fn source(&self) -> CorpusSource {
        if self.add_cases.is_empty() {
            self.base()
        } else {
            CorpusSource::Added { base: Box::new(self.base()), added: self.add_cases.clone() }
        }
    }
}

#[derive(Args)]
pub(super) struct ListArgs {
    #[command(flatten)]
    pub(super) select: SelectArgs,
}

#[derive(Args)]
pub(super) struct CheckArgs {
    /// The folder to lint: a whole corpus, or new case files to add to the built-in one (or to
    /// --cases).
    #[arg(value_name = "DIR")]
    pub(super) dir: Option<PathBuf>,
    #[command(flatten)]
    pub(super) corpus: CorpusArgs,
}

impl CheckArgs {
    /// A DIR holding the rule file of a built-in rule is a whole corpus (a working copy); one
    /// holding case files only, or new rules with their cases, is added to the corpus.
    pub(super) fn source(&self) -> Result<CorpusSource> {
        let Some(dir) = &self.dir else { return Ok(self.corpus.source()) };
        let built_in = Corpus::embedded()?;
        let whole = tool_conformance::corpus::read_dir(dir)?.iter().any(|(path, _)| {
            tool_conformance::corpus::is_rule_file(path)
                && path.iter().next().and_then(|r| r.to_str()).is_some_and(|r| built_in.catalog.rule(r).is_some())
        });
        Ok(if whole && self.corpus.cases.is_none() && self.corpus.add_cases.is_empty() {
            CorpusSource::Directory(dir.clone())
        } else {
            let mut added = self.corpus.add_cases.clone();
            added.push(dir.clone());
            CorpusSource::Added { base: Box::new(self.corpus.base()), added }
        })
    }
}

/// The implementation `run` and `fuzz` reach, and the limits they reach it within: one group of
/// flags, the same for both commands.
#[derive(Args)]
pub(super) struct ReachArgs {
    /// Test the implementation this command line starts, over protocol v1 on its stdin and
    /// stdout. It is split into words as a POSIX shell would (quotes and backslashes work) and run
    /// without a shell: no variables, globs, pipes or redirections.
    #[arg(long, value_name = "'CMD ARGS'", conflicts_with = "http")]
    pub(super) stdio: Option<String>,
    /// Test the implementation serving protocol v1 at this http:// URL. `run` takes it again to
    /// spread the cases over several running instances; `fuzz` reaches the first.
    #[arg(long, value_name = "URL")]
    pub(super) http: Vec<String>,
    /// The longest wait for one response, e.g. 5s or 500ms.
    #[arg(long, value_name = "DURATION", default_value = "5s")]
    pub(super) timeout: String,
    /// The longest wait for the implementation to start and answer start.
    #[arg(long, value_name = "DURATION", default_value = "10s")]
    pub(super) start_timeout: String,
    /// Restarts allowed after a crash, a timeout or an unreadable response; then the remaining
    /// cases are errors.
    #[arg(long, value_name = "N", default_value_t = Limits::default().restarts)]
    pub(super) restarts: u32,
}

impl ReachArgs {
    pub(super) fn spec(&self) -> Result<TargetSpec> {
        Ok(match (&self.stdio, self.http.is_empty()) {
            (Some(command), _) => TargetSpec::Stdio(CommandLine::parse(command)?),
            (None, false) => TargetSpec::Http(self.http.iter().map(|u| HttpUrl::parse(u)).collect::<Result<_, _>>()?),
            (None, true) => TargetSpec::Reference,
        })
    }

    pub(super) fn limits(&self) -> Result<Limits> {
        Ok(Limits {
            timeout: tool_conformance::run::config::parse_duration(&self.timeout).context("--timeout")?,
            start_timeout: tool_conformance::run::config::parse_duration(&self.start_timeout)
                .context("--start-timeout")?,
            restarts: self.restarts,
            ..Limits::default()
        })
    }
}

/// The implementation a run tests, how it is reached, and on how many instances.
#[derive(Args)]
pub(super) struct TargetArgs {
    #[command(flatten)]
    pub(super) reach: ReachArgs,
    /// Run N instances at once, the cases spread across them; the result is that of a
    /// serial run. Over HTTP, give one --http URL per instance.
    #[arg(long, value_name = "N")]
    pub(super) jobs: Option<usize>,
    /// Check every message against schemas/protocol.schema.json; a violation is an
    /// error naming the message and the schema path.
    #[arg(long)]
    pub(super) validate_protocol: bool,
    /// Print every request and response of the selected cases, with timing (needs
    /// --case).
    #[arg(long, requires = "case_globs")]
    pub(super) transcript: bool,
    #[command(flatten)]
    pub(super) mcp: McpArgs,
}

impl TargetArgs {
    /// The implementation the run tests: an MCP route, or what --stdio and --http name.
    pub(super) fn spec(&self) -> Result<TargetSpec> {
        match self.mcp.route()? {
            Some(route) => Ok(TargetSpec::Mcp(route)),
            None => self.reach.spec(),
        }
    }
}

/// An MCP server or gateway reached over MCP itself, with no protocol-v1 adapter.
#[derive(Args)]
#[group(id = "mcp", multiple = true, conflicts_with_all = ["stdio", "http", "validate_protocol"])]
pub(super) struct McpArgs {
    /// Test the MCP server this command line starts, as its MCP client over stdio
    /// (claims the structured transport). It gets the run's tool manifest and the record its
    /// handlers append to in TOOL_CONFORMANCE_MANIFEST and TOOL_CONFORMANCE_RECORD.
    #[arg(long, value_name = "'CMD ARGS'", conflicts_with_all = ["mcp_server_url", "mcp_gateway", "mcp_gateway_url"])]
    pub(super) mcp_server: Option<String>,
    /// Test the MCP server serving Streamable HTTP at this URL (claims http), started
    /// with the manifest `tool-conformance manifest` prints and TOOL_CONFORMANCE_RECORD=FILE of
    /// --mcp-record.
    #[arg(long, value_name = "URL", requires = "mcp_record", conflicts_with_all = ["mcp_gateway", "mcp_gateway_url"])]
    pub(super) mcp_server_url: Option<String>,
    /// The record the handlers of the --mcp-server-url server (or of the upstream an
    /// --mcp-gateway-url gateway forwards to, started by hand) append to.
    #[arg(long, value_name = "FILE")]
    pub(super) mcp_record: Option<PathBuf>,
    /// Test the MCP gateway this command line starts, over stdio (claims structured):
    /// the harness is also its upstream MCP server, given to it in TOOL_CONFORMANCE_UPSTREAM_URL
    /// and TOOL_CONFORMANCE_UPSTREAM_CMD, and as {upstream_url} and {upstream_cmd} in CMD.
    #[arg(long, value_name = "'CMD ARGS'", conflicts_with = "mcp_gateway_url")]
    pub(super) mcp_gateway: Option<String>,
    /// Test the MCP gateway serving Streamable HTTP at this URL (claims http); the
    /// harness starts its upstream MCP server and prints how to reach it, or, with --mcp-record,
    /// reads the record of an upstream started by hand (`tool-conformance mcp-upstream`).
    #[arg(long, value_name = "URL")]
    pub(super) mcp_gateway_url: Option<String>,
    /// Test the MCP gateway this command line starts, over Streamable HTTP (claims http):
    /// its upstream is given to it as for --mcp-gateway; it listens on 127.0.0.1 at {port}, which
    /// the harness substitutes (and sets in TOOL_CONFORMANCE_GATEWAY_PORT), and is reached at
    /// http://127.0.0.1:{port}/mcp once initialize answers there (within --wait, or the start timeout).
    #[arg(
        long,
        value_name = "'CMD ARGS'",
        conflicts_with_all = ["mcp_server", "mcp_server_url", "mcp_gateway", "mcp_gateway_url", "http_bridge", "http_bridge_url"]
    )]
    pub(super) mcp_gateway_http: Option<String>,
    /// Test the HTTP bridge this command line starts (claims http): it serves the tools
    /// of the harness's upstream MCP server (given to it as for --mcp-gateway) as HTTP endpoints,
    /// listening on 127.0.0.1 at {port}, which the harness substitutes (and sets in
    /// TOOL_CONFORMANCE_BRIDGE_PORT). Each call is a POST of the arguments as a JSON body.
    #[arg(
        long,
        value_name = "'CMD ARGS'",
        conflicts_with_all = ["mcp_server", "mcp_server_url", "mcp_gateway", "mcp_gateway_url", "http_bridge_url"]
    )]
    pub(super) http_bridge: Option<String>,
    /// Test the HTTP bridge serving at this base URL (claims http), configured with the
    /// upstream the harness starts and prints (or, with --mcp-record, one started by hand).
    #[arg(long, value_name = "URL", conflicts_with_all = ["mcp_server", "mcp_server_url", "mcp_gateway", "mcp_gateway_url"])]
    pub(super) http_bridge_url: Option<String>,
    /// The path of each tool's endpoint on the HTTP bridge, with {name} (once) for the
    /// tool's published name; the OpenAPI document names it by the same path.
    /// Default: /{name}.
    #[arg(long, value_name = "PATH")]
    pub(super) http_bridge_path: Option<String>,
    /// The path of the HTTP bridge's OpenAPI document, whose POST request body schemas
    /// are the tools' get_api_spec view.
    /// Default: /openapi.json.
    #[arg(long, value_name = "PATH")]
    pub(super) http_bridge_spec: Option<String>,
    /// Start the harness's upstream for --mcp-gateway-url or --http-bridge-url on this loopback ADDR
    /// (HOST:PORT, or PORT on 127.0.0.1), so that a gateway configured with it beforehand is tested
    /// in one command; its URL is http://ADDR/mcp.
    #[arg(long, value_name = "ADDR", conflicts_with = "mcp_record")]
    pub(super) mcp_upstream_listen: Option<String>,
    /// Keep trying initialize, every 200 ms, for at most this long (e.g. 30 or 30s) while
    /// the --mcp-server-url, --mcp-gateway-url or --mcp-gateway-http implementation is still
    /// starting (for an HTTP bridge, keep trying its OpenAPI document).
    #[arg(long, value_name = "SECONDS")]
    pub(super) wait: Option<String>,
    /// Send this header with every request of --mcp-server-url, --mcp-gateway-url,
    /// --mcp-gateway-http or an HTTP bridge (repeatable). 'NAME: env:VARIABLE' reads the value from the environment; the value is
    /// never printed or written to a report.
    #[arg(long, value_name = "'NAME: VALUE'")]
    pub(super) mcp_header: Vec<String>,
    /// The name the implementation publishes each tool under, with {name} (once) for
    /// the suite's name, e.g. up_{name} or {name}@upstream: tools are listed, read and called by it.
    #[arg(long, value_name = "TEMPLATE")]
    pub(super) mcp_tool_name: Option<String>,
    /// The words (a name, a URL) the HTTP errors of an implementation reached by an MCP route
    /// contain to point callers back to get_api_spec, in place of the tool's name `get_api_spec`.
    #[arg(long = "get-api-spec", value_name = "WORDS")]
    pub(super) get_api_spec: Option<String>,
}

impl McpArgs {
    /// The options of the MCP route `spec` names, checked against it (none without a route).
    pub(super) fn options(&self, spec: &TargetSpec) -> Result<McpOptions> {
        let route = match spec {
            TargetSpec::Mcp(route) => route,
            _ => {
                let given = [
                    ("--mcp-upstream-listen", self.mcp_upstream_listen.is_some()),
                    ("--wait", self.wait.is_some()),
                    ("--mcp-header", !self.mcp_header.is_empty()),
                    ("--mcp-tool-name", self.mcp_tool_name.is_some()),
                ];
                if let Some((flag, _)) = given.iter().find(|(_, given)| *given) {
                    anyhow::bail!("{flag} goes with an MCP route (--mcp-server, --mcp-gateway, …)");
                }
                return Ok(McpOptions::default());
            }
        };
        let headers = self
            .mcp_header
            .iter()
            .map(|text| Header::parse(text, |variable| std::env::var(variable).ok()))
            .collect::<Result<Vec<_>, _>>()?;
        let upstream_listen = match &self.mcp_upstream_listen {
            Some(text) => Some(
                serve::http::bind_address(text).map_err(|e| anyhow::anyhow!("--mcp-upstream-listen {text:?}: {e}"))?,
            ),
            None => None,
        };
        let wait = match &self.wait {
            Some(text) => Some(tool_conformance::run::config::parse_duration(text).context("--wait")?),
            None => None,
        };
        let tool_name = self.mcp_tool_name.as_deref().map(ToolNameTemplate::parse).transpose()?;
        let options = McpOptions { headers, tool_name, upstream_listen, wait };
        options.check(route)?;
        Ok(options)
    }

    /// What the implementation's HTTP errors point back to get_api_spec with, when given, checked
    /// against the target `spec` names.
    pub(super) fn spec_pointer(&self, spec: &TargetSpec) -> Result<Option<String>> {
        let Some(pointer) = &self.get_api_spec else { return Ok(None) };
        if !matches!(spec, TargetSpec::Mcp(_)) {
            anyhow::bail!(
                "--get-api-spec goes with an MCP route (--mcp-server, --mcp-server-url, --mcp-gateway, --mcp-gateway-http, --mcp-gateway-url) or an HTTP bridge (--http-bridge, --http-bridge-url); a protocol-v1 implementation says it in its start answer"
            );
        }
        if let Some(problem) = tool_conformance::peer::spec_pointer_problem(pointer) {
            anyhow::bail!("--get-api-spec {pointer:?}: {problem}");
        }
        Ok(Some(pointer.clone()))
    }

    /// The MCP route asked for, if any.
    pub(super) fn route(&self) -> Result<Option<McpRoute>> {
        // The library's errors name --stdio and --http: said here under the flag given.
        let named = |flag: &str, error: ConfigError| match error {
            ConfigError::BadCommand(text, why) | ConfigError::BadUrl(text, why) => {
                anyhow::anyhow!("{flag} {text:?}: {why}")
            }
            other => other.into(),
        };
        let command = |flag: &str, text: &str| CommandLine::parse(text).map_err(|e| named(flag, e));
        let url = |flag: &str, text: &str| HttpUrl::parse(text).map_err(|e| named(flag, e));
        let paths = || {
            let defaults = BridgePaths::default();
            BridgePaths::new(
                self.http_bridge_path.as_deref().unwrap_or(defaults.endpoint_template()),
                self.http_bridge_spec.as_deref().unwrap_or(defaults.spec()),
            )
        };
        if self.http_bridge.is_none() && self.http_bridge_url.is_none() {
            for (flag, given) in [
                ("--http-bridge-path", self.http_bridge_path.is_some()),
                ("--http-bridge-spec", self.http_bridge_spec.is_some()),
            ] {
                if given {
                    anyhow::bail!("{flag} goes with an HTTP bridge (--http-bridge, --http-bridge-url)");
                }
            }
        }
        if let Some(text) = &self.http_bridge {
            if self.mcp_record.is_some() {
                anyhow::bail!("--mcp-record goes with --mcp-server-url, --mcp-gateway-url or --http-bridge-url");
            }
            if let Some(why) = tool_conformance::peer::mcp::unknown_placeholder_of(
                text,
                &tool_conformance::peer::mcp::BRIDGE_PLACEHOLDERS,
            ) {
                anyhow::bail!("--http-bridge {text:?}: {why}");
            }
            return Ok(Some(McpRoute::Bridge { command: command("--http-bridge", text)?, paths: paths()? }));
        }
        if let Some(text) = &self.mcp_gateway_http {
            if self.mcp_record.is_some() {
                anyhow::bail!("--mcp-record goes with --mcp-server-url, --mcp-gateway-url or --http-bridge-url");
            }
            if let Some(why) = tool_conformance::peer::mcp::unknown_placeholder_of(
                text,
                &tool_conformance::peer::mcp::BRIDGE_PLACEHOLDERS,
            ) {
                anyhow::bail!("--mcp-gateway-http {text:?}: {why}");
            }
            return Ok(Some(McpRoute::GatewayHttp(command("--mcp-gateway-http", text)?)));
        }
        if let Some(text) = &self.http_bridge_url {
            let url = url("--http-bridge-url", text)?;
            return Ok(Some(McpRoute::BridgeUrl { url, record: self.mcp_record.clone(), paths: paths()? }));
        }
        Ok(Some(match (&self.mcp_server, &self.mcp_server_url, &self.mcp_gateway, &self.mcp_gateway_url) {
            (Some(text), ..) => McpRoute::Server(command("--mcp-server", text)?),
            (_, Some(text), ..) => McpRoute::ServerUrl {
                url: url("--mcp-server-url", text)?,
                record: self.mcp_record.clone().context("--mcp-server-url needs --mcp-record FILE")?,
            },
            (_, _, Some(text), _) => {
                if let Some(why) = tool_conformance::peer::mcp::unknown_placeholder(text) {
                    anyhow::bail!("--mcp-gateway {text:?}: {why}");
                }
                McpRoute::Gateway(command("--mcp-gateway", text)?)
            }
            (.., Some(text)) => {
                McpRoute::GatewayUrl { url: url("--mcp-gateway-url", text)?, record: self.mcp_record.clone() }
            }
            _ if self.mcp_record.is_some() => {
                anyhow::bail!("--mcp-record goes with --mcp-server-url, --mcp-gateway-url or --http-bridge-url")
            }
            _ => return Ok(None),
        }))
    }
}

#[derive(Args)]
pub(super) struct FuzzArgs {
    /// The seed: the same seed generates the same cases.
    #[arg(long, default_value_t = 0)]
    pub(super) seed: u64,
    /// Stop after N generated cases (1000 when neither --cases nor --time is given).
    #[arg(long, value_name = "N")]
    pub(super) cases: Option<u64>,
    /// Stop after this long, e.g. 30s or 5m.
    #[arg(long, value_name = "DURATION")]
    pub(super) time: Option<String>,
    /// Write each finding, shrunk, as a case file into DIR (<RULE>/<topic>.yaml, as --add-cases
    /// takes it).
    #[arg(long, value_name = "DIR")]
    pub(super) out: Option<PathBuf>,
    #[command(flatten)]
    pub(super) reach: ReachArgs,
}

impl FuzzArgs {
    pub(super) fn config(&self) -> Result<tool_conformance::fuzz::FuzzConfig> {
        let time = match &self.time {
            Some(text) => Some(tool_conformance::run::config::parse_duration(text).context("--time")?),
            None => None,
        };
        let cases = match (self.cases, time) {
            (None, None) => Some(1000),
            (cases, _) => cases,
        };
        Ok(tool_conformance::fuzz::FuzzConfig {
            target: self.reach.spec()?,
            limits: self.reach.limits()?,
            seed: self.seed,
            cases,
            time,
            out: self.out.clone(),
        })
    }
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("mode").required(true).multiple(false).args(["stdio", "http"])))]
pub(super) struct ServeArgs {
    /// Serve on stdin and stdout, one JSON object per line, until stop.
    #[arg(long)]
    pub(super) stdio: bool,
    /// Serve over HTTP on ADDR: PORT (on 127.0.0.1) or HOST:PORT; 127.0.0.1:8080 when ADDR is
    /// left out. Port 0 picks a free port. The URL is printed on stdout.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8080")]
    pub(super) http: Option<String>,
    /// Serve --http on an address that is not loopback. The server has no authentication:
    /// anyone who can reach the address can use it.
    #[arg(long, requires = "http")]
    pub(super) allow_remote: bool,
}

#[derive(Args)]
pub(super) struct CompareArgs {
    /// The earlier standing.json.
    #[arg(value_name = "OLD.json")]
    pub(super) old: PathBuf,
    /// The later standing.json.
    #[arg(value_name = "NEW.json")]
    pub(super) new: PathBuf,
}

#[derive(Args)]
pub(super) struct TableArgs {
    /// The folder of published standings, e.g. reports.
    #[arg(value_name = "DIR")]
    pub(super) dir: PathBuf,
}

#[derive(Args)]
pub(super) struct ReadmeArgs {
    /// The folder of one published standing, e.g. reports/mcp-python.
    #[arg(value_name = "DIR")]
    pub(super) dir: PathBuf,
    /// The adapter folder whose about.yaml describes it (default: examples/adapters/<name> beside
    /// the folder that holds DIR); a folder without about.yaml describes no adapter.
    #[arg(long, value_name = "ADAPTER_DIR")]
    pub(super) adapter: Option<PathBuf>,
}

#[derive(Args)]
pub(super) struct SiteArgs {
    /// The folder of published standings, e.g. reports.
    #[arg(value_name = "DIR")]
    pub(super) dir: PathBuf,
    /// The folder to write the site into.
    #[arg(long, value_name = "OUT")]
    pub(super) out: PathBuf,
}
