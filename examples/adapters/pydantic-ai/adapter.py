#!/usr/bin/env python3
"""A tool-conformance adapter (protocol v1) for pydantic-ai (PyPI `pydantic-ai-slim`), on the path
its users write: a function tool, `Tool(function)` given to an `Agent`, whose signature says what
the tool's JSON Schema says (tools.py), called the way a model's tool call reaches it: an agent
run whose model (pydantic-ai's own `FunctionModel`, no network) answers with a `ToolCallPart`
holding the arguments as JSON text, so pydantic-ai's own argument parsing, pydantic validation,
retry answer and tool execution run.

- `structured`: that agent run. pydantic-ai has no HTTP tool endpoint, and no call path of its
  own besides a model's tool call (the function is the author's own).

Nothing here repairs, validates or rewrites arguments: what the function receives, and the
error pydantic-ai sends back to the model (a tool return part with outcome `retried`, whose
content is pydantic's error list), are pydantic-ai's.

    .venv/bin/python adapter.py                      # protocol v1 on stdin and stdout
    .venv/bin/python adapter.py --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL
"""

import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
# The protocol half, and what the rows share, is the Python adapter kit of this checkout.
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))

import tool_conformance_adapter as protocol  # noqa: E402
from tool_conformance_adapter.scratch import RegisteredTools, installed_implementation, invoked, normalized, scratch_tool  # noqa: E402
from tool_conformance_adapter import pydantic_errors  # noqa: E402
from tool_conformance_adapter.setup import installed, quiet  # noqa: E402
from tool_conformance_adapter import dumps  # noqa: E402

with installed("pydantic-ai", HERE):
    import tools  # noqa: E402  (beside this file)

from tool_conformance_adapter.received import Recorder, snapshot, to_framework  # noqa: E402

PACKAGE = "pydantic-ai-slim"
TRANSPORTS = ["structured"]
SCRATCH_TOOL = "repro"

quiet(serializer=True)

# pydantic's error types the suite has a name for, with the one a function's keyword-only
# parameter adds; any other type is kept as the problem's kind.
KINDS = {**pydantic_errors.KINDS, "missing_keyword_only_argument": "missing_required"}


def kind_of(error_type):
    return pydantic_errors.kind_of(error_type, KINDS)


def problems_from(errors):
    """The problems of pydantic's error list (what pydantic-ai sends the model): one per kind and
    root field, in pydantic's order, each with pydantic's lines behind it."""
    problems = {}
    for detail in errors if isinstance(errors, list) else []:
        if not isinstance(detail, dict) or "type" not in detail:
            continue
        loc = [str(part) for part in detail.get("loc") or ()]
        kind = kind_of(detail["type"])
        field = loc[0] if loc else None
        problem = problems.setdefault((kind, field), dict({"kind": kind}, **({"field": field} if field is not None else {})))
        problem.setdefault("errors", []).append(f"{'.'.join(loc)}: {detail.get('msg')} [type={detail['type']}]")
    return list(problems.values())



def build(name, description, schema, recorder):
    """The pydantic-ai Tool for the schema; Unsupported quoting the refusal when there is none."""
    try:
        tool, notes = tools.make_tool(name, description, schema, recorder.record)
    except tools.NoSignature as why:
        raise protocol.Unsupported(f"no function signature says this schema: {why}") from None
    except Exception as why:  # pydantic-ai or pydantic refusing the signature, quoted as raised
        raise protocol.Unsupported(f"pydantic-ai refused the function: {type(why).__name__}: {why}") from None
    for note in notes:
        sys.stderr.write(f"[pydantic-ai adapter] {name}: {note}\n")
    return tool


class Runtime(RegisteredTools):
    def __init__(self):
        self.tools = {}  # name -> (Tool, Recorder)
        self.refused = {}  # name -> why pydantic-ai refused it
        self.scratch = {}  # schema text -> (Tool, Recorder) or why not

    def register(self, tool_list):
        self.tools, self.refused = {}, {}
        for tool in tool_list:
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str) or "input_schema" not in tool:
                raise protocol.Failure("a tool needs a string name and an input_schema")
            recorder = Recorder()
            try:
                built = build(tool["name"], tool.get("description"), to_framework(tool["input_schema"]), recorder)
            except protocol.Unsupported as why:
                self.refused[tool["name"]] = str(why)
                continue
            self.tools[tool["name"]] = (built, recorder)
        # pydantic-ai checks a tool's signature when the agent first prepares its tools: a run
        # that shows the model every tool, so that a refusal is pydantic-ai's own, per tool.
        for name, (built, recorder) in list(self.tools.items()):
            try:
                tools.run_turn([built], None, "")
            except Exception as why:  # pydantic-ai (or pydantic) refusing the signature
                del self.tools[name]
                self.refused[name] = f"pydantic-ai refused the function: {type(why).__name__}: {why}"

    def describe(self, tool, view):
        built, _ = self.entry(tool)
        seen = tools.run_turn([built], None, "")
        for definition in seen["tools"] or []:
            if definition.name == tool:
                return snapshot(definition.parameters_json_schema)
        raise protocol.Failure(f"pydantic-ai did not show {tool!r} to the model")

    def call(self, built, recorder, arguments):
        """One agent run whose model calls the tool; (what the function received per run, the
        error the model was sent or None)."""
        recorder.calls, recorder.unreadable = [], None
        try:
            seen = tools.run_turn([built], built.name, dumps(arguments))
        except Exception as why:  # the run itself failed: the error its caller got
            return list(recorder.calls), {"message": f"{type(why).__name__}: {why}", "problems": [], "expected_fields": []}
        if recorder.unreadable is not None:
            raise protocol.Failure(f"the tool received a value JSON cannot carry: {recorder.unreadable}")
        returned = seen["returned"]
        error = None
        if returned is not None and returned.outcome != "success":
            error = {
                "message": returned.model_response_str(),
                "problems": problems_from(returned.content),
                "expected_fields": [],
            }
        return list(recorder.calls), error

    def invoke(self, transport, tool, arguments, handler):
        if transport != "structured":
            raise protocol.Unsupported(f"no transport {transport!r}")
        built, recorder = self.entry(tool)
        calls, error = self.call(built, recorder, arguments)
        return invoked(calls, error, handler, "pydantic-ai")

    def normalize(self, input_schema, arguments):
        """What reaches a tool with this schema when a model calls it: what the function
        received, or `rejected` with the error pydantic-ai sent the model."""
        def scratch():
            recorder = Recorder()
            try:
                built = build(SCRATCH_TOOL, None, to_framework(input_schema), recorder)
                tools.run_turn([built], None, "")
            except protocol.Unsupported:
                raise
            except Exception as why:
                raise protocol.Unsupported(f"pydantic-ai refused the function: {type(why).__name__}: {why}") from None
            return built, recorder

        built, recorder = scratch_tool(self.scratch, dumps(input_schema), scratch)
        calls, error = self.call(built, recorder, arguments)
        return normalized(calls, error, "pydantic-ai")


def implementation():
    return installed_implementation(PACKAGE, "https://github.com/pydantic/pydantic-ai", list(TRANSPORTS))


if __name__ == "__main__":
    protocol.main(implementation(), Runtime, description=__doc__.splitlines()[0])
