//! The command line: clap arguments parsed into the library's validated [`RunConfig`], then run.
//! Errors are printed with their whole cause chain; exit codes are the library's named constants
//! ([`tool_conformance::exit`]).

mod progress;

use anyhow::{Context, Result};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use progress::Progress;
use std::path::PathBuf;
use std::process::ExitCode;
use tool_conformance::json::inert::{multi_line, one_line};
use tool_conformance::peer::mcp::McpRoute;
use tool_conformance::report::{Report, terminal};
use tool_conformance::run::config::{
    BridgePaths, CommandLine, ConfigError, CorpusSource, Header, HttpUrl, Identity, Limits, McpOptions, RunConfig,
    Selection, TargetSpec, ToolNameTemplate,
};
use tool_conformance::run::jobs;
use tool_conformance::serve::{self, Server};
use tool_conformance::standing::expectations::ExpectedFailures;
use tool_conformance::standing::regression::{self, Snapshot};
use tool_conformance::{Corpus, Level, Reference, exit};

/// Prints to stdout like `print!`, but a closed stdout (a pipe into `head`) ends the output
/// quietly instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// [`out!`] with a newline.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

mod expected;
mod show;
mod upstream;

/// Conformance suite for RT-TOOL-8 (tool argument normalization) and PLAT-162 (schema
/// enforcement before dispatch).
#[derive(Parser)]
#[command(name = "tool-conformance", version, about, long_about = None)]
struct Cli {
    /// Color the output: auto (when stdout is a terminal that shows colors and NO_COLOR is
    /// unset), always, or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto", global = true)]
    color: ColorWhen,
    #[command(subcommand)]
    command: Command,
}

/// When to color what is printed.
#[derive(Clone, Copy, ValueEnum)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Command {
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
struct ReadmeArgs {
    /// The folder of one published standing, e.g. reports/mcp-python.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// The adapter folder whose about.yaml describes it (default: examples/adapters/<name> beside
    /// the folder that holds DIR); a folder without about.yaml describes no adapter.
    #[arg(long, value_name = "ADAPTER_DIR")]
    adapter: Option<PathBuf>,
}

#[derive(Args)]
struct FuzzArgs {
    /// The seed: the same seed generates the same cases.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Stop after N generated cases (1000 when neither --cases nor --time is given).
    #[arg(long, value_name = "N")]
    cases: Option<u64>,
    /// Stop after this long, e.g. 30s or 5m.
    #[arg(long, value_name = "DURATION")]
    time: Option<String>,
    /// Write each finding, shrunk, as a case file into DIR (<RULE>/<topic>.yaml, as --add-cases
    /// takes it).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    #[command(flatten)]
    reach: ReachArgs,
}

