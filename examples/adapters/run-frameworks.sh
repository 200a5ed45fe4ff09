#!/usr/bin/env bash
# Installs each adapted implementation into its own local environment, runs the suite against it,
# and publishes its standing in reports/<name>/, then regenerates the table in reports/README.md.
#
#   examples/adapters/run-frameworks.sh             # install, run, write reports/<name>/ and reports/README.md
#   examples/adapters/run-frameworks.sh --check     # install, run into a scratch folder, and fail on any
#                                                   # difference from what reports/<name>/ publishes
#   examples/adapters/run-frameworks.sh mcp-python  # only the named adapters (any mode)
#   examples/adapters/run-frameworks.sh --paths     # print the harness and each adapter's command
#                                                   # line as a run would use them, and stop
#
# The adapters are the folders examples/adapters/<name>/ that hold an `adapter.conf`: bash
# `key=value` lines, `install=venv` (python3 -m venv .venv; pip install -r requirements.txt, run
# from the repository root), `install=npm` (npm ci from package-lock.json), `install=cargo` (cargo
# build --locked of the crate named by `crate=`, a folder from the repository root), `install=go` (go
# build of the row's Go module into its .build/server, pins in go.mod and go.sum), `install=maven`
# (the Java kit, adapters/java, into the local Maven repository, then the folder's own pom.xml
# compiled into its target/classes with its runtime jars in target/lib; offline first, online only
# when something is missing) or `install=none`, and
# `command='...'`, the --stdio command line run from the repository root, where {dir} stands for
# the adapter folder and {target} for the target directory cargo builds the `crate=` into
# (`cargo metadata`: CARGO_TARGET_DIR when set). `route=mcp-server` says the command is an MCP server on stdio, reached with
# `run --mcp-server` instead, and `route=mcp-gateway` an MCP gateway on stdio, reached with `run
# --mcp-gateway` (its command may hold {upstream_url} or {upstream_cmd}, which the harness fills),
# `route=mcp-gateway-http` an MCP gateway serving Streamable HTTP, reached with `run
# --mcp-gateway-http` (its command may also hold {port}), and `route=http-bridge` an HTTP bridge,
# reached with `run --http-bridge` (its command may also hold {port}); none has a protocol-v1
# adapter (`route=stdio`, the default, is --stdio).
# `name=`, `version=` and `tool_name=` are given to `run` as --name, --version (what the report
# calls an implementation whose own answer is random or borrowed) and --mcp-tool-name. An environment
# already installed from the same pins is reused.
#
# Every run is given reports/<name>/expected-failures.yaml, where each entry says in one sentence
# what lies behind a failure: a failure no entry covers, or an entry that no longer fails, makes
# the run fail. An adapter whose install fails fails this script (with the install log's last
# lines): a framework that could not be installed is never green. "as published" is said only when
# the new standing.json is the published one (so `compare` finds no difference), byte for byte but
# for what no run reproduces (see `reproduces` below: quoted stderr lines, and the evidence of a
# case whose expected-failures entry says it `varies`), which it then says it set aside;
# otherwise the summary says what changed: regressions, progressions, status changes, and which
# cases' recorded details differ. Exit 0 when every adapter installed and ran as published (with
# --check) or ran without failing (publishing), 1 otherwise.
#
# Publishing also measures the time to a standing: the wall time of the whole run at --jobs 1
# (the run published) and of a second run at --jobs 4 (its report thrown away; not for a row
# reached over MCP, whose run is one server process), written to
# reports/<name>/timing.json; and it regenerates reports/<name>/README.md
# (`tool-conformance readme`). --check writes neither: time is not deterministic.
#
# Every reproduction of the row's page (the one published, or with --check the page made in the
# scratch folder) is then run from the adapter folder with its interpreter, 60 s at most each: one
# that exits non-zero, times out, or prints neither a `the tool received:` nor a `the caller got:`
# line fails the row (docs/protocol.md, "The reproduction template"), and so does one whose outcome
# lines show something the page's standing does not record for its case (the tool running where the
# call was refused, a refusal where the tool ran, another received value: reproductions.py compare).
set -uo pipefail
cd "$(dirname "$0")/../.."

