//! MCP's messages as the harness writes and reads them: JSON-RPC 2.0 requests and notifications
//! written as exact JSON text (the suite's own [`crate::json`], so arguments keep their key order
//! and every digit), messages read strictly and sorted into what they are, and the server-sent
//! events a Streamable HTTP server may answer a POST with.

use crate::json::Value;
use serde_json::{Map, json};

/// The MCP protocol version the harness asks for in `initialize` (a server may answer with
/// another it supports; the harness reads any).
pub(crate) const PROTOCOL_VERSION: &str = "2025-06-18";

/// JSON-RPC's code for a method the receiver does not have.
const METHOD_NOT_FOUND: i64 = -32601;

/// A request, as compact JSON text.
pub(crate) fn request(id: u64, method: &str, params: Value) -> String {
    let mut map = Map::new();
    map.insert("jsonrpc".into(), json!("2.0"));
    map.insert("id".into(), json!(id));
    map.insert("method".into(), json!(method));
    map.insert("params".into(), params);
    Value::Object(map).to_string()
}

/// A notification, as compact JSON text.
pub(crate) fn notification(method: &str) -> String {
    json!({"jsonrpc": "2.0", "method": method}).to_string()
}

/// The harness's answer to a request a server sends it: `ping` is answered, anything else is a
/// method the harness does not have (it offers no sampling, roots or elicitation).
pub(crate) fn answer_to(id: &Value, method: &str) -> String {
    if method == "ping" {
        json!({"jsonrpc": "2.0", "id": id, "result": {}}).to_string()
    } else {
        let message = format!("the conformance harness does not offer {method}");
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": METHOD_NOT_FOUND, "message": message}}).to_string()
    }
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RpcError {
    /// Its `message`, or its whole JSON text when the message is not a string.
    pub message: String,
    /// Its `data`, when it has one.
    pub data: Option<Value>,
}

/// One message from an MCP server.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Message {
    /// The response to a request: its id, and its result or error.
    Response {
        /// The request's id.
        id: Value,
        /// The result, or the error.
        outcome: Result<Value, RpcError>,
    },
    /// A request from the server (a ping, or something the harness does not offer).
    Request {
        /// Its id.
        id: Value,
        /// Its method.
        method: String,
    },
    /// A notification (logging, progress): nothing to answer.
    Notification,
}

/// Reads one message; `Err` says why it is not a JSON-RPC message. A lone surrogate escape in it
/// (JSON by RFC 8259's grammar, though it stands for no character) is read as its stand-in, as
/// a protocol-v1 answer's is ([`crate::peer::protocol::parse_answer`]), so that what the message
/// carries is judged on its merits.
pub(crate) fn read(bytes: &[u8]) -> Result<Message, String> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| format!("the message is not UTF-8 (invalid bytes at offset {})", e.valid_up_to()))?;
    let value: Value =
        crate::peer::protocol::parse_answer(text).map_err(|e| format!("the message is not JSON ({e})"))?;
    let Some(object) = value.as_object() else {
        return Err("the message is JSON but not an object (a batch is not an MCP message)".into());
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err("the message has no \"jsonrpc\": \"2.0\"".into());
    }
    if let Some(method) = object.get("method") {
        let method = method.as_str().ok_or("the message's method is not a string")?.to_string();
        return Ok(match object.get("id") {
            Some(id) => Message::Request { id: id.clone(), method },
            None => Message::Notification,
        });
    }
    let id = object.get("id").cloned().ok_or("the message has neither a method nor an id")?;
    match (object.get("result"), object.get("error")) {
        (Some(result), None) => Ok(Message::Response { id, outcome: Ok(result.clone()) }),
        (None, Some(error)) => {
            let message = match error.get("message") {
                Some(Value::String(message)) => message.clone(),
                _ => error.to_string(),
            };
            Ok(Message::Response { id, outcome: Err(RpcError { message, data: error.get("data").cloned() }) })
        }
        _ => Err("the response has not exactly one of result and error".into()),
    }
}

/// Server-sent events read as they arrive, by the line rules of the WHATWG's `text/event-stream`:
/// a line ends at CR LF, LF or CR (a CR at the end of one chunk and an LF at the start of the next
/// are one line end); a line starting with `:` is a comment; a field's value is what follows its
/// first `:`, less one space after it; `data` lines are joined with LF; an empty line dispatches
/// the event. An event without data is not dispatched, nor is one whose data is empty (it carries
/// no message).
#[derive(Debug, Default)]
pub(crate) struct Events {
    /// The line read so far, not ended yet.
    line: Vec<u8>,
    /// Whether the last line ended with a CR, so that an LF right after it ends nothing.
    after_cr: bool,
    /// The current event's data, once it has a `data` line.
    data: Option<Vec<u8>>,
}

impl Events {
    /// Takes `bytes` and returns the data of every event they complete, in order.
    pub(crate) fn push(&mut self, mut bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut events = Vec::new();
        while !bytes.is_empty() {
            if std::mem::take(&mut self.after_cr) && bytes[0] == b'\n' {
                bytes = &bytes[1..];
                continue;
            }
            let Some(at) = bytes.iter().position(|&b| b == b'\n' || b == b'\r') else {
                self.line.extend_from_slice(bytes);
                break;
            };
            self.line.extend_from_slice(&bytes[..at]);
            self.after_cr = bytes[at] == b'\r';
            bytes = &bytes[at + 1..];
            let line = std::mem::take(&mut self.line);
            events.extend(self.take_line(&line));
        }
        events
    }

