//! Reading a YAML file into a JSON value, in one parse that keeps where every node is.
//!
//! yaml-rust2's event parser reads the file and reports a line and column for every node; the
//! events are turned into a `serde_json::Value` here, and each node's JSON pointer is mapped to
//! its place, so every error about a file names its line and column.
//!
//! Plain scalars are resolved as YAML 1.2's core schema says: `~`, `null` and an empty value are
//! null, `true` and `false` (also capitalized or upper case) are booleans, decimal, `0x` and `0o`
//! integers and decimal floats are numbers, anything else is a string. Quoted and block scalars
//! are always strings. Numbers are read as 64-bit values (an integer as i64 or u64, anything else
//! as an f64), so a node tagged `!json` holds JSON text that is parsed with serde_json instead,
//! keeping big integers and long decimals exact; a plain number that 64 bits cannot hold exactly
//! is an error that says to use the tag. `!!str` makes a plain scalar a string; no other tag is
//! read. Mapping keys must be strings, and a key may appear once per mapping. Aliases copy the
//! node their anchor names. A file holds at most one document; an empty file is `null`. A UTF-8
//! byte order mark at the start of a file is passed over.
//!
//! What a file may cost is bounded, so that no file (a mistake or a hostile one) can exhaust the
//! harness: a source is read only up to [`MAX_SOURCE_BYTES`] (by [`crate::json::file::read_text`],
//! which also refuses a link, a FIFO or a device), nodes nest at most [`MAX_DEPTH`] deep (block or
//! flow), and aliases may not expand a document past [`MAX_EXPANSION`] nodes per byte of its text (an "alias bomb": a few hundred bytes whose
//! aliases of aliases stand for millions of nodes). Each is refused at the line and column where
//! the limit is passed, and reading stops there.

use crate::json::compare::{numbers_equal, push_token};
use serde_json::{Map, Number, Value};
use std::collections::HashMap;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// The largest YAML source read (a case, rule, expected-failures or about file), in bytes: over
/// twenty times the largest case file of the corpus, and room for some 25,000 expected failures.
pub const MAX_SOURCE_BYTES: u64 = 1024 * 1024;

/// How deep nodes may nest (sequences and mappings, block or flow), the document being depth 1.
pub const MAX_DEPTH: usize = 128;

/// How many nodes a document may hold per byte of its text, aliases expanded (plus a floor of
/// [`MIN_NODES`], for short files). A document without aliases holds fewer nodes than bytes.
pub const MAX_EXPANSION: usize = 8;

/// The node budget of a document however short its text.
const MIN_NODES: usize = 4096;

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
#[derive(Debug, Clone)]
pub struct Document {
    /// The document's value.
    pub value: Value,
    positions: HashMap<String, Position>,
}

impl Document {
    /// Parses `text`, converting it to JSON.
    pub fn parse(text: &str) -> Result<Document, YamlProblem> {
        // A byte order mark that an editor put first is not content (YAML 1.2 allows it there).
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut builder =
            Builder { budget: MIN_NODES.max(text.len().saturating_mul(MAX_EXPANSION)), ..Builder::default() };
        let mut parser = Parser::new_from_str(text);
        // Events one at a time, so that reading stops at the first problem (a document nested
        // too deep or expanding too far is never read to its end).
        loop {
            let (event, mark) = parser.next_token().map_err(|error| YamlProblem {
                position: Position { line: error.marker().line(), column: error.marker().col() + 1 },
                message: error.info().to_string(),
            })?;
            if event == Event::StreamEnd {
                break;
            }
            builder.on_event(event, mark);
            if let Some(problem) = builder.problem {
                return Err(problem);
            }
        }
        Ok(Document { value: builder.value.unwrap_or(Value::Null), positions: builder.positions })
    }

    /// The position of the node at `pointer`, or of its nearest ancestor the index knows.
    pub fn position(&self, pointer: &str) -> Position {
        let mut pointer = pointer;
        loop {
            if let Some(position) = self.positions.get(pointer) {
                return *position;
            }
            match pointer.rfind('/') {
                Some(at) => pointer = &pointer[..at],
                None => return Position { line: 1, column: 1 },
            }
        }
    }
}

