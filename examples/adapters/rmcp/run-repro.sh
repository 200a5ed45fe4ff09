#!/usr/bin/env bash
# Runs one filled reproduction template (a Rust program, on standard input) against this crate:
# it becomes the example examples/repro_run.rs (not kept in git) and runs with cargo, from the
# pinned Cargo.lock. run-frameworks.sh feeds each reproduction of the rmcp rows' pages to it.
#   bash run-repro.sh < filled-repro.rs
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p examples
cat > examples/repro_run.rs
exec cargo run --locked --quiet --example repro_run
