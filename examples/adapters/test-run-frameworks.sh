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
out="$(bash examples/adapters/run-frameworks.sh --check "$name" 2>&1)"
if [ $? -eq 0 ] && grep -q "ok       $name: as published" <<<"$out"; then
  echo "ok: the unchanged copy passes --check as published"
else
  echo "FAIL: the unchanged copy does not pass --check:"; echo "$out" | sed 's/^/  /'
  failures=$((failures + 1))
fi

sed -i 's/transports=\["direct", "structured", "http"\]/transports=["direct", "structured"]/' "$dir/adapter.py"
if ! grep -q 'transports=\["direct", "structured"\]' "$dir/adapter.py"; then
  echo "FAIL: the example adapter's transports line was not found to change"
  exit 1
fi
out="$(bash examples/adapters/run-frameworks.sh --check "$name" 2>&1)"
if [ $? -ne 0 ] && grep -q -- "--       $name: FAILED" <<<"$out"; then
  echo "ok: the changed copy fails --check: $(grep -- "--       $name" <<<"$out" | sed 's/^ *-- *//')"
else
  echo "FAIL: the changed copy passes --check:"; echo "$out" | sed 's/^/  /'
  failures=$((failures + 1))
fi

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
out="$(bash examples/adapters/run-frameworks.sh --check "$drift" 2>&1)"
if [ $? -eq 0 ] && grep -q "ok       $drift: as published" <<<"$out" && grep -q "showing what the page records" <<<"$out"; then
  echo "ok: the faithful reproductions pass --check: $(grep -o '[0-9]* showing what the page records' <<<"$out")"
else
  echo "FAIL: the faithful copy does not pass --check:"; echo "$out" | sed 's/^/  /'
  failures=$((failures + 1))
fi
sed -i 's/adapter_tool.reproduce(NAME, SCHEMA, /adapter_tool.reproduce(NAME, dict(SCHEMA, required=[]), /' "$ddir/repro_template.py"
if ! grep -q 'dict(SCHEMA, required=\[\])' "$ddir/repro_template.py"; then
  echo "FAIL: the llama-index reproduction template's call was not found to change"
  exit 1
fi
out="$(bash examples/adapters/run-frameworks.sh --check "$drift" 2>&1)"
if [ $? -ne 0 ] && grep -q -- "--       $drift: FAILED" <<<"$out" && grep -q "does not show what its page records" <<<"$out"; then
  echo "ok: the drifted reproduction fails --check: $(grep -m1 'does not show what its page records' <<<"$out" | sed 's/^ *//')"
else
  echo "FAIL: the drifted reproduction passes --check:"; echo "$out" | sed 's/^/  /'
  failures=$((failures + 1))
fi
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
out="$(bash examples/adapters/run-frameworks.sh --check "$over" 2>&1)"
if [ $? -eq 0 ] && grep -q "ok       $over: as published" <<<"$out" && grep -q "showing what the page records" <<<"$out"; then
  echo "ok: the unchanged row over MCP passes --check: $(grep -o '[0-9]* showing what the page records' <<<"$out")"
else
  echo "FAIL: the unchanged row over MCP does not pass --check:"; echo "$out" | sed 's/^/  /'
  failures=$((failures + 1))
fi
sed -i 's/if v is not signature.NOT_SENT})/if v is not signature.NOT_SENT and k != "title"})/' "$odir/server.py"
if ! grep -q 'and k != "title"' "$odir/server.py"; then
  echo "FAIL: the server's recording line was not found to change"
  exit 1
fi
out="$(bash examples/adapters/run-frameworks.sh --check "$over" 2>&1)"
if [ $? -ne 0 ] && grep -q -- "--       $over: FAILED" <<<"$out"; then
  echo "ok: the changed row over MCP fails --check: $(grep -- "--       $over" <<<"$out" | sed 's/^ *-- *//' | cut -c1-200)"
else
  echo "FAIL: the changed row over MCP passes --check:"; echo "$out" | sed 's/^/  /'
  failures=$((failures + 1))
fi
[ "$failures" -eq 0 ]
