"""How a framework adapter sets itself up: one message, then exit 1, when its framework is not
installed beside it (the message names the package and the commands that install it from the
adapter's pins), and the logging and warnings a pydantic-based framework run keeps off stderr.

    with installed("llama-index-core", HERE):
        from llama_index.core.tools import FunctionTool
    quiet(level=logging.ERROR)
"""

import contextlib
import logging
import sys
import warnings


def not_installed(package, here, missing):
    """Writes how to install `package` beside the adapter in `here`, and exits 1."""
    sys.stderr.write(
        f"{package} is not importable ({missing}). Install it beside this adapter:\n"
        f"  python3 -m venv {here}/.venv && {here}/.venv/bin/pip install -r {here}/requirements.txt\n"
        f"and run the adapter with {here}/.venv/bin/python\n"
    )
    sys.exit(1)


@contextlib.contextmanager
def installed(package, here):
    """The framework's imports, in a `with` block: an ImportError in it is `not_installed`."""
    try:
        yield
    except ImportError as missing:
        not_installed(package, here, missing)


def quiet(level=logging.ERROR, serializer=False):
    """Logs only at `level` and above, on stderr, and keeps off it the warning pydantic gives for a
    default it cannot publish (the signature module's NOT_SENT, rightly left out of a schema);
    with `serializer`, also pydantic's serializer warnings (NOT_SENT when a model is dumped)."""
    from pydantic.json_schema import PydanticJsonSchemaWarning

    logging.basicConfig(stream=sys.stderr, level=level)
    warnings.filterwarnings("ignore", category=PydanticJsonSchemaWarning)
    if serializer:
        warnings.filterwarnings("ignore", message=r"(?s).*Pydantic serializer warnings")
