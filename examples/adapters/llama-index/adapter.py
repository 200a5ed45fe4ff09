#!/usr/bin/env python3
"""A tool-conformance adapter (protocol v1) for LlamaIndex (PyPI `llama-index-core`), used as it
is: each tool is `FunctionTool.from_defaults` on a plain Python function whose signature says the
tool's JSON Schema. LlamaIndex validates nothing: the fn_schema it derives from the signature is
only published; a call hands the arguments to the function as Python keyword arguments.

- `direct`: `await tool.acall(**arguments)`, what LlamaIndex's agent workflows (FunctionAgent,
  ReActAgent, AgentWorkflow) do with a tool call's `tool_kwargs`, the arguments as a dict of
  `json.loads` values.
- `structured`: the model's tool call as text, read by LlamaIndex's own decoder
  (`llama_index.core.llms.utils.parse_partial_json`, what the LLM integrations use) into a
  `ToolSelection`, and dispatched by `call_tool_with_selection`, what `LLM.predict_and_call` does.

Nothing here repairs, validates or rewrites arguments. A call the function cannot take fails with
Python's own TypeError (the function is a real `def`), which the caller gets as the exception
(direct) or as the error ToolOutput (structured); its problems are read from that text, the only
thing there is.

See README.md beside this file for what is measured and every choice.
"""

import asyncio
import os
import re
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the kit: the protocol, what rows share

import tool_conformance_adapter as protocol  # noqa: E402
from tool_conformance_adapter.runtime import ToolRuntime  # noqa: E402
from tool_conformance_adapter.setup import installed, quiet  # noqa: E402
from tool_conformance_adapter import dumps  # noqa: E402

with installed("llama-index-core", HERE):
    from llama_index.core.llms.llm import ToolSelection  # noqa: E402
    from llama_index.core.llms.utils import parse_partial_json  # noqa: E402
    from llama_index.core.tools import FunctionTool, call_tool_with_selection  # noqa: E402

import tool as tool_builder  # noqa: E402  (tool.py beside this file: the tool a user writes)
from tool_conformance_adapter.received import Recorder, snapshot, to_framework  # noqa: E402

quiet()


# Python's own TypeError when a call does not fit the function's parameters: the only account of a
# refused call there is, so its problems are read from the text.
MISSING = re.compile(r"missing \d+ required (?:positional|keyword-only) arguments?: (?P<names>.*)$")
UNEXPECTED = re.compile(r"got an unexpected keyword argument '(?P<name>[^']*)'")
QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")


def problems_from_type_error(text):
    problems = [{"kind": "missing_required", "field": name} for name in QUOTED.findall(MISSING.search(text).group("names"))] if MISSING.search(text) else []
    unexpected = UNEXPECTED.search(text)
    if unexpected:
        problems.append({"kind": "unknown_field", "field": unexpected.group("name")})
    return problems


def error_of(why, message=None):
    """The error object for an exception: its text (or the ToolOutput's content), and the problems
    of a TypeError's text. LlamaIndex lists no expected fields."""
    problems = problems_from_type_error(str(why)) if isinstance(why, TypeError) else []
    return {
        "message": message if message is not None else f"{type(why).__name__}: {why}",
        "problems": problems,
        "expected_fields": [],
    }


# ---------------------------------------------------------------------------------------------
# A tool from a schema: the function a LlamaIndex user writes, given to FunctionTool.from_defaults.



def build_tool(name, description, schema):
    """(FunctionTool, Recorder), the tool built by tool.py as a LlamaIndex user writes it.
    Unsupported only where no function stands for the schema at all (its root is no object), or
    where LlamaIndex itself refuses the function, with its own error."""
    # The function ran: what it received is answered even where a value is no JSON (a required
    # name left out reaches a `= Field(...)` parameter as pydantic's FieldInfo), as the text the
    # reproductions print for it, `(not JSON) <repr>`; only what not even that can carry (half a
    # surrogate pair in a string) makes the call an error.
    recorder = Recorder(other=lambda value: f"(not JSON) {value!r}")
    try:
        built, _ = tool_builder.build_tool(name, description, schema, recorder.record)
    except tool_builder.Unmappable as why:
        raise protocol.Unsupported(f"no Python function takes these arguments as keyword arguments: {why}") from None
    except Exception as why:  # LlamaIndex (or pydantic under it) refusing the function
        raise protocol.Unsupported(f"FunctionTool.from_defaults refused it: {type(why).__name__}: {why}") from None
    return built, recorder


# ---------------------------------------------------------------------------------------------
# The runtime behind protocol.Session.


class Runtime(ToolRuntime):
    package, homepage, framework = "llama-index-core", "https://github.com/run-llama/llama_index", "LlamaIndex"
    transports = ("direct", "structured")

    def __init__(self):
        super().__init__()
        self.loop = asyncio.new_event_loop()

    def close(self):
        self.loop.close()

    build = staticmethod(build_tool)

    def describe(self, tool, view):
        # The parameters LlamaIndex publishes for the tool (what to_openai_tool sends a provider).
        return snapshot(self.entry(tool)[0].metadata.get_parameters_dict())

    def run(self, tool, transport, arguments):
        if transport == "direct":
            # An agent workflow's call: the LLM integration's ToolSelection (whose tool_kwargs
            # validator turns arguments that are no object into {}), then acall(**tool_kwargs).
            selection = ToolSelection(tool_id="call_1", tool_name=tool.metadata.name, tool_kwargs=to_framework(arguments))
            try:
                self.loop.run_until_complete(tool.acall(**selection.tool_kwargs))
            except Exception as why:  # what the caller got
                return error_of(why)
            return None
        # structured: the model's arguments text (exact digits, key order), read by LlamaIndex
        kwargs = parse_partial_json(dumps(arguments))
        selection = ToolSelection(tool_id="call_1", tool_name=tool.metadata.name, tool_kwargs=kwargs)
        output = call_tool_with_selection(selection, [tool])
        if output.is_error:
            why = output.exception if output.exception is not None else Exception(output.content)
            return error_of(why, message=output.content)
        return None


if __name__ == "__main__":
    Runtime.main(__doc__)
