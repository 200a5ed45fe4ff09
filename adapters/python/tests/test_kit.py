"""The kit's protocol handling, on a session and through a real stdio process and HTTP server."""

import http.client
import os
import subprocess
import sys
import unittest
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tool_conformance_adapter import (  # noqa: E402
    Failure, Implementation, RanOnNotJson, Rejected, Session, Unsupported, dumps, from_plain, loads, to_native, to_plain,
)

IMPLEMENTATION = Implementation(name="kit-test", version="0.0.1", rules=["RT-TOOL-8"], transports=["direct"])


class Runtime:
    """Passes arguments through; a tool named "boom" raises, "refuse" rejects, "skip" declines."""

    def __init__(self):
        self.tools = {}

    def register(self, tools):
        self.tools = {tool["name"]: tool for tool in tools}

    def describe(self, tool, view):
        return self.tools[tool]["input_schema"]

    def invoke(self, transport, tool, arguments, handler):
        if tool == "boom":
            raise ZeroDivisionError("division by zero")
        if tool == "refuse":
            return {"message": "refused"}
        if tool == "skip":
            raise Unsupported("no such thing here")
        if tool == "nan":
            raise RanOnNotJson("{'x': nan} (Python's repr; not JSON: the float nan)")
        if tool not in self.tools:
            raise Failure(f"no tool named {tool!r} is registered")
        handler(arguments)
        return None

    def normalize(self, input_schema, arguments):
        if arguments == "no":
            raise Rejected({"message": "not accepted"})
        return arguments


def exchange(session, text):
    response, _ = session.handle(loads(text))
    return dumps(response)


