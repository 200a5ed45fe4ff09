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

from tool_conformance_adapter.reproduction import printed  # noqa: E402


class Reproduction(unittest.TestCase):
    """The page's reproduction, repro.py filled with a call whose arguments are strings, runs on its
    own and shows FastMCP refusing them."""

    def test_the_filled_template_runs(self):
        out = printed(os.path.join(HERE, "repro.py"))  # the kit's string arguments: exit 0, no stderr
        self.assertIn("the caller got: ValidationError: 2 validation errors", out)
        self.assertIn("Unexpected keyword argument", out)  # the name é\\u202e, kept exactly


if __name__ == "__main__":
    unittest.main()
