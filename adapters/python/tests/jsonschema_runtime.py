"""A newcomer's runtime behind the kit, claiming PLAT-162: each call is validated with `jsonschema`
(Draft 2020-12) before its tool runs, with the numbers exactly as the kit hands them over (no
conversion of its own). The root object is closed unless the schema declares
additionalProperties; each jsonschema error becomes one problem of the error object.

    pip install jsonschema
    PYTHONPATH=adapters/python tool-conformance run --rule PLAT-162 --stdio 'python3 adapters/python/tests/jsonschema_runtime.py'

The kit's tests run it against the harness when jsonschema and the harness are at hand
(test_jsonschema_runtime.py).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from jsonschema import Draft202012Validator  # noqa: E402

from tool_conformance_adapter import Failure, Implementation, main  # noqa: E402

KINDS = {"required": "missing_required", "type": "wrong_type", "enum": "not_in_enum", "const": "not_in_enum",
         "minLength": "too_short", "minItems": "too_short"}


def branch_required(schema):
    """The required names of each branch of the root anyOf/oneOf."""
    branches = (schema.get("anyOf") or []) + (schema.get("oneOf") or [])
    return [sorted(branch.get("required", [])) for branch in branches if isinstance(branch, dict)]


def expected_fields(schema):
    names = set(schema.get("properties", {})) | set(schema.get("required", []))
    for required in branch_required(schema):
        names |= set(required)
    return sorted(names)


def problems_of(schema, arguments):
    """The problems of a call: each jsonschema error, plus the unknown names of a closed root."""
    if not isinstance(arguments, dict):
        return [{"kind": "wrong_type"}]
    problems = []
    for error in Draft202012Validator(schema).iter_errors(arguments):
        field = ".".join(str(step) for step in error.absolute_path) or None
        if error.validator == "required":
            for name in error.validator_value:
                if name not in error.instance:
                    problems.append({"kind": "missing_required", "field": f"{field}.{name}" if field else name})
        elif error.validator in ("anyOf", "oneOf") and field is None:
            problems.append({"kind": "no_alternative", "alternatives": branch_required(schema)})
        elif error.validator == "additionalProperties" and error.validator_value is False:
            declared = error.schema.get("properties", {})
            for name in error.instance:
                if name not in declared:
                    problems.append({"kind": "unknown_field", "field": f"{field}.{name}" if field else name})
        else:
            problem = {"kind": KINDS.get(error.validator, error.validator)}
            if field is not None:
                problem["field"] = field
            problems.append(problem)
    if "additionalProperties" not in schema:  # closed root: only the expected fields
        admitted = set(expected_fields(schema))
        problems += [{"kind": "unknown_field", "field": name} for name in arguments if name not in admitted]
    unique = {(p["kind"], p.get("field")): p for p in problems}  # one "required" error per missing name
    return sorted(unique.values(), key=lambda p: (p.get("field") or "", p["kind"]))


class Runtime:
    def __init__(self):
        self.tools = {}

    def register(self, tools):
        self.tools = {tool["name"]: tool["input_schema"] for tool in tools}

    def describe(self, tool, view):
        return self.tools[tool]

    def normalize(self, input_schema, arguments):
        raise Failure("RT-TOOL-8 is not claimed")

    def invoke(self, transport, tool, arguments, handler):
        if tool not in self.tools:
            raise Failure(f"no tool named {tool!r}")
        schema = self.tools[tool]
        problems = problems_of(schema, arguments)
        if problems:
            said = "; ".join(f"{p['kind']} {p.get('field', '')}".strip() for p in problems)
            return {"message": f"invalid arguments for {tool}: {said}. Expected fields: "
                               f"{', '.join(expected_fields(schema))}. Call get_api_spec for the tool's schema.",
                    "problems": problems, "expected_fields": expected_fields(schema)}
        handler(arguments)
        return None


if __name__ == "__main__":
    main(Implementation(name="jsonschema-runtime", version="0.1.0", rules=["PLAT-162"],
                        transports=["direct", "structured", "http"]), new_runtime=Runtime)
