# One tool-conformance case against mcp-proxy 0.13.0 (stdio to Streamable HTTP), as the harness
# runs it: an upstream MCP server on Streamable HTTP on 127.0.0.1 that lists the tool with its JSON
# Schema as registered and validates nothing (the MCP Python SDK's low-level Server, with input
# validation turned off, as the harness's own upstream), mcp-proxy started in front of it, and the
# SDK's ClientSession calling tools/call through mcp-proxy over stdio. From this folder, with its
# pins installed: .venv/bin/python repro.py
import asyncio
import json
import os
import socket
import sys

sys.path[:0] = ["../../../adapters/python"]  # the Python adapter kit
import uvicorn  # noqa: E402
from mcp import types  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from mcp.server.lowlevel import Server  # noqa: E402
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager  # noqa: E402
from mcp.shared.exceptions import McpError  # noqa: E402
from tool_conformance_adapter.outcome import caller_got, received  # noqa: E402

name = "__TOOL__"
schema = json.loads(r'''__SCHEMA__''')
arguments = json.loads(r'''__ARGUMENTS__''')

# The upstream: the tool as registered, its handler printing what it received.
upstream = Server("upstream")


@upstream.list_tools()
async def list_tools():
    return [types.Tool(name=name, inputSchema=schema)]


@upstream.call_tool(validate_input=False)
async def call_tool(_name, args):
    received(args)
    return [types.TextContent(type="text", text="ok")]


async def main():
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{listening.getsockname()[1]}/mcp"
    manager = StreamableHTTPSessionManager(app=upstream, stateless=True)

    async def app(scope, receive, send):
        if scope["type"] == "http":
            await manager.handle_request(scope, receive, send)

    web = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    async with manager.run():
        serving = asyncio.create_task(web.serve(sockets=[listening]))
        proxy = StdioServerParameters(
            command=os.path.join(os.path.dirname(sys.executable), "mcp-proxy"),
            args=["--transport", "streamablehttp", url],
        )
        try:
            async with stdio_client(proxy, errlog=sys.stderr) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    result = await session.call_tool(name, arguments)
            if result.isError:
                caller_got("\n".join(block.text for block in result.content if block.type == "text"))
        except McpError as error:
            caller_got(str(error))
        finally:
            web.should_exit = True
            await serving


asyncio.run(main())
