"""The runtime of a framework row whose framework builds each tool from a schema, and whose tool
is a function that records what it received: what every such row does around its framework.

`register` builds each tool (one the framework refuses is kept with why, and the others register
all the same), `invoke` calls a registered tool on a transport the row claims, and `normalize`
calls the scratch tool of the schema (built once per schema, or its refusal answered again); a
call whose function received a value JSON cannot carry is a Failure. A row says only how its
framework builds a tool (`build`) and runs one call (`run`):

    class Runtime(ToolRuntime):
        package, homepage, framework = "llama-index-core", "https://github.com/run-llama/llama_index", "LlamaIndex"
        transports = ("direct", "structured")

        def build(self, name, description, schema):
            return tool, recorder  # or raise Unsupported with the framework's refusal

        def run(self, tool, transport, arguments):
            return None  # or the error object the caller got

    if __name__ == "__main__":
        Runtime.main(__doc__)
"""

import sys

from . import Failure, RanOnNotJson, Unsupported, dumps, main
from .received import to_framework
from .scratch import RegisteredTools, installed_implementation, invoked, normalized, scratch_tool


class ToolRuntime(RegisteredTools):
    # The distribution the framework is installed as, and its home page (for `start`).
    package = None
    homepage = None
    # How a Failure names the framework when a call ran no function and the caller got no error;
    # None where the row answers every such call with an error of its own.
    framework = None
    # The transports the row claims; a call on another is Unsupported.
    transports = ("structured",)
    # The transport a normalize calls its scratch tool on.
    normalize_transport = "structured"

    def __init__(self):
        self.tools = {}  # name -> (what the framework built, its Recorder)
        self.refused = {}  # name -> why the framework would not build it
        self.scratch = {}  # schema text -> (built, Recorder), or why not
        self.counter = 0

    @classmethod
    def implementation(cls):
        """The Implementation `start` answers: the installed `package`, on the row's transports."""
        return installed_implementation(cls.package, cls.homepage, list(cls.transports))

    @classmethod
    def main(cls, doc):
        """Serves protocol v1 with this runtime (stdio, or `--http HOST:PORT`); `doc` is the
        adapter's docstring, whose first line describes it."""
        # Every number as the Decimal of its literal: `to_framework` turns it into exactly what the
        # framework's JSON parser makes of the literal (1e400 as inf, say, as json.loads does).
        main(cls.implementation(), cls, description=doc.splitlines()[0], numbers="decimal")

    def build(self, name, description, schema):
        """(what the framework built for the tool, the Recorder its function records with), from
        the schema as `json.loads` makes it; Unsupported, saying why, where it builds nothing."""
        raise NotImplementedError

    def run(self, built, transport, arguments):
        """Runs one call of the built tool on `transport` with `arguments` (the kit's values): the
        error object the caller got, or None."""
        raise NotImplementedError

    def scratch_name(self):
        """The name of the next scratch tool a normalize builds."""
        self.counter += 1
        return f"normalize_{self.counter}"

    def register(self, tool_list):
        self.tools, self.refused = {}, {}
        for tool in tool_list:
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str) or "input_schema" not in tool:
                raise Failure("a tool needs a string name and an input_schema")
            try:
                self.tools[tool["name"]] = self.build(tool["name"], tool.get("description"), to_framework(tool["input_schema"]))
            except Unsupported as why:
                self.refused[tool["name"]] = str(why)  # the other tools still register

    def call(self, built, recorder, transport, arguments):
        """One call: (what the function received, per run, the caller's error or None)."""
        recorder.calls, recorder.unreadable = [], None
        error = self.run(built, transport, arguments)
        if recorder.unreadable is not None:
            raise RanOnNotJson(recorder.unreadable)  # the tool ran: the case fails, saying on what
        return list(recorder.calls), error

    def invoke(self, transport, tool, arguments, handler):
        if transport not in self.transports:
            raise Unsupported(f"no transport {transport!r}")
        built, recorder = self.entry(tool)
        calls, error = self.call(built, recorder, transport, arguments)
        return invoked(calls, error, handler, self.framework)

    def normalize(self, input_schema, arguments):
        """What reaches a tool with this schema when it is called on `normalize_transport`: what
        the function received, or `rejected` with the error the caller got."""
        def scratch():
            return self.build(self.scratch_name(), None, to_framework(input_schema))

        built, recorder = scratch_tool(self.scratch, dumps(input_schema), scratch)
        calls, error = self.call(built, recorder, self.normalize_transport, arguments)
        return normalized(calls, error, self.framework)


def refusing(make, unmappable, says, refused):
    """What `make()` returns; Unsupported quoting the refusal where it raises: `unmappable` (the
    row's exception for a schema no function stands for) as `<says>: <why>`, any other exception
    (the framework, or pydantic under it, refusing the function) as `<refused>: <type>: <why>`."""
    try:
        return make()
    except Unsupported:
        raise
    except unmappable as why:
        raise Unsupported(f"{says}: {why}") from None
    except Exception as why:
        raise Unsupported(f"{refused}: {type(why).__name__}: {why}") from None


def signature_tool(framework, name, make, unmappable, check=None):
    """The tool `make()` builds (it returns the tool and notes on how its function's signature says
    the schema, each written to stderr), after `check(tool)` where the framework only refuses a
    function when it first uses it; Unsupported quoting the refusal (`refusing`), where a schema no
    signature says raises `unmappable`."""

    def made():
        tool, notes = make()
        if check is not None:
            check(tool)
        return tool, notes

    tool, notes = refusing(made, unmappable, "no function signature says this schema", f"{framework} refused the function")
    for note in notes:
        sys.stderr.write(f"[{framework} adapter] {name}: {note}\n")
    return tool
