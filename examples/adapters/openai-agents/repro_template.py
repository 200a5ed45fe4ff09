# An openai-agents reproduction. Run it from examples/adapters/openai-agents of tool-conformance
# with the adapter's environment (.venv/bin/python, openai-agents==0.24.0): tool.py there builds the
# tool exactly as the standing measured it, a function whose signature says the schema given to
# function_tool in its default configuration (strict JSON schema), and calls it as the Runner calls
# a model's tool call (on_invoke_tool with the arguments text). It prints the published schema, then
# what the tool received or what the model got instead.
import json

import tool as adapter_tool  # tool.py beside the adapter

NAME = "__TOOL__"
SCHEMA = json.loads(r'''__SCHEMA__''')
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them
adapter_tool.reproduce(NAME, SCHEMA, ARGUMENTS_TEXT, strict="default")
