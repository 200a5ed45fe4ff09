"""run_template and the outcome lines: a template filled as the page fills it, run from its own
folder, printing `the tool received: <JSON>` or `the caller got: <error>` the one way
run-frameworks.sh reads them back."""

import json
import os
import sys
import tempfile
import unittest

KIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, KIT)

from tool_conformance_adapter.reproduction import STRING_ARGUMENTS, printed, run_template  # noqa: E402

TEMPLATE = f"""import json, sys
sys.path.insert(0, {KIT!r})
from tool_conformance_adapter.outcome import caller_got, received
schema = json.loads(r'''__SCHEMA__''')
arguments = json.loads(r'''__ARGUMENTS__''')
missing = [n for n in schema.get("required", []) if n not in arguments]
if missing:
    caller_got(KeyError("__TOOL__ misses " + ", ".join(missing)))
else:
    received(arguments)
open("here.txt", "w").write("ran")
"""


class RunTemplate(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.template = os.path.join(self.dir.name, "repro.py")
        with open(self.template, "w") as handle:
            handle.write(TEMPLATE)

    def test_the_string_arguments_call_reaches_the_template_exactly(self):
        done = run_template(self.template, **STRING_ARGUMENTS)
        self.assertEqual(done.returncode, 0, done.stderr)
        line = done.stdout.strip()
        self.assertTrue(line.startswith("the tool received: "), line)
        self.assertEqual(json.loads(line[len("the tool received: ") :]), STRING_ARGUMENTS["arguments"])

    def test_what_the_tool_received_reads_back_as_json(self):
        arguments = {"note": "it's `x` ${y} \\\\ \u00e9 \U0001f600"}
        done = run_template(self.template, tool="t", schema={"required": ["note"]}, arguments=arguments)
        self.assertEqual(done.returncode, 0, done.stderr)
        line = next(l for l in done.stdout.splitlines() if l.startswith("the tool received: "))
        self.assertEqual(json.loads(line[len("the tool received: "):]), arguments)
        self.assertTrue(os.path.exists(os.path.join(self.dir.name, "here.txt")))  # run from its folder

    def test_a_refusal_is_one_caller_got_line(self):
        done = run_template(self.template, tool="t", schema={"required": ["a"]}, arguments={})
        self.assertEqual(done.stdout, "the caller got: KeyError: 't misses a'\n")


class Printed(unittest.TestCase):
    def test_what_a_clean_run_printed_and_a_run_that_is_not(self):
        with tempfile.TemporaryDirectory() as folder:
            clean = os.path.join(folder, "clean.py")
            with open(clean, "w", encoding="utf-8") as handle:
                handle.write("print('__TOOL__')\n")
            self.assertEqual(printed(clean), "t\n")  # STRING_ARGUMENTS names the tool t
            self.assertEqual(printed(clean, {"tool": "u", "schema": {}, "arguments": {}}), "u\n")
            for body in ["import sys; sys.stderr.write('a warning')\n", "raise SystemExit(3)\n"]:
                noisy = os.path.join(folder, "noisy.py")
                with open(noisy, "w", encoding="utf-8") as handle:
                    handle.write(body)
                with self.assertRaises(AssertionError):
                    printed(noisy)


class FunctionShown(unittest.TestCase):
    def test_the_function_and_its_notes(self):
        import contextlib
        import io

        from tool_conformance_adapter.outcome import function_shown

        def send_mail(to: str, *, cc: str = "x", **rest):
            return "ok"

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            function_shown("send_mail", send_mail, ["cc is optional"])
        self.assertEqual(
            out.getvalue(), "the function: def send_mail(to: str, *, cc: str = 'x', **rest)\n  ( cc is optional )\n"
        )


if __name__ == "__main__":
    unittest.main()
