"""A whole session with an adapter, for a framework adapter's own tests: the requests, numbered
(`seq` 0, 1, ...), written one a line to `<python> <adapter> ` (the adapter's own interpreter by
default, so its framework is importable), and the answers read back, one a line, checked to come
back in order, one per request.

    answers = exchange(os.path.join(HERE, "adapter.py"), [{"cmd": "start", "protocol": 1}, ...])
"""

import json
import subprocess
import sys


class ExchangeError(AssertionError):
    """The adapter did not answer each request once, in order (its stderr is in the message)."""


def exchange(adapter, requests, timeout=120, python=None):
    """The answers of `adapter` (a Python file speaking protocol v1 on stdio) to `requests`."""
    lines = "".join(json.dumps(dict(request, seq=seq)) + "\n" for seq, request in enumerate(requests))
    done = subprocess.run(
        [python or sys.executable, adapter], input=lines, capture_output=True, text=True, timeout=timeout
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    if [answer.get("seq") for answer in answers] != list(range(len(requests))):
        raise ExchangeError(
            f"{adapter} answered seq {[a.get('seq') for a in answers]} to {len(requests)} requests "
            f"(exit {done.returncode}); its stderr ends:\n{done.stderr[-2000:]}"
        )
    return answers
