"""JSON with exact numbers, for protocol v1 adapters.

`loads` reads every number as a decimal.Decimal, so big integers and long decimals keep their
exact value (the harness compares numbers by exact decimal value), and refuses NaN and Infinity.
`dumps` writes such values back with their digits and their key order. `to_float`, `to_int` and
`to_plain` turn values of `loads` into what a framework expects, when it expects floats and ints.
"""

import json as _json
from decimal import Decimal


def _refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def loads(text):
    """Strict RFC 8259 JSON: numbers as Decimal, NaN and Infinity refused."""
    if isinstance(text, (bytes, bytearray)):
        text = text.decode("utf-8")
    return _json.loads(text, parse_float=Decimal, parse_int=Decimal, parse_constant=_refuse_constant)


def dumps(value):
    """JSON text for a JSON value: key order kept, Decimals with their exact digits, ASCII only
    (so a lone surrogate is written as its escape)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{value} is not JSON")
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{value!r} is not JSON")
        return repr(value)
    if isinstance(value, str):
        return _json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(dumps(item) for item in value) + "]"
    if isinstance(value, dict):
        parts = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"a JSON object key must be a string, not {key!r}")
            parts.append(_json.dumps(key) + ":" + dumps(item))
        return "{" + ",".join(parts) + "}"
    raise TypeError(f"not a JSON value: {value!r}")


def to_int(number):
    """An integral Decimal as a Python int (exact); any other number is returned unchanged."""
    if isinstance(number, Decimal) and number.is_finite() and number == number.to_integral_value():
        return int(number)
    return number


def to_float(number):
    """A Decimal as the nearest float (what Python's json module would have given)."""
    if isinstance(number, Decimal):
        return float(number)
    return number


def to_plain(value):
    """A value of `loads` as Python's json.loads would have read it: an integer literal (no '.',
    no exponent) as int, every other number as float. Containers are copied."""
    if isinstance(value, Decimal):
        text = str(value)
        if "." in text or "e" in text.lower():
            return float(value)
        return int(value)
    if isinstance(value, list):
        return [to_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: to_plain(item) for key, item in value.items()}
    return value


def from_plain(value):
    """A value with Python ints and floats as a value of `loads`: ints exact, floats by their
    shortest repr (the digits json.dumps writes)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, (list, tuple)):
        return [from_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: from_plain(item) for key, item in value.items()}
    return value
