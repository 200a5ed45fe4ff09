#!/usr/bin/env python3
"""A tool-conformance adapter (protocol v1) for langchain-core (PyPI `langchain-core`), used as it
is: a `StructuredTool` made with `StructuredTool.from_function` from a function whose signature
says what the tool's JSON Schema says (the args schema is the one langchain-core derives from that
signature).

- `direct`: `tool.invoke(arguments)`, the arguments as a dict of the values a JSON parser makes:
  a tool called in process, as users call one.
- `structured`: the model's tool call as a provider sends it (`{"id", "type": "function",
  "function": {"name", "arguments": JSON text}}`), read by langchain-core's own decoder
  (`langchain_core.output_parsers.openai_tools.parse_tool_call`, what the chat model integrations
  use), and the resulting `ToolCall` dict handed to `tool.invoke`, as an agent's tool node does.

Nothing here repairs, validates or rewrites arguments: what the function receives, and the
exception the caller gets, are langchain-core's. The problems of a rejected call are those of the
pydantic `ValidationError` it raised (`errors()`).

See README.md beside this file for what is measured and every choice.
"""

import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))  # the kit: the protocol, what rows share

import tool_conformance_adapter as protocol  # noqa: E402
from tool_conformance_adapter.runtime import ToolRuntime  # noqa: E402
from tool_conformance_adapter.pydantic_errors import kind_of  # noqa: E402
from tool_conformance_adapter.setup import installed, quiet  # noqa: E402
from tool_conformance_adapter import dumps  # noqa: E402

with installed("langchain-core", HERE):
    import pydantic  # noqa: E402
    from langchain_core.output_parsers.openai_tools import parse_tool_call  # noqa: E402
    from langchain_core.tools import StructuredTool  # noqa: E402
    from langchain_core.utils.function_calling import convert_to_openai_tool  # noqa: E402

sys.path.insert(0, HERE)  # tool.py, also when the langchain-core-dict row loads this file
import tool as tool_builder  # noqa: E402  (tool.py beside this file: the tool a user writes)
from tool_conformance_adapter.received import Recorder, snapshot, to_framework  # noqa: E402

# NOT_SENT is not JSON: pydantic says so when it writes the schema or dumps the model.
quiet(serializer=True)


def problems_from_validation(error):
    """The problems of a pydantic ValidationError (`errors()`): one per kind and root field, in
    the order pydantic lists them, each with pydantic's lines behind it."""
    problems = {}
    for detail in error.errors(include_url=False, include_context=False, include_input=False):
        loc = [str(part) for part in detail.get("loc") or ()]
        kind = kind_of(detail["type"])
        field = loc[0] if loc else None
        problem = problems.setdefault((kind, field), dict({"kind": kind}, **({"field": field} if field else {})))
        problem.setdefault("errors", []).append(f"{'.'.join(loc)}: {detail['msg']} [type={detail['type']}]")
    return list(problems.values())


def error_of(why):
    """The error object for an exception the caller got: its text, and the problems of a
    ValidationError (none for any other exception). langchain-core's errors list no expected fields."""
    problems = problems_from_validation(why) if isinstance(why, pydantic.ValidationError) else []
    return {"message": f"{type(why).__name__}: {why}", "problems": problems, "expected_fields": []}


# ---------------------------------------------------------------------------------------------
# A tool from a schema: the function a langchain user writes, given to StructuredTool.from_function.



def build_tool(name, description, schema, recorder):
    """A StructuredTool built by tool.py as a langchain user writes it. Unsupported only where no
    function stands for the schema at all (its root is no object), or where langchain-core itself
    refuses the function, with its own error."""
    try:
        return tool_builder.build_tool(name, description, schema, recorder.record)
    except tool_builder.Unmappable as why:
        raise protocol.Unsupported(f"no Python function takes these arguments as keyword arguments: {why}") from None
    except Exception as why:  # pydantic refusing the signature, say
        raise protocol.Unsupported(f"StructuredTool.from_function refused it: {type(why).__name__}: {why}") from None


def published_schema(tool):
    """The parameters langchain-core hands a provider for the tool (`convert_to_openai_tool`, what
    `bind_tools` sends), langchain-core's one published view of it."""
    return convert_to_openai_tool(tool)["function"]["parameters"]


# ---------------------------------------------------------------------------------------------
# The runtime behind protocol.Session.


def wire_tool_call(name, arguments, call_id="call_1"):
    """The model's tool call as a provider sends it, read by langchain-core's own decoder: the
    ToolCall dict an AIMessage carries (`parse_tool_call`, as the chat model integrations do)."""
    raw = {"id": call_id, "type": "function", "function": {"name": name, "arguments": dumps(arguments)}}
    return parse_tool_call(raw, return_id=True)


class Runtime(ToolRuntime):
    package, homepage, framework = "langchain-core", "https://github.com/langchain-ai/langchain", "langchain-core"
    transports = ("direct", "structured")
    # The tool a user writes, from (name, description, schema, recorder); the dict row writes another.
    make = staticmethod(build_tool)

    def build(self, name, description, schema):
        recorder = Recorder()
        return self.make(name, description, schema, recorder), recorder

    def describe(self, tool, view):
        return snapshot(published_schema(self.entry(tool)[0]))

    def run(self, tool, transport, arguments):
        """One call: the exception the caller got, as an error object, or None."""
        try:
            if transport == "direct":
                tool.invoke(to_framework(arguments))
            else:
                tool.invoke(wire_tool_call(tool.name, arguments))
        except Exception as why:  # the exception the caller got
            return error_of(why)
        return None


if __name__ == "__main__":
    Runtime.main(__doc__)
