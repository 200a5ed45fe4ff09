"""A registered JSON Schema as the Python function a FastMCP user would write for it.

FastMCP derives a tool's input schema and its argument validation from the function's
signature (pydantic). `build_function` writes that signature:

- one keyword parameter per property, named after the property; a property name that is not a
  Python identifier (or is a keyword, or changes under identifier normalization) keeps its name
  through pydantic's `Field(alias=...)`;
- required properties have no default; a property with a schema `default` gets that value as its
  Python default; any other optional property is `T | None = None`, as FastMCP's docs write an
  optional parameter (gofastmcp.com/servers/tools), so the function receives None for a name the
  call leaves out, and that is what is recorded;
- types: string -> str, integer -> int, number -> float, boolean -> bool, null -> None,
  array -> list[items], object -> dict[str, Any] (dict[str, T] for an additionalProperties
  schema), a list of types -> Union, enum/const -> Literal, anyOf -> Union, no type -> Any;
- keywords: minLength/maxLength/pattern, minimum/maximum/exclusive*/multipleOf, minItems/maxItems,
  description, title, examples and x- extensions become pydantic `Field(...)` arguments.

What no signature says exactly is written as a FastMCP user writes it: `**kwargs` for a root
open to other names (FastMCP refuses such a function, and that refusal is the answer); the nearest
signature for root `anyOf`/`oneOf` (every alternative's names as parameters, required only where
every alternative requires them); a required name that is not a property as a required parameter
of any type; other root keywords left out; a property no annotation here says (`$ref`, `oneOf`,
`allOf`, `not`, `format`, nested object keywords, constraints on a value of several types) as
`Any`. Only a root that is not an object schema raises protocol.Unsupported.
"""

import keyword
import unicodedata
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import ConfigDict, Field, with_config
from typing_extensions import NotRequired, Required, TypedDict

import tool_conformance_adapter as protocol


NO_DEFAULT = object()

ANNOTATIONS = {"description": "description", "title": "title", "examples": "examples"}
STRING_KEYWORDS = {"minLength": "min_length", "maxLength": "max_length", "pattern": "pattern"}
NUMBER_KEYWORDS = {
    "minimum": "ge",
    "maximum": "le",
    "exclusiveMinimum": "gt",
    "exclusiveMaximum": "lt",
    "multipleOf": "multiple_of",
}
ARRAY_KEYWORDS = {"minItems": "min_length", "maxItems": "max_length"}
SCALARS = {"string": str, "integer": int, "number": float, "boolean": bool, "null": type(None)}


def unsupported(where, why):
    raise protocol.Unsupported(f"{where}: {why}, which a FastMCP function signature cannot express")


