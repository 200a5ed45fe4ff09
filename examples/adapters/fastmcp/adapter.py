#!/usr/bin/env python3
"""A tool-conformance adapter for FastMCP (PyPI `fastmcp`), as it is: protocol v1 (the
Python adapter kit, adapters/python) in front of a FastMCP server whose tools are ordinary
decorated Python functions.

    .venv/bin/python adapter.py                      # protocol v1 on stdin and stdout
    .venv/bin/python adapter.py --http 127.0.0.1:0   # protocol v1 over HTTP

- `direct`: `FastMCP.call_tool(name, arguments)`, the server's own tool-call path (middleware,
  argument validation, the tool function) without the MCP wire protocol.
- `structured`: a `tools/call` through `fastmcp.Client(server)`, FastMCP's in-memory client and
  server pair.

Each registered JSON Schema is turned into the Python function a FastMCP user would write
(schema_to_function.py); what a function signature cannot say is answered unsupported. The
adapter neither fixes nor reimplements anything: what the function receives is what the
framework handed it, and an error is the framework's own. See README.md.
"""

import asyncio
import json
import logging
import re
import sys
import threading
import warnings
from importlib import metadata
from pathlib import Path

sys.dont_write_bytecode = True  # leave no __pycache__ in the kit or here
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "adapters" / "python"))  # the Python adapter kit
sys.path.insert(0, str(HERE))

import tool_conformance_adapter as protocol  # noqa: E402
from tool_conformance_adapter import exact_json  # noqa: E402
from tool_conformance_adapter.received import not_json_text  # noqa: E402
from tool_conformance_adapter.scratch import CurrentRegistry  # noqa: E402
from schema_to_function import build_function  # noqa: E402

# Imported before the first request (it takes a few seconds), not inside the first register.
from fastmcp import Client, FastMCP  # noqa: E402
from fastmcp.exceptions import FastMCPError  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402
from pydantic import ValidationError as PydanticValidationError  # noqa: E402

CALL_TIMEOUT = 4.0  # seconds; under the harness's 5 s per request
FRAMEWORK = "fastmcp"
# What the framework really has: its server-side call path, its in-memory client/server pair, and
# its Streamable HTTP transport (served by uvicorn on loopback).
TRANSPORTS = ("direct", "structured", "http")


def _quiet_framework():
    """FastMCP logs every rejected call as a WARNING (several rich-formatted lines on stderr);
    keep stderr for real trouble. Nothing the framework logs ever reaches stdout."""
    for name in ("fastmcp", "mcp", "FastMCP", "docket", "httpx", "uvicorn"):
        logging.getLogger(name).setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", message=r".*is not JSON serializable; excluding default from JSON schema.*")
    warnings.filterwarnings("ignore", category=DeprecationWarning)


# ---------------------------------------------------------------- JSON values in and out


def to_framework(value):
    """A value of exact_json.loads (numbers as Decimal) as the framework gets it from a JSON
    parser: numbers become int or float exactly the way `json.loads` makes them."""
    return json.loads(exact_json.dumps(value))


class NotJson(protocol.Failure):
    """A value JSON cannot carry: in what a tool received, answered `not_json` (`received`)."""


def received(value):
    """What a tool function received, as `from_framework` gives it back; a value JSON cannot carry
    (the NaN FastMCP's pre-parse makes of "[1, NaN]") raises RanOnNotJson with Python's repr of it:
    the tool ran on it, and the harness fails the case."""
    try:
        return from_framework(value)
    except NotJson as why:
        raise protocol.RanOnNotJson(not_json_text(value, why)) from None


def from_framework(value):
    """What a tool function received, back as a JSON value for the answer."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise NotJson(f"the non-finite number {value!r}")
        return value
    if isinstance(value, (list, tuple)):
        return [from_framework(item) for item in value]
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotJson(f"the non-string key {key!r}")
            out[key] = from_framework(item)
        return out
    raise NotJson(f"a {type(value).__name__} ({value!r}), not a JSON value")


# ---------------------------------------------------------------- errors as the framework gave them

KINDS = {
    "missing": "missing_required",
    "missing_argument": "missing_required",
    "extra_forbidden": "unknown_field",
    "unexpected_keyword_argument": "unknown_field",
    "literal_error": "not_in_enum",
    "enum": "not_in_enum",
    "string_too_short": "too_short",
    "int_from_float": "wrong_type",  # "got a number with a fractional part": not an integer
}


def kind_of(error_type):
    if error_type in KINDS:
        return KINDS[error_type]
    if error_type.endswith("_type") or error_type.endswith("_parsing"):
        return "wrong_type"
    return error_type  # unmapped: the framework's own type


def dedupe(problems):
    """One problem per (kind, field): pydantic reports a union's value once per arm."""
    seen, out = set(), []
    for problem in problems:
        key = (problem["kind"], problem.get("field"))
        if key not in seen:
            seen.add(key)
            out.append(problem)
    return out


