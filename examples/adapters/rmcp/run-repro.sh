#!/usr/bin/env bash
# Runs one filled reproduction template (a Rust program, on standard input) against this crate:
# it becomes the example examples/repro_run.rs (removed after) and runs with cargo, from the
# pinned Cargo.lock. run-frameworks.sh feeds each reproduction of the rmcp rows' pages to it.
#   bash run-repro.sh < filled-repro.rs
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p examples
trap 'rm -rf examples' EXIT  # the checkout keeps no reproduction; its build stays in cargo's target
cat > examples/repro_run.rs
cargo run --locked --quiet --example repro_run
