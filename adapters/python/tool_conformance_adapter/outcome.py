"""The outcome lines of a reproduction (docs/protocol.md, "The reproduction template"), printed
the one way `run-frameworks.sh --check` reads them back and compares them with the page:

- `received(value)`: `the tool received: <JSON>`, what a tool's handler received, as compact JSON
  text (keys in their order, non-ASCII kept); a value JSON cannot hold is printed with `repr` after
  `(not JSON)`, which then compares by its kind alone;
- `caller_got(error)`: `the caller got: <text>`, the error the caller got (an exception as its
  type's name and its text).

`received` returns `"ok"`, so it can be a tool's body. Both print to stdout and flush.

Before them, a reproduction of a row whose tool is a function written from the schema shows that
function (`function_shown`): `the function: def <name><signature>`, and a line for each note on
how its signature says the schema.
"""

import inspect

import json
import sys


def received(value):
    """Prints `the tool received: <JSON>` for `value`; returns "ok"."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError):
        text = "(not JSON) " + repr(value)
    sys.stdout.write(f"the tool received: {text}\n")
    sys.stdout.flush()
    return "ok"


def caller_got(error):
    """Prints `the caller got: <text>` for an exception or a text."""
    text = f"{type(error).__name__}: {error}" if isinstance(error, BaseException) else str(error)
    sys.stdout.write("the caller got: " + text.replace("\n", " ") + "\n")
    sys.stdout.flush()


def function_shown(name, function, notes=()):
    """Prints `the function: def <name><signature>` for `function`, then `  ( <note> )` a note."""
    print("the function:", f"def {name}{inspect.signature(function)}")
    for note in notes:
        print("  (", note, ")")
