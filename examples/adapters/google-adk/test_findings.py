"""The behaviours of Google ADK's FunctionTool that reports/google-adk/expected-failures.yaml rests
on, each checked against the installed ADK with a tool as this adapter's tools.py writes it (the
function the adapter registers, and its reproduction builds): a release that changes one fails
here, by name. From this folder: `.venv/bin/python -m unittest test_findings -v`.
"""

import json
import logging
import os
import sys
import unittest
import warnings

import tools

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the Python adapter kit
from tool_conformance_adapter.exchange import exchange  # noqa: E402
logging.disable(logging.WARNING)
warnings.filterwarnings("ignore")


def call(schema, arguments):
    """One agent turn whose model calls a tool with this schema: (what the function received per
    run, the function response ADK sent the model)."""
    received = []
    tool, _ = tools.make_tool("t", schema, lambda value: received.append(value) or "ok")
    return received, tools.run_turn([tool], "t", json.dumps(arguments))["response"]


MAIL = {"type": "object", "properties": {"to": {"type": "string"}, "n": {"type": "integer"}}, "required": ["to"]}


class Findings(unittest.TestCase):
    def test_a_missing_mandatory_parameter_is_refused_before_the_function_runs(self):
        received, response = call(MAIL, {"n": 1})
        self.assertEqual(received, [])
        self.assertIn("mandatory input parameters are not present:\nto\n", response["error"])

    def test_an_unknown_name_is_dropped_and_the_function_runs(self):
        # n is optional, `n: int | None = None`: the function gets None for it.
        self.assertEqual(call(MAIL, {"to": "a", "cc": "x"})[0], [{"to": "a", "n": None}])

    def test_types_are_not_validated_as_it_ships(self):
        self.assertEqual(call(MAIL, {"to": "a", "n": "5"})[0], [{"to": "a", "n": "5"}])

    def test_character_references_and_json_text_reach_the_function_as_sent(self):
        schema = {"type": "object", "properties": {"t": {"type": "string"}, "ids": {"type": "array"}}}
        self.assertEqual(call(schema, {"t": "a &amp; b", "ids": "[1]"})[0], [{"t": "a &amp; b", "ids": "[1]"}])

    def test_a_name_that_is_no_identifier_never_reaches_the_function(self):
        schema = {"type": "object", "properties": {"from": {"type": "string"}}, "required": ["from"]}
        received, response = call(schema, {"from": "x"})
        self.assertEqual(received, [])
        self.assertIn("not present:\np_from\n", response["error"])

    def test_the_adapter_answers_over_stdio(self):
        requests = [
            {"cmd": "start", "protocol": 1},
            {"cmd": "register", "tools": [{"name": "send_mail", "input_schema": MAIL}]},
            {"cmd": "invoke", "tool": "send_mail", "transport": "structured", "arguments": {"n": 2}},
            {"cmd": "stop"},
        ]
        answers = exchange(os.path.join(HERE, "adapter.py"), requests, timeout=120)  # one answer a request, in order
        self.assertEqual(answers[2]["outcome"], "rejected", answers[2])
        self.assertEqual(answers[2]["error"]["problems"], [{"kind": "missing_required", "field": "to"}])


if __name__ == "__main__":
    unittest.main()
