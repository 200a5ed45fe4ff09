"""A LlamaIndex tool from a JSON Schema, the way a LlamaIndex user writes one: a plain `def` whose
signature says the schema, given to `FunctionTool.from_defaults`. Both the adapter and its
reproduction template (repro_template.py) build every tool here, so the reproduction a page prints
runs the very function the standing measured.

The signature is the Python kit's `signature` (adapters/python), in the forms a LlamaIndex user
takes, in this order: the schema's properties as parameters; `**kwargs` for a root open to other
names and for a property whose name can be no parameter (`from`, `a.b`: LlamaIndex passes names as
keyword arguments, so such a name can only arrive there); the nearest signature for a root
`anyOf`/`oneOf` (the union of the alternatives' properties, each required only where every
alternative requires it) and for what else no annotation says (left out; the property `Any`).
LlamaIndex validates none of it: the annotations only shape the fn_schema it publishes.

The function is a real `def` (its source is `function_source`), so a call that does not fit it
fails with Python's own TypeError before the body runs, as a user's function does.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "adapters", "python"))

import warnings  # noqa: E402

import pydantic  # noqa: E402
from tool_conformance_adapter import signature  # noqa: E402
from llama_index.core.tools import FunctionTool  # noqa: E402


# A default pydantic cannot publish would be left out of the fn_schema with a warning: not on stdout.
warnings.filterwarnings("ignore", category=pydantic.json_schema.PydanticJsonSchemaWarning)


class Unmappable(Exception):
    """A schema no function signature can stand for at all (its root is not an object)."""


def mapping_of(schema):
    """signature.py's mapping, in the forms a LlamaIndex user takes (module docstring)."""
    try:
        # An optional parameter without a schema default is `x: T | None = None`, as users write one.
        return signature.as_users_write_it(schema, odd_names="kwargs", optional="none")
    except signature.Unmappable as why:
        raise Unmappable(str(why)) from None


# How constraints are written: "annotated" (`a: Annotated[str, StringConstraints(min_length=1)]`)
# or "field" (`a: str = Field(min_length=1)`, `Field(...)` for a required one): the two styles
# LlamaIndex users take. The llama-index-field row sets "field".
STYLE = "annotated"


def field_default(parameter):
    """For the "field" style: (the base annotation, a pydantic `Field(...)` with the constraints and
    the description the Annotated form carries, and the parameter's default or `...`), or None for
    a parameter with nothing to put in a Field."""
    import dataclasses
    import typing

    from pydantic import Field
    from pydantic.fields import FieldInfo
    from pydantic.types import StringConstraints

    if typing.get_origin(parameter.annotation) is not typing.Annotated:
        return None
    base, *metadata = typing.get_args(parameter.annotation)
    keywords = {}
    for item in metadata:
        if isinstance(item, StringConstraints):
            keywords.update({k: getattr(item, k) for k in ("min_length", "max_length", "pattern") if getattr(item, k) is not None})
        elif isinstance(item, FieldInfo):
            keywords.update({k: getattr(item, k) for k in ("description", "title", "examples", "alias") if getattr(item, k) is not None})
        elif dataclasses.is_dataclass(item) and len(dataclasses.fields(item)) == 1:  # annotated_types Ge, MinLen, ...
            keywords[dataclasses.fields(item)[0].name] = getattr(item, dataclasses.fields(item)[0].name)
        else:
            return None
    default = ... if parameter.default is signature.inspect.Parameter.empty else parameter.default
    return base, Field(default, **keywords)


def function_source(mapping, name="tool", fields=()):
    """The `def` a user writes for the mapping (no annotations: they are set on the function):
    positional-or-keyword parameters in the schema's order, keyword-only from the first one without
    a default after one with a default, `**kwargs` last; the body hands its parameters to `_record`.
    `fields` holds the indexes of the parameters whose default is a `Field(...)` (`_field_<i>`)."""
    parts, keyword_only, defaulted = [], False, False
    for index, p in enumerate(mapping.parameters):
        has_default = index in fields or p.default is not signature.inspect.Parameter.empty
        if not keyword_only and not has_default and defaulted:
            keyword_only = True
            parts.append("*")
        defaulted = defaulted or has_default
        if index in fields:
            parts.append(f"{p.python_name}=_field_{index}")
        elif p.default is signature.inspect.Parameter.empty:
            parts.append(p.python_name)
        else:
            parts.append(f"{p.python_name}=_default_{index}")
    if mapping.var_keyword is not None:
        parts.append(f"**{mapping.var_keyword_name}")
    return f"def {name}({', '.join(parts)}):\n    return _record(dict(locals()))\n"