fn position(mark: Marker) -> Position {
    Position { line: mark.line(), column: mark.col() + 1 }
}

/// Builds the document's value and its pointer → position index from parser events. The first
/// problem found is kept, and every later event is ignored.
#[derive(Default)]
struct Builder {
    value: Option<Value>,
    positions: HashMap<String, Position>,
    stack: Vec<Frame>,
    /// Each anchor's node and how many nodes it holds.
    anchors: HashMap<usize, (Value, usize)>,
    documents: usize,
    problem: Option<YamlProblem>,
    /// Nodes in the document so far, aliases expanded, and how many it may hold.
    nodes: usize,
    budget: usize,
}

enum Frame {
    Sequence {
        pointer: String,
        anchor: usize,
        items: Vec<Value>,
        /// Nodes in it so far, itself included.
        nodes: usize,
    },
    /// `start` is kept for an empty mapping: for block mappings the parser's start mark lies
    /// past the first key, so a mapping is located at its first key instead.
    Mapping {
        pointer: String,
        anchor: usize,
        members: Map<String, Value>,
        key: Option<String>,
        start: Marker,
        /// Nodes in it so far, itself included.
        nodes: usize,
    },
}

/// Where the node that starts now goes.
enum Slot {
    /// A value: its pointer.
    Value(String),
    /// The key of a member of the mapping at this pointer.
    Key(String),
}

impl Builder {
    fn fail(&mut self, mark: Marker, message: String) {
        if self.problem.is_none() {
            self.problem = Some(YamlProblem { position: position(mark), message });
        }
    }

    fn slot(&mut self) -> Slot {
        match self.stack.last_mut() {
            None => Slot::Value(String::new()),
            Some(Frame::Sequence { pointer, items, .. }) => {
                let mut p = pointer.clone();
                push_token(&mut p, &items.len().to_string());
                Slot::Value(p)
            }
            Some(Frame::Mapping { pointer, key: Some(key), .. }) => {
                let mut p = pointer.clone();
                push_token(&mut p, key);
                Slot::Value(p)
            }
            Some(Frame::Mapping { pointer, key: None, .. }) => Slot::Key(pointer.clone()),
        }
    }

    fn record(&mut self, pointer: &str, mark: Marker) {
        self.positions.entry(pointer.to_string()).or_insert(position(mark));
    }

    /// Puts a finished node of `count` nodes where it belongs.
    fn place(&mut self, value: Value, anchor: usize, count: usize) {
        if anchor > 0 {
            self.anchors.insert(anchor, (value.clone(), count));
        }
        match self.stack.last_mut() {
            None => self.value = Some(value),
            Some(Frame::Sequence { items, nodes, .. }) => {
                items.push(value);
                *nodes += count;
            }
            Some(Frame::Mapping { members, key, nodes, .. }) => {
                if let Some(key) = key.take() {
                    members.insert(key, value);
                    *nodes += count;
                }
            }
        }
    }

    /// Counts `count` more nodes in the document; false (and the problem recorded) past its
    /// budget.
    fn spend(&mut self, count: usize, mark: Marker) -> bool {
        self.nodes = self.nodes.saturating_add(count);
        if self.nodes > self.budget {
            self.fail(
                mark,
                format!(
                    "aliases expand this document past {} nodes ({MAX_EXPANSION} per byte of its text); \
                     write the nodes out, or alias less",
                    self.budget
                ),
            );
            return false;
        }
        true
    }

    /// A key: it must be a string, and new in its mapping.
    fn key(&mut self, mapping: String, text: String, mark: Marker) {
        let Some(Frame::Mapping { members, key, .. }) = self.stack.last_mut() else { return };
        if members.contains_key(&text) {
            self.fail(mark, format!("the key {text} appears twice in this mapping"));
            return;
        }
        let first = members.is_empty();
        *key = Some(text.clone());
        let mut member = mapping.clone();
        push_token(&mut member, &text);
        self.record(&member, mark);
        if first {
            // A mapping is located at its first key.
            self.record(&mapping, mark);
        }
    }