def problems_from_pydantic(error):
    """Problems from pydantic's structured errors: loc[0] is the root argument (by its alias, the
    property name). An error of the MCP request model (CallToolRequestParams: FastMCP wraps every
    call in one, and the client builds one) is about the `arguments` member, that is the root
    itself: a problem with no field."""
    request = error.title == "CallToolRequestParams"
    problems = []
    for detail in error.errors(include_url=False, include_context=False, include_input=False):
        problem = {"kind": kind_of(detail["type"])}
        loc = list(detail.get("loc") or ())
        if request and loc[:1] == ["arguments"]:
            loc = loc[1:]
        if loc:
            problem["field"] = str(loc[0])
        problems.append(problem)
    return dedupe(problems)


# pydantic's text: a loc line (the path's segments joined by ".", a segment that contains a dot
# wrapped in backticks), then "  <msg> [type=<type>, input_value=..., input_type=...]".
ERROR_LINE = re.compile(r"^(?P<loc>[^\n]*)\n  (?P<msg>[^\n]*?) \[type=(?P<type>[A-Za-z0-9_]+)", re.MULTILINE)


def first_segment(loc):
    """The root argument of a pydantic loc line: `a.b`.0 -> a.b, tags.0 -> tags, due date -> due date."""
    if loc.startswith("`"):
        close = loc.find("`", 1)
        if close > 0:
            return loc[1:close]
    return loc.split(".", 1)[0]


def problems_from_text(text):
    """Problems parsed from the framework's own error text (a transport that carries only text).
    pydantic's text for FastMCP's request model (CallToolRequestParams) is about its `arguments`
    member, the root itself: a problem with no field, as on the direct path."""
    request = re.match(r"\d+ validation errors? for CallToolRequestParams\n", text) is not None
    problems = []
    for match in ERROR_LINE.finditer(text):
        problem = {"kind": kind_of(match.group("type"))}
        loc = match.group("loc")
        if request:
            loc = loc[len("arguments"):].lstrip(".") if first_segment(loc) == "arguments" else loc
        if loc:
            problem["field"] = first_segment(loc)
        problems.append(problem)
    return dedupe(problems)


def error_object(message, problems):
    # FastMCP's error never lists the expected fields, so none are reported.
    return {"message": message, "problems": problems, "expected_fields": []}


def refusal(refused):
    """Why FastMCP (pydantic, underneath) would not take the function the schema was turned into."""
    lines = [line.strip() for line in str(refused).splitlines() if line.strip()]
    return f"FastMCP refused the function: {type(refused).__name__}: {lines[-1] if lines else ''}"


# ---------------------------------------------------------------- the runtime


