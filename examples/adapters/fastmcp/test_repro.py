"""The reproduction template of this adapter (repro.py), filled as the generated
reports/fastmcp/README.md fills it, runs alone against the installed FastMCP.

    .venv/bin/python -m unittest test_repro -v     # from this folder
"""

import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class Reproduction(unittest.TestCase):
    """repro.py, filled as `tool-conformance readme` fills it (each placeholder a JSON string
    literal of the tool name or of the compact JSON text), runs alone and shows what the adapter
    measures."""

    def test_the_filled_template_runs(self):
        def literal(text):
            return json.dumps(text, ensure_ascii=True)

        def compact(value):
            return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

        schema = {"type": "object", "properties": {"ids": {"type": "array"}, "n": {"type": "integer"}}, "required": ["n"]}
        with open(os.path.join(HERE, "repro.py")) as template:
            filled = (
                template.read()
                .replace("__TOOL__", literal("t"))
                .replace("__SCHEMA__", literal(compact(schema)))
                .replace("__ARGUMENTS__", literal(compact({"ids": "[1]", "n": "7", "é\u202e": "&amp;"})))
            )
        root = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
        done = subprocess.run(
            [sys.executable, "-c", filled], cwd=root, capture_output=True, text=True, timeout=60
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stderr, "")
        self.assertIn("the caller got: 2 validation errors", done.stdout)
        self.assertIn("Unexpected keyword argument", done.stdout)  # the name é\\u202e, kept exactly


if __name__ == "__main__":
    unittest.main()
