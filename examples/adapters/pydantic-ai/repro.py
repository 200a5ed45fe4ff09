# One tool-conformance case against pydantic-ai-slim 2.68.0, as the pydantic-ai adapter runs it: a
# function tool whose signature says the schema, written by the adapter's own tools.py (the same
# function the adapter registers), given to an Agent whose model (pydantic-ai's FunctionModel, no
# network) calls it with the arguments as JSON text. From the adapter folder, with its pins
# installed (python3 -m venv .venv && .venv/bin/pip install -r requirements.txt):
#   .venv/bin/python repro.py
import json
import sys

sys.path[:0] = ["../../../adapters/python", "adapters/python"]  # the Python adapter kit
from tool_conformance_adapter.outcome import caller_got, function_shown, received  # noqa: E402
import tools  # noqa: E402  examples/adapters/pydantic-ai/tools.py

SCHEMA = json.loads(r'''__SCHEMA__''')
tool, notes = tools.make_tool("__TOOL__", None, SCHEMA, received)
function_shown("__TOOL__", tool.function, notes)
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them
returned = tools.run_turn([tool], "__TOOL__", ARGUMENTS_TEXT)["returned"]
if returned is not None and returned.outcome != "success":
    caller_got(returned.model_response_str())
