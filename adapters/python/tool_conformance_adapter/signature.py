"""A tool's JSON Schema turned into the Python function signature a framework reads (the MCP
Python SDK, langchain-core, LlamaIndex, the OpenAI Agents SDK), as their users write one. Unlike
the rest of the kit it needs pydantic (which every such framework brings):
`pip install "./adapters/python[signature]"` for its tests.

The SDK has no way to register a tool from a JSON Schema: `MCPServer.add_tool` takes a function,
and `func_metadata` builds the tool's argument model (and the schema it publishes) from the
function's signature. So a tool registered through this adapter is a function whose signature says
what the schema says, written the way an SDK user writes one:

| schema | annotation |
|---|---|
| `string` (`minLength`, `maxLength`, `pattern`) | `str` (`StringConstraints`) |
| `integer`, `number` (`minimum`, `maximum`, exclusive bounds, `multipleOf`) | `int`, `float` (`annotated_types` bounds) |
| `boolean`, `null` | `bool`, `None` |
| `array` (`items`, `minItems`, `maxItems`) | `list[ITEM]` (`MinLen`, `MaxLen`), `list[Any]` without `items` |
| `object` | `dict[str, Any]`; a `TypedDict` (`Required`/`NotRequired`, extra names allowed or forbidden) when it declares `properties` or `required` |
| `enum`, `const` (strings, integers, booleans, null) | `Literal[...]` (the values the `type` allows) |
| a type list, `anyOf`, `oneOf` of disjoint types | a `Union` of the branches |
| `allOf` with one branch | that branch, with the schema's other keywords |
| local `$ref` (`#/$defs/...`, `#/definitions/...`, any pointer) | the target's annotation; a pure cycle is `Any` |
| no type and no constraint, `{}`, `true` | `Any` |
| no type, with constraints (`items` alone, say) | the `Union` of every type, each with its own constraints |
| `description`, `title`, `examples` of a root property | `Field(description=..., title=..., examples=...)` |

A root property that is required is a parameter without a default. One that is not required is
`T` with a default: the schema's `default` when it has one, else `NOT_SENT` (below). It is
`Optional[T]` only where its schema admits null (a type list or a union with `null`), so the
signature accepts exactly what the schema does. A name listed in `required` but not under `properties` is a required
parameter of type `Any`. A property name that cannot be a Python parameter name (`a.b`, `from`,
`__proto__`, `due date`) gets a legal parameter name and `Field(alias=name)`: pydantic aliases are
how the SDK itself handles parameter names it cannot use (`json`, `schema`), so it still reads,
passes and publishes the name as it is.

An optional parameter without a schema default is written one of two ways (`optional=`):
`"none"`, the way the frameworks' own docs write one (`x: str | None = None`: the annotation admits
None and the default is None, so a call that leaves the name out and one that sends `null` reach
the function alike, and the framework publishes `"default": null` beside the nullable type); or
`"not_sent"`, a private marker `NOT_SENT` that pydantic does not validate (defaults are not
validated), which no user writes but which tells a name left out from one sent.

`user_function` writes the function itself: a real `def` compiled from ordinary Python source,
with named parameters, their annotations and defaults (no `__signature__` laid over `**kwargs`),
whose body hands `locals()` to the recorder. A framework reads it as it reads any user's function,
and calls it as it calls any: what the framework passes under a parameter's name (or under an
alias, where it passes that) is what Python binds, or refuses.

A function's parameters are a closed set of names, each with a type, so a schema that says more
than that has no signature, and `map_schema` raises `Unmappable` (the register is answered
unsupported) instead of approximating it: a root that admits other names (`additionalProperties`
true or a schema, `patternProperties`), root `anyOf`/`oneOf`/`allOf` and other root assertions, a
nested object's keywords beyond `properties`, `required` and a boolean `additionalProperties`, a
recursive `$ref`, an `allOf` of several branches, a `oneOf` whose branches overlap, `enum` values
that are not strings, integers, booleans or null, and any keyword this table does not name. `additionalProperties: false` at the root is what every
signature says already. Keywords that only annotate (`description`, `default`, `format`,
`examples`, `x-...`) are no obstacle.
"""

import inspect
import keyword
import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Optional, Union

import annotated_types
from pydantic import ConfigDict, Field, StringConstraints
from typing_extensions import NotRequired, Required, TypedDict


class Unmappable(Exception):
    """The schema has no signature the SDK can take (the register is answered unsupported)."""


