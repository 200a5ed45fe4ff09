//! `tool-conformance serve --stdio`: a [`Server`] on stdin and stdout, one JSON object per line.
//!
//! Requests are read with a cap on their length (a longer line is answered with an error and
//! skipped); blank lines are ignored; the loop ends after answering `stop`, or at the end of
//! input.

use super::Server;
use crate::peer::Target;
use crate::peer::protocol::Answer;
use crate::peer::stdio::{Bounded, read_bounded_line};
use std::io::{BufRead, Write};

/// The longest request line read, in bytes.
pub const MAX_REQUEST_BYTES: usize = 16 * 1024 * 1024;

/// Serves `target` over protocol v1 on this process's stdin and stdout, one JSON object per line,
/// until `stop` or the end of input: a Rust runtime behind this is an implementation any harness
/// that speaks the protocol can reach, this suite's `--stdio` among them.
///
/// ```no_run
/// // src/bin/adapter.rs: `tool-conformance run --stdio 'cargo run --bin adapter'`
/// fn main() -> std::io::Result<()> {
///     tool_conformance::serve_stdio(tool_conformance::Reference::new()) // your Target here
/// }
/// ```
pub fn serve_stdio<T: Target>(target: T) -> std::io::Result<()> {
    let mut server = Server::new(target);
    serve(&mut server, std::io::stdin().lock(), std::io::stdout().lock(), MAX_REQUEST_BYTES)
}

/// Serves requests from `input`, answering on `output`, until `stop` or the end of input.
pub fn serve<T: Target>(
    server: &mut Server<T>,
    mut input: impl BufRead,
    mut output: impl Write,
    max_request: usize,
) -> std::io::Result<()> {
    let mut line = Vec::new();
    let mut reply = Vec::new();
    loop {
        let response = match read_bounded_line(&mut input, max_request, &mut line, true)? {
            Bounded::End => return Ok(()),
            Bounded::TooLong => Answer::Failed(format!("the request is longer than {max_request} bytes")).to_json(None),
            Bounded::Line if line.iter().all(u8::is_ascii_whitespace) => continue,
            Bounded::Line => {
                let handled = server.handle_bytes(&line);
                if handled.stop {
                    write_line(&mut output, &handled.response, &mut reply)?;
                    return Ok(());
                }
                handled.response
            }
        };
        write_line(&mut output, &response, &mut reply)?;
    }
}

/// Writes one response line in one write, serialized into `buffer` (reused from line to line).
fn write_line(output: &mut impl Write, response: &serde_json::Value, buffer: &mut Vec<u8>) -> std::io::Result<()> {
    buffer.clear();
    serde_json::to_writer(&mut *buffer, response)?;
    buffer.push(b'\n');
    output.write_all(buffer)?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reference;

    #[test]
    fn serves_lines_until_stop() {
        let input: &[u8] = b"{\"cmd\":\"start\",\"seq\":0,\"protocol\":1}\n\n{oops\n{\"cmd\":\"stop\",\"seq\":1}\n{\"cmd\":\"start\",\"seq\":2,\"protocol\":1}\n";
        let mut output = Vec::new();
        serve(&mut Server::new(Reference::new()), input, &mut output, 1024).unwrap();
        let lines: Vec<serde_json::Value> = output
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| crate::json::from_slice(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0]["seq"], 0);
        assert!(lines[1]["error"].as_str().unwrap().contains("not JSON"));
        assert_eq!(lines[2], serde_json::json!({"seq": 1, "ok": true}));
    }
}
