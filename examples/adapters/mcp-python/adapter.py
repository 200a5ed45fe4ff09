#!/usr/bin/env python3
"""A tool-conformance adapter (protocol v1) for the MCP Python SDK (PyPI `mcp`), used as it is.

Each registered tool is a function whose signature says what the tool's JSON Schema says
(signature.py), added with `MCPServer.add_tool`, the SDK's FastMCP. Every call then goes through
the SDK's own tool path: `func_metadata`'s pre-parse (`pre_parse_json`), validation against the
argument model built from the signature, then the function, which records what it received.

- `direct`: `MCPServer.call_tool`, the server's tool manager and `Tool.run`, in process.
- `structured`: `tools/call` from the SDK's `Client` over the in-memory transport (the memory
  streams of `mcp.shared.memory`, JSON-RPC messages, the initialize handshake) to the same server.
- `http`: `tools/call` from a `Client` over the SDK's Streamable HTTP transport, served on
  127.0.0.1 by uvicorn, to the same server.

The arguments of every call are first read by the SDK's own wire decoder (what its stdio server
does to each line), so numbers reach the tool as the SDK would parse them. Nothing here repairs,
validates or rewrites arguments: what the function receives and the error text the caller gets are
the SDK's. The problems of a rejected call are what the SDK reported: the pydantic ValidationError
behind a direct call's ToolError, or the pydantic listing in the text a client got.

    .venv/bin/python adapter.py                      # protocol v1 on stdin and stdout
    .venv/bin/python adapter.py --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL

See README.md beside this file for the setup, the mapping and what the suite finds.
"""

import asyncio
import concurrent.futures
import contextlib
import importlib.metadata
import json
import logging
import os
import re
import sys
import threading
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
# The protocol half is the Python adapter kit of this repository (adapters/python), always the
# one beside this file, so that the standing is measured with the kit it ships with.
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))

import tool_conformance_adapter as protocol  # noqa: E402
from tool_conformance_adapter.setup import not_installed  # noqa: E402
from tool_conformance_adapter import dumps  # noqa: E402
from tool_conformance_adapter.scratch import CurrentRegistry  # noqa: E402

try:
    import pydantic  # noqa: E402
    import pydantic_core  # noqa: E402
    from mcp.client import Client  # noqa: E402
    from mcp.server.mcpserver import MCPServer  # noqa: E402
    from mcp.server.mcpserver.exceptions import ToolError  # noqa: E402
    from mcp_types import jsonrpc_message_adapter  # noqa: E402
except ImportError as missing:  # pragma: no cover - a setup problem, said plainly
    not_installed("the MCP Python SDK", HERE, missing)

from tool_conformance_adapter import signature  # noqa: E402
from tool_conformance_adapter.received import NotJson, not_json_text, snapshot  # noqa: E402

# stdout carries protocol lines only; the SDK logs to stderr through `logging`.
logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="[mcp-python adapter] %(name)s: %(message)s")
# A default JSON cannot carry would be left out of the published schema, with a warning: not on stdout.
warnings.filterwarnings("ignore", category=pydantic.json_schema.PydanticJsonSchemaWarning)

PACKAGE = "mcp"
TRANSPORTS = ["direct", "structured", "http"]
TIMEOUT = 4.5  # seconds for one call into the SDK: under the harness's 5 s per response
# An optional parameter is written as the SDK's docs write one: `x: T | None = None`.
OPTIONAL = "none"

IMPLEMENTATION = protocol.Implementation(
    name=PACKAGE,
    version=importlib.metadata.version(PACKAGE),
    language="python",
    homepage="https://github.com/modelcontextprotocol/python-sdk",
    rules=["RT-TOOL-8", "PLAT-162"],
    transports=TRANSPORTS,
)


# ---------------------------------------------------------------------------------------------
# The SDK runs on one asyncio loop in a thread of its own; protocol requests wait on it.


class Loop:
    def __init__(self):
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="mcp-sdk", daemon=True).start()

    def run(self, coroutine, what):
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result(TIMEOUT)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise protocol.Failure(f"the SDK did not finish {what} within {TIMEOUT} s") from None


