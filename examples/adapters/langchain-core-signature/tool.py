"""A langchain-core tool from a JSON Schema, the way a langchain user writes one: a function whose
signature says the schema, given to `StructuredTool.from_function`. The adapter and its
reproduction template (repro_template.py) build every tool here, so a page's reproduction runs the
very tool the standing measured.

The signature is the Python kit's `signature` (adapters/python) as users write it
(`as_users_write_it`): the schema's properties as parameters; `**kwargs` for a root open to other
names and for a property whose name no parameter can have (`from_function`'s args schema drops a
pydantic alias, so such a name can only arrive there); the nearest signature for a root
`anyOf`/`oneOf` and for what else no annotation says.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "adapters", "python"))

import warnings  # noqa: E402

import pydantic  # noqa: E402
from tool_conformance_adapter import signature  # noqa: E402
from langchain_core.tools import StructuredTool  # noqa: E402

# A default pydantic cannot publish (signature.NOT_SENT) is left out of the schema, as it should.
warnings.filterwarnings("ignore", category=pydantic.json_schema.PydanticJsonSchemaWarning)


class Unmappable(Exception):
    """A schema no function signature can stand for at all (its root is not an object)."""


def build_tool(name, description, schema, record):
    """A StructuredTool whose function calls `record(received)` with what it received (the
    schema's names, `**kwargs` spread out). Raises Unmappable, or whatever from_function raises."""
    try:
        mapping = signature.as_users_write_it(schema, odd_names="kwargs", optional="none")  # x: T | None = None
    except signature.Unmappable as why:
        raise Unmappable(str(why)) from None
    function = signature.recording_function(mapping, record, name)
    return StructuredTool.from_function(func=function, name=name, description=description or name)
