"""The suite's problem kinds for pydantic's error types, for the rows whose framework answers a
refused call with pydantic's errors: `kind_of(error_type)` is the suite's name where it has one
(`missing_required`, `unknown_field`, ...), `wrong_type` for any `*_type` or `*_parsing` error, and
the error type itself otherwise. A row whose framework raises further types passes its own table,
made from `KINDS`.
"""

# pydantic's error types the suite has a name for; any other type is kept as the problem's kind.
KINDS = {
    "missing": "missing_required",
    "missing_argument": "missing_required",
    "extra_forbidden": "unknown_field",
    "unexpected_keyword_argument": "unknown_field",
    "literal_error": "not_in_enum",
    "enum": "not_in_enum",
    "string_too_short": "too_short",
    "int_from_float": "wrong_type",
    "none_required": "wrong_type",
}


def kind_of(error_type, kinds=KINDS):
    """The problem kind of one pydantic error type."""
    if error_type in kinds:
        return kinds[error_type]
    if error_type.endswith("_type") or error_type.endswith("_parsing"):
        return "wrong_type"
    return error_type
