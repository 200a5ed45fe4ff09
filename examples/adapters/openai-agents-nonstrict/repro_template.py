# An openai-agents reproduction, strict_mode=False where the default refuses. Run it from
# examples/adapters/openai-agents-nonstrict of tool-conformance with the row's environment
# (.venv/bin/python, openai-agents==0.24.0): the openai-agents row's tool.py builds the tool exactly
# as the standing measured it (function_tool on a function whose signature says the schema, given
# again with strict_mode=False where the SDK refuses it) and calls it as the Runner calls a model's
# tool call. It prints how the tool was built and its published schema, then what the tool received
# or what the model got instead.
import json
import sys

sys.path.insert(0, "../openai-agents")
import tool as adapter_tool  # noqa: E402  (examples/adapters/openai-agents/tool.py)

NAME = "__TOOL__"
SCHEMA = json.loads(r'''__SCHEMA__''')
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them
adapter_tool.reproduce(NAME, SCHEMA, ARGUMENTS_TEXT, strict="fallback")