LOOP = Loop()


class Loopback:
    """One uvicorn server on 127.0.0.1 (a free port), started on first use in the SDK's loop, that
    hands each request to the Streamable HTTP app whose path it names: one app per registry."""

    def __init__(self):
        self.routes = {}
        self.base = None

    async def add(self, path, app):
        if self.base is None:
            import uvicorn

            config = uvicorn.Config(
                self.dispatch,
                host="127.0.0.1",
                port=0,
                lifespan="off",
                interface="asgi3",
                log_config=None,  # keep the logging set up above: stderr only
                log_level="warning",
                access_log=False,
            )
            server = uvicorn.Server(config)
            self._task = asyncio.create_task(server.serve())
            while not server.started:
                if self._task.done():
                    self._task.result()  # raises why it could not start
                await asyncio.sleep(0.01)
            self.base = "http://127.0.0.1:%d" % server.servers[0].sockets[0].getsockname()[1]
            # Not logged: stderr lines go into error reasons, and a port number would make reports
            # differ from run to run.
        self.routes[path] = app
        return self.base

    def remove(self, path):
        self.routes.pop(path, None)

    async def dispatch(self, scope, receive, send):
        app = self.routes.get(scope.get("path"))
        if app is None:
            await send({"type": "http.response.start", "status": 404, "headers": []})
            await send({"type": "http.response.body", "body": b"no MCP endpoint here"})
            return
        await app(scope, receive, send)


LOOPBACK = Loopback()


# ---------------------------------------------------------------------------------------------
# What the SDK is handed, and what comes back.


def wire_arguments(tool, arguments):
    """The arguments as the SDK's wire decoder reads them from a tools/call message.

    The message is the JSON text of the call with the arguments' exact digits and key order;
    `jsonrpc_message_adapter.validate_json` is what the SDK's stdio server does to every line.
    Raises pydantic.ValidationError when the decoder refuses the text.
    """
    text = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%s,"arguments":%s}}' % (
        json.dumps(tool),
        dumps(arguments),
    )
    message = jsonrpc_message_adapter.validate_json(text, by_name=False)
    return message.params["arguments"]


# pydantic's error types the suite has a name for; any other type is kept as the problem's kind.
KINDS = {
    "missing": "missing_required",
    "extra_forbidden": "unknown_field",
    "literal_error": "not_in_enum",
    "enum": "not_in_enum",
    "string_too_short": "too_short",
    # Not *_type, but "Input should be a valid integer" / "Input should be None": a wrong type.
    "int_from_float": "wrong_type",
    "none_required": "wrong_type",
}
WRONG_TYPE = re.compile(r"^\w+_(?:type|parsing)$")  # int_type, int_parsing, list_type, dict_type, ...
HEADER = re.compile(r"^.*\b\d+ validation errors? for \S+$")
DETAIL = re.compile(r"^  (?P<message>.*) \[type=(?P<type>[A-Za-z0-9_]+)(?:,.*)?\]$")


def _problems(errors):
    """Problems from (pydantic type, root field or None, location, message) tuples: one per kind
    and field, in the order the errors come, each with the errors behind it."""
    problems = {}
    for error_type, field, location, message in errors:
        kind = KINDS.get(error_type) or ("wrong_type" if WRONG_TYPE.match(error_type) else error_type)
        problem = problems.setdefault((kind, field), dict({"kind": kind}, **({"field": field} if field else {})))
        problem.setdefault("errors", []).append(f"{location}: {message} [type={error_type}]")
    return list(problems.values())


def problems_from_validation(error):
    """The problems a pydantic ValidationError names (the direct path: the ToolError's cause)."""
    return _problems(
        (e["type"], str(e["loc"][0]) if e["loc"] else None, ".".join(str(part) for part in e["loc"]), e["msg"])
        for e in error.errors()
    )


