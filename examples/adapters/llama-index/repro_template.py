# A LlamaIndex reproduction. Run it from examples/adapters/llama-index of tool-conformance with the
# adapter's environment (.venv/bin/python, llama-index-core==0.14.25): tool.py there builds the
# tool exactly as the standing measured it, a plain def whose signature says the schema (printed)
# given to FunctionTool.from_defaults, and calls it as an agent workflow does
# (tool.acall(**ToolSelection.tool_kwargs)) and as a model's tool call is dispatched
# (parse_partial_json, ToolSelection, call_tool_with_selection: LLM.predict_and_call's path).
import json

import tool as adapter_tool  # tool.py beside the adapter

NAME = "__TOOL__"
SCHEMA = json.loads(r'''__SCHEMA__''')
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them
adapter_tool.reproduce(NAME, SCHEMA, ARGUMENTS_TEXT)
