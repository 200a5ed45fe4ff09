"""The runtime parts framework adapters share: the scratch tool kept per schema (or its refusal),
the invoke and normalize answers, and the Implementation of an installed distribution."""

import importlib.metadata
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tool_conformance_adapter import Failure, Rejected, Unsupported  # noqa: E402
from tool_conformance_adapter.scratch import CurrentRegistry, RegisteredTools, installed_implementation, invoked, normalized, scratch_tool  # noqa: E402


class ScratchTool(unittest.TestCase):
    def test_built_once_per_key_and_a_refusal_is_kept(self):
        cache, builds = {}, []

        def build():
            builds.append(1)
            return ("tool", "recorder")

        self.assertEqual(scratch_tool(cache, "a", build), ("tool", "recorder"))
        self.assertEqual(scratch_tool(cache, "a", build), ("tool", "recorder"))
        self.assertEqual(len(builds), 1)

        def refuse():
            builds.append(1)
            raise Unsupported("the framework refused it")

        for _ in range(2):
            with self.assertRaises(Unsupported) as raised:
                scratch_tool(cache, "b", refuse)
            self.assertEqual(str(raised.exception), "the framework refused it")
        self.assertEqual(len(builds), 2)

    def test_another_error_is_not_kept(self):
        def broken():
            raise ValueError("a bug")

        cache = {}
        with self.assertRaises(ValueError):
            scratch_tool(cache, "c", broken)
        self.assertEqual(cache, {})


class Entries(unittest.TestCase):
    def test_a_built_a_refused_and_an_unknown_tool(self):
        runtime = RegisteredTools()
        runtime.tools, runtime.refused = {"a": ("tool", "recorder")}, {"b": "the framework refused b"}
        self.assertEqual(runtime.entry("a"), ("tool", "recorder"))
        with self.assertRaises(Unsupported) as raised:
            runtime.entry("b")
        self.assertEqual(str(raised.exception), "the framework refused b")
        with self.assertRaises(Failure) as raised:
            runtime.entry("c")
        self.assertEqual(str(raised.exception), "no tool named 'c' is registered")


class Current(unittest.TestCase):
    def test_the_last_registered_set_and_none_before(self):
        runtime = CurrentRegistry()
        with self.assertRaises(Failure) as raised:
            runtime.current()
        self.assertEqual(str(raised.exception), "no tools are registered")
        runtime.registry = "the set"
        self.assertEqual(runtime.current(), "the set")


class Answers(unittest.TestCase):
    def test_normalized(self):
        self.assertEqual(normalized([{"a": 1}, {"a": 2}], None, "F"), {"a": 2})
        with self.assertRaises(Rejected):
            normalized([], {"message": "no"}, "F")
        with self.assertRaises(Failure) as raised:
            normalized([], None, "F")
        self.assertEqual(str(raised.exception), "F reported success, but the tool function did not run")
        with self.assertRaises(Rejected):
            normalized([], None)

    def test_invoked(self):
        handled = []
        self.assertIsNone(invoked([1, 2], None, handled.append, "F"))
        self.assertEqual(handled, [1, 2])
        self.assertEqual(invoked([], {"message": "no"}, handled.append, "F"), {"message": "no"})
        self.assertEqual(handled, [1, 2])
        with self.assertRaises(Failure):
            invoked([], None, handled.append, "F")
        self.assertIsNone(invoked([], None, handled.append))

    def test_installed_implementation(self):
        made = installed_implementation("pydantic", "https://example.org/p", ["structured"])
        self.assertEqual(made.version, importlib.metadata.version("pydantic"))
        self.assertEqual(made.rules, ["RT-TOOL-8", "PLAT-162"])
        self.assertEqual(made.transports, ["structured"])
        self.assertEqual(made.describe(), {"name": "pydantic", "version": made.version, "language": "python", "homepage": "https://example.org/p"})


if __name__ == "__main__":
    unittest.main()


class RecorderKeepsEachCall(unittest.TestCase):
    def test_calls_in_order_and_a_value_json_cannot_carry(self):
        from tool_conformance_adapter.received import Recorder

        recorder = Recorder()
        self.assertEqual(recorder.record({"a": (1, 2.5)}), "ok")
        self.assertEqual(recorder.record({"f": float("nan")}), "ok")
        self.assertEqual(recorder.calls, [{"a": [1, 2.5]}, None])
        self.assertEqual(recorder.unreadable, "{'f': nan} (Python's repr; not JSON: the float nan)")
        shown = Recorder(other=lambda value: f"(not JSON) {value!r}")
        shown.record({"o": {1}})
        self.assertEqual(shown.calls, [{"o": "(not JSON) {1}"}])
        self.assertIsNone(shown.unreadable)


class PydanticKinds(unittest.TestCase):
    def test_named_wrong_type_and_kept(self):
        from tool_conformance_adapter.pydantic_errors import KINDS, kind_of

        self.assertEqual(kind_of("missing"), "missing_required")
        self.assertEqual(kind_of("extra_forbidden"), "unknown_field")
        self.assertEqual(kind_of("int_parsing"), "wrong_type")
        self.assertEqual(kind_of("string_type"), "wrong_type")
        self.assertEqual(kind_of("greater_than"), "greater_than")
        self.assertEqual(kind_of("missing_keyword_only_argument"), "missing_keyword_only_argument")
        more = {**KINDS, "missing_keyword_only_argument": "missing_required"}
        self.assertEqual(kind_of("missing_keyword_only_argument", more), "missing_required")
