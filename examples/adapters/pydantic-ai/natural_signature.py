"""A tool's JSON Schema written as the Python function a signature-based framework's users write
for it, in the natural forms they try, in order (shared by the pydantic-ai and google-adk rows,
which import it by path; it imports no framework):

1. the signature that says the schema (the Python kit's signature module, imported from
   there by path: `def tool(to: str, subject: Annotated[str, Field(min_length=3)])`, a property
   name that is no Python identifier as a parameter with `Field(alias=name)`);
2. a root that admits other names (`additionalProperties` true or a schema, `patternProperties`)
   adds `**kwargs` (annotated with the `additionalProperties` schema's type when it is one, else
   `Any`);
3. a root composition (`anyOf`, `oneOf`, `allOf` of object schemas) is the nearest signature: a
   parameter for every branch's properties and required names (`Any` for a name no branch
   declares), required where every branch requires it (`allOf`: where any branch does); the
   composition itself has no signature;
4. a property that signature.py has no annotation for (a recursive `$ref`, an overlapping
   `oneOf`, ...) is `Any`: the one place where a row says less than the schema, listed in its
   about.yaml.

A schema whose root is no object schema has no signature (a function's arguments are one object):
`NoSignature`.
"""

import copy
import os
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))

from tool_conformance_adapter import signature  # noqa: E402  (the Python kit's signature module)

NOT_SENT = signature.NOT_SENT
COMPOSITIONS = ("anyOf", "oneOf", "allOf")


class NoSignature(Exception):
    """No function signature says this schema; the message says why."""


def _annotation(schema, root):
    """signature.py's annotation for one schema (a property of `root`), or Any when it has none."""
    probe = {k: v for k, v in root.items() if k in ("$defs", "definitions")}
    probe.update({"type": "object", "properties": {"value": schema}, "required": ["value"]})
    try:
        return signature.map_schema(probe).parameters[0].annotation
    except signature.Unmappable:
        return Any


def _nearest(schema, notes):
    """`schema` with a root composition replaced by the nearest plain object schema."""
    for key in COMPOSITIONS:
        branches = schema.get(key)
        if not isinstance(branches, list):
            continue
        merged = dict(schema.get("properties") or {})
        requires = []
        for branch in branches:
            if not isinstance(branch, dict):
                continue
            for name, sub in (branch.get("properties") or {}).items():
                merged.setdefault(name, sub)
            requires.append(set(branch.get("required") or []))
            for name in branch.get("required") or []:
                merged.setdefault(name, {})  # required by a branch, declared nowhere: Any
        common = set.intersection(*requires) if requires and key != "allOf" else set().union(*requires)
        schema = {k: v for k, v in schema.items() if k != key}
        schema["properties"] = merged
        required = list(schema.get("required") or [])
        schema["required"] = required + [n for n in merged if n in common and n not in required]
        notes.append(f"the root {key} is the nearest signature: every branch's names as parameters")
    return schema


def function_for(schema, record, optional="not_sent", underscore=False):
    """The function a pydantic-ai user writes for a tool with this input schema: a real `def`
    (the kit's `signature.user_function`) whose signature says the schema (see the module's doc),
    and whose body hands `record` what it received as a dict keyed by the schema's names.
    `optional` is how an optional parameter without a schema default is written (`"none"`:
    `x: T | None = None`, as the frameworks' docs write one; `"not_sent"`: the kit's private
    marker, left out of what is recorded); `underscore`, whether a name starting with `_` is a
    parameter as it is (the kit's `map_schema`). Returns (function, notes): notes say which natural form
    beyond the plain signature was taken."""
    notes = []
    if schema is True:
        schema = {}
    if not isinstance(schema, dict):
        raise NoSignature(f"the input schema {schema!r} is not an object schema: a function's arguments are one object")
    schema = _nearest(copy.deepcopy(schema), notes)
    kwargs_annotation = None
    extra = schema.pop("additionalProperties", False)
    if extra is not False:
        kwargs_annotation = Any if extra is True or extra == {} else _annotation(extra, schema)
        notes.append("the root admits other names: **kwargs")
    if schema.pop("patternProperties", None) is not None:
        kwargs_annotation = Any
        notes.append("patternProperties: **kwargs: Any")
    for _ in range(len(schema.get("properties") or {}) + 1):
        try:
            mapping = signature.map_schema(schema, optional=optional, underscore=underscore)
            break
        except signature.Unmappable as why:
            text = str(why)
            name = next((n for n in schema.get("properties") or {} if text.startswith(f"property {n!r}:")), None)
            if name is None:
                raise NoSignature(text) from None
            schema["properties"][name] = {}
            notes.append(f"the property {name!r} is Any: {text.split(': ', 1)[1]}")
    else:  # pragma: no cover - every property loosened already
        raise NoSignature("no signature after loosening every property")

    mapping.var_keyword = kwargs_annotation
    return signature.user_function(mapping, record, "tool"), notes