class SessionTest(unittest.TestCase):
    def setUp(self):
        self.session = Session(IMPLEMENTATION, Runtime)
        exchange(self.session, '{"cmd":"start","seq":0,"protocol":1}')

    def test_start_answers_the_implementation(self):
        self.assertEqual(
            exchange(self.session, '{"cmd":"start","seq":7,"protocol":1}'),
            '{"seq":7,"protocol":1,"implementation":{"name":"kit-test","version":"0.0.1","language":"python"},'
            '"rules":["RT-TOOL-8"],"transports":["direct"]}',
        )

    def test_start_answers_the_declared_spec_pointer(self):
        pointing = Implementation(name="kit-test", version="0.0.1", rules=["PLAT-162"], transports=["http"],
                                  get_api_spec="/v1/spec")
        session = Session(pointing, Runtime)
        self.assertEqual(
            exchange(session, '{"cmd":"start","seq":0,"protocol":1}'),
            '{"seq":0,"protocol":1,"implementation":{"name":"kit-test","version":"0.0.1","language":"python"},'
            '"rules":["PLAT-162"],"transports":["http"],"get_api_spec":"/v1/spec"}',
        )

    def test_numbers_and_surrogates_and_key_order_pass_through_exactly(self):
        self.session = Session(IMPLEMENTATION, Runtime, numbers="decimal")  # every literal's own digits
        exchange(self.session, '{"cmd":"start","seq":0,"protocol":1}')
        answer = exchange(
            self.session,
            '{"cmd":"normalize","seq":1,"input_schema":{},"arguments":'
            '{"z":12345678901234567890123,"a":1.0,"m":-0,"s":"\\ud800x","e":1e400}}',
        )
        self.assertEqual(answer, '{"seq":1,"arguments":{"z":12345678901234567890123,"a":1.0,"m":-0,"s":"\\ud800x","e":1E+400}}')

    def test_the_runtime_gets_native_numbers_and_they_go_back_with_their_values(self):
        seen = []

        class Seeing(Runtime):
            def normalize(self, input_schema, arguments):
                seen.append((input_schema, arguments))
                return arguments

        session = Session(IMPLEMENTATION, Seeing)
        exchange(session, '{"cmd":"start","seq":0,"protocol":1}')
        literals = ["12345678901234567890123", "-0", "1.0", "1e2", "0.1", "-2.5e-3", "6.02e23", "1E-7",
                    "0.1000000000000000000000001", "1e400", "1e-400", "12345678901234567.0", "4.9e-324"]
        answer = exchange(session, '{"cmd":"normalize","seq":1,"input_schema":{"maximum":1e2,"multipleOf":0.01},'
                                   '"arguments":[' + ",".join(literals) + "]}")
        schema, arguments = seen[0]
        self.assertEqual(schema, {"maximum": 100.0, "multipleOf": 0.01})
        self.assertEqual([type(n).__name__ for n in arguments],
                         ["int", "int", "float", "float", "float", "float", "float", "float",
                          "Decimal", "int", "Decimal", "int", "Decimal"])
        echoed = loads(answer)["arguments"]
        self.assertEqual(echoed, [Decimal(literal) for literal in literals])  # every value exact
        self.assertTrue(answer.startswith('{"seq":1,"arguments":[12345678901234567890123,0,1.0,100.0,0.1,-0.0025,'
                                          '6.02e+23,1e-07,0.1000000000000000000000001,1000'), answer[:120])

    def test_numbers_must_be_native_or_decimal(self):
        with self.assertRaises(ValueError):
            Session(IMPLEMENTATION, Runtime, numbers="float")

    def test_rejected_normalize(self):
        self.assertEqual(exchange(self.session, '{"cmd":"normalize","seq":2,"input_schema":{},"arguments":"no"}'),
                         '{"seq":2,"rejected":{"message":"not accepted"}}')

    def test_invoke_outcomes(self):
        exchange(self.session, '{"cmd":"register","seq":1,"tools":[{"name":"t","input_schema":{}}]}')
        self.assertEqual(exchange(self.session, '{"cmd":"invoke","seq":2,"tool":"t","transport":"direct","arguments":{"a":1}}'),
                         '{"seq":2,"outcome":"executed","handler_calls":1,"received":{"a":1}}')
        self.assertEqual(exchange(self.session, '{"cmd":"invoke","seq":3,"tool":"refuse","transport":"direct","arguments":{}}'),
                         '{"seq":3,"outcome":"rejected","handler_calls":0,"error":{"message":"refused"}}')
        self.assertEqual(exchange(self.session, '{"cmd":"invoke","seq":4,"tool":"t","transport":"http","arguments":{}}'),
                         '{"seq":4,"unsupported":"no transport \'http\'"}')
        self.assertEqual(exchange(self.session, '{"cmd":"invoke","seq":5,"tool":"nope","transport":"direct","arguments":{}}'),
                         '{"seq":5,"error":"no tool named \'nope\' is registered"}')
        self.assertEqual(exchange(self.session, '{"cmd":"invoke","seq":6,"tool":"skip","transport":"direct","arguments":{}}'),
                         '{"seq":6,"unsupported":"no such thing here"}')
        # The tool ran on a value JSON cannot carry: said as such, never as an error.
        self.assertEqual(exchange(self.session, '{"cmd":"invoke","seq":7,"tool":"nan","transport":"direct","arguments":{}}'),
                         '{"seq":7,"not_json":"{\'x\': nan} (Python\'s repr; not JSON: the float nan)"}')

    def test_an_exception_is_an_error_naming_it_with_its_traceback(self):
        answer = loads(exchange(self.session, '{"cmd":"invoke","seq":8,"tool":"boom","transport":"direct","arguments":{}}'))
        first, *frames = answer["error"].split("\n")
        self.assertEqual(first, "the adapter failed: ZeroDivisionError: division by zero")
        self.assertEqual(frames[0], "Traceback (most recent call last):")
        self.assertTrue(any("test_kit.py" in frame for frame in frames), answer["error"])

    def test_unknown_command_and_non_object(self):
        self.assertEqual(exchange(self.session, '{"cmd":"dance","seq":9}'), '{"seq":9,"unsupported":"no command \'dance\'"}')
        self.assertEqual(exchange(self.session, '[1]'), '{"seq":null,"error":"the request is not a JSON object"}')

    def test_loads_refuses_nan(self):
        with self.assertRaises(ValueError):
            loads('{"a": NaN}')

    def test_native_numbers(self):
        for literal, kind in [("7", int), ("-0", int), ("123456789012345678901234567890", int), ("1e400", int),
                              ("0.5", float), ("1.0", float), ("1e2", float), ("5e-324", float), ("-0.0", float),
                              ("0.1000000000000000000000001", Decimal), ("1e-400", Decimal), ("1e4000", Decimal)]:
            number = to_native(loads(literal))
            self.assertIs(type(number), kind, literal)
            self.assertEqual(Decimal(dumps(number)), Decimal(literal), literal)
        self.assertEqual(to_native(loads('{"a":[1,{"b":2.5}]}')), {"a": [1, {"b": 2.5}]})
        self.assertEqual(to_native(loads('"1"')), "1")
        self.assertIs(to_native(loads("true")), True)

    def test_plain_conversions(self):
        self.assertEqual(to_plain(loads('{"i":3,"f":1.5,"big":1e2}')), {"i": 3, "f": 1.5, "big": 100.0})
        self.assertIsInstance(to_plain(loads("3")), int)
        self.assertEqual(from_plain({"f": 0.1, "i": 10**30}), {"f": Decimal("0.1"), "i": Decimal(10**30)})


