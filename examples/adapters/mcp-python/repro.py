# One tool-conformance case against the MCP Python SDK (PyPI `mcp`), as the adapter runs it:
# a tool whose function states the schema in its signature (the kit's signature.py writes it, as
# SDK users write one; it is printed first), added with MCPServer.add_tool and called with
# MCPServer.call_tool. From the adapter folder (or the repository root), with the adapter's pins
# installed: .venv/bin/python repro.py
import asyncio
import inspect
import json
import sys

sys.path[:0] = ["../../../adapters/python", "adapters/python"]  # the Python adapter kit
from tool_conformance_adapter import signature  # noqa: E402  (what the adapter writes its tools with)
from tool_conformance_adapter.outcome import caller_got, received  # noqa: E402
from mcp.server.mcpserver import MCPServer  # noqa: E402
from mcp.server.mcpserver.exceptions import ToolError  # noqa: E402

name = "__TOOL__"
schema = json.loads(r'''__SCHEMA__''')
arguments = json.loads(r'''__ARGUMENTS__''')

# The function an SDK user writes for the schema, as the adapter writes it: a plain def with named,
# annotated parameters (an optional one `T | None = None`), whose body prints what it received.
mapping = signature.as_users_write_it(schema, optional="none")
tool = signature.user_function(mapping, received, name)
print(f"def {name}{inspect.signature(tool)}")


async def main():
    server = MCPServer("repro")
    server.add_tool(tool, name=name, structured_output=False)
    try:
        await server.call_tool(name, arguments)
    except ToolError as error:
        caller_got(error)


asyncio.run(main())
