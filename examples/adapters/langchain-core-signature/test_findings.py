"""The behaviours of langchain-core's StructuredTool.from_function that
reports/langchain-core-signature/expected-failures.yaml rests on, each pinned against the installed
langchain-core with a tool written as a langchain user writes it: a release that changes one fails
here, by name, before the suite's numbers move. The last test runs the adapter end to end over
stdio. From this folder: `.venv/bin/python -m unittest test_findings -v`.
"""

import json
import os
import subprocess
import sys
import unittest
from typing import Annotated, Literal

import pydantic
from langchain_core.output_parsers.openai_tools import parse_tool_call
from langchain_core.tools import StructuredTool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the Python adapter kit
from tool_conformance_adapter.exchange import exchange  # noqa: E402


def agent_call(tool, arguments_text):
    """Calls the tool as an agent does: the provider's tool call read by langchain-core's decoder,
    the ToolCall dict handed to tool.invoke. Returns what the function received (a list of calls)."""
    call = parse_tool_call(
        {"id": "c1", "type": "function", "function": {"name": tool.name, "arguments": arguments_text}}, return_id=True
    )
    return tool.invoke(call)


class Recording:
    def __init__(self):
        self.calls = []

    def tool(self, function):
        recording = self

        def wrapped(*args, **kwargs):
            recording.calls.append((args, kwargs))
            return "ok"

        wrapped.__signature__ = __import__("inspect").signature(function)
        wrapped.__annotations__ = function.__annotations__
        wrapped.__name__ = function.__name__
        return StructuredTool.from_function(func=wrapped, name=function.__name__, description="t")


class Findings(unittest.TestCase):
    def test_character_references_reach_the_tool_undecoded(self):
        r = Recording()

        def rename(title: str):
            pass

        agent_call(r.tool(rename), '{"title": "Ember &amp;amp; Oak"}')
        self.assertEqual(r.calls, [((), {"title": "Ember &amp;amp; Oak"})])

    def test_json_text_for_a_list_is_refused_not_decoded(self):
        r = Recording()

        def tag(ids: list[int]):
            pass

        with self.assertRaises(pydantic.ValidationError) as caught:
            agent_call(r.tool(tag), '{"ids": "[1, 2, 3]"}')
        self.assertEqual([e["type"] for e in caught.exception.errors()], ["list_type"])
        self.assertEqual(r.calls, [])

    def test_undeclared_names_are_ignored_and_the_tool_runs(self):
        r = Recording()

        def update_step(existing_step_id: str, reason: str):
            pass

        tool = r.tool(update_step)
        agent_call(tool, '{"existing_step_id": "s1", "reason": "r", "step_id": "x"}')
        self.assertEqual(r.calls, [((), {"existing_step_id": "s1", "reason": "r"})])
        # PLAT-162's own call: the missing names are reported, the unknown one is not.
        with self.assertRaises(pydantic.ValidationError) as caught:
            agent_call(tool, '{"step_id": "x"}')
        self.assertEqual(
            [(e["type"], e["loc"]) for e in caught.exception.errors()],
            [("missing", ("existing_step_id",)), ("missing", ("reason",))],
        )

    def test_lax_mode_changes_values(self):
        r = Recording()

        def job(count: int, ratio: float, flag: bool):
            pass

        tool = r.tool(job)
        agent_call(tool, '{"count": " 7 ", "ratio": "1.5e3", "flag": "false"}')
        agent_call(tool, '{"count": true, "ratio": false, "flag": 1}')
        self.assertEqual(
            r.calls,
            [((), {"count": 7, "ratio": 1500.0, "flag": False}), ((), {"count": 1, "ratio": 0.0, "flag": True})],
        )

    def test_a_literal_matches_by_python_equality(self):
        r = Recording()

        def pick(mixed: Literal["a", True, 0]):
            pass

        tool = r.tool(pick)
        agent_call(tool, '{"mixed": 1}')
        agent_call(tool, '{"mixed": false}')
        self.assertEqual(r.calls, [((), {"mixed": True}), ((), {"mixed": 0})])

    def test_a_string_root_is_the_first_parameter(self):
        r = Recording()

        def ping_host(host: str, count: int = 1):
            pass

        tool = r.tool(ping_host)
        tool.invoke("example.org")
        self.assertEqual(r.calls, [(("example.org",), {})])

    def test_an_alias_is_dropped_by_from_function(self):
        r = Recording()

        def move(p_from: Annotated[str, pydantic.Field(alias="from")]):
            pass

        tool = r.tool(move)
        self.assertEqual(list(tool.args), ["p_from"])  # published under the Python name
        with self.assertRaises(pydantic.ValidationError):
            agent_call(tool, '{"from": "a"}')
        self.assertEqual(r.calls, [])

    def test_a_validation_error_lists_no_expected_fields(self):
        r = Recording()

        def book(room: str, date: str):
            pass

        with self.assertRaises(pydantic.ValidationError) as caught:
            agent_call(r.tool(book), "{}")
        for error in caught.exception.errors():
            self.assertEqual(set(error) - {"type", "loc", "msg", "input", "url", "ctx"}, set())


class Protocol(unittest.TestCase):
    """The adapter end to end over stdio, one request a line."""

    def test_a_session(self):
        schema = {
            "type": "object",
            "properties": {"existing_step_id": {"type": "string"}, "reason": {"type": "string"}},
            "required": ["existing_step_id", "reason"],
        }
        requests = [
            {"cmd": "start", "protocol": 1},
            {"cmd": "register", "tools": [{"name": "update_step", "input_schema": schema}]},
            {"cmd": "invoke", "tool": "update_step", "transport": "structured", "arguments": {"step_id": "x"}},
            {"cmd": "invoke", "tool": "update_step", "transport": "direct",
             "arguments": {"existing_step_id": "s1", "reason": "r &amp; s", "extra": 1}},
            {"cmd": "normalize", "input_schema": {"properties": {"n": {"type": "integer"}}}, "arguments": {"n": "10"}},
            {"cmd": "stop"},
        ]
        answers = exchange(os.path.join(HERE, "adapter.py"), requests)  # one answer a request, in order
        self.assertEqual(answers[0]["transports"], ["direct", "structured"])
        self.assertEqual(answers[2]["outcome"], "rejected")
        self.assertEqual(
            [(p["kind"], p["field"]) for p in answers[2]["error"]["problems"]],
            [("missing_required", "existing_step_id"), ("missing_required", "reason")],
        )
        self.assertEqual(answers[3]["received"], {"existing_step_id": "s1", "reason": "r &amp; s"})
        self.assertEqual(answers[4], {"seq": 4, "arguments": {"n": 10}})


if __name__ == "__main__":
    unittest.main()
