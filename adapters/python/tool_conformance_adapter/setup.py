"""What a framework adapter says when its framework is not installed beside it: one message that
names the package and the commands that install it from the adapter's pins, then exit 1.

    try:
        from llama_index.core.tools import FunctionTool
    except ImportError as missing:
        not_installed("llama-index-core", HERE, missing)
"""

import sys


def not_installed(package, here, missing):
    """Writes how to install `package` beside the adapter in `here`, and exits 1."""
    sys.stderr.write(
        f"{package} is not importable ({missing}). Install it beside this adapter:\n"
        f"  python3 -m venv {here}/.venv && {here}/.venv/bin/pip install -r {here}/requirements.txt\n"
        f"and run the adapter with {here}/.venv/bin/python\n"
    )
    sys.exit(1)
