# One tool-conformance case against FastMCP 4.2.3's proxy (`fastmcp run <URL>`: stdio to
# Streamable HTTP), as the harness runs it: an upstream MCP server on Streamable HTTP on 127.0.0.1
# that lists the tool with its JSON Schema as registered and validates nothing (a bare JSON-RPC
# responder, as the harness's own upstream), the proxy started in front of it, and FastMCP's
# Client calling tools/call through the proxy over stdio. From this folder, with its pins
# installed: .venv/bin/python repro.py
import asyncio
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path[:0] = ["../../../adapters/python"]  # the Python adapter kit
from fastmcp import Client  # noqa: E402
from fastmcp.client.transports import StdioTransport  # noqa: E402
from tool_conformance_adapter.outcome import caller_got, received  # noqa: E402

name = "__TOOL__"
schema = json.loads(r'''__SCHEMA__''')
arguments = json.loads(r'''__ARGUMENTS__''')


class Upstream(BaseHTTPRequestHandler):
    """Each POST a JSON-RPC message answered with JSON, whatever its params hold."""

    def log_message(self, *_):
        pass

    def do_GET(self):
        self.send_response(405)
        self.end_headers()

    def do_DELETE(self):
        self.send_response(200)
        self.end_headers()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        message = json.loads(body) if body.strip() else {}
        if "id" not in message:
            self.send_response(202)
            self.end_headers()
            return
        method, params = message.get("method"), message.get("params") or {}
        answer = {"jsonrpc": "2.0", "id": message["id"]}
        if method == "initialize":
            answer["result"] = {
                "protocolVersion": params.get("protocolVersion"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "upstream", "version": "1.0.0"},
            }
        elif method == "tools/list":
            answer["result"] = {"tools": [{"name": name, "inputSchema": schema}]}
        elif method == "tools/call":
            received(params.get("arguments"))  # the tool: what its handler received
            answer["result"] = {"content": [{"type": "text", "text": "ok"}]}
        elif method == "ping":
            answer["result"] = {}
        else:
            answer["error"] = {"code": -32601, "message": "Method not found"}
        body = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


async def main():
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{upstream.server_address[1]}/mcp"
    fastmcp = os.path.join(os.path.dirname(sys.executable), "fastmcp")
    proxy = StdioTransport(command=fastmcp, args=["run", url, "--no-banner"])
    try:
        # The initialize handshake, as the harness's client speaks it (the proxy mirrors the era).
        async with Client(proxy, mode="legacy") as client:
            await client.call_tool(name, arguments)
    except Exception as error:  # ToolError for an isError result, MCPError for a JSON-RPC error
        caller_got(error)
    finally:
        upstream.shutdown()


asyncio.run(main())
