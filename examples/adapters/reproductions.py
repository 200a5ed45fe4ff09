#!/usr/bin/env python3
"""Extracts the minimal reproductions of a generated reports/<name>/README.md, for
run-frameworks.sh to run each from the adapter folder, and compares what they printed with what
the page's standing records.

    python3 examples/adapters/reproductions.py PAGE LANGUAGE OUT_DIR
    python3 examples/adapters/reproductions.py compare OUT_DIR STANDING TEMPLATE

`tool-conformance readme` (src/report/readme.rs) writes each reproduction as a paragraph

    <language> (from `<template>`, as the adapter calls it):

then a blank line, then a fenced code block: a fence of three or more backticks (longer than any
backtick run in the code) followed by the language as its info string, the filled template, and
the same fence alone on a line. Each group's paragraph follows the line `Minimal reproduction:
...`; a group of describe cases only has `Smallest case: ...` and no code block.

Every reproduction whose text differs from those before it is written to OUT_DIR/<n>.src (n from
1), and one line per reproduction to OUT_DIR/index.tsv: n, the clause heading it sits under, the
n of the file it runs (its own, or the earlier identical one), and the id of the case it
reproduces. Prints `<reproductions>
<distinct>` on stdout. Exits 2, saying why on stderr, when the page does not have the shape above:
a `Minimal reproduction:` line with no code block in LANGUAGE after it, a block not closed, or a
block whose info string is not LANGUAGE, so a change of the page's format fails loudly instead of
running nothing.

`compare` reads OUT_DIR/index.tsv and, for each reproduction, OUT_DIR/<n>.src (what ran) and
OUT_DIR/<n>.out (what it printed), and compares every outcome line it printed with the answers the
adapter gave for the same arguments in the case's recorded exchange (STANDING, the standing.json
beside the page): the arguments are read out of the filled source where TEMPLATE (the adapter's
reproduction template) has `__ARGUMENTS__`. A `the tool received: <JSON>` line must match an
answer in which the tool ran (`executed`, or a normalize answer's `arguments`; over MCP, a
tools/call result that is no error, and through an HTTP bridge a 2xx answer, by kind alone), with the same value whenever both are readable JSON (an answer cut short in the exchange, or a line printed
`(not JSON)`, compares by kind alone); a `the caller got:` line must match an answer in which the
caller was refused (`rejected`; over MCP, a JSON-RPC error or a result with isError true; through
an HTTP bridge, any other status). A reproduction whose case errored, or whose exchange holds no
answer to those arguments, is not compared, and is counted so. Prints `<compared> <not compared>`
and one line per mismatch on stderr; exits 1 when any reproduction does not show what its page
records.
"""

import json
import os
import re
import sys

PARAGRAPH = re.compile(r"^(?P<lang>[^ ]+) \(from `+[^`].*`+, as the adapter calls it\):$")
OPEN = re.compile(r"^(?P<fence>`{3,})(?P<info>[^`]*)$")


def fail(page, line, message):
    print(f"{page}:{line}: {message}", file=sys.stderr)
    sys.exit(2)


OUTCOME = re.compile(r"^(?P<kind>the tool received|the caller got): ?(?P<rest>.*)$")
READABLE = object()  # an answer's kind is known but not its value


def arguments_in(source, template):
    """The arguments a filled reproduction sends: the JSON text where the template's first line
    holding `__ARGUMENTS__` has it (None when no line of the source fits that line). Where lines of
    the template before it have the same shape with another placeholder (a Rust template's raw
    strings, `r####"__SCHEMA__"####,` then `r####"__ARGUMENTS__"####,`), the source line is the one
    at the same place among the lines of that shape."""
    lines = template.split("\n")
    for at, line in enumerate(lines):
        if "__ARGUMENTS__" not in line:
            continue
        before, after = line.split("__ARGUMENTS__", 1)
        before = before.replace("__TOOL__", "")
        shaped = lambda text: text.startswith(before) and text.endswith(after) and len(text) >= len(before) + len(after)
        earlier = sum(
            1
            for other in lines[:at]
            if any(shaped(other.replace(p, "x")) for p in ("__SCHEMA__", "__TOOL__")) and "__ARGUMENTS__" not in other
        )
        matches = [filled for filled in source.split("\n") if shaped(filled)]
        for filled in matches[earlier:]:
            text = filled[len(before) : len(filled) - len(after)]
            try:
                return json.loads(text)
            except ValueError:
                continue
        return None
    return None