class Loop:
    """One asyncio loop on a daemon thread: the in-memory client session lives on it between
    requests, and every request runs its coroutine there."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="fastmcp-loop", daemon=True)
        self.thread.start()

    def run(self, coroutine, timeout=CALL_TIMEOUT):
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result(timeout)
        except TimeoutError:
            future.cancel()
            raise protocol.Failure(f"FastMCP did not answer within {timeout} s")


class Loopback:
    """FastMCP's real Streamable HTTP transport on loopback: one uvicorn server for the whole
    process, handing every request to the current registry's `FastMCP.http_app()` (a new server
    per registry would cost a start-up each time)."""

    def __init__(self):
        self.app = None
        self.server = None
        self.port = None

    async def dispatch(self, scope, receive, send):
        if scope["type"] == "lifespan":  # each registry's app runs its own lifespan (Registry.open)
            message = await receive()
            while message["type"] != "lifespan.shutdown":
                await send({"type": message["type"] + ".complete"})
                message = await receive()
            await send({"type": "lifespan.shutdown.complete"})
            return
        app = self.app
        if app is None:
            await send({"type": "http.response.start", "status": 503, "headers": []})
            await send({"type": "http.response.body", "body": b"no registry"})
            return
        await app(scope, receive, send)

    async def url(self):
        if self.server is None:
            import uvicorn

            config = uvicorn.Config(self.dispatch, host="127.0.0.1", port=0, log_level="error",
                                    access_log=False, lifespan="on", interface="asgi3")
            self.server = uvicorn.Server(config)
            asyncio.get_running_loop().create_task(self.server.serve())
            for _ in range(1000):
                if self.server.started:
                    break
                await asyncio.sleep(0.01)
            else:
                raise protocol.Failure("uvicorn did not start within 10 s")
            self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{self.port}/mcp"


class Registry:
    """One FastMCP server holding the registered tools, one in-memory client connected to it, and
    one client connected to it over Streamable HTTP on loopback, for as long as the registry
    lives."""

    def __init__(self, runtime, tools):
        self.runtime = runtime
        self.server = FastMCP("tool-conformance")  # the framework's default configuration
        self.unsupported = {}  # tool name -> why it could not be expressed
        self.names = {}  # tool name -> {parameter name: property name}
        for tool in tools:
            name = tool.get("name")
            if not isinstance(name, str):
                raise protocol.Failure("a tool without a string name")
            if name in self.names or name in self.unsupported:
                raise protocol.Unsupported(f"tool {name!r} is registered twice")
            try:
                fn, names = build_function(name, to_framework(tool.get("input_schema")), self.runtime.recorder(name))
                self.server.tool(fn, name=name, description=tool.get("description"))
            except protocol.Unsupported as why:
                self.unsupported[name] = str(why)
                continue
            except Exception as refused:  # the framework refused the function it was given
                self.unsupported[name] = refusal(refused)
                continue
            self.names[name] = names
        self.client = Client(self.server)
        self.http_client = None
        self.stopping = None
        self.holder = None
        runtime.loop.run(self.open(), timeout=30)

    async def open(self):
        ready = asyncio.get_running_loop().create_future()
        self.stopping = asyncio.Event()
        loopback = self.runtime.loopback
        http = loopback is not None
        if http:
            url = await loopback.url()
            app = self.server.http_app(path="/mcp")
            self.http_client = Client(url)

        async def hold():
            try:
                async with self.client:
                    if http:
                        async with app.router.lifespan_context(app):
                            loopback.app = app
                            try:
                                async with self.http_client:
                                    ready.set_result(None)
                                    await self.stopping.wait()
                            finally:
                                loopback.app = None
                    else:
                        ready.set_result(None)
                        await self.stopping.wait()
            except BaseException as failed:  # noqa: BLE001 - reported to open()
                if not ready.done():
                    ready.set_exception(failed)

        self.holder = asyncio.create_task(hold())
        await ready

    async def shut(self):
        self.stopping.set()
        try:
            await asyncio.wait_for(self.holder, 5)
        except Exception:  # noqa: BLE001 - closing a registry that is being replaced
            pass

    def close(self):
        try:
            self.runtime.loop.run(self.shut(), timeout=6)
        except Exception:  # noqa: BLE001
            pass

    def check(self, tool):
        if tool in self.unsupported:
            raise protocol.Unsupported(self.unsupported[tool])
        if tool not in self.names:
            raise protocol.Failure(f"no tool named {tool!r} is registered")
        return self.names[tool]


SHARED = {}  # the loop thread and the loopback HTTP server, one per process, across sessions


class Runtime(CurrentRegistry):
    def __init__(self):
        previous = SHARED.get("runtime")
        if previous is not None:  # a new session (over HTTP, `start` again): drop the old registry
            previous.close()
        if "loop" not in SHARED:
            SHARED["loop"] = Loop()
            SHARED["loopback"] = Loopback() if "http" in TRANSPORTS else None
        self.loop = SHARED["loop"]
        self.loopback = SHARED["loopback"]
        if self.loopback is not None:  # started with the session, not inside the first register
            self.loop.run(self.loopback.url(), timeout=20)
        SHARED["runtime"] = self
        self.registry = None
        self.slot = None  # the recording handler of the call in progress
        self.scratch = None  # normalize: one server, one tool per distinct schema
        self.scratch_tools = {}

    # The function registered for every tool calls this with its parameters (locals()).
    def recorder(self, tool):
        def record(received):
            slot = self.slot
            if slot is not None:  # None: a call the adapter did not make, nothing to record it in
                slot(("received", received))
            return "ok"

        return record

    def close(self):
        if self.registry is not None:
            self.registry.close()
            self.registry = None

    def register(self, tools):
        self.close()
        self.registry = Registry(self, tools)

    def describe(self, tool, view):
        registry = self.current()
        registry.check(tool)
        if view == "direct":
            async def held():
                found = await registry.server.get_tool(tool)
                if found is None:
                    raise protocol.Failure(f"FastMCP has no tool {tool!r}")
                return found.parameters
        else:
            async def held():
                for listed in await registry.client.list_tools():
                    if listed.name == tool:
                        return listed.input_schema
                raise protocol.Failure(f"the client's tools/list has no tool {tool!r}")
        return from_framework(self.loop.run(held()))

    def invoke(self, transport, tool, arguments, handler):
        registry = self.current()
        registry.check(tool)
        # Not only objects: FastMCP's own checks decide what a null, a list or a string becomes.
        arguments = to_framework(arguments)
        seen = []
        self.slot = seen.append
        try:
            if transport == "direct":
                error = self.loop.run(self.direct(registry.server, tool, arguments))
            elif transport == "structured":
                error = self.loop.run(self.structured(registry.client, tool, arguments))
            elif transport == "http" and registry.http_client is not None:
                error = self.loop.run(self.structured(registry.http_client, tool, arguments))
            else:
                raise protocol.Unsupported(f"no transport {transport!r}")
        finally:
            self.slot = None
        for _, value in seen:
            handler(received(value))
        return error

    async def direct(self, server, tool, arguments):
        try:
            await server.call_tool(tool, arguments)
        except FastMCPError as refused:
            cause = refused.__cause__
            if isinstance(cause, PydanticValidationError):
                return error_object(str(refused), problems_from_pydantic(cause))
            return error_object(str(refused), [])
        except PydanticValidationError as refused:
            return error_object(str(refused), problems_from_pydantic(refused))
        return None

    async def structured(self, client, tool, arguments):
        try:
            result = await client.call_tool_mcp(tool, arguments)
        except PydanticValidationError as refused:  # the client's request model refused the arguments
            return error_object(str(refused), problems_from_pydantic(refused))
        except MCPError as refused:  # a JSON-RPC error instead of a result
            return error_object(str(refused), [])
        if not result.is_error:
            return None
        text = "\n".join(getattr(block, "text", "") for block in result.content)
        return error_object(text, problems_from_text(text))

    def normalize(self, input_schema, arguments):
        """RT-TOOL-8: what reaches a tool with this schema, on the main (direct) call path."""
        if self.scratch is None:
            self.scratch = FastMCP("tool-conformance-normalize")
        key = exact_json.dumps(input_schema)
        if key not in self.scratch_tools:
            name = f"normalize_{len(self.scratch_tools)}"
            try:
                fn, names = build_function(name, to_framework(input_schema), self.recorder(name))
                self.scratch.tool(fn, name=name)
            except protocol.Unsupported as why:
                self.scratch_tools[key] = (None, str(why))
                raise
            except Exception as refused:
                why = refusal(refused)
                self.scratch_tools[key] = (None, why)
                raise protocol.Unsupported(why)
            self.scratch_tools[key] = (name, names)
        name, names = self.scratch_tools[key]
        if name is None:
            raise protocol.Unsupported(names)
        seen = []
        self.slot = seen.append
        try:
            error = self.loop.run(self.direct(self.scratch, name, to_framework(arguments)))
        finally:
            self.slot = None
        if error is not None:  # refused in one step, before the tool ran: the caller's error, whole
            raise protocol.Rejected({"message": error["message"], "problems": error["problems"]})
        if len(seen) != 1:
            raise protocol.Failure(f"the tool ran {len(seen)} times")
        return received(seen[0][1])


def implementation():
    return protocol.Implementation(
        name=FRAMEWORK,
        version=metadata.version(FRAMEWORK),
        language="python",
        homepage="https://github.com/PrefectHQ/fastmcp",
        rules=["RT-TOOL-8", "PLAT-162"],
        transports=list(TRANSPORTS),
    )


if __name__ == "__main__":
    _quiet_framework()
    protocol.main(implementation(), Runtime, description=__doc__.splitlines()[0])