def problems_from_text(message, names):
    """The problems the pydantic error listing in an error text names (the structured path, where
    the caller has only the text).

    The listing is `N validation error(s) for MODEL`, then per error a line with its location
    (dot-joined) and an indented line `message [type=TYPE, ...]`. A location's root field is the
    longest declared name it starts with (names may hold dots), else its first segment.
    """
    lines = message.split("\n")
    start = next((i for i, line in enumerate(lines) if HEADER.match(line)), None)
    if start is None:
        return []
    # The client's own check of a tools/call request: locations start at the request's params, so
    # "arguments" is the arguments themselves (the root) and "arguments.x" is the field x.
    params = lines[start].endswith(" for CallToolRequestParams")
    errors, location = [], None
    for line in lines[start + 1 :]:
        if line.startswith("    "):
            continue  # "For further information visit ..."
        match = DETAIL.match(line)
        if match is None:
            location = line
            continue
        if params and location is not None:
            if location == "arguments":
                location = ""
            elif location.startswith("arguments."):
                location = location[len("arguments.") :]
        field = None
        if location:
            candidates = [n for n in names if location == n or location.startswith(n + ".")]
            field = max(candidates, key=len) if candidates else location.split(".")[0]
        errors.append((match.group("type"), field, location or "", match.group("message")))
        location = None
    return _problems(errors)


def _exception_text(why):
    """An exception's type and text, with the sub-exceptions of an exception group."""
    if isinstance(why, BaseExceptionGroup):
        return "; ".join(_exception_text(sub) for sub in why.exceptions)
    return f"{type(why).__name__}: {why}"


def text_of(result):
    """The text content of a CallToolResult: what a caller reads."""
    texts = [block.text for block in result.content if getattr(block, "type", None) == "text"]
    return "\n".join(texts) if texts else result.model_dump_json(by_alias=True)


# ---------------------------------------------------------------------------------------------
# A registry: one MCPServer with the registered tools, and a Client joined to it in memory.


class Entry:
    """A registered tool: its schema's signature and what its function received per call."""

    def __init__(self, name, mapping):
        self.name = name
        self.mapping = mapping
        self.calls = []
        self.unreadable = None  # why the last value received could not be reported

    def function(self):
        """The function an SDK user writes for the tool (the kit's `signature.user_function`: an
        `async def` with named, annotated parameters), whose body records what it received."""

        def record(received):
            try:
                self.calls.append(snapshot(received))
            except NotJson as why:
                self.calls.append(None)
                self.unreadable = not_json_text(received, why)
            return "ok"

        return signature.user_function(self.mapping, record, self.name, is_async=True)

    def names(self):
        return [p.name for p in self.mapping.parameters]


