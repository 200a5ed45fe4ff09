//! Reading a YAML case file into JSON values, and finding where in the file a JSON pointer is.
//!
//! serde_yaml parses the file. Its numbers are 64-bit, so a node tagged `!json` holds JSON text
//! that is parsed with serde_json instead, keeping big integers and long decimals exact; a plain
//! YAML number that 64 bits cannot hold exactly is an error that says to use the tag. yaml-rust2's
//! event parser, which reports a line and column for every node, maps JSON pointers back to places
//! in the file, so every error about a file names its line and column.

use crate::compare::{numbers_equal, push_token};
use serde_json::{Map, Number, Value};
use std::collections::HashMap;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// A place in a source file: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

/// Something wrong with a YAML file, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct YamlProblem {
    /// Where the problem is.
    pub position: Position,
    /// What is wrong.
    pub message: String,
}

/// A parsed YAML document as JSON, with the positions of its nodes.
pub struct Document {
    /// The document's value.
    pub value: Value,
    positions: HashMap<String, Position>,
}

impl Document {
    /// Parses `text`, converting it to JSON.
    pub fn parse(text: &str) -> Result<Document, YamlProblem> {
        let mut index = Positions::default();
        Parser::new_from_str(text).load(&mut index, false).map_err(|error| YamlProblem {
            position: Position { line: error.marker().line(), column: error.marker().col() + 1 },
            message: error.info().to_string(),
        })?;
        let positions = index.positions;
        if let Some((position, text)) = index.inexact.into_iter().next() {
            return Err(YamlProblem {
                position,
                message: format!(
                    "the number {text} cannot be read exactly from YAML; write it as JSON text with the !json tag: !json '{text}'"
                ),
            });
        }
        let yaml: serde_yaml::Value = serde_yaml::from_str(text).map_err(|error| YamlProblem {
            position: error.location().map(|l| Position { line: l.line(), column: l.column() }).unwrap_or_default(),
            message: strip_location(&error.to_string()),
        })?;
        let mut pointer = String::new();
        let value = convert(&yaml, &mut pointer)
            .map_err(|(pointer, message)| YamlProblem { position: locate(&positions, &pointer), message })?;
        Ok(Document { value, positions })
    }

    /// The position of the node at `pointer`, or of its nearest ancestor the index knows.
    pub fn position(&self, pointer: &str) -> Position {
        locate(&self.positions, pointer)
    }
}

fn locate(positions: &HashMap<String, Position>, pointer: &str) -> Position {
    let mut pointer = pointer;
    loop {
        if let Some(position) = positions.get(pointer) {
            return *position;
        }
        match pointer.rfind('/') {
            Some(at) => pointer = &pointer[..at],
            None => return Position { line: 1, column: 1 },
        }
    }
}

/// serde_yaml puts " at line L column C" in its messages; the caller prints the place itself.
fn strip_location(message: &str) -> String {
    match message.find(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

fn convert(yaml: &serde_yaml::Value, pointer: &mut String) -> Result<Value, (String, String)> {
    use serde_yaml::Value as Y;
    Ok(match yaml {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(*b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Number(i.into())
            } else if let Some(u) = n.as_u64() {
                Value::Number(u.into())
            } else {
                let f = n.as_f64().unwrap_or(f64::NAN);
                Value::Number(
                    Number::from_f64(f).ok_or_else(|| (pointer.clone(), format!("{n} is not a JSON number")))?,
                )
            }
        }
        Y::String(s) => Value::String(s.clone()),
        Y::Sequence(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                let len = pointer.len();
                push_token(pointer, &index.to_string());
                out.push(convert(item, pointer)?);
                pointer.truncate(len);
            }
            Value::Array(out)
        }
        Y::Mapping(map) => {
            let mut out = Map::new();
            for (key, item) in map {
                let Y::String(key) = key else {
                    push_token(pointer, &scalar_text(key));
                    return Err((
                        pointer.clone(),
                        format!("mapping key {} is not a string; quote it", scalar_text(key)),
                    ));
                };
                let len = pointer.len();
                push_token(pointer, key);
                out.insert(key.clone(), convert(item, pointer)?);
                pointer.truncate(len);
            }
            Value::Object(out)
        }
        Y::Tagged(tagged) => {
            if tagged.tag != "json" {
                return Err((pointer.clone(), format!("unknown tag {}; the only tag is !json", tagged.tag)));
            }
            let Y::String(text) = &tagged.value else {
                return Err((pointer.clone(), "!json must tag a string of JSON text".to_string()));
            };
            crate::json::from_str(text)
                .map_err(|error| (pointer.clone(), format!("!json text is not JSON: {error}")))?
        }
    })
}

fn scalar_text(value: &serde_yaml::Value) -> String {
    serde_yaml::to_string(value).map(|s| s.trim().to_string()).unwrap_or_default()
}

/// Builds the pointer → position index from parser events, and notes plain numbers that serde_yaml
/// would read inexactly.
#[derive(Default)]
struct Positions {
    positions: HashMap<String, Position>,
    stack: Vec<Frame>,
    inexact: Vec<(Position, String)>,
}

