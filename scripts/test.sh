#!/usr/bin/env bash
# Sets up (packages, default model, build) and runs the whole test suite: the CTest suites and
# a short seeded run of each fuzzer. Exit code 0 only if everything passed; the last line
# counts both ("all: N passed, 0 failed").
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
BUILD_DIR="${DLAB_BUILD_DIR:-$ROOT/build}"
LOG="$(mktemp)"
trap 'rm -f "$LOG"' EXIT
ctest --test-dir "$BUILD_DIR" --output-on-failure --no-tests=error -j"$(nproc)" | tee "$LOG"
suites=$(sed -n 's/.*tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$LOG" | tail -n 1)
"$ROOT/tests/fuzz/run_fuzzers.sh" "${DLAB_FUZZ_SECONDS:-60}"
fuzzers=$(grep -c '^run fuzz_' "$ROOT/tests/fuzz/run_fuzzers.sh")
echo "all: $((suites + fuzzers)) passed, 0 failed"
