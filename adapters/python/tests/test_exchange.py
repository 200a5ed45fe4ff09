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
