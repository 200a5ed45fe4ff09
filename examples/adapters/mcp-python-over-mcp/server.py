#!/usr/bin/env python3
"""An MCP server on the MCP Python SDK (PyPI `mcp`), as its users write one, for
`tool-conformance run --mcp-server`: the harness is its MCP client over stdio.

Every tool of the run's manifest (`TOOL_CONFORMANCE_MANIFEST`) is a function whose signature says
what the tool's JSON Schema says, written as SDK users write one (the Python kit's `signature`,
what the mcp-python row registers too), added with `MCPServer.add_tool`. Its body appends what it
received to the record (`TOOL_CONFORMANCE_RECORD`) and returns "ok". Then `MCPServer.run()` serves
stdio. Nothing here validates, repairs or rewrites arguments: the SDK reads each line, checks the
call against the argument model built from the signature, and calls the function, or answers the
error it makes.

    TOOL_CONFORMANCE_MANIFEST=manifest.json TOOL_CONFORMANCE_RECORD=record.jsonl \\
        .venv/bin/python server.py

A tool the SDK refuses to add (`MCPServer.add_tool` raising) is left out of tools/list, and the
record says so before the server serves (the kit's `manifest.refuse`, with the SDK's error): the
harness declines that tool's cases with it. A schema the kit's signature cannot write is left out
too, said only on stderr: that is this fixture's limit, not the SDK's, so the harness reports its
cases as errors naming the tool.
"""

import importlib.metadata
import logging
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
# The Python adapter kit of this repository (adapters/python), the one beside this file.
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))

from tool_conformance_adapter import manifest, signature, to_plain  # noqa: E402
from tool_conformance_adapter.setup import not_installed  # noqa: E402

try:
    import pydantic  # noqa: E402
    from mcp.server.mcpserver import MCPServer  # noqa: E402
except ImportError as missing:  # pragma: no cover - a setup problem, said plainly
    not_installed("the MCP Python SDK", HERE, missing)

PACKAGE = "mcp"

# stdout carries MCP messages only; the SDK logs to stderr.
logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="[mcp-python-over-mcp] %(name)s: %(message)s")
# A default JSON cannot carry would be left out of the published schema, with a warning: not on stdout.
warnings.filterwarnings("ignore", category=pydantic.json_schema.PydanticJsonSchemaWarning)


def recording_function(name, mapping, description):
    """The function of tool `name`, as the mcp-python row writes it: the function an SDK user
    writes (the kit's `signature.user_function`, an `async def` with named, annotated parameters),
    whose body records what it received and answers "ok"."""
    return signature.user_function(
        mapping, lambda received: manifest.record(name, received), name, description, is_async=True
    )


def build(tools):
    """An MCPServer with every tool of the manifest added as a user adds one; returns the server,
    the names the SDK refused (each with its error, `MCPServer.add_tool refused the signature:
    ...`) and the names no signature was written for (each with why)."""
    server = MCPServer(name=PACKAGE, version=importlib.metadata.version(PACKAGE), log_level="WARNING")
    refused, unwritten = {}, {}
    for tool in tools:
        name, description = tool["name"], tool.get("description")
        try:
            # An optional parameter is written as the SDK's docs write one: `x: T | None = None`.
            mapping = signature.as_users_write_it(to_plain(tool["input_schema"]), optional="none")
        except signature.Unmappable as why:
            unwritten[name] = f"no function signature says this schema: {why}"
            continue
        try:
            server.add_tool(
                recording_function(name, mapping, description),
                name=name,
                description=description,
                structured_output=False,
            )
        except Exception as why:  # InvalidSignature, a pydantic schema error, ...
            refused[name] = f"MCPServer.add_tool refused the signature: {type(why).__name__}: {why}"
    return server, refused, unwritten


def main():
    try:
        tools = manifest.load()
    except manifest.ManifestError as why:
        sys.exit(f"[mcp-python-over-mcp] {why}")
    server, refused, unwritten = build(tools)
    for name, why in refused.items():
        print(f"[mcp-python-over-mcp] tool {name} is not registered: {why}", file=sys.stderr, flush=True)
        manifest.refuse(name, why)
    for name, why in unwritten.items():
        print(f"[mcp-python-over-mcp] tool {name} is not registered: {why}", file=sys.stderr, flush=True)
    server.run()  # stdio


if __name__ == "__main__":
    main()
