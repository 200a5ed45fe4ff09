//! The command line: clap arguments ([`args`]) parsed into the library's validated [`RunConfig`],
//! then run ([`commands`]). Errors are printed with their whole cause chain; exit codes are the
//! library's named constants ([`tool_conformance::exit`]).
//!
//! [`RunConfig`]: tool_conformance::run::config::RunConfig

use clap::{CommandFactory, FromArgMatches};
use std::process::ExitCode;
use tool_conformance::exit;
use tool_conformance::json::inert::multi_line;

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

mod args;
mod commands;
mod expected;
mod progress;
mod show;
mod upstream;

use args::{Cli, ColorWhen, Command};

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
        Command::Run(args) => args.config().and_then(|config| commands::run(&config, args)),
        Command::Check(args) => args.source().and_then(|source| commands::check(&source)),
        Command::List(args) => commands::list(&args.select),
        Command::Show(args) => show::show(args),
        Command::Serve(args) => commands::serve(args),
        Command::Compare(args) => commands::compare(args),
        Command::Table(args) => commands::table(args),
        Command::Readme(args) => commands::readme(args),
        Command::Site(args) => commands::site(args),
        Command::Fuzz(args) => commands::fuzz(args),
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
