# A langchain-core reproduction: a StructuredTool whose args_schema is the JSON Schema dict itself,
# called the way an agent calls it (a provider's tool call read by langchain-core's parse_tool_call,
# the ToolCall handed to tool.invoke).
#   python3 -m venv venv && venv/bin/pip install langchain-core==1.8.1 && venv/bin/python repro.py
import json

from langchain_core.output_parsers.openai_tools import parse_tool_call
from langchain_core.tools import StructuredTool

NAME = "__TOOL__"
SCHEMA = json.loads(r'''__SCHEMA__''')
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them


def handler(**kwargs):
    print("the tool received:", kwargs)
    return "ok"


tool = StructuredTool(name=NAME, description=NAME, args_schema=SCHEMA, func=handler)
call = parse_tool_call({"id": "call_1", "type": "function", "function": {"name": NAME, "arguments": ARGUMENTS_TEXT}})
try:
    print(tool.invoke(call))
except Exception as error:
    print("the caller got:", type(error).__name__, error)
