//! `show CASE_ID`: one case explained. It prints the case as its file has it, the sentence of the
//! rule text behind each clause it cites (from `specs/clauses.json` and the texts in `specs/`,
//! built into the binary; a rule without a text there shows its rule.yaml summary), what is sent
//! (arguments, schema, tools), what is expected, every check the judge makes of it at its level
//! (`judge::checks_of`: the case's own checks, what each asks, and the checks beyond the text with
//! the reading each rests on), the exact requests as they go over protocol v1 with the built-in
//! reference's answers, and why the case holds at its level.

use super::args::CorpusArgs;
use anyhow::{Context, Result, bail};
use clap::Args;
use tool_conformance::case::{Check, Expect, Level};
use tool_conformance::judge::CheckLevel;
use tool_conformance::peer::transcript::{Exchange, Received};
use tool_conformance::run::config::{RunConfig, Selection};
use tool_conformance::run::jobs;
use tool_conformance::{Case, Corpus, exit};

#[derive(Args)]
pub(super) struct ShowArgs {
    /// The case id, e.g. RT-TOOL-8/examples/doubly-escaped-title.
    #[arg(value_name = "CASE_ID")]
    id: String,
    #[command(flatten)]
    corpus: CorpusArgs,
}

/// Prints the case `args.id` names; an id the corpus does not have is bad usage.
pub(super) fn show(args: &ShowArgs) -> Result<u8> {
    let corpus = args.corpus.source().load()?;
    let Some(case) = corpus.cases.iter().find(|c| c.id == args.id) else {
        // The ids nearest to a typo, as run and list suggest them for --case.
        let hint = tool_conformance::run::config::did_you_mean(&args.id, corpus.cases.iter().map(|c| c.id.as_str()));
        bail!("no case {} in the corpus{hint}; `tool-conformance list` lists them", args.id);
    };
    outln!("{}", case.id);
    outln!("  {}", case.summary);
    outln!(
        "  level: {}    clauses: {}    defined at {}:{}",
        case.level,
        case.clauses.join(", "),
        case.location.file.display(),
        case.location.line
    );
    outln!("\nThe rule text:");
    for clause in &case.clauses {
        print_clause(&corpus, clause);
    }
    outln!("\nThe case as written ({}):", case.location.file.display());
    for line in as_written(&corpus, case).lines() {
        outln!("  {line}");
    }
    outln!("\nSent:");
    for (what, value) in tool_conformance::report::sent(case) {
        outln!("  {what}:");
        print_indented(&serde_json::to_string_pretty(&value).unwrap_or_default(), 4);
    }
    outln!("\nExpected, as the case writes it (what each check holds it to is below):");
    print_expected(case)?;
    outln!("\nThe checks the runner makes, each at its level:");
    print_checks(case);
    outln!("\nOn the wire, against the built-in reference (> sent, < received):");
    print_wire(&corpus, case)?;
    outln!("\nWhy:");
    outln!("  {}", why(case));
    Ok(exit::CONFORMS)
}

fn print_clause(corpus: &Corpus, clause: &str) {
    let summary = corpus.catalog.clause(clause).map(|(_, c)| c.summary.clone()).unwrap_or_default();
    outln!("  {clause}: {summary}");
    match tool_conformance::corpus::specs::clause_sentences(clause) {
        Some((file, sentences)) => {
            for sentence in sentences {
                outln!("    \"{sentence}\"");
            }
            outln!("    ({file}; the clause ids are mapped onto the texts in specs/README.md)");
        }
        None => outln!("    (no rule text in specs/ for this clause: the summary above, from its rule.yaml, is all)"),
    }
}

