#!/usr/bin/env bash
# Checks that run-frameworks.sh --check tells a changed adapter from an unchanged one: a copy of
# the example adapter published under a scratch name passes --check as published, and the same
# copy changed (it no longer claims the http transport, so those cases become not applicable)
# fails it, saying what changed. Exit 0 when both hold.
set -uo pipefail
cd "$(dirname "$0")/../.."
name="zz-check-$$"
dir="examples/adapters/$name"
trap 'rm -rf "$dir" "reports/$name"' EXIT
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
[ "$failures" -eq 0 ]
