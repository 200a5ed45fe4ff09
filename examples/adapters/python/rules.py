"""RT-TOOL-8 and PLAT-162, written from the rule texts, in plain Python 3 (standard library only).

This module knows nothing of the conformance protocol; adapter.py puts it behind protocol v1.

JSON values are Python values as json.loads gives them, except that every number is a
decimal.Decimal (the kit's `loads`), so big integers and long decimals keep their exact value, and a
number is never confused with a boolean.

RT-TOOL-8, `normalize(schema, arguments)`:
  1. JSON-string decoding, for root arguments only. A string is replaced by its JSON value when
     the parameter's own schema (properties[name]) declares array or object and not string, the
     string is RFC 8259 JSON, and the value has the declared shape (a list for array, a map for
     object). The declared types are the `type` keyword (a name or a list) plus the types of the
     parameter's anyOf/oneOf branches, following local $refs.
  2. HTML character-reference decoding of every string leaf of the result, by the WHATWG rules
     for text content, repeated until the value stops changing (at most MAX_PASSES passes). Keys
     are never touched.

PLAT-162, `Executor`: one registered schema per tool; every call is normalized, validated against
that schema, and only then handed to the handler. The root object is closed unless the schema
declares additionalProperties itself: the names it admits are the expected fields (every root
property, plus the names the root `required` and the root anyOf/oneOf branches require). A
rejected call gets one deterministic error: {message, problems, expected_fields}.
"""

import html.entities
import json
import re
from decimal import Decimal

from tool_conformance_adapter import loads


def json_type(value):
    """The JSON type name of a value ("integer" for a number with no fractional part)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (Decimal, int, float)):
        number = Decimal(value)
        return "integer" if number.is_finite() and number == number.to_integral_value() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def json_equal(a, b):
    """Equality as JSON Schema means it: numbers by value, booleans never numbers."""
    kind_a, kind_b = json_type(a), json_type(b)
    numeric = ("integer", "number")
    if kind_a in numeric and kind_b in numeric:
        return Decimal(a) == Decimal(b)
    if kind_a != kind_b:
        return False
    if kind_a == "array":
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if kind_a == "object":
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return a == b


# ---------------------------------------------------------------------------------------------
# RT-TOOL-8.4 and 8.5: character references, WHATWG text-content rules

MAX_PASSES = 32
_NAMES = html.entities.html5  # the whole WHATWG table; names without ';' are the legacy ones
_LONGEST_NAME = max(len(name) for name in _NAMES)
_WINDOWS_1252 = {
    0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020,
    0x87: 0x2021, 0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152,
    0x8E: 0x017D, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022,
    0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC, 0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A,
    0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
}
_DECIMAL = re.compile(r"[0-9]+")
_HEX = re.compile(r"[0-9A-Fa-f]+")


def _numeric(code):
    """The character a numeric reference stands for (the WHATWG replacement rules)."""
    if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return "\ufffd"
    return chr(_WINDOWS_1252.get(code, code))


def decode_once(text):
    """One left-to-right pass: every character reference in `text` decoded once."""
    if "&" not in text:
        return text
    out = []
    i, n = 0, len(text)
    while i < n:
        amp = text.find("&", i)
        if amp < 0:
            out.append(text[i:])
            break
        out.append(text[i:amp])
        j = amp + 1
        if j < n and text[j] == "#":
            hexadecimal = j + 1 < n and text[j + 1] in "xX"
            start = j + 2 if hexadecimal else j + 1
            digits = (_HEX if hexadecimal else _DECIMAL).match(text, start)
            if digits is None:
                out.append("&")  # "&#" or "&#x" with no digits is not a reference
                i = amp + 1
                continue
            code = int(digits.group(), 16 if hexadecimal else 10)
            end = digits.end()
            if end < n and text[end] == ";":
                end += 1
            out.append(_numeric(code))
            i = end
            continue
        for length in range(min(_LONGEST_NAME, n - j), 0, -1):
            name = text[j : j + length]
            if name in _NAMES:
                out.append(_NAMES[name])
                i = j + length
                break
        else:
            out.append("&")
            i = amp + 1
    return "".join(out)


def decode_references(text):
    """Character references decoded pass after pass until nothing changes (bounded)."""
    for _ in range(MAX_PASSES):
        decoded = decode_once(text)
        if decoded == text:
            break
        text = decoded
    return text


# ---------------------------------------------------------------------------------------------
# RT-TOOL-8: normalize

_MAX_REF_DEPTH = 32


def resolve(root, schema, depth=0):
    """A local $ref ("#" or "#/json/pointer") followed, chains included; other schemas as they are."""
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and depth < _MAX_REF_DEPTH:
        target = _pointer(root, schema["$ref"])
        if target is None:
            return schema
        schema, depth = target, depth + 1
    return schema


def _pointer(root, reference):
    if not reference.startswith("#"):
        return None
    node = root
    for token in reference[1:].split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def declared_types(root, schema, depth=0):
    """The types a parameter's schema declares: `type`, and those of its anyOf/oneOf branches."""
    types = set()
    if depth > _MAX_REF_DEPTH:
        return types
    schema = resolve(root, schema)
    if not isinstance(schema, dict):
        return types
    declared = schema.get("type")
    if isinstance(declared, str):
        types.add(declared)
    elif isinstance(declared, list):
        types.update(t for t in declared if isinstance(t, str))
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list):
            for branch in branches:
                types |= declared_types(root, branch, depth + 1)
    return types


