# One tool-conformance case against the MCP Python SDK (PyPI `mcp`), as the adapter runs it:
# a tool whose function signature states the schema (the adapter's signature.py writes it, as SDK
# users write one; it is printed first), added with MCPServer.add_tool and called with
# MCPServer.call_tool. From the adapter folder (or the repository root), with the adapter's pins
# installed: .venv/bin/python repro.py
import asyncio
import json
import sys
import warnings

sys.path[:0] = ["../../../adapters/python", "adapters/python"]  # the Python adapter kit
from tool_conformance_adapter import signature  # noqa: E402  (what the adapter writes its tools with)
from tool_conformance_adapter.outcome import caller_got, received  # noqa: E402
from mcp.server.mcpserver import MCPServer  # noqa: E402
from mcp.server.mcpserver.exceptions import ToolError  # noqa: E402

# The private default of an optional parameter is not JSON: pydantic leaves it out of the schema.
warnings.filterwarnings("ignore", message=".*NOT_SENT is not JSON serializable.*")

name = "__TOOL__"
schema = json.loads(r'''__SCHEMA__''')
arguments = json.loads(r'''__ARGUMENTS__''')


def tool(**kwargs):
    return received({k: v for k, v in kwargs.items() if v is not signature.NOT_SENT})


tool.__signature__ = signature.as_users_write_it(schema).signature()  # as the adapter writes it
print(f"def {name}{tool.__signature__}")


async def main():
    server = MCPServer("repro")
    server.add_tool(tool, name=name, structured_output=False)
    try:
        await server.call_tool(name, arguments)
    except ToolError as error:
        caller_got(error)


asyncio.run(main())
