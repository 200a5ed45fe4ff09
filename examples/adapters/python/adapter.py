#!/usr/bin/env python3
"""A tool-conformance adapter in plain Python 3: protocol v1 over stdio or HTTP, in front of a
small tool runtime that implements RT-TOOL-8 and PLAT-162 (rules.py).

    python3 adapter.py                      # protocol v1 on stdin and stdout (the default)
    python3 adapter.py --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL it serves

To put your own runtime behind the protocol, keep this file's protocol half (Session.handle, the
stdio loop and the HTTP handler) and replace Runtime with calls into your runtime: register your
tools with a recording handler, call them the way each transport would, and report what the
handler saw. See docs/protocol.md for every message.
"""

import argparse
import http.server
import socketserver
import sys
import threading

import rules

NAME = "python-example-adapter"
VERSION = "1.0.0"
TRANSPORTS = ["direct", "structured", "http"]
MAX_BODY = 4 * 1024 * 1024


class Runtime:
    """The runtime under test: a registry of executors, reached by three transports that each
    decode their own wire form and resolve the same registered executor."""

    def __init__(self):
        self.executors = {}

    def register(self, tools):
        executors = {}
        for tool in tools:
            if tool["name"] in executors:
                raise Unsupported(f"tool {tool['name']} is registered twice")
            executors[tool["name"]] = rules.Executor(tool)
        self.executors = executors

    def executor(self, name):
        if name not in self.executors:
            raise Failure(f"no tool named {name!r} is registered")
        return self.executors[name]

    def call(self, transport, tool, arguments, handler):
        """One call as it arrives on `transport`; returns None (executed) or the error object."""
        if transport == "direct":
            return self.executor(tool).execute(arguments, handler)
        if transport == "structured":
            message = rules.dumps({"name": tool, "arguments": arguments})
            envelope = rules.loads(message)
            return self.executor(envelope["name"]).execute(envelope.get("arguments"), handler)
        if transport == "http":
            path, body = "/tools/" + tool, rules.dumps(arguments)
            return self.executor(path[len("/tools/"):]).execute(rules.loads(body), handler)
        raise Unsupported(f"no transport {transport!r}")


class Unsupported(Exception):
    """Answered {"unsupported": why}: the case is skipped."""


class Failure(Exception):
    """Answered {"error": message}: the case is an error."""


def field(request, name, kinds=None):
    if name not in request:
        raise Failure(f"the {request.get('cmd')} request has no {name!r}")
    value = request[name]
    if kinds is not None and not isinstance(value, kinds):
        raise Failure(f"the {request.get('cmd')} request has a bad {name!r}")
    return value


class Session:
    """Protocol v1: one request in, one response out."""

    def __init__(self):
        self.runtime = Runtime()
        self.lock = threading.Lock()

    def handle(self, request):
        """The response to a request (a value of rules.loads), and whether it was stop."""
        seq = request.get("seq") if isinstance(request, dict) else None
        if not isinstance(request, dict):
            return {"seq": None, "error": "the request is not a JSON object"}, False
        with self.lock:
            try:
                answer = self.answer(request)
            except Unsupported as why:
                answer = {"unsupported": str(why)}
            except Failure as why:
                answer = {"error": str(why)}
            except Exception as crash:  # the adapter's own bug: report it, keep serving
                answer = {"error": f"the adapter failed: {type(crash).__name__}: {crash}"}
        return dict({"seq": seq}, **answer), request.get("cmd") == "stop"

    def answer(self, request):
        command = request.get("cmd")
        if command == "start":
            if field(request, "protocol") != 1:
                raise Failure("this adapter speaks protocol 1")
            self.runtime = Runtime()
            return {
                "protocol": 1,
                "implementation": {"name": NAME, "version": VERSION, "language": "python"},
                "rules": ["RT-TOOL-8", "PLAT-162"],
                "transports": TRANSPORTS,
            }
        if command == "normalize":
            return {"arguments": rules.normalize(field(request, "input_schema"), field(request, "arguments"))}
        if command == "register":
            self.runtime.register(field(request, "tools", list))
            return {"ok": True}
        if command == "describe":
            if field(request, "view") not in ("get_api_spec", "direct"):
                raise Unsupported(f"no view {request['view']!r}")
            # Both views publish the one registered schema.
            return {"input_schema": self.runtime.executor(field(request, "tool", str)).schema}
        if command == "invoke":
            received = []
            error = self.runtime.call(field(request, "transport"), field(request, "tool", str),
                                      field(request, "arguments"), received.append)
            if error is None:
                return {"outcome": "executed", "handler_calls": len(received), "received": received[-1]}
            return {"outcome": "rejected", "handler_calls": len(received), "error": error}
        if command == "stop":
            self.runtime = Runtime()
            return {"ok": True}
        raise Unsupported(f"no command {command!r}")


def serve_stdio(session):
    """One JSON object per line on stdin; one per line back on stdout; until stop."""
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        try:
            request = rules.loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as why:
            response, stop = {"seq": None, "error": f"the request is not JSON: {why}"}, False
        else:
            response, stop = session.handle(request)
        out.write(rules.dumps(response).encode("utf-8") + b"\n")
        out.flush()
        if stop:
            return


class Handler(http.server.BaseHTTPRequestHandler):
    """POST a request as the body; the response body is the response object."""

    protocol_version = "HTTP/1.1"  # keep-alive
    disable_nagle_algorithm = True  # headers and body go out in two writes: don't wait between them
    timeout = 10  # a slow client is dropped after 10 seconds of silence
    session = None

    def send_json(self, status, value):
        body = rules.dumps(value).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            self.close_connection = True
            return self.send_json(411, {"seq": None, "error": "a Content-Length is required"})
        if int(length) > MAX_BODY:
            self.close_connection = True
            return self.send_json(413, {"seq": None, "error": f"the body is longer than {MAX_BODY} bytes"})
        body = self.rfile.read(int(length))
        try:
            request = rules.loads(body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as why:
            return self.send_json(400, {"seq": None, "error": f"the body is not JSON: {why}"})
        response, _ = self.session.handle(request)
        self.send_json(200, response)

    def do_GET(self):
        self.send_json(405, {"seq": None, "error": "POST one protocol v1 request as the body"})

    def log_message(self, format, *args):  # keep stderr for real trouble
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def serve_http(session, address):
    host, _, port = address.rpartition(":")
    Handler.session = session
    server = Server((host or "127.0.0.1", int(port)), Handler)
    host, port = server.server_address[:2]
    print(f"listening on http://{host}:{port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", metavar="[HOST:]PORT", help="serve over HTTP (default host 127.0.0.1) instead of stdio")
    args = parser.parse_args()
    session = Session()
    if args.http:
        serve_http(session, args.http)
    else:
        serve_stdio(session)


if __name__ == "__main__":
    main()
