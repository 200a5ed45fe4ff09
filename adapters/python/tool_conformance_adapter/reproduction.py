"""A framework adapter's reproduction template run the way a page's reader runs it, for the
adapter's own tests: filled as the generated README fills it (`fill_template`), fed to the
adapter's interpreter (this one, by default) on standard input from the adapter folder, as
`run-frameworks.sh` runs it (docs/protocol.md, "The reproduction template").

    done = run_template(os.path.join(HERE, "repro.py"), tool="t", schema={...}, arguments={...})
    assert "the tool received: {...}" in done.stdout
"""

import os
import subprocess
import sys

from .template import fill_template


# A call whose arguments an MCP client sends as the model wrote them: an array and an integer as
# strings, and a name no schema declares (with a right-to-left override) holding quotes, `$1`, a
# backtick and a character reference, all of which the filled template must carry exactly.
STRING_ARGUMENTS = {
    "tool": "t",
    "schema": {"type": "object", "properties": {"ids": {"type": "array"}, "n": {"type": "integer"}}, "required": ["n"]},
    "arguments": {"ids": "[1]", "n": "7", "\u00e9\u202e": "it's $1 `&amp;`"},
}


def run_template(template, *, tool, schema, arguments, python=None, timeout=120):
    """The finished process (stdout, stderr, returncode) of `template` (a path) filled with the
    tool's name, the schema and the arguments, run from the template's folder."""
    with open(template, encoding="utf-8") as handle:
        filled = fill_template(handle.read(), tool=tool, schema=schema, arguments=arguments)
    return subprocess.run(
        [python or sys.executable, "-"],
        input=filled,
        cwd=os.path.dirname(os.path.abspath(template)),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def printed(template, call=STRING_ARGUMENTS, **options):
    """What `template` (a path), filled with `call` (a dict of `tool`, `schema` and `arguments`;
    STRING_ARGUMENTS by default) and run as `run_template` runs it, printed on stdout. An
    AssertionError, with its stderr, where it exits non-zero or writes anything on stderr: a
    reproduction a reader runs says nothing but its outcome lines and what they rest on."""
    done = run_template(template, **call, **options)
    if done.returncode != 0 or done.stderr != "":
        raise AssertionError(f"{template} exited {done.returncode}; its stderr:\n{done.stderr[-2000:]}")
    return done.stdout
