#!/usr/bin/env bash
# Packs the npm packages: `tool-conformance` (the Node adapter kit, and a launcher for the binary)
# and, for each TARGET=BINARY given, `tool-conformance-<os>-<cpu>` holding that binary. The main
# package lists every platform package as an optional dependency at exactly VERSION (no range), so
# npm installs only the one whose os and cpu match the machine (as esbuild and biome do), and only
# the one published with this release. The platform names are unscoped: the project holds each
# name itself, and the release refuses to publish one held by anyone else (packaging/owners.py).
#
#   bash packaging/npm/pack.sh OUT_DIR VERSION [RUST_TARGET=PATH_OF_BINARY ...]
#
# Writes OUT_DIR/*.tgz (npm pack). Needs node and npm, and nothing from the network.
set -euo pipefail
out="$(mkdir -p "$1" && cd "$1" && pwd)"; version="$2"; shift 2
# An exact version: the optional dependencies name it as it is, and npm reads a range otherwise.
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || { echo "not an exact version: $version" >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"; root="$(cd "$here/../.." && pwd)"
stage="$(mktemp -d)"; trap 'rm -rf "$stage"' EXIT

# The npm platform of a Rust target triple.
platform() {
  case "$1" in
    x86_64-*-linux-*) echo linux-x64 ;;
    aarch64-*-linux-*) echo linux-arm64 ;;
    x86_64-apple-darwin) echo darwin-x64 ;;
    aarch64-apple-darwin) echo darwin-arm64 ;;
    x86_64-pc-windows-*) echo win32-x64 ;;
    *) echo "no npm platform for the target $1" >&2; return 1 ;;
  esac
}
# Every platform the release builds (the optional dependencies of the main package).
all_platforms=(linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64)

# The main package: the launcher, and the kit's files as adapters/node/package.json lists them.
main="$stage/tool-conformance"
cp -R "$here/tool-conformance" "$main"
mkdir -p "$main/kit"
(cd "$root/adapters/node" && node -e 'for (const f of require("./package.json").files) console.log(f)' | while read -r file; do cp -R "$file" "$main/kit/"; done)
node - "$main/package.json" "$version" "${all_platforms[@]}" <<'JS'
const fs = require('node:fs');
const [file, version, ...platforms] = process.argv.slice(2);
const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
manifest.version = version;
manifest.optionalDependencies = Object.fromEntries(platforms.map((p) => [`tool-conformance-${p}`, version]));
fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
JS
(cd "$main" && npm pack --silent --pack-destination "$out" >/dev/null)

for given in "$@"; do
  target="${given%%=*}"; binary="${given#*=}"; name="$(platform "$target")"
  dir="$stage/$name"; mkdir -p "$dir/bin"
  exe=""; case "$target" in *windows*) exe=.exe ;; esac
  cp "$binary" "$dir/bin/tool-conformance$exe"; chmod +x "$dir/bin/tool-conformance$exe"
  cp "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$dir/"
  node - "$here/platform/package.json" "$dir/package.json" "$version" "$name" <<'JS'
const fs = require('node:fs');
const [template, file, version, name] = process.argv.slice(2);
const [os, cpu] = name.split('-');
const manifest = JSON.parse(fs.readFileSync(template, 'utf8').replaceAll('PLATFORM', name).replace('"OS"', JSON.stringify(os)).replace('"CPU"', JSON.stringify(cpu)));
manifest.version = version;
fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
JS
  (cd "$dir" && npm pack --silent --pack-destination "$out" >/dev/null)
done
ls "$out"
