//! The `tool-conformance` binary: parses the command line and hands over to the library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
