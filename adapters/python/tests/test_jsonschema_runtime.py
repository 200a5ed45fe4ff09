"""A newcomer's runtime that validates with `jsonschema` (jsonschema_runtime.py) gets numbers it
reads as the JSON values they are: PLAT-162's integer cases execute as sent, with no conversion of
its own, and what its tool received goes back with the exact value sent. With every number a
Decimal (`numbers="decimal"`), jsonschema counts none of them as an integer.

tests/run.sh also runs it against the harness (`run --rule PLAT-162`), where it conforms.
"""

import os
import sys
import unittest
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from jsonschema_runtime import Runtime  # noqa: E402

from tool_conformance_adapter import Implementation, Session, dumps, loads  # noqa: E402

IMPLEMENTATION = Implementation(name="jsonschema-runtime", version="0.1.0", rules=["PLAT-162"], transports=["direct"])
SCHEMA = ('{"type":"object","properties":{"title":{"type":"string"},"retries":{"type":"integer"},'
          '"ratio":{"type":"number"},"amount":{"type":"integer","maximum":123456789012345678901234567890}},'
          '"required":["title"]}')


def invoke(numbers, arguments):
    """The answer to one invoke of a tool with SCHEMA, as JSON text, on a session of `numbers`."""
    session = Session(IMPLEMENTATION, Runtime, numbers=numbers)
    for request in ('{"cmd":"start","seq":0,"protocol":1}',
                    '{"cmd":"register","seq":1,"tools":[{"name":"t","input_schema":' + SCHEMA + "}]}"):
        session.handle(loads(request))
    answer, _ = session.handle(loads('{"cmd":"invoke","seq":2,"tool":"t","transport":"direct","arguments":'
                                     + arguments + "}"))
    return answer


class IntegerCases(unittest.TestCase):
    EXECUTED = ['{"title":"n","retries":-3}', '{"title":"n","retries":1.0}', '{"title":"n","retries":1e2}',
                '{"title":"n","amount":12345678901234567890123}', '{"title":"n","amount":9007199254740993}',
                '{"title":"n","ratio":3}', '{"title":"n","ratio":-2.5e-3}',
                '{"title":"n","ratio":3.14159265358979323846264338327}']

    def test_each_executes_and_its_values_go_back_exactly(self):
        for arguments in self.EXECUTED:
            answer = invoke("native", arguments)
            self.assertEqual(answer.get("outcome"), "executed", (arguments, answer))
            self.assertEqual(loads(dumps(answer["received"])), loads(arguments), arguments)  # exact values

    def test_a_fraction_or_a_string_is_a_wrong_type(self):
        for arguments in ('{"title":"n","retries":2.5}', '{"title":"n","retries":"10"}', '{"title":"n","retries":true}'):
            answer = invoke("native", arguments)
            self.assertEqual(answer.get("outcome"), "rejected", arguments)
            self.assertEqual(answer["error"]["problems"], [{"kind": "wrong_type", "field": "retries"}])

    def test_with_decimals_jsonschema_counts_no_integer(self):
        answer = invoke("decimal", '{"title":"n","retries":-3}')
        self.assertEqual(answer.get("outcome"), "rejected")
        self.assertEqual(answer["error"]["problems"], [{"kind": "wrong_type", "field": "retries"}])

    def test_the_big_bound_is_published_with_every_digit(self):
        session = Session(IMPLEMENTATION, Runtime)
        session.handle(loads('{"cmd":"start","seq":0,"protocol":1}'))
        session.handle(loads('{"cmd":"register","seq":1,"tools":[{"name":"t","input_schema":' + SCHEMA + "}]}"))
        answer, _ = session.handle(loads('{"cmd":"describe","seq":2,"tool":"t","view":"get_api_spec"}'))
        self.assertIn('"maximum":123456789012345678901234567890}', dumps(answer))
        self.assertEqual(loads(dumps(answer))["input_schema"]["properties"]["amount"]["maximum"],
                         Decimal("123456789012345678901234567890"))


if __name__ == "__main__":
    unittest.main()
