"""The runtime of a row whose framework builds each tool from a schema: registering (a refused tool
kept with why, the others registering), invoke and normalize around the row's `build` and `run`,
a value JSON cannot carry, the refusal texts, and the Implementation it starts with."""

import contextlib
import importlib.metadata
import io
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tool_conformance_adapter import Failure, RanOnNotJson, Rejected, Unsupported  # noqa: E402
from tool_conformance_adapter.received import Recorder  # noqa: E402
from tool_conformance_adapter.runtime import ToolRuntime, refusing, signature_tool  # noqa: E402


class Toy(ToolRuntime):
    """A framework whose tool runs its function with the arguments when every required name is
    there, refuses the call otherwise, and refuses to build a tool whose schema says `"refuse"`."""

    package, homepage, framework = "unittest-toy", "https://example.org", "Toy"
    transports = ("direct", "structured")

    def __init__(self):
        super().__init__()
        self.built = []

    def build(self, name, description, schema):
        if schema.get("refuse"):
            raise Unsupported(f"Toy refused {name}")
        self.built.append(name)
        recorder = Recorder()
        return (name, schema, recorder.record), recorder

    def run(self, built, transport, arguments):
        _, schema, function = built
        missing = [n for n in schema.get("required", []) if n not in arguments]
        if missing:
            return {"message": f"{transport}: missing {missing}", "problems": [], "expected_fields": []}
        if arguments.get("silent"):
            return None  # the framework says success but never calls the function
        function(arguments)
        return None


class Registering(unittest.TestCase):
    def test_a_refused_tool_is_kept_with_why_and_the_others_register(self):
        toy = Toy()
        toy.register([
            {"name": "a", "input_schema": {"required": ["x"]}},
            {"name": "b", "input_schema": {"refuse": True}},
            {"name": "c", "description": "d", "input_schema": {}},
        ])
        self.assertEqual(sorted(toy.tools), ["a", "c"])
        self.assertEqual(toy.refused, {"b": "Toy refused b"})
        with self.assertRaises(Unsupported):
            toy.invoke("direct", "b", {}, print)
        # A new registration replaces the whole set.
        toy.register([{"name": "d", "input_schema": {}}])
        self.assertEqual((sorted(toy.tools), toy.refused), (["d"], {}))

    def test_a_tool_without_a_name_or_a_schema_is_a_failure(self):
        for tool in [{"input_schema": {}}, {"name": 1, "input_schema": {}}, {"name": "a"}, "a"]:
            with self.assertRaises(Failure):
                Toy().register([tool])


class Calling(unittest.TestCase):
    def setUp(self):
        self.toy = Toy()
        self.toy.register([{"name": "a", "input_schema": {"required": ["x"]}}])

    def test_invoke_hands_what_the_function_received_or_answers_the_error(self):
        handled = []
        self.assertIsNone(self.toy.invoke("structured", "a", {"x": 1}, handled.append))
        self.assertEqual(handled, [{"x": 1}])
        error = self.toy.invoke("direct", "a", {}, handled.append)
        self.assertEqual(error["message"], "direct: missing ['x']")
        self.assertEqual(handled, [{"x": 1}])

    def test_a_transport_the_row_does_not_claim_is_unsupported(self):
        with self.assertRaises(Unsupported) as raised:
            self.toy.invoke("http", "a", {"x": 1}, print)
        self.assertEqual(str(raised.exception), "no transport 'http'")

    def test_success_without_a_call_is_the_frameworks_failure(self):
        with self.assertRaises(Failure) as raised:
            self.toy.invoke("direct", "a", {"x": 1, "silent": True}, print)
        self.assertEqual(str(raised.exception), "Toy reported success, but the tool function did not run")

    def test_a_value_json_cannot_carry_is_answered_as_a_run_on_it(self):
        with self.assertRaises(RanOnNotJson) as raised:
            self.toy.invoke("direct", "a", {"x": "\ud800"}, print)
        self.assertEqual(
            raised.exception.text,
            "{'x': '\\ud800'} (Python's repr; not JSON: the string '\\ud800', which holds half a surrogate pair)",
        )

    def test_normalize_builds_one_scratch_tool_per_schema_and_keeps_a_refusal(self):
        self.assertEqual(self.toy.normalize({"required": ["x"]}, {"x": 2}), {"x": 2})
        self.assertEqual(self.toy.normalize({"required": ["x"]}, {"x": 3}), {"x": 3})
        with self.assertRaises(Rejected):
            self.toy.normalize({"required": ["x"]}, {})
        self.assertEqual(self.toy.built, ["a", "normalize_1"])
        for _ in range(2):
            with self.assertRaises(Unsupported) as raised:
                self.toy.normalize({"refuse": True}, {})
            self.assertEqual(str(raised.exception), "Toy refused normalize_2")

    def test_the_implementation_is_the_installed_package_on_the_rows_transports(self):
        class Installed(Toy):
            package = "pip"  # installed wherever the kit's tests run

        about = Installed.implementation()
        self.assertEqual((about.name, about.version), ("pip", importlib.metadata.version("pip")))
        self.assertEqual((about.homepage, about.transports), ("https://example.org", ["direct", "structured"]))


class Refusals(unittest.TestCase):
    def test_the_refusal_texts(self):
        class NoFunction(Exception):
            pass

        def raising(why):
            def make():
                raise why
            return make

        self.assertEqual(refusing(lambda: 7, NoFunction, "no function", "F refused it"), 7)
        cases = [
            (NoFunction("a root that is no object"), "no function: a root that is no object"),
            (TypeError("bad default"), "F refused it: TypeError: bad default"),
            (Unsupported("as it was"), "as it was"),
        ]
        for why, said in cases:
            with self.assertRaises(Unsupported) as raised:
                refusing(raising(why), NoFunction, "no function", "F refused it")
            self.assertEqual(str(raised.exception), said)

    def test_a_signature_tool_is_checked_and_its_notes_written_to_stderr(self):
        class NoSignature(Exception):
            pass

        def check(tool):
            if tool == "bad":
                raise ValueError("refused at first use")

        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            self.assertEqual(signature_tool("F", "t", lambda: ("good", ["a note"]), NoSignature, check), "good")
        self.assertEqual(stderr.getvalue(), "[F adapter] t: a note\n")
        with self.assertRaises(Unsupported) as raised:
            signature_tool("F", "t", lambda: ("bad", []), NoSignature, check)
        self.assertEqual(str(raised.exception), "F refused the function: ValueError: refused at first use")


if __name__ == "__main__":
    unittest.main()
