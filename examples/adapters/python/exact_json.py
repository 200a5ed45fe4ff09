"""JSON with exact numbers, for protocol v1 adapters in Python.

`loads` reads every number as a decimal.Decimal, so big integers and long decimals keep their
exact value (the suite compares numbers by exact decimal value), and refuses NaN and Infinity.
`dumps` writes such values back with their digits and their key order.
"""

import json
from decimal import Decimal


def _refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def loads(text):
    """Strict RFC 8259 JSON: numbers as Decimal, NaN and Infinity refused."""
    return json.loads(text, parse_float=Decimal, parse_int=Decimal, parse_constant=_refuse_constant)


def dumps(value):
    """JSON text for a value of `loads`: key order kept, numbers with their exact digits."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # ASCII-only escapes: safe for lone surrogates too
    if isinstance(value, list):
        return "[" + ",".join(dumps(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(key) + ":" + dumps(item) for key, item in value.items()) + "}"
    raise TypeError(f"not a JSON value: {value!r}")
