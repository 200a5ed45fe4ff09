"""What a framework adapter's runtime does around the framework for `invoke`, `normalize` and
`start`: the scratch tool built once per schema (or the framework's refusal of it, kept and answered again),
the answers made from what the tool's function received or the error the caller got, and the
`Implementation` of a framework installed as a distribution.

    built, recorder = scratch_tool(self.scratch, dumps(schema), lambda: build("repro", schema))
    calls, error = self.call(built, recorder, arguments)
    return normalized(calls, error, "LlamaIndex")
"""

import importlib.metadata

from . import Failure, Implementation, Rejected, Unsupported


class RegisteredTools:
    """A runtime's registered tool set, read by name: the runtime keeps `tools` (name -> what the
    framework built for it) and `refused` (name -> why the framework would not build it, the other
    tools registering all the same)."""

    def entry(self, name):
        """What was built for `name`; Unsupported with why for a refused tool, Failure for one that
        was never registered."""
        if name in self.refused:
            raise Unsupported(self.refused[name])
        if name not in self.tools:
            raise Failure(f"no tool named {name!r} is registered")
        return self.tools[name]


class CurrentRegistry:
    """A runtime that keeps the tool set of its last `register` as `registry` (None before any):
    `current()` is that set, and a Failure before any register."""

    registry = None

    def current(self):
        if self.registry is None:
            raise Failure("no tools are registered")
        return self.registry


def scratch_tool(cache, key, build):
    """The scratch tool `cache` holds for `key`, built with `build()` the first time. A build that
    raises Unsupported is kept as its text, and every later normalize of that schema is answered
    with the same Unsupported without building again."""
    if key not in cache:
        try:
            cache[key] = build()
        except Unsupported as why:
            cache[key] = str(why)
    if isinstance(cache[key], str):
        raise Unsupported(cache[key])
    return cache[key]


def normalized(calls, error, framework=None):
    """What `normalize` answers: what the function received at its last call; else the caller's
    error, Rejected. With `framework` named, a run that called nothing and reported no error is the
    framework's Failure (it said success, but the function did not run)."""
    if calls:
        return calls[-1]
    if error is None and framework is not None:
        raise Failure(f"{framework} reported success, but the tool function did not run")
    raise Rejected(error)


def invoked(calls, error, handler, framework=None):
    """What `invoke` answers: each thing the function received is handed to `handler`, in order,
    and None answered; else the caller's error. With `framework` named, a run that called nothing
    and reported no error is the framework's Failure."""
    for received in calls:
        handler(received)
    if calls:
        return None
    if error is None and framework is not None:
        raise Failure(f"{framework} reported success, but the tool function did not run")
    return error


def installed_implementation(package, homepage, transports):
    """The Implementation of the installed distribution `package` (its version as installed),
    claiming both rules on `transports`."""
    return Implementation(
        name=package,
        version=importlib.metadata.version(package),
        language="python",
        homepage=homepage,
        rules=["RT-TOOL-8", "PLAT-162"],
        transports=transports,
    )