    fn scalar(&mut self, text: String, style: TScalarStyle, anchor: usize, tag: Option<Tag>, mark: Marker) {
        let value = match self.slot() {
            Slot::Key(mapping) => {
                let is_string = match &tag {
                    None => style != TScalarStyle::Plain || matches!(plain(&text), Ok(Value::String(_))),
                    Some(tag) => is_str_tag(tag),
                };
                if !is_string {
                    let mut member = mapping.clone();
                    push_token(&mut member, &text);
                    self.record(&member, mark);
                    self.fail(mark, format!("mapping key {text} is not a string; quote it"));
                    return;
                }
                if anchor > 0 {
                    self.anchors.insert(anchor, (Value::String(text.clone()), 1));
                }
                self.key(mapping, text, mark);
                return;
            }
            Slot::Value(pointer) => {
                self.record(&pointer, mark);
                match (&tag, style) {
                    (Some(tag), _) if is_json_tag(tag) => {
                        crate::json::from_str(&text).map_err(|error| format!("!json text is not JSON: {error}"))
                    }
                    (Some(tag), _) if is_str_tag(tag) => Ok(Value::String(text)),
                    (Some(tag), _) => Err(unknown_tag(tag)),
                    (None, TScalarStyle::Plain) => plain(&text),
                    (None, _) => Ok(Value::String(text)),
                }
            }
        };
        match value {
            Ok(value) => {
                if self.spend(1, mark) {
                    self.place(value, anchor, 1);
                }
            }
            Err(message) => self.fail(mark, message),
        }
    }

    fn start(&mut self, mapping: bool, anchor: usize, tag: Option<Tag>, mark: Marker) {
        let pointer = match self.slot() {
            Slot::Value(pointer) => pointer,
            Slot::Key(mapping) => {
                self.record(&mapping, mark);
                return self.fail(mark, "a mapping key is a mapping or a sequence; keys are strings".into());
            }
        };
        if let Some(tag) = tag {
            let message =
                if is_json_tag(&tag) { "!json must tag a string of JSON text".to_string() } else { unknown_tag(&tag) };
            self.record(&pointer, mark);
            return self.fail(mark, message);
        }
        if self.stack.len() + 1 > MAX_DEPTH {
            self.record(&pointer, mark);
            return self.fail(mark, format!("nodes nest deeper than {MAX_DEPTH} levels here"));
        }
        if !self.spend(1, mark) {
            return;
        }
        if mapping {
            self.stack.push(Frame::Mapping { pointer, anchor, members: Map::new(), key: None, start: mark, nodes: 1 });
        } else {
            self.record(&pointer, mark);
            self.stack.push(Frame::Sequence { pointer, anchor, items: Vec::new(), nodes: 1 });
        }
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, event: Event, mark: Marker) {
        if self.problem.is_some() {
            return;
        }
        match event {
            Event::DocumentStart => {
                self.documents += 1;
                if self.documents > 1 {
                    self.fail(mark, "a second document; a file holds one YAML document".into());
                }
            }
            Event::Scalar(text, style, anchor, tag) => self.scalar(text, style, anchor, tag, mark),
            Event::Alias(anchor) => {
                let Some(count) = self.anchors.get(&anchor).map(|(_, count)| *count) else {
                    return self.fail(mark, "an alias to an unknown anchor".into());
                };
                if !self.spend(count, mark) {
                    return;
                }
                let value = self.anchors.get(&anchor).map(|(value, _)| value.clone()).unwrap_or_default();
                match self.slot() {
                    Slot::Value(pointer) => {
                        self.record(&pointer, mark);
                        self.place(value, 0, count);
                    }
                    Slot::Key(mapping) => match value {
                        Value::String(text) => self.key(mapping, text, mark),
                        _ => self.fail(mark, "an alias as a mapping key must name a string".into()),
                    },
                }
            }
            Event::SequenceStart(anchor, tag) => self.start(false, anchor, tag, mark),
            Event::MappingStart(anchor, tag) => self.start(true, anchor, tag, mark),
            Event::SequenceEnd => {
                if let Some(Frame::Sequence { anchor, items, nodes, .. }) = self.stack.pop() {
                    self.place(Value::Array(items), anchor, nodes);
                }
            }
            Event::MappingEnd => {
                if let Some(Frame::Mapping { pointer, anchor, members, start, nodes, .. }) = self.stack.pop() {
                    if members.is_empty() {
                        self.record(&pointer, start);
                    }
                    self.place(Value::Object(members), anchor, nodes);
                }
            }
            _ => {}
        }
    }
}