class _NotSent:
    """The default of an optional parameter the call did not send."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return "NOT_SENT"

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


NOT_SENT = _NotSent()

# Keywords that only annotate: they constrain nothing, so they never stand in the way.
ANNOTATIONS = {
    "$schema",
    "$id",
    "$anchor",
    "$comment",
    "$defs",
    "definitions",
    "title",
    "description",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "format",
    "contentMediaType",
    "contentEncoding",
}
ROOT_KEYWORDS = {"type", "properties", "required", "additionalProperties"}
TYPE_KEYWORDS = {
    "string": {"minLength", "maxLength", "pattern"},
    "integer": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
    "number": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
    "array": {"items", "minItems", "maxItems"},
    "object": {"properties", "required", "additionalProperties"},
    "boolean": set(),
    "null": set(),
}
CONSTRAINTS = set().union(*TYPE_KEYWORDS.values())
STRUCTURE = {"type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref"}
JSON_TYPES = set(TYPE_KEYWORDS)
ALL_TYPES = ["string", "integer", "number", "boolean", "null", "array", "object"]  # the Union of "no type"
# What a nested object can say beyond its properties, which a TypedDict cannot.
OBJECT_KEYWORDS = {
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
}


def _annotation_only(key):
    return key in ANNOTATIONS or key.startswith("x-")


@dataclass
class Parameter:
    """One parameter of the signature: the schema's name for it and how it was declared."""

    name: str  # the property's name: what the SDK reads and publishes (the alias, when one is needed)
    python_name: str  # the parameter's name in the signature
    annotation: Any
    required: bool
    default: Any = inspect.Parameter.empty


@dataclass
class Mapping:
    parameters: list = field(default_factory=list)
    # `**kwargs` (its annotation), when the signature has one: `map_schema(..., open_root=True)`
    # for a root open to other names, or a property name that can be no parameter.
    var_keyword: Any = None
    # The root keywords the nearest signature leaves out (`map_schema(..., nearest=True)`).
    left_out: list = field(default_factory=list)

    def signature(self):
        return inspect.Signature(
            [
                inspect.Parameter(
                    p.python_name, inspect.Parameter.KEYWORD_ONLY, annotation=p.annotation, default=p.default
                )
                for p in self.parameters
            ]
            + self._var_keyword()
        )

    @property
    def var_keyword_name(self):
        """The name of the `**kwargs` parameter: `kwargs`, unless a parameter has that name."""
        taken = {p.python_name for p in self.parameters}
        name = "kwargs"
        while name in taken:
            name = "_" + name
        return name

    def _var_keyword(self):
        if self.var_keyword is None:
            return []
        return [inspect.Parameter(self.var_keyword_name, inspect.Parameter.VAR_KEYWORD, annotation=self.var_keyword)]

    def user_signature(self):
        """The signature a user writes: the parameters in the schema's order, positional or keyword
        (as `def tool(a: str, b: int = 0)` has them) up to the first required parameter that follows
        an optional one, keyword-only from there on (Python allows no other way)."""
        parameters, kind = [], inspect.Parameter.POSITIONAL_OR_KEYWORD
        for p in self.parameters:
            if (
                kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
                and p.default is inspect.Parameter.empty
                and parameters
                and parameters[-1].default is not inspect.Parameter.empty
            ):
                kind = inspect.Parameter.KEYWORD_ONLY
            parameters.append(inspect.Parameter(p.python_name, kind, annotation=p.annotation, default=p.default))
        return inspect.Signature(parameters + self._var_keyword())