check=false
paths=false
names=()
for arg in "$@"; do
  case "$arg" in
    --check) check=true ;;
    --paths) paths=true ;;
    -h|--help) sed -n '2,/^set -uo/{/^#/p;}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $arg (see --help)" >&2; exit 2 ;;
    *) names+=("$arg") ;;
  esac
done
# Every folder with an adapter.conf, in name order.
all=()
for conf in examples/adapters/*/adapter.conf; do
  [ -f "$conf" ] || continue
  all+=("$(basename "$(dirname "$conf")")")
done
[ ${#names[@]} -gt 0 ] || names=("${all[@]}")
for name in "${names[@]}"; do
  if [ ! -f "examples/adapters/$name/adapter.conf" ]; then
    echo "no adapter named $name: examples/adapters/$name/adapter.conf does not exist (known: ${all[*]})" >&2
    exit 2
  fi
done

# conf NAME KEY: the value of KEY in the adapter's adapter.conf (empty when unset).
conf() {
  local file="examples/adapters/$1/adapter.conf"
  [ -f "$file" ] || return 1
  (install='' command='' crate='' route='' name='' version='' tool_name=''; . "$file"; eval "printf '%s' \"\${$2:-}\"")
}

# What the selected adapters need, checked before any long step: python3 always (the summary and
# the reproductions), its venv module for install=venv, node and npm for install=npm, go for
# install=go, mvn and java for install=maven, cargo for install=cargo and for the harness itself.
missing=()
command -v python3 >/dev/null || missing+=("python3")
command -v cargo >/dev/null || missing+=("cargo")
for name in "${names[@]}"; do
  case "$(conf "$name" install)" in
    venv) python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=("python3's venv module with pip (Debian: python3-venv), for $name") ;;
    npm) command -v node >/dev/null || missing+=("node, for $name")
         command -v npm >/dev/null || missing+=("npm, for $name") ;;
    go) command -v go >/dev/null || missing+=("go, for $name") ;;
    maven) command -v mvn >/dev/null || missing+=("mvn, for $name")
           command -v java >/dev/null || missing+=("java, for $name") ;;
  esac
done
if [ ${#missing[@]} -gt 0 ] && ! $paths; then
  echo "missing, so nothing was run:" >&2
  printf '  %s\n' "${missing[@]}" | awk '!seen[$0]++' >&2
  exit 2
fi

# target_dir [MANIFEST]: the folder cargo builds into (CARGO_TARGET_DIR when set), as cargo says.
target_dir() {
  cargo metadata --format-version 1 --no-deps ${1:+--manifest-path "$1"} \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])'
}

# The harness: $TOOL_CONFORMANCE if set, else this checkout's debug build (which `cargo test`
# has already made), wherever cargo puts it. A harness that is not there is named before any row
# runs, never left to fail every row with exit 127.
if [ -z "${TOOL_CONFORMANCE:-}" ]; then
  $paths || cargo build --quiet || { echo "the harness does not build (cargo build)" >&2; exit 1; }
  target="$(target_dir)" && [ -n "$target" ] || { echo "cargo metadata names no target directory" >&2; exit 1; }
  TOOL_CONFORMANCE="$target/debug/tool-conformance"
  if [ ! -x "$TOOL_CONFORMANCE" ] && ! $paths; then
    echo "$TOOL_CONFORMANCE not found: build it with cargo build (CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-unset})" >&2
    exit 2
  fi
elif [ ! -x "$TOOL_CONFORMANCE" ] && ! $paths; then
  echo "$TOOL_CONFORMANCE not found: TOOL_CONFORMANCE names no executable (unset it to use cargo build's)" >&2
  exit 2
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# install NAME LOG: makes the adapter's environment; non-zero when it could not.
install() {
  local dir="examples/adapters/$1" log="$2" kind
  kind="$(conf "$1" install)" || { echo "$dir/adapter.conf cannot be read" >"$log"; return 1; }
  case "$kind" in
    none) : >"$log" ;;
    venv)
      if [ -x "$dir/.venv/bin/python" ] && cmp -s "$dir/requirements.txt" "$dir/.venv/installed-requirements.txt"; then
        return 0
      fi
      rm -rf "$dir/.venv"
      python3 -m venv "$dir/.venv" >"$log" 2>&1 \
        && "$dir/.venv/bin/pip" install --disable-pip-version-check --no-input -q -r "$dir/requirements.txt" >>"$log" 2>&1 \
        && cp "$dir/requirements.txt" "$dir/.venv/installed-requirements.txt"
      ;;
    npm)
      if [ -d "$dir/node_modules" ] && cmp -s "$dir/package-lock.json" "$dir/node_modules/.installed-package-lock.json"; then
        return 0
      fi
      (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) >"$log" 2>&1 \
        && cp "$dir/package-lock.json" "$dir/node_modules/.installed-package-lock.json"
      ;;
    cargo) cargo build --locked --quiet --manifest-path "$(conf "$1" crate)/Cargo.toml" >"$log" 2>&1 ;;
    go) # the row's module, its pins in go.mod/go.sum, built into its ignored .build/ (Go's caches: go env's, outside the checkout)
      (cd "$dir" && GOFLAGS=-mod=mod go build -o .build/server .) >"$log" 2>&1 ;;
    maven)
      local mvn=(mvn -q -B -Dstyle.color=never) row=(compile dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory=target/lib -f "$dir")
      rm -rf "$dir/target/lib"
      { "${mvn[@]}" -o install -DskipTests -f adapters/java || "${mvn[@]}" install -DskipTests -f adapters/java; } >"$log" 2>&1 \
        && { "${mvn[@]}" -o "${row[@]}" || "${mvn[@]}" "${row[@]}"; } >>"$log" 2>&1
      ;;
    *) echo "$dir/adapter.conf: install=$kind is none of venv, npm, cargo, go, maven, none" >"$log"; return 1 ;;
  esac
}

# command_of NAME: the command line that starts the adapter ({dir} and {target} replaced).
command_of() {
  local line crate
  line="$(conf "$1" command)" || return 1
  line="${line//\{dir\}/examples/adapters/$1}"
  if [[ "$line" == *"{target}"* ]]; then
    crate="$(conf "$1" crate)"
    line="${line//\{target\}/$(target_dir "$crate/Cargo.toml")}" || return 1
  fi
  printf '%s' "$line"
}

if $paths; then
  echo "harness: $TOOL_CONFORMANCE"
  for name in "${names[@]}"; do echo "$name: $(command_of "$name")"; done
  exit 0
fi

# elapsed START: the seconds since START (a `date +%s.%N`), with one decimal.
elapsed() {
  awk -v start="$1" -v now="$(date +%s.%N)" 'BEGIN { printf "%.1f", now - start }'
}

# what_changed OLD NEW COMPARE_OUTPUT: one line saying how two standing.json files differ: the
# cases compare counts (progressions, changes, new, gone), else which blocks and how many cases'
# recorded details (expected, actual, reasons) differ, with the first few ids.
what_changed() {
  python3 - "$1" "$2" "$3" <<'PY' 2>/dev/null || echo "the files differ (python3 is needed to say how)"
import json, re, sys
old, new = (json.load(open(p)) for p in sys.argv[1:3])
said = [l for l in open(sys.argv[3]).read().splitlines() if re.match(r"^[1-9][0-9]* (regression|progression|other change|new case|gone case)", l)]
parts = [", ".join(l.rstrip(":") for l in said)] if said else []
blocks = [k for k in ("suite", "implementation", "standing", "expected_failures") if old.get(k) != new.get(k)]
if blocks:
    parts.append("blocks " + ", ".join(blocks) + " differ")
before = {c["id"]: c for c in old.get("cases", [])}
details = [c["id"] for c in new.get("cases", []) if c["id"] in before and before[c["id"]] != c]
if details:
    keys = sorted({k for c in new["cases"] if c["id"] in details for k in set(c) | set(before[c["id"]]) if c.get(k) != before[c["id"]].get(k)})
    parts.append(f"{len(details)} cases differ in {', '.join(keys)} (first: {', '.join(details[:3])})")
print("; ".join(parts) or "only the bytes differ")
PY
}

# reproduces OLD NEW: whether the NEW standing.json reproduces the published OLD one, exit 0 when
# it does. Both are compared whole, less what is not the same from run to run by nature: the
# implementation's stderr lines quoted in a reason (a log excerpt: a stack trace's addresses, the
# frame a stack overflow stops at), and the evidence (actual, diff, exchange, reason) of a case
# whose expected-failures entry says it `varies` (a message listing problems in hash-map order).
# A case's status, checks, expected value and everything else still have to match. Prints how
# much was set aside, when anything was.
reproduces() {
  python3 - "$1" "$2" <<'PY'
import json, re, sys
old, new = (json.load(open(p)) for p in sys.argv[1:3])
varies = {e["case"] for d in (old, new) for e in (d.get("expected_failures") or {}).get("expected", []) if e.get("varies")}
quoted = re.compile(r"\n  (its last stderr lines[^\n]*|it wrote nothing to stderr[^\n]*)((\n    \|[^\n]*)*)")
set_aside = {"stderr": 0, "varies": 0}
def plain(standing):
    for case in standing.get("cases", []):
        if case["id"] in varies:
            for key in ("actual", "diff", "exchange", "reason"):
                if case.pop(key, None) is not None:
                    set_aside["varies"] += 1
        elif isinstance(case.get("reason"), str):
            case["reason"], n = quoted.subn("\n  (its stderr)", case["reason"])
            set_aside["stderr"] += n
    return standing
same = plain(old) == plain(new)
words = []
if set_aside["stderr"]:
    words.append(f"{set_aside['stderr']} quotes of its stderr")
if set_aside["varies"]:
    words.append(f"the evidence of {len(varies)} case{'s' if len(varies) != 1 else ''} whose entry says it varies")
if words:
    print("set aside: " + ", ".join(words))
sys.exit(0 if same else 1)
PY
}

# reproductions NAME PAGE: runs every reproduction of the generated PAGE (a reports/<name>/README.md),
# each the adapter's template filled with a failing case (examples/adapters/reproductions.py takes
# them out of the page exactly; identical ones run once), from the adapter folder with the
# adapter's interpreter (.venv/bin/python for install=venv, node for install=npm, java's source
# launcher with the folder's target/ classpath for install=maven), fed on stdin,
# within $repro_timeout seconds each. Each must exit 0 and print a line that begins with `the tool
# received:` or `the caller got:` (the outcome lines every template prints, docs/protocol.md).
# Sets repro_note (what ran, for the row's summary) and returns 1 when one does not, saying which.
repro_timeout=60
reproductions() {
  local name="$1" page="$2" dir="examples/adapters/$1" language kind out counts total distinct
  local n head src code why started ran=0 bad=0 interpreter=()
  repro_note=""
  [ -f "$dir/about.yaml" ] || return 0
  language="$(sed -n 's/^language:[[:space:]]*//p' "$dir/about.yaml" | tr -d "\"' \r" | head -n 1)"
  kind="$(conf "$name" install)"
  case "$kind/$language" in
    venv/python) interpreter=(.venv/bin/python -) ;;
    npm/javascript) interpreter=(node --input-type=module -) ;;
    cargo/rust) interpreter=(bash "$PWD/$(conf "$name" crate)/run-repro.sh") ;;  # the crate's run-repro.sh
    go/go) interpreter=(bash -c 'd="$(mktemp -d)" && trap "rm -rf \"\$d\"" EXIT && cat >"$d/repro.go" && GOFLAGS=-mod=mod go run "$d/repro.go"') ;;  # in the row's module, its temporary folder removed on exit
    maven/java) interpreter=(bash -c 'cat >"$0/Repro.java" && exec java -cp "target/classes:target/lib/*" "$0/Repro.java"' "$scratch") ;;
    *) repro_note="no way to run a $language reproduction of an install=$kind adapter"; return 1 ;;
  esac
  out="$scratch/$name-repro"
  rm -rf "$out"
  if ! counts="$(python3 examples/adapters/reproductions.py "$page" "$language" "$out" 2>"$scratch/$name-repro.txt")"; then
    repro_note="the reproductions of $page cannot be taken out: $(head -n 1 "$scratch/$name-repro.txt")"
    return 1
  fi
  read -r total distinct <<<"$counts"
  started=$(date +%s.%N)
  while IFS=$'\t' read -r n head src _; do
    [ "$n" = "$src" ] || continue
    ran=$((ran + 1))
    (cd "$dir" && timeout -k 5 "$repro_timeout" "${interpreter[@]}" <"$out/$n.src") >"$out/$n.out" 2>"$out/$n.err"
    code=$?
    if [ "$code" -eq 124 ] || [ "$code" -eq 137 ]; then
      why="did not finish within $repro_timeout s"
    elif [ "$code" -ne 0 ]; then
      why="exited $code"
    elif ! grep -qE '^(the tool received:|the caller got:)' "$out/$n.out"; then
      why="printed neither a 'the tool received:' nor a 'the caller got:' line"
    else
      continue
    fi
    bad=$((bad + 1))
    echo "  FAILED reproduction $n of $total ($head) $why"
    if [ "$bad" -le 2 ]; then  # the first two say what they printed, the rest only that they fail
      echo "    its last lines (| stdout, ! stderr):"
      tail -n 6 "$out/$n.out" | cut -c1-200 | sed 's/^/    | /'
      tail -n 6 "$out/$n.err" | cut -c1-200 | sed 's/^/    ! /'
    fi
  done <"$out/index.tsv"
  repro_note="$ran of $total reproductions run ($((total - distinct)) identical to another), $(elapsed "$started") s"
  echo "  reproductions: $repro_note, $((ran - bad)) printed an outcome line"
  if [ "$bad" -gt 0 ]; then
    repro_note="$bad of the $ran reproductions of $page run from $dir fail (see above)"
    return 1
  fi
  # What each printed, against what the page's standing records for its case.
  template="$dir/$(sed -n 's/^repro:[[:space:]]*//p' "$dir/about.yaml" | tr -d "\"' \r" | head -n 1)"
  if ! counts="$(python3 examples/adapters/reproductions.py compare "$out" "$(dirname "$page")/standing.json" "$template" 2>"$scratch/$name-compare-repro.txt")"; then
    sed 's/^/  FAILED /' "$scratch/$name-compare-repro.txt"
    repro_note="$(grep -c . "$scratch/$name-compare-repro.txt") of the reproductions of $page do not show what the page records (see above)"
    return 1
  fi
  read -r compared uncompared <<<"$counts"
  repro_note="$repro_note, $compared showing what the page records ($uncompared with no recorded answer to compare)"
  echo "  reproductions compared with the page: $compared show what it records, $uncompared have no recorded answer to compare"
}

