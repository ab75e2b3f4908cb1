#!/usr/bin/env bash
# The serving benchmarks of docs/benchmarks.md in one run: decoding-lab-cli serve-bench (batch
# sweep, static vs continuous batching under Poisson load, the prefix cache on a shared 500-token
# system prompt), printed as the doc's Markdown tables; the raw JSON is kept beside them.
#   scripts/bench_serving.sh [THREADS] [OUT.json]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLI="${CLI:-$ROOT/build/app/cli/decoding-lab-cli}"
THREADS="${1:-2}"
OUT="${2:-$(mktemp --suffix=.json)}"
MODEL="${MODEL:-${XDG_DATA_HOME:-$HOME/.local/share}/decoding-lab/models/SmolLM2-135M-Instruct.Q4_1.gguf}"

echo "model: $MODEL, threads $THREADS, $(nproc) cores, $(date -u +%FT%TZ), loadavg before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$CLI" serve-bench --model "$MODEL" --threads "$THREADS" \
  --batches 1,2,4,8,16,32 --prompt-tokens 32 --output-tokens 32 \
  --rates 1,2,4,8 --requests 32 --prompt-min 32 --prompt-max 96 --output-min 16 --output-max 48 --max-batch 8 \
  --token-budget 512 --prefill-chunk 256 \
  --system-tokens 500 --user-tokens 32 --prefix-requests 8 >"$OUT"
echo "loadavg after: $(cut -d' ' -f1-3 /proc/loadavg); JSON: $OUT"
python3 - "$OUT" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = lambda x, n=1: f"{x:.{n}f}"
print("\nBatch sweep (B requests of 32 prompt + 32 output tokens at once, batch B):\n")
print("| batch | decode tokens/s | ITL p50 ms | ITL p99 ms | TTFT p50 ms | TTFT p99 ms |")
print("|---|---|---|---|---|---|")
for p in d["sweep"]["points"]:
    s = p["summary"]
    print(f"| {p['batch']} | {f(s['decode_throughput_tok_s'])} | {f(s['itl_ms']['p50'])} | {f(s['itl_ms']['p99'])} | {f(s['ttft_ms']['p50'],0)} | {f(s['ttft_ms']['p99'],0)} |")
print("\nWorkloads (bounds: p99 ITL <= %g ms, p99 TTFT <= %g ms):\n" % (d["sweep"]["itl_bound_ms"], d["sweep"]["ttft_bound_ms"]))
print("| workload | optimises | batch | why |")
print("|---|---|---|---|")
for w in d["sweep"]["workloads"]:
    print(f"| {w['workload']} | {w['optimises']} | {w['batch'] or '-'} | {w['why']} |")
L = d["load"]
print(f"\nOffered load ({L['requests']} requests, prompts {L['prompt_tokens'][0]}-{L['prompt_tokens'][1]}, outputs {L['output_tokens'][0]}-{L['output_tokens'][1]} tokens, max batch {L['max_batch']}, the same trace for both):\n")
print("| req/s | batching | throughput tok/s | TTFT p50 ms | TTFT p99 ms | ITL p50 ms | ITL p99 ms | occupancy | padding tokens |")
print("|---|---|---|---|---|---|---|---|---|")
for p in L["points"]:
    for m in ("static", "continuous"):
        s = p[m]
        print(f"| {p['rate']:g} | {m} | {f(s['throughput_tok_s'])} | {f(s['ttft_ms']['p50'],0)} | {f(s['ttft_ms']['p99'],0)} | {f(s['itl_ms']['p50'])} | {f(s['itl_ms']['p99'])} | {f(s['occupancy'],2)} | {s['padding_tokens']} |")
P = d["prefix"]
print(f"\nPrefix cache ({P['requests']} requests, one at a time, each a shared {P['system_prompt_tokens']}-token system prompt + {P['user_tokens']} tokens of its own):\n")
print("| prefix cache | TTFT p50 ms | TTFT p99 ms | prompt tokens from the cache |")
print("|---|---|---|---|")
for k, name in (("with_cache", "on"), ("without_cache", "off")):
    s = P[k]
    print(f"| {name} | {f(s['ttft_ms']['p50'])} | {f(s['ttft_ms']['p99'])} | {100*s['prefix_hit_rate']:.0f} % |")
PY
