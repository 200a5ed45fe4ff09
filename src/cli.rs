//! The command line: clap arguments parsed into the library's validated [`RunConfig`], then run.
//! Errors are printed with their whole cause chain; exit codes are the library's named constants
//! ([`tool_conformance::exit`]).

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use tool_conformance::config::{CorpusSource, RunConfig, Selection};
use tool_conformance::report::{Report, terminal};
use tool_conformance::{Corpus, Level, Reference, exit, runner};

/// Conformance suite for RT-TOOL-8 (tool argument normalization) and PLAT-162 (schema
/// enforcement before dispatch).
#[derive(Parser)]
#[command(name = "tool-conformance", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 every selected required case passed; 1 some required case failed or errored; 2 bad usage or a bad corpus."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the suite and print the standing (against the built-in reference).
    Run(RunArgs),
    /// Lint the corpus: every file valid, ids unique, every clause with a required case.
    Check(CorpusArgs),
    /// List the selected cases: id, level, clauses and summary.
    List(RunArgs),
}

#[derive(Args)]
struct CorpusArgs {
    /// Use the corpus in DIR (its root holds rules.yaml) instead of the one built in.
    #[arg(long, value_name = "DIR")]
    cases: Option<PathBuf>,
}

#[derive(Args)]
struct RunArgs {
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
    /// Write standing.json and standing.md into DIR.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
}

impl CorpusArgs {
    fn source(&self) -> CorpusSource {
        match &self.cases {
            Some(dir) => CorpusSource::Directory(dir.clone()),
            None => CorpusSource::Embedded,
        }
    }
}

impl RunArgs {
    fn config(&self) -> Result<RunConfig> {
        Ok(RunConfig {
            corpus: self.corpus.source(),
            selection: Selection::new(self.rule.clone(), self.clause.clone(), self.case_globs.clone())?,
            report_dir: self.report.clone(),
        })
    }
}

/// Parses the command line, runs the command and maps the result to an exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Run(args) => args.config().and_then(|config| run(&config)),
        Command::Check(args) => check(&args.source()),
        Command::List(args) => args.config().and_then(|config| list(&config)),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(exit::USAGE)
        }
    }
}

fn load(config: &RunConfig) -> Result<Corpus> {
    let corpus = config.corpus.load()?;
    config.selection.check_against(&corpus)?;
    Ok(corpus)
}

fn run(config: &RunConfig) -> Result<u8> {
    let corpus = load(config)?;
    let mut target = Reference::new();
    let run = runner::run(&corpus, &config.selection, &mut target);
    let report = Report::new(&corpus.catalog, &run);
    print!("{}", terminal::render(&report));
    if let Some(dir) = &config.report_dir {
        report.write_dir(dir).with_context(|| format!("writing the report to {}", dir.display()))?;
        println!("\nreport written to {}", dir.display());
    }
    Ok(if run.breaks_a_rule() { exit::NONCONFORMING } else { exit::CONFORMS })
}

fn check(source: &CorpusSource) -> Result<u8> {
    let corpus = source.load()?;
    let coverage = corpus.coverage();
    let width = coverage.iter().map(|c| c.clause.len()).max().unwrap_or(0);
    println!("{} cases in {} files", corpus.cases.len(), corpus.files.len());
    println!("  {:<width$}  required  interpretation  informational", "clause");
    let mut uncovered = Vec::new();
    for clause in &coverage {
        println!(
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
        println!("ok: every clause has a required case");
        Ok(exit::CONFORMS)
    } else {
        eprintln!("error: no required case for {}", uncovered.join(", "));
        Ok(exit::USAGE)
    }
}

fn list(config: &RunConfig) -> Result<u8> {
    let corpus = load(config)?;
    let mut count = 0;
    for case in corpus.cases.iter().filter(|c| config.selection.matches(c)) {
        count += 1;
        println!("{}\t{}\t{}\t{}", case.id, case.level, case.clauses.join(","), case.summary);
    }
    eprintln!("{count} cases");
    Ok(exit::CONFORMS)
}
