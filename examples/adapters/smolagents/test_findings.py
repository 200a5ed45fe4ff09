"""The behaviours of smolagents' @tool and ToolCallingAgent that reports/smolagents/expected-failures.yaml
rests on, each checked against the installed smolagents with a tool as this adapter's tools.py writes
it (the function the adapter registers, and its reproduction builds): a release that changes one
fails here, by name. From this folder: `.venv/bin/python -m unittest test_findings -v`.
"""

import json
import os
import sys
import unittest

import tools

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the Python adapter kit
from tool_conformance_adapter.exchange import exchange  # noqa: E402


def call(schema, arguments_text):
    """One agent turn whose model calls a tool with this schema: (what the function received per
    run, the error the agent recorded for the call, as text or None)."""
    received = []
    tool, _ = tools.make_tool("t", schema, lambda value: received.append(value) or "ok")
    error = tools.run_turn([tool], "t", arguments_text)["error"]
    return received, None if error is None else f"{type(error).__name__}: {error}"


MAIL = {"type": "object", "properties": {"to": {"type": "string", "minLength": 3}, "n": {"type": "integer"}}, "required": ["to"]}


class Findings(unittest.TestCase):
    def test_a_missing_input_is_refused_before_the_function_runs(self):
        self.assertEqual(call(MAIL, '{"n": 1}'), ([], "AgentToolCallError: Argument to is required"))

    def test_an_unknown_name_is_refused(self):
        self.assertEqual(call(MAIL, '{"to": "abc", "cc": 1}'), ([], "AgentToolCallError: Argument cc is not in the tool's input schema"))

    def test_the_json_type_is_checked_and_nothing_is_coerced(self):
        self.assertEqual(call(MAIL, '{"to": "abc", "n": "5"}')[1], "AgentToolCallError: Argument n has type 'string' but should be 'integer'")

    def test_a_length_is_not_checked_and_optional_names_arrive_as_none(self):
        self.assertEqual(call(MAIL, '{"to": "a"}'), ([{"to": "a", "n": None}], None))

    def test_null_passes_for_an_optional_input(self):
        self.assertEqual(call(MAIL, '{"to": "abc", "n": null}'), ([{"to": "abc", "n": None}], None))

    def test_character_references_reach_the_function_as_sent(self):
        self.assertEqual(call(MAIL, '{"to": "a &amp; b"}')[0], [{"to": "a &amp; b", "n": None}])

    def test_array_text_is_the_wrong_type(self):
        schema = {"type": "object", "properties": {"ids": {"type": "array"}}}
        self.assertEqual(call(schema, json.dumps({"ids": "[1]"}))[1], "AgentToolCallError: Argument ids has type 'string' but should be 'array'")

    def test_an_empty_array_for_the_arguments_becomes_an_empty_object(self):
        schema = {"type": "object", "properties": {"limit": {"type": "integer"}}}
        self.assertEqual(call(schema, "[]"), ([{"limit": None}], None))

    def test_kwargs_is_one_required_input(self):
        schema = dict(MAIL, additionalProperties=True)
        self.assertEqual(call(schema, '{"to": "abc"}')[1], "AgentToolCallError: Argument kwargs is required")

    def test_the_published_schema_drops_constraints_and_marks_optional_inputs_nullable(self):
        tool, _ = tools.make_tool("t", MAIL, lambda value: "ok")
        published = tools.run_turn([tool], None, "{}")["tools"][0]["function"]["parameters"]
        self.assertEqual(published["properties"]["to"], {"type": "string", "description": "the to argument."})
        self.assertTrue(published["properties"]["n"]["nullable"])

    def test_the_adapter_answers_over_stdio(self):
        requests = [
            {"cmd": "start", "protocol": 1},
            {"cmd": "register", "tools": [{"name": "send_mail", "input_schema": MAIL}]},
            {"cmd": "invoke", "tool": "send_mail", "transport": "structured", "arguments": {"n": 2}},
            {"cmd": "stop"},
        ]
        answers = exchange(os.path.join(HERE, "adapter.py"), requests, timeout=60)  # one answer a request, in order
        self.assertEqual(answers[2]["outcome"], "rejected", answers[2])
        self.assertEqual(answers[2]["error"]["problems"], [{"kind": "missing_required", "field": "to"}])


if __name__ == "__main__":
    unittest.main()
