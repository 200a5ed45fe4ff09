#!/usr/bin/env bash
# Checks that run-frameworks.sh --check tells a changed adapter from an unchanged one: a copy of
# the example adapter published under a scratch name passes --check as published, and the same
# copy changed (it no longer claims the http transport, so those cases become not applicable)
# fails it, saying what changed. Then that it tells a drifted reproduction from a faithful one: a
# copy of the llama-index row (its environment shared through a link, installed first if need be)
# passes --check with every reproduction showing what its page records, and the same copy with a
# reproduction template that no longer builds the tool as the adapter does (it drops the schema's
# required names, so a call the adapter refuses runs the tool) fails it, naming the reproduction
# that does not show what its page records. Then the same for a row reached over MCP
# (route=mcp-server): a copy of mcp-python-over-mcp passes --check as published, and the same copy
# whose server no longer records one name its function received fails it. Exit 0 when all six hold.
set -uo pipefail
cd "$(dirname "$0")/../.."
name="zz-check-$$"
dir="examples/adapters/$name"
drift="zz-drift-$$"
over="zz-over-mcp-$$"
trap 'rm -rf "$dir" "reports/$name" "examples/adapters/$drift" "reports/$drift" "examples/adapters/$over" "reports/$over"' EXIT
mkdir -p "$dir" "reports/$name"
cp examples/adapters/python/*.py "$dir/"
cp examples/adapters/python/adapter.conf "$dir/"
cp reports/python/standing.json "reports/$name/"
[ -f reports/python/expected-failures.yaml ] && cp reports/python/expected-failures.yaml "reports/$name/"

failures=0
# passes NAME WHAT [ALSO]: `run-frameworks.sh --check NAME` must pass as published (and print the
# text ALSO); says so with WHAT, and with the count of reproductions shown when ALSO is given.
passes() {
  local out
  out="$(bash examples/adapters/run-frameworks.sh --check "$1" 2>&1)"
  if [ $? -eq 0 ] && grep -q "ok       $1: as published" <<<"$out" && { [ -z "${3:-}" ] || grep -q "$3" <<<"$out"; }; then
    echo "ok: $2${3:+: $(grep -o "[0-9]* $3" <<<"$out")}"
  else
    echo "FAIL: $2 does not hold:"; echo "$out" | sed 's/^/  /'
    failures=$((failures + 1))
  fi
}
# fails NAME WHAT [ALSO]: `run-frameworks.sh --check NAME` must fail the row (and print the text
# ALSO); says so with WHAT and the line that says why.
fails() {
  local out
  out="$(bash examples/adapters/run-frameworks.sh --check "$1" 2>&1)"
  if [ $? -ne 0 ] && grep -q -- "--       $1: FAILED" <<<"$out" && { [ -z "${3:-}" ] || grep -q "$3" <<<"$out"; }; then
    if [ -n "${3:-}" ]; then
      echo "ok: $2: $(grep -m1 "$3" <<<"$out" | sed 's/^ *//' | cut -c1-240)"
    else
      echo "ok: $2: $(grep -- "--       $1" <<<"$out" | sed 's/^ *-- *//' | cut -c1-240)"
    fi
  else
    echo "FAIL: $2 does not hold:"; echo "$out" | sed 's/^/  /'
    failures=$((failures + 1))
  fi
}

passes "$name" "the unchanged copy passes --check as published"

sed -i 's/transports=\["direct", "structured", "http"\]/transports=["direct", "structured"]/' "$dir/adapter.py"
if ! grep -q 'transports=\["direct", "structured"\]' "$dir/adapter.py"; then
  echo "FAIL: the example adapter's transports line was not found to change"
  exit 1
fi
fails "$name" "the changed copy fails --check"

# A reproduction that drifts from the adapter's own code.
if [ ! -x examples/adapters/llama-index/.venv/bin/python ]; then
  bash examples/adapters/run-frameworks.sh --check llama-index >/dev/null 2>&1 \
    || { echo "FAIL: the llama-index row could not be installed and checked"; exit 1; }
fi
ddir="examples/adapters/$drift"
mkdir -p "$ddir" "reports/$drift"
cp examples/adapters/llama-index/{adapter.conf,about.yaml,adapter.py,tool.py,repro_template.py,requirements.txt} "$ddir/"
ln -s "$PWD/examples/adapters/llama-index/.venv" "$ddir/.venv"
cp reports/llama-index/{standing.json,expected-failures.yaml} "reports/$drift/"
passes "$drift" "the faithful reproductions pass --check" "showing what the page records"
sed -i 's/adapter_tool.reproduce(NAME, SCHEMA, /adapter_tool.reproduce(NAME, dict(SCHEMA, required=[]), /' "$ddir/repro_template.py"
if ! grep -q 'dict(SCHEMA, required=\[\])' "$ddir/repro_template.py"; then
  echo "FAIL: the llama-index reproduction template's call was not found to change"
  exit 1
fi
fails "$drift" "the drifted reproduction fails --check" "does not show what its page records"
# A row over MCP: run with --mcp-server, its page's reproductions compared with its MCP exchanges.
if [ ! -x examples/adapters/mcp-python-over-mcp/.venv/bin/python ]; then
  bash examples/adapters/run-frameworks.sh --check mcp-python-over-mcp >/dev/null 2>&1 \
    || { echo "FAIL: the mcp-python-over-mcp row could not be installed and checked"; exit 1; }
fi
odir="examples/adapters/$over"
mkdir -p "$odir" "reports/$over"
cp examples/adapters/mcp-python-over-mcp/{adapter.conf,about.yaml,server.py,repro.py,requirements.txt} "$odir/"
ln -s "$PWD/examples/adapters/mcp-python-over-mcp/.venv" "$odir/.venv"
cp reports/mcp-python-over-mcp/{standing.json,expected-failures.yaml} "reports/$over/"
passes "$over" "the unchanged row over MCP passes --check" "showing what the page records"
sed -i 's/lambda received: manifest.record(name, received)/lambda received: manifest.record(name, {k: v for k, v in received.items() if k != "title"})/' "$odir/server.py"
if ! grep -q 'if k != "title"' "$odir/server.py"; then
  echo "FAIL: the server's recording line was not found to change"
  exit 1
fi
fails "$over" "the changed row over MCP fails --check"
[ "$failures" -eq 0 ]