class Registry:
    def __init__(self, label):
        self.server = MCPServer(name=f"tool-conformance-{label}", log_level="WARNING")
        self.entries = {}
        self.refused = {}  # name -> why no signature could be registered for it
        self.label = f"r{label}"
        self.client = None  # the in-memory Client (structured)
        self._http = None  # the Streamable HTTP Client (http), made when first needed
        self._http_path = None
        self._stop = asyncio.Event()
        self._holders = []

    def add(self, tool):
        name = tool.get("name")
        if not isinstance(name, str):
            raise protocol.Failure("a tool needs a string name")
        if "input_schema" not in tool:
            raise protocol.Failure(f"tool {name} has no input_schema")
        if name in self.entries or name in self.refused:
            raise protocol.Unsupported(f"tool {name} is registered twice (the SDK keeps the first)")
        # The schema as plain JSON values (the request's numbers are Decimal).
        schema = pydantic_core.from_json(dumps(tool["input_schema"]))
        try:
            mapping = signature.as_users_write_it(schema, optional=OPTIONAL)
        except signature.Unmappable as why:
            raise protocol.Unsupported(f"no function signature says this schema: {why}") from None
        entry = Entry(name, mapping)
        description = tool.get("description")
        try:
            self.server.add_tool(
                entry.function(),
                name=name,
                description=description if isinstance(description, str) else None,
                structured_output=False,
            )
        except Exception as why:  # InvalidSignature, a pydantic schema error, ...
            raise protocol.Unsupported(
                f"MCPServer.add_tool refused the signature: {type(why).__name__}: {why}"
            ) from None
        self.entries[name] = entry
        return entry

    def remove(self, name):
        self.server.remove_tool(name)
        del self.entries[name]

    def entry(self, name):
        if name in self.refused:
            raise protocol.Unsupported(self.refused[name])
        if name not in self.entries:
            raise protocol.Failure(f"no tool named {name!r} is registered")
        return self.entries[name]

    async def _hold(self, *contexts):
        """Enters the async contexts (the last one a Client) in a task of their own, which keeps
        them open until close(); returns the client."""
        ready = asyncio.get_running_loop().create_future()

        async def hold():
            try:
                async with contextlib.AsyncExitStack() as stack:
                    for context in contexts:
                        client = await stack.enter_async_context(context)
                    ready.set_result(client)
                    await self._stop.wait()
            except BaseException as why:
                if not ready.done():
                    ready.set_exception(why)
                raise

        self._holders.append(asyncio.create_task(hold()))
        return await ready

    async def connect(self):
        """Joins a Client to the server over the in-memory transport (JSON-RPC, initialize)."""
        self.client = await self._hold(Client(self.server, mode="legacy", cache=None))

    async def http_client(self):
        """A Client joined to the server over its Streamable HTTP transport on loopback, made on
        the first call that needs it."""
        if self._http is None:
            path = f"/{self.label}/mcp"
            app = self.server.streamable_http_app(streamable_http_path=path)
            base = await LOOPBACK.add(path, app)
            try:
                self._http = await self._hold(
                    self.server.session_manager.run(), Client(base + path, mode="legacy", cache=None)
                )
            except BaseException:
                LOOPBACK.remove(path)
                raise
            self._http_path = path
        return self._http

    async def close(self):
        self._stop.set()
        for holder in self._holders:
            try:
                await holder
            except BaseException as why:  # closing is best effort
                sys.stderr.write(f"[mcp-python adapter] closing a client: {type(why).__name__}: {why}\n")
        self._holders = []
        if self._http_path is not None:
            LOOPBACK.remove(self._http_path)
        self.client = self._http = self._http_path = None

    async def call_direct(self, name, arguments):
        """MCPServer.call_tool: the tool manager and Tool.run. Returns None, or the error the caller
        got: the ToolError's text, and the problems of the pydantic ValidationError behind it."""
        try:
            result = await self.server.call_tool(name, arguments)
        except ToolError as why:  # validation (caused by a ValidationError), or a crash
            cause = why.__cause__
            problems = problems_from_validation(cause) if isinstance(cause, pydantic.ValidationError) else []
            return {"message": str(why), "problems": problems}
        except Exception as why:  # an MCPError, say
            return {"message": f"{type(why).__name__}: {why}", "problems": []}
        if getattr(result, "is_error", False):
            text = text_of(result)
            return {"message": text, "problems": problems_from_text(text, self.entry(name).names())}
        return None

    async def call_structured(self, name, arguments, http=False):
        """tools/call from a Client: over the in-memory session, or over Streamable HTTP. Returns
        None, or the error the caller got: the text of the isError result (or of the client's
        exception), and the problems that text names."""
        try:
            client = await self.http_client() if http else self.client
        except Exception as why:  # no caller got this: the transport could not be set up
            raise protocol.Failure(f"the Streamable HTTP client could not connect: {_exception_text(why)}") from None
        try:
            result = await client.call_tool(name, arguments)
        except Exception as why:  # a JSON-RPC error, or the client refusing the request
            text = str(why)
        else:
            if not result.is_error:
                return None
            text = text_of(result)
        return {"message": text, "problems": problems_from_text(text, self.entry(name).names())}

    async def listed_schema(self, name):
        """The inputSchema tools/list gives a client for the tool."""
        cursor = None
        while True:
            page = await self.client.list_tools(cursor=cursor) if cursor else await self.client.list_tools()
            for tool in page.tools:
                if tool.name == name:
                    return tool.input_schema
            cursor = page.next_cursor
            if not cursor:
                raise protocol.Failure(f"tools/list does not list {name!r}")

    def held_schema(self, name):
        """The schema the server-side Tool object holds, what it hands a provider (`Tool.parameters`;
        MCPServer has no public accessor for its tool manager, so this reads `_tool_manager`)."""
        tool = self.server._tool_manager.get_tool(name)
        if tool is None:
            raise protocol.Failure(f"the tool manager has no tool {name!r}")
        return tool.parameters


