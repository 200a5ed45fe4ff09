# One tool-conformance case against smolagents 1.26.0, as the smolagents adapter runs it: @tool on a
# function whose type hints and docstring say the schema, written by the adapter's own tools.py (the
# same function the adapter registers), given to a ToolCallingAgent whose model (a scripted
# smolagents Model, no network) calls it with the arguments as JSON text. From the adapter folder,
# with its pins installed (python3 -m venv .venv && .venv/bin/pip install -r requirements.txt):
#   .venv/bin/python repro.py
import json
import sys

sys.path[:0] = ["../../../adapters/python", "adapters/python"]  # the Python adapter kit
from tool_conformance_adapter.outcome import caller_got, function_shown, received  # noqa: E402
import tools  # noqa: E402  examples/adapters/smolagents/tools.py

SCHEMA = json.loads(r'''__SCHEMA__''')
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them
tool, notes = tools.make_tool("__TOOL__", SCHEMA, received)
function_shown("__TOOL__", tool.forward.__wrapped__, notes)
error = tools.run_turn([tool], "__TOOL__", ARGUMENTS_TEXT)["error"]
if error is not None:
    caller_got(error)