SCRIPT = f"""
import sys
sys.path.insert(0, {os.path.dirname(HERE)!r})
sys.path.insert(0, {HERE!r})
from test_kit import IMPLEMENTATION, Runtime
from tool_conformance_adapter import main
class Noisy(Runtime):
    def __init__(self):
        super().__init__()
        print("a banner that must not reach the protocol stream")
main(IMPLEMENTATION, Noisy)
"""


class ProcessTest(unittest.TestCase):
    def test_stdio_framing(self):
        requests = (
            '{"cmd":"start","seq":0,"protocol":1}\n'
            "\n"
            "not json\n"
            '{"cmd":"normalize","seq":1,"input_schema":{},"arguments":[0.10000000000000000000001]}\r\n'
            '{"cmd":"stop","seq":2}\n'
            '{"cmd":"start","seq":3,"protocol":1}\n'
        )
        done = subprocess.run([sys.executable, "-c", SCRIPT], input=requests.encode(), capture_output=True, timeout=30)
        lines = done.stdout.decode().splitlines()
        self.assertEqual(len(lines), 4, lines)
        self.assertTrue(lines[0].startswith('{"seq":0,"protocol":1,'))
        self.assertTrue(lines[1].startswith('{"seq":null,"error":"the request is not JSON'))
        self.assertEqual(lines[2], '{"seq":1,"arguments":[0.10000000000000000000001]}')
        self.assertEqual(lines[3], '{"seq":2,"ok":true}')
        self.assertIn(b"a banner", done.stderr)
        self.assertEqual(done.returncode, 0)

    def test_http(self):
        server = subprocess.Popen([sys.executable, "-c", SCRIPT, "--http", "127.0.0.1:0"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            line = server.stdout.readline().decode()
            self.assertTrue(line.startswith("listening on http://"), line)
            host, port = line.split("http://")[1].strip().rstrip("/").split(":")
            connection = http.client.HTTPConnection(host, int(port), timeout=10)
            for seq, body, status, expected in [
                (0, '{"cmd":"start","seq":0,"protocol":1}', 200, '{"seq":0,"protocol":1,'),
                (1, '{"cmd":"normalize","seq":1,"input_schema":{},"arguments":{"b":1,"a":2}}', 200,
                 '{"seq":1,"arguments":{"b":1,"a":2}}'),
                (2, "{", 400, '{"seq":null,"error":"the body is not JSON'),
            ]:
                connection.request("POST", "/", body=body, headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                text = response.read().decode()
                self.assertEqual(response.status, status, (seq, text))
                self.assertTrue(text.startswith(expected), (seq, text))
        finally:
            server.kill()
            server.wait()


if __name__ == "__main__":
    unittest.main()
