# A LlamaIndex reproduction, constraints written in the `= Field(...)` style. Run it from
# examples/adapters/llama-index-field of tool-conformance with the row's environment
# (.venv/bin/python, llama-index-core==0.14.25): the llama-index row's tool.py builds the tool
# exactly as the standing measured it (a plain def whose parameters are `= Field(...)`, printed,
# given to FunctionTool.from_defaults) and calls it as an agent workflow and a model's tool call do.
import json
import sys

sys.path.insert(0, "../llama-index")
import tool as adapter_tool  # noqa: E402  (examples/adapters/llama-index/tool.py)

adapter_tool.STYLE = "field"
NAME = "__TOOL__"
SCHEMA = json.loads(r'''__SCHEMA__''')
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them
adapter_tool.reproduce(NAME, SCHEMA, ARGUMENTS_TEXT)
