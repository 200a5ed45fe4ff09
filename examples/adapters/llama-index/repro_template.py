# A LlamaIndex reproduction. Run it from examples/adapters/llama-index of tool-conformance with the
# adapter's environment (.venv/bin/python, llama-index-core==0.14.25): tool.py there builds the
# tool exactly as the standing measured it, a plain def whose signature says the schema (printed
# below) given to FunctionTool.from_defaults. It is then called as a model's tool call is
# (parse_partial_json, ToolSelection, call_tool_with_selection: LLM.predict_and_call's path) and as
# an agent workflow calls it (tool.acall(**ToolSelection.tool_kwargs)).
import asyncio
import json

import tool as adapter_tool  # tool.py beside the adapter
from llama_index.core.llms.llm import ToolSelection
from llama_index.core.llms.utils import parse_partial_json
from llama_index.core.tools import call_tool_with_selection
from tool_conformance_adapter.outcome import caller_got, received

NAME = "__TOOL__"
SCHEMA = json.loads(r'''__SCHEMA__''')
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them

tool, source = adapter_tool.build_tool(NAME, None, SCHEMA, received)
print("the function (its annotations set from the schema):\n" + source)
print("published schema:", json.dumps(tool.metadata.get_parameters_dict()))
print("agent workflow (tool.acall):")
selection = ToolSelection(tool_id="call_1", tool_name=NAME, tool_kwargs=json.loads(ARGUMENTS_TEXT))
try:
    asyncio.run(tool.acall(**selection.tool_kwargs))
except Exception as error:
    caller_got(error)
print("model tool call (call_tool_with_selection):")
selection = ToolSelection(tool_id="call_1", tool_name=NAME, tool_kwargs=parse_partial_json(ARGUMENTS_TEXT))
output = call_tool_with_selection(selection, [tool])
if output.is_error:
    caller_got(output.content)
