#!/usr/bin/env python3
"""A tool-conformance adapter (protocol v1) for langchain-core (PyPI `langchain-core`), used as it
is, on its other tool path: a `StructuredTool` whose `args_schema` is the tool's JSON Schema itself
(a dict), with a function that takes `**kwargs`. langchain-core publishes that dict as it is and
validates nothing against it.

- `direct`: `tool.invoke(arguments)`, the arguments as a dict of the values a JSON parser makes.
- `structured`: the provider's tool call read by langchain-core's `parse_tool_call`, the resulting
  `ToolCall` dict handed to `tool.invoke`, as an agent's tool node does.

The runtime, the transports, the recording and the error mapping are the signature adapter's
(`../langchain-core-signature/adapter.py`, loaded from the same checkout); only the tool differs.

    .venv/bin/python adapter.py                      # protocol v1 on stdin and stdout
    .venv/bin/python adapter.py --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL

See README.md beside this file for what is measured and every choice.
"""

import importlib.util
import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "langchain_core_signature_adapter", os.path.join(HERE, "..", "langchain-core-signature", "adapter.py")
)
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)  # imports langchain-core, the kit and pydantic; runs no main

from langchain_core.tools import StructuredTool  # noqa: E402

protocol = base.protocol


def build_tool(name, description, schema, recorder):
    """A StructuredTool whose args_schema is the JSON Schema itself, over a function taking
    **kwargs that records them."""

    def tool_function(**kwargs):
        return recorder.record(kwargs)

    tool_function.__name__ = tool_function.__qualname__ = name
    try:
        return StructuredTool(name=name, description=description or name, args_schema=schema, func=tool_function)
    except Exception as why:  # a schema that is not a dict: StructuredTool's own model refuses it
        raise protocol.Unsupported(f"StructuredTool refused the args_schema: {type(why).__name__}: {why}") from None


class Runtime(base.Runtime):
    make = staticmethod(build_tool)


if __name__ == "__main__":
    Runtime.main(__doc__)
