"""manifest.load reads the run's tools exactly and refuses what is not a manifest, naming the file;
manifest.record appends one compact, exact line per call, flushed before it returns, that a JSON
parser reads back as the value the handler received; manifest.refuse appends the line that says why
the framework refused a tool."""

import json
import os
import subprocess
import sys
import tempfile
import unittest
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tool_conformance_adapter import loads, manifest  # noqa: E402

MANIFEST_TEXT = (
    '{"manifest": 1, "tools": ['
    '{"name": "update_step", "description": "Steps \\u00e9", "input_schema": '
    '{"type": "object", "properties": {"z": {"type": "integer", "maximum": 12345678901234567890123}, '
    '"a": {"type": "number", "multipleOf": 0.10}}, "required": ["z"]}},'
    '{"name": "normalize_1", "input_schema": {}}]}'
)


class Folder(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def write(self, name, text):
        path = os.path.join(self.folder.name, name)
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        return path


class Load(Folder):
    def test_tools_in_order_with_exact_numbers_and_key_order(self):
        tools = manifest.load(self.write("m.json", MANIFEST_TEXT))
        self.assertEqual([t["name"] for t in tools], ["update_step", "normalize_1"])
        self.assertEqual(tools[0]["description"], "Steps \u00e9")
        schema = tools[0]["input_schema"]
        self.assertEqual(list(schema["properties"]), ["z", "a"])
        self.assertEqual(schema["properties"]["z"]["maximum"], Decimal("12345678901234567890123"))
        self.assertEqual(str(schema["properties"]["a"]["multipleOf"]), "0.10")
        self.assertNotIn("description", tools[1])

    def test_the_environment_names_the_file(self):
        path = self.write("m.json", MANIFEST_TEXT)
        code = "from tool_conformance_adapter import manifest; print(len(manifest.load()))"
        out = subprocess.run(
            [sys.executable, "-c", code],
            env=dict(os.environ, PYTHONPATH=os.path.dirname(HERE), TOOL_CONFORMANCE_MANIFEST=path),
            capture_output=True,
            text=True,
            check=True,
        )
        self.assertEqual(out.stdout, "2\n")

    def test_what_is_not_a_manifest_is_refused_naming_the_file(self):
        bad = {
            "unset": None,
            "missing": os.path.join(self.folder.name, "absent.json"),
            "not json": self.write("a.json", '{"manifest": 1, "tools": [}'),
            "no version": self.write("b.json", '{"tools": []}'),
            "version 2": self.write("c.json", '{"manifest": 2, "tools": []}'),
            "tools not a list": self.write("d.json", '{"manifest": 1, "tools": {}}'),
            "no name": self.write("e.json", '{"manifest": 1, "tools": [{"input_schema": {}}]}'),
            "no schema": self.write("f.json", '{"manifest": 1, "tools": [{"name": "x"}]}'),
            "twice": self.write(
                "g.json", '{"manifest": 1, "tools": [{"name": "x", "input_schema": {}}, {"name": "x", "input_schema": {}}]}'
            ),
            "NaN": self.write("h.json", '{"manifest": 1, "tools": [{"name": "x", "input_schema": {"maximum": NaN}}]}'),
        }
        saved = os.environ.pop(manifest.MANIFEST, None)
        self.addCleanup(lambda: saved is None or os.environ.__setitem__(manifest.MANIFEST, saved))
        for what, path in bad.items():
            with self.subTest(what), self.assertRaises(manifest.ManifestError) as caught:
                manifest.load(path)
            self.assertIn(path if path else manifest.MANIFEST, str(caught.exception))


class Record(Folder):
    def test_one_exact_line_per_call_in_order(self):
        path = os.path.join(self.folder.name, "record.jsonl")
        received = {"z": 12345678901234567890123, "a": 0.1, "s": "it's $1 \u00e9 \ud800", "n": [True, None]}
        self.assertEqual(manifest.record("update_step", received, path), "ok")
        self.assertEqual(manifest.record("update_step", {"from": loads('{"x": 1.50}')}, path), "ok")
        with open(path, "rb") as file:
            raw = file.read()
        lines = raw.split(b"\n")
        self.assertEqual(lines[-1], b"", "every line ends with \\n")
        self.assertEqual(len(lines), 3)
        first = lines[0].decode("ascii")
        self.assertEqual(
            first,
            '{"tool":"update_step","arguments":{"z":12345678901234567890123,"a":0.1,'
            '"s":"it\\u0027s \\u00241 \\u00e9 \\ud800","n":[true,null]}}',
        )
        # A JSON parser reads back what the handler received, keys in order.
        self.assertEqual(json.loads(first), {"tool": "update_step", "arguments": received})
        self.assertEqual(lines[1].decode("ascii"), '{"tool":"update_step","arguments":{"from":{"x":1.50}}}')

    def test_a_value_json_cannot_carry_is_a_line_that_says_so(self):
        path = os.path.join(self.folder.name, "record.jsonl")
        manifest.record("t", {"x": float("nan")}, path)
        manifest.record("t", {"x": object()}, path)
        manifest.record("t", {1: "key"}, path)
        with open(path, encoding="ascii") as file:
            lines = [json.loads(line) for line in file]
        self.assertEqual([sorted(line) for line in lines], [["not_json", "tool"]] * 3)
        self.assertTrue(lines[0]["not_json"].startswith("{'x': nan} (Python's repr; not JSON: ValueError"), lines[0])
        self.assertIn("object", lines[1]["not_json"])
        self.assertIn("1", lines[2]["not_json"])

    def test_a_refusal_is_one_line_beside_the_calls_that_a_json_parser_reads_back(self):
        path = os.path.join(self.folder.name, "record.jsonl")
        why = 'MCPServer.add_tool refused the signature: SchemaError: "\x1b[31m" \u00e9\nnext'
        self.assertIsNone(manifest.refuse("normalize_7", why, path))
        manifest.record("t", {"a": 1}, path)
        with open(path, "rb") as file:
            lines = file.read().split(b"\n")
        self.assertEqual(lines[-1], b"", "every line ends with \\n")
        self.assertEqual(
            lines[0].decode("ascii"),
            '{"tool":"normalize_7","refused":"MCPServer.add_tool refused the signature: SchemaError: '
            '\\"\\u001b[31m\\" \\u00e9\\nnext"}',
        )
        self.assertEqual(json.loads(lines[0]), {"tool": "normalize_7", "refused": why})
        self.assertEqual(lines[1], b'{"tool":"t","arguments":{"a":1}}')
        self.assertEqual(manifest.refusal_line("t", ValueError("no")), '{"tool":"t","refused":"no"}\n')

    def test_the_environment_names_the_record_and_an_unset_one_is_an_error(self):
        path = os.path.join(self.folder.name, "from-env.jsonl")
        code = "from tool_conformance_adapter import manifest; manifest.record('t', {'a': 1})"
        env = dict(os.environ, PYTHONPATH=os.path.dirname(HERE), TOOL_CONFORMANCE_RECORD=path)
        subprocess.run([sys.executable, "-c", code], env=env, check=True)
        with open(path, encoding="utf-8") as file:
            self.assertEqual(file.read(), '{"tool":"t","arguments":{"a":1}}\n')
        del env["TOOL_CONFORMANCE_RECORD"]
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("TOOL_CONFORMANCE_RECORD is not set", out.stderr)


if __name__ == "__main__":
    unittest.main()
