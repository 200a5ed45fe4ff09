//! The server side of protocol v1, shared by every front end: [`Server`] answers one request at a
//! time with a [`Target`] (it reads the request, calls the target, and writes the answer; an
//! unknown command is answered `unsupported`, a malformed request with an error, and nothing a
//! client sends makes it panic), and [`Loopback`] puts a server in the harness's own process as a
//! [`Channel`], so that a run in process can still go through the protocol's JSON text.

use crate::peer::protocol::{self, Answer, ProtocolError, Request};
use crate::peer::remote::{Channel, ChannelError};
use crate::peer::{Target, TargetError};
use serde_json::Value;
use std::time::Duration;

/// A target answering protocol v1 requests.
pub struct Server<T: Target> {
    target: T,
}

/// The answer to one request.
#[derive(Debug, Clone, PartialEq)]
pub struct Handled {
    /// The response object.
    pub response: Value,
    /// The request was `stop`: the session is over.
    pub stop: bool,
    /// The request could not be read (not JSON, not an object, a missing or bad field): over
    /// HTTP this is a 400.
    pub malformed: bool,
}

impl<T: Target> Server<T> {
    /// A server for `target`.
    pub fn new(target: T) -> Server<T> {
        Server { target }
    }

    /// Answers a request given as bytes (one line of stdio, or one HTTP body).
    pub fn handle_bytes(&mut self, bytes: &[u8]) -> Handled {
        match crate::json::from_slice::<Value>(bytes) {
            Ok(request) => self.handle(&request),
            Err(e) => Handled {
                response: Answer::Failed(format!("the request is not JSON: {e}")).to_json(None),
                stop: false,
                malformed: true,
            },
        }
    }

    /// Answers a request.
    pub fn handle(&mut self, request: &Value) -> Handled {
        let seq = protocol::seq_of(request).ok().flatten();
        match Request::from_json(request) {
            Ok((seq, request)) => {
                let stop = request == Request::Stop;
                Handled { response: self.answer(request).to_json(Some(seq)), stop, malformed: false }
            }
            Err(ProtocolError::UnknownCommand(name)) => Handled {
                response: Answer::Unsupported(format!("no command {name:?} in protocol v1")).to_json(seq),
                stop: false,
                malformed: false,
            },
            Err(e) => Handled {
                response: Answer::Failed(format!("bad request: {e}")).to_json(seq),
                stop: false,
                malformed: true,
            },
        }
    }

    fn answer(&mut self, request: Request) -> Answer {
        let result = match request {
            Request::Start { protocol } if protocol != protocol::VERSION => {
                return Answer::Failed(format!(
                    "protocol {protocol} is not spoken here; this implementation speaks protocol {}",
                    protocol::VERSION
                ));
            }
            Request::Start { .. } => self.target.start().map(Answer::Started),
            Request::Normalize { input_schema, arguments } => {
                self.target.normalize(&input_schema, &arguments).map(Answer::Normalized)
            }
            Request::Register { tools } => self.target.register(&tools).map(|()| Answer::Registered),
            Request::Describe { tool, view } => self.target.describe(&tool, view).map(Answer::Described),
            Request::Invoke { tool, transport, arguments } => {
                self.target.invoke(&tool, transport, &arguments).map(Answer::Invoked)
            }
            Request::Stop => self.target.stop().map(|()| Answer::Stopped),
        };
        match result {
            Ok(answer) => answer,
            Err(TargetError::Unsupported(why)) => Answer::Unsupported(why),
            Err(TargetError::Broken(why)) => Answer::Failed(why),
            Err(TargetError::Refused(error)) => Answer::Refused(error),
            Err(TargetError::NotJson(text)) => Answer::NotJson(text),
            // Protocol v1 has no such answer; a decline is never a pass.
            Err(TargetError::NotApplicable(why)) => Answer::Unsupported(format!("not applicable here: {why}")),
        }
    }
}

/// A [`Server`] in the harness's own process, as a [`Channel`]: every request still goes through
/// its JSON text, so the exchange can be shown with `--transcript`.
pub struct Loopback<T: Target + Send> {
    make: fn() -> T,
    server: Option<Server<T>>,
}

impl<T: Target + Send> Loopback<T> {
    /// A loopback to targets made by `make` (a fresh one on every open).
    pub fn new(make: fn() -> T) -> Loopback<T> {
        Loopback { make, server: None }
    }
}

impl<T: Target + Send> Channel for Loopback<T> {
    fn open(&mut self) -> Result<(), ChannelError> {
        self.server = Some(Server::new((self.make)()));
        Ok(())
    }

    fn exchange(&mut self, request: &[u8], _timeout: Duration) -> Result<Vec<u8>, ChannelError> {
        let server = self.server.as_mut().ok_or_else(|| ChannelError::Unreachable("not open".into()))?;
        let handled = server.handle_bytes(request);
        serde_json::to_vec(&handled.response).map_err(|e| ChannelError::Io(e.to_string()))
    }

    fn close(&mut self) {
        self.server = None;
    }

    fn is_stream(&self) -> bool {
        false
    }

    fn describe(&self) -> String {
        "the built-in reference (in process, through the protocol)".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reference;
    use serde_json::json;

    #[test]
    fn answers_every_command_and_refuses_garbage() {
        let mut server = Server::new(Reference::new());
        let started = server.handle(&json!({"cmd": "start", "seq": 0, "protocol": 1}));
        assert_eq!(started.response["implementation"]["name"], "tool-conformance reference");
        assert_eq!(started.response["seq"], 0);
        let normalized =
            server.handle(&json!({"cmd": "normalize", "seq": 1, "input_schema": {}, "arguments": {"t": "&amp;amp;"}}));
        assert_eq!(normalized.response, json!({"seq": 1, "arguments": {"t": "&"}}));
        let unknown = server.handle(&json!({"cmd": "dance", "seq": 2}));
        assert_eq!(unknown.response, json!({"seq": 2, "unsupported": "no command \"dance\" in protocol v1"}));
        let bad = server.handle(&json!({"cmd": "describe", "seq": 3}));
        assert!(bad.malformed);
        assert_eq!(bad.response["seq"], 3);
        let garbage = server.handle_bytes(b"{nope");
        assert!(garbage.malformed && garbage.response["seq"].is_null());
        let old = server.handle(&json!({"cmd": "start", "seq": 4, "protocol": 2}));
        assert!(old.response["error"].as_str().unwrap().contains("protocol 2"));
        let stop = server.handle(&json!({"cmd": "stop", "seq": 5}));
        assert!(stop.stop);
        assert_eq!(stop.response, json!({"seq": 5, "ok": true}));
    }
}
