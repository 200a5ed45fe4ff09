# One tool-conformance case against the MCP Python SDK (PyPI `mcp`) over MCP, as the harness runs
# it: server.py beside this file (the tool added with MCPServer.add_tool, its function signature
# written from the schema as SDK users write one) started over stdio with a one-tool manifest, and
# the SDK's own client calling tools/call. What the tool's function received is read from the
# record server.py keeps. From this folder, with its pins installed: .venv/bin/python repro.py
import asyncio
import json
import os
import sys
import tempfile

sys.path[:0] = ["../../../adapters/python"]  # the Python adapter kit
from tool_conformance_adapter.outcome import caller_got, received  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

name = "__TOOL__"
schema = json.loads(r'''__SCHEMA__''')
arguments = json.loads(r'''__ARGUMENTS__''')


async def main(folder):
    manifest, record = os.path.join(folder, "manifest.json"), os.path.join(folder, "record.jsonl")
    with open(manifest, "w", encoding="utf-8") as file:
        json.dump({"manifest": 1, "tools": [{"name": name, "input_schema": schema}]}, file)
    server = StdioServerParameters(
        command=sys.executable,
        args=["server.py"],
        env={"TOOL_CONFORMANCE_MANIFEST": manifest, "TOOL_CONFORMANCE_RECORD": record},
    )
    async with stdio_client(server, errlog=sys.stderr) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool(name, arguments)
    ran = []
    if os.path.exists(record):
        with open(record, encoding="utf-8") as file:
            ran = [json.loads(line) for line in file]
    for line in ran:
        received(line["arguments"] if "arguments" in line else line)
    if not ran and result.is_error:
        caller_got("\n".join(block.text for block in result.content if block.type == "text"))


with tempfile.TemporaryDirectory() as folder:
    asyncio.run(main(folder))
