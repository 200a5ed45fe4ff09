#!/usr/bin/env bash
# The tests, as the README's test command and CI run them, from a checkout on a fresh machine:
# installs what the tests need and is missing (headless Chromium for tests/it/html_chromium.rs), runs
# `cargo test`, then the suite itself against the reference, the Python example (over stdio and
# HTTP), every framework adapter in examples/adapters/, the two adapter kits and the packaged crate.
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"

# Headless Chromium (Debian's package) for tests/it/html_chromium.rs, which fails without it.
if [ -z "${CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
  else
    echo "tests/it/html_chromium.rs needs headless Chromium: install Debian's chromium package" >&2
    echo "(apt-get install chromium, as root), or set CHROMIUM to a Chromium binary." >&2
    exit 1
  fi
fi

# One test per case, and the suite's own tests.
cargo test

cargo run --quiet -- check
cargo run --quiet -- run
cargo run --quiet -- run --report "$(mktemp -d)/report"

# Differential fuzzing (exit 1 on a required finding): 10,000 generated cases against the reference
# over stdio and against the Python example.
cargo run --quiet -- fuzz --seed 1 --cases 10000 --stdio "$target/debug/tool-conformance serve --stdio"
PYTHONPATH=adapters/python cargo run --quiet -- fuzz --seed 1 --cases 10000 --stdio 'python3 examples/adapters/python/adapter.py'

# The suite against every adapter in examples/adapters/ over stdio (the Python example and each
# real framework, each installed from its pins into its own environment, its own tests run
# first): each must stand as reports/<adapter>/ publishes it; an install that fails fails.
bash examples/adapters/run-frameworks.sh --check
# A changed adapter must fail that check, an unchanged one must pass it.
bash examples/adapters/test-run-frameworks.sh

# The example Python adapter over HTTP (started in the background on a free loopback port, waited
# for, and stopped).
adapter_log="$(mktemp)"
python3 examples/adapters/python/adapter.py --http 127.0.0.1:0 >"$adapter_log" 2>&1 &
adapter_pid=$!
trap 'kill "$adapter_pid" 2>/dev/null || true' EXIT
adapter_url=""
for _ in $(seq 100); do
  adapter_url="$(grep -o 'http://[^ ]*' "$adapter_log" || true)"
  [ -n "$adapter_url" ] && break
  sleep 0.1
done
if [ -z "$adapter_url" ]; then
  echo "the Python adapter did not start serving HTTP:" >&2
  cat "$adapter_log" >&2
  exit 1
fi
cargo run --quiet -- run --http "$adapter_url"
kill "$adapter_pid"
wait "$adapter_pid" 2>/dev/null || true
trap - EXIT

# The adapter kits, installed as users install them (pip into a venv, npm into a project, both in
# a temp dir): their own tests, then the example in each README against the harness.
kits="$(mktemp -d)"
python3 -m venv "$kits/venv" && "$kits/venv/bin/pip" install --quiet ./adapters/python
(cd adapters/python && "$kits/venv/bin/python" -m unittest discover -s tests)
awk '/^```python$/{f=1;next} /^```$/{if(f){exit}} f' adapters/python/README.md >"$kits/example.py"
cargo run --quiet -- run --stdio "env PYTHONPATH=examples/adapters/python $kits/venv/bin/python $kits/example.py"
repo="$PWD" && (cd "$kits" && npm init -y >/dev/null && npm install --silent "$repo/adapters/node")
node --test adapters/node/test/
awk '/^```js$/{f=1;next} /^```$/{if(f){exit}} f' adapters/node/README.md >"$kits/example.mjs"
cargo build --quiet && REFERENCE="$target/debug/tool-conformance" cargo run --quiet -- run --stdio "node $kits/example.mjs"
rm -rf "$kits"

# The packaged crate builds offline from the .crate alone (corpus, schemas and rule files inside)
# and stands as reports/reference/ publishes it: one extra build of the crate, dependencies shared.
crate_dir="$(mktemp -d)"
cargo package --offline --no-verify --allow-dirty
tar -xzf "$target/package/tool-conformance-$(cargo pkgid | sed 's/.*[#@]//').crate" -C "$crate_dir"
cargo build --offline --locked --manifest-path "$crate_dir"/tool-conformance-*/Cargo.toml --target-dir "$target" --bin tool-conformance
"$target/debug/tool-conformance" run --color never --report "$crate_dir/report" >/dev/null
diff "$crate_dir/report/standing.json" reports/reference/standing.json