enum Frame {
    Sequence {
        pointer: String,
        next: usize,
    },
    /// `start` is kept for an empty mapping: for block mappings the parser's start mark lies
    /// past the first key, so a mapping is located at its first key instead.
    Mapping {
        pointer: String,
        key: Option<String>,
        start: Marker,
        keys: usize,
    },
}

impl Positions {
    /// The pointer of the node that starts now, or `None` when the event is a mapping key.
    fn next_node(&mut self, scalar: Option<&str>) -> Option<String> {
        match self.stack.last_mut() {
            None => Some(String::new()),
            Some(Frame::Sequence { pointer, next }) => {
                let mut p = pointer.clone();
                push_token(&mut p, &next.to_string());
                *next += 1;
                Some(p)
            }
            Some(Frame::Mapping { pointer, key, .. }) => match key.take() {
                Some(k) => {
                    let mut p = pointer.clone();
                    push_token(&mut p, &k);
                    Some(p)
                }
                None => {
                    *key = Some(scalar.unwrap_or_default().to_string());
                    None
                }
            },
        }
    }

    fn record(&mut self, pointer: &str, mark: Marker) {
        self.positions.entry(pointer.to_string()).or_insert(Position { line: mark.line(), column: mark.col() + 1 });
    }
}

impl MarkedEventReceiver for Positions {
    fn on_event(&mut self, event: Event, mark: Marker) {
        match event {
            Event::Scalar(text, style, _, tag) => {
                if let Some(pointer) = self.next_node(Some(&text)) {
                    self.record(&pointer, mark);
                    if style == TScalarStyle::Plain && tag.is_none() && !exact_in_yaml(&text) {
                        self.inexact.push((Position { line: mark.line(), column: mark.col() + 1 }, text));
                    }
                } else if let Some(Frame::Mapping { pointer, keys, .. }) = self.stack.last_mut() {
                    // A key: the member is located at its key, the mapping at its first key.
                    *keys += 1;
                    let (mapping, first) = (pointer.clone(), *keys == 1);
                    let mut member = mapping.clone();
                    push_token(&mut member, &text);
                    self.record(&member, mark);
                    if first {
                        self.record(&mapping, mark);
                    }
                }
            }
            Event::Alias(_) => {
                if let Some(pointer) = self.next_node(None) {
                    self.record(&pointer, mark);
                }
            }
            Event::SequenceStart(..) => {
                let pointer = self.next_node(None).unwrap_or_default();
                self.record(&pointer, mark);
                self.stack.push(Frame::Sequence { pointer, next: 0 });
            }
            Event::MappingStart(..) => {
                let pointer = self.next_node(None).unwrap_or_default();
                self.stack.push(Frame::Mapping { pointer, key: None, start: mark, keys: 0 });
            }
            Event::SequenceEnd => {
                self.stack.pop();
            }
            Event::MappingEnd => {
                if let Some(Frame::Mapping { pointer, start, keys: 0, .. }) = self.stack.pop() {
                    self.record(&pointer, start);
                }
            }
            _ => {}
        }
    }
}

/// Whether a plain scalar is either not a JSON-style number, or one that serde_yaml reads exactly
/// (an integer that fits 64 bits, or a decimal whose f64 has the same value).
fn exact_in_yaml(text: &str) -> bool {
    let Ok(Value::Number(written)) = crate::json::from_str::<Value>(text) else {
        return true;
    };
    if text.parse::<i64>().is_ok() || text.parse::<u64>().is_ok() {
        return true;
    }
    match text.parse::<f64>().ok().and_then(Number::from_f64) {
        Some(read) => numbers_equal(&written, &read),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_point_at_values_and_items() {
        let doc = Document::parse("a:\n  b: [1, 2]\n  c:\n    - x: 1\n").unwrap();
        assert_eq!(doc.position("/a/b/1"), Position { line: 2, column: 10 });
        assert_eq!(doc.position("/a/c/0/x"), Position { line: 4, column: 7 }, "a member is located at its key");
        assert_eq!(doc.position("/a/c/0/missing"), Position { line: 4, column: 7 });
    }

    #[test]
    fn json_tag_keeps_big_numbers_exact() {
        let doc = Document::parse("n: !json '12345678901234567890123'\n").unwrap();
        assert_eq!(doc.value["n"].to_string(), "12345678901234567890123");
    }

    #[test]
    fn inexact_plain_numbers_are_errors_with_a_place() {
        let problem = Document::parse("a: 1\nn: 12345678901234567890123\n").err().unwrap();
        assert_eq!(problem.position, Position { line: 2, column: 4 });
        assert!(problem.message.contains("!json"), "{}", problem.message);
        assert!(Document::parse("n: 0.5\nm: 1e3\nk: -7\ns: '12345678901234567890123'\n").is_ok());
    }

    #[test]
    fn syntax_errors_have_a_place() {
        let problem = Document::parse("a: [1, 2\nb: 3\n").err().unwrap();
        assert!(problem.position.line >= 1, "{problem:?}");
    }

    #[test]
    fn non_string_keys_are_refused() {
        let problem = Document::parse("a:\n  1: x\n").err().unwrap();
        assert!(problem.message.contains("not a string"), "{}", problem.message);
        assert_eq!(problem.position.line, 2);
    }
}