def answers(case, arguments):
    """(kind, value) of every answer in the case's exchange to a call with these arguments: kind
    `received` or `refused`; value the JSON received, or READABLE when the answer is cut short. A
    request cut short (its arguments unreadable) counts as one with these arguments."""
    out = []
    lines = case.get("exchange") or []
    for i, line in enumerate(lines[:-1]):
        if not line.startswith("> ") or not lines[i + 1].startswith("< "):
            continue
        request, answer = line[2:], lines[i + 1][2:]
        try:
            sent = json.loads(request)
        except ValueError:
            sent = None
            if MCP_CALL.search(request):
                out.extend(mcp_answer(answer))
                continue
            bridge = BRIDGE_CALL.match(request)
            if bridge:
                try:
                    body = json.loads(bridge.group("body"))
                except ValueError:
                    body = arguments  # a request cut short counts as one with these arguments
                if body == arguments:
                    out.extend(bridge_answer(answer))
                continue
            if not re.match(r'^\{"cmd":"(invoke|normalize)"', request):
                continue
        if isinstance(sent, dict) and "jsonrpc" in sent:
            params = sent.get("params") if isinstance(sent.get("params"), dict) else {}
            if sent.get("method") == "tools/call" and params.get("arguments") == arguments:
                out.extend(mcp_answer(answer))
            continue
        if sent is not None:
            if sent.get("cmd") not in ("invoke", "normalize") or sent.get("arguments") != arguments:
                continue
        try:
            got = json.loads(answer)
        except ValueError:
            got = None
        if got is not None:
            if got.get("outcome") == "executed":
                out.append(("received", got.get("received")))
            elif got.get("outcome") == "rejected" or "rejected" in got:
                out.append(("refused", None))
            elif "arguments" in got and "outcome" not in got:
                out.append(("received", got["arguments"]))
        elif '"outcome":"executed"' in answer or re.match(r'^\{"seq":\d+,"arguments":', answer):
            out.append(("received", READABLE))
        elif '"outcome":"rejected"' in answer or re.match(r'^\{"seq":\d+,"rejected":', answer):
            out.append(("refused", None))
    return out


# An MCP tools/call request (a run over MCP: `run --mcp-server`), and its answer. What the handler
# received is in the record, not on the wire: an answer in which it ran compares by kind alone.
MCP_CALL = re.compile(r'"method":"tools/call"')


# A call through an HTTP bridge (`run --http-bridge`): a POST of the arguments to the tool's
# endpoint, answered with its status and body. What the handler received is in the record, not on
# the wire: a 2xx answer compares by kind alone, any other status is a refusal.
BRIDGE_CALL = re.compile(r"^POST (?P<path>\S+) (?P<body>.*)$", re.S)


def bridge_answer(answer):
    """[(kind, value)] of an HTTP bridge's answer, `HTTP <status> <body>`: `received` (READABLE)
    for a 2xx status, `refused` for any other; [] for anything else."""
    status = re.match(r"^HTTP (\d{3})\b", answer)
    if not status:
        return []
    return [("received", READABLE)] if status.group(1).startswith("2") else [("refused", None)]


def mcp_answer(answer):
    """[(kind, value)] of a JSON-RPC response to tools/call: `refused` for an error or a result with
    isError true, `received` (READABLE) for any other result; [] for anything else."""
    try:
        got = json.loads(answer)
    except ValueError:
        if '"isError":true' in answer or re.match(r'^\{"jsonrpc":"2\.0","id":[^,]*,"error"', answer):
            return [("refused", None)]
        return [("received", READABLE)] if '"result"' in answer else []
    if not isinstance(got, dict):
        return []
    if "error" in got:
        return [("refused", None)]
    result = got.get("result")
    if isinstance(result, dict):
        return [("refused", None)] if result.get("isError") is True else [("received", READABLE)]
    return []


