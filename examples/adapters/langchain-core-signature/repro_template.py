# A langchain-core reproduction. Run it from examples/adapters/langchain-core-signature of
# tool-conformance with the adapter's environment (.venv/bin/python, langchain-core==1.8.1): tool.py
# there builds the tool exactly as the standing measured it (StructuredTool.from_function on a
# function whose signature says the schema), then it is called the way an agent calls it (a
# provider's tool call read by langchain-core's parse_tool_call, the ToolCall handed to tool.invoke).
import json

import tool as adapter_tool  # tool.py beside the adapter
from langchain_core.output_parsers.openai_tools import parse_tool_call
from langchain_core.utils.function_calling import convert_to_openai_tool
from tool_conformance_adapter.outcome import caller_got, received

NAME = "__TOOL__"
SCHEMA = json.loads(r'''__SCHEMA__''')
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them

tool = adapter_tool.build_tool(NAME, None, SCHEMA, received)
print("published schema:", json.dumps(convert_to_openai_tool(tool)["function"]["parameters"]))
call = parse_tool_call({"id": "call_1", "type": "function", "function": {"name": NAME, "arguments": ARGUMENTS_TEXT}})
try:
    print("the agent gets:", tool.invoke(call))
except Exception as error:
    caller_got(error)