    /// The data of an event the stream ended in the middle of (its last line unended, or no empty
    /// line after it), if it has any.
    pub(crate) fn finish(&mut self) -> Option<Vec<u8>> {
        self.after_cr = false;
        let line = std::mem::take(&mut self.line);
        if !line.is_empty() {
            self.take_line(&line);
        }
        self.dispatch()
    }

    /// One whole line: the data of the event it ends, when it is an empty line.
    fn take_line(&mut self, line: &[u8]) -> Option<Vec<u8>> {
        if line.is_empty() {
            return self.dispatch();
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(0) => return None,
            Some(at) => (&line[..at], line[at + 1..].strip_prefix(b" ").unwrap_or(&line[at + 1..])),
            None => (line, &b""[..]),
        };
        if field == b"data" {
            match &mut self.data {
                Some(joined) => {
                    joined.push(b'\n');
                    joined.extend_from_slice(value);
                }
                None => self.data = Some(value.to_vec()),
            }
        }
        None
    }

    /// The current event's data, when it has some, and a fresh event.
    fn dispatch(&mut self) -> Option<Vec<u8>> {
        self.data.take().filter(|data| !data.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_keep_key_order_and_digits() {
        let arguments: Value = crate::json::from_str(r#"{"z":12345678901234567890123,"a":1.0}"#).unwrap();
        let sent = request(7, "tools/call", json!({"name": "t", "arguments": arguments}));
        assert_eq!(
            sent,
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{"z":12345678901234567890123,"a":1.0}}}"#
        );
    }

    #[test]
    fn messages_are_sorted_into_what_they_are() {
        let response = read(br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#).unwrap();
        assert_eq!(response, Message::Response { id: json!(1), outcome: Ok(json!({"tools": []})) });
        let error = read(br#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad","data":{"problems":[]}}}"#);
        let Ok(Message::Response { outcome: Err(error), .. }) = error else { panic!("an error response") };
        assert_eq!((error.message.as_str(), error.data), ("bad", Some(json!({"problems": []}))));
        assert_eq!(read(br#"{"jsonrpc":"2.0","method":"notifications/message"}"#), Ok(Message::Notification));
        assert_eq!(
            read(br#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#),
            Ok(Message::Request { id: json!("p"), method: "ping".into() })
        );
        for garbage in
            [&b"not json"[..], b"[1]", b"{\"id\":1,\"result\":{}}", b"{\"jsonrpc\":\"2.0\",\"id\":1}", b"\xff"]
        {
            assert!(read(garbage).is_err(), "{:?}", String::from_utf8_lossy(garbage));
        }
        let lone = read(br#"{"jsonrpc":"2.0","id":4,"result":{"s":"\ud800x"}}"#);
        let Ok(Message::Response { outcome: Ok(result), .. }) = lone else { panic!("a response: {lone:?}") };
        let stand_in = crate::json::surrogate::stand_in(0xD800).unwrap();
        assert_eq!(result["s"], Value::String(format!("{stand_in}x")), "a lone surrogate is read as its stand-in");
        assert_eq!(answer_to(&json!(3), "ping"), r#"{"jsonrpc":"2.0","id":3,"result":{}}"#);
        assert!(answer_to(&json!(3), "sampling/createMessage").contains("-32601"));
    }

    #[test]
    fn events_are_read_as_they_arrive() {
        let mut events = Events::default();
        assert!(events.push(b": comment\n\nevent: message\ndata: {\"a\":").is_empty());
        assert_eq!(events.push(b"1}\r\n\r\nid: 2\ndata: x\ndata:y\n\n"), vec![b"{\"a\":1}".to_vec(), b"x\ny".to_vec()]);
        assert!(events.line.is_empty() && events.data.is_none());
        events.push(b"data: last");
        assert_eq!(events.finish(), Some(b"last".to_vec()));
    }

    /// Every event of `chunks`, pushed one after another, then finished.
    fn all(chunks: &[&[u8]]) -> Vec<Vec<u8>> {
        let mut events = Events::default();
        let mut all: Vec<Vec<u8>> = chunks.iter().flat_map(|chunk| events.push(chunk)).collect();
        all.extend(events.finish());
        all
    }

    #[test]
    fn lines_end_at_cr_lf_lf_or_cr_as_the_event_stream_format_has_it() {
        assert_eq!(all(&[b"data: a\rdata: b\r\r"]), vec![b"a\nb".to_vec()], "bare CRs");
        assert_eq!(all(&[b"data: x\n\r\ndata: y\n\n"]), vec![b"x".to_vec(), b"y".to_vec()], "CR LF after an LF");
        assert_eq!(all(&[b"data: x\r\ndata:  y\r\n\r\ndata:z\r\n\r\n"]), vec![b"x\n y".to_vec(), b"z".to_vec()]);
        // A CR at the end of a chunk and an LF at the start of the next are one line end.
        assert_eq!(all(&[b"data: x\r", b"\ndata: y\r", b"\n\r", b"\n"]), vec![b"x\ny".to_vec()]);
        assert_eq!(all(&[b"data: x\r", b"\r"]), vec![b"x".to_vec()], "a CR then a CR is an empty line");
        // Comments, other fields and a field with no colon are no data; an event without data, or
        // with empty data, is not dispatched.
        assert_eq!(
            all(&[b": hi\nevent: m\nid: 1\nretry: 5\ndata\n\ndata:\n\n: x\n\ndata: 1\n\n"]),
            vec![b"1".to_vec()]
        );
        assert_eq!(all(&[b"data:{\"a\":\"b:c\"}\n\n"]), vec![b"{\"a\":\"b:c\"}".to_vec()]);
    }
}
