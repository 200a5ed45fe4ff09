"""What the MCP Python SDK does to tool arguments, checked against the installed SDK itself.

These tests pin the behaviours the adapter's standing rests on, so a new SDK release that changes
one of them fails here with a name, before the suite's numbers move. They call the SDK's own
`func_metadata` / `pre_parse_json` and `MCPServer.call_tool`, and the adapter's protocol loop.

    .venv/bin/python -m unittest test_findings -v     # from this folder
"""

import asyncio
import json
import os
import subprocess
import sys
import unittest
import warnings
from typing import Annotated, Any, Optional

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.func_metadata import func_metadata
from pydantic import StringConstraints

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the Python adapter kit

from tool_conformance_adapter.reproduction import printed  # noqa: E402


def pre_parse(**arguments):
    """What `pre_parse_json` makes of the arguments for a function with every kind of parameter."""

    def tool(
        text: str,
        short: Annotated[str, StringConstraints(min_length=1)],
        maybe_text: Optional[str],
        ids: list[int],
        maybe_ids: Optional[list[int]],
        filter: dict[str, Any],
        count: int,
        flag: bool,
        anything: Any,
    ):
        pass

    return func_metadata(tool).pre_parse_json(arguments)


def run(schema_function, arguments):
    """Calls a one-tool MCPServer the way the adapter's direct transport does."""
    received = []

    async def call():
        server = MCPServer("findings", log_level="ERROR")

        def recording(**kwargs):
            received.append(kwargs)
            return "ok"

        recording.__signature__ = __import__("inspect").signature(schema_function)
        server.add_tool(recording, name="t", structured_output=False)
        await server.call_tool("t", arguments)

    asyncio.run(call())
    return received[-1]


class PreParse(unittest.TestCase):
    def test_a_parameter_annotated_str_is_never_decoded(self):
        self.assertEqual(pre_parse(text='["a"]')["text"], '["a"]')
        self.assertEqual(pre_parse(text="null")["text"], "null")

    def test_a_constrained_str_still_counts_as_str(self):
        self.assertEqual(pre_parse(short='{"a": 1}')["short"], '{"a": 1}')

    def test_optional_str_is_decoded(self):
        self.assertEqual(pre_parse(maybe_text='["a"]')["maybe_text"], ["a"])
        self.assertEqual(pre_parse(maybe_text='{"a": 1}')["maybe_text"], {"a": 1})
        self.assertIsNone(pre_parse(maybe_text="null")["maybe_text"])

    def test_the_decoded_shape_is_not_checked(self):
        self.assertEqual(pre_parse(ids='{"a": 1}')["ids"], {"a": 1})  # an object for a list
        self.assertEqual(pre_parse(filter="[1, 2]")["filter"], [1, 2])  # a list for an object
        self.assertIsNone(pre_parse(ids="null")["ids"])  # null for a list
        self.assertEqual(pre_parse(count="[1]")["count"], [1])  # a list for an integer

    def test_strings_numbers_and_booleans_are_left_as_text(self):
        # json.loads gives str, int or float (bool is an int): the text is kept for validation.
        self.assertEqual(pre_parse(count="10")["count"], "10")
        self.assertEqual(pre_parse(flag="true")["flag"], "true")
        self.assertEqual(pre_parse(anything='"x"')["anything"], '"x"')

    def test_text_that_is_not_json_is_left_alone(self):
        self.assertEqual(pre_parse(ids="[1, 2")["ids"], "[1, 2")

    def test_python_json_extensions_are_decoded(self):
        # json.loads takes NaN and Infinity, and reads 1e400 as infinity.
        self.assertNotEqual(pre_parse(ids="[NaN]")["ids"][0], pre_parse(ids="[NaN]")["ids"][0])
        self.assertEqual(pre_parse(ids="[1e400]")["ids"], [float("inf")])

    def test_only_root_parameters_are_looked_at(self):
        self.assertEqual(pre_parse(filter={"inner": "[1]"})["filter"], {"inner": "[1]"})


