"""What LlamaIndex's FunctionTool does to tool arguments, checked against the installed
llama-index-core itself.

These tests pin the behaviours the adapter's standing rests on (reports/llama-index/
expected-failures.yaml), with tools written the way LlamaIndex users write them, so that a release
that changes one of them fails here with a name before the suite's numbers move. The last test runs
the adapter end to end over stdio.

    .venv/bin/python -m unittest test_findings -v     # from this folder
"""

import asyncio
import json
import os
import subprocess
import sys
import unittest
from typing import Annotated, Literal

from annotated_types import Ge
from llama_index.core.llms.llm import ToolSelection
from llama_index.core.llms.utils import parse_partial_json
from llama_index.core.tools import FunctionTool, call_tool_with_selection

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the Python adapter kit
from tool_conformance_adapter.exchange import exchange  # noqa: E402


def model_call(tool, arguments_text):
    """A model's tool call as LlamaIndex reads and dispatches it (LLM.predict_and_call's path)."""
    selection = ToolSelection(tool_id="c1", tool_name=tool.metadata.name, tool_kwargs=parse_partial_json(arguments_text))
    return call_tool_with_selection(selection, [tool])


class Findings(unittest.TestCase):
    def setUp(self):
        self.calls = []

    def test_no_value_is_validated(self):
        calls = self.calls

        def configure_job(title: str, retries: int, mode: Literal["fast", "safe"]) -> str:
            calls.append((title, retries, mode))
            return "ok"

        tool = FunctionTool.from_defaults(fn=configure_job)
        asyncio.run(tool.acall(title=7, retries="10", mode="other"))  # an agent workflow's call
        model_call(tool, '{"title": null, "retries": [1], "mode": ""}')
        self.assertEqual(calls, [(7, "10", "other"), (None, [1], "")])

    def test_a_lone_argument_runs_under_the_only_parameter(self):
        calls = self.calls

        def update_step(existing_step_id: str) -> str:
            calls.append(existing_step_id)
            return "ok"

        output = model_call(FunctionTool.from_defaults(fn=update_step), '{"step_id": "x"}')
        self.assertFalse(output.is_error)
        self.assertEqual(calls, ["x"])

    def test_the_only_refusal_is_pythons_type_error(self):
        calls = self.calls

        def update_step(existing_step_id: str, reason: str) -> str:
            calls.append(1)
            return "ok"

        tool = FunctionTool.from_defaults(fn=update_step)
        output = model_call(tool, '{"step_id": "x", "other": 1}')
        self.assertTrue(output.is_error)
        self.assertIsInstance(output.exception, TypeError)
        # Only the first unexpected name, and nothing of the missing ones.
        self.assertTrue(output.content.startswith("Encountered error: "))
        self.assertTrue(output.content.endswith("update_step() got an unexpected keyword argument 'step_id'"))
        with self.assertRaises(TypeError) as caught:
            asyncio.run(tool.acall())
        self.assertIn("missing 2 required positional arguments: 'existing_step_id' and 'reason'", str(caught.exception))
        self.assertEqual(calls, [])

    def test_a_root_that_is_not_an_object_becomes_empty(self):
        self.assertEqual(ToolSelection(tool_id="c", tool_name="t", tool_kwargs=["Acme", 120]).tool_kwargs, {})

    def test_nothing_nested_is_decoded(self):
        calls = self.calls

        def annotate(ids: list[int], title: str) -> str:
            calls.append((ids, title))
            return "ok"

        model_call(FunctionTool.from_defaults(fn=annotate), '{"ids": "[1, 2]", "title": "Ember &amp;amp; Oak"}')
        self.assertEqual(calls, [("[1, 2]", "Ember &amp;amp; Oak")])

    def test_annotated_constraints_are_not_published(self):
        def book(pages: Annotated[int, Ge(1)]) -> str:
            return "ok"

        published = FunctionTool.from_defaults(fn=book).metadata.get_parameters_dict()
        self.assertEqual(published["properties"]["pages"], {"title": "Pages", "type": "integer"})


class Protocol(unittest.TestCase):
    """The adapter end to end over stdio, one request a line."""

    def test_a_session(self):
        two = {
            "type": "object",
            "properties": {"existing_step_id": {"type": "string"}, "reason": {"type": "string"}},
            "required": ["existing_step_id", "reason"],
        }
        one = {"type": "object", "properties": {"existing_step_id": {"type": "string"}}, "required": ["existing_step_id"]}
        requests = [
            {"cmd": "start", "protocol": 1},
            {"cmd": "register", "tools": [{"name": "update_step", "input_schema": two}, {"name": "one", "input_schema": one}]},
            {"cmd": "invoke", "tool": "update_step", "transport": "direct", "arguments": {}},
            {"cmd": "invoke", "tool": "one", "transport": "structured", "arguments": {"step_id": "x"}},
            {"cmd": "invoke", "tool": "update_step", "transport": "direct", "arguments": "x"},
            {"cmd": "normalize", "input_schema": {"properties": {"n": {"type": "integer"}}}, "arguments": {"n": "10"}},
            {"cmd": "stop"},
        ]
        answers = exchange(os.path.join(HERE, "adapter.py"), requests)  # one answer a request, in order
        self.assertEqual(answers[0]["transports"], ["direct", "structured"])
        self.assertEqual(
            answers[2]["error"]["problems"],
            [{"kind": "missing_required", "field": "existing_step_id"}, {"kind": "missing_required", "field": "reason"}],
        )
        self.assertEqual(answers[3], {"seq": 3, "outcome": "executed", "handler_calls": 1, "received": {"existing_step_id": "x"}})
        # An agent workflow's ToolSelection makes arguments that are no object {}: the names are missing.
        self.assertEqual(answers[4]["outcome"], "rejected")
        self.assertEqual(answers[4]["error"]["problems"], answers[2]["error"]["problems"])
        self.assertEqual(answers[5], {"seq": 5, "arguments": {"n": "10"}})


class Tool(unittest.TestCase):
    """tool.py writes each schema as a LlamaIndex user writes a function, and LlamaIndex takes it."""

    def test_open_root_and_odd_names_arrive_through_kwargs(self):
        import tool as tool_builder

        calls = []
        schema = {"type": "object", "properties": {"a": {"type": "string"}, "from": {"type": "integer"}}, "additionalProperties": True}
        built, source = tool_builder.build_tool("t", None, schema, lambda received: calls.append(received) or "ok")
        self.assertIn("**kwargs", source)
        asyncio.run(built.acall(a="x", **{"from": 1, "other": [1]}))
        self.assertEqual(calls, [{"a": "x", "from": 1, "other": [1]}])

    def test_root_alternatives_become_the_nearest_signature(self):
        import tool as tool_builder

        calls = []
        schema = {
            "type": "object",
            "properties": {"a": {"type": "array"}, "b": {"type": "array"}},
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
        }
        built, source = tool_builder.build_tool("t", None, schema, lambda received: calls.append(received) or "ok")
        self.assertTrue(source.startswith("def tool(a=_default_0, b=_default_1):"), source)
        asyncio.run(built.acall())  # {} runs the function: nothing says one of them is required
        self.assertEqual(calls, [{"a": None, "b": None}], "x: T | None = None: the function gets None")


if __name__ == "__main__":
    unittest.main()
