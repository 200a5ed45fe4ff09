"""signature: a schema written as a framework's users write a function, in the forms tried in order
(the exact signature, **kwargs for an open root, the nearest signature for root alternatives), and
the recording function that reports what it received under the schema's names. Needs pydantic:
`pip install "./adapters/python[signature]"`."""

import inspect
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tool_conformance_adapter import signature  # noqa: E402
from tool_conformance_adapter.received import NotJson, snapshot  # noqa: E402


def parameters(mapping):
    return {name: (p.kind.name, p.default is inspect.Parameter.empty) for name, p in mapping.user_signature().parameters.items()}


class AsUsersWriteIt(unittest.TestCase):
    def test_an_exact_signature_where_there_is_one(self):
        schema = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]}
        mapping = signature.as_users_write_it(schema)
        self.assertEqual(parameters(mapping), {"a": ("POSITIONAL_OR_KEYWORD", True), "b": ("POSITIONAL_OR_KEYWORD", False)})
        self.assertEqual(parameters(mapping), parameters(signature.map_schema(schema)))

    def test_an_open_root_gets_kwargs_where_the_exact_form_refuses(self):
        schema = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}}
        with self.assertRaises(signature.Unmappable):
            signature.map_schema(schema)
        mapping = signature.as_users_write_it(schema)
        self.assertEqual(parameters(mapping)["kwargs"], ("VAR_KEYWORD", True))
        self.assertIs(mapping.var_keyword, int)

    def test_root_alternatives_become_the_nearest_signature(self):
        schema = {
            "type": "object",
            "properties": {"a": {"type": "array"}, "note": {"type": "string"}},
            "anyOf": [{"required": ["a", "note"]}, {"properties": {"b": {"type": "array"}}, "required": ["b", "note"]}],
        }
        mapping = signature.as_users_write_it(schema)
        self.assertEqual(parameters(mapping), {
            "a": ("POSITIONAL_OR_KEYWORD", False),
            "note": ("KEYWORD_ONLY", True),
            "b": ("KEYWORD_ONLY", False),
        })
        self.assertEqual(mapping.left_out, ["anyOf"])

    def test_odd_names_through_kwargs_or_an_alias(self):
        schema = {"type": "object", "properties": {"from": {"type": "string"}}}
        self.assertEqual(parameters(signature.as_users_write_it(schema, odd_names="kwargs")), {"kwargs": ("VAR_KEYWORD", True)})
        aliased = signature.as_users_write_it(schema)
        self.assertEqual([(p.name, p.python_name) for p in aliased.parameters], [("from", "p_from")])

    def test_a_root_that_is_no_object_is_still_unmappable(self):
        with self.assertRaises(signature.Unmappable):
            signature.as_users_write_it({"type": "array"})


class RecordingFunction(unittest.TestCase):
    def test_what_it_received_under_the_schemas_names(self):
        schema = {"type": "object", "properties": {"from": {"type": "string"}, "n": {"type": "integer"}}, "additionalProperties": True}
        calls = []
        function = signature.recording_function(signature.as_users_write_it(schema), lambda r: calls.append(r) or "ok", "t")
        self.assertEqual(function(**{"p_from": "x", "extra": [1]}), "ok")  # n left out: not reported
        self.assertEqual(calls, [{"from": "x", "extra": [1]}])
        self.assertEqual(function.__name__, "t")
        with self.assertRaises(TypeError):  # a call the signature does not take fails as Python's own
            function(1, 2, 3)

    def test_snapshot_refuses_what_json_cannot_carry(self):
        self.assertEqual(snapshot({"a": (1, 2.5)}), {"a": [1, 2.5]})
        with self.assertRaises(NotJson):
            snapshot({"a": float("nan")})


if __name__ == "__main__":
    unittest.main()


class UserFunction(unittest.TestCase):
    def test_a_real_def_with_the_signature_users_write(self):
        schema = {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "boolean"}},
            "required": ["a", "c"],
        }
        mapping = signature.as_users_write_it(schema, optional="none")
        calls = []
        function = signature.user_function(mapping, lambda r: calls.append(r) or "ok", "my-tool")
        self.assertFalse(hasattr(function, "__signature__"))  # nothing laid over the def
        self.assertEqual(function.__code__.co_varnames[:3], ("a", "b", "c"))
        self.assertEqual(str(inspect.signature(function)), "(a: str, b: Optional[int] = None, *, c: bool)")
        self.assertEqual(function.__name__, "my-tool")
        self.assertEqual(function("x", c=True), "ok")
        self.assertEqual(calls, [{"a": "x", "b": None, "c": True}])  # None is what the def received
        with self.assertRaises(TypeError):
            function("x", c=True, d=1)  # a def takes no other keyword

    def test_async_and_an_alias_the_def_cannot_take(self):
        import asyncio

        schema = {"type": "object", "properties": {"from": {"type": "string"}}}
        mapping = signature.as_users_write_it(schema, optional="none")
        function = signature.user_function(mapping, lambda r: r, "t", is_async=True)
        self.assertTrue(inspect.iscoroutinefunction(function))
        self.assertEqual(asyncio.run(function(p_from="x")), {"from": "x"})
        with self.assertRaises(TypeError):
            asyncio.run(function(**{"from": "x"}))  # what a framework passing the alias does

    def test_not_sent_is_still_there_for_the_rows_that_keep_it(self):
        schema = {"type": "object", "properties": {"b": {"type": "integer"}}}
        mapping = signature.as_users_write_it(schema)
        self.assertIs(mapping.parameters[0].default, signature.NOT_SENT)
        function = signature.user_function(mapping, lambda r: r, "t")
        self.assertEqual(function(), {})
