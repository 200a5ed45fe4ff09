#!/usr/bin/env python3
"""A tool-conformance adapter (protocol v1) for the OpenAI Agents SDK (PyPI `openai-agents`), used
as it is: each tool is `function_tool` on a function whose signature says the tool's JSON Schema,
in the SDK's default configuration (strict JSON schema, the default failure error function).

- `structured`: the one path the SDK has for a model's tool call, the one its Runner takes:
  `FunctionTool.on_invoke_tool(ToolContext, arguments_json_text)`. The SDK decodes the text
  (`json.loads`), validates it with the pydantic model it built from the signature, and calls the
  function. No `direct` (the SDK has no call that takes the arguments as a value) and no `http`.

Nothing here repairs, validates or rewrites arguments. When the SDK refuses a call, the caller
(the model) gets the text its default failure error function returns, which names no problem, so
the answer names none either.

    .venv/bin/python adapter.py                      # protocol v1 on stdin and stdout
    .venv/bin/python adapter.py --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL

See README.md beside this file for what is measured and every choice.
"""

import asyncio
import json
import logging
import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
# The protocol half, and what the rows share, is the Python adapter kit of this checkout.
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))

import tool_conformance_adapter as protocol  # noqa: E402
from tool_conformance_adapter.scratch import RegisteredTools, installed_implementation, invoked, normalized, scratch_tool  # noqa: E402
from tool_conformance_adapter.setup import installed, quiet  # noqa: E402
from tool_conformance_adapter import dumps  # noqa: E402

os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")  # no trace export: nothing leaves the machine
sys.path.insert(0, HERE)  # tool.py, also when this file is run by another row's adapter
with installed("openai-agents", HERE):
    from agents import function_tool  # noqa: E402
    from agents.tool_context import ToolContext  # noqa: E402

import tool as tool_builder  # noqa: E402  (tool.py beside this file: the tool a user writes)
from tool_conformance_adapter.received import Recorder, snapshot, to_framework  # noqa: E402

PACKAGE = "openai-agents"
TRANSPORTS = ["structured"]

quiet(level=logging.CRITICAL)


# The SDK logs each refused call on `openai.agents`; stderr is kept for real trouble.
logging.getLogger("openai.agents").setLevel(logging.CRITICAL)


# ---------------------------------------------------------------------------------------------
# A tool from a schema: the function an SDK user writes (tool.py), given to function_tool.

# The strict mode: "default" (function_tool as it is) or "fallback" (strict_mode=False where the
# default refuses, the openai-agents-nonstrict row, which sets it before the session starts).
STRICT = "default"



def build_tool(name, description, schema):
    """(FunctionTool, Recorder) for the schema, built by tool.py as an SDK user writes it.
    Unsupported only where no function stands for the schema at all (its root is no object), or
    where function_tool itself refuses the function, with the SDK's own error."""
    recorder = Recorder(tool_builder.plain_model)  # under the schema's names
    try:
        built, _ = tool_builder.build_tool(name, description, schema, recorder.record, strict=STRICT)
    except tool_builder.Unmappable as why:
        raise protocol.Unsupported(f"no Python function takes these arguments as keyword arguments: {why}") from None
    except Exception as why:  # the SDK's UserError, say
        raise protocol.Unsupported(f"function_tool refused the function: {type(why).__name__}: {why}") from None
    return built, recorder


# ---------------------------------------------------------------------------------------------
# The runtime behind protocol.Session.


class Runtime(RegisteredTools):
    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.tools = {}  # name -> (FunctionTool, Recorder)
        self.refused = {}  # name -> why it could not be registered
        self.scratch = {}  # schema text -> (tool, recorder) or why not
        self.counter = 0

    def close(self):
        self.loop.close()

    def register(self, tools):
        self.tools, self.refused = {}, {}
        for tool in tools:
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str) or "input_schema" not in tool:
                raise protocol.Failure("a tool needs a string name and an input_schema")
            try:
                self.tools[tool["name"]] = build_tool(
                    tool["name"], tool.get("description"), to_framework(tool["input_schema"])
                )
            except protocol.Unsupported as why:
                self.refused[tool["name"]] = str(why)  # the other tools still register

    def describe(self, tool, view):
        # The one schema the SDK publishes: the strict JSON schema it sends the model.
        return snapshot(self.entry(tool)[0].params_json_schema, tool_builder.plain_model)

    def call(self, tool, recorder, arguments):
        """The model's tool call as the Runner makes it: on_invoke_tool(ToolContext, JSON text).
        Returns (what the function received per run, the caller's error or None)."""
        text = dumps(arguments)  # the arguments as the model sends them: exact digits, key order
        recorder.calls, recorder.unreadable = [], None
        output, raised = tool_builder.call(tool, text, self.loop)
        if recorder.unreadable is not None:
            raise protocol.Failure(f"the tool received a value JSON cannot carry: {recorder.unreadable}")
        if recorder.calls:
            return list(recorder.calls), None
        error = {
            "message": str(output) if raised is None else f"{type(raised).__name__}: {raised}",
            "problems": [],  # the model gets the fixed text: it names no problem
            "expected_fields": [],
        }
        return [], error

    def invoke(self, transport, tool, arguments, handler):
        if transport != "structured":
            raise protocol.Unsupported(f"no transport {transport!r}")
        built, recorder = self.entry(tool)
        calls, error = self.call(built, recorder, arguments)
        return invoked(calls, error, handler)

    def normalize(self, input_schema, arguments):
        """What reaches a tool with this schema when the Runner calls it: what the function
        received, or `rejected` with the text the model got when the SDK refused the call."""
        key = dumps(input_schema)

        def scratch():
            self.counter += 1
            return build_tool(f"normalize_{self.counter}", None, json.loads(key))

        built, recorder = scratch_tool(self.scratch, key, scratch)
        calls, error = self.call(built, recorder, arguments)
        return normalized(calls, error)


def implementation():
    return installed_implementation(PACKAGE, "https://github.com/openai/openai-agents-python", TRANSPORTS)


if __name__ == "__main__":
    protocol.main(implementation(), Runtime, description=__doc__.splitlines()[0])
