"""What a tool's function received, as the JSON value an adapter answers with; and the arguments
as a JSON parser hands them to the function.

Shared by the Python framework adapters that map a schema to a function signature with the kit's
`signature` (mcp-python, langchain-core-signature, llama-index, openai-agents).

- `to_framework(value)`: a value of the kit's `loads` (numbers as Decimal) as `json.loads` makes
  it (integers exact, other numbers doubles), what a framework gets from a JSON parser;
- `snapshot(value, other=None)`: the JSON value equal to what the function received (a tuple as
  a list), checked to be JSON: a string holding half a surrogate pair, a float that is not finite,
  a key that is not a string or a value of any other type raises `NotJson`, saying what it was.
  `other`, when given, turns a value of another type into one `snapshot` reads (a pydantic model
  into its dict, say), or returns None for a value it has no plain form of.
- `not_json_text(value, why)`: what a function that received such a value answers instead (the
  kit's `RanOnNotJson`, the record's `not_json`): Python's repr of the value, marked as such and
  as not JSON, with why.
"""

import json

from tool_conformance_adapter import dumps


def to_framework(value):
    """A value of the kit's `loads` as `json.loads` makes it (integers exact, other numbers doubles)."""
    return json.loads(dumps(value))


class NotJson(Exception):
    """The function received a value that JSON cannot carry."""


def not_json_text(value, why):
    """What the function received, when JSON cannot carry it: Python's repr, saying so, and why."""
    return f"{value!r} (Python's repr; not JSON: {why})"


def _text(value):
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, from a \\uD800-style escape in decoded JSON
        raise NotJson(f"the string {value!r}, which holds half a surrogate pair") from None
    return value


def snapshot(value, other=None):
    """A JSON value equal to what the function received, checked to be JSON."""
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise NotJson(f"the float {value!r}")
        return value
    if isinstance(value, (list, tuple)):
        return [snapshot(item, other) for item in value]
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotJson(f"the key {key!r}")
            out[_text(key)] = snapshot(item, other)
        return out
    plain = other(value) if other is not None else None
    if plain is not None:
        return snapshot(plain, other)
    raise NotJson(f"a {type(value).__name__}: {value!r}")


class Recorder:
    """What a tool's function received, per call: `record(received)` is the function's body (it
    answers "ok"); each call's `snapshot` (with `other`) is kept in `calls`, and a value JSON cannot
    carry is kept as None there, with what it was in `unreadable` (`not_json_text`)."""

    def __init__(self, other=None):
        self.other = other
        self.calls = []
        self.unreadable = None

    def record(self, received):
        try:
            self.calls.append(snapshot(received, self.other))
        except NotJson as why:
            self.calls.append(None)
            self.unreadable = not_json_text(received, why)
        return "ok"
