"""The reproduction template of a framework adapter, filled as the harness's generated README
fills it (src/report/about.rs, `fill` and `json_text`; docs/protocol.md, "The reproduction
template"), so that an adapter's own tests can run the very text a maintainer is given.

`json_text` is the compact JSON text of a value in printable ASCII, with every other character
and every `'`, backtick and `$` written as a `\\uXXXX` escape (lower-case hex; UTF-16 code units,
so a character beyond U+FFFF is a surrogate pair and a lone surrogate its own escape). Such
characters only occur inside JSON strings, so the text is JSON of the same value and sits
unchanged in a raw string `r'''...'''`. `fill_template` puts the tool's name and that text of
the schema and of the arguments in place of `__TOOL__`, `__SCHEMA__` and `__ARGUMENTS__`.
"""

from .exact_json import dumps

_ESCAPED = {"'": "\\u0027", "`": "\\u0060", "$": "\\u0024"}


def json_text(value):
    """The JSON text the harness puts in place of `__SCHEMA__` / `__ARGUMENTS__` for `value`: a
    value of the kit's `loads` (Decimal numbers written with their exact digits) or a plain one
    (int, float as its repr); key order kept; printable ASCII with no `'`, backtick or `$`."""
    text = dumps(value)  # compact; non-ASCII, DEL and control characters already \u-escaped
    return "".join(_ESCAPED.get(c, c) for c in text)


def fill_template(template, *, tool, schema, arguments):
    """`template` with every `__TOOL__` replaced by `tool` as it is, then every `__SCHEMA__` and
    every `__ARGUMENTS__` by the `json_text` of `schema` and of `arguments`, in that order (as
    src/report/about.rs `fill` does)."""
    return (
        template.replace("__TOOL__", tool)
        .replace("__SCHEMA__", json_text(schema))
        .replace("__ARGUMENTS__", json_text(arguments))
    )