class ToolRun(unittest.TestCase):
    def test_unknown_names_are_dropped(self):
        def tool(title: str):
            pass

        self.assertEqual(run(tool, {"title": "t", "extra": 1}), {"title": "t"})

    def test_character_references_are_not_decoded(self):
        def tool(title: str):
            pass

        self.assertEqual(run(tool, {"title": "Ember &amp;amp; Oak"}), {"title": "Ember &amp;amp; Oak"})

    def test_untyped_parameters_take_any_decoded_value(self):
        def tool(anything: Any):
            pass

        self.assertEqual(run(tool, {"anything": '{"a": 1}'}), {"anything": {"a": 1}})

    def test_validation_is_lax(self):
        def tool(count: int, flag: bool, ratio: float):
            pass

        self.assertEqual(
            run(tool, {"count": "10", "flag": "false", "ratio": "1.5e3"}), {"count": 10, "flag": False, "ratio": 1500.0}
        )

    def test_optional_str_json_text_is_rejected(self):
        def tool(note: Optional[str] = None):
            pass

        with self.assertRaises(ToolError) as raised:
            run(tool, {"note": "[1, 2]"})
        self.assertIn("string_type", str(raised.exception))

    def test_python_defaults_reach_the_tool(self):
        def tool(mode: str = "fast"):
            pass

        self.assertEqual(run(tool, {}), {"mode": "fast"})


class SchemaToSignature(unittest.TestCase):
    """The adapter's mapping (signature.py): what a schema becomes, as the SDK then publishes it."""

    def published(self, schema):
        from tool_conformance_adapter import signature

        def tool(**kwargs):
            pass

        tool.__signature__ = signature.map_schema(schema).signature()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NOT_SENT, a default JSON cannot carry, is left out
            return func_metadata(tool).arg_model.model_json_schema(by_alias=True)

    def test_names_that_cannot_be_parameters_keep_their_name_as_an_alias(self):
        names = ["a.b", "from", "__proto__", "due date", "montant_\u20ac", "\u043a\u043b\u044e\u0447", "json"]
        published = self.published(
            {"type": "object", "properties": {n: {"type": "string"} for n in names}, "required": names}
        )
        self.assertEqual(list(published["properties"]), names)
        self.assertEqual(published["required"], names)

    def test_optional_parameters_are_optional_and_defaults_are_python_defaults(self):
        published = self.published(
            {
                "properties": {
                    "title": {"type": "string"},
                    "note": {"type": ["string", "null"]},
                    "mode": {"type": "string", "default": "fast"},
                }
            }
        )
        # Optional, but not nullable: the signature admits what the schema does, no null.
        self.assertEqual(published["properties"]["title"]["type"], "string")
        self.assertNotIn("required", published)
        self.assertNotIn("default", published["properties"]["title"])  # NOT_SENT is not JSON
        self.assertEqual(published["properties"]["note"]["anyOf"], [{"type": "string"}, {"type": "null"}])
        self.assertEqual(published["properties"]["mode"]["default"], "fast")

    def test_refs_unions_enums_and_constraints(self):
        published = self.published(
            {
                "$defs": {
                    "ids": {"type": "array", "items": {"type": "integer"}},
                    "a": {"$ref": "#/$defs/b"},
                    "b": {"$ref": "#/$defs/ids"},
                },
                "properties": {
                    "ids": {"$ref": "#/$defs/ids"},
                    "chained": {"$ref": "#/$defs/a"},
                    "either": {"type": ["integer", "string"]},
                    "level": {"enum": ["low", "high"]},
                    "code": {"type": "string", "minLength": 2},
                },
                "required": ["ids", "chained", "either", "level", "code"],
            }
        )
        properties = published["properties"]
        self.assertEqual(properties["ids"]["items"], {"type": "integer"})
        self.assertEqual(properties["chained"]["items"], {"type": "integer"})  # a $ref chain followed
        self.assertEqual(properties["either"]["anyOf"], [{"type": "integer"}, {"type": "string"}])
        self.assertEqual(properties["level"]["enum"], ["low", "high"])
        self.assertEqual(properties["code"]["minLength"], 2)

    def test_what_a_signature_cannot_say_is_refused(self):
        from tool_conformance_adapter import signature

        for schema in [
            {"type": "object", "additionalProperties": True},
            {"type": "object", "additionalProperties": {"type": "integer"}},
            {"patternProperties": {"^x-": {"type": "string"}}},
            {"anyOf": [{"required": ["a"]}, {"required": ["b"]}], "properties": {"a": {}, "b": {}}},
            {"properties": {"window": {"type": "object", "patternProperties": {"^x": {}}}}},
            {"properties": {"window": {"type": "object", "additionalProperties": {"type": "string"}}}},
            {
                "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
                "properties": {"x": {"$ref": "#/$defs/node"}},
            },
            {"properties": {"x": {"allOf": [{"type": "array"}, {"minItems": 1}]}}},
            {"properties": {"x": {"oneOf": [{"type": "string"}, {"type": "string", "minLength": 2}]}}},
            {"properties": {"x": {"enum": [1.5, 2.5]}}},
            {"properties": {"x": {"type": "array", "uniqueItems": True}}},
            {"type": "array"},
        ]:
            with self.subTest(schema=schema), self.assertRaises(signature.Unmappable):
                signature.map_schema(schema)

    def test_what_an_annotation_says_exactly(self):
        from tool_conformance_adapter import signature

        schema = {
            "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
            "properties": {
                "window": {"type": "object", "properties": {"from": {"type": "string"}}, "required": ["from"]},
                "items_only": {"items": {"type": "integer"}},
                "looped": {"$ref": "#/$defs/a"},
            },
            "required": ["window", "items_only", "looped"],
        }

        def tool(**kwargs):
            return kwargs

        tool.__signature__ = signature.map_schema(schema).signature()
        model = func_metadata(tool).arg_model
        good = {"window": {"from": "a", "extra": 1}, "items_only": "x", "looped": [1]}
        valid = model.model_validate(good).model_dump_one_level()
        self.assertEqual(valid["window"], {"from": "a", "extra": 1})  # other names kept
        self.assertEqual(valid["items_only"], "x")  # not an array: no items to check
        self.assertEqual(model.model_validate({**good, "items_only": [1, 2]}).items_only, [1, 2])
        for bad in ({"window": {}}, {"items_only": ["a"]}):
            with self.subTest(bad=bad), self.assertRaises(Exception):
                model.model_validate({**good, **bad})

    def test_a_closed_root_and_annotations_are_no_obstacle(self):
        from tool_conformance_adapter import signature

        mapping = signature.map_schema(
            {
                "type": "object",
                "title": "t",
                "x-owner": "me",
                "additionalProperties": False,
                "properties": {"a": {"type": "string", "format": "email", "description": "d"}},
            }
        )
        self.assertEqual([p.name for p in mapping.parameters], ["a"])


