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
"""

import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the kit: the protocol, what rows share

import tool_conformance_adapter as protocol  # noqa: E402
from tool_conformance_adapter.runtime import ToolRuntime, signature_tool  # noqa: E402
from tool_conformance_adapter import pydantic_errors  # noqa: E402
from tool_conformance_adapter.setup import installed, quiet  # noqa: E402
from tool_conformance_adapter import dumps  # noqa: E402

with installed("pydantic-ai", HERE):
    import tools  # noqa: E402  (beside this file)

from tool_conformance_adapter.received import Recorder, snapshot  # noqa: E402

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



class Runtime(ToolRuntime):
    package, homepage, framework = "pydantic-ai-slim", "https://github.com/pydantic/pydantic-ai", "pydantic-ai"

    def scratch_name(self):
        return "repro"

    def build(self, name, description, schema):
        """The pydantic-ai Tool for the schema; Unsupported quoting the refusal when there is none.
        pydantic-ai checks a tool's signature when an agent first prepares its tools: a run that
        shows the model the tool, so that a refusal is pydantic-ai's own."""
        recorder = Recorder()
        make = lambda: tools.make_tool(name, description, schema, recorder.record)  # noqa: E731
        return signature_tool(self.framework, name, make, tools.NoSignature, check=lambda tool: tools.run_turn([tool], None, "")), recorder

    def describe(self, tool, view):
        built, _ = self.entry(tool)
        seen = tools.run_turn([built], None, "")
        for definition in seen["tools"] or []:
            if definition.name == tool:
                return snapshot(definition.parameters_json_schema)
        raise protocol.Failure(f"pydantic-ai did not show {tool!r} to the model")

    def run(self, built, transport, arguments):
        """One agent run whose model calls the tool: the error the model was sent, or None."""
        try:
            seen = tools.run_turn([built], built.name, dumps(arguments))
        except Exception as why:  # the run itself failed: the error its caller got
            return {"message": f"{type(why).__name__}: {why}", "problems": [], "expected_fields": []}
        returned = seen["returned"]
        if returned is not None and returned.outcome != "success":
            return {
                "message": returned.model_response_str(),
                "problems": problems_from(returned.content),
                "expected_fields": [],
            }
        return None


if __name__ == "__main__":
    Runtime.main(__doc__)