def mismatch(printed, recorded):
    """Why one printed outcome line shows something no recorded answer does, or None."""
    kind, rest = printed
    if kind == "the caller got":
        return None if any(k == "refused" for k, _ in recorded) else "the caller was refused, where the page records the tool running"
    ran = [v for k, v in recorded if k == "received"]
    if not ran:
        return "the tool ran, where the page records the call refused"
    if rest.startswith("(not JSON)"):
        return None
    try:
        value = json.loads(rest)
    except ValueError:
        return None  # not the kit's JSON line: by kind alone
    known = [v for v in ran if v is not READABLE]
    if not known or any(v == value for v in known) or READABLE in ran:
        return None
    return f"the tool received {rest}, where the page records it receiving {json.dumps(known[0])}"


def compare(out, standing, template):
    with open(standing, encoding="utf-8") as f:
        cases = {c["id"]: c for c in json.load(f).get("cases", [])}
    with open(template, encoding="utf-8") as f:
        template_text = f.read()
    compared = not_compared = bad = 0
    with open(os.path.join(out, "index.tsv"), encoding="utf-8") as index:
        rows = [line.rstrip("\n").split("\t") for line in index if line.strip()]
    for n, _, src, case_id in rows:
        case = cases.get(case_id)
        with open(os.path.join(out, f"{src}.src"), encoding="utf-8") as f:
            source = f.read()
        with open(os.path.join(out, f"{src}.out"), encoding="utf-8", errors="replace") as f:
            printed = [(m.group("kind"), m.group("rest")) for m in map(OUTCOME.match, f.read().split("\n")) if m]
        recorded = answers(case, arguments_in(source, template_text)) if case and case.get("status") != "error" else []
        if not recorded:
            not_compared += 1
            continue
        compared += 1
        why = next((w for w in (mismatch(p, recorded) for p in printed) if w), None)
        if why:
            bad += 1
            print(f"reproduction {n} ({case_id}) does not show what its page records: {why}", file=sys.stderr)
    print(compared, not_compared)
    return 1 if bad else 0


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "compare":
        sys.exit(compare(*sys.argv[2:]))
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        sys.exit(2)
    page, language, out = sys.argv[1:]
    with open(page, encoding="utf-8") as f:
        lines = f.read().split("\n")
    os.makedirs(out, exist_ok=True)
    heading = ""
    case = ""
    announced = 0  # `Minimal reproduction:` lines
    found = []  # (line, heading, text)
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("### "):
            heading = line[4:]
        elif line.startswith("Minimal reproduction: "):
            announced += 1
            found_id = re.match(r"Minimal reproduction: `([^`]+)`", line)
            case = found_id.group(1) if found_id else ""
        elif PARAGRAPH.match(line):
            start = i + 1
            if PARAGRAPH.match(line).group("lang") != language:
                fail(page, start, f"a reproduction in {PARAGRAPH.match(line).group('lang')}, not {language}")
            i += 1
            while i < len(lines) and lines[i] == "":
                i += 1
            opened = OPEN.match(lines[i]) if i < len(lines) else None
            if not opened:
                fail(page, i + 1, "a reproduction paragraph with no code fence after it")
            if opened.group("info") != language:
                fail(page, i + 1, f"a code block tagged {opened.group('info')!r}, not {language!r}")
            fence, body = opened.group("fence"), []
            i += 1
            while i < len(lines) and lines[i] != fence:
                body.append(lines[i])
                i += 1
            if i == len(lines):
                fail(page, start, "a reproduction whose code block is never closed")
            found.append((start, heading, "\n".join(body) + "\n", case))
        i += 1
    if announced != len(found):
        fail(page, 1, f"{announced} `Minimal reproduction:` lines but {len(found)} reproduction code blocks")
    distinct = {}
    with open(os.path.join(out, "index.tsv"), "w", encoding="utf-8") as index:
        for n, (_, head, text, case) in enumerate(found, 1):
            if text not in distinct:
                distinct[text] = n
                with open(os.path.join(out, f"{n}.src"), "w", encoding="utf-8") as f:
                    f.write(text)
            index.write(f"{n}\t{head}\t{distinct[text]}\t{case}\n")
    print(len(found), len(distinct))


if __name__ == "__main__":
    main()