class Received(unittest.TestCase):
    """received.py and Mapping.user_signature, shared with the other signature-based adapters."""

    def test_a_snapshot_is_json_or_says_what_it_is_not(self):
        from decimal import Decimal

        from tool_conformance_adapter import received

        self.assertEqual(received.snapshot({"a": (1, 2.5, None, True)}), {"a": [1, 2.5, None, True]})
        for value, says in [
            ("x\ud800", "half a surrogate pair"),
            ({"\ud800": 1}, "half a surrogate pair"),
            (float("nan"), "the float nan"),
            ({1: 2}, "the key 1"),
            ({1, 2}, "a set: {1, 2}"),
        ]:
            with self.assertRaises(received.NotJson) as raised:
                received.snapshot(value)
            self.assertIn(says, str(raised.exception))
        # `other` makes another type plain, in any depth; what it has no plain form of is refused.
        other = lambda v: sorted(v) if isinstance(v, set) else None  # noqa: E731
        self.assertEqual(received.snapshot([{"s": {2, 1}}], other), [{"s": [1, 2]}])
        with self.assertRaises(received.NotJson):
            received.snapshot([object()], other)
        self.assertEqual(received.to_framework({"n": Decimal("1.50"), "i": Decimal("7")}), {"n": 1.5, "i": 7})

    def test_the_user_signature_is_keyword_only_after_a_required_parameter_follows_an_optional_one(self):
        schema = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "string"}},
                  "required": ["a", "c"]}
        import inspect

        from tool_conformance_adapter import signature

        kinds = [p.kind for p in signature.map_schema(schema).user_signature().parameters.values()]
        P = inspect.Parameter
        self.assertEqual(kinds, [P.POSITIONAL_OR_KEYWORD, P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY])


