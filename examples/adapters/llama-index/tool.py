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


# A default pydantic cannot publish (signature.NOT_SENT) is left out of the fn_schema, as it should.
warnings.filterwarnings("ignore", category=pydantic.json_schema.PydanticJsonSchemaWarning)


class Unmappable(Exception):
    """A schema no function signature can stand for at all (its root is not an object)."""


def mapping_of(schema):
    """signature.py's mapping, in the forms a LlamaIndex user takes (module docstring)."""
    try:
        return signature.as_users_write_it(schema, odd_names="kwargs")
    except signature.Unmappable as why:
        raise Unmappable(str(why)) from None


def function_source(mapping, name="tool"):
    """The `def` a user writes for the mapping (no annotations: they are set on the function):
    positional-or-keyword parameters in the schema's order, keyword-only from the first required one
    after an optional one, `**kwargs` last; the body hands its parameters to `_record`."""
    parts, keyword_only = [], False
    for index, p in enumerate(mapping.parameters):
        if not keyword_only and p.default is signature.inspect.Parameter.empty and index and mapping.parameters[index - 1].default is not signature.inspect.Parameter.empty:
            keyword_only = True
            parts.append("*")
        parts.append(p.python_name if p.default is signature.inspect.Parameter.empty else f"{p.python_name}=_default_{index}")
    if mapping.var_keyword is not None:
        parts.append(f"**{mapping.var_keyword_name}")
    return f"def {name}({', '.join(parts)}):\n    return _record(dict(locals()))\n"


def build_tool(name, description, schema, record):
    """(FunctionTool, the function's source) for the schema. `record(received)` is called by the
    function's body with what it received (the schema's names, `**kwargs` spread out, optional
    names the call left out not among them). Raises Unmappable, or whatever FunctionTool raises."""
    mapping = mapping_of(schema)
    var_keyword = mapping.var_keyword_name if mapping.var_keyword is not None else None

    def _record(bound):
        extra = bound.pop(var_keyword, {}) if var_keyword else {}
        received = {k: v for k, v in bound.items() if v is not signature.NOT_SENT}
        received.update(extra)
        return record(received)

    namespace = {"_record": _record}
    for index, p in enumerate(mapping.parameters):
        if p.default is not signature.inspect.Parameter.empty:
            namespace[f"_default_{index}"] = p.default
    source = function_source(mapping)
    defaults = [f"_default_{i} = {p.default!r}" for i, p in enumerate(mapping.parameters) if p.default is not signature.inspect.Parameter.empty]
    if defaults:
        source += "# where " + ", ".join(defaults) + "\n"
    exec(source, namespace)  # noqa: S102 - parameter names are identifiers (signature.py keeps them so)
    function = namespace["tool"]
    function.__name__ = function.__qualname__ = re.sub(r"\W", "_", name)
    function.__annotations__ = {p.python_name: p.annotation for p in mapping.parameters}
    if var_keyword:
        function.__annotations__[var_keyword] = mapping.var_keyword
    tool = FunctionTool.from_defaults(fn=function, name=name, description=description or name)
    return tool, source
