#!/usr/bin/env bash
# Sets up (packages, default model, build) and runs the whole test suite: the CTest suites and
# a short seeded run of each fuzzer. Exit code 0 only if everything passed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
BUILD_DIR="${DLAB_BUILD_DIR:-$ROOT/build}"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)"
if [ -x "$ROOT/tests/fuzz/run_fuzzers.sh" ]; then
  "$ROOT/tests/fuzz/run_fuzzers.sh" "${DLAB_FUZZ_SECONDS:-60}"
fi
