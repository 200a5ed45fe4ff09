"""exchange: a session with an adapter, answers back in order, and a broken adapter said so."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tool_conformance_adapter.exchange import ExchangeError, exchange  # noqa: E402

KIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ADAPTER = f"""
import sys
sys.path.insert(0, {KIT!r})
import tool_conformance_adapter as protocol

class Runtime:
    def register(self, tools):
        pass
    def describe(self, tool, view):
        raise protocol.Unsupported("no describe")
    def invoke(self, transport, tool, arguments, handler):
        handler(arguments)
    def normalize(self, input_schema, arguments):
        return arguments

protocol.main(protocol.Implementation(name="echo", version="1", language="python", rules=["RT-TOOL-8"], transports=["direct"]), Runtime)
"""


class Exchange(unittest.TestCase):
    def adapter(self, text):
        handle = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
        handle.write(text)
        handle.close()
        self.addCleanup(os.unlink, handle.name)
        return handle.name

    def test_answers_come_back_in_order(self):
        answers = exchange(
            self.adapter(ADAPTER),
            [
                {"cmd": "start", "protocol": 1},
                {"cmd": "normalize", "input_schema": {}, "arguments": {"a": "x"}},
                {"cmd": "stop"},
            ],
        )
        self.assertEqual(answers[0]["implementation"]["name"], "echo")
        self.assertEqual(answers[1], {"seq": 1, "arguments": {"a": "x"}})

    def test_an_adapter_that_answers_nothing_is_said_so(self):
        with self.assertRaises(ExchangeError) as raised:
            exchange(self.adapter("import sys; sys.stderr.write('no framework here')"), [{"cmd": "start", "protocol": 1}])
        self.assertIn("no framework here", str(raised.exception))


if __name__ == "__main__":
    unittest.main()


class NotInstalled(unittest.TestCase):
    def test_it_names_the_package_and_how_to_install_it(self):
        import subprocess

        code = f"import sys; sys.path.insert(0, {KIT!r}); from tool_conformance_adapter.setup import not_installed; not_installed('pkg', '/a', ImportError('x'))"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
        self.assertEqual(done.returncode, 1)
        self.assertIn("pkg is not importable (x)", done.stderr)
        self.assertIn("/a/.venv/bin/pip install -r /a/requirements.txt", done.stderr)

    def test_an_import_error_in_the_framework_block_is_not_installed(self):
        import subprocess

        code = (
            f"import sys; sys.path.insert(0, {KIT!r}); from tool_conformance_adapter.setup import installed\n"
            "with installed('pkg', '/a'):\n    import no_such_framework_module\n"
            "print('went on')\n"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stdout, "")
        self.assertIn("pkg is not importable (No module named 'no_such_framework_module')", done.stderr)

    def test_a_framework_block_that_imports_goes_on(self):
        from tool_conformance_adapter.setup import installed

        with installed("pkg", "/a"):
            import json  # noqa: F401
        self.assertTrue(json.loads("true"))

    def test_quiet_keeps_pydantics_not_sent_warnings_off_stderr(self):
        import subprocess

        code = (
            f"import sys, logging, warnings; sys.path.insert(0, {KIT!r}); import pydantic.json_schema\n"
            "from tool_conformance_adapter.setup import quiet\n"
            "quiet(serializer=sys.argv[1] == 'serializer')\n"
            "warnings.warn('not sent', pydantic.json_schema.PydanticJsonSchemaWarning)\n"
            "warnings.warn('Pydantic serializer warnings:\\n  NOT_SENT')\n"
            "logging.getLogger('x').warning('a warning, not logged')\n"
            "logging.getLogger('x').error('an error, logged')\n"
        )
        plain = subprocess.run([sys.executable, "-c", code, "plain"], capture_output=True, text=True, timeout=30)
        self.assertEqual(plain.returncode, 0, plain.stderr)
        self.assertNotIn("not sent", plain.stderr)
        self.assertIn("Pydantic serializer warnings", plain.stderr)
        self.assertNotIn("not logged", plain.stderr)
        self.assertIn("an error, logged", plain.stderr)
        serializer = subprocess.run([sys.executable, "-c", code, "serializer"], capture_output=True, text=True, timeout=30)
        self.assertEqual(serializer.returncode, 0, serializer.stderr)
        self.assertNotIn("Pydantic serializer warnings", serializer.stderr)
        self.assertIn("an error, logged", serializer.stderr)
