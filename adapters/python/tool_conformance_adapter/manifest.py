"""An MCP server under test, reached over MCP itself (`tool-conformance run --mcp-server CMD`): the
tool manifest it registers its tools from, and the record of what each tool's handler received
(docs/protocol.md, "MCP").

The harness writes the run's tools to a file (UTF-8 JSON, `schemas/manifest.schema.json`) and
names it in `TOOL_CONFORMANCE_MANIFEST`:

    {"manifest": 1, "tools": [{"name": "update_step", "description": "...", "input_schema": {...}}]}

`load()` reads it with the kit's `loads` (numbers as Decimal with their exact digits, key order
kept) and returns the tools. A server registers every one of them, as its users register a tool,
with a handler that calls `record(name, arguments)` with what it received and returns "ok":

    from tool_conformance_adapter import manifest, to_plain

    for tool in manifest.load():
        server.add_tool(handler_for(tool["name"], to_plain(tool["input_schema"])), name=tool["name"])

`record` appends one line to the file named by `TOOL_CONFORMANCE_RECORD`, flushed before it
returns: `{"tool": NAME, "arguments": VALUE}`, the compact JSON text of the kit's `json_text`
(exact numbers as the runtime holds them: an int with all its digits, a float as its repr; key
order kept). A value JSON cannot carry (a NaN, a key that is no string, an object of another type)
is recorded as `{"tool": NAME, "not_json": TEXT}`, TEXT Python's repr of what the handler
received, saying so and why it is not JSON (`received.not_json_text`): the handler ran, on a value
other than any a case expects, and the harness fails the case with TEXT as what it received.

A tool the server's framework refuses to register is left out of `tools/list`, and
`refuse(name, why)` says so in the record, before the server serves: `{"tool": NAME, "refused":
WHY}`, WHY quoting the framework's error in the form `<call> refused <what>: <its error>`. The
harness then declines that tool's cases with WHY, as a protocol-v1 adapter declines with
`unsupported`.
"""

import os
import threading

from .exact_json import loads
from .received import not_json_text
from .template import json_text

MANIFEST = "TOOL_CONFORMANCE_MANIFEST"
RECORD = "TOOL_CONFORMANCE_RECORD"
VERSION = 1

_lock = threading.Lock()


class ManifestError(Exception):
    """The manifest is missing, unreadable, or not what `schemas/manifest.schema.json` describes;
    the message names the file and what is wrong."""


def _path(given, variable):
    path = given if given is not None else os.environ.get(variable)
    if not path:
        raise ManifestError(f"{variable} is not set: start this server with `tool-conformance run --mcp-server`")
    return path


def load(path=None):
    """The tools of the manifest at `path` (by default the file `TOOL_CONFORMANCE_MANIFEST` names),
    in its order: dicts with `name`, `input_schema` and, where given, `description`, their numbers
    Decimal (the kit's `to_plain` makes them ints and floats)."""
    path = _path(path, MANIFEST)
    try:
        with open(path, "rb") as file:
            document = loads(file.read())
    except OSError as why:
        raise ManifestError(f"{path}: cannot be read: {why.strerror or why}") from None
    except (ValueError, UnicodeDecodeError) as why:
        raise ManifestError(f"{path}: not UTF-8 JSON: {why}") from None
    if not isinstance(document, dict) or document.get("manifest") != VERSION:
        raise ManifestError(f'{path}: not a tool manifest of version {VERSION} (no "manifest": {VERSION})')
    tools = document.get("tools")
    if not isinstance(tools, list):
        raise ManifestError(f'{path}: "tools" is not a list')
    names = set()
    for index, tool in enumerate(tools):
        where = f"{path}: tools[{index}]"
        if not isinstance(tool, dict):
            raise ManifestError(f"{where} is not an object")
        if not isinstance(tool.get("name"), str) or not tool["name"]:
            raise ManifestError(f"{where} has no name")
        if tool["name"] in names:
            raise ManifestError(f"{where}: the name {tool['name']!r} is published twice")
        names.add(tool["name"])
        if "input_schema" not in tool:
            raise ManifestError(f"{where} ({tool['name']}) has no input_schema")
        if "description" in tool and not isinstance(tool["description"], str):
            raise ManifestError(f"{where} ({tool['name']}): description is not a string")
    return tools


def record_line(tool, arguments):
    """The line `record` appends for a call of `tool` that received `arguments`, with its `\\n`."""
    try:
        return '{"tool":%s,"arguments":%s}\n' % (json_text(tool), json_text(arguments))
    except (TypeError, ValueError) as why:
        text = not_json_text(arguments, f"{type(why).__name__}: {why}")
        return '{"tool":%s,"not_json":%s}\n' % (json_text(tool), json_text(text))


def _append(line, path):
    path = _path(path, RECORD)
    with _lock, open(path, "a", encoding="utf-8") as file:
        file.write(line)
        file.flush()


def refusal_line(tool, why):
    """The line `refuse` appends for a tool the framework refused to register, with its `\\n`."""
    return '{"tool":%s,"refused":%s}\n' % (json_text(tool), json_text(str(why)))


def refuse(tool, why, path=None):
    """Says in the record (by default the file `TOOL_CONFORMANCE_RECORD` names) that the framework
    refused to register `tool`, and why (`<call> refused <what>: <its error>`): one line, written
    and flushed before it returns. The server leaves the tool out of its listing."""
    _append(refusal_line(tool, why), path)


def record(tool, arguments, path=None):
    """Appends what the handler of `tool` received to the record (by default the file
    `TOOL_CONFORMANCE_RECORD` names), one line, written and flushed before it returns; returns
    "ok", what a recording handler answers."""
    _append(record_line(tool, arguments), path)
    return "ok"
