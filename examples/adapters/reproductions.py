#!/usr/bin/env python3
"""Extracts the minimal reproductions of a generated reports/<name>/README.md, for
run-frameworks.sh to run each from the adapter folder.

    python3 examples/adapters/reproductions.py PAGE LANGUAGE OUT_DIR

`tool-conformance readme` (src/report/readme.rs) writes each reproduction as a paragraph

    <language> (from `<template>`, as the adapter calls it):

then a blank line, then a fenced code block: a fence of three or more backticks (longer than any
backtick run in the code) followed by the language as its info string, the filled template, and
the same fence alone on a line. Each group's paragraph follows the line `Minimal reproduction:
...`; a group of describe cases only has `Smallest case: ...` and no code block.

Every reproduction whose text differs from those before it is written to OUT_DIR/<n>.src (n from
1), and one line per reproduction to OUT_DIR/index.tsv: n, the clause heading it sits under, and
the n of the file it runs (its own, or the earlier identical one). Prints `<reproductions>
<distinct>` on stdout. Exits 2, saying why on stderr, when the page does not have the shape above:
a `Minimal reproduction:` line with no code block in LANGUAGE after it, a block not closed, or a
block whose info string is not LANGUAGE, so a change of the page's format fails loudly instead of
running nothing.
"""

import os
import re
import sys

PARAGRAPH = re.compile(r"^(?P<lang>[^ ]+) \(from `+[^`].*`+, as the adapter calls it\):$")
OPEN = re.compile(r"^(?P<fence>`{3,})(?P<info>[^`]*)$")


def fail(page, line, message):
    print(f"{page}:{line}: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        sys.exit(2)
    page, language, out = sys.argv[1:]
    with open(page, encoding="utf-8") as f:
        lines = f.read().split("\n")
    os.makedirs(out, exist_ok=True)
    heading = ""
    announced = 0  # `Minimal reproduction:` lines
    found = []  # (line, heading, text)
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("### "):
            heading = line[4:]
        elif line.startswith("Minimal reproduction: "):
            announced += 1
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
            found.append((start, heading, "\n".join(body) + "\n"))
        i += 1
    if announced != len(found):
        fail(page, 1, f"{announced} `Minimal reproduction:` lines but {len(found)} reproduction code blocks")
    distinct = {}
    with open(os.path.join(out, "index.tsv"), "w", encoding="utf-8") as index:
        for n, (_, head, text) in enumerate(found, 1):
            if text not in distinct:
                distinct[text] = n
                with open(os.path.join(out, f"{n}.src"), "w", encoding="utf-8") as f:
                    f.write(text)
            index.write(f"{n}\t{head}\t{distinct[text]}\n")
    print(len(found), len(distinct))


if __name__ == "__main__":
    main()