fn is_json_tag(tag: &Tag) -> bool {
    tag.handle == "!" && tag.suffix == "json"
}

fn is_str_tag(tag: &Tag) -> bool {
    tag.handle == "tag:yaml.org,2002:" && tag.suffix == "str"
}

fn unknown_tag(tag: &Tag) -> String {
    let name =
        if tag.handle == "tag:yaml.org,2002:" { format!("!!{}", tag.suffix) } else { tag.handle.clone() + &tag.suffix };
    format!("unknown tag {name}; the only tag is !json")
}

/// The value of a plain, untagged scalar.
fn plain(text: &str) -> Result<Value, String> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Ok(Value::Null),
        "true" | "True" | "TRUE" => return Ok(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Ok(Value::Bool(false)),
        _ => {}
    }
    let inexact = || {
        format!(
            "the number {text} cannot be read exactly from YAML; write it as JSON text with the !json tag: !json '{text}'"
        )
    };
    if let Some(digits) = text.strip_prefix("0x") {
        return radix(digits, 16).ok_or_else(inexact);
    }
    if let Some(digits) = text.strip_prefix("0o") {
        return radix(digits, 8).ok_or_else(inexact);
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Value::Number(i.into()));
        }
        if let Ok(u) = text.parse::<u64>() {
            return Ok(Value::Number(u.into()));
        }
        return Err(inexact());
    }
    match unsigned {
        ".inf" | ".Inf" | ".INF" | ".nan" | ".NaN" | ".NAN" => {
            return Err(format!("{text} is not a JSON number"));
        }
        _ => {}
    }
    if !is_float(unsigned) {
        return Ok(Value::String(text.to_string()));
    }
    let read =
        text.parse::<f64>().ok().and_then(Number::from_f64).ok_or_else(|| format!("{text} is not a JSON number"))?;
    // A number written as JSON writes it must have the value it reads as.
    if let Ok(Value::Number(written)) = crate::json::from_str::<Value>(text) {
        if !numbers_equal(&written, &read) {
            return Err(inexact());
        }
    }
    Ok(Value::Number(read))
}

/// An integer in base `base` as a JSON number, or `None` when it does not fit 64 bits (or is not
/// one).
fn radix(digits: &str, base: u32) -> Option<Value> {
    if digits.is_empty() || digits.starts_with(['+', '-']) {
        return None;
    }
    u64::from_str_radix(digits, base).ok().map(|u| Value::Number(u.into()))
}

