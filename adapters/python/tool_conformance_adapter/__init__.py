"""Protocol v1 of the tool-conformance harness, for runtimes written in Python (standard library
only): line framing on stdio, HTTP serving, `seq`, error answers, lone surrogates and exact numbers.

An adapter supplies a description of itself and a factory of runtime objects, and calls `main`:

    from tool_conformance_adapter import Implementation, main
    main(Implementation(name=..., version=..., language="python", rules=["RT-TOOL-8", "PLAT-162"],
                        transports=["direct", "structured", "http"], homepage="",
                        get_api_spec=""),   # or the words/URL HTTP errors point back to the spec with
         new_runtime=MyRuntime)   # stdio by default; `--http HOST:PORT` serves HTTP and prints the URL

The runtime (made fresh by `new_runtime()` at every `start`) has four methods:

- `register(tools)`: replace the registry with these tools (`{name, description?, input_schema}`).
- `describe(tool, view)`: the input schema the view (`get_api_spec` or `direct`) publishes.
- `invoke(transport, tool, arguments, handler)`: make the call as it arrives on that transport,
  giving the tool the recording `handler`; return None when the handler ran, or the error object
  the caller got.
- `normalize(input_schema, arguments)`: the arguments that reach a tool with that schema; raise
  `Rejected(error)` when the runtime refuses them before any tool could run.

Any method raises `Unsupported(why)` for what the runtime does not have (the case is skipped) and
`Failure(why)` for what it could not carry out (the case is an error); any other exception is
answered as an error naming it. Values are those of `json.loads` wherever they are exact (`to_native`:
an integer as int at any size, a number a float holds exactly as float), and a decimal.Decimal only
where a float would change the number; whatever the runtime hands back is written with its exact
value. `main(..., numbers="decimal")` hands every number over as the Decimal of its literal instead
(`to_int`, `to_float`, `to_plain` and `from_plain` convert for a framework).
"""

import argparse
import http.server
import os
import socketserver
import sys
import threading
import traceback
from dataclasses import dataclass

from .exact_json import dumps, from_plain, loads, native_number, to_float, to_int, to_native, to_plain
from .template import fill_template, json_text

MAX_BODY = 4 * 1024 * 1024


def adapter_bug(crash):
    """The reason an exception the runtime raised is answered with, and written to stderr: the
    exception on one line, then its traceback (as the Node kit does with a stack)."""
    frames = "".join(traceback.format_tb(crash.__traceback__)).rstrip()
    reason = f"the adapter failed: {type(crash).__name__}: {crash}\nTraceback (most recent call last):\n{frames}"
    print(f"[tool-conformance-adapter] {reason}", file=sys.stderr, flush=True)
    return reason


@dataclass
class Implementation:
    """What `start` answers: the runtime's name and version, and what it claims."""

    name: str
    version: str
    rules: list
    transports: list
    language: str = "python"
    homepage: str = ""
    # The words (a name, a URL) the runtime's HTTP errors point callers back to get_api_spec with,
    # when its discovery is not a tool named get_api_spec: sent as the start answer's
    # `get_api_spec` (docs/protocol.md). Empty: not sent, and the harness looks for "get_api_spec".
    get_api_spec: str = ""

    def describe(self):
        described = {"name": self.name, "version": self.version, "language": self.language}
        if self.homepage:
            described["homepage"] = self.homepage
        return described


class Unsupported(Exception):
    """Answered {"unsupported": why}: the case is skipped."""


class Failure(Exception):
    """Answered {"error": message}: the case is an error."""


class RanOnNotJson(Exception):
    """Answered {"not_json": text} to normalize or invoke: the tool ran and received a value JSON
    cannot carry (a NaN, an infinity), and `text` says what it was as Python renders it
    (`received.not_json_text`). The harness fails the case: the tool ran with a value other than
    any the case expects. Raise it only where the tool truly ran."""

    def __init__(self, text):
        super().__init__(text)
        self.text = text


class Rejected(Exception):
    """Answered {"rejected": error} to normalize: the runtime refused the arguments before any
    tool ran, so nothing reached it."""

    def __init__(self, error):
        super().__init__(error.get("message", "rejected") if isinstance(error, dict) else str(error))
        self.error = error if isinstance(error, dict) else {"message": str(error)}


def field(request, name, kinds=None):
    """A request's field, or Failure when it is missing or of another type."""
    if name not in request:
        raise Failure(f"the {request.get('cmd')} request has no {name!r}")
    value = request[name]
    if kinds is not None and not isinstance(value, kinds):
        raise Failure(f"the {request.get('cmd')} request has a bad {name!r}")
    return value


# How a session hands numbers to the runtime: "native" (the default) as `to_native` makes them,
# "decimal" as `loads` reads them, every one a Decimal with its literal's digits.
NUMBERS = ("native", "decimal")