def json_type_of(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def literal(values, declared, where):
    """Literal[...] of enum values; a value that is not a JSON scalar, or not of the declared
    type, cannot be said as a Literal."""
    for value in values:
        kind = json_type_of(value)
        if kind in ("array", "object"):
            unsupported(where, "an enum value that is an array or an object")
        if isinstance(value, float):
            unsupported(where, "a non-integer number in an enum")
        if declared is not None:
            allowed = declared if isinstance(declared, list) else [declared]
            if kind not in allowed and not (kind == "integer" and "number" in allowed):
                unsupported(where, f"an enum value of type {kind} under type {declared}")
    return Literal[tuple(values)]


def annotation(schema, where, top=False):
    """(the Python type, the Field keyword arguments, the default) for a property schema."""
    if schema is True:
        return Any, {}, NO_DEFAULT
    if not isinstance(schema, dict):
        unsupported(where, "a schema that rejects every value (false) or is not an object")
    field = {}
    extra = {}
    default = NO_DEFAULT
    rest = {}
    for key, value in schema.items():
        if key in ANNOTATIONS:
            field[ANNOTATIONS[key]] = value
        elif key.startswith("x-"):
            extra[key] = value
        elif key == "default":
            if not top:
                unsupported(where, "a default below the root properties")
            default = value
        else:
            rest[key] = value
    if extra:
        field["json_schema_extra"] = extra

    declared = rest.pop("type", None)
    types = set(SCALARS) | {"array", "object"}
    if declared is not None and not (
        (isinstance(declared, str) and declared in types)
        or (isinstance(declared, list) and declared and all(isinstance(t, str) and t in types for t in declared)
            and len(set(declared)) == len(declared))
    ):
        unsupported(where, f"the type {declared!r}")

    for key in ("$ref", "$defs", "definitions", "oneOf", "allOf", "not", "if", "then", "else", "format",
                "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas",
                "uniqueItems", "contains", "prefixItems", "unevaluatedProperties", "minProperties",
                "maxProperties"):
        if key in rest:
            unsupported(where, f"the keyword {key}")

    if "enum" in rest or "const" in rest:
        values = rest.pop("enum") if "enum" in rest else [rest.pop("const")]
        if "enum" in rest or "const" in rest:
            unsupported(where, "enum and const together")
        if not isinstance(values, list) or not values:
            unsupported(where, "an empty or malformed enum")
        if rest:
            unsupported(where, f"{', '.join(sorted(rest))} beside an enum")
        return literal(values, declared, where), field, default

    if "anyOf" in rest:
        branches = rest.pop("anyOf")
        if declared is not None or rest:
            unsupported(where, "anyOf beside other keywords")
        if not isinstance(branches, list) or not branches:
            unsupported(where, "an empty anyOf")
        arms = []
        for i, branch in enumerate(branches):
            arm, arm_field, _ = annotation(branch, f"{where}.anyOf[{i}]")
            arms.append(Annotated[arm, Field(**arm_field)] if arm_field else arm)
        return Union[tuple(arms)], field, default

    if declared is None:
        if rest:
            unsupported(where, f"{', '.join(sorted(rest))} on a value of any type")
        return Any, field, default

    if isinstance(declared, list):
        if rest:
            unsupported(where, f"{', '.join(sorted(rest))} on a value of several types")
        arms = []
        for t in declared:
            arm, _, _ = annotation({"type": t}, where)
            arms.append(arm)
        return Union[tuple(arms)], field, default

    if declared in SCALARS:
        allowed = STRING_KEYWORDS if declared == "string" else NUMBER_KEYWORDS if declared in ("integer", "number") else {}
        for key, value in rest.items():
            if key not in allowed:
                unsupported(where, f"the keyword {key} on type {declared}")
            field[allowed[key]] = value
        return SCALARS[declared], field, default

    if declared == "array":
        items = rest.pop("items", True)
        if isinstance(items, list):
            unsupported(where, "tuple-form items")
        for key, value in rest.items():
            if key not in ARRAY_KEYWORDS:
                unsupported(where, f"the keyword {key} on an array")
            field[ARRAY_KEYWORDS[key]] = value
        item, item_field, _ = annotation(items, f"{where}.items")
        return list[Annotated[item, Field(**item_field)] if item_field else item], field, default

    # object
    if "properties" in rest or "required" in rest:
        return typed_dict(rest, where), field, default
    additional = rest.pop("additionalProperties", True)
    if rest:
        unsupported(where, f"{', '.join(sorted(rest))} on an object")
    if additional is False:
        unsupported(where, "a closed object with no declared properties")
    value, value_field, _ = annotation(additional, f"{where}.additionalProperties")
    return dict[str, Annotated[value, Field(**value_field)] if value_field else value], field, default


def typed_dict(schema, where):
    """An object with declared properties below the root: a TypedDict (keys as declared, required
    ones Required), open (extra='allow') unless additionalProperties is false, as JSON Schema
    leaves it."""
    properties = schema.pop("properties", {})
    required = schema.pop("required", [])
    additional = schema.pop("additionalProperties", True)
    if schema:
        unsupported(where, f"{', '.join(sorted(schema))} on an object with declared properties")
    if not isinstance(properties, dict) or not isinstance(required, list):
        unsupported(where, "malformed properties or required")
    for name in required:
        if name not in properties:
            unsupported(where, f"the required name {name!r} that is not a declared property")
    if additional not in (True, False):
        unsupported(where, "an additionalProperties schema beside declared properties")
    keys = {}
    for name, sub in properties.items():
        kind, field, _ = annotation(sub, f"{where}.{name}")
        kind = Annotated[kind, Field(**field)] if field else kind
        keys[name] = Required[kind] if name in required else NotRequired[kind]
    path = where.replace("property ", "", 1).replace("'", "")
    label = "".join(c if c.isalnum() else "_" for c in path) or "Object"
    shape = TypedDict(label, keys, total=False)
    return with_config(ConfigDict(extra="allow" if additional else "forbid"))(shape)


def plain_identifier(name):
    return (
        name.isidentifier()
        and not keyword.iskeyword(name)
        and unicodedata.normalize("NFKC", name) == name
        and not name.startswith("_")
    )


def inline_refs(schema, root=None, seen=()):
    """`schema` with each local `$ref` replaced by what it points at (its siblings kept), as a user
    writes the referenced type in place; a recursive reference is left as it is."""
    root = schema if root is None else root
    if isinstance(schema, list):
        return [inline_refs(item, root, seen) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#") and ref not in seen:
        target = root
        for part in [p.replace("~1", "/").replace("~0", "~") for p in ref[1:].split("/") if p]:
            target = target.get(part) if isinstance(target, dict) else None
        if isinstance(target, dict):
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            return inline_refs({**target, **rest}, root, seen + (ref,))
    return {k: (v if k in ("$defs", "definitions") else inline_refs(v, root, seen)) for k, v in schema.items()}


def build_function(tool_name, schema, record):
    """The function for a tool with this input schema, and its {parameter: property} names. Every
    call of the function passes what it received (by property name) to `record`."""
    if schema is True:  # admits every value: a user's function takes any names, **kwargs
        schema = {"additionalProperties": True}
    if not isinstance(schema, dict):
        unsupported("the root", "a schema that is not an object")
    root = inline_refs(dict(schema))
    root.pop("$defs", None)
    root.pop("definitions", None)
    root_type = root.pop("type", "object")
    if root_type != "object":
        unsupported("the root", f"type {root_type!r}")
    properties = root.pop("properties", {})
    required = root.pop("required", [])
    if not isinstance(properties, dict) or not isinstance(required, list):
        unsupported("the root", "malformed properties or required")
    # What a signature cannot say exactly is written as a FastMCP user writes it: **kwargs for a
    # root open to other names (FastMCP's own refusal of it is what the caller sees), the nearest
    # signature for root alternatives (every alternative's names as parameters, required only
    # where every alternative requires them), a required name that is not a property as a required
    # parameter of any type, other root keywords left out.
    open_root = root.pop("additionalProperties", False) is not False or root.pop("patternProperties", None) is not None
    properties, required = dict(properties), list(required)
    for union in ("anyOf", "oneOf"):
        branches = root.pop(union, None)
        if isinstance(branches, list) and branches:
            branches = [b if isinstance(b, dict) else {} for b in branches]
            for branch in branches:
                for name, sub in (branch.get("properties") or {}).items():
                    properties.setdefault(name, sub)
            every = set.intersection(*(set(b.get("required", [])) for b in branches))
            required += [name for name in sorted(every) if name not in required]
    for name in required:
        if name not in properties:
            properties[name] = True

    namespace = {"__name__": "tool_conformance_tools"}
    names = {}
    params = []
    taken = {p for p in properties if plain_identifier(p)}
    for i, (prop, sub) in enumerate(properties.items()):
        where = f"property {prop!r}"
        try:
            kind, field, default = annotation(sub, where, top=True)
        except protocol.Unsupported:  # no annotation says it: Any, as a user writes it
            kind, field = Any, {}
            default = sub["default"] if isinstance(sub, dict) and "default" in sub and prop not in required else NO_DEFAULT
        if prop in required:
            default = NO_DEFAULT  # a required parameter has no default, whatever the schema says
        elif default is NO_DEFAULT:
            default, kind = None, Optional[kind]  # `x: T | None = None`, as FastMCP's docs write it
        if plain_identifier(prop):
            param = prop
        else:
            param = f"arg{i}"
            while param in taken:
                param += "_"
            taken.add(param)
            field["alias"] = prop
        names[param] = prop
        namespace[f"T_{i}"] = Annotated[kind, Field(**field)] if field else kind
        if default is NO_DEFAULT:
            params.append(f"{param}: T_{i}")
        else:
            namespace[f"D_{i}"] = default
            params.append(f"{param}: T_{i} = D_{i}")

    def emit(values):
        values = dict(values)
        extra = values.pop("kwargs", {}) if open_root else {}
        return record({**{names[p]: v for p, v in values.items()}, **extra})

    namespace["_emit"] = emit
    function_name = tool_name if plain_identifier(tool_name) else "tool"
    # Required parameters first (Python wants them before those with defaults), each group in the
    # schema's property order; FastMCP publishes the properties in signature order.
    params = [p for p in params if "=" not in p] + [p for p in params if "=" in p]
    if open_root:
        params.append("**kwargs")
    signature = ", ".join(params)
    source = f"def {function_name}({signature}):\n    return _emit(locals())\n"
    exec(compile(source, f"<tool {tool_name}>", "exec"), namespace)
    return namespace[function_name], names
