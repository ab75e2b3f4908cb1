#!/usr/bin/env bash
# Regenerates the llama.cpp golden files of the tiny random-weights models.
# Needs: a build of decoding-lab-cli (build/) and llama-cpp-python==0.3.36 in $PYTHON's environment.
# The models are written by our own GGUF writer with seed 1; test_forward_golden rewrites them and
# checks their sha256 against the golden file before comparing logits.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CLI="${CLI:-$ROOT/build/app/cli/decoding-lab-cli}"
PYTHON="${PYTHON:-python3}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
PROMPTS="316 72 101 108 108 111 256 300 44 32 119;17 250 3 99 180 42 42 7 260 270 280 290 310 1 2 3 4 5;200"
for spec in "llama f32" "qwen2 f32" "gpt2 f32" "gpt2 f16" "llama q4_1 --tied" "qwen2 q8_0"; do
  set -- $spec
  name="tiny-$1-$2${3:+-tied}"
  "$CLI" make-tiny-model --arch "$1" --type "$2" ${3:-} --seed 1 --out "$TMP/$name.gguf"
  "$PYTHON" "$ROOT/tests/golden/make_llamacpp_golden.py" --model "$TMP/$name.gguf" \
    --out "$ROOT/tests/data/golden/$name.json" --token-prompts "$PROMPTS" \
    --flash-attn off --kv-type f32 --greedy-tokens 64
done