class Session:
    """Protocol v1: one request in, one response out, in front of one runtime at a time."""

    def __init__(self, implementation, new_runtime, numbers="native"):
        if numbers not in NUMBERS:
            raise ValueError(f"numbers must be one of {NUMBERS}, not {numbers!r}")
        self.implementation = implementation
        self.new_runtime = new_runtime
        self.numbers = numbers
        self.runtime = None
        self.lock = threading.Lock()

    def handle(self, request):
        """The response to a request (a value of exact_json.loads), and whether it was stop."""
        if not isinstance(request, dict):
            return {"seq": None, "error": "the request is not a JSON object"}, False
        if self.numbers == "native":
            request = to_native(request)
        seq = request.get("seq")
        with self.lock:
            try:
                answer = self.answer(request)
            except Unsupported as why:
                answer = {"unsupported": str(why)}
            except Failure as why:
                answer = {"error": str(why)}
            except RanOnNotJson as ran:
                answer = {"not_json": ran.text}
            except Exception as crash:  # the adapter's own bug: report it with its traceback, keep serving
                answer = {"error": adapter_bug(crash)}
        response = dict({"seq": seq}, **answer)
        try:
            dumps(response)
        except (TypeError, ValueError) as why:
            response = {"seq": seq, "error": f"the adapter could not write its answer as JSON: {type(why).__name__}: {why}"}
        return response, request.get("cmd") == "stop"

    def current(self):
        if self.runtime is None:
            self.runtime = self.new_runtime()
        return self.runtime

    def answer(self, request):
        command = request.get("cmd")
        if command == "start":
            if field(request, "protocol") != 1:
                raise Failure("this adapter speaks protocol 1")
            self.runtime = self.new_runtime()
            return {
                "protocol": 1,
                "implementation": self.implementation.describe(),
                "rules": list(self.implementation.rules),
                "transports": list(self.implementation.transports),
                **({"get_api_spec": self.implementation.get_api_spec} if self.implementation.get_api_spec else {}),
            }
        if command == "normalize":
            try:
                arguments = self.current().normalize(field(request, "input_schema"), field(request, "arguments"))
            except Rejected as refused:
                return {"rejected": refused.error}
            return {"arguments": arguments}
        if command == "register":
            self.current().register(field(request, "tools", list))
            return {"ok": True}
        if command == "describe":
            view = field(request, "view", str)
            if view not in ("get_api_spec", "direct"):
                raise Unsupported(f"no view {view!r}")
            return {"input_schema": self.current().describe(field(request, "tool", str), view)}
        if command == "invoke":
            transport = field(request, "transport", str)
            if transport not in self.implementation.transports:
                raise Unsupported(f"no transport {transport!r}")
            received = []
            error = self.current().invoke(transport, field(request, "tool", str), field(request, "arguments"),
                                         received.append)
            if error is None:
                if not received:
                    raise Failure("the call was not rejected, but the handler did not run")
                return {"outcome": "executed", "handler_calls": len(received), "received": received[-1]}
            return {"outcome": "rejected", "handler_calls": len(received), "error": error}
        if command == "stop":
            closing = self.runtime
            self.runtime = None
            if closing is not None and hasattr(closing, "close"):
                closing.close()
            return {"ok": True}
        raise Unsupported(f"no command {command!r}")


def serve_stdio(session):
    """One JSON object per line on stdin; one per line back on stdout; until stop.

    stdout carries protocol lines only: responses go to a duplicate of the original stdout, while
    file descriptor 1 and sys.stdout are pointed at stderr, so a print, banner or log line anywhere
    in the runtime cannot corrupt the stream."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        try:
            request = loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as why:
            response, stop = {"seq": None, "error": f"the request is not JSON: {why}"}, False
        else:
            response, stop = session.handle(request)
        out.write(dumps(response).encode("utf-8") + b"\n")
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
        body = dumps(value).encode("utf-8")
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
            request = loads(body.decode("utf-8"))
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
    """Serves the session over HTTP on `address` ([HOST:]PORT) and prints the URL it serves."""
    host, _, port = address.rpartition(":")
    Handler.session = session
    server = Server((host or "127.0.0.1", int(port)), Handler)
    host, port = server.server_address[:2]
    print(f"listening on http://{host}:{port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


def main(implementation, new_runtime, description="A protocol v1 adapter.", argv=None, numbers="native"):
    """Parses the command line (`--http [HOST:]PORT`, or stdio by default) and serves. `numbers`
    says how the runtime gets numbers: "native" (`to_native`: int, float where exact, else Decimal)
    or "decimal" (every number the Decimal of its literal)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--http", metavar="[HOST:]PORT", help="serve over HTTP (default host 127.0.0.1) instead of stdio")
    args = parser.parse_args(argv)
    session = Session(implementation, new_runtime, numbers=numbers)
    if args.http:
        serve_http(session, args.http)
    else:
        serve_stdio(session)


__all__ = [
    "Implementation", "Unsupported", "Failure", "Rejected", "Session", "main", "serve_stdio", "serve_http",
    "loads", "dumps", "to_native", "native_number", "to_int", "to_float", "to_plain", "from_plain",
    "fill_template", "json_text",
]
