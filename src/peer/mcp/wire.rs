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

/// Reads one message; `Err` says why it is not a JSON-RPC message.
pub(crate) fn read(bytes: &[u8]) -> Result<Message, String> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| format!("the message is not UTF-8 (invalid bytes at offset {})", e.valid_up_to()))?;
    let value: Value = crate::json::from_str(text).map_err(|e| format!("the message is not JSON ({e})"))?;
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

/// Server-sent events read as they arrive: the `data` of each whole event.
#[derive(Debug, Default)]
pub(crate) struct Events {
    pending: Vec<u8>,
    /// How much of `pending` is known to hold no end of an event (so each byte is scanned about
    /// once, however the stream is cut).
    scanned: usize,
}

impl Events {
    /// Takes `bytes` and returns the data of every event they complete, in order. An event's
    /// `data` lines are joined with `\n`; events without data (comments, ids alone) are dropped.
    pub(crate) fn push(&mut self, bytes: &[u8]) -> Vec<Vec<u8>> {
        self.pending.extend_from_slice(bytes);
        let mut events = Vec::new();
        loop {
            let from = self.scanned.saturating_sub(3);
            let Some((end, gap)) = event_end(&self.pending[from..]).map(|(end, gap)| (from + end, gap)) else {
                self.scanned = self.pending.len();
                return events;
            };
            let event: Vec<u8> = self.pending.drain(..end + gap).take(end).collect();
            self.scanned = 0;
            if let Some(data) = data_of(&event) {
                events.push(data);
            }
        }
    }

    /// The data of an event the stream ended in the middle of, if it has any.
    pub(crate) fn finish(&mut self) -> Option<Vec<u8>> {
        self.scanned = 0;
        data_of(&std::mem::take(&mut self.pending))
    }
}

/// Where the first event of `bytes` ends, and the length of the blank line that ends it.
fn event_end(bytes: &[u8]) -> Option<(usize, usize)> {
    (0..bytes.len()).find_map(|i| {
        let rest = &bytes[i..];
        [&b"\r\n\r\n"[..], b"\n\n", b"\r\r"].iter().find(|gap| rest.starts_with(gap)).map(|gap| (i, gap.len()))
    })
}

/// The joined `data` lines of one event.
fn data_of(event: &[u8]) -> Option<Vec<u8>> {
    let mut data: Option<Vec<u8>> = None;
    for line in event.split(|&b| b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l)) {
        let value = match line.strip_prefix(b"data") {
            Some([]) => &b""[..],
            Some(rest) if rest[0] == b':' => rest[1..].strip_prefix(b" ").unwrap_or(&rest[1..]),
            _ => continue,
        };
        match &mut data {
            Some(joined) => {
                joined.push(b'\n');
                joined.extend_from_slice(value);
            }
            None => data = Some(value.to_vec()),
        }
    }
    data
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
        assert_eq!(answer_to(&json!(3), "ping"), r#"{"jsonrpc":"2.0","id":3,"result":{}}"#);
        assert!(answer_to(&json!(3), "sampling/createMessage").contains("-32601"));
    }

    #[test]
    fn events_are_read_as_they_arrive() {
        let mut events = Events::default();
        assert!(events.push(b": comment\n\nevent: message\ndata: {\"a\":").is_empty());
        assert_eq!(events.push(b"1}\r\n\r\nid: 2\ndata: x\ndata:y\n\n"), vec![b"{\"a\":1}".to_vec(), b"x\ny".to_vec()]);
        assert!(events.pending.is_empty());
        events.push(b"data: last");
        assert_eq!(events.finish(), Some(b"last".to_vec()));
    }
}
