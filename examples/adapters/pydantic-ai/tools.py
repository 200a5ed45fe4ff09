"""A tool's JSON Schema written as the function a pydantic-ai user writes for it, and one model
turn that calls it: shared by the adapter (adapter.py) and its reproduction template (repro.py), so
that a reproduction builds its tool exactly as the row measured it.

pydantic-ai registers a function tool from the function's signature (`Tool(function)`,
`Agent(tools=[...])`): pydantic builds the argument validator and the JSON Schema the model is
shown from the parameters' annotations. So each schema is a signature, written by
natural_signature.py (beside this file, with the Python kit's signature module), in the
natural forms a user tries, in order:

1. the signature that says the schema (`def tool(to: str, subject: Annotated[str, Field(min_length=3)])`,
   a property name that is no Python identifier as a parameter with `Field(alias=name)`);
2. a root that admits other names (`additionalProperties` true or a schema, `patternProperties`)
   adds `**kwargs` (annotated with the `additionalProperties` schema's type when it is one, else
   `Any`), which pydantic-ai turns into "extra names allowed, validated by that annotation";
3. a root composition (`anyOf`, `oneOf`, `allOf` of object schemas) is the nearest signature: a
   parameter for every branch's properties and required names (`Any` for a name no branch
   declares), required where every branch requires it (`allOf`: where any branch does); the
   composition itself has no signature;
4. a property that signature.py has no annotation for (a recursive `$ref`, an overlapping
   `oneOf`, ...) is `Any`: the one place where this row says less than the schema, listed in
   about.yaml.

pydantic-ai declines nothing else: a schema whose root is no object schema (a function's
arguments are always an object) is the one refusal, and it is the framework's `UserError` or
pydantic's schema error, quoted as raised, when pydantic-ai refuses the signature.
"""

import os
import sys

from pydantic_ai import Agent, Tool
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from natural_signature import NOT_SENT, NoSignature, function_for  # noqa: E402,F401


# An optional parameter without a schema default is written as pydantic-ai's users write one:
# `x: T | None = None`.
OPTIONAL = "none"


def make_tool(name, description, schema, record):
    """`Tool(function, name=..., description=...)` for the schema; NoSignature or pydantic-ai's
    own error when there is none."""
    function, notes = function_for(schema, record, optional=OPTIONAL)
    function.__name__ = function.__qualname__ = name
    return Tool(function, name=name, description=description or name), notes


def model_turn(tool_name, arguments_text):
    """A FunctionModel whose first response calls `tool_name` with `arguments_text` (the JSON text a
    provider sends) and whose next response ends the run; `seen` keeps the tool definitions the
    model was shown and the tool's return part (a success, or the error pydantic-ai sent back)."""
    seen = {"tools": None, "returned": None}

    def respond(messages, info: AgentInfo):
        for part in messages[-1].parts:
            if isinstance(part, ToolReturnPart):
                seen["returned"] = part
                return ModelResponse(parts=[TextPart("done")])
        seen["tools"] = info.function_tools
        if tool_name is None:
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(parts=[ToolCallPart(tool_name, arguments_text, tool_call_id="call_1")])

    return FunctionModel(respond), seen


def run_turn(tools, tool_name, arguments_text):
    """One agent run whose model calls the tool: what the model was shown and the tool's return part."""
    model, seen = model_turn(tool_name, arguments_text)
    Agent(model, tools=tools).run_sync("Call the tool.")
    return seen
