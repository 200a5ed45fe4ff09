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
"""

import os
import re
import sys
import warnings

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the kit: the protocol, what rows share

import tool_conformance_adapter as protocol  # noqa: E402
from tool_conformance_adapter.runtime import ToolRuntime, signature_tool  # noqa: E402
from tool_conformance_adapter.setup import installed, quiet  # noqa: E402
from tool_conformance_adapter import dumps  # noqa: E402

with installed("google-adk", HERE):
    import tools  # noqa: E402  (beside this file)

from tool_conformance_adapter.received import Recorder, snapshot  # noqa: E402

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



class Runtime(ToolRuntime):
    package, homepage, framework = "google-adk", "https://github.com/google/adk-python", "google-adk"

    def scratch_name(self):
        return "repro"

    def build(self, name, description, schema):
        """The FunctionTool for the schema; Unsupported quoting the refusal when there is none. ADK
        builds the function's declaration when an agent first runs with it: its refusal, if any."""
        recorder = Recorder()
        make = lambda: tools.make_tool(name, schema, recorder.record)  # noqa: E731
        return signature_tool(self.framework, name, make, tools.NoSignature, check=lambda tool: tools.run_turn([tool], None, "{}")), recorder

    def describe(self, tool, view):
        built, _ = self.entry(tool)
        for declaration in tools.run_turn([built], None, "{}").get("declarations") or []:
            if declaration.name == tool:
                schema = declaration.parameters_json_schema
                if schema is None and declaration.parameters is not None:
                    schema = declaration.parameters.model_dump(mode="json", exclude_none=True)
                return snapshot(schema)
        raise protocol.Failure(f"google-adk did not declare {tool!r} to the model")

    def run(self, built, transport, arguments):
        """One agent run whose model calls the tool: the error ADK sent the model or the run
        raised, or None."""
        try:
            seen = tools.run_turn([built], built.name, dumps(arguments))
        except Exception as why:  # the run itself failed (google-genai refusing the call, say)
            return {"message": f"{type(why).__name__}: {why}", "problems": [], "expected_fields": []}
        response = seen.get("response")
        if isinstance(response, dict) and "error" in response:
            message = str(response["error"])
            return {"message": message, "problems": problems_from(message), "expected_fields": []}
        return None


if __name__ == "__main__":
    Runtime.main(__doc__)
