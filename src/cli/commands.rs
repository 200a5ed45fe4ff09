//! The commands: each takes its parsed arguments ([`super::args`]), calls the library, prints
//! what it returns (plain or colored) and answers the exit code, one of the library's named
//! constants ([`tool_conformance::exit`]).

use super::args::{CompareArgs, FuzzArgs, ReadmeArgs, RunArgs, SelectArgs, ServeArgs, SiteArgs, TableArgs};
use super::progress::Progress;
use super::{expected, show};
use anyhow::{Context, Result};
use tool_conformance::json::inert::{multi_line, one_line};
use tool_conformance::report::{Report, terminal};
use tool_conformance::run::config::{CorpusSource, RunConfig, TargetSpec};
use tool_conformance::run::jobs;
use tool_conformance::serve::{self, Server};
use tool_conformance::standing::expectations::ExpectedFailures;
use tool_conformance::standing::regression::{self, Snapshot};
use tool_conformance::{Corpus, Level, Reference, exit};

pub(super) fn run(config: &RunConfig, args: &RunArgs) -> Result<u8> {
    check_program(&config.target)?;
    let corpus = load(config)?;
    // A record written for another selection or corpus is a mis-set run, never a standing.
    if let TargetSpec::Mcp(route) = &config.target {
        let manifest = tool_conformance::mcp::Manifest::of(corpus.cases.iter().filter(|c| config.selection.matches(c)));
        if let Some(mismatch) = tool_conformance::peer::mcp::record_mismatch(route, &manifest) {
            anyhow::bail!(mismatch);
        }
    }
    let expected_failures = match args.expected_failures.as_deref() {
        Some(path) => {
            let file = ExpectedFailures::load(path)?;
            file.check_against(&corpus)?;
            expected::warn_unfilled(&file);
            Some(file)
        }
        None => None,
    };
    let selected = corpus.cases.iter().filter(|c| config.selection.matches(c)).count();
    let progress = Progress::new(selected);
    let started = std::time::Instant::now();
    let ran = jobs::run_with_progress(&corpus, config, &|outcome| progress.case_done(&outcome.id));
    progress.finish();
    let ran = ran?;
    if args.full {
        for part in &ran.transcript {
            outln!("--- {}", part.title);
            show::print_exchanges(&part.exchanges);
        }
    } else {
        let mut out = std::io::stdout().lock();
        for part in &ran.transcript {
            let _ = std::io::Write::write_all(
                &mut out,
                tool_conformance::report::transcript::render(&part.title, &part.exchanges).as_bytes(),
            );
        }
    }
    let run = ran.run;
    if run.implementation == tool_conformance::peer::Implementation::not_started() {
        name_urls(&config.target, "did not start (the report says why)");
    }
    let mut report = Report::for_corpus(&corpus, &run);
    if let Some(file) = &expected_failures {
        report = report.triaged(file);
    }
    if args.compact {
        print_maybe_colored(|| terminal::render_compact(&report, false), || terminal::render_compact(&report, true));
    } else {
        print_maybe_colored(|| terminal::render(&report), || terminal::render_colored(&report));
    }
    if args.full {
        print_full(&corpus, &report);
    }
    if let Some(path) = &args.write_expected_failures {
        let entries = expected::write(&report, path)?;
        outln!("\n{entries} expected failures written to {} (reasons to fill in)", path.display());
    }
    if let Some(dir) = &config.report_dir {
        report.write_dir(dir).with_context(|| format!("writing the report to {}", dir.display()))?;
        outln!("\nreport written to {}", dir.display());
    }
    let elapsed = started.elapsed();
    let summary = |colored| format!("\n{}\n", terminal::summary_line(&report, elapsed, colored));
    print_maybe_colored(|| summary(false), || summary(true));
    Ok(if report.fails_run() { exit::NONCONFORMING } else { exit::CONFORMS })
}

fn load(config: &RunConfig) -> Result<Corpus> {
    let corpus = config.corpus.load()?;
    config.selection.check_against(&corpus)?;
    Ok(corpus)
}

/// Says on stderr that the implementation at the URLs `target` was given `happened`: the reasons in
/// the reports name no URL (they are the same from run to run), and a connection error should.
fn name_urls(target: &TargetSpec, happened: &str) {
    let urls: Vec<&str> = target.urls().iter().map(|u| u.as_str()).collect();
    if !urls.is_empty() {
        eprintln!("the implementation at {} {happened}", one_line(&urls.join(", ")));
    }
}

