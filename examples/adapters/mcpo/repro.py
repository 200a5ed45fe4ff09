# One tool-conformance case against mcpo 0.0.20 (MCP tools served as an OpenAPI HTTP service), as
# the harness runs it: mcpo started on a free port of 127.0.0.1 in front of an upstream MCP server
# on stdio that lists the tool with its JSON Schema as registered and validates nothing (the MCP
# Python SDK's low-level Server, with input validation turned off, as the harness's own upstream),
# then a POST of the arguments as the JSON body of the tool's endpoint, /<tool>, as an OpenAPI
# client calls it. The upstream writes what its handler received to a file, printed here. From
# this folder, with its pins installed: .venv/bin/python repro.py
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path[:0] = ["../../../adapters/python"]  # the Python adapter kit
from tool_conformance_adapter.outcome import caller_got, received  # noqa: E402

name = "__TOOL__"
schema = json.loads(r'''__SCHEMA__''')
arguments = json.loads(r'''__ARGUMENTS__''')

# The upstream, run by mcpo as its stdio MCP server: the tool as registered, its handler writing
# what it received to the file REPRO_RECORD names.
UPSTREAM = r'''
import json, os
import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

upstream = Server("upstream")


@upstream.list_tools()
async def list_tools():
    return [types.Tool(name=os.environ["REPRO_TOOL"], inputSchema=json.loads(os.environ["REPRO_SCHEMA"]))]


@upstream.call_tool(validate_input=False)
async def call_tool(_name, args):
    with open(os.environ["REPRO_RECORD"], "a", encoding="utf-8") as record:
        record.write(json.dumps(args) + "\n")
    return [types.TextContent(type="text", text="ok")]


async def main():
    async with stdio_server() as (read, write):
        await upstream.run(read, write, upstream.create_initialization_options())


anyio.run(main)
'''


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as scratch:
        record = os.path.join(scratch, "record.jsonl")
        env = {**os.environ, "REPRO_TOOL": name, "REPRO_SCHEMA": json.dumps(schema), "REPRO_RECORD": record}
        mcpo = os.path.join(os.path.dirname(sys.executable), "mcpo")
        bridge = subprocess.Popen(
            [mcpo, "--host", "127.0.0.1", "--port", str(port), "--", sys.executable, "-c", UPSTREAM],
            env=env,
            stdout=sys.stderr,
            start_new_session=True,
        )
        try:
            # mcpo serves its OpenAPI document once it has listed the upstream's tools.
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.urlopen(base + "/openapi.json", timeout=5) as answer:
                        answer.read()
                    break
                except (urllib.error.URLError, ConnectionError):
                    if time.monotonic() > deadline or bridge.poll() is not None:
                        raise SystemExit("mcpo did not start")
                    time.sleep(0.2)
            request = urllib.request.Request(
                f"{base}/{name}",
                data=json.dumps(arguments).encode(),
                headers={"Content-Type": "application/json"},
                method="POST",
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    answer.read()
            except urllib.error.HTTPError as error:
                caller_got(f"HTTP status {error.code} {error.read().decode()}")
                return
            with open(record, encoding="utf-8") as lines:
                for line in lines:
                    received(json.loads(line))
        finally:
            os.killpg(bridge.pid, signal.SIGTERM)
            bridge.wait()


main()
