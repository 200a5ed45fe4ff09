//! `tool-conformance manifest` prints the MCP tool manifest of a selection, and
//! `tool-conformance mcp-upstream` serves it as the recording MCP upstream a gateway under test
//! forwards to (on stdio, or on loopback Streamable HTTP).

use super::args::SelectArgs;
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;
use tool_conformance::case::{Case, Check};
use tool_conformance::exit;
use tool_conformance::json::inert::one_line;
use tool_conformance::mcp::manifest::Manifest;
use tool_conformance::serve::http::{HttpOptions, bind_address, listen};
use tool_conformance::serve::mcp::{self as upstream, Upstream};

/// The variable naming the manifest file, when --manifest is not given.
pub const MANIFEST_VAR: &str = "TOOL_CONFORMANCE_MANIFEST";

/// The variable naming the record file, when --record is not given.
pub const RECORD_VAR: &str = "TOOL_CONFORMANCE_RECORD";

#[derive(Args)]
pub(super) struct ManifestArgs {
    #[command(flatten)]
    select: SelectArgs,
}

/// Prints the manifest of the selected cases.
pub(super) fn manifest(args: &ManifestArgs) -> Result<u8> {
    let corpus = args.select.corpus.source().load()?;
    let selection = args.select.selection()?;
    selection.check_against(&corpus)?;
    let selected: Vec<&Case> = corpus.cases.iter().filter(|c| selection.matches(c)).collect();
    let manifest = Manifest::of(selected.iter().copied());
    out!("{}", manifest.to_text());
    for (tool, why) in manifest.outside_mcp() {
        let cases: Vec<&str> = selected
            .iter()
            .filter(|case| match &case.check {
                Check::Normalize { input_schema, .. } => manifest.name_of_normalize(input_schema) == Some(&tool.name),
                Check::Invoke { tools, .. } | Check::Describe { tools, .. } => {
                    tools.iter().any(|t| manifest.name_of_tool(t) == Some(&tool.name))
                }
            })
            .map(|case| case.id.as_str())
            .collect();
        eprintln!(
            "note: MCP does not allow the input schema of {} ({why}): mcp-upstream does not publish it, and through \
             a gateway its {} case(s) are not applicable; a server under test registers it as its framework does",
            one_line(&tool.name),
            cases.len()
        );
    }
    Ok(exit::CONFORMS)
}

#[derive(Args)]
pub(super) struct UpstreamArgs {
    /// The manifest whose tools are published (default: the file TOOL_CONFORMANCE_MANIFEST names).
    #[arg(long, value_name = "FILE")]
    manifest: Option<PathBuf>,
    /// The file each call's line is appended to (default: the file TOOL_CONFORMANCE_RECORD names).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Serve Streamable HTTP on ADDR (PORT on 127.0.0.1, or a loopback HOST:PORT; port 0 picks a
    /// free one) instead of stdio, and print the URL as the first line on stdout.
    #[arg(long, value_name = "ADDR")]
    http: Option<String>,
}

/// `flag`'s path, or the one `var` names.
fn path_of(flag: &Option<PathBuf>, name: &str, var: &str) -> Result<PathBuf> {
    match flag {
        Some(path) => Ok(path.clone()),
        None => match std::env::var_os(var) {
            Some(path) if !path.is_empty() => Ok(PathBuf::from(path)),
            _ => anyhow::bail!("no {name}: give --{name} FILE or set {var}"),
        },
    }
}

/// Serves the recording upstream until the end of stdin, or for ever on HTTP.
pub(super) fn mcp_upstream(args: &UpstreamArgs) -> Result<u8> {
    let manifest = Manifest::read(&path_of(&args.manifest, "manifest", MANIFEST_VAR)?)?;
    let record_path = path_of(&args.record, "record", RECORD_VAR)?;
    let record = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&record_path)
        .with_context(|| format!("opening the record {}", record_path.display()))?;
    let upstream = Upstream::new(manifest, Box::new(record));
    let Some(address) = &args.http else {
        upstream::serve_stdio(upstream).context("serving MCP on stdio")?;
        return Ok(exit::CONFORMS);
    };
    let address = bind_address(address)?;
    if !address.ip().is_loopback() {
        anyhow::bail!("{address} is not a loopback address: the recording upstream serves loopback only");
    }
    let options = HttpOptions::default();
    let listener = listen(address, &options).with_context(|| format!("binding {address}"))?;
    outln!("http://{}/mcp", listener.local_addr()?);
    std::io::Write::flush(&mut std::io::stdout())?;
    upstream::serve_http(upstream, listener, options).context("serving MCP on HTTP")?;
    Ok(exit::CONFORMS)
}
