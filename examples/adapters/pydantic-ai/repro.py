# One tool-conformance case against pydantic-ai-slim 2.68.0, as the pydantic-ai adapter runs it: a
# function tool whose signature says the schema, written by the adapter's own tools.py (the same
# function the adapter registers), given to an Agent whose model (pydantic-ai's FunctionModel, no
# network) calls it with the arguments as JSON text. From the adapter folder, with its pins
# installed (python3 -m venv .venv && .venv/bin/pip install -r requirements.txt):
#   .venv/bin/python repro.py
import inspect
import json

import tools  # examples/adapters/pydantic-ai/tools.py

NAME = "__TOOL__"
SCHEMA = json.loads(r'''__SCHEMA__''')
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them


def record(received):
    print("the tool received:", json.dumps(received, ensure_ascii=False))
    return "ok"


tool, notes = tools.make_tool(NAME, None, SCHEMA, record)
print("the function:", f"def {NAME}{inspect.signature(tool.function)}")
for note in notes:
    print("  (", note, ")")
seen = tools.run_turn([tool], NAME, ARGUMENTS_TEXT)
returned = seen["returned"]
if returned is not None and returned.outcome != "success":
    print("the caller got:", returned.model_response_str())
