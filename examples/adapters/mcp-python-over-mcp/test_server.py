"""server.py driven as the harness drives it, by the SDK's own client: started over stdio with a
manifest and a record, it lists every manifest tool, records what a call's function received
(exact, one line per run) and answers "ok", and answers a call the SDK refuses with an error while
nothing is recorded; a tool the SDK refuses to add is left out of the listing, and the record says
so, with the SDK's error, before any call.

    .venv/bin/python -m unittest test_server -v     # from this folder
"""

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import unittest

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

HERE = os.path.dirname(os.path.abspath(__file__))

MANIFEST = {
    "manifest": 1,
    "tools": [
        {
            "name": "update_step",
            "description": "Updates one step.",
            "input_schema": {
                "type": "object",
                "properties": {"step_id": {"type": "string"}, "count": {"type": "integer"}},
                "required": ["step_id"],
                "additionalProperties": False,
            },
        },
        {"name": "normalize_1", "input_schema": {"type": "object", "properties": {"ids": {"type": "array"}}}},
    ],
}


class Server(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.manifest = os.path.join(folder.name, "manifest.json")
        self.record = os.path.join(folder.name, "record.jsonl")
        with open(self.manifest, "w", encoding="utf-8") as file:
            json.dump(MANIFEST, file)

    def recorded(self):
        if not os.path.exists(self.record):
            return []
        with open(self.record, encoding="utf-8") as file:
            text = file.read()
        self.assertTrue(text == "" or text.endswith("\n"))
        return [json.loads(line) for line in text.splitlines()]

    def session(self, body):
        params = StdioServerParameters(
            command=sys.executable,
            args=[os.path.join(HERE, "server.py")],
            env={"TOOL_CONFORMANCE_MANIFEST": self.manifest, "TOOL_CONFORMANCE_RECORD": self.record},
        )

        async def run():
            with open(os.devnull, "w") as quiet:
                async with stdio_client(params, errlog=quiet) as (read, write):
                    async with ClientSession(read, write) as session:
                        initialized = await session.initialize()
                        return await body(session, initialized)

        return asyncio.run(asyncio.wait_for(run(), 60))

    def test_it_lists_every_tool_of_the_manifest_and_says_who_it_is(self):
        async def body(session, initialized):
            return initialized, await session.list_tools()

        initialized, listed = self.session(body)
        self.assertEqual(initialized.server_info.name, "mcp")
        self.assertEqual(initialized.server_info.version, "2.3.0")
        tools = {tool.name: tool for tool in listed.tools}
        self.assertEqual(sorted(tools), ["normalize_1", "update_step"])
        self.assertEqual(tools["update_step"].description, "Updates one step.")
        schema = tools["update_step"].input_schema
        self.assertEqual(list(schema["properties"]), ["step_id", "count"])
        self.assertEqual(schema["required"], ["step_id"])

    def test_a_call_the_sdk_accepts_is_recorded_once_and_answered_ok(self):
        async def body(session, _):
            return await session.call_tool("update_step", {"step_id": "s-1", "count": 12345678901234567890123})

        result = self.session(body)
        self.assertFalse(result.is_error)
        self.assertEqual([block.text for block in result.content], ["ok"])
        self.assertEqual(
            self.recorded(), [{"tool": "update_step", "arguments": {"step_id": "s-1", "count": 12345678901234567890123}}]
        )

    def test_a_call_the_sdk_refuses_is_an_error_and_nothing_is_recorded(self):
        async def body(session, _):
            return await session.call_tool("update_step", {"count": 3})

        result = self.session(body)
        self.assertTrue(result.is_error)
        self.assertIn("step_id", result.content[0].text)
        self.assertEqual(self.recorded(), [])

    def test_a_tool_the_sdk_refuses_to_add_is_unlisted_and_the_record_says_why(self):
        # A 30-digit maximum with a fractional multipleOf: pydantic cannot build the argument model.
        ledger = {
            "name": "ledger_entry",
            "input_schema": {
                "type": "object",
                "properties": {
                    "amount": {"type": "integer", "maximum": 123456789012345678901234567890, "multipleOf": 0.01}
                },
            },
        }
        with open(self.manifest, "w", encoding="utf-8") as file:
            json.dump(dict(MANIFEST, tools=[ledger] + MANIFEST["tools"]), file)

        async def body(session, _):
            return await session.list_tools()

        listed = self.session(body)
        self.assertEqual(sorted(tool.name for tool in listed.tools), ["normalize_1", "update_step"])
        [line] = self.recorded()
        self.assertEqual(sorted(line), ["refused", "tool"])
        self.assertEqual(line["tool"], "ledger_entry")
        self.assertRegex(line["refused"], r"^MCPServer\.add_tool refused the signature: \w+: \S")

    def test_without_a_manifest_it_says_so_and_exits(self):
        env = {k: v for k, v in os.environ.items() if k != "TOOL_CONFORMANCE_MANIFEST"}
        out = subprocess.run(
            [sys.executable, os.path.join(HERE, "server.py")], env=env, capture_output=True, text=True, timeout=60
        )
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("TOOL_CONFORMANCE_MANIFEST is not set", out.stderr)


if __name__ == "__main__":
    unittest.main()
