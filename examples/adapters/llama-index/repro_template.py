# A LlamaIndex reproduction: one FunctionTool from a function whose signature says the schema,
# called as a model's tool call is (parse_partial_json, ToolSelection, call_tool_with_selection, the
# path of LLM.predict_and_call) and as an agent workflow calls it (tool.acall(**tool_kwargs)).
#   python3 -m venv venv && venv/bin/pip install llama-index-core==0.14.25 && venv/bin/python repro.py
import asyncio
import json

from llama_index.core.llms.llm import ToolSelection
from llama_index.core.llms.utils import parse_partial_json
from llama_index.core.tools import FunctionTool, call_tool_with_selection

NAME = "__TOOL__"
SCHEMA = json.loads(r'''__SCHEMA__''')
ROOT = SCHEMA if isinstance(SCHEMA, dict) else {}  # a boolean schema (true, false) declares no parameters
ARGUMENTS_TEXT = r'''__ARGUMENTS__'''  # the arguments exactly as the model sent them

# A real def with the schema's properties as parameters (no annotations needed: LlamaIndex checks none).
required = ROOT.get("required", [])
names = list(ROOT.get("properties", {}))
parameters = [n for n in names if n in required] + [f"{n}=NOT_SENT" for n in names if n not in required]
namespace = {"NOT_SENT": object()}
exec(f"def handler({', '.join(parameters)}):\n"
     "    print('the tool received:', {k: v for k, v in locals().items() if v is not NOT_SENT})\n"
     "    return 'ok'\n", namespace)
tool = FunctionTool.from_defaults(fn=namespace["handler"], name=NAME)
print("published schema:", json.dumps(tool.metadata.get_parameters_dict()))
kwargs = parse_partial_json(ARGUMENTS_TEXT)
print("model tool call (call_tool_with_selection):")
output = call_tool_with_selection(ToolSelection(tool_id="call_1", tool_name=NAME, tool_kwargs=kwargs), [tool])
if output.is_error:
    print("the caller got:", output.content)
if isinstance(kwargs, dict):
    print("agent workflow (tool.acall):")
    try:
        asyncio.run(tool.acall(**kwargs))
    except Exception as error:
        print("the caller got:", type(error).__name__, error)
