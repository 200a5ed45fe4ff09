# One tool-conformance case against FastMCP (PyPI `fastmcp`), as the adapter runs it: a tool whose
# function signature states the schema (the adapter's schema_to_function.py writes it, as FastMCP
# users write one; it is printed first), added with FastMCP.tool and called with
# FastMCP.call_tool. From the adapter folder, with the adapter's pins installed:
#   .venv/bin/python repro.py
import asyncio
import inspect
import json
import logging
import sys
import warnings

# The adapter's mapping, and the kit it uses (from the adapter folder, or the repository root).
sys.path[:0] = ["", "../../../adapters/python", "examples/adapters/fastmcp", "adapters/python"]
from schema_to_function import build_function  # noqa: E402
from fastmcp import FastMCP  # noqa: E402
from fastmcp.exceptions import FastMCPError  # noqa: E402
from pydantic import ValidationError  # noqa: E402
from tool_conformance_adapter.outcome import caller_got, received  # noqa: E402

logging.disable(logging.WARNING)  # FastMCP logs every refused call; the caller's error is printed below
warnings.filterwarnings("ignore", message=".*is not JSON serializable.*")

name = "__TOOL__"
schema = json.loads(r'''__SCHEMA__''')
arguments = json.loads(r'''__ARGUMENTS__''')


function, _ = build_function(name, schema, received)
print(f"def {function.__name__}{inspect.signature(function)}")


async def main():
    server = FastMCP("repro")
    server.tool(function, name=name)
    try:
        await server.call_tool(name, arguments)
    except (FastMCPError, ValidationError) as error:
        caller_got(error)


asyncio.run(main())
