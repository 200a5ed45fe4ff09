# A langchain-core reproduction: one tool from a function whose signature says the schema
# (StructuredTool.from_function), called the way an agent calls it (a provider's tool call read by
# langchain-core's parse_tool_call, the ToolCall handed to tool.invoke).
#   python3 -m venv venv && venv/bin/pip install langchain-core==1.8.1 && venv/bin/python repro.py
import inspect
import json
from typing import Any, Literal, Optional, Union

from langchain_core.output_parsers.openai_tools import parse_tool_call
from langchain_core.tools import StructuredTool

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


NOT_SENT = object()
required = ROOT.get("required", [])
parameters = [
    inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation(sub),
                      default=inspect.Parameter.empty if name in required else NOT_SENT)
    for name, sub in ROOT.get("properties", {}).items()
]


def handler(**kwargs):
    print("the tool received:", {k: v for k, v in kwargs.items() if v is not NOT_SENT})
    return "ok"


handler.__signature__ = inspect.Signature(parameters)
handler.__annotations__ = {p.name: p.annotation for p in parameters}
tool = StructuredTool.from_function(func=handler, name=NAME, description=NAME)
call = parse_tool_call({"id": "call_1", "type": "function", "function": {"name": NAME, "arguments": ARGUMENTS_TEXT}})
try:
    print(tool.invoke(call))
except Exception as error:
    print("the caller got:", type(error).__name__, error)