impl FuzzArgs {
    fn config(&self) -> Result<tool_conformance::fuzz::FuzzConfig> {
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

fn fuzz(args: &FuzzArgs) -> Result<u8> {
    let config = args.config()?;
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

#[derive(Args)]
struct TableArgs {
    /// The folder of published standings, e.g. reports.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

#[derive(Args)]
struct CompareArgs {
    /// The earlier standing.json.
    #[arg(value_name = "OLD.json")]
    old: PathBuf,
    /// The later standing.json.
    #[arg(value_name = "NEW.json")]
    new: PathBuf,
}

#[derive(Args)]
struct CorpusArgs {
    /// Use the corpus in DIR (one folder per rule, each with its rule.yaml) instead of the one built in.
    #[arg(long, value_name = "DIR")]
    cases: Option<PathBuf>,
    /// Add the case files in DIR (laid out as <RULE>/<topic>.yaml) to the corpus, built in or
    /// --cases (repeatable). A file may not replace one the corpus has.
    #[arg(long, value_name = "DIR")]
    add_cases: Vec<PathBuf>,
}

#[derive(Args)]
struct CheckArgs {
    /// The folder to lint: a whole corpus, or new case files to add to the built-in one (or to
    /// --cases).
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
    #[command(flatten)]
    corpus: CorpusArgs,
}

impl CheckArgs {
    /// A DIR holding the rule file of a built-in rule is a whole corpus (a working copy); one
    /// holding case files only, or new rules with their cases, is added to the corpus.
    fn source(&self) -> Result<CorpusSource> {
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

/// Which cases: the corpus and the filters on it.
#[derive(Args)]
struct SelectArgs {
    #[command(flatten)]
    corpus: CorpusArgs,
    /// Only cases of this rule (repeatable).
    #[arg(long, value_name = "RULE")]
    rule: Vec<String>,
    /// Only cases citing this clause (repeatable).
    #[arg(long, value_name = "CLAUSE")]
    clause: Vec<String>,
    /// Only cases whose id matches this glob; `*` also matches `/` (repeatable).
    #[arg(long = "case", value_name = "GLOB")]
    case_globs: Vec<String>,
    /// Leave out the cases whose id matches this glob; `*` also matches `/` (repeatable).
    #[arg(long = "skip", value_name = "GLOB")]
    skip_globs: Vec<String>,
}

impl SelectArgs {
    fn selection(&self) -> Result<Selection> {
        let selection = Selection::new(self.rule.clone(), self.clause.clone(), self.case_globs.clone())?;
        Ok(selection.skipping(self.skip_globs.clone())?)
    }
}

#[derive(Args)]
struct ListArgs {
    #[command(flatten)]
    select: SelectArgs,
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    select: SelectArgs,
    /// Write standing.json, standing.md, junit.xml, standing.html and badge-<rule>.json into DIR.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Known failures, in YAML (case or clause ids, each with a reason): listed
    /// failures do not fail the run; a listed case that now passes, or a failure not listed, does.
    #[arg(long, value_name = "FILE")]
    expected_failures: Option<PathBuf>,
    /// Write the cases that fail the run to FILE as an expected-failures file, each with a reason
    /// to fill in (an existing FILE is replaced). Listed cases that pass later are stale entries
    /// and fail the run.
    #[arg(long, value_name = "FILE")]
    write_expected_failures: Option<PathBuf>,
    /// Print the whole exchange of the selected cases, each request and response uncut up to
    /// 64 KiB, and each failing case's arguments, schema, expected and actual values in full
    /// (needs --case).
    #[arg(long, requires = "case_globs")]
    full: bool,
    /// Print a line per rule and one line per failing case, instead of the tables and
    /// each failure's diff.
    #[arg(long, conflicts_with = "full")]
    compact: bool,
    /// What the reports call the implementation, whatever it answers (an MCP server's
    /// serverInfo that is missing, its upstream's, or random from run to run); the report keeps
    /// what it answered beside it.
    #[arg(long, value_name = "NAME", value_parser = non_empty)]
    name: Option<String>,
    /// The version the reports give the implementation, whatever it answers.
    #[arg(long = "version", value_name = "VERSION", value_parser = non_empty)]
    implementation_version: Option<String>,
    #[command(flatten)]
    target: TargetArgs,
}

/// A value that is not empty or blank.
fn non_empty(text: &str) -> Result<String, String> {
    if text.trim().is_empty() { Err("the value is empty".into()) } else { Ok(text.to_string()) }
}

impl CorpusArgs {
    fn base(&self) -> CorpusSource {
        match &self.cases {
            Some(dir) => CorpusSource::Directory(dir.clone()),
            None => CorpusSource::Embedded,
        }
    }

    fn source(&self) -> CorpusSource {
        if self.add_cases.is_empty() {
            self.base()
        } else {
            CorpusSource::Added { base: Box::new(self.base()), added: self.add_cases.clone() }
        }
    }
}

impl RunArgs {
    fn config(&self) -> Result<RunConfig> {
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

/// Parses the command line, runs the command and maps the result to an exit code.
pub fn main() -> ExitCode {
    let command = Cli::command().after_help(exit::help_text());
    let cli = match Cli::from_arg_matches(&command.get_matches()) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    match cli.color {
        ColorWhen::Auto => anstream::ColorChoice::Auto,
        ColorWhen::Always => anstream::ColorChoice::Always,
        ColorWhen::Never => anstream::ColorChoice::Never,
    }
    .write_global();
    if let Command::Run(_) = &cli.command {
        // Before any thread starts: an interrupted run ends the processes it started and
        // removes its folders.
        tool_conformance::peer::reaper::on_interrupt();
    }
    let result = match &cli.command {
        Command::Run(args) => args.config().and_then(|config| run(&config, args)),
        Command::Check(args) => args.source().and_then(|source| check(&source)),
        Command::List(args) => list(&args.select),
        Command::Show(args) => show::show(args),
        Command::Serve(args) => serve(args),
        Command::Compare(args) => compare(args),
        Command::Table(args) => table(args),
        Command::Readme(args) => readme(args),
        Command::Site(args) => site(args),
        Command::Fuzz(args) => fuzz(args),
        Command::Manifest(args) => upstream::manifest(args),
        Command::McpUpstream(args) => upstream::mcp_upstream(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("error: {}", multi_line(&format!("{error:#}")));
            ExitCode::from(exit::USAGE)
        }
    }
}

fn load(config: &RunConfig) -> Result<Corpus> {
    let corpus = config.corpus.load()?;
    config.selection.check_against(&corpus)?;
    Ok(corpus)
}

fn run(config: &RunConfig, args: &RunArgs) -> Result<u8> {
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

/// Says on stderr that the implementation at the URLs `target` was given `happened`: the reasons in
/// the reports name no URL (they are the same from run to run), and a connection error should.
fn name_urls(target: &TargetSpec, happened: &str) {
    let urls: Vec<&str> = target.urls().iter().map(|u| u.as_str()).collect();
    if !urls.is_empty() {
        eprintln!("the implementation at {} {happened}", one_line(&urls.join(", ")));
    }
}

/// A `--stdio` program that is not there is a usage error (exit 2), said before any case runs,
/// rather than every case erroring for it.
fn check_program(target: &TargetSpec) -> Result<()> {
    let TargetSpec::Stdio(command) = target else { return Ok(()) };
    let program = command.program();
    let found = if program.contains('/') {
        std::path::Path::new(program).is_file()
    } else {
        std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
    };
    if !found {
        let where_ = if program.contains('/') { "not a file" } else { "not found on PATH" };
        anyhow::bail!(
            "the --stdio program {} is {where_}: check the command line {}",
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

fn compare(args: &CompareArgs) -> Result<u8> {
    let old = Snapshot::load(&args.old)?;
    let new = Snapshot::load(&args.new)?;
    let comparison = regression::compare(&old, &new);
    use tool_conformance::report::comparison::render;
    print_maybe_colored(|| render(&comparison, false), || render(&comparison, true));
    Ok(if comparison.has_regression() { exit::NONCONFORMING } else { exit::CONFORMS })
}

fn readme(args: &ReadmeArgs) -> Result<u8> {
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

#[derive(Args)]
struct SiteArgs {
    /// The folder of published standings, e.g. reports.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// The folder to write the site into.
    #[arg(long, value_name = "OUT")]
    out: PathBuf,
}

fn site(args: &SiteArgs) -> Result<u8> {
    let config = tool_conformance::report::site::SiteConfig { standings: args.dir.clone(), out: args.out.clone() };
    outln!("{}", tool_conformance::report::site::build(&config)?);
    Ok(exit::CONFORMS)
}

fn table(args: &TableArgs) -> Result<u8> {
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

fn check(source: &CorpusSource) -> Result<u8> {
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

fn list(args: &SelectArgs) -> Result<u8> {
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

/// The implementation `run` and `fuzz` reach, and the limits they reach it within: one group of
/// flags, the same for both commands.
#[derive(Args)]
struct ReachArgs {
    /// Test the implementation this command line starts, over protocol v1 on its stdin and
    /// stdout. It is split into words as a POSIX shell would (quotes and backslashes work) and run
    /// without a shell: no variables, globs, pipes or redirections.
    #[arg(long, value_name = "'CMD ARGS'", conflicts_with = "http")]
    stdio: Option<String>,
    /// Test the implementation serving protocol v1 at this http:// URL. `run` takes it again to
    /// spread the cases over several running instances; `fuzz` reaches the first.
    #[arg(long, value_name = "URL")]
    http: Vec<String>,
    /// The longest wait for one response, e.g. 5s or 500ms.
    #[arg(long, value_name = "DURATION", default_value = "5s")]
    timeout: String,
    /// The longest wait for the implementation to start and answer start.
    #[arg(long, value_name = "DURATION", default_value = "10s")]
    start_timeout: String,
    /// Restarts allowed after a crash, a timeout or an unreadable response; then the remaining
    /// cases are errors.
    #[arg(long, value_name = "N", default_value_t = Limits::default().restarts)]
    restarts: u32,
}

/// The implementation a run tests, how it is reached, and on how many instances.
#[derive(Args)]
struct TargetArgs {
    #[command(flatten)]
    reach: ReachArgs,
    /// Run N instances at once, the cases spread across them; the result is that of a
    /// serial run. Over HTTP, give one --http URL per instance.
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Check every message against schemas/protocol.schema.json; a violation is an
    /// error naming the message and the schema path.
    #[arg(long)]
    validate_protocol: bool,
    /// Print every request and response of the selected cases, with timing (needs
    /// --case).
    #[arg(long, requires = "case_globs")]
    transcript: bool,
    #[command(flatten)]
    mcp: McpArgs,
}

/// An MCP server or gateway reached over MCP itself, with no protocol-v1 adapter.
#[derive(Args)]
#[group(id = "mcp", multiple = true, conflicts_with_all = ["stdio", "http", "validate_protocol"])]
struct McpArgs {
    /// Test the MCP server this command line starts, as its MCP client over stdio
    /// (claims the structured transport). It gets the run's tool manifest and the record its
    /// handlers append to in TOOL_CONFORMANCE_MANIFEST and TOOL_CONFORMANCE_RECORD.
    #[arg(long, value_name = "'CMD ARGS'", conflicts_with_all = ["mcp_server_url", "mcp_gateway", "mcp_gateway_url"])]
    mcp_server: Option<String>,
    /// Test the MCP server serving Streamable HTTP at this URL (claims http), started
    /// with the manifest `tool-conformance manifest` prints and TOOL_CONFORMANCE_RECORD=FILE of
    /// --mcp-record.
    #[arg(long, value_name = "URL", requires = "mcp_record", conflicts_with_all = ["mcp_gateway", "mcp_gateway_url"])]
    mcp_server_url: Option<String>,
    /// The record the handlers of the --mcp-server-url server (or of the upstream an
    /// --mcp-gateway-url gateway forwards to, started by hand) append to.
    #[arg(long, value_name = "FILE")]
    mcp_record: Option<PathBuf>,
    /// Test the MCP gateway this command line starts, over stdio (claims structured):
    /// the harness is also its upstream MCP server, given to it in TOOL_CONFORMANCE_UPSTREAM_URL
    /// and TOOL_CONFORMANCE_UPSTREAM_CMD, and as {upstream_url} and {upstream_cmd} in CMD.
    #[arg(long, value_name = "'CMD ARGS'", conflicts_with = "mcp_gateway_url")]
    mcp_gateway: Option<String>,
    /// Test the MCP gateway serving Streamable HTTP at this URL (claims http); the
    /// harness starts its upstream MCP server and prints how to reach it, or, with --mcp-record,
    /// reads the record of an upstream started by hand (`tool-conformance mcp-upstream`).
    #[arg(long, value_name = "URL")]
    mcp_gateway_url: Option<String>,
    /// Test the HTTP bridge this command line starts (claims http): it serves the tools
    /// of the harness's upstream MCP server (given to it as for --mcp-gateway) as HTTP endpoints,
    /// listening on 127.0.0.1 at {port}, which the harness substitutes (and sets in
    /// TOOL_CONFORMANCE_BRIDGE_PORT). Each call is a POST of the arguments as a JSON body.
    #[arg(
        long,
        value_name = "'CMD ARGS'",
        conflicts_with_all = ["mcp_server", "mcp_server_url", "mcp_gateway", "mcp_gateway_url", "http_bridge_url"]
    )]
    http_bridge: Option<String>,
    /// Test the HTTP bridge serving at this base URL (claims http), configured with the
    /// upstream the harness starts and prints (or, with --mcp-record, one started by hand).
    #[arg(long, value_name = "URL", conflicts_with_all = ["mcp_server", "mcp_server_url", "mcp_gateway", "mcp_gateway_url"])]
    http_bridge_url: Option<String>,
    /// The path of each tool's endpoint on the HTTP bridge, with {name} (once) for the
    /// tool's published name; the OpenAPI document names it by the same path.
    /// Default: /{name}.
    #[arg(long, value_name = "PATH")]
    http_bridge_path: Option<String>,
    /// The path of the HTTP bridge's OpenAPI document, whose POST request body schemas
    /// are the tools' get_api_spec view.
    /// Default: /openapi.json.
    #[arg(long, value_name = "PATH")]
    http_bridge_spec: Option<String>,
    /// Start the harness's upstream for --mcp-gateway-url or --http-bridge-url on this loopback ADDR
    /// (HOST:PORT, or PORT on 127.0.0.1), so that a gateway configured with it beforehand is tested
    /// in one command; its URL is http://ADDR/mcp.
    #[arg(long, value_name = "ADDR", conflicts_with = "mcp_record")]
    mcp_upstream_listen: Option<String>,
    /// Keep trying initialize, every 200 ms, for at most this long (e.g. 30 or 30s) while
    /// the --mcp-server-url or --mcp-gateway-url implementation is still starting (for an HTTP
    /// bridge, keep trying its OpenAPI document).
    #[arg(long, value_name = "SECONDS")]
    wait: Option<String>,
    /// Send this header with every request of --mcp-server-url, --mcp-gateway-url or an HTTP bridge
    /// (repeatable). 'NAME: env:VARIABLE' reads the value from the environment; the value is
    /// never printed or written to a report.
    #[arg(long, value_name = "'NAME: VALUE'")]
    mcp_header: Vec<String>,
    /// The name the implementation publishes each tool under, with {name} (once) for
    /// the suite's name, e.g. up_{name} or {name}@upstream: tools are listed, read and called by it.
    #[arg(long, value_name = "TEMPLATE")]
    mcp_tool_name: Option<String>,
    /// The words (a name, a URL) the HTTP errors of an implementation reached by an MCP route
    /// contain to point callers back to get_api_spec, in place of the tool's name `get_api_spec`.
    #[arg(long = "get-api-spec", value_name = "WORDS")]
    get_api_spec: Option<String>,
}

impl McpArgs {
    /// The options of the MCP route `spec` names, checked against it (none without a route).
    fn options(&self, spec: &TargetSpec) -> Result<McpOptions> {
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
    fn spec_pointer(&self, spec: &TargetSpec) -> Result<Option<String>> {
        let Some(pointer) = &self.get_api_spec else { return Ok(None) };
        if !matches!(spec, TargetSpec::Mcp(_)) {
            anyhow::bail!(
                "--get-api-spec goes with an MCP route (--mcp-server, --mcp-server-url, --mcp-gateway, --mcp-gateway-url) or an HTTP bridge (--http-bridge, --http-bridge-url); a protocol-v1 implementation says it in its start answer"
            );
        }
        if let Some(problem) = tool_conformance::peer::spec_pointer_problem(pointer) {
            anyhow::bail!("--get-api-spec {pointer:?}: {problem}");
        }
        Ok(Some(pointer.clone()))
    }

    /// The MCP route asked for, if any.
    fn route(&self) -> Result<Option<McpRoute>> {
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

impl TargetArgs {
    /// The implementation the run tests: an MCP route, or what --stdio and --http name.
    fn spec(&self) -> Result<TargetSpec> {
        match self.mcp.route()? {
            Some(route) => Ok(TargetSpec::Mcp(route)),
            None => self.reach.spec(),
        }
    }
}

impl ReachArgs {
    fn spec(&self) -> Result<TargetSpec> {
        Ok(match (&self.stdio, self.http.is_empty()) {
            (Some(command), _) => TargetSpec::Stdio(CommandLine::parse(command)?),
            (None, false) => TargetSpec::Http(self.http.iter().map(|u| HttpUrl::parse(u)).collect::<Result<_, _>>()?),
            (None, true) => TargetSpec::Reference,
        })
    }

    fn limits(&self) -> Result<Limits> {
        Ok(Limits {
            timeout: tool_conformance::run::config::parse_duration(&self.timeout).context("--timeout")?,
            start_timeout: tool_conformance::run::config::parse_duration(&self.start_timeout)
                .context("--start-timeout")?,
            restarts: self.restarts,
            ..Limits::default()
        })
    }
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("mode").required(true).multiple(false).args(["stdio", "http"])))]
struct ServeArgs {
    /// Serve on stdin and stdout, one JSON object per line, until stop.
    #[arg(long)]
    stdio: bool,
    /// Serve over HTTP on ADDR: PORT (on 127.0.0.1) or HOST:PORT; 127.0.0.1:8080 when ADDR is
    /// left out. Port 0 picks a free port. The URL is printed on stdout.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8080")]
    http: Option<String>,
    /// Serve --http on an address that is not loopback. The server has no authentication:
    /// anyone who can reach the address can use it.
    #[arg(long, requires = "http")]
    allow_remote: bool,
}

fn serve(args: &ServeArgs) -> Result<u8> {
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
