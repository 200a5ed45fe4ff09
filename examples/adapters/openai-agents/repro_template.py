# An openai-agents reproduction: one function_tool (default: strict schema) from a function whose
# signature says the schema, called the way the Runner calls a model's tool call.
#   python3 -m venv venv && venv/bin/pip install openai-agents==0.24.0 && venv/bin/python repro.py
import asyncio
import inspect
import json
import keyword
import re
from typing import Annotated, Any, Literal, Union

from agents import function_tool
from pydantic import Field
from agents.tool_context import ToolContext

NAME = "__TOOL__"
SCHEMA = json.loads(r'''__SCHEMA__''')
ROOT = SCHEMA if isinstance(SCHEMA, dict) else {}  # a boolean schema (true, false) declares no parameters
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them
TYPES = {"string": str, "integer": int, "number": float, "boolean": bool, "null": type(None), "array": list, "object": dict}


def annotation(schema):  # the root parameters' annotations, as a user writes them
    if not isinstance(schema, dict):  # true or false
        return Any
    if "enum" in schema or "const" in schema:
        return Literal[tuple(schema["enum"] if "enum" in schema else [schema["const"]])]
    kind = schema.get("type")
    if isinstance(kind, list):
        return Union[tuple(TYPES[k] for k in kind)]
    return TYPES.get(kind, Any)


def legal(name):  # a name a Python parameter can have
    return name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("_")


NOT_SENT = object()
required = ROOT.get("required", [])
parameters, names = [], {}  # names: parameter -> property name
for name, sub in ROOT.get("properties", {}).items():
    python_name, kind = name, annotation(sub)
    if not legal(name):  # a stand-in parameter name, the property name its pydantic alias
        python_name = "p_" + (re.sub(r"[^A-Za-z0-9_]", "_", name).strip("_") or "arg")
        while python_name in names or python_name in ROOT.get("properties", {}):
            python_name += "_"
        kind = Annotated[kind, Field(alias=name)]
    names[python_name] = name
    parameters.append(inspect.Parameter(python_name, inspect.Parameter.KEYWORD_ONLY, annotation=kind,
                                        default=inspect.Parameter.empty if name in required else NOT_SENT))


received = []


def handler(**kwargs):
    received.append(True)
    print("the tool received:", {names[k]: v for k, v in kwargs.items() if v is not NOT_SENT})
    return "ok"


handler.__signature__ = inspect.Signature(parameters)
handler.__annotations__ = {p.name: p.annotation for p in parameters}
handler.__name__ = NAME
tool = function_tool(handler)
print("published schema:", json.dumps(tool.params_json_schema))
context = ToolContext(context=None, tool_name=NAME, tool_call_id="call_1", tool_arguments=ARGUMENTS_TEXT)
answer = asyncio.run(tool.on_invoke_tool(context, ARGUMENTS_TEXT))
if received:
    print("the model gets:", answer)
else:  # the tool did not run: the call's error, as the Runner hands it to the model
    print("the caller got:", answer)