def build_tool(name, description, schema, record):
    """(FunctionTool, the function's source) for the schema. `record(received)` is called by the
    function's body with what it received (the schema's names, `**kwargs` spread out, an optional
    name the call left out with its default, None where the schema gives none). Raises Unmappable, or whatever FunctionTool raises."""
    mapping = mapping_of(schema)
    var_keyword = mapping.var_keyword_name if mapping.var_keyword is not None else None

    def _record(bound):
        extra = bound.pop(var_keyword, {}) if var_keyword else {}
        bound.update(extra)
        return record(bound)

    namespace = {"_record": _record}
    annotations = {p.python_name: p.annotation for p in mapping.parameters}
    for index, p in enumerate(mapping.parameters):
        written = field_default(p) if STYLE == "field" else None
        if written is not None:
            annotations[p.python_name], namespace[f"_field_{index}"] = written
        elif p.default is not signature.inspect.Parameter.empty:
            namespace[f"_default_{index}"] = p.default
    if STYLE == "field":
        # The style throughout, as its users write it: every parameter `= Field(...)`, plain where
        # nothing constrains it (mixing plain defaults before Field defaults is a signature
        # FunctionTool.from_defaults refuses, since it strips Field defaults).
        from pydantic import Field

        for index, p in enumerate(mapping.parameters):
            if f"_field_{index}" not in namespace:
                namespace.pop(f"_default_{index}", None)
                default = ... if p.default is signature.inspect.Parameter.empty else p.default
                namespace[f"_field_{index}"] = Field(default)
    fields = {int(k[len("_field_"):]) for k in namespace if k.startswith("_field_")}
    source = function_source(mapping, fields=fields)
    defaults = [f"{k} = {v!r}" for k, v in namespace.items() if k.startswith(("_default_", "_field_"))]
    if defaults:
        source += "# where " + ", ".join(defaults) + "\n"
    exec(source, namespace)  # noqa: S102 - parameter names are identifiers (signature.py keeps them so)
    function = namespace["tool"]
    function.__name__ = function.__qualname__ = re.sub(r"\W", "_", name)
    function.__annotations__ = annotations
    if var_keyword:
        function.__annotations__[var_keyword] = mapping.var_keyword
    tool = FunctionTool.from_defaults(fn=function, name=name, description=description or name)
    return tool, source


def reproduce(name, schema, arguments_text):
    """A reproduction (repro_template.py): the tool built as the adapter builds it (in this
    module's STYLE), its function and published schema, then the agent workflow's call
    (tool.acall(**ToolSelection.tool_kwargs)) and a model's tool call (parse_partial_json,
    ToolSelection, call_tool_with_selection: LLM.predict_and_call's path), printing the outcome
    lines of the kit's `outcome` module."""
    import asyncio
    import json

    from llama_index.core.llms.llm import ToolSelection
    from llama_index.core.llms.utils import parse_partial_json
    from llama_index.core.tools import call_tool_with_selection
    from tool_conformance_adapter.outcome import caller_got, received

    tool, source = build_tool(name, None, schema, received)
    print("the function (its annotations set from the schema):\n" + source)
    print("published schema:", json.dumps(tool.metadata.get_parameters_dict()))
    print("agent workflow (tool.acall):")
    selection = ToolSelection(tool_id="call_1", tool_name=name, tool_kwargs=json.loads(arguments_text))
    try:
        asyncio.run(tool.acall(**selection.tool_kwargs))
    except Exception as error:
        caller_got(error)
    print("model tool call (call_tool_with_selection):")
    selection = ToolSelection(tool_id="call_1", tool_name=name, tool_kwargs=parse_partial_json(arguments_text))
    output = call_tool_with_selection(selection, [tool])
    if output.is_error:
        caller_got(output.content)