class Protocol(unittest.TestCase):
    """The adapter end to end over stdio, one request a line."""

    def exchange(self, *requests):
        lines = "".join(json.dumps(dict(r, seq=i)) + "\n" for i, r in enumerate(requests))
        done = subprocess.run(
            [sys.executable, os.path.join(HERE, "adapter.py")], input=lines, capture_output=True, text=True, timeout=60
        )
        return [json.loads(line) for line in done.stdout.splitlines()]

    def test_a_name_no_parameter_can_have_fails_every_call(self):
        """A property `a.b` is a parameter with `Field(alias="a.b")`, as pydantic lets a user name
        one; the SDK validates the call under the alias and then calls the function with the alias
        as the keyword (`model_dump_one_level`), which no Python function takes: every call of the
        tool errors, the ones that leave `a.b` out too."""
        schema = {"type": "object", "properties": {"title": {"type": "string"}, "a.b": {"type": "integer"}}}
        answers = self.exchange(
            {"cmd": "start", "protocol": 1},
            {"cmd": "register", "tools": [{"name": "t", "input_schema": schema}]},
            {"cmd": "invoke", "tool": "t", "transport": "direct", "arguments": {"title": "x", "a.b": 1}},
            {"cmd": "invoke", "tool": "t", "transport": "structured", "arguments": {"title": "x"}},
            {"cmd": "stop"},
        )
        for answer in answers[2:4]:
            self.assertEqual(answer["outcome"], "rejected")
            self.assertEqual(answer["handler_calls"], 0)
            self.assertIn("Error executing tool t", answer["error"]["message"])

    def test_a_session(self):
        schema = {
            "type": "object",
            "properties": {"title": {"type": "string"}, "tags": {"type": "array"}, "n": {"type": "integer"}},
            "required": ["title"],
        }
        answers = self.exchange(
            {"cmd": "start", "protocol": 1},
            {"cmd": "register", "tools": [{"name": "t", "input_schema": schema}]},
            {
                "cmd": "invoke",
                "tool": "t",
                "transport": "direct",
                "arguments": {"title": "&lt;", "tags": "[1]", "x": 1},
            },
            {"cmd": "invoke", "tool": "t", "transport": "structured", "arguments": {"n": 12345678901234567890123}},
            {"cmd": "invoke", "tool": "t", "transport": "http", "arguments": {"title": "t", "n": "7"}},
            {"cmd": "describe", "tool": "t", "view": "get_api_spec"},
            {
                "cmd": "normalize",
                "input_schema": {"properties": {"n": {"type": ["string", "null"]}}},
                "arguments": {"n": "[1]"},
            },
            {"cmd": "stop"},
        )
        self.assertEqual([a["seq"] for a in answers], list(range(8)))
        self.assertEqual(answers[0]["implementation"]["name"], "mcp")
        self.assertEqual(
            answers[2],
            {"seq": 2, "outcome": "executed", "handler_calls": 1, "received": {"title": "&lt;", "tags": [1], "n": None}},
        )
        # `tags: list | None = None`, as users write an optional parameter: the SDK passes every
        # parameter, so the function receives None for the names the call left out.
        self.assertEqual(
            answers[4],
            {"seq": 4, "outcome": "executed", "handler_calls": 1, "received": {"title": "t", "tags": None, "n": 7}},
        )
        self.assertEqual(answers[3]["outcome"], "rejected")
        self.assertEqual(answers[3]["error"]["problems"][0]["kind"], "missing_required")
        self.assertEqual(answers[3]["error"]["problems"][0]["field"], "title")
        self.assertEqual(answers[5]["input_schema"]["properties"]["n"]["anyOf"], [{"type": "integer"}, {"type": "null"}])
        # Optional[str]: the pre-parse decodes the text and validation refuses the list in the same
        # step, so no tool ran: normalize answers rejected with the SDK's error (never the
        # pre-parse's output), its problems read from the pydantic ValidationError.
        self.assertEqual(set(answers[6]), {"seq", "rejected"})
        self.assertIn("validation error", answers[6]["rejected"]["message"])
        self.assertEqual(
            [(p["kind"], p.get("field")) for p in answers[6]["rejected"]["problems"]], [("wrong_type", "n")]
        )
        self.assertEqual(answers[7], {"seq": 7, "ok": True})


class Reproduction(unittest.TestCase):
    """repro.py, filled as `tool-conformance readme` fills it (the tool's name, and the schema and
    arguments as exact JSON text in printable ASCII), runs alone and shows what the adapter
    measures."""

    def test_the_filled_template_runs(self):
        out = printed(os.path.join(HERE, "repro.py"))  # the kit's string arguments: exit 0, no stderr
        self.assertIn('the tool received: {"ids":[1],"n":7}', out)


if __name__ == "__main__":
    unittest.main()
