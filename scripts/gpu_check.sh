#!/usr/bin/env bash
# The CUDA backend's evidence in ONE prepared run on the GPU machine (one H200, no Qt, no network,
# a small working tree), and the build that is taken there.
#
#   scripts/gpu_check.sh build            here: the Qt-free CLI with CUDA on, portable (build-gpu/);
#                                         prints what to carry (the binary alone, a few MiB)
#   scripts/gpu_check.sh run [OUT]        there: op checks, parity, benchmarks, the PyTorch baseline;
#                                         writes OUT/report.md and the raw JSON (OUT defaults to $OUT,
#                                         else gpu-report/)
#   scripts/gpu_check.sh dry-run [OUT]    here: the same script with small sizes; steps that need a GPU
#                                         report why they cannot run, the rest runs on the CPU
#
# On the device tool:  carry ["build-gpu/app/cli/decoding-lab-cli"],
#   command "LD_LIBRARY_PATH=/usr/local/cuda/lib64 scripts/gpu_check.sh run"
# The 94 MB default model does not travel: the run writes a random-weights model of exactly its
# shape and tensor types (make-tiny-model --like smollm2-135m); speed does not depend on the
# weights and CPU-vs-GPU parity is as meaningful.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODE="${1:-}"
BUILD="${DLAB_GPU_BUILD_DIR:-$ROOT/build-gpu}"
CLI="${DLAB_CLI:-$BUILD/app/cli/decoding-lab-cli}"

if [[ "$MODE" == "build" ]]; then
  set -e
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDLAB_CUDA=ON -DDLAB_GUI=OFF -DDLAB_TESTS=OFF \
    -DDLAB_HTTP=OFF -DDLAB_PORTABLE=ON >/dev/null
  cmake --build "$BUILD" --target decoding-lab-cli -j"$(nproc)"
  echo "gpu_check: built $CLI ($(du -h "$CLI" | cut -f1)); shared libraries it needs:"
  ldd "$CLI" | sed 's/^/  /'
  if ldd "$CLI" | grep -qE "libfmt|libcpp-httplib|libQt"; then
    echo "gpu_check: the binary needs a Debian-only library; it would not start on the GPU machine" >&2
    exit 1
  fi
  echo "carry: ${CLI#$ROOT/}"
  exit 0
fi
if [[ "$MODE" != "run" && "$MODE" != "dry-run" ]]; then
  sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
fi

OUTDIR="${2:-${OUT:-$ROOT/gpu-report}}"
mkdir -p "$OUTDIR"
REPORT="$OUTDIR/report.md"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
DRY=$([[ "$MODE" == "dry-run" ]] && echo 1 || echo 0)
# Sizes: the real run's, or a dry run's that finishes in a few minutes on 2 CPU cores.
if ((DRY)); then STEPS=8; TG=16; PP=64; REPS=1; BATCHES=1,4; else STEPS=128; TG=256; PP=512; REPS=3; BATCHES=1,4,16,64; fi
[[ -x "$CLI" ]] || { echo "gpu_check: $CLI is missing; run 'scripts/gpu_check.sh build' first (and carry it)" >&2; exit 1; }

failures=0
section() { printf '\n## %s\n\n' "$1" >>"$REPORT"; echo "== $1"; }
# step NAME OUTFILE CMD...: runs CMD with its stdout to OUTFILE, records the exit status and time.
step() {
  local name="$1" out="$2"; shift 2
  local t0=$SECONDS
  "$@" >"$out" 2>"$out.err"
  local rc=$?
  printf -- '- `%s`: exit %d in %d s\n' "$name" "$rc" $((SECONDS - t0)) >>"$REPORT"
  if ((rc != 0)); then
    failures=$((failures + 1))
    printf '  - %s\n' "$(tail -n 3 "$out.err" | tr '\n' ' ')" >>"$REPORT"
  fi
  return $rc
}

{
  echo "# GPU check report"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), mode: $MODE, host: $(hostname)"
  echo "- binary: ${CLI#$ROOT/}, commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "- GPU: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo 'nvidia-smi not found')"
  echo "- CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
} >"$REPORT"

