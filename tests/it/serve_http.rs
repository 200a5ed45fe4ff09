//! `serve --http` as a client sees it: keep-alive, 4xx JSON errors for malformed requests, a cap
//! on bodies, slow clients cut off without holding anyone else up, concurrent load, and `stop`
//! leaving the server up. The server runs on a loopback thread with short timeouts.

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use tool_conformance::Reference;
use tool_conformance::serve::http::{HttpOptions, bind_address, listen, serve};

fn start_server() -> SocketAddr {
    let options = HttpOptions {
        max_body: 64 * 1024,
        request_timeout: Duration::from_millis(500),
        idle_timeout: Duration::from_secs(2),
        ..HttpOptions::default()
    };
    let listener = listen("127.0.0.1:0".parse().expect("an address"), &options).expect("bind");
    let address = listener.local_addr().expect("address");
    std::thread::spawn(move || serve(listener, Reference::new, options));
    address
}

/// Sends raw bytes on a fresh connection and reads the whole response (the request asks the
/// server to close the connection after it; one the server cannot read it closes anyway).
fn raw(address: SocketAddr, bytes: &[u8]) -> (u16, Value) {
    let mut stream = TcpStream::connect(address).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
    stream.write_all(bytes).expect("write");
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    parse(&response)
}

/// The first response's status and body (read by its Content-Length).
fn parse(response: &[u8]) -> (u16, Value) {
    let text = String::from_utf8_lossy(response);
    let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_default();
    let length = head
        .lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse().ok())
        .unwrap_or(0usize);
    (status, tool_conformance::json::from_str(&body[..length.min(body.len())]).unwrap_or(Value::Null))
}

fn post(agent: &ureq::Agent, address: SocketAddr, request: &Value) -> (u16, Value) {
    let mut response = agent
        .post(format!("http://{address}/"))
        .header("Content-Type", "application/json")
        .send(request.to_string().as_bytes())
        .expect("POST");
    let status = response.status().as_u16();
    let body = response.body_mut().read_to_string().expect("body");
    (status, tool_conformance::json::from_str(&body).unwrap_or(Value::Null))
}

fn agent() -> ureq::Agent {
    ureq::Agent::new_with_config(ureq::Agent::config_builder().http_status_as_error(false).proxy(None).build())
}

