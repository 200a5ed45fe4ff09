"""What pydantic-ai does to a function tool's arguments, checked against the installed pydantic-ai
itself, with tools written by this adapter's own tools.py (the function the adapter registers and
its reproduction builds), so that a release that changes one of the behaviours its standing rests
on (reports/pydantic-ai/expected-failures.yaml) fails here with a name.

    .venv/bin/python -m unittest test_findings -v     # from this folder
"""

import json
import os
import sys
import unittest
import warnings

import pydantic

import tools

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the Python adapter kit
from tool_conformance_adapter.exchange import exchange  # noqa: E402
warnings.filterwarnings("ignore", category=pydantic.json_schema.PydanticJsonSchemaWarning)


def call(schema, arguments):
    """One agent turn whose model calls a tool with this schema: (what the function received per
    run, the return part pydantic-ai sent the model)."""
    received = []
    tool, _ = tools.make_tool("t", None, schema, lambda value: received.append(value) or "ok")
    seen = tools.run_turn([tool], "t", json.dumps(arguments))
    return received, seen["returned"]


MAIL = {"type": "object", "properties": {"to": {"type": "string"}, "subject": {"type": "string", "minLength": 3}}, "required": ["to"]}


class Findings(unittest.TestCase):
    def test_a_closed_signature_refuses_an_unknown_name_before_the_tool_runs(self):
        received, returned = call(MAIL, {"to": "a", "cc": "x"})
        self.assertEqual(received, [])
        self.assertEqual(returned.outcome, "retried")
        self.assertEqual([e["type"] for e in returned.content], ["extra_forbidden"])

    def test_character_references_reach_the_tool_undecoded(self):
        received, _ = call(MAIL, {"to": "Ember &amp;amp; Oak"})
        # `subject: str | None = None`, as users write an optional parameter: the tool gets None for it.
        self.assertEqual(received, [{"to": "Ember &amp;amp; Oak", "subject": None}])

    def test_json_text_for_an_array_is_refused_as_the_wrong_type(self):
        schema = {"type": "object", "properties": {"ids": {"type": "array", "items": {"type": "integer"}}}}
        received, returned = call(schema, {"ids": "[1, 2]"})
        self.assertEqual(received, [])
        self.assertEqual([e["type"] for e in returned.content], ["list_type"])

    def test_lax_mode_coerces_a_numeric_string(self):
        schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
        self.assertEqual(call(schema, {"n": "10"})[0], [{"n": 10}])

    def test_an_open_root_is_kwargs_validated_by_its_annotation(self):
        schema = dict(MAIL, additionalProperties={"type": "integer"})
        self.assertEqual(call(schema, {"to": "a", "hits": 3})[0], [{"to": "a", "subject": None, "hits": 3}])
        received, returned = call(schema, {"to": "a", "hits": [1]})
        self.assertEqual(received, [])
        self.assertEqual(returned.content[0]["loc"], ["hits"])

    def test_a_name_that_is_no_identifier_is_an_alias_pydantic_ai_honours(self):
        schema = {"type": "object", "properties": {"a.b": {"type": "integer"}, "from": {"type": "string"}}, "required": ["from"]}
        self.assertEqual(call(schema, {"a.b": 2, "from": "x"})[0], [{"a.b": 2, "from": "x"}])

    def test_a_root_anyof_is_the_nearest_signature_and_is_not_enforced(self):
        schema = {"type": "object", "properties": {"a": {"type": "string"}}, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}
        self.assertEqual(call(schema, {})[0], [{"a": None, "b": None}])
        self.assertEqual(call(schema, {"b": 1})[0], [{"a": None, "b": 1}])

    def test_an_optional_parameter_written_as_users_write_it_takes_null(self):
        received, _ = call(MAIL, {"to": "a", "subject": None})
        self.assertEqual(received, [{"to": "a", "subject": None}])

    def test_the_adapter_answers_over_stdio(self):
        requests = [
            {"cmd": "start", "protocol": 1},
            {"cmd": "register", "tools": [{"name": "send_mail", "input_schema": MAIL}]},
            {"cmd": "invoke", "tool": "send_mail", "transport": "structured", "arguments": {"subject": "x"}},
            {"cmd": "stop"},
        ]
        answers = exchange(os.path.join(HERE, "adapter.py"), requests, timeout=60)  # one answer a request, in order
        self.assertEqual(answers[2]["outcome"], "rejected", answers[2])
        kinds = {(p["kind"], p.get("field")) for p in answers[2]["error"]["problems"]}
        self.assertEqual(kinds, {("missing_required", "to"), ("too_short", "subject")})


if __name__ == "__main__":
    unittest.main()
