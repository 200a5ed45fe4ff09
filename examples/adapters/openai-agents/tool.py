"""An OpenAI Agents SDK tool from a JSON Schema, the way an SDK user writes one: a function whose
signature says the schema, given to `function_tool`. The adapter and its reproduction template
(repro_template.py) build every tool here, so a page's reproduction runs the very tool the
standing measured; the `openai-agents-nonstrict` row builds its tools here too.

The signature is the Python kit's `signature` (adapters/python), in the forms an SDK user takes, in
this order: the schema's properties as parameters (a name no parameter can have gets a pydantic
alias, which the SDK reads and publishes); `**kwargs` for a root open to other names; the nearest
signature for a root `anyOf`/`oneOf` (the union of the alternatives' properties, each required
only where every alternative requires it) and for what else no annotation says.

`strict`: `"default"` gives the function to `function_tool` as it is (strict JSON schema), and a
refusal is the SDK's own `UserError`, raised. `"fallback"` does the same, and where the SDK
refuses, gives it again with `strict_mode=False`, as the SDK's refusal tells its users to.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "adapters", "python"))
os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")  # no trace export: nothing leaves the machine

import warnings  # noqa: E402

import pydantic  # noqa: E402
from tool_conformance_adapter import signature  # noqa: E402
from agents import function_tool  # noqa: E402

# A default pydantic cannot publish (signature.NOT_SENT) is left out of the schema, as it should.
warnings.filterwarnings("ignore", category=pydantic.json_schema.PydanticJsonSchemaWarning)


class Unmappable(Exception):
    """A schema no function signature can stand for at all (its root is not an object)."""


def plain_model(value):
    """A pydantic model the function received, as a dict (None for any other value)."""
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="python", by_alias=True)
    return None


def build_tool(name, description, schema, record, strict="default"):
    """(FunctionTool, how it was built: "strict" or "strict_mode=False after: <the SDK's error>").
    `record(received)` is called by the function with what it received, under the schema's names
    (`**kwargs` spread out, optional names the call left out not among them). Raises Unmappable,
    or the SDK's own error when it refuses the function."""
    try:
        mapping = signature.as_users_write_it(schema, optional="none")  # x: T | None = None
    except signature.Unmappable as why:
        raise Unmappable(str(why)) from None
    tool_function = signature.recording_function(mapping, record, name, description)
    try:
        return function_tool(tool_function, name_override=name), "strict"
    except Exception as refusal:  # the SDK's UserError for what its strict schema cannot state
        if strict != "fallback":
            raise
        why = f"{type(refusal).__name__}: {refusal}"
    return function_tool(tool_function, name_override=name, strict_mode=False), f"strict_mode=False after: {why}"


def call(tool, arguments_text, loop):
    """The model's tool call as the Runner makes it: `on_invoke_tool(ToolContext, text)`, on
    `loop`. Returns (what the model gets, the exception raised to the Runner or None)."""
    from agents.tool_context import ToolContext

    context = ToolContext(context=None, tool_name=tool.name, tool_call_id="call_1", tool_arguments=arguments_text)
    try:
        return loop.run_until_complete(tool.on_invoke_tool(context, arguments_text)), None
    except Exception as raised:  # no failure error function took it
        return None, raised


def reproduce(name, schema, arguments_text, strict="default"):
    """A reproduction (repro_template.py): the tool built as the adapter builds it, its published
    schema, then the model's call, printing the outcome lines of the kit's `outcome` module."""
    import asyncio
    import json

    from tool_conformance_adapter.outcome import caller_got, received

    ran = []
    tool, how = build_tool(name, None, schema, lambda value: ran.append(value) or received(value), strict=strict)
    print(f"function_tool ({how}), published schema:", json.dumps(tool.params_json_schema))
    loop = asyncio.new_event_loop()
    output, raised = call(tool, arguments_text, loop)
    loop.close()
    if ran:
        print("the model gets:", output)
    else:  # the tool did not run: the call's error, as the Runner hands it to the model
        caller_got(raised if raised is not None else output)
