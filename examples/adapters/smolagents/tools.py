"""A tool's JSON Schema written as the function a smolagents user writes for it, made a tool by
smolagents' `@tool` decorator, and one `ToolCallingAgent` run whose model calls it: shared by the
adapter (adapter.py) and its reproduction template (repro.py), so that a reproduction builds its
tool exactly as the row measured it.

`@tool` reads a function's type hints and its docstring (a description, then an `Args:` part
describing every parameter): the function must be ordinary Python source, which smolagents reads
back (`inspect.getsource`). So each function here is a `def` written as source text, with its
docstring, kept in `linecache` as a file's lines are, and compiled; its signature is
examples/adapters/pydantic-ai/natural_signature.py's (imported by path; the same forms as the
pydantic-ai and google-adk rows), its optional parameters written `x: T | None = None`.

The model is a smolagents `Model` of this file (no network): like smolagents' API models it
prepares the request with `_prepare_completion_kwargs` (which holds the tool schemas smolagents
publishes, `get_tool_json_schema`), and answers with `ChatMessage.from_dict` of an OpenAI-style
assistant message whose tool call carries the arguments as JSON text; its next answer calls
`final_answer`, which ends the run. The agent's own step (`parse_json_if_needed`,
`process_tool_calls`, `execute_tool_call` with `validate_tool_arguments`, then the tool called
with `sanitize_inputs_outputs=True`) handles the call as for a real model.
"""

import inspect
import linecache
import logging
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "pydantic-ai"))

from natural_signature import NOT_SENT, NoSignature, function_for  # noqa: E402,F401
from smolagents import ChatMessage, Model, ToolCallingAgent, tool  # noqa: E402
from smolagents.memory import ActionStep  # noqa: E402
from smolagents.monitoring import LogLevel  # noqa: E402

logging.getLogger("smolagents").setLevel(logging.CRITICAL)


def _source(name, function):
    """The source text of the function a user writes: its def line as Python prints its signature
    (annotations by the names its globals bind them to), a docstring whose `Args:` part describes
    every parameter (as `@tool` requires), and the body that records what it received."""
    names = {}
    parameters = []
    seen_keyword_only = False
    for index, parameter in enumerate(inspect.signature(function).parameters.values()):
        text = parameter.name
        if parameter.kind is inspect.Parameter.VAR_KEYWORD:
            text = "**" + text
        elif parameter.kind is inspect.Parameter.KEYWORD_ONLY and not seen_keyword_only:
            parameters.append("*")
            seen_keyword_only = True
        if parameter.annotation is not inspect.Parameter.empty:
            names[f"__hint_{index}"] = parameter.annotation
            text += f": __hint_{index}"
        if parameter.default is not inspect.Parameter.empty:
            names[f"__default_{index}"] = parameter.default
            text += f" = __default_{index}"
        parameters.append(text)
    arguments = [p.name for p in inspect.signature(function).parameters.values()]
    doc = [f"    The tool {name}."]
    if arguments:
        doc += ["", "    Args:"] + [f"        {argument}: the {argument} argument." for argument in arguments]
    source = (
        f"def {name}({', '.join(parameters)}) -> str:\n"
        '    """\n' + "\n".join(doc) + '\n    """\n'
        "    return __record(__received(__mapping, locals()))\n"
    )
    return source, names


def make_tool(name, schema, record):
    """`@tool` on the function for the schema, named `name`: (the Tool smolagents made, notes on
    how its signature says the schema); NoSignature when no function does, smolagents' own error
    when it refuses the function."""
    # An optional parameter without a schema default is `x: T | None = None`, as users write one.
    # A name starting with `_` is a parameter as it is: a plain function takes it, and so does @tool.
    written, notes = function_for(schema, record, optional="none", underscore=True)
    source, names = _source(name if name.isidentifier() else "tool", written)
    namespace = dict(written.__globals__)
    namespace.update(names)
    filename = f"<smolagents tool {name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - names are identifiers
    function = namespace[name if name.isidentifier() else "tool"]
    function.__name__ = function.__qualname__ = name
    return tool(function), notes


class ScriptedModel(Model):
    """A model whose first answer calls `tool_name` with `arguments_text` (the JSON text an API
    sends) and whose next answer calls final_answer; it keeps the tool schemas smolagents sent it
    (`tools`)."""

    def __init__(self, tool_name, arguments_text, seen):
        super().__init__(model_id="scripted")
        self.tool_name, self.arguments_text, self.seen = tool_name, arguments_text, seen
        self.turn = 0

    def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
        request = self._prepare_completion_kwargs(
            messages=messages,
            stop_sequences=stop_sequences,
            response_format=response_format,
            tools_to_call_from=tools_to_call_from,
            model=self.model_id,
            **kwargs,
        )
        self.turn += 1
        if self.turn == 1:
            self.seen["tools"] = request.get("tools") or []
        if self.turn == 1 and self.tool_name is not None:
            name, arguments = self.tool_name, self.arguments_text
        else:
            name, arguments = "final_answer", '{"answer": "done"}'
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": f"call_{self.turn}", "type": "function", "function": {"name": name, "arguments": arguments}}],
        }
        return ChatMessage.from_dict(message)


def run_turn(tools, tool_name, arguments_text):
    """One ToolCallingAgent run whose model calls `tool_name` with `arguments_text` (None: no
    call): the tool schemas the model was sent (`tools`) and the error the agent's step recorded
    for that call (`error`, an AgentError, or None), which smolagents sends the model next."""
    seen = {"tools": None, "error": None}
    model = ScriptedModel(tool_name, arguments_text, seen)
    agent = ToolCallingAgent(tools=tools, model=model, max_steps=2, verbosity_level=LogLevel.OFF)
    agent.run("Call the tool.")
    for step in agent.memory.steps:
        if isinstance(step, ActionStep) and step.step_number == 1:
            seen["error"] = step.error
    return seen