/// Whether unsigned `text` is a YAML 1.2 core float: `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
fn is_float(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => digits(whole) && digits(fraction) && !(whole.is_empty() && fraction.is_empty()),
        None => !mantissa.is_empty() && digits(mantissa),
    };
    let exponent_ok = match exponent {
        None => true,
        Some(e) => {
            let e = e.strip_prefix(['-', '+']).unwrap_or(e);
            !e.is_empty() && digits(e)
        }
    };
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leading_byte_order_mark_is_passed_over() {
        let document = Document::parse("\u{feff}id: x\nn: 1\n").unwrap();
        assert_eq!(document.value, serde_json::json!({"id": "x", "n": 1}));
        let plain = Document::parse("id: x\nn: 1\n").unwrap();
        assert_eq!(document.position("/n"), plain.position("/n"));
    }

    #[test]
    fn positions_point_at_values_and_items() {
        let doc = Document::parse("a:\n  b: [1, 2]\n  c:\n    - x: 1\n").unwrap();
        assert_eq!(doc.position("/a/b/1"), Position { line: 2, column: 10 });
        assert_eq!(doc.position("/a/c/0/x"), Position { line: 4, column: 7 }, "a member is located at its key");
        assert_eq!(doc.position("/a/c/0/missing"), Position { line: 4, column: 7 });
        assert_eq!(doc.value, serde_json::json!({"a": {"b": [1, 2], "c": [{"x": 1}]}}));
    }

    #[test]
    fn json_tag_keeps_big_numbers_exact() {
        let doc = Document::parse("n: !json '12345678901234567890123'\n").unwrap();
        assert_eq!(doc.value["n"].to_string(), "12345678901234567890123");
        let problem = Document::parse("a: 1\nn: !json '{'\n").err().unwrap();
        assert_eq!(problem.position, Position { line: 2, column: 10 }, "the tagged text");
        assert!(problem.message.starts_with("!json text is not JSON"), "{}", problem.message);
        let problem = Document::parse("n: !json [1]\n").err().unwrap();
        assert_eq!(problem.message, "!json must tag a string of JSON text");
        let problem = Document::parse("n: !yaml 1\n").err().unwrap();
        assert_eq!(problem.message, "unknown tag !yaml; the only tag is !json");
    }

    #[test]
    fn inexact_plain_numbers_are_errors_with_a_place() {
        let problem = Document::parse("a: 1\nn: 12345678901234567890123\n").err().unwrap();
        assert_eq!(problem.position, Position { line: 2, column: 4 });
        assert!(problem.message.contains("!json '12345678901234567890123'"), "{}", problem.message);
        let problem = Document::parse("n: [0.1000000000000000000001]\n").err().unwrap();
        assert_eq!(problem.position, Position { line: 1, column: 5 });
        assert!(Document::parse("n: 0.5\nm: 1e3\nk: -7\ns: '12345678901234567890123'\n").is_ok());
    }

    #[test]
    fn plain_scalars_follow_the_core_schema() {
        let doc = Document::parse(
            "a: ~\nb:\nc: True\nd: 0x1F\ne: 0o17\nf: 1e3\ng: .5\nh: yes\ni: '1'\nj: !!str 2\nk: 18446744073709551615\nl: -0.0\n",
        )
        .unwrap();
        let v = &doc.value;
        assert_eq!((v["a"].clone(), v["b"].clone(), v["c"].clone()), (Value::Null, Value::Null, Value::Bool(true)));
        assert_eq!((v["d"].to_string(), v["e"].to_string()), ("31".into(), "15".into()));
        assert_eq!((v["f"].to_string(), v["g"].to_string()), ("1000.0".into(), "0.5".into()));
        assert_eq!((v["h"].as_str(), v["i"].as_str(), v["j"].as_str()), (Some("yes"), Some("1"), Some("2")));
        assert_eq!((v["k"].to_string(), v["l"].to_string()), ("18446744073709551615".into(), "-0.0".into()));
        assert!(Document::parse("n: .inf\n").err().unwrap().message.contains("not a JSON number"));
    }

    #[test]
    fn an_empty_file_is_null_and_a_second_document_an_error() {
        assert_eq!(Document::parse("# nothing\n").unwrap().value, Value::Null);
        let problem = Document::parse("a: 1\n---\nb: 2\n").err().unwrap();
        assert_eq!(problem.position.line, 2, "{problem:?}");
    }

    #[test]
    fn aliases_copy_their_anchor() {
        let doc = Document::parse("a: &x { b: [1] }\nc: *x\n").unwrap();
        assert_eq!(doc.value["c"], serde_json::json!({"b": [1]}));
        assert_eq!(doc.position("/c"), Position { line: 2, column: 1 }, "a member is located at its key");
    }

    #[test]
    fn syntax_errors_have_a_place() {
        let problem = Document::parse("a: [1, 2\nb: 3\n").err().unwrap();
        assert!(problem.position.line >= 1, "{problem:?}");
    }

    #[test]
    fn non_string_and_repeated_keys_are_refused() {
        let problem = Document::parse("a:\n  1: x\n").err().unwrap();
        assert!(problem.message.contains("not a string"), "{}", problem.message);
        assert_eq!(problem.position, Position { line: 2, column: 3 });
        assert!(Document::parse("'1': x\n\"true\": y\n").is_ok());
        let problem = Document::parse("a: 1\nb: 2\na: 3\n").err().unwrap();
        assert_eq!(problem.position, Position { line: 3, column: 1 });
        assert!(problem.message.contains("twice"), "{}", problem.message);
    }
}
