# One tool-conformance case against google-adk 2.13.0, as the google-adk adapter runs it: FunctionTool
# on a function whose signature says the schema, written by the adapter's own tools.py (the same
# function the adapter registers), given to an LlmAgent whose model (a scripted BaseLlm, no
# network) calls it with a Gemini API response holding the arguments as JSON text. From the
# adapter folder, with its pins installed (python3 -m venv .venv && .venv/bin/pip install -r
# requirements.txt): .venv/bin/python repro.py
import json
import logging
import sys

sys.path[:0] = ["../../../adapters/python", "adapters/python"]  # the Python adapter kit
from tool_conformance_adapter.outcome import caller_got, function_shown, received  # noqa: E402
import tools  # noqa: E402  examples/adapters/google-adk/tools.py

logging.disable(logging.WARNING)
SCHEMA = json.loads(r'''__SCHEMA__''')
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them
tool, notes = tools.make_tool("__TOOL__", SCHEMA, received)
function_shown("__TOOL__", tool.func, notes)
seen = tools.run_turn([tool], "__TOOL__", ARGUMENTS_TEXT)
response = seen.get("response")
if isinstance(response, dict) and "error" in response:
    caller_got(response["error"])