fn malformed_requests_get_a_4xx_and_a_json_error() {
    let address = start_server();
    let cases: [(&[u8], u16); 5] = [
        (b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405),
        (b"POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 411),
        (b"POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501),
        (b"POST / HTTP/1.1\r\nConnection: close\r\nContent-Length: 5\r\n\r\n{nope", 400),
        (b"POST / HTTP/1.1\r\nConnection: close\r\nContent-Length: 9999999\r\n\r\n", 413),
    ];
    for (request, status) in cases {
        let (got, body) = raw(address, request);
        assert_eq!(got, status, "{}", String::from_utf8_lossy(request));
        assert!(body["error"].is_string(), "{body}");
        assert!(body.get("seq").is_some(), "{body}");
    }
    // What is not HTTP at all is answered 400, and the connection closed.
    assert_eq!(raw(address, b"NOT HTTP AT ALL\r\n\r\n").0, 400);
    let agent = agent();
    let (status, body) = post(&agent, address, &json!({"cmd": "describe", "seq": 4}));
    assert_eq!(status, 400);
    assert_eq!(body["seq"], 4);
    let (status, body) = post(&agent, address, &json!({"cmd": "dance", "seq": 5}));
    assert_eq!(status, 200);
    assert_eq!(body, json!({"seq": 5, "unsupported": "no command \"dance\" in protocol v1"}));
}

fn keep_alive_and_pipelined_requests_on_one_connection() {
    let address = start_server();
    let mut stream = TcpStream::connect(address).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
    let body = json!({"cmd": "start", "seq": 0, "protocol": 1}).to_string();
    let request = format!("POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n{body}", body.len());
    stream.write_all(format!("{request}{request}").as_bytes()).expect("write two requests at once");
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    while seen.windows(8).filter(|w| w == b"HTTP/1.1").count() < 2
        || !String::from_utf8_lossy(&seen).ends_with("\"transports\":[\"direct\",\"structured\",\"http\"]}")
    {
        let n = stream.read(&mut buffer).expect("read");
        assert!(n > 0, "the server closed a kept-alive connection");
        seen.extend_from_slice(&buffer[..n]);
    }
    // HTTP/1.1 keeps the connection alive without saying so; it is still open.
    let request = format!("POST / HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}", body.len());
    stream.write_all(request.as_bytes()).expect("a third request on the same connection");
    let mut rest = Vec::new();
    let _ = stream.read_to_end(&mut rest);
    assert_eq!(parse(&rest).0, 200, "{}", String::from_utf8_lossy(&rest));
}

fn a_slow_client_is_cut_off_and_holds_nobody_up() {
    let address = start_server();
    // A body that stops half way, long or short, and a head that stops half way: each is answered
    // 408 when the request timeout is up, and closed.
    let mut slow = TcpStream::connect(address).expect("connect");
    slow.write_all(b"POST / HTTP/1.1\r\nContent-Length: 4000\r\n\r\n{").expect("a partial request");
    let mut small = TcpStream::connect(address).expect("connect");
    small.write_all(b"POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n{").expect("a partial request");
    let mut headless = TcpStream::connect(address).expect("connect");
    headless.write_all(b"POST / HTTP/1.1\r\nContent-Le").expect("a partial head");
    let began = Instant::now();
    let (status, body) = post(&agent(), address, &json!({"cmd": "start", "seq": 0, "protocol": 1}));
    assert_eq!(status, 200, "{body}");
    assert!(began.elapsed() < Duration::from_millis(400), "a slow client held another up");
    let read_all = |stream: &mut TcpStream| {
        stream.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        response
    };
    slow.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
    let mut response = Vec::new();
    let mut buffer = [0u8; 4096];
    while parse(&response).1.is_null() {
        let n = slow.read(&mut buffer).expect("read");
        assert!(n > 0, "closed without an answer");
        response.extend_from_slice(&buffer[..n]);
    }
    assert_eq!(parse(&response).0, 408);
    assert_eq!(parse(&read_all(&mut small)).0, 408);
    assert_eq!(parse(&read_all(&mut headless)).0, 408);
    assert!(began.elapsed() < Duration::from_secs(3));
}

fn stays_up_under_concurrent_load_and_after_stop() {
    let address = start_server();
    let threads: Vec<_> = (0..16)
        .map(|t| {
            std::thread::spawn(move || {
                let agent = agent();
                for i in 0..25u64 {
                    let seq = t * 100 + i;
                    let request = json!({
                        "cmd": "normalize", "seq": seq,
                        "input_schema": {"type": "object", "properties": {"ops": {"type": "array"}}},
                        "arguments": {"ops": "[1, 2]", "title": "Ember &amp;amp; Oak"}
                    });
                    let (status, body) = post(&agent, address, &request);
                    assert_eq!(status, 200);
                    assert_eq!(body, json!({"seq": seq, "arguments": {"ops": [1, 2], "title": "Ember & Oak"}}));
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("a client thread failed");
    }
    let agent = agent();
    let (status, body) = post(&agent, address, &json!({"cmd": "stop", "seq": 1}));
    assert_eq!((status, body), (200, json!({"seq": 1, "ok": true})));
    let (status, body) = post(&agent, address, &json!({"cmd": "start", "seq": 0, "protocol": 1}));
    assert_eq!(status, 200);
    assert_eq!(body["implementation"]["name"], "tool-conformance reference");
}

fn binds_loopback_by_default() {
    assert_eq!(bind_address("8080").unwrap().to_string(), "127.0.0.1:8080");
    assert!(bind_address("localhost:8080").unwrap().ip().is_loopback());
    assert_eq!(bind_address("0.0.0.0:1").unwrap().to_string(), "0.0.0.0:1");
    assert!(bind_address("no port").is_err());
}

tests![
    malformed_requests_get_a_4xx_and_a_json_error,
    keep_alive_and_pipelined_requests_on_one_connection,
    a_slow_client_is_cut_off_and_holds_nobody_up,
    stays_up_under_concurrent_load_and_after_stop,
    binds_loopback_by_default,
];