summary=()
failed=false
for name in "${names[@]}"; do
  echo "== $name"
  log="$scratch/$name-install.log"
  if ! install "$name" "$log"; then
    echo "FAILED $name: its install failed; last lines of the log:"
    tail -n 15 "$log" | sed 's/^/  /'
    summary+=("--       $name: FAILED: its install failed")
    failed=true
    continue
  fi
  # An adapter's own tests (test_*.py beside it: what it claims of its framework) run first.
  if compgen -G "examples/adapters/$name/test_*.py" >/dev/null && [ -x "examples/adapters/$name/.venv/bin/python" ]; then
    if ! (cd "examples/adapters/$name" && .venv/bin/python -m unittest -q test_*.py) >"$scratch/$name-tests.txt" 2>&1; then
      echo "FAILED $name: its own tests fail:"
      tail -n 30 "$scratch/$name-tests.txt" | sed 's/^/  /'
      summary+=("--       $name: FAILED: the adapter's own tests fail")
      failed=true
      continue
    fi
    echo "  its own tests: $(grep -E '^Ran ' "$scratch/$name-tests.txt")"
  fi
  # A Node adapter's own tests (*.test.mjs beside it) likewise, with node's test runner.
  if compgen -G "examples/adapters/$name/*.test.mjs" >/dev/null && [ -d "examples/adapters/$name/node_modules" ]; then
    if ! (cd "examples/adapters/$name" && node --test) >"$scratch/$name-tests.txt" 2>&1; then
      echo "FAILED $name: its own tests fail:"
      tail -n 30 "$scratch/$name-tests.txt" | sed 's/^/  /'
      summary+=("--       $name: FAILED: the adapter's own tests fail")
      failed=true
      continue
    fi
    echo "  its own tests: $(grep -E '^# (pass|fail) ' "$scratch/$name-tests.txt" | tr '\n' ' ')"
  fi
  # A Rust adapter's own tests (its crate's cargo test) likewise.
  if [ "$(conf "$name" install)" = cargo ]; then
    if ! cargo test --locked --quiet --manifest-path "$(conf "$name" crate)/Cargo.toml" >"$scratch/$name-tests.txt" 2>&1; then
      echo "FAILED $name: its own tests fail:"; tail -n 30 "$scratch/$name-tests.txt" | sed 's/^/  /'
      summary+=("--       $name: FAILED: the adapter's own tests fail"); failed=true; continue
    fi
    echo "  its own tests: $(grep -m1 -E '^test result:' "$scratch/$name-tests.txt")"
  fi
  published="reports/$name"
  out="$published"
  $check && out="$scratch/$name"
  mkdir -p "$out"
  # What was published before this run, to say whether anything changed (in either mode).
  previous="$scratch/$name-previous.json"
  [ -f "$published/standing.json" ] && cp "$published/standing.json" "$previous"
  case "$(conf "$name" route)" in
    ''|stdio) route=--stdio ;;
    mcp-server) route=--mcp-server ;;
    mcp-gateway) route=--mcp-gateway ;;
    mcp-gateway-http) route=--mcp-gateway-http ;;
    http-bridge) route=--http-bridge ;;
    *) route=""
       echo "FAILED $name: its adapter.conf says route=$(conf "$name" route), which is none of stdio, mcp-server, mcp-gateway, mcp-gateway-http, http-bridge"
       summary+=("--       $name: FAILED: unknown route=$(conf "$name" route) in its adapter.conf"); failed=true; continue ;;
  esac
  command="$(command_of "$name")"
  # The adapter's program must be there: a missing one is named, not run into 481 errors.
  read -r program _ <<<"$command"
  if { [[ "$program" == */* ]] && [ ! -x "$program" ]; } || { [[ "$program" != */* ]] && ! command -v "$program" >/dev/null; }; then
    echo "FAILED $name: its program $program does not exist (not built, or built somewhere else)"
    summary+=("--       $name: FAILED: its program $program does not exist"); failed=true; continue
  fi
  args=(run "$route" "$command" --start-timeout 60s --color never)
  [ -n "$(conf "$name" name)" ] && args+=(--name "$(conf "$name" name)")
  [ -n "$(conf "$name" version)" ] && args+=(--version "$(conf "$name" version)")
  [ -n "$(conf "$name" tool_name)" ] && args+=(--mcp-tool-name "$(conf "$name" tool_name)")
  [ -f "$published/expected-failures.yaml" ] && args+=(--expected-failures "$published/expected-failures.yaml")
  started=$(date +%s.%N)
  "$TOOL_CONFORMANCE" "${args[@]}" --jobs 1 --report "$out" >"$scratch/$name-run.txt" 2>&1
  code=$?
  serial=$(elapsed "$started")
  # The standing tables and the closing lines: the whole output is in the report folder.
  grep -E '^(RT-TOOL-8|PLAT-162):|^Expected failures|^  (STALE|NEW)|^[0-9]+ cases' "$scratch/$name-run.txt" | sed 's/^/  /'
  verdict="as published"
  aside=""
  if [ "$code" -ne 0 ]; then
    verdict="FAILED (exit $code): a failure with no expected-failures entry, a stale entry, or a broken run"
    tail -n 30 "$scratch/$name-run.txt" | sed 's/^/  /'
    failed=true
  elif [ ! -f "$previous" ]; then
    if $check; then
      verdict="FAILED: nothing is published in $published/ (run $0 $name)"
      failed=true
    else
      verdict="published for the first time"
    fi
  elif ! "$TOOL_CONFORMANCE" compare --color never "$previous" "$out/standing.json" >"$scratch/$name-compare.txt" 2>&1; then
    verdict="REGRESSED against the published standing.json: $(what_changed "$previous" "$out/standing.json" "$scratch/$name-compare.txt")"
    sed 's/^/  /' "$scratch/$name-compare.txt"
    $check && verdict="FAILED: $verdict" && failed=true
  elif ! aside=$(reproduces "$previous" "$out/standing.json"); then
    verdict="CHANGED: no regression, but standing.json differs from the published one: $(what_changed "$previous" "$out/standing.json" "$scratch/$name-compare.txt")"
    sed -n '/^[1-9][0-9]* \(progression\|other change\|new case\|gone case\)/,$p' "$scratch/$name-compare.txt" | grep -v '^$' | head -n 20 | sed 's/^/  /'
    if $check; then
      verdict="FAILED: $verdict (regenerate with $0 $name)"
      failed=true
    fi
  fi
  page=""
  if ! $check && [ "$code" -eq 0 ]; then
    # The time to a standing: the run above at --jobs 1, and one at --jobs 4 for its time alone
    # (not over MCP, where a run is one server process: --jobs takes no other value there).
    started=$(date +%s.%N)
    code4=0
    if [ "$route" = --stdio ]; then
      "$TOOL_CONFORMANCE" "${args[@]}" --jobs 4 --report "$scratch/$name-jobs4" >"$scratch/$name-run4.txt" 2>&1
      code4=$?
    fi
    parallel=$(elapsed "$started")
    if [ "$route" != --stdio ]; then
      printf '{"runs": [{"jobs": 1, "seconds": %s}]}\n' "$serial" >"$published/timing.json"
    elif [ "$code4" -eq 0 ]; then
      printf '{"runs": [{"jobs": 1, "seconds": %s}, {"jobs": 4, "seconds": %s}]}\n' "$serial" "$parallel" >"$published/timing.json"
    else
      printf '{"runs": [{"jobs": 1, "seconds": %s}]}\n' "$serial" >"$published/timing.json"
      echo "  the timing run at --jobs 4 failed (exit $code4); timing.json has the --jobs 1 run only"
    fi
    if [ "$route" = --stdio ]; then
      echo "  time to a standing: ${serial} s at --jobs 1, ${parallel} s at --jobs 4"
    else
      echo "  time to a standing: ${serial} s (one server process: no --jobs 4 run)"
    fi
    if "$TOOL_CONFORMANCE" readme "$published" >"$scratch/$name-README.md" 2>"$scratch/$name-readme.txt"; then
      mv "$scratch/$name-README.md" "$published/README.md"
      echo "  $published/README.md regenerated"
      page="$published/README.md"
    else
      echo "  FAILED to write $published/README.md:"; sed 's/^/  /' "$scratch/$name-readme.txt"
      failed=true
    fi
  fi
  # The page's reproductions: the one just published, or (--check) the page this run makes.
  if $check && [ "$code" -eq 0 ]; then
    if "$TOOL_CONFORMANCE" readme --color never --adapter "examples/adapters/$name" "$out" >"$out/README.md" 2>"$scratch/$name-readme.txt"; then
      page="$out/README.md"
    else
      verdict="FAILED: the page cannot be made: $(head -n 1 "$scratch/$name-readme.txt")"
      failed=true
    fi
  fi
  repro_note=""
  if [ -n "$page" ] && ! reproductions "$name" "$page"; then
    failed=true
    if [ "$verdict" = "as published" ]; then verdict="FAILED: $repro_note"; else verdict="$verdict; FAILED: $repro_note"; fi
    repro_note=""
  fi
  [ "$verdict" = "as published" ] && [ -n "$aside" ] && verdict="as published ($aside)"
  summary+=("$(printf '%-8s %s: %s%s' "$([[ "$verdict" == "as published"* ]] && echo ok || echo '--')" "$name" "$verdict" "${repro_note:+; $repro_note}")")
  [[ "$verdict" == "as published"* ]] || $check || echo "  $verdict"
done

if ! $check; then
  "$TOOL_CONFORMANCE" table reports >"$scratch/README.md" || failed=true
  mv "$scratch/README.md" reports/README.md
  echo "== reports/README.md regenerated"
fi
echo
echo "Summary:"
printf '  %s\n' "${summary[@]}"
$failed && exit 1
exit 0
