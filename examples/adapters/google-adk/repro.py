# One tool-conformance case against google-adk 2.13.0, as the google-adk adapter runs it: FunctionTool
# on a function whose signature says the schema, written by the adapter's own tools.py (the same
# function the adapter registers), given to an LlmAgent whose model (a scripted BaseLlm, no
# network) calls it with a Gemini API response holding the arguments as JSON text. From the
# adapter folder, with its pins installed (python3 -m venv .venv && .venv/bin/pip install -r
# requirements.txt): .venv/bin/python repro.py
import inspect
import json
import logging

import tools  # examples/adapters/google-adk/tools.py

logging.disable(logging.WARNING)
NAME = "__TOOL__"
SCHEMA = json.loads(r'''__SCHEMA__''')
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them


def record(received):
    print("the tool received:", json.dumps(received, ensure_ascii=False))
    return "ok"


tool, notes = tools.make_tool(NAME, SCHEMA, record)
print("the function:", f"def {NAME}{inspect.signature(tool.func)}")
for note in notes:
    print("  (", note, ")")
seen = tools.run_turn([tool], NAME, ARGUMENTS_TEXT)
response = seen.get("response")
if isinstance(response, dict) and "error" in response:
    print("the caller got:", response["error"])
