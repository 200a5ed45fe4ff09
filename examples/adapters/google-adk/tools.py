"""A tool's JSON Schema written as the function a Google ADK user writes for it, wrapped in
`FunctionTool(func)` and given to an `LlmAgent`, and one agent turn whose model calls it: shared
by the adapter (adapter.py) and its reproduction template (repro.py), so that a reproduction
builds its tool exactly as the row measured it.

The function is examples/adapters/pydantic-ai/natural_signature.py's (imported from there by
path; it imports no framework): the signature that says the schema, `**kwargs` for a root open to
other names, the nearest signature for a root composition.

The model is a `BaseLlm` of this file whose first answer is a Gemini API response holding a
function call with the arguments as JSON text, read by google-genai's own decoder
(`GenerateContentResponse.model_validate_json`, then `LlmResponse.create`, as ADK's Gemini model
does), so that ADK's own function-call handling runs `FunctionTool.run_async` as for a real
model; its next answer ends the run. No network is used.
"""

import asyncio
import json
import os
import sys
from typing import Any, AsyncGenerator

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "pydantic-ai"))

from natural_signature import NOT_SENT, NoSignature, function_for  # noqa: E402,F401
from google.adk.agents import LlmAgent  # noqa: E402
from google.adk.models import BaseLlm, LlmRequest, LlmResponse  # noqa: E402
from google.adk.runners import InMemoryRunner  # noqa: E402
from google.adk.tools import FunctionTool  # noqa: E402
from google.genai import types  # noqa: E402


def make_tool(name, schema, record):
    """`FunctionTool(func)` for the schema, `func` named `name`; NoSignature when there is none."""
    # An optional parameter without a schema default is `x: T | None = None`, as ADK's docs write one.
    function, notes = function_for(schema, record, optional="none")
    function.__name__ = function.__qualname__ = name
    return FunctionTool(function), notes


class ScriptedModel(BaseLlm):
    """A model whose first answer calls `tool_name` with `arguments_text`, and whose next one
    ends the run; it keeps the function declarations ADK sent it and the function response it
    got back."""

    tool_name: str | None = None
    arguments_text: str = "{}"
    seen: Any = None  # the caller's dict (Any: pydantic keeps the object itself)

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False) -> AsyncGenerator[LlmResponse, None]:
        for content in reversed(llm_request.contents or []):
            for part in content.parts or []:
                if part.function_response is not None:
                    self.seen["response"] = part.function_response.response
                    yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="done")]))
                    return
        self.seen["declarations"] = [
            declaration
            for tool in (llm_request.config.tools or [])
            for declaration in (tool.function_declarations or [])
        ]
        if self.tool_name is None:
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="done")]))
            return
        # A Gemini API response as it comes over the wire, read by google-genai's own decoder.
        wire = (
            '{"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": '
            + json.dumps(self.tool_name)
            + ', "args": '
            + self.arguments_text
            + "}}]}}]}"
        )
        yield LlmResponse.create(types.GenerateContentResponse.model_validate_json(wire))


async def _run(tools, tool_name, arguments_text):
    seen = {}
    model = ScriptedModel(model="scripted", tool_name=tool_name, arguments_text=arguments_text, seen=seen)
    agent = LlmAgent(name="agent", model=model, tools=tools)
    runner = InMemoryRunner(agent=agent, app_name="conformance")
    session = await runner.session_service.create_session(app_name="conformance", user_id="user")
    message = types.Content(role="user", parts=[types.Part(text="Call the tool.")])
    async for _ in runner.run_async(user_id="user", session_id=session.id, new_message=message):
        pass
    return seen


def run_turn(tools, tool_name, arguments_text):
    """One agent run whose model calls `tool_name` with `arguments_text` (None: no call): what
    the model was shown (`declarations`) and the function response ADK sent back (`response`)."""
    return asyncio.run(_run(tools, tool_name, arguments_text))
