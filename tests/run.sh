#!/usr/bin/env bash
# The tests, as the README's test command and CI run them, from a checkout on a fresh machine:
# installs what the tests need and is missing (headless Chromium for tests/it/html_chromium.rs), runs
# `cargo test`, then the suite itself against the reference, the Python example (over stdio and
# HTTP), every framework adapter in examples/adapters/, the three adapter kits and the packaged crate.
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# What the long steps need, checked first: python3 with its venv module and pip (the adapters, the
# kit, the wheel), node and npm (the Node kit and adapters), go (the Go kit and rows), java, javac
# and mvn (the Java kit and rows), cargo.
missing=()
command -v cargo >/dev/null || missing+=("cargo")
command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null \
  || missing+=("python3 with its venv module and pip (Debian: python3-venv)")
for tool in node npm go java javac mvn; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "tests/run.sh needs what is missing here, so nothing was run:" >&2
  printf '  %s\n' "${missing[@]}" >&2
  exit 1
fi

# Where cargo builds (CARGO_TARGET_DIR when set), as cargo says: no path here assumes a target
# folder in the checkout, so a shared target folder outside it works as well.
target="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"

# Every temporary folder made below is removed on exit, whatever the exit, and the background
# adapter stopped.
temporary=()
adapter_pid=""
cleanup() {
  [ -z "$adapter_pid" ] || kill "$adapter_pid" 2>/dev/null || true
  [ ${#temporary[@]} -eq 0 ] || rm -rf "${temporary[@]}"
}
trap cleanup EXIT
scratch() { # a new temporary folder, removed on exit, in $made
  made="$(mktemp -d)"
  temporary+=("$made")
}

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
# The harness the steps below start by path, which `cargo test` builds: named if it is not there.
harness="$target/debug/tool-conformance"
[ -x "$harness" ] || { echo "$harness not found: build it with cargo build" >&2; exit 1; }

cargo run --quiet -- check
cargo run --quiet -- run
scratch
cargo run --quiet -- run --report "$made/report"

# Differential fuzzing (exit 1 on a required finding): 10,000 generated cases against the reference
# over stdio and against the Python example.
cargo run --quiet -- fuzz --seed 1 --cases 10000 --stdio "$harness serve --stdio"
PYTHONPATH=adapters/python cargo run --quiet -- fuzz --seed 1 --cases 10000 --stdio 'python3 examples/adapters/python/adapter.py'

# The suite against every adapter in examples/adapters/ over stdio (the Python example and each
# real framework, each installed from its pins into its own environment, its own tests run
# first): each must stand as reports/<adapter>/ publishes it; an install that fails fails.
bash examples/adapters/run-frameworks.sh --check
# A changed adapter must fail that check, an unchanged one must pass it.
bash examples/adapters/test-run-frameworks.sh

# The example Python adapter over HTTP (started in the background on a free loopback port, waited
# for, and stopped).
scratch
adapter_log="$made/adapter.log"
python3 examples/adapters/python/adapter.py --http 127.0.0.1:0 >"$adapter_log" 2>&1 &
adapter_pid=$!
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
adapter_pid=""

# The adapter kits, installed as users install them (pip into a venv, npm into a project, both in
# a temp dir; the Go kit through a replace directive): their own tests, then the example in each README (a toy runtime claiming PLAT-162)
# against the harness with --validate-protocol. Each is what its README says: it speaks the
# protocol (no case errors), RT-TOOL-8 is not claimed and PLAT-162 does not conform (exit 1).
scratch
kits="$made"
kit_example() { # NAME COMMAND: runs the suite against the example, checks its standing
  local code=0
  cargo run --quiet -- run --color never --compact --validate-protocol --report "$kits/$1" --stdio "$2" >"$kits/$1.log" || code=$?
  if [ "$code" -ne 1 ]; then cat "$kits/$1.log" >&2; echo "the $1 kit's example: exit $code, not 1" >&2; return 1; fi
  python3 - "$kits/$1/standing.json" <<'PY'
import json, sys
standing = json.load(open(sys.argv[1]))
errored = [case["id"] for case in standing["cases"] if case["status"] == "error"]
verdicts = {rule["rule"]: rule["verdict"] for rule in standing["standing"]["rules"]}
assert not errored, f"the kit's example errored (it does not speak the protocol): {errored}"
assert verdicts == {"RT-TOOL-8": "not_claimed", "PLAT-162": "does_not_conform"}, verdicts
PY
}
# pip builds in the folder it installs from (build/, *.egg-info): a copy, so the checkout keeps none;
# the kit's tests likewise run from the copy, leaving no __pycache__ here.
cp -R adapters/python "$kits/python-kit"
python3 -m venv "$kits/venv" && "$kits/venv/bin/pip" install --quiet "$kits/python-kit[signature,test]"
(cd "$kits/python-kit" && "$kits/venv/bin/python" -m unittest discover -s tests)
# A runtime that validates with jsonschema, numbers as the kit hands them over, conforms to PLAT-162.
cargo run --quiet -- run --color never --compact --rule PLAT-162 \
  --stdio "$kits/venv/bin/python $kits/python-kit/tests/jsonschema_runtime.py" >"$kits/jsonschema.log" \
  || { cat "$kits/jsonschema.log" >&2; echo "the kit's jsonschema runtime does not conform to PLAT-162" >&2; exit 1; }
awk '/^```python$/{f=1;next} /^```$/{if(f){exit}} f' adapters/python/README.md >"$kits/example.py"
kit_example python "$kits/venv/bin/python $kits/example.py"
repo="$PWD" && (cd "$kits" && npm init -y >/dev/null && npm install --silent "$repo/adapters/node")
node --test adapters/node/test/
awk '/^```js$/{f=1;next} /^```$/{if(f){exit}} f' adapters/node/README.md >"$kits/example.mjs"
kit_example node "node $kits/example.mjs"
(cd adapters/go && go vet ./... && go test ./...)  # the Go kit: its tests, then its README's example, built once
mkdir "$kits/go" && awk '/^```go$/{f=1;next} /^```$/{if(f){exit}} f' adapters/go/README.md >"$kits/go/main.go"
(cd "$kits/go" && go mod init example >/dev/null 2>&1 && go mod edit -go=1.23 \
  -require=github.com/tool-conformance/tool-conformance/adapters/go@v0.0.0 \
  -replace=github.com/tool-conformance/tool-conformance/adapters/go="$repo/adapters/go" && go build -o example .)
kit_example go "$kits/go/example"
mvn -q -B -Dstyle.color=never install -f adapters/java  # the Java kit: its JUnit tests, then its README's example
mvn -q -B -Dstyle.color=never -f adapters/java dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile="$kits/cp.txt"
awk '/^```java$/{f=1;next} /^```$/{if(f){exit}} f' adapters/java/README.md >"$kits/Example.java"
java_cp="$PWD/adapters/java/target/tool-conformance-adapter-0.1.0.jar:$(cat "$kits/cp.txt")"
javac -cp "$java_cp" -d "$kits/java" "$kits/Example.java"
kit_example java "java -cp $kits/java:$java_cp Example"

# The packaged crate builds offline from the .crate alone (corpus, schemas and rule files inside)
# and stands as reports/reference/ publishes it: one extra build of the crate, dependencies shared.
scratch
crate_dir="$made"
cargo package --offline --no-verify --allow-dirty
tar -xzf "$target/package/tool-conformance-$(cargo pkgid | sed 's/.*[#@]//').crate" -C "$crate_dir"
cargo build --offline --locked --manifest-path "$crate_dir"/tool-conformance-*/Cargo.toml --target-dir "$target" --bin tool-conformance
"$target/debug/tool-conformance" run --color never --report "$crate_dir/report" >/dev/null
diff "$crate_dir/report/standing.json" reports/reference/standing.json

# The pip and npm packages, built from the checkout and installed offline as users install them:
# the wheel (maturin, `bindings = "bin"`: the binary and the Python kit) into a fresh venv with
# pip --no-index, and the npm packages (the kit and launcher, and tool-conformance-linux-x64 carrying
# the very binary the wheel carries) from their packed tarballs into a fresh npm project with
# --offline. Each then gets a first standing with no cargo on PATH: `tool-conformance run`, and
# the kit README's example (its toy runtime) against it, in under 10 s. The wheel is built in the
# dev profile, so cargo reuses the dependencies the tests built and compiles only this crate.
python3 packaging/test_owners.py  # the release's check of who holds each name, against fake registries
scratch
packages="$made"
python3 -m venv "$packages/tools" && "$packages/tools/bin/pip" install --quiet "maturin==1.16.0"
"$packages/tools/bin/maturin" build --quiet --profile dev --out "$packages/wheels"
wheel="$(ls "$packages"/wheels/tool_conformance-*.whl)"
python3 - "$wheel" "$packages/tool-conformance" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    name = next(n for n in wheel.namelist() if n.endswith(".data/scripts/tool-conformance"))
    open(sys.argv[2], "wb").write(wheel.read(name))
os.chmod(sys.argv[2], 0o755)
PY
bash packaging/npm/pack.sh "$packages/npm" "$(cargo pkgid | sed 's/.*[#@]//')" "x86_64-unknown-linux-gnu=$packages/tool-conformance" >/dev/null
no_cargo_path="/usr/local/bin:/usr/bin:/bin"
first_standing() { # DIR EXAMPLE_COMMAND: a first standing from DIR's installed package, without cargo
  local started=$SECONDS
  (cd "$1" && env PATH="$2:$no_cargo_path" bash -euo pipefail -c '
    if command -v cargo >/dev/null; then echo "cargo is on PATH" >&2; exit 1; fi
    tool-conformance run --compact >first.log
    code=0; tool-conformance run --compact --validate-protocol --stdio "$0" >example.log || code=$?
    [ "$code" -eq 1 ] && grep -q " 0 errored, .*RT-TOOL-8 not claimed, PLAT-162 does not conform;" example.log \
      || { cat example.log >&2; echo "the example did not stand as its README says (exit $code)" >&2; exit 1; }' "$3")
  local took=$((SECONDS - started))
  echo "first standing from the $4 package: ${took} s"
  [ "$took" -lt 10 ] || { echo "a first standing from the $4 package took ${took} s, not under 10" >&2; return 1; }
}
python3 -m venv --without-pip "$packages/venv"
python3 -m pip --python "$packages/venv/bin/python" install --quiet --no-index "$wheel"
awk '/^```python$/{f=1;next} /^```$/{if(f){exit}} f' adapters/python/README.md >"$packages/venv/example.py"
first_standing "$packages/venv" "$packages/venv/bin" "python example.py" pip
mkdir "$packages/project" && (cd "$packages/project" && npm init -y >/dev/null \
  && npm install --offline --no-audit --no-fund --silent "$packages"/npm/tool-conformance-*.tgz)
awk '/^```js$/{f=1;next} /^```$/{if(f){exit}} f' adapters/node/README.md \
  | sed "s/from 'tool-conformance-adapter'/from 'tool-conformance'/" >"$packages/project/example.mjs"
first_standing "$packages/project" "$packages/project/node_modules/.bin" "node example.mjs" npm