def map_schema(schema, open_root=False, nearest=False, odd_names="alias", optional="not_sent", underscore=False):
    """The signature for a tool's input schema (a plain JSON value: ints, floats, no Decimal).

    By default a schema the table above cannot say exactly is `Unmappable`. The two options write
    what a user of a framework that takes any signature writes instead:

    - `open_root`: a root that admits other names (`additionalProperties` true or a schema,
      `patternProperties`) gets a `**kwargs` parameter (annotated with the annotation of
      `additionalProperties` when it is a schema);
    - `odd_names="kwargs"` (instead of `"alias"`): a property whose name can be no parameter (`a.b`,
      `from`) is no parameter but arrives through `**kwargs`, which the signature then has, for
      a framework that passes names as keyword arguments and knows no alias;
    - `nearest`: the nearest signature to a root it cannot say: a root `anyOf`/`oneOf` of
      alternatives becomes the union of their properties, each required only where every branch
      requires it; other root assertions (`allOf`, `minProperties`, `not`, ...) are left out; a
      property with no annotation here is `Any`. What was left out is listed in `left_out`;
    - `optional="none"` (instead of `"not_sent"`): an optional property without a schema default
      is `Optional[T]` with the default None, as the frameworks' docs write one;
    - `underscore`: a name starting with `_` (`__proto__`) is a parameter as it is, for a framework
      that reads a plain function's parameters (by default it gets a stand-in with an alias, since
      the MCP SDK's func_metadata and pydantic's models refuse such names).
    """
    if optional not in ("none", "not_sent"):
        raise ValueError(f"optional={optional!r}: 'none' or 'not_sent'")
    if schema is True:
        schema = {}
    if not isinstance(schema, dict):
        raise Unmappable(f"the input schema {schema!r} is not an object schema: a function's parameters are named")
    root_type = schema.get("type", "object")
    if root_type != "object":
        raise Unmappable(f"the input schema's type is {root_type!r}: a function's arguments are one object")
    mapping = Mapping()
    if nearest:
        schema = _nearest_root(schema, mapping.left_out)
    for key in schema:
        if key == "patternProperties" and open_root:
            continue
        if key not in ROOT_KEYWORDS and not _annotation_only(key):
            raise Unmappable(f"the root keyword {key!r}: a function signature cannot say it")
    additional = schema.get("additionalProperties", False)
    if (additional is not False or "patternProperties" in schema) and not open_root:
        raise Unmappable(
            "the root admits names it does not declare (additionalProperties): "
            "a function signature has a closed set of parameters"
        )
    if additional is not False or "patternProperties" in schema:
        mapping.var_keyword = Any
        if isinstance(additional, dict) and additional:
            try:
                mapping.var_keyword = _type(additional, schema, name="Extra")
            except Unmappable:
                if not nearest:
                    raise
                mapping.left_out.append("additionalProperties")
    properties = schema.get("properties", {})
    if not isinstance(properties, dict):
        raise Unmappable("properties is not an object")
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(name, str) for name in required):
        raise Unmappable("required is not a list of names")
    names = list(properties) + [name for name in required if name not in properties]
    taken = {name for name in names if _legal(name, underscore)}
    for name in names:
        if odd_names == "kwargs" and not _legal(name, underscore):
            # No parameter can have this name: it arrives through **kwargs.
            if mapping.var_keyword is None:
                mapping.var_keyword = Any
            continue
        python_name = _python_name(name, taken, underscore)
        taken.add(python_name)
        declared = name in properties
        try:
            annotation, extras, default = _property(properties[name], schema, name) if declared else (Any, {}, None)
        except Unmappable as why:
            if not nearest:
                raise Unmappable(f"property {name!r}: {why}") from None
            mapping.left_out.append(f"properties/{name}")
            annotation, extras, default = Any, {}, None
        is_required = name in required
        if is_required:
            default = inspect.Parameter.empty
        elif default is not None:
            default = default[0]  # the schema's default, as the Python default
            if default is None:
                annotation = Optional[annotation]
        elif optional == "none":
            default = None
            annotation = Optional[annotation]
        else:
            default = NOT_SENT
        if python_name != name:
            extras["alias"] = name
        if extras:
            annotation = Annotated[annotation, Field(**extras)]
        mapping.parameters.append(Parameter(name, python_name, annotation, is_required, default))
    return mapping


def as_users_write_it(schema, odd_names="alias", optional="not_sent"):
    """The signature a framework's user writes for `schema`, trying the forms in order: the exact
    signature where there is one, else `**kwargs` for a root open to other names and the nearest
    signature for what no signature says (`map_schema`'s `open_root` and `nearest`). Every Python
    framework adapter that maps a schema to a signature builds its tools with this, and so does its
    reproduction template. Unmappable only for a root that is no object."""
    return map_schema(schema, open_root=True, nearest=True, odd_names=odd_names, optional=optional)


def received(mapping, bound):
    """What a function with the mapping's signature received, under the schema's names: `bound`
    (parameter name -> value, as Python binds a call) with `**kwargs` spread out and the optional
    parameters the call left out (`NOT_SENT`) not among them."""
    names = {p.python_name: p.name for p in mapping.parameters}
    bound = dict(bound)
    extra = bound.pop(mapping.var_keyword_name, {}) if mapping.var_keyword is not None else {}
    out = {names.get(k, k): v for k, v in bound.items() if v is not NOT_SENT}
    out.update(extra)
    return out


