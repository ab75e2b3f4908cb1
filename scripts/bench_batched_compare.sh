#!/usr/bin/env bash
# Batched decoding, Decoding Lab beside llama.cpp, in one run: for each batch size B, our
# `decoding-lab-cli bench --batch B` (B sequences, a 32-token prompt each, 32 timed decode steps of
# one forwardBatch each; also B one-by-one forward() calls per step) and then llama.cpp doing the
# same through llama_decode (scripts/bench_llamacpp_batched.py), alternating, ROUNDS times.
# Prints a side-by-side table of aggregate decode tokens/s.
#   scripts/bench_batched_compare.sh [THREADS] [REPS] [BATCHES] [ROUNDS]
#   defaults: 2 threads, 2 repetitions after a warm-up, batches 1,2,4,8,16,32, 2 rounds
# Needs llama-cpp-python==0.3.36 in $PYTHON's environment (see tests/golden/README.md), e.g.
#   PYTHON=/tmp/refvenv/bin/python scripts/bench_batched_compare.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLI="${CLI:-$ROOT/build/app/cli/decoding-lab-cli}"
PYTHON="${PYTHON:-python3}"
THREADS="${1:-2}"
REPS="${2:-2}"
BATCHES="${3:-1,2,4,8,16,32}"
ROUNDS="${4:-2}"
MODEL="${MODEL:-${XDG_DATA_HOME:-$HOME/.local/share}/decoding-lab/models/SmolLM2-135M-Instruct.Q4_1.gguf}"
[[ -x "$CLI" ]] || { echo "no decoding-lab-cli at $CLI (set CLI=...)" >&2; exit 1; }
[[ -f "$MODEL" ]] || { echo "no model at $MODEL (set MODEL=...)" >&2; exit 1; }

OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

echo "model: $MODEL ($(stat -c %s "$MODEL") bytes), threads $THREADS, reps $REPS, rounds $ROUNDS, $(nproc) cores"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "start: $(date -u +%FT%TZ), loadavg $(cut -d' ' -f1-3 /proc/loadavg)"

# llama.cpp's weight placement: probe once (its default, unless a decode with it crashes), then
# pass the answer on so every call measures the same configuration.
"$PYTHON" "$ROOT/scripts/bench_llamacpp_batched.py" --model "$MODEL" --threads "$THREADS" --batch 1 -p 1 -n 1 --reps 1 \
  --detail >"$OUT/probe.json"
EXTRA="$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["extra_bufts"])' "$OUT/probe.json")"

IFS=',' read -r -a SIZES <<<"$BATCHES"
for round in $(seq 1 "$ROUNDS"); do
  for b in "${SIZES[@]}"; do
    echo "--- round $round, batch $b: ours, then llama.cpp (loadavg $(cut -d' ' -f1 /proc/loadavg))"
    "$CLI" bench --model "$MODEL" --batch "$b" --reps "$REPS" --threads "$THREADS" --json >"$OUT/ours.$round.$b.json"
    "$PYTHON" "$ROOT/scripts/bench_llamacpp_batched.py" --model "$MODEL" --threads "$THREADS" --batch "$b" \
      --reps "$REPS" --extra-bufts "$EXTRA" --detail >"$OUT/llama.$round.$b.json"
  done
done
echo "end: $(date -u +%FT%TZ), loadavg $(cut -d' ' -f1-3 /proc/loadavg)"

"$PYTHON" - "$OUT" "$ROUNDS" "$BATCHES" <<'EOF'
import json, os, sys
out, rounds, sizes = sys.argv[1], int(sys.argv[2]), [int(b) for b in sys.argv[3].split(",")]
probe = json.load(open(os.path.join(out, "probe.json")))
print(f"\nllama.cpp: {probe['engine']}, flash attention {probe['flash_attn']} ({probe['flash_attn_resolved']}), "
      f"extra buffer types {probe['extra_bufts']}" + (f" ({probe['extra_bufts_note']})" if probe["extra_bufts_note"] else ""))
print(f"{probe['ggml_system_info']}\n")
print("aggregate decode tokens/s, mean ± sd of the repetitions, round 1 / round 2 / ...\n")
print("| batch | Decoding Lab, batched | Decoding Lab, one by one | llama.cpp, batched | ours / llama.cpp |")
print("|---|---|---|---|---|")
for b in sizes:
    ours = [json.load(open(os.path.join(out, f"ours.{r}.{b}.json")))[0] for r in range(1, rounds + 1)]
    llama = [json.load(open(os.path.join(out, f"llama.{r}.{b}.json")))["batches"][0] for r in range(1, rounds + 1)]
    fmt = lambda xs: " / ".join(f"{m:.1f} ± {s:.1f}" for m, s in xs)
    ratios = [o["batched_tokens_per_s"] / l["tokens_per_s"] for o, l in zip(ours, llama)]
    print(f"| {b} | {fmt((o['batched_tokens_per_s'], o['batched_sd']) for o in ours)} "
          f"| {fmt((o['one_by_one_tokens_per_s'], o['one_by_one_sd']) for o in ours)} "
          f"| {fmt((l['tokens_per_s'], l['sd']) for l in llama)} "
          f"| {' / '.join(f'{x:.2f}×' for x in ratios)} |")
EOF
