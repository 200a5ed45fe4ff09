//! The whole session in `docs/protocol.md` is true: every line of its `protocol-session` block
//! matches `schemas/protocol.schema.json`, and the reference behind `serve`, sent the block's
//! requests, answers exactly the block's responses.

use serde_json::Value;
use tool_conformance::Reference;
use tool_conformance::peer::protocol::Command;
use tool_conformance::peer::protocol_schema::ProtocolSchema;
use tool_conformance::serve::{Server, stdio};

/// The `>` and `<` lines of the doc's `protocol-session` block, in order.
fn session() -> Vec<(char, String)> {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/protocol.md")).expect("docs/protocol.md");
    let start = docs.find("```protocol-session\n").expect("docs/protocol.md has a protocol-session block");
    let block = &docs[start + "```protocol-session\n".len()..];
    let block = &block[..block.find("```").expect("the block is closed")];
    block
        .lines()
        .map(|line| {
            let (mark, text) = line.split_at(1);
            let mark = mark.chars().next().expect("a mark");
            assert!(mark == '>' || mark == '<', "a session line starts with > or <: {line}");
            (mark, text.trim_start().to_string())
        })
        .collect()
}

fn the_documented_session_matches_the_schema_line_by_line() {
    let schema = ProtocolSchema::load().expect("the schema compiles");
    let lines = session();
    assert!(lines.len() >= 12, "the session shows every command");
    let mut command = None;
    let mut seen = Vec::new();
    for (mark, text) in &lines {
        let value: Value = tool_conformance::json::from_str(text).unwrap_or_else(|e| panic!("not JSON: {text}: {e}"));
        if *mark == '>' {
            let name = value["cmd"].as_str().expect("a request has a cmd");
            let named = Command::named(name).unwrap_or_else(|| panic!("no command {name}"));
            assert_eq!(schema.check_request(named, &value), Ok(()), "{text}");
            seen.push(named);
            command = Some(named);
        } else {
            let named = command.take().expect("a response follows its request");
            assert_eq!(schema.check_response(named, &value), Ok(()), "{text}");
        }
    }
    for named in Command::ALL {
        assert!(seen.contains(&named), "the session has no {named:?}");
    }
}

fn the_reference_answers_the_documented_session_exactly() {
    let lines = session();
    let requests: String = lines.iter().filter(|(m, _)| *m == '>').map(|(_, t)| format!("{t}\n")).collect();
    let expected: Vec<&str> = lines.iter().filter(|(m, _)| *m == '<').map(|(_, t)| t.as_str()).collect();
    let mut output = Vec::new();
    stdio::serve(&mut Server::new(Reference::new()), requests.as_bytes(), &mut output, stdio::MAX_REQUEST_BYTES)
        .expect("serving in memory");
    let output = String::from_utf8(output).expect("UTF-8");
    let answered: Vec<&str> = output.lines().collect();
    assert_eq!(answered, expected, "the reference answers the documented session otherwise");
}

tests![
    the_documented_session_matches_the_schema_line_by_line,
    the_reference_answers_the_documented_session_exactly,
];