def user_function(mapping, record, name, description=None, is_async=False):
    """The function a user writes for the mapping: a `def` (`async def` with `is_async`) compiled
    from ordinary Python source, its parameters `user_signature`'s (names, kinds, annotations,
    defaults), its body `return record(received(mapping, locals()))`: `record` is handed what the
    function received under the schema's names (`received`), and what it returns is returned.

    The source names the function after `name` when that is a Python identifier (else `tool`);
    its `__name__` and `__qualname__` are then `name`, the tool's name, which a framework that
    names a tool after its function publishes. The annotations and defaults are objects, not
    text: the source refers to them by names bound in the function's globals."""
    user_signature = mapping.user_signature()
    namespace = {"__record": record, "__mapping": mapping, "__received": received}
    parameters, keyword_only = [], False
    for index, p in enumerate(user_signature.parameters.values()):
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            namespace[f"__annotation_{index}"] = p.annotation
            parameters.append(f"**{p.name}: __annotation_{index}")
            continue
        if p.kind is inspect.Parameter.KEYWORD_ONLY and not keyword_only:
            parameters.append("*")
            keyword_only = True
        namespace[f"__annotation_{index}"] = p.annotation
        text = f"{p.name}: __annotation_{index}"
        if p.default is not inspect.Parameter.empty:
            namespace[f"__default_{index}"] = p.default
            text += f" = __default_{index}"
        parameters.append(text)
    function_name = name if isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name) else "tool"
    source = (
        f"{'async ' if is_async else ''}def {function_name}({', '.join(parameters)}):\n"
        "    return __record(__received(__mapping, locals()))\n"
    )
    exec(compile(source, f"<tool {name}>", "exec"), namespace)  # noqa: S102 - names are identifiers (_legal)
    function = namespace[function_name]
    function.__name__ = function.__qualname__ = name
    function.__doc__ = description if isinstance(description, str) else None
    return function


def recording_function(mapping, record, name, description=None):
    """`user_function`, a plain `def` (kept for the rows that call it by this name)."""
    return user_function(mapping, record, name, description)


def _nearest_root(schema, left_out):
    """The root with what no signature says taken out (see `map_schema`'s `nearest`), each
    keyword taken out named in `left_out`."""
    schema = dict(schema)
    for union in ("anyOf", "oneOf"):
        branches = schema.pop(union, None)
        if branches is None:
            continue
        left_out.append(union)
        if not isinstance(branches, list):
            continue
        branches = [b if isinstance(b, dict) else {} for b in branches]
        properties = dict(schema.get("properties", {}))
        for branch in branches:
            for name, sub in (branch.get("properties") or {}).items():
                properties.setdefault(name, sub)
        required = list(schema.get("required", []))
        every = [set(b.get("required", [])) for b in branches]
        for name in sorted(set.intersection(*every)) if every else []:
            if name not in required:
                required.append(name)
        if properties:
            schema["properties"] = properties
        if required:
            schema["required"] = required
    for key in list(schema):
        if key in ROOT_KEYWORDS or key == "patternProperties" or _annotation_only(key):
            continue
        left_out.append(key)
        del schema[key]
    return schema


def _legal(name, underscore=False):
    """Whether `name` can be a parameter of an SDK tool function as it is."""
    # func_metadata and pydantic's models refuse names starting with "_" (`underscore` for a
    # framework that takes a plain function's parameters as they are); keywords and
    # non-identifiers cannot be parameter names at all.
    return name.isidentifier() and not keyword.iskeyword(name) and (underscore or not name.startswith("_"))


def _python_name(name, taken, underscore=False):
    """`name` when it is legal, else a legal stand-in that no other parameter has."""
    if _legal(name, underscore):
        return name
    base = "p_" + (re.sub(r"[^A-Za-z0-9_]", "_", name).strip("_") or "arg")
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}_{n}"
    return candidate


def _pointer(root, ref):
    """The value at a local reference (`#/...`) in `root`."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        raise Unmappable(f"$ref {ref!r} is not a local JSON pointer")
    node = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise Unmappable(f"$ref {ref!r} points at nothing")
    return node


def _merge(schema, other):
    """Two schemas that must both hold, as one, when no keyword of one contradicts the other's."""
    for key in set(schema) & set(other):
        if schema[key] != other[key] and not _annotation_only(key):
            raise Unmappable(f"{key!r} is given twice, differently: no one annotation says both")
    return {**schema, **other}


