#!/usr/bin/env python3
"""A tool-conformance adapter (protocol v1) for LlamaIndex (PyPI `llama-index-core`) with each
tool's constraints written in the `= Field(...)` style: the llama-index adapter
(examples/adapters/llama-index/adapter.py), its tools built by the same tool.py, with one setting
changed. A parameter the schema constrains is `name: str = Field(min_length=1)` (a required one
`Field(...)`) instead of `name: Annotated[str, StringConstraints(min_length=1)]`.

    .venv/bin/python adapter.py                      # protocol v1 on stdin and stdout
    .venv/bin/python adapter.py --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL

See README.md beside this file for what is measured and what the style changes.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "llama-index"))

import adapter as llama_index  # noqa: E402  (examples/adapters/llama-index/adapter.py)

llama_index.tool_builder.STYLE = "field"

if __name__ == "__main__":
    llama_index.Runtime.main(__doc__)
