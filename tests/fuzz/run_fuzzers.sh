#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in their own build directory and runs each
# one for SECONDS with a fixed seed, starting from the committed corpus.
# scripts/test.sh counts the `run fuzz_…` lines at the end.
#   tests/fuzz/run_fuzzers.sh [SECONDS]        (default 60)
# Environment: DLAB_FUZZ_BUILD_DIR (default <repo>/build-fuzz).
# New corpus entries go to <build>/fuzz-corpus/<target>; a crash leaves its input in
# <build>/fuzz-artifacts/ and makes the script exit non-zero.
set -euo pipefail
SECONDS_EACH="${1:-60}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${DLAB_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
FUZZ_DIR="$ROOT/tests/fuzz"

CC=clang CXX=clang++ cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDLAB_FUZZ=ON -DDLAB_SANITIZE=ON -DDLAB_TESTS=OFF -DDLAB_GUI=OFF -DDLAB_CUDA=OFF >/dev/null
ninja -C "$BUILD" fuzz_gguf fuzz_tokenizer fuzz_run_spec fuzz_session_file fuzz_openai_request fuzz_grammar

mkdir -p "$BUILD/fuzz-artifacts"
status=0
run() {  # run NAME MAX_LEN [extra libFuzzer flags...]
  local name="$1" maxlen="$2"; shift 2
  local work="$BUILD/fuzz-corpus/$name"
  mkdir -p "$work"
  echo "== $name: ${SECONDS_EACH}s"
  # The first corpus directory receives new inputs; the committed seeds stay read-only.
  if ! "$BUILD/tests/fuzz/$name" -seed=1 -max_total_time="$SECONDS_EACH" -max_len="$maxlen" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$BUILD/fuzz-artifacts/$name-" "$@" \
      "$work" "$FUZZ_DIR/corpus/${name#fuzz_}" 2>"$BUILD/fuzz-$name.log"; then
    echo "!! $name failed; last lines of $BUILD/fuzz-$name.log:"
    tail -n 40 "$BUILD/fuzz-$name.log"
    status=1
  else
    grep -E "^#[0-9]+[[:space:]]+DONE|^stat::(number_of_executed_units|peak_rss_mb)" "$BUILD/fuzz-$name.log" || true
  fi
}
run fuzz_gguf 16384 -dict="$FUZZ_DIR/gguf.dict"
run fuzz_tokenizer 4096
run fuzz_run_spec 256 -dict="$FUZZ_DIR/run_spec.dict"
run fuzz_session_file 65536 -dict="$FUZZ_DIR/session_file.dict"
run fuzz_openai_request 4096 -dict="$FUZZ_DIR/openai_request.dict"
run fuzz_grammar 4096 -dict="$FUZZ_DIR/grammar.dict"
exit "$status"
