#!/usr/bin/env python3
"""A tool-conformance adapter (protocol v1) for the OpenAI Agents SDK (PyPI `openai-agents`) with
`strict_mode=False` where the SDK's default refuses a function: the openai-agents adapter
(examples/adapters/openai-agents/adapter.py), its tools built by the same tool.py, with one setting
changed. `function_tool` is first given the function as it is (strict JSON schema, the default);
where the SDK refuses it (`UserError`), it is given again with `strict_mode=False`, which is what
that error tells its users to do.

    .venv/bin/python adapter.py                      # protocol v1 on stdin and stdout
    .venv/bin/python adapter.py --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL

See README.md beside this file for what is measured and why this fallback.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "openai-agents"))

import adapter as openai_agents  # noqa: E402  (examples/adapters/openai-agents/adapter.py)

openai_agents.STRICT = "fallback"

if __name__ == "__main__":
    openai_agents.Runtime.main(__doc__)
