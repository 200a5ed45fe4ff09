"""The reproduction template of this adapter (repro.py), filled as the generated
reports/fastmcp/README.md fills it, runs alone against the installed FastMCP.

    .venv/bin/python -m unittest test_repro -v     # from this folder
"""

import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the Python adapter kit

from tool_conformance_adapter.reproduction import STRING_ARGUMENTS, run_template  # noqa: E402


class Reproduction(unittest.TestCase):
    """repro.py, filled as `tool-conformance readme` fills it (the tool's name, and the schema and
    arguments as exact JSON text in printable ASCII), runs alone and shows what the adapter
    measures."""

    def test_the_filled_template_runs(self):
        done = run_template(os.path.join(HERE, "repro.py"), **STRING_ARGUMENTS)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stderr, "")
        self.assertIn("the caller got: ValidationError: 2 validation errors", done.stdout)
        self.assertIn("Unexpected keyword argument", done.stdout)  # the name é\\u202e, kept exactly


if __name__ == "__main__":
    unittest.main()
