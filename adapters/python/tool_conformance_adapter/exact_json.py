"""JSON with exact numbers, for protocol v1 adapters.

`loads` reads every number as a decimal.Decimal, so big integers and long decimals keep their
exact value (the harness compares numbers by exact decimal value), and refuses NaN and Infinity.
`dumps` writes such values back with their digits and their key order. `to_native` turns values
of `loads` into Python's own numbers wherever that keeps the exact value (what the kit hands a
runtime by default); `to_float`, `to_int` and `to_plain` turn them into what a framework expects,
when it expects floats and ints.
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


# An integer literal with more digits than this stays a Decimal: Python refuses to write an int of
# more than 4300 digits as text (sys.get_int_max_str_digits), so it could not be written back.
MAX_INT_DIGITS = 4000


def native_number(number):
    """One number of `loads` as Python's own type where that keeps its exact value:

    - an integer literal (no '.', no exponent) as int, at any size, as `json.loads` reads it;
    - any other literal as float when the float is exactly the literal's decimal value, so that its
      shortest repr reads back as the same number (`0.5`, `1.0`, `1e2`, `-2.5e-3`, `6.02e23`), as
      `json.loads` reads it too;
    - a whole number no float holds exactly (`1e400`, `12345678901234567.0`) as int, where
      `json.loads` would round it;
    - anything else (`0.1000000000000000000000001`, `1e-400`, a number of more than
      MAX_INT_DIGITS digits) as the Decimal itself."""
    if not isinstance(number, Decimal) or not number.is_finite():
        return number
    exponent = number.as_tuple().exponent
    if number.adjusted() >= MAX_INT_DIGITS:
        return number
    if exponent == 0:  # an integer literal: "12", "-0"
        return int(number)
    if not number:  # "0.0", "-0e-500": a zero float, with its sign
        return -0.0 if number.is_signed() else 0.0
    if number.adjusted() > -400:  # under that, no float but zero; zero itself has exponent 0 or is "0e5"
        near = float(number)
        if abs(near) != float("inf") and Decimal(repr(near)) == number:
            return near
    if number == number.to_integral_value():
        return int(number)
    return number


def to_native(value):
    """A value of `loads` with every number as `native_number` makes it: what `json.loads` makes
    wherever that is exact (so `jsonschema`, pydantic or a hand-written check reads an integer as
    int and 0.5 as float), and a Decimal only where a float would change the number. `dumps`
    writes the result back with the same values. Containers are copied."""
    if isinstance(value, Decimal):
        return native_number(value)
    if isinstance(value, list):
        return [to_native(item) for item in value]
    if isinstance(value, dict):
        return {key: to_native(item) for key, item in value.items()}
    return value


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