def _decode_json_argument(root, name, value):
    """Step 1 for one root argument: the JSON value, or the argument exactly as sent."""
    if not isinstance(value, str):
        return value
    properties = root.get("properties") if isinstance(root, dict) else None
    if not isinstance(properties, dict) or name not in properties:
        return value
    declared = declared_types(root, properties[name])
    if "string" in declared or not ({"array", "object"} & declared):
        return value
    try:
        parsed = loads(value)
    except ValueError:
        return value
    if isinstance(parsed, list) and "array" in declared:
        return _without_lone_surrogates(parsed)
    if isinstance(parsed, dict) and "object" in declared:
        return _without_lone_surrogates(parsed)
    return value


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_lone_surrogates(value):
    """JSON text may escape half of a surrogate pair (\\ud800 alone), which stands for no
    character; such a half becomes U+FFFD, so what reaches the tool is Unicode text."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_without_lone_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {_without_lone_surrogates(key): _without_lone_surrogates(item) for key, item in value.items()}
    return value


def _decode_leaves(value):
    """Step 2: every string leaf decoded, at any depth; keys as they are."""
    if isinstance(value, str):
        return decode_references(value)
    if isinstance(value, list):
        return [_decode_leaves(item) for item in value]
    if isinstance(value, dict):
        return {key: _decode_leaves(item) for key, item in value.items()}
    return value


def normalize(schema, arguments):
    """RT-TOOL-8: the arguments that reach a tool with this input schema."""
    if isinstance(arguments, dict):
        arguments = {name: _decode_json_argument(schema, name, value) for name, value in arguments.items()}
    return _decode_leaves(arguments)


# ---------------------------------------------------------------------------------------------
# PLAT-162: validation against the one registered schema

KIND_ORDER = ["missing_required", "unknown_field", "wrong_type", "not_in_enum", "too_short", "no_alternative", "invalid_value"]


def expected_fields(schema):
    """Every root property, plus the names the root `required` and root anyOf/oneOf branches require."""
    fields = set()
    if not isinstance(schema, dict):
        return []
    if isinstance(schema.get("properties"), dict):
        fields.update(schema["properties"])
    sources = [schema] + [b for k in ("anyOf", "oneOf") for b in (schema.get(k) or []) if isinstance(b, dict)]
    for source in sources:
        if isinstance(source.get("required"), list):
            fields.update(n for n in source["required"] if isinstance(n, str))
    return sorted(fields)


def _escape_token(token):
    return str(token).replace("~", "~0").replace("/", "~1")


class _Problems:
    """Problems found in one call, each {kind, field?, pointer?, alternatives?}."""

    def __init__(self):
        self.items = []

    def add(self, kind, field=None, pointer=None, alternatives=None, detail=""):
        problem = {"kind": kind}
        if field is not None:
            problem["field"] = field
        if pointer is not None:
            problem["pointer"] = pointer
        if alternatives is not None:
            problem["alternatives"] = alternatives
        key = (kind, field, pointer, json.dumps(alternatives))
        if all(key != existing[0] for existing in self.items):
            self.items.append((key, problem, detail))

    def sorted(self):
        def order(entry):
            (kind, field, pointer, alternatives), _, _ = entry
            return (KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER), field or "", pointer or "", alternatives)

        return [(problem, detail) for _, problem, detail in sorted(self.items, key=order)]


_KEYWORD_KIND = {"type": "wrong_type", "enum": "not_in_enum", "const": "not_in_enum", "minLength": "too_short",
                 "required": "missing_required", "additionalProperties": "unknown_field"}


def _failures(root, schema, value, path, depth=0):
    """Every keyword of `schema` that `value` breaks, as (keyword, path, detail), path a list of
    tokens below the value's root field. A subset of JSON Schema 2020-12 that covers what tool
    schemas use."""
    if depth > _MAX_REF_DEPTH:
        return []
    schema = resolve(root, schema)
    if schema is True or schema is None or schema == {}:
        return []
    if schema is False:
        return [("false", path, "no value is allowed here")]
    if not isinstance(schema, dict):
        return []
    out = []
    kind = json_type(value)
    declared = schema.get("type")
    if declared is not None:
        names = declared if isinstance(declared, list) else [declared]
        if not any(t == kind or (t == "number" and kind == "integer") for t in names):
            out.append(("type", path, "expected " + " or ".join(str(t) for t in names)))
    if "enum" in schema and isinstance(schema["enum"], list):
        if not any(json_equal(value, allowed) for allowed in schema["enum"]):
            out.append(("enum", path, "not one of the allowed values"))
    if "const" in schema and not json_equal(value, schema["const"]):
        out.append(("const", path, "not the allowed value"))
    if kind == "string":
        if isinstance(schema.get("minLength"), (int, Decimal)) and len(value) < schema["minLength"]:
            out.append(("minLength", path, f"at least {schema['minLength']} characters"))
        if isinstance(schema.get("maxLength"), (int, Decimal)) and len(value) > schema["maxLength"]:
            out.append(("maxLength", path, f"at most {schema['maxLength']} characters"))
        if isinstance(schema.get("pattern"), str):
            try:
                if re.search(schema["pattern"], value) is None:
                    out.append(("pattern", path, f"matching {schema['pattern']}"))
            except re.error:
                pass
    if kind in ("integer", "number"):
        number = Decimal(value)
        for keyword, broken in (("minimum", lambda b: number < b), ("maximum", lambda b: number > b),
                                ("exclusiveMinimum", lambda b: number <= b), ("exclusiveMaximum", lambda b: number >= b)):
            bound = schema.get(keyword)
            if isinstance(bound, (int, Decimal)) and not isinstance(bound, bool) and broken(Decimal(bound)):
                out.append((keyword, path, f"{keyword} {bound}"))
        step = schema.get("multipleOf")
        if isinstance(step, Decimal) and step > 0 and number % step != 0:
            out.append(("multipleOf", path, f"a multiple of {step}"))
    if kind == "array":
        prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else []
        for index, item in enumerate(value):
            if index < len(prefix):
                out += _failures(root, prefix[index], item, path + [index], depth + 1)
            elif "items" in schema:
                out += _failures(root, schema["items"], item, path + [index], depth + 1)
        for keyword, broken in (("minItems", lambda b: len(value) < b), ("maxItems", lambda b: len(value) > b)):
            if isinstance(schema.get(keyword), Decimal) and broken(schema[keyword]):
                out.append((keyword, path, f"{keyword} {schema[keyword]}"))
        if schema.get("uniqueItems") is True:
            if any(json_equal(value[i], value[j]) for i in range(len(value)) for j in range(i)):
                out.append(("uniqueItems", path, "items must be unique"))
    if kind == "object":
        out += _object_failures(root, schema, value, path, depth, closed=False)
    for keyword in ("allOf",):
        for branch in schema.get(keyword) or []:
            out += _failures(root, branch, value, path, depth + 1)
    if isinstance(schema.get("anyOf"), list):
        if not any(not _failures(root, b, value, path, depth + 1) for b in schema["anyOf"]):
            out.append(("anyOf", path, "none of the alternatives matches"))
    if isinstance(schema.get("oneOf"), list):
        matching = sum(1 for b in schema["oneOf"] if not _failures(root, b, value, path, depth + 1))
        if matching != 1:
            out.append(("oneOf", path, "not exactly one of the alternatives matches"))
    if "not" in schema and not _failures(root, schema["not"], value, path, depth + 1):
        out.append(("not", path, "a value the schema excludes"))
    if "if" in schema:
        branch = "then" if not _failures(root, schema["if"], value, path, depth + 1) else "else"
        if branch in schema:
            out += _failures(root, schema[branch], value, path, depth + 1)
    return out


def _object_failures(root, schema, value, path, depth, closed, admitted=()):
    """The object keywords. With `closed`, names outside `admitted` (and the patterns) are unknown
    when the schema does not declare additionalProperties itself."""
    out = []
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    patterns = schema.get("patternProperties") if isinstance(schema.get("patternProperties"), dict) else {}
    for name in schema.get("required") or []:
        if isinstance(name, str) and name not in value:
            out.append(("required", path + [name], "a required field"))
    for name, item in value.items():
        matched = False
        if name in properties:
            matched = True
            out += _failures(root, properties[name], item, path + [name], depth + 1)
        for pattern, pattern_schema in patterns.items():
            try:
                if re.search(pattern, name):
                    matched = True
                    out += _failures(root, pattern_schema, item, path + [name], depth + 1)
            except re.error:
                pass
        if matched:
            continue
        if "additionalProperties" in schema:
            extra = schema["additionalProperties"]
            if extra is False:
                out.append(("additionalProperties", path + [name], "no such field"))
            else:
                out += _failures(root, extra, item, path + [name], depth + 1)
        elif closed and name not in admitted:
            out.append(("additionalProperties", path + [name], "no such field"))
    for keyword, broken in (("minProperties", lambda b: len(value) < b), ("maxProperties", lambda b: len(value) > b)):
        if isinstance(schema.get(keyword), Decimal) and broken(schema[keyword]):
            out.append((keyword, path, f"{keyword} {schema[keyword]}"))
    dependent = schema.get("dependentRequired")
    if isinstance(dependent, dict):
        for name, needed in dependent.items():
            if name in value:
                for other in needed or []:
                    if other not in value:
                        out.append(("required", path + [other], f"required with {name}"))
    if "propertyNames" in schema:
        for name in value:
            if _failures(root, schema["propertyNames"], name, path, depth + 1):
                out.append(("propertyNames", path + [name], "a name the schema does not allow"))
    return out


def _required_sets(schema, keyword):
    """The required-field sets of the root anyOf/oneOf branches, when every branch has one."""
    branches = schema.get(keyword)
    if not isinstance(branches, list) or not branches:
        return None
    sets = []
    for branch in branches:
        if not isinstance(branch, dict) or not isinstance(branch.get("required"), list):
            return None
        sets.append([name for name in branch["required"] if isinstance(name, str)])
    return sets


def validate(schema, arguments):
    """PLAT-162's check of a call's (normalized) arguments: the problems, sorted; none when valid."""
    problems = _Problems()
    if not isinstance(arguments, dict):
        problems.add("wrong_type", detail="the arguments must be an object of named arguments")
        return problems.sorted()
    if schema is False:
        problems.add("invalid_value", detail="the tool accepts no call")
        return problems.sorted()
    if not isinstance(schema, dict):
        return []
    admitted = set(expected_fields(schema))
    root_only = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
    failures = _object_failures(schema, root_only, arguments, [], 0, closed=True, admitted=admitted)
    failures += [f for f in _failures(schema, {k: v for k, v in root_only.items() if k not in _OBJECT_KEYWORDS}, arguments, [])]
    for keyword in ("anyOf", "oneOf"):
        if not isinstance(schema.get(keyword), list):
            continue
        branches = schema[keyword]
        matching = sum(1 for b in branches if not _failures(schema, b, arguments, []))
        if (keyword == "anyOf" and matching == 0) or (keyword == "oneOf" and matching != 1):
            sets = _required_sets(schema, keyword)
            if sets is not None and matching == 0:
                problems.add("no_alternative", alternatives=sets, detail="none of the alternatives is satisfied")
            else:
                problems.add("invalid_value", detail=f"the arguments do not satisfy the root {keyword}")
    for keyword, path, detail in failures:
        if not path:
            kind = "wrong_type" if keyword == "type" else "invalid_value"
            problems.add(kind, detail=detail)
            continue
        field = str(path[0])
        pointer = "/" + "/".join(_escape_token(t) for t in path) if len(path) > 1 else None
        problems.add(_KEYWORD_KIND.get(keyword, "invalid_value"), field=field, pointer=pointer, detail=detail)
    return problems.sorted()


_OBJECT_KEYWORDS = {"properties", "patternProperties", "additionalProperties", "required", "minProperties",
                    "maxProperties", "dependentRequired", "propertyNames"}


def _sentence(problem, detail):
    field = f"`{problem['field']}`" if "field" in problem else "the arguments"
    where = f" (at {problem['pointer']})" if "pointer" in problem else ""
    kind = problem["kind"]
    if kind == "missing_required":
        return f"{field} is required but missing{where}"
    if kind == "unknown_field":
        return f"{field} is not a field of this tool{where}"
    if kind == "wrong_type":
        return f"{field} has the wrong type{where}: {detail}"
    if kind == "not_in_enum":
        return f"{field} is not one of the allowed values{where}"
    if kind == "too_short":
        return f"{field} is too short{where}: {detail}"
    if kind == "no_alternative":
        options = " or ".join("{" + ", ".join(f"`{n}`" for n in names) + "}" for names in problem["alternatives"])
        return f"give one of these sets of fields: {options}"
    return f"{field} is not valid{where}: {detail}"


def rejection(tool, problems, fields):
    """The one error of a rejected call: every problem named, the expected fields, get_api_spec."""
    sentences = "; ".join(_sentence(problem, detail) for problem, detail in problems)
    listed = ", ".join(f"`{name}`" for name in fields) if fields else "(none)"
    message = (f"Tool `{tool}` was called with invalid arguments: {sentences}. "
               f"Expected fields: {listed}. Call get_api_spec with the tool's name to read its schema.")
    return {"message": message, "problems": [problem for problem, _ in problems], "expected_fields": list(fields)}


class Executor:
    """One registered tool: its schema as registered, validated before its handler runs."""

    def __init__(self, tool):
        self.name = tool["name"]
        self.schema = tool["input_schema"]
        self.fields = expected_fields(self.schema)

    def execute(self, arguments, handler):
        """Normalize, validate, and only then call the handler. Returns None, or the error object."""
        normalized = normalize(self.schema, arguments)
        problems = validate(self.schema, normalized)
        if problems:
            return rejection(self.name, problems, self.fields)
        handler(normalized)
        return None
