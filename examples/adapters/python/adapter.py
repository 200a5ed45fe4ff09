#!/usr/bin/env python3
"""A tool-conformance adapter in plain Python 3: protocol v1 over stdio or HTTP (the Python kit,
adapters/python/, package tool-conformance-adapter), in front of a small tool runtime that
implements RT-TOOL-8 and PLAT-162 (rules.py).

    python3 adapter.py                      # protocol v1 on stdin and stdout (the default)
    python3 adapter.py --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL it serves

The kit is used installed (`pip install ./adapters/python`) or, when it is not, from this
repository's adapters/python/. To put your own runtime behind the protocol, keep the kit and
replace Runtime with calls into your runtime: register your tools with a recording handler, call them the way each transport
would, and report what the handler saw. See docs/protocol.md for every message.
"""

import os
import sys

try:
    import tool_conformance_adapter as kit
except ImportError:  # not installed: the kit in this repository
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "adapters", "python"))
    import tool_conformance_adapter as kit

import rules  # noqa: E402 (after the kit is found)
from tool_conformance_adapter import dumps, loads  # noqa: E402

IMPLEMENTATION = kit.Implementation(
    name="python-example-adapter",
    version="1.0.0",
    language="python",
    rules=["RT-TOOL-8", "PLAT-162"],
    transports=["direct", "structured", "http"],
)


class Runtime:
    """The runtime under test: a registry of executors, reached by three transports that each
    decode their own wire form and resolve the same registered executor."""

    def __init__(self):
        self.executors = {}

    def register(self, tools):
        executors = {}
        for tool in tools:
            if tool["name"] in executors:
                raise kit.Unsupported(f"tool {tool['name']} is registered twice")
            executors[tool["name"]] = rules.Executor(tool)
        self.executors = executors

    def executor(self, name):
        if name not in self.executors:
            raise kit.Failure(f"no tool named {name!r} is registered")
        return self.executors[name]

    def describe(self, tool, view):
        # Both views publish the one registered schema.
        return self.executor(tool).schema

    def normalize(self, input_schema, arguments):
        return rules.normalize(input_schema, arguments)

    def invoke(self, transport, tool, arguments, handler):
        """One call as it arrives on `transport`; returns None (executed) or the error object."""
        if transport == "direct":
            return self.executor(tool).execute(arguments, handler)
        if transport == "structured":
            message = dumps({"name": tool, "arguments": arguments})
            envelope = loads(message)
            return self.executor(envelope["name"]).execute(envelope.get("arguments"), handler)
        if transport == "http":
            path, body = "/tools/" + tool, dumps(arguments)
            return self.executor(path[len("/tools/"):]).execute(loads(body), handler)
        raise kit.Unsupported(f"no transport {transport!r}")


if __name__ == "__main__":
    # rules.py reads every number as a Decimal (its minItems, multipleOf and bounds checks among them).
    kit.main(IMPLEMENTATION, Runtime, description=__doc__.splitlines()[0], numbers="decimal")