def _resolve(schema, root, seen=frozenset()):
    """`schema` with its `$ref` chain followed (the `$ref`'s siblings kept beside the target), and
    the references passed on the way down to it (`seen`).

    A chain that comes back to a reference it passed never reaches a schema that says anything: it
    declares nothing, the suite's reading (docs/interpretations.md, 1), and stands for `{}` here. A
    reference met again deeper down (a recursive structure) is refused: no annotation here nests.
    """
    chain = set()
    while isinstance(schema, dict) and "$ref" in schema:
        ref = schema["$ref"]
        if not isinstance(ref, str):
            raise Unmappable("$ref is not a string")
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        if ref in chain:
            return rest, seen | chain
        if ref in seen:
            raise Unmappable(f"the recursive $ref {ref!r}: no annotation this adapter writes recurses")
        chain.add(ref)
        target = _pointer(root, ref)
        if target is True:
            target = {}
        if not isinstance(target, dict):
            raise Unmappable(f"$ref {ref!r} points at {target!r}")
        schema = _merge(target, rest)
    return schema, seen | chain


def _property(schema, root, name):
    """A root property's annotation, its Field keywords, and (default,) when it has a default."""
    resolved, _ = _resolve(schema, root)
    extras, default = {}, None
    if isinstance(resolved, dict):
        for key, kind in (("description", str), ("title", str), ("examples", list)):
            if isinstance(resolved.get(key), kind):
                extras[key] = resolved[key]
        if "default" in resolved:
            default = (resolved["default"],)
    return _type(schema, root, name=name), extras, default


def _json_type(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, str):
        return "string"
    raise Unmappable(f"the enum value {value!r}: a Literal holds strings, integers, booleans and None")


def _types(schema):
    """The JSON types a schema's `type` keyword allows (all of them without one)."""
    declared = schema.get("type")
    if declared is None:
        return set(JSON_TYPES)
    listed = declared if isinstance(declared, list) else [declared]
    for name in listed:
        if name not in JSON_TYPES:
            raise Unmappable(f"unknown type {name!r}")
    return set(listed)


def _type(schema, root, seen=frozenset(), name="Object"):
    """The annotation for a (sub)schema; `name` names the TypedDict of a nested object."""
    schema, seen = _resolve(schema, root, seen)
    if schema is True or schema == {}:
        return Any
    if schema is False:
        raise Unmappable("a false schema admits no value: no annotation says that")
    if not isinstance(schema, dict):
        raise Unmappable(f"{schema!r} is not a schema")
    for key in schema:
        if key in OBJECT_KEYWORDS:
            raise Unmappable(f"a nested object's {key!r}: a TypedDict cannot say it")
        if key not in STRUCTURE and key not in CONSTRAINTS and not _annotation_only(key):
            raise Unmappable(f"the keyword {key!r}: no annotation this adapter writes says it")
    if "allOf" in schema:
        branches = schema["allOf"]
        if not isinstance(branches, list) or len(branches) != 1:
            raise Unmappable("allOf of several schemas: an annotation states one")
        branch, seen = _resolve(branches[0], root, seen)
        rest = {k: v for k, v in schema.items() if k != "allOf"}
        return _type(_merge(rest, branch if isinstance(branch, dict) else {}), root, seen, name)
    for union in ("anyOf", "oneOf"):
        if union in schema:
            if not isinstance(schema[union], list) or not schema[union]:
                raise Unmappable(f"{union} is not a list of schemas")
            rest = {k: v for k, v in schema.items() if k != union}
            branches = [_resolve(b, root, seen)[0] for b in schema[union]]
            branches = [_merge(rest, b if isinstance(b, dict) else {}) for b in branches]
            if union == "oneOf":
                _disjoint(branches)
            return _union([_type(b, root, seen, name) for b in branches])
    allowed = _types(schema)
    if "const" in schema or "enum" in schema:
        values = [schema["const"]] if "const" in schema else schema["enum"]
        if not isinstance(values, list):
            raise Unmappable("enum is not a list")
        if set(schema) & CONSTRAINTS:
            raise Unmappable("enum or const beside other constraints: a Literal states only its values")
        kept = [v for v in values if _json_type(v) in allowed or (_json_type(v) == "integer" and "number" in allowed)]
        if not kept:
            raise Unmappable("no enum value has the declared type: a Literal cannot be empty")
        return Literal[tuple(kept)]
    if "type" not in schema:
        if not set(schema) & CONSTRAINTS:
            return Any
        # Constraints without a type hold for the values of their own type only: a Union of every
        # type, each with its constraints, says exactly that (pydantic's smart mode picks the
        # member of the value's own type).
        return _union([_single(t, schema, root, seen, name) for t in ALL_TYPES])
    return _union([_single(t, schema, root, seen, name) for t in _ordered(schema["type"])])