# ---------------------------------------------------------------------------------------------
# The runtime behind protocol.Session.


class Runtime(CurrentRegistry):
    _live = None  # the one runtime whose registries are open

    def __init__(self):
        if Runtime._live is not None:
            Runtime._live.close()
        Runtime._live = self
        self.registry = None
        self.scratch = None
        self.counter = 0

    def close(self):
        for registry in (self.registry, self.scratch):
            if registry is not None:
                LOOP.run(registry.close(), "closing a client")
        self.registry = self.scratch = None
        if Runtime._live is self:
            Runtime._live = None

    def register(self, tools):
        self.counter += 1
        registry = Registry(self.counter)
        for tool in tools:
            if not isinstance(tool, dict):
                raise protocol.Failure("a tool is not an object")
            try:
                registry.add(tool)
            except protocol.Unsupported as why:
                # The other tools still register; a case that calls or describes this one is
                # answered unsupported then (registry.entry), and so skipped.
                if tool.get("name") in registry.entries or tool.get("name") in registry.refused:
                    raise
                registry.refused[tool["name"]] = str(why)
        LOOP.run(registry.connect(), "connecting a client")
        old, self.registry = self.registry, registry
        if old is not None:
            LOOP.run(old.close(), "closing a client")

    def describe(self, tool, view):
        registry = self.current()
        registry.entry(tool)
        if view == "get_api_spec":  # the discovery answer: tools/list over the client session
            return LOOP.run(registry.listed_schema(tool), "tools/list")
        return registry.held_schema(tool)  # direct

    def run_call(self, registry, transport, tool, arguments):
        """One call on a transport: (what the function received per run, the caller's error or None)."""
        entry = registry.entry(tool)
        try:
            sdk_arguments = wire_arguments(tool, arguments)
        except pydantic.ValidationError as why:  # the SDK's wire decoder refused the message
            errors = [(e["type"], None, ".".join(map(str, e["loc"])), e["msg"]) for e in why.errors()]
            return [], {"message": str(why), "problems": _problems(errors)}
        entry.calls, entry.unreadable = [], None
        if transport == "direct":
            error = LOOP.run(registry.call_direct(tool, sdk_arguments), f"the direct call of {tool}")
        elif transport in ("structured", "http"):
            error = LOOP.run(
                registry.call_structured(tool, sdk_arguments, http=transport == "http"),
                f"tools/call {tool} on {transport}",
            )
        else:
            raise protocol.Unsupported(f"no transport {transport!r}")
        if entry.unreadable is not None:  # the tool ran, on a value JSON cannot carry: the case fails
            raise protocol.RanOnNotJson(entry.unreadable)
        return list(entry.calls), error

    def invoke(self, transport, tool, arguments, handler):
        registry = self.current()
        calls, error = self.run_call(registry, transport, tool, arguments)
        for received in calls:
            handler(received)
        if calls:
            return None
        if error is None:
            raise protocol.Failure("the SDK reported success, but the tool function did not run")
        return dict(error, expected_fields=[])  # the SDK's errors list no expected fields

    def normalize(self, input_schema, arguments):
        """What reaches a scratch tool with this schema, called directly (Tool.run): what the
        function received when the call ran. When the SDK refused the call (its pre-parse and
        validation are one step, before any tool runs), the answer is `rejected` with the error the
        caller got, never the pre-parse's output, which no tool received (the framework adapter
        contract, docs/protocol.md)."""
        if self.scratch is None:
            self.scratch = Registry("scratch")
        self.counter += 1
        name = f"normalize_{self.counter}"
        self.scratch.add({"name": name, "input_schema": input_schema})
        try:
            calls, error = self.run_call(self.scratch, "direct", name, arguments)
            if calls:
                return calls[-1]
            if error is None:
                raise protocol.Failure("the SDK reported success, but the tool function did not run")
            raise protocol.Rejected(error)
        finally:
            self.scratch.remove(name)


if __name__ == "__main__":
    protocol.main(IMPLEMENTATION, Runtime, description=__doc__.splitlines()[0])