/// The case's entry in its file: from its `- name:` line to the next entry or the end of its group.
fn as_written(corpus: &Corpus, case: &Case) -> String {
    let Some((_, text)) = corpus.files.iter().find(|(path, _)| *path == case.location.file) else {
        return String::new();
    };
    let lines: Vec<&str> = text.lines().collect();
    let first = case.location.line.saturating_sub(1);
    let Some(head) = lines.get(first) else { return String::new() };
    let indent = head.len() - head.trim_start().len();
    let mut out = vec![head.trim_end()];
    for line in lines.iter().skip(first + 1) {
        let own = line.len() - line.trim_start().len();
        if !line.trim().is_empty() && (own < indent || (own == indent && line.trim_start().starts_with('-'))) {
            break;
        }
        out.push(line.trim_end());
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    out.iter().map(|l| l.get(indent.min(l.len())..).unwrap_or(l)).collect::<Vec<_>>().join("\n")
}

fn print_expected(case: &Case) -> Result<()> {
    fn one<T: serde::Serialize>(value: &T) -> Result<String> {
        Ok(serde_json::to_string_pretty(value)?)
    }
    fn each<T: serde::Serialize>(expect: &Expect<T>, what: &str) -> Result<()> {
        match expect {
            Expect::One(value) => {
                outln!("  {what}:");
                print_indented(&one(value)?, 4);
            }
            Expect::Behaviours(behaviours) => {
                outln!("  {what}, one of these behaviours (the rule leaves it open):");
                for (name, value) in behaviours {
                    outln!("    {name}:");
                    print_indented(&one(value)?, 6);
                }
            }
        }
        Ok(())
    }
    match &case.check {
        Check::Normalize { expect, .. } => each(expect, "the arguments that reach the tool"),
        Check::Invoke { expect, .. } => each(expect, "the outcome of the call"),
        Check::Describe { views, tool, .. } => {
            let on: Vec<&str> = views.iter().map(|v| v.as_str()).collect();
            outln!("  {}: each publishes the schema {tool} was registered with", on.join(", "));
            Ok(())
        }
    }
}

/// Every check the judge makes of the case on every transport it names, from the judge's own list.
fn print_checks(case: &Case) {
    let checks = tool_conformance::judge::checks_of(case, &tool_conformance::case::tool::Transport::ALL);
    if checks.is_empty() {
        outln!("  none");
    }
    for check in &checks {
        outln!("  {} [{}]", check.name, check.level.label());
        outln!("    {}", check.asks);
    }
    if checks.iter().any(|c| matches!(c.level, CheckLevel::Reading(_))) {
        outln!(
            "  The checks beyond the text are made only when the case's own checks passed; they are reported apart \
             and never decide the case."
        );
    }
    if case.level == Level::Informational {
        outln!(
            "  The behaviour recorded is the first whose checks all hold (none: `other`); an informational case never fails."
        );
    }
    let mut claims = vec![case.rule.clone()];
    claims.extend(case.needs.iter().cloned());
    let (transports, uncalled) = match &case.check {
        Check::Invoke { transports, .. } => {
            let on: Vec<&str> = transports.iter().map(|t| t.as_str()).collect();
            (
                format!(" and at least one of the transports {}", on.join(", ")),
                "; a transport it does not claim is not called",
            )
        }
        _ => (String::new(), ""),
    };
    outln!(
        "  The case applies to an implementation that claims {}{transports} (otherwise it is not applicable){uncalled}.",
        claims.join(" and ")
    );
}

/// Runs the case against the reference behind protocol v1 and prints every exchange uncut.
fn print_wire(corpus: &Corpus, case: &Case) -> Result<()> {
    let config = RunConfig {
        selection: Selection::new(vec![], vec![], vec![case.id.clone()])?,
        transcript: true,
        ..RunConfig::default()
    };
    let ran = jobs::run(corpus, &config).context("running the case against the reference")?;
    for part in ran.transcript.iter().filter(|p| p.title == case.id) {
        print_exchanges(&part.exchanges);
    }
    if let Some(outcome) = ran.run.outcomes.iter().find(|o| o.id == case.id) {
        outln!("  the reference: {}", outcome.status.kind().as_str().replace('_', " "));
    }
    Ok(())
}

/// Every exchange, each request and response whole, one per line.
pub(super) fn print_exchanges(exchanges: &[Exchange]) {
    for exchange in exchanges {
        outln!("  > {}", exchange.sent);
        match &exchange.received {
            Received::Response(text) => outln!("  < {text}"),
            Received::Nothing(why) => outln!("  ! {why}"),
        }
    }
}

fn why(case: &Case) -> String {
    let note = case.note.as_deref().map(|n| format!(" {n}")).unwrap_or_default();
    match case.level {
        Level::Required => format!(
            "required: the expectation follows from the rule text quoted above alone; if the case fails, {} does not conform.{note}",
            case.rule
        ),
        Level::Interpretation => format!(
            "interpretation: the text leaves this open, and the case takes a reading (docs/interpretations.md); it is reported beside the required cases and never decides the verdict. The reading:{note}"
        ),
        Level::Informational => format!(
            "informational: the rule leaves this open; the case records which of the behaviours above is seen, and is never a failure.{note}"
        ),
    }
}

fn print_indented(text: &str, by: usize) {
    for line in text.lines() {
        outln!("{:by$}{line}", "");
    }
}
