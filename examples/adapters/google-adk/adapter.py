#!/usr/bin/env python3
"""A tool-conformance adapter (protocol v1) for Google's Agent Development Kit (PyPI `google-adk`),
on the path its users write: `FunctionTool(func)` on a function whose signature says what the
tool's JSON Schema says (tools.py), given to an `LlmAgent` and called the way a model's function
call reaches it: an `InMemoryRunner` run whose model (a scripted `BaseLlm`, no network) answers
with a Gemini API response holding the function call, read by google-genai's own decoder, so
ADK's own function-call handling (`FunctionTool.run_async`) runs as for a real model.

- `structured`: that agent run. ADK has no HTTP tool endpoint of its own, and no call path of its
  own besides a model's function call (the function is the author's own).

Nothing here repairs, validates or rewrites arguments: what the function receives, and the error
ADK sends back to the model (a function response `{"error": ...}`), are ADK's.

    .venv/bin/python adapter.py                      # protocol v1 on stdin and stdout
    .venv/bin/python adapter.py --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL
"""

import os
import re
import sys
import warnings

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
# The protocol half, and what the rows share, is the Python adapter kit of this checkout.
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))

import tool_conformance_adapter as protocol  # noqa: E402
from tool_conformance_adapter.scratch import RegisteredTools, installed_implementation, invoked, normalized, scratch_tool  # noqa: E402
from tool_conformance_adapter.setup import installed, quiet  # noqa: E402
from tool_conformance_adapter import dumps  # noqa: E402

with installed("google-adk", HERE):
    import tools  # noqa: E402  (beside this file)

from tool_conformance_adapter.received import Recorder, snapshot, to_framework  # noqa: E402

PACKAGE = "google-adk"
TRANSPORTS = ["structured"]
SCRATCH_TOOL = "repro"

quiet(serializer=True)
warnings.filterwarnings("ignore", category=UserWarning)

# "Invoking `t()` failed as the following mandatory input parameters are not present:\na\nb\n..."
MISSING = re.compile(r"mandatory input parameters are not present:\n(.*?)\nYou could retry", re.S)


def problems_from(message):
    """The problems ADK's error text names: its only structured content is the list of missing
    mandatory parameters (one a line)."""
    found = MISSING.search(message)
    if not found:
        return []
    return [{"kind": "missing_required", "field": name} for name in found.group(1).split("\n") if name]



def build(name, schema, recorder):
    """The FunctionTool for the schema; Unsupported quoting the refusal when there is none."""
    try:
        tool, notes = tools.make_tool(name, schema, recorder.record)
        tools.run_turn([tool], None, "{}")  # ADK builds the declaration here: its refusal, if any
    except tools.NoSignature as why:
        raise protocol.Unsupported(f"no function signature says this schema: {why}") from None
    except Exception as why:  # ADK or pydantic refusing the function, quoted as raised
        raise protocol.Unsupported(f"google-adk refused the function: {type(why).__name__}: {why}") from None
    for note in notes:
        sys.stderr.write(f"[google-adk adapter] {name}: {note}\n")
    return tool


class Runtime(RegisteredTools):
    def __init__(self):
        self.tools = {}  # name -> (FunctionTool, Recorder)
        self.refused = {}  # name -> why it could not be made
        self.scratch = {}  # schema text -> (FunctionTool, Recorder) or why not

    def register(self, tool_list):
        self.tools, self.refused = {}, {}
        for tool in tool_list:
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str) or "input_schema" not in tool:
                raise protocol.Failure("a tool needs a string name and an input_schema")
            recorder = Recorder()
            try:
                self.tools[tool["name"]] = (build(tool["name"], to_framework(tool["input_schema"]), recorder), recorder)
            except protocol.Unsupported as why:
                self.refused[tool["name"]] = str(why)

    def describe(self, tool, view):
        built, _ = self.entry(tool)
        for declaration in tools.run_turn([built], None, "{}").get("declarations") or []:
            if declaration.name == tool:
                schema = declaration.parameters_json_schema
                if schema is None and declaration.parameters is not None:
                    schema = declaration.parameters.model_dump(mode="json", exclude_none=True)
                return snapshot(schema)
        raise protocol.Failure(f"google-adk did not declare {tool!r} to the model")

    def call(self, built, recorder, arguments):
        """One agent run whose model calls the tool: (what the function received per run, the
        error ADK sent the model or the run raised, or None)."""
        recorder.calls, recorder.unreadable = [], None
        try:
            seen = tools.run_turn([built], built.name, dumps(arguments))
        except Exception as why:  # the run itself failed (google-genai refusing the call, say)
            return list(recorder.calls), {"message": f"{type(why).__name__}: {why}", "problems": [], "expected_fields": []}
        if recorder.unreadable is not None:
            raise protocol.Failure(f"the tool received a value JSON cannot carry: {recorder.unreadable}")
        response = seen.get("response")
        error = None
        if isinstance(response, dict) and "error" in response:
            message = str(response["error"])
            error = {"message": message, "problems": problems_from(message), "expected_fields": []}
        return list(recorder.calls), error

    def invoke(self, transport, tool, arguments, handler):
        if transport != "structured":
            raise protocol.Unsupported(f"no transport {transport!r}")
        built, recorder = self.entry(tool)
        calls, error = self.call(built, recorder, arguments)
        return invoked(calls, error, handler, "google-adk")

    def normalize(self, input_schema, arguments):
        """What reaches a tool with this schema when a model calls it: what the function
        received, or `rejected` with the error ADK sent the model."""
        def scratch():
            recorder = Recorder()
            return build(SCRATCH_TOOL, to_framework(input_schema), recorder), recorder

        built, recorder = scratch_tool(self.scratch, dumps(input_schema), scratch)
        calls, error = self.call(built, recorder, arguments)
        return normalized(calls, error, "google-adk")


def implementation():
    return installed_implementation(PACKAGE, "https://github.com/google/adk-python", list(TRANSPORTS))


if __name__ == "__main__":
    protocol.main(implementation(), Runtime, description=__doc__.splitlines()[0])