section "Model"
MODEL="$WORK/smollm2-135m-shape.gguf"
step "make-tiny-model --like smollm2-135m" "$OUTDIR/model.txt" "$CLI" make-tiny-model --like smollm2-135m --out "$MODEL"
"$CLI" info --model "$MODEL" >>"$OUTDIR/model.txt" 2>&1
sed 's/^/    /' "$OUTDIR/model.txt" >>"$REPORT"

section "Per-op checks (cuda-check)"
step "cuda-check" "$OUTDIR/ops.md" "$CLI" cuda-check && true
cat "$OUTDIR/ops.md" >>"$REPORT"

section "Parity: CUDA against the CPU's exact mode, greedy"
for kv in f16 f32 q8_0; do
  n=$STEPS; [[ $kv != f16 ]] && n=$((STEPS / 4 > 4 ? STEPS / 4 : 4))
  step "parity --steps $n --kv-type $kv" "$OUTDIR/parity-$kv.json" "$CLI" parity --model "$MODEL" --steps "$n" --kv-type "$kv" --json
  tail -n 1 "$OUTDIR/parity-$kv.json.err" | sed 's/^/    /' >>"$REPORT"
done
# The tiny models of the other architectures (qwen2 biases and NeoX RoPE, gpt2 LayerNorm/GELU/learned positions).
for arch in qwen2 gpt2; do
  "$CLI" make-tiny-model --arch "$arch" --type q8_0 --out "$WORK/tiny-$arch.gguf" >/dev/null
  step "parity tiny $arch" "$OUTDIR/parity-tiny-$arch.json" "$CLI" parity --model "$WORK/tiny-$arch.gguf" --steps 32 --json
  tail -n 1 "$OUTDIR/parity-tiny-$arch.json.err" | sed 's/^/    /' >>"$REPORT"
done

section "Benchmarks (one run, this machine)"
bench() {  # bench NAME ENV... -- ARGS...
  local name="$1"; shift
  local envs=()
  while [[ "$1" != "--" ]]; do envs+=("$1"); shift; done
  shift
  step "bench $name" "$OUTDIR/bench-$name.json" env "${envs[@]}" "$CLI" bench --model "$MODEL" --json "$@"
}
bench cuda-tg-trace -- --backend cuda -p 0 -n "$TG" --reps "$REPS" --stats 32
bench cuda-tg-stats-only -- --backend cuda -p 0 -n "$TG" --reps "$REPS" --stats 32 --no-host-logits
bench cuda-tg-no-graphs DLAB_CUDA_GRAPHS=0 -- --backend cuda -p 0 -n "$TG" --reps "$REPS" --stats 32
bench cuda-pp -- --backend cuda -p "$PP" -n 0 --reps "$REPS"
bench cuda-batch -- --backend cuda --batch "$BATCHES" -p 32 -n 64 --reps "$REPS"
bench cpu-tg-pp -- --backend cpu -p "$PP" -n "$((TG / 2))" --reps 1 --threads "$(nproc)"
bench cpu-batch -- --backend cpu --batch "$BATCHES" -p 32 -n 16 --reps 1 --threads "$(nproc)"

section "PyTorch + transformers, same GPU and model shape"
if python3 -c "import torch, transformers" 2>/dev/null; then
  step "torch_baseline.py" "$OUTDIR/torch.json" python3 "$ROOT/scripts/torch_baseline.py" --tokens "$TG" --prefill "$PP" \
    --batches "$BATCHES" $( ((DRY)) && echo --no-compile)
else
  echo "- torch or transformers is not installed here: no baseline" >>"$REPORT"
fi

section "Summary"
python3 "$ROOT/scripts/gpu_report.py" "$OUTDIR" "$MODEL" >>"$REPORT" 2>>"$OUTDIR/summary.err" || echo "- summary failed: $(tail -n 2 "$OUTDIR/summary.err")" >>"$REPORT"
echo "- steps that failed: $failures" >>"$REPORT"
echo "gpu_check: report in $REPORT ($failures failed steps)"
exit 0