def _ordered(declared):
    return declared if isinstance(declared, list) else [declared]


def _disjoint(branches):
    """oneOf is a Union only when no value can match two branches: each declares types, disjoint."""
    taken = set()
    for branch in branches:
        if "type" not in branch:
            raise Unmappable("oneOf with a branch of no type: exactly-one has no annotation")
        types = _types(branch)
        if "number" in types:
            types = types | {"integer"}
        if taken & types:
            raise Unmappable("oneOf with overlapping branches: exactly-one has no annotation")
        taken |= types


def _union(branches):
    if any(b is Any for b in branches):
        return Any
    unique = []
    for branch in branches:
        if branch not in unique:
            unique.append(branch)
    return unique[0] if len(unique) == 1 else Union[tuple(unique)]


def _number_constraints(schema):
    constraints = []
    for key, make in (
        ("minimum", annotated_types.Ge),
        ("maximum", annotated_types.Le),
        ("exclusiveMinimum", annotated_types.Gt),
        ("exclusiveMaximum", annotated_types.Lt),
        ("multipleOf", annotated_types.MultipleOf),
    ):
        if key in schema:
            value = schema[key]
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise Unmappable(f"{key} is not a number")
            constraints.append(make(value))
    return constraints


def _single(type_name, schema, root, seen, name):
    if type_name == "string":
        constraints = {}
        for key, name, kind in (
            ("minLength", "min_length", int),
            ("maxLength", "max_length", int),
            ("pattern", "pattern", str),
        ):
            if key in schema:
                if not isinstance(schema[key], kind) or isinstance(schema[key], bool):
                    raise Unmappable(f"{key} is not a {kind.__name__}")
                constraints[name] = schema[key]
        return Annotated[str, StringConstraints(**constraints)] if constraints else str
    if type_name in ("integer", "number"):
        base = int if type_name == "integer" else float
        constraints = _number_constraints(schema)
        return Annotated[tuple([base] + constraints)] if constraints else base
    if type_name == "boolean":
        return bool
    if type_name == "null":
        return type(None)
    if type_name == "array":
        items = schema.get("items", True)
        if not isinstance(items, (dict, bool)):
            raise Unmappable("items is not a schema (tuple items have no list annotation)")
        annotation = list[_type(items, root, seen, name + "Item")]
        constraints = []
        for key, make in (("minItems", annotated_types.MinLen), ("maxItems", annotated_types.MaxLen)):
            if key in schema:
                if not isinstance(schema[key], int) or isinstance(schema[key], bool):
                    raise Unmappable(f"{key} is not an integer")
                constraints.append(make(schema[key]))
        return Annotated[tuple([annotation] + constraints)] if constraints else annotation
    if type_name == "object":
        return _object(schema, root, seen, name)
    raise Unmappable(f"unknown type {type_name!r}")


def _object(schema, root, seen, name):
    """`dict[str, Any]`, or for an object that declares its names a TypedDict that says them: each
    property `Required` or `NotRequired`, other names allowed (`extra="allow"`) unless
    `additionalProperties` is false (`extra="forbid"`)."""
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    additional = schema.get("additionalProperties", True)
    if not isinstance(properties, dict):
        raise Unmappable("properties is not an object")
    if not isinstance(required, list) or not all(isinstance(n, str) for n in required):
        raise Unmappable("required is not a list of names")
    if not isinstance(additional, bool):
        raise Unmappable("a nested additionalProperties schema: a TypedDict's other names have no type")
    if not properties and not required and additional:
        return dict[str, Any]
    fields = {}
    for key in list(properties) + [n for n in required if n not in properties]:
        annotation = _type(properties[key], root, seen, f"{name}_{key}") if key in properties else Any
        fields[key] = Required[annotation] if key in required else NotRequired[annotation]
    typed = TypedDict(re.sub(r"\W", "_", name) or "Object", fields, total=False)
    typed.__pydantic_config__ = ConfigDict(extra="allow" if additional else "forbid")
    return typed
