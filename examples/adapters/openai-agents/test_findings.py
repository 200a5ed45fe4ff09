"""What the OpenAI Agents SDK's function_tool does to tool arguments, checked against the installed
SDK itself.

These tests pin the behaviours the adapter's standing rests on (reports/openai-agents/
expected-failures.yaml), with tools written the way SDK users write them and called the way the
Runner calls them (`on_invoke_tool(ToolContext, arguments_json)`), so that a release that changes
one of them fails here with a name before the suite's numbers move. The last test runs the adapter
end to end over stdio.

    .venv/bin/python -m unittest test_findings -v     # from this folder
"""

import asyncio
import json
import logging
import os
import subprocess
import sys
import unittest
from typing import Any, Literal, Optional

import pydantic
from agents import function_tool
from agents.exceptions import UserError
from agents.function_schema import function_schema
from agents.tool_context import ToolContext

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the Python adapter kit
from tool_conformance_adapter.exchange import exchange  # noqa: E402
FIXED = "An error occurred while running the tool. Please try again."
logging.getLogger("openai.agents").setLevel(logging.CRITICAL)


def runner_call(tool, arguments_json):
    """The call the Runner makes for a model's tool call."""
    context = ToolContext(context=None, tool_name=tool.name, tool_call_id="c1", tool_arguments=arguments_json)
    return asyncio.run(tool.on_invoke_tool(context, arguments_json))


class Findings(unittest.TestCase):
    def setUp(self):
        self.calls = []

    def test_the_strict_schema_closes_the_root_but_undeclared_names_are_ignored(self):
        calls = self.calls

        @function_tool
        def update_step(existing_step_id: str, reason: str) -> str:
            calls.append((existing_step_id, reason))
            return "ok"

        self.assertIs(update_step.params_json_schema["additionalProperties"], False)
        self.assertEqual(runner_call(update_step, '{"existing_step_id": "s1", "reason": "r", "step_id": "x"}'), "ok")
        self.assertEqual(calls, [("s1", "r")])

    def test_a_refused_call_gets_a_fixed_text_naming_nothing(self):
        calls = self.calls

        @function_tool
        def update_step(existing_step_id: str, reason: str) -> str:
            calls.append(1)
            return "ok"

        self.assertEqual(runner_call(update_step, '{"step_id": "x"}'), FIXED)
        self.assertEqual(runner_call(update_step, '{"existing_step_id": 1, "reason": []}'), FIXED)
        self.assertEqual(calls, [])

    def test_every_parameter_is_published_as_required(self):
        @function_tool
        def search(query: str, limit: int = 10, cursor: Optional[str] = None) -> str:
            return "ok"

        self.assertEqual(search.params_json_schema["required"], ["query", "limit", "cursor"])

    def test_an_open_object_parameter_is_refused_in_strict_mode(self):
        def annotate(title: str, filter: dict[str, Any]) -> str:
            return "ok"

        with self.assertRaises(UserError) as caught:
            function_tool(annotate)
        self.assertIn("additionalProperties should not be set", str(caught.exception))

    def test_character_references_reach_the_tool_undecoded(self):
        calls = self.calls

        @function_tool
        def rename(title: str) -> str:
            calls.append(title)
            return "ok"

        runner_call(rename, '{"title": "Ember &amp;amp; Oak"}')
        self.assertEqual(calls, ["Ember &amp;amp; Oak"])

    def test_json_text_for_a_list_is_refused_not_decoded(self):
        def tag(ids: list[int]) -> str:
            return "ok"

        with self.assertRaises(pydantic.ValidationError) as caught:
            function_schema(tag).params_pydantic_model(**json.loads('{"ids": "[1, 2, 3]"}'))
        self.assertEqual([e["type"] for e in caught.exception.errors()], ["list_type"])
        self.assertEqual(runner_call(function_tool(tag), '{"ids": "[1, 2, 3]"}'), FIXED)

    def test_lax_mode_and_literal_equality(self):
        calls = self.calls

        @function_tool
        def job(count: int, mixed: Literal["a", True, 0]) -> str:
            calls.append((count, mixed))
            return "ok"

        runner_call(job, '{"count": "10", "mixed": 1}')
        runner_call(job, '{"count": 3, "mixed": false}')
        self.assertEqual(calls, [(10, True), (3, 0)])


class Protocol(unittest.TestCase):
    """The adapter end to end over stdio, one request a line."""

    def test_a_session(self):
        schema = {
            "type": "object",
            "properties": {"existing_step_id": {"type": "string"}, "reason": {"type": "string"}, "a.b": {"type": "integer"}},
            "required": ["existing_step_id", "reason"],
        }
        requests = [
            {"cmd": "start", "protocol": 1},
            {"cmd": "register", "tools": [{"name": "update_step", "input_schema": schema}]},
            {"cmd": "invoke", "tool": "update_step", "transport": "structured", "arguments": {"step_id": "x"}},
            {"cmd": "invoke", "tool": "update_step", "transport": "structured",
             "arguments": {"existing_step_id": "s1", "reason": "r &amp; s", "a.b": "7", "extra": 1}},
            {"cmd": "invoke", "tool": "update_step", "transport": "direct", "arguments": {}},
            {"cmd": "describe", "tool": "update_step", "view": "direct"},
            {"cmd": "stop"},
        ]
        answers = exchange(os.path.join(HERE, "adapter.py"), requests)  # one answer a request, in order
        self.assertEqual(answers[0]["transports"], ["structured"])
        self.assertEqual(
            answers[2],
            {"seq": 2, "outcome": "rejected", "handler_calls": 0,
             "error": {"message": FIXED, "problems": [], "expected_fields": []}},
        )
        self.assertEqual(answers[3]["received"], {"existing_step_id": "s1", "reason": "r &amp; s", "a.b": 7})
        self.assertIn("unsupported", answers[4])
        self.assertEqual(answers[5]["input_schema"]["required"], ["existing_step_id", "reason", "a.b"])


if __name__ == "__main__":
    unittest.main()
