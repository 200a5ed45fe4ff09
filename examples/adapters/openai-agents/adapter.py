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

See README.md beside this file for what is measured and every choice.
"""

import asyncio
import logging
import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the kit: the protocol, what rows share

import tool_conformance_adapter as protocol  # noqa: E402
from tool_conformance_adapter.runtime import ToolRuntime  # noqa: E402
from tool_conformance_adapter.setup import installed, quiet  # noqa: E402
from tool_conformance_adapter import dumps  # noqa: E402

os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")  # no trace export: nothing leaves the machine
sys.path.insert(0, HERE)  # tool.py, also when this file is run by another row's adapter
with installed("openai-agents", HERE):
    from agents import function_tool  # noqa: E402
    from agents.tool_context import ToolContext  # noqa: E402

import tool as tool_builder  # noqa: E402  (tool.py beside this file: the tool a user writes)
from tool_conformance_adapter.received import Recorder, snapshot  # noqa: E402

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


class Runtime(ToolRuntime):
    package, homepage = "openai-agents", "https://github.com/openai/openai-agents-python"

    def __init__(self):
        super().__init__()
        self.loop = asyncio.new_event_loop()

    def close(self):
        self.loop.close()

    def build(self, name, description, schema):
        return build_tool(name, description, schema)

    def describe(self, tool, view):
        # The one schema the SDK publishes: the strict JSON schema it sends the model.
        return snapshot(self.entry(tool)[0].params_json_schema, tool_builder.plain_model)

    def run(self, tool, transport, arguments):
        """The model's tool call as the Runner makes it: on_invoke_tool(ToolContext, JSON text).
        The error is what the model got, which stands only where the function did not run."""
        text = dumps(arguments)  # the arguments as the model sends them: exact digits, key order
        output, raised = tool_builder.call(tool, text, self.loop)
        return {
            "message": str(output) if raised is None else f"{type(raised).__name__}: {raised}",
            "problems": [],  # the model gets the fixed text: it names no problem
            "expected_fields": [],
        }


if __name__ == "__main__":
    Runtime.main(__doc__)
