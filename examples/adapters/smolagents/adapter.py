#!/usr/bin/env python3
"""A tool-conformance adapter (protocol v1) for Hugging Face smolagents (PyPI `smolagents`), on
the path its docs show first: a function with type hints and a docstring with an `Args:` part,
made a tool by the `@tool` decorator (tools.py), given to a `ToolCallingAgent` and called the way
a model's tool call reaches it: an agent run whose model (a scripted smolagents `Model`, no
network) answers with an OpenAI-style tool call carrying the arguments as JSON text, so the
agent's own step (`parse_json_if_needed`, `execute_tool_call`, `validate_tool_arguments`, the
tool called with `sanitize_inputs_outputs=True`) runs as for a real model.

- `structured`: that agent run. smolagents has no HTTP tool endpoint, and no call path of its own
  for a tool call besides an agent's step (the function is the author's own).

Nothing here repairs, validates or rewrites arguments: what the function receives, and the error
the agent records for the step and sends back to the model, are smolagents'.
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

with installed("smolagents", HERE):
    import tools  # noqa: E402  (beside this file)

from tool_conformance_adapter.received import Recorder, snapshot  # noqa: E402

quiet(serializer=True)
warnings.filterwarnings("ignore", category=UserWarning)

# validate_tool_arguments raises at the first problem it meets, one of these texts.
PROBLEMS = (
    (re.compile(r"^Argument (.+) is required$"), "missing_required"),
    (re.compile(r"^Argument (.*) is not in the tool's input schema$"), "unknown_field"),
    (re.compile(r"^Argument (.+) has type '[^']*' but should be '.*'$", re.S), "wrong_type"),
    (re.compile(r"^Argument has type '[^']*' but should be '.*'$", re.S), "wrong_type"),
)


def problems_from(error):
    """The problem smolagents' argument check names (it stops at the first): its kind and field."""
    if type(error).__name__ != "AgentToolCallError":
        return []
    text = str(error)
    for pattern, kind in PROBLEMS:
        found = pattern.match(text)
        if found:
            return [dict({"kind": kind}, **({"field": found.group(1)} if found.groups() else {}))]
    return []


class Runtime(ToolRuntime):
    package, homepage, framework = "smolagents", "https://github.com/huggingface/smolagents", "smolagents"

    def scratch_name(self):
        return "repro"

    def build(self, name, description, schema):
        """The Tool `@tool` makes for the schema's function; Unsupported quoting the refusal when
        there is none (`@tool`, or the agent that is given the tool, raising)."""
        recorder = Recorder()
        make = lambda: tools.make_tool(name, schema, recorder.record)  # noqa: E731
        return signature_tool(self.framework, name, make, tools.NoSignature, check=lambda tool: tools.run_turn([tool], None, "{}")), recorder

    def describe(self, tool, view):
        built, _ = self.entry(tool)
        for published in tools.run_turn([built], None, "{}")["tools"]:
            if published["function"]["name"] == tool:
                return snapshot(published["function"]["parameters"])
        raise protocol.Failure(f"smolagents did not send {tool!r} to the model")

    def run(self, built, transport, arguments):
        """One agent run whose model calls the tool: the error the agent recorded for the call and
        sent the model, or None."""
        try:
            seen = tools.run_turn([built], built.name, dumps(arguments))
        except Exception as why:  # the run itself failed: the error its caller got
            return {"message": f"{type(why).__name__}: {why}", "problems": [], "expected_fields": []}
        error = seen["error"]
        if error is not None:
            return {"message": f"{type(error).__name__}: {error}", "problems": problems_from(error), "expected_fields": []}
        return None


if __name__ == "__main__":
    Runtime.main(__doc__)
