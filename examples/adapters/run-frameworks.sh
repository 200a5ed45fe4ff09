#!/usr/bin/env bash
# Installs each adapted implementation into its own local environment, runs the suite against it,
# and publishes its standing in reports/<name>/, then regenerates the table in reports/README.md.
#
#   examples/adapters/run-frameworks.sh             # install, run, write reports/<name>/ and reports/README.md
#   examples/adapters/run-frameworks.sh --check     # install, run into a scratch folder, and fail on any
#                                                   # difference from what reports/<name>/ publishes
#   examples/adapters/run-frameworks.sh mcp-python  # only the named adapters (any mode)
#
# The adapters are the folders examples/adapters/<name>/ that hold an `adapter.conf`: bash
# `key=value` lines, `install=venv` (python3 -m venv .venv; pip install -r requirements.txt, run
# from the repository root), `install=npm` (npm ci from package-lock.json) or `install=none`, and
# `command='...'`, the --stdio command line run from the repository root, where {dir} stands for
# the adapter folder. An environment already installed from the same pins is reused.
#
# Every run is given reports/<name>/expected-failures.yaml, where each entry says in one sentence
# what lies behind a failure: a failure no entry covers, or an entry that no longer fails, makes
# the run fail. An adapter whose install fails is reported as SKIPPED (with the install log's last
# lines) and does not fail this script; a run that fails does. Exit 0 when every adapter that
# installed ran as published, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.."

check=false
names=()
for arg in "$@"; do
  case "$arg" in
    --check) check=true ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
  (install='' command=''; . "$file"; eval "printf '%s' \"\${$2:-}\"")
}

# The harness: $TOOL_CONFORMANCE if set, else this checkout's debug build (which `cargo test`
# has already made).
if [ -z "${TOOL_CONFORMANCE:-}" ]; then
  cargo build --quiet || { echo "the harness does not build" >&2; exit 1; }
  TOOL_CONFORMANCE="$PWD/target/debug/tool-conformance"
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
    *) echo "$dir/adapter.conf: install=$kind is none of venv, npm, none" >"$log"; return 1 ;;
  esac
}

# command_of NAME: the --stdio command line that starts the adapter ({dir} replaced).
command_of() {
  local line
  line="$(conf "$1" command)" || return 1
  printf '%s' "${line//\{dir\}/examples/adapters/$1}"
}

summary=()
failed=false
for name in "${names[@]}"; do
  echo "== $name"
  log="$scratch/$name-install.log"
  if ! install "$name" "$log"; then
    echo "SKIPPED $name: its install failed; last lines of the log:"
    tail -n 15 "$log" | sed 's/^/  /'
    summary+=("SKIPPED  $name (install failed; not green)")
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
  published="reports/$name"
  out="$published"
  $check && out="$scratch/$name"
  mkdir -p "$out"
  # What was published before this run, to say whether anything changed (in either mode).
  previous="$scratch/$name-previous.json"
  [ -f "$published/standing.json" ] && cp "$published/standing.json" "$previous"
  args=(run --stdio "$(command_of "$name")" --start-timeout 60s --color never --report "$out")
  [ -f "$published/expected-failures.yaml" ] && args+=(--expected-failures "$published/expected-failures.yaml")
  "$TOOL_CONFORMANCE" "${args[@]}" >"$scratch/$name-run.txt" 2>&1
  code=$?
  # The standing tables and the closing lines: the whole output is in the report folder.
  grep -E '^(RT-TOOL-8|PLAT-162):|^Expected failures|^  (STALE|NEW)|^[0-9]+ cases' "$scratch/$name-run.txt" | sed 's/^/  /'
  verdict="as published"
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
    verdict="REGRESSED against the published standing.json"
    sed 's/^/  /' "$scratch/$name-compare.txt"
    $check && verdict="FAILED: $verdict" && failed=true
  elif ! cmp -s "$previous" "$out/standing.json"; then
    verdict="CHANGED: no regression, but standing.json differs from the published one"
    sed 's/^/  /' "$scratch/$name-compare.txt"
    diff <(tr ',' '\n' <"$previous") <(tr ',' '\n' <"$out/standing.json") | head -n 20 | sed 's/^/  /'
    if $check; then
      verdict="FAILED: $verdict (regenerate with $0 $name)"
      failed=true
    fi
  fi
  summary+=("$(printf '%-8s %s: %s' "$([ "$verdict" = "as published" ] && echo ok || echo '--')" "$name" "$verdict")")
  [ "$verdict" = "as published" ] || $check || echo "  $verdict"
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