/// A program the harness is to start (`--stdio`, `--mcp-server`, `--mcp-gateway`,
/// `--mcp-gateway-http`, `--http-bridge`) that is not there is a usage error (exit 2), said before
/// any case runs, rather than every case erroring for it.
fn check_program(target: &TargetSpec) -> Result<()> {
    let Some((flag, command)) = target.started() else { return Ok(()) };
    let program = command.program();
    if program.contains('{') {
        return Ok(()); // a placeholder the harness fills in when it starts it
    }
    let found = if program.contains('/') {
        std::path::Path::new(program).is_file()
    } else {
        std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
    };
    if !found {
        let where_ = if program.contains('/') { "not a file" } else { "not found on PATH" };
        anyhow::bail!(
            "the {flag} program {} is {where_}: check the command line {}",
            one_line(program),
            one_line(command.as_str())
        );
    }
    Ok(())
}

/// Whether what goes to stdout is colored: `--color`, then NO_COLOR, CLICOLOR and whether stdout
/// is a terminal that shows colors.
fn colored() -> bool {
    matches!(
        anstream::AutoStream::choice(&std::io::stdout()),
        anstream::ColorChoice::Always | anstream::ColorChoice::AlwaysAnsi
    )
}

/// Prints `plain()` or, when stdout is colored, `colored()`.
fn print_maybe_colored(plain: impl FnOnce() -> String, colored: impl FnOnce() -> String) {
    if self::colored() {
        use std::io::Write as _;
        let _ = write!(anstream::stdout().lock(), "{}", colored());
    } else {
        out!("{}", plain());
    }
}

/// With `--full`: each failing case's arguments, schema, expected and actual values, uncut.
fn print_full(corpus: &Corpus, report: &Report) {
    for outcome in report.problems() {
        let Some(case) = corpus.cases.iter().find(|c| c.id == outcome.id) else { continue };
        outln!("\n=== {} in full", outcome.id);
        for (what, value) in tool_conformance::report::sent(case) {
            outln!("{what}:\n{}", serde_json::to_string_pretty(&value).unwrap_or_default());
        }
        match &outcome.status {
            tool_conformance::Status::Fail(failure) => {
                outln!("check: {} (first difference at {:?})", failure.check, failure.pointer);
                outln!("expected:\n{}", serde_json::to_string_pretty(&failure.expected).unwrap_or_default());
                outln!("actual:\n{}", serde_json::to_string_pretty(&failure.actual).unwrap_or_default());
            }
            tool_conformance::Status::Error { reason } => outln!("error: {reason}"),
            _ => {}
        }
    }
}

pub(super) fn check(source: &CorpusSource) -> Result<u8> {
    let corpus = source.load()?;
    let coverage = corpus.coverage();
    let width = coverage.iter().map(|c| c.clause.len()).max().unwrap_or(0);
    outln!("{} cases in {} files", corpus.cases.len(), corpus.files.len());
    outln!("  {:<width$}  required  interpretation  informational", "clause");
    let mut uncovered = Vec::new();
    for clause in &coverage {
        outln!(
            "  {:<width$}  {:>8}  {:>14}  {:>13}",
            clause.clause,
            clause.count(Level::Required),
            clause.count(Level::Interpretation),
            clause.count(Level::Informational)
        );
        if clause.count(Level::Required) == 0 {
            uncovered.push(clause.clause.as_str());
        }
    }
    if uncovered.is_empty() {
        outln!("ok: every clause has a required case");
        Ok(exit::CONFORMS)
    } else {
        eprintln!("error: no required case for {}", uncovered.join(", "));
        Ok(exit::USAGE)
    }
}

pub(super) fn list(args: &SelectArgs) -> Result<u8> {
    let corpus = args.corpus.source().load()?;
    let selection = args.selection()?;
    selection.check_against(&corpus)?;
    let mut count = 0;
    for case in corpus.cases.iter().filter(|c| selection.matches(c)) {
        count += 1;
        outln!("{}\t{}\t{}\t{}", case.id, case.level, case.clauses.join(","), case.summary);
    }
    eprintln!("{count} cases");
    Ok(exit::CONFORMS)
}

