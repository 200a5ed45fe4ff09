"""What langchain-core does with a StructuredTool whose args_schema is a JSON Schema dict, checked
against the installed langchain-core itself.

These tests pin the behaviours the adapter's standing rests on (reports/langchain-core-dict/
expected-failures.yaml), so that a release that changes one of them fails here with a name before
the suite's numbers move. The last test runs the adapter end to end over stdio.

    .venv/bin/python -m unittest test_findings -v     # from this folder
"""

import json
import os
import subprocess
import sys
import unittest

from langchain_core.output_parsers.openai_tools import parse_tool_call
from langchain_core.tools import StructuredTool
from langchain_core.utils.function_calling import convert_to_openai_tool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the Python adapter kit
from tool_conformance_adapter.exchange import exchange  # noqa: E402
SCHEMA = {
    "type": "object",
    "properties": {"existing_step_id": {"type": "string", "minLength": 1}, "reason": {"type": "string"}},
    "required": ["existing_step_id", "reason"],
    "additionalProperties": False,
}


def agent_call(tool, arguments_text):
    call = parse_tool_call(
        {"id": "c1", "type": "function", "function": {"name": tool.name, "arguments": arguments_text}}, return_id=True
    )
    return tool.invoke(call)


class Findings(unittest.TestCase):
    def setUp(self):
        self.calls = []

        def update_step(**kwargs):
            self.calls.append(kwargs)
            return "ok"

        self.tool = StructuredTool(name="update_step", description="d", args_schema=SCHEMA, func=update_step)

    def test_the_dict_is_published_as_it_is(self):
        self.assertEqual(convert_to_openai_tool(self.tool)["function"]["parameters"], SCHEMA)

    def test_nothing_is_validated(self):
        agent_call(self.tool, '{"step_id": "x"}')  # PLAT-162's own call
        self.tool.invoke({"existing_step_id": "", "reason": 7, "extra": [1]})
        self.assertEqual(self.calls, [{"step_id": "x"}, {"existing_step_id": "", "reason": 7, "extra": [1]}])

    def test_nothing_is_decoded(self):
        agent_call(self.tool, '{"existing_step_id": "[1]", "reason": "Ember &amp;amp; Oak"}')
        self.assertEqual(self.calls, [{"existing_step_id": "[1]", "reason": "Ember &amp;amp; Oak"}])

    def test_a_root_that_is_not_an_object_fails_without_a_problem(self):
        with self.assertRaisesRegex(ValueError, "String tool inputs are not allowed"):
            self.tool.invoke("x")
        with self.assertRaisesRegex(TypeError, "Invalid tool input type"):
            self.tool.invoke([1])
        self.assertEqual(self.calls, [])

    def test_the_schema_true_is_refused(self):
        with self.assertRaisesRegex(TypeError, "args_schema must be a subclass of pydantic BaseModel or a JSON schema dict"):
            StructuredTool(name="t", description="d", args_schema=True, func=lambda **kwargs: "ok")


class Protocol(unittest.TestCase):
    def test_a_session(self):
        requests = [
            {"cmd": "start", "protocol": 1},
            {"cmd": "register", "tools": [{"name": "update_step", "input_schema": SCHEMA}]},
            {"cmd": "invoke", "tool": "update_step", "transport": "structured", "arguments": {"step_id": "x"}},
            {"cmd": "invoke", "tool": "update_step", "transport": "direct", "arguments": "x"},
            {"cmd": "describe", "tool": "update_step", "view": "get_api_spec"},
            {"cmd": "stop"},
        ]
        answers = exchange(os.path.join(HERE, "adapter.py"), requests)  # one answer a request, in order
        self.assertEqual(answers[2], {"seq": 2, "outcome": "executed", "handler_calls": 1, "received": {"step_id": "x"}})
        self.assertEqual(answers[3]["outcome"], "rejected")
        self.assertEqual(answers[3]["error"]["problems"], [])
        self.assertEqual(answers[4]["input_schema"], SCHEMA)


if __name__ == "__main__":
    unittest.main()
