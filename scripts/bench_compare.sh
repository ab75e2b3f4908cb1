#!/usr/bin/env bash
# Decoding Lab vs llama.cpp on the same model file, same thread count, in one run (alternating,
# so both see the same machine state). Also peak RSS of `generate` with a 2,048-token context.
#   scripts/bench_compare.sh [THREADS] [REPS]
# Needs llama-cpp-python==0.3.36 in $PYTHON's environment (see tests/golden/README.md).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLI="${CLI:-$ROOT/build/app/cli/decoding-lab-cli}"
PYTHON="${PYTHON:-python3}"
THREADS="${1:-2}"
REPS="${2:-3}"
MODEL="${MODEL:-${XDG_DATA_HOME:-$HOME/.local/share}/decoding-lab/models/SmolLM2-135M-Instruct.Q4_1.gguf}"

echo "model: $MODEL ($(stat -c %s "$MODEL") bytes), threads $THREADS, $(nproc) cores, $(date -u +%FT%TZ)"
echo "loadavg before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in 1 2; do
  echo "--- round $round: decoding-lab-cli bench -p 512 -n 128 --threads $THREADS --reps $REPS"
  "$CLI" bench --model "$MODEL" --threads "$THREADS" -p 512 -n 128 --reps "$REPS"
  echo "--- round $round: scripts/bench_reference.py (llama.cpp) -p 512 -n 128 --threads $THREADS --reps $REPS"
  "$PYTHON" "$ROOT/scripts/bench_reference.py" --model "$MODEL" --threads "$THREADS" -p 512 -n 128 --reps "$REPS"
done

echo "--- peak RSS: generate with a 2,048-token context (1,900-token prompt + 100 tokens)"
PROMPT="$("$PYTHON" -c "print(' '.join(['word'] * 1900))")"
/usr/bin/time -f "peak RSS %M KiB, wall %e s" "$CLI" generate --model "$MODEL" --ctx 2048 --threads "$THREADS" \
  --temperature 0 --max-tokens 100 --prompt "$PROMPT" >/dev/null
echo "loadavg after: $(cut -d' ' -f1-3 /proc/loadavg)"