pub(super) fn serve(args: &ServeArgs) -> Result<u8> {
    let Some(address) = &args.http else {
        let mut server = Server::new(Reference::new());
        serve::stdio::serve(
            &mut server,
            std::io::stdin().lock(),
            std::io::stdout().lock(),
            serve::stdio::MAX_REQUEST_BYTES,
        )
        .context("serving on stdio")?;
        return Ok(exit::CONFORMS);
    };
    let address = serve::http::bind_address(address)?;
    if !address.ip().is_loopback() && !args.allow_remote {
        anyhow::bail!(
            "{address} is not a loopback address, and the server has no authentication: give --allow-remote \
             to serve anyone who can reach it"
        );
    }
    let options = serve::http::HttpOptions::default();
    let listener = serve::http::listen(address, &options).with_context(|| format!("binding {address}"))?;
    let local = listener.local_addr()?;
    if !local.ip().is_loopback() {
        eprintln!("warning: {local} is not a loopback address: anyone who can reach it can use this server");
    }
    outln!("serving protocol v1 on http://{local}/");
    std::io::Write::flush(&mut std::io::stdout())?;
    serve::http::serve(listener, Reference::new, options).context("serving on HTTP")?;
    Ok(exit::CONFORMS)
}

pub(super) fn compare(args: &CompareArgs) -> Result<u8> {
    let old = Snapshot::load(&args.old)?;
    let new = Snapshot::load(&args.new)?;
    let comparison = regression::compare(&old, &new);
    use tool_conformance::report::comparison::render;
    print_maybe_colored(|| render(&comparison, false), || render(&comparison, true));
    Ok(if comparison.has_regression() { exit::NONCONFORMING } else { exit::CONFORMS })
}

pub(super) fn table(args: &TableArgs) -> Result<u8> {
    let standings = tool_conformance::report::table::load_all(&args.dir)?;
    outln!(
        "{}",
        multi_line(tool_conformance::report::table::render(&args.dir.to_string_lossy(), &standings).trim_end())
    );
    let unexplained: Vec<String> = standings
        .iter()
        .flat_map(|s| s.unexplained().into_iter().map(move |f| one_line(&format!("{}: {}", s.folder, f.case))))
        .collect();
    if unexplained.is_empty() {
        return Ok(exit::CONFORMS);
    }
    eprintln!(
        "{} failing required cases have no expected-failures reason (run with --expected-failures FILE):\n  {}",
        unexplained.len(),
        unexplained.join("\n  ")
    );
    Ok(exit::NONCONFORMING)
}

pub(super) fn readme(args: &ReadmeArgs) -> Result<u8> {
    use tool_conformance::report::readme;
    let (default_dir, default_link) = readme::adapter_of(&args.dir);
    let (adapter_dir, link) = match &args.adapter {
        Some(dir) => (dir.clone(), dir.to_string_lossy().trim_end_matches('/').to_string()),
        None => (default_dir, default_link),
    };
    let inputs = readme::Inputs::load(&args.dir, &adapter_dir, &link)?;
    let corpus = Corpus::embedded()?;
    out!("{}", multi_line(&readme::render(&inputs, &corpus)));
    Ok(exit::CONFORMS)
}

pub(super) fn site(args: &SiteArgs) -> Result<u8> {
    let config = tool_conformance::report::site::SiteConfig { standings: args.dir.clone(), out: args.out.clone() };
    outln!("{}", tool_conformance::report::site::build(&config)?);
    Ok(exit::CONFORMS)
}

pub(super) fn fuzz(args: &FuzzArgs) -> Result<u8> {
    let config = args.config()?;
    check_program(&config.target)?;
    let progress = match config.cases {
        Some(n) => Progress::new(usize::try_from(n).unwrap_or(usize::MAX)),
        None => Progress::new(0),
    };
    let report = tool_conformance::fuzz::run(&config, &mut |p| {
        progress.case_done(&format!(
            "{} required, {} interpretation findings, {} errors",
            p.required, p.interpretation, p.faults
        ))
    });
    progress.finish();
    if report.gave_up {
        // Over HTTP, fuzz reaches the first URL.
        if let Some(url) = config.target.urls().first() {
            eprintln!("the implementation at {} did not start or stopped answering", one_line(url.as_str()));
        }
    }
    out!("{}", multi_line(&tool_conformance::report::fuzz::render(&report)));
    Ok(if report.required.is_empty() && !report.gave_up { exit::CONFORMS } else { exit::NONCONFORMING })
}
