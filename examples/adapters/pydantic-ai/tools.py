"""A tool's JSON Schema written as the function a pydantic-ai user writes for it, and one model
turn that calls it: shared by the adapter (adapter.py) and its reproduction template (repro.py), so
that a reproduction builds its tool exactly as the row measured it.

pydantic-ai registers a function tool from the function's signature (`Tool(function)`,
`Agent(tools=[...])`): pydantic builds the argument validator and the JSON Schema the model is
shown from the parameters' annotations. So each schema is a signature, written by
examples/adapters/mcp-python/signature.py (imported from there by path), in the natural forms a
user tries, in order:

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

import copy
import inspect
import os
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "mcp-python"))

import signature  # noqa: E402  (examples/adapters/mcp-python/signature.py)
from pydantic_ai import Agent, Tool  # noqa: E402
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart  # noqa: E402
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402

NOT_SENT = signature.NOT_SENT
COMPOSITIONS = ("anyOf", "oneOf", "allOf")


class NoSignature(Exception):
    """No function signature says this schema; the message says why."""


def _annotation(schema, root):
    """signature.py's annotation for one schema (a property of `root`), or Any when it has none."""
    probe = {k: v for k, v in root.items() if k in ("$defs", "definitions")}
    probe.update({"type": "object", "properties": {"value": schema}, "required": ["value"]})
    try:
        return signature.map_schema(probe).parameters[0].annotation
    except signature.Unmappable:
        return Any


def _nearest(schema, notes):
    """`schema` with a root composition replaced by the nearest plain object schema."""
    for key in COMPOSITIONS:
        branches = schema.get(key)
        if not isinstance(branches, list):
            continue
        merged = dict(schema.get("properties") or {})
        requires = []
        for branch in branches:
            if not isinstance(branch, dict):
                continue
            for name, sub in (branch.get("properties") or {}).items():
                merged.setdefault(name, sub)
            requires.append(set(branch.get("required") or []))
            for name in branch.get("required") or []:
                merged.setdefault(name, {})  # required by a branch, declared nowhere: Any
        common = set.intersection(*requires) if requires and key != "allOf" else set().union(*requires)
        schema = {k: v for k, v in schema.items() if k != key}
        schema["properties"] = merged
        required = list(schema.get("required") or [])
        schema["required"] = required + [n for n in merged if n in common and n not in required]
        notes.append(f"the root {key} is the nearest signature: every branch's names as parameters")
    return schema


def function_for(schema, record):
    """The function a pydantic-ai user writes for a tool with this input schema: its signature
    says the schema (see the module's doc), and its body hands `record` what it received as a
    dict keyed by the schema's names (the parameters the call left out not included). Returns
    (function, notes): notes say which natural form beyond the plain signature was taken."""
    notes = []
    if schema is True:
        schema = {}
    if not isinstance(schema, dict):
        raise NoSignature(f"the input schema {schema!r} is not an object schema: a function's arguments are one object")
    schema = _nearest(copy.deepcopy(schema), notes)
    kwargs_annotation = None
    extra = schema.pop("additionalProperties", False)
    if extra is not False:
        kwargs_annotation = Any if extra is True or extra == {} else _annotation(extra, schema)
        notes.append("the root admits other names: **kwargs")
    if schema.pop("patternProperties", None) is not None:
        kwargs_annotation = Any
        notes.append("patternProperties: **kwargs: Any")
    for _ in range(len(schema.get("properties") or {}) + 1):
        try:
            mapping = signature.map_schema(schema)
            break
        except signature.Unmappable as why:
            text = str(why)
            name = next((n for n in schema.get("properties") or {} if text.startswith(f"property {n!r}:")), None)
            if name is None:
                raise NoSignature(text) from None
            schema["properties"][name] = {}
            notes.append(f"the property {name!r} is Any: {text.split(': ', 1)[1]}")
    else:  # pragma: no cover - every property loosened already
        raise NoSignature("no signature after loosening every property")

    parameters = list(mapping.user_signature().parameters.values())
    if kwargs_annotation is not None:
        parameters.append(inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD, annotation=kwargs_annotation))
    signature_ = inspect.Signature(parameters)
    names = {p.python_name: p.name for p in mapping.parameters}

    def tool_function(*args, **kwargs):
        bound = signature_.bind(*args, **kwargs).arguments
        received = {}
        for python_name, value in bound.items():
            if python_name == "kwargs" and kwargs_annotation is not None:
                received.update(value)
            elif value is not NOT_SENT:
                received[names.get(python_name, python_name)] = value
        return record(received)

    tool_function.__signature__ = signature_
    tool_function.__annotations__ = {p.name: p.annotation for p in parameters}
    tool_function.__doc__ = None
    return tool_function, notes


def make_tool(name, description, schema, record):
    """`Tool(function, name=..., description=...)` for the schema; NoSignature or pydantic-ai's
    own error when there is none."""
    function, notes = function_for(schema, record)
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
