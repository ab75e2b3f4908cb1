#!/usr/bin/env bash
# The CUDA backend's evidence in ONE prepared run on the GPU machine (one H200, no Qt, no network,
# a small working tree), and the build that is taken there.
#
#   scripts/gpu_check.sh build            here: the Qt-free CLI with CUDA on, portable (build-gpu/),
#                                         and its compute_75-only twin; prints what to carry (~32 MB)
#   scripts/gpu_check.sh run [OUT]        there: op checks, parity, benchmarks, the PyTorch baseline;
#                                         writes OUT/report.md and the raw JSON (OUT defaults to $OUT,
#                                         else gpu-report/)
#   scripts/gpu_check.sh dry-run [OUT]    here: the same script with small sizes, on the CUDA emulator
#                                         (build/app/cli/decoding-lab-cli-emulated, which the test
#                                         build makes): every step runs the CUDA backend's code on the
#                                         CPU; its speed figures are the emulator's, never GPU figures
#
# On the device tool:  carry ["build-gpu/app/cli/decoding-lab-cli", "build-gpu/tools"],
#   command "LD_LIBRARY_PATH=/usr/local/cuda/lib64 scripts/gpu_check.sh run"
# build-gpu/tools holds NVIDIA's compute-sanitizer wheel from PyPI (14 MB), run there on the q8_0
# KV path, and decoding-lab-cli-ptx75, the same CLI with only compute_75 PTX: the code Turing,
# Ampere and Ada GPUs compile at load time, which the H100 / H200 then runs too. The run stops
# starting steps after DLAB_GPU_CHECK_BUDGET_S seconds (560: the device tool's limit is 600 a
# command) and still writes its summary and raw.tgz.
# The 94 MB default model does not travel: the run writes a random-weights model of exactly its
# shape and tensor types (make-tiny-model --like smollm2-135m); speed does not depend on the
# weights and CPU-vs-GPU parity is as meaningful.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODE="${1:-}"
BUILD="${DLAB_GPU_BUILD_DIR:-$ROOT/build-gpu}"
if [[ "$MODE" == "dry-run" && -z "${DLAB_CLI:-}" && -x "$ROOT/build/app/cli/decoding-lab-cli-emulated" ]]; then
  DLAB_CLI="$ROOT/build/app/cli/decoding-lab-cli-emulated"
fi
CLI="${DLAB_CLI:-$BUILD/app/cli/decoding-lab-cli}"
EMULATED=$([[ "$CLI" == *-emulated ]] && echo 1 || echo 0)
SANITIZER_VERSION=13.0.85

if [[ "$MODE" == "build" ]]; then
  set -e
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDLAB_CUDA=ON -DDLAB_CUDA_EMULATOR=OFF -DDLAB_GUI=OFF -DDLAB_TESTS=OFF \
    -DDLAB_HTTP=OFF -DDLAB_PORTABLE=ON >/dev/null
  cmake --build "$BUILD" --target decoding-lab-cli -j"$(nproc)"
  mkdir -p "$BUILD/tools"
  # The same CLI with nothing but compute_75 PTX (the default build's code for GPUs older than 9.0):
  # on the GPU machine the driver compiles it, so its checks run the code those GPUs run.
  cmake -S "$ROOT" -B "$BUILD-ptx75" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDLAB_CUDA=ON -DDLAB_CUDA_EMULATOR=OFF -DDLAB_GUI=OFF \
    -DDLAB_TESTS=OFF -DDLAB_HTTP=OFF -DDLAB_PORTABLE=ON -DCMAKE_CUDA_ARCHITECTURES=75-virtual >/dev/null
  cmake --build "$BUILD-ptx75" --target decoding-lab-cli -j"$(nproc)"
  cp "$BUILD-ptx75/app/cli/decoding-lab-cli" "$BUILD/tools/decoding-lab-cli-ptx75"
  # compute-sanitizer for the device (the CUDA 13.0 one, as its driver): not installed there.
  if ! ls "$BUILD"/tools/nvidia_cuda_sanitizer_api-*.whl >/dev/null 2>&1; then
    python3 -m pip download --quiet --no-deps --dest "$BUILD/tools" "nvidia-cuda-sanitizer-api==$SANITIZER_VERSION" ||
      echo "gpu_check: could not download compute-sanitizer $SANITIZER_VERSION from PyPI; the run will skip its sanitizer steps" >&2
  fi
  echo "gpu_check: built $CLI ($(du -h "$CLI" | cut -f1)); shared libraries it needs:"
  ldd "$CLI" | sed 's/^/  /'
  if ldd "$CLI" | grep -qE "libfmt|libcpp-httplib|libQt"; then
    echo "gpu_check: the binary needs a Debian-only library; it would not start on the GPU machine" >&2
    exit 1
  fi
  echo "carry: ${CLI#$ROOT/} ${BUILD#$ROOT/}/tools ($(du -sh "$BUILD/tools" | cut -f1) with the compute_75 CLI and the sanitizer)"
  exit 0
fi
if [[ "$MODE" != "run" && "$MODE" != "dry-run" ]]; then
  sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
fi

OUTDIR="${2:-${OUT:-$ROOT/gpu-report}}"
mkdir -p "$OUTDIR"
REPORT="$OUTDIR/report.md"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
DRY=$([[ "$MODE" == "dry-run" ]] && echo 1 || echo 0)
# Sizes: the real run's, or a dry run's that finishes in a few minutes on 2 CPU cores (the emulator
# runs a decode step of the default model's shape in about 1.5 s).
# DEPTH: the cached context of the long-context decode benchmark; SPLIT_FROM: where attention
# splits contexts there (the default 512 in the real run; lower in the dry run so it splits).
if ((DRY)); then STEPS=6; TG=4; PP=32; REPS=1; BATCHES=1,4; PATH_BATCHES=4; BATCH_P=8; BATCH_N=2; DEPTH=160; SPLIT_FROM=64
else STEPS=128; TG=256; PP=512; REPS=3; BATCHES=1,4,16,64; PATH_BATCHES=1,4,16,64; BATCH_P=32; BATCH_N=64; DEPTH=4096; SPLIT_FROM=512; fi
[[ -x "$CLI" ]] || { echo "gpu_check: $CLI is missing; run 'scripts/gpu_check.sh build' first (and carry it)" >&2; exit 1; }

# The run's own time limit: a step starts only while time is left and is stopped when it runs out,
# so the summary and raw.tgz are always written (a dry run has no limit).
BUDGET_S="${DLAB_GPU_CHECK_BUDGET_S:-$( ((DRY)) && echo 0 || echo 560)}"
failures=0
skipped=0
section() { printf '\n## %s\n\n' "$1" >>"$REPORT"; echo "== $1"; }
# step NAME OUTFILE CMD...: runs CMD with its stdout to OUTFILE, records the exit status and time.
step() {
  local name="$1" out="$2"; shift 2
  local t0=$SECONDS limit=()
  if ((BUDGET_S > 0)); then
    if ((SECONDS >= BUDGET_S - 5)); then
      printf -- '- `%s`: not run, the time budget (%d s) is spent\n' "$name" "$BUDGET_S" >>"$REPORT"
      skipped=$((skipped + 1))
      return 125
    fi
    limit=(timeout --kill-after=5 $((BUDGET_S - SECONDS)))
  fi
  "${limit[@]}" "$@" >"$out" 2>"$out.err"
  local rc=$?
  ((rc == 124 && BUDGET_S > 0)) && echo "stopped: the run's time budget ($BUDGET_S s) ran out" >>"$out.err"
  printf -- '- `%s`: exit %d in %d s\n' "$name" "$rc" $((SECONDS - t0)) >>"$REPORT"
  if ((rc != 0)); then
    ((INFORMATION)) || failures=$((failures + 1))
    printf '  - %s\n' "$(tail -n 3 "$out.err" | tr '\n' ' ')" >>"$REPORT"
  fi
  return $rc
}
# inform NAME OUTFILE CMD...: a step whose result is reported but is not a check (no failure counted).
inform() { INFORMATION=1 step "$@"; }
INFORMATION=0
# parity_lines OUTFILE: parity's KV-row and summary lines (its stderr in --json mode) into the report.
parity_lines() { grep -h "KV rows\|^parity:" "$1.err" | sed 's/^/    /' >>"$REPORT"; }

{
  echo "# GPU check report"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), mode: $MODE, host: $(hostname)"
  echo "- binary: ${CLI#$ROOT/}, commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "- GPU: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo 'nvidia-smi not found')"
  echo "- CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  if ((EMULATED)); then
    echo "- **CUDA emulator**: the CUDA backend's code ran on the CPU emulator of the CUDA runtime"
    echo "  (tests/cuda_emulator). Op checks and parity are real results of that code; every speed"
    echo "  figure below is the emulator's, not a GPU's."
  fi
} >"$REPORT"

section "Model"
MODEL="$WORK/smollm2-135m-shape.gguf"
step "make-tiny-model --like smollm2-135m" "$OUTDIR/model.txt" "$CLI" make-tiny-model --like smollm2-135m --out "$MODEL"
"$CLI" info --model "$MODEL" >>"$OUTDIR/model.txt" 2>&1
sed 's/^/    /' "$OUTDIR/model.txt" >>"$REPORT"

section "Per-op checks (cuda-check --only ops)"
step "cuda-check --only ops" "$OUTDIR/ops.md" "$CLI" cuda-check --only ops && true
cat "$OUTDIR/ops.md" >>"$REPORT"

section "The backend's behaviour on the device (cuda-check --only backend)"
# Graphs, batches equal to each sequence alone, copy-on-write forks in every KV type, rows crossing
# between the CPU and the GPU, eviction, attention weights, statistics, cancellation: tiny models
# against the CPU's exact mode or the backend itself (cuda/backend_checks.h).
step "cuda-check --only backend" "$OUTDIR/backend-checks.md" "$CLI" cuda-check --only backend && true
cat "$OUTDIR/backend-checks.md" >>"$REPORT"

section "Parity: CUDA against the CPU's exact mode, greedy"
# q8_0 rounds every K/V value to one of 255 steps per 32 values. A long prompt's prefill runs through
# the half-precision GEMM (about 2^-11 relative rounding: NMSE ~2e-4 at the logits on random weights,
# ~1e-6 on the real model); q8_0 turns some of those small differences into whole steps, and 30 layers
# of random weights amplify them (measured on the emulator: NMSE ~5e-3, a near tie flipped). So the
# bounded q8_0 run prefills 8 tokens a pass (the f32 matvec path) and measures the q8_0 cache itself;
# the one-pass prefill with q8_0 is reported beside it as information.
# The f16 run of $STEPS tokens is the arithmetic check: its prompt goes 8 tokens a pass (the f32
# matvec), so every token must match. The same run with the prompt in one pass through the half
# GEMM is checked too, its logits against the bound, a different token allowed only at a near tie
# (the CPU's top-2 margin at most twice that step's max |Δ|; the first H200 run had 123 of 128).
for kv in f16 f32 q8_0; do
  n=$STEPS; [[ $kv != f16 ]] && n=$((STEPS / 4 > 4 ? STEPS / 4 : 4))
  chunk=(--prefill-chunk 8)
  step "parity --steps $n --kv-type $kv ${chunk[*]}" "$OUTDIR/parity-$kv.json" "$CLI" parity --model "$MODEL" --steps "$n" --kv-type "$kv" "${chunk[@]}" --json
  parity_lines "$OUTDIR/parity-$kv.json"
done
step "parity --steps $STEPS --kv-type f16, prompt in one GEMM pass, near ties allowed" "$OUTDIR/parity-f16-gemm.json" \
  "$CLI" parity --model "$MODEL" --steps "$STEPS" --kv-type f16 --allow-near-ties --json
parity_lines "$OUTDIR/parity-f16-gemm.json"
# Attention split into ranges end to end: a long prompt (8 tokens a pass; 20 sentences are 462
# tokens in the default model's vocabulary, 6 in the dry run 140) and the decode steps after it,
# splitting from 64 slots on (2 ranges past 128 slots, 3 past 256, ...).
LONG_PROMPT="$(for _ in $(seq "$( ((DRY)) && echo 6 || echo 20)"); do printf 'The history of the printing press begins '; done)"
step "parity --steps $STEPS --kv-type f16, a long prompt, attention split from 64 slots" "$OUTDIR/parity-f16-split.json" \
  env DLAB_CUDA_ATTENTION_SPLIT_FROM=64 "$CLI" parity --model "$MODEL" --steps "$STEPS" --kv-type f16 --prefill-chunk 8 \
  --prompt "$LONG_PROMPT" --json
parity_lines "$OUTDIR/parity-f16-split.json"
inform "parity --steps 4 --kv-type q8_0, prompt in one GEMM pass (information, not a check)" "$OUTDIR/parity-q8_0-gemm.json" \
  "$CLI" parity --model "$MODEL" --steps 4 --kv-type q8_0 --json
parity_lines "$OUTDIR/parity-q8_0-gemm.json"
# The first H200 run (2026-12-05) had q8_0 KV wrong on the device (NMSE 1.18, 0 of 32 tokens) and
# right on the emulator. These narrow it down: a one-token prompt (no prefill batch), graphs off,
# and the KV-row lines above (a wrong store shows in layer 0 already).
inform "parity --kv-type q8_0 --prompt Hi (information)" "$OUTDIR/parity-q8_0-hi.json" \
  "$CLI" parity --model "$MODEL" --steps 4 --kv-type q8_0 --prompt Hi --json
parity_lines "$OUTDIR/parity-q8_0-hi.json"
inform "parity --kv-type q8_0 --prefill-chunk 8, graphs off (information)" "$OUTDIR/parity-q8_0-nographs.json" \
  env DLAB_CUDA_GRAPHS=0 "$CLI" parity --model "$MODEL" --steps 4 --kv-type q8_0 --prefill-chunk 8 --json
parity_lines "$OUTDIR/parity-q8_0-nographs.json"
# The tiny models of the other architectures (qwen2 biases and NeoX RoPE, gpt2 LayerNorm/GELU/learned positions).
for arch in qwen2 gpt2; do
  "$CLI" make-tiny-model --arch "$arch" --type q8_0 --out "$WORK/tiny-$arch.gguf" >/dev/null
  step "parity tiny $arch" "$OUTDIR/parity-tiny-$arch.json" "$CLI" parity --model "$WORK/tiny-$arch.gguf" --steps 32 --json
  parity_lines "$OUTDIR/parity-tiny-$arch.json"
done
# The default model's shape with 2 layers (a tiny model's head size, 16, cannot hold a q8_0 cache):
# whether the q8_0 defect needs 30 layers; the sanitizer runs below use this model too.
MODEL2="$WORK/smollm2-135m-shape-2-layers.gguf"
"$CLI" make-tiny-model --like smollm2-135m --layers 2 --out "$MODEL2" >/dev/null
step "parity --kv-type q8_0 --prefill-chunk 8, the shape with 2 layers" "$OUTDIR/parity-2-layers-q8_0.json" \
  "$CLI" parity --model "$MODEL2" --steps 32 --kv-type q8_0 --prefill-chunk 8 --json
parity_lines "$OUTDIR/parity-2-layers-q8_0.json"

section "Benchmarks (one run, this machine)"
bench() {  # bench NAME ENV... -- ARGS...
  local name="$1"; shift
  local envs=()
  while [[ "$1" != "--" ]]; do envs+=("$1"); shift; done
  shift
  step "bench $name" "$OUTDIR/bench-$name.json" env "${envs[@]}" "$CLI" bench --model "$MODEL" --json "$@"
}
bench cuda-tg-trace -- --backend cuda -p 0 -n "$TG" --reps "$REPS" --stats 32
# The matvecs and attention as programmatic dependent launches (cuda/ops/pdl.cuh): off by default until this
# shows what it gains; backend-checks.md says whether their logits equal the ordinary launches'.
bench cuda-tg-trace-pdl DLAB_CUDA_PDL=1 -- --backend cuda -p 0 -n "$TG" --reps "$REPS" --stats 32
# Decode with the KV store a kernel of its own (DLAB_CUDA_FOLD_STORE=0), as before it was folded into
# attention (cuda/ops/attention.h): one kernel more per layer, the same logits bit for bit.
bench cuda-tg-trace-store-kernel DLAB_CUDA_FOLD_STORE=0 -- --backend cuda -p 0 -n "$TG" --reps "$REPS" --stats 32
bench cuda-tg-stats-only -- --backend cuda -p 0 -n "$TG" --reps "$REPS" --stats 32 --no-host-logits
bench cuda-tg-no-graphs DLAB_CUDA_GRAPHS=0 -- --backend cuda -p 0 -n "$TG" --reps "$REPS" --stats 32
bench cuda-tg-plain -- --backend cuda -p 0 -n "$TG" --reps "$REPS"   # no statistics: beside the CPU's decode
bench cuda-pp -- --backend cuda -p "$PP" -n 0 --reps "$REPS"
bench cuda-batch -- --backend cuda --batch "$BATCHES" -p "$BATCH_P" -n "$BATCH_N" --reps "$REPS"
bench cuda-batch-no-graphs DLAB_CUDA_GRAPHS=0 -- --backend cuda --batch "$BATCHES" -p "$BATCH_P" -n "$BATCH_N" --reps 1   # a comparison: one rep
# Which projection path measures faster (the default: the matvec up to 8 tokens, cuBLAS on half
# copies from 9): every pass through cuBLAS, and every pass through the matvec, 8 tokens a launch.
# (A dry run takes one batch size: the emulator needs minutes for each.)
bench cuda-batch-gemm DLAB_CUDA_GEMM_FROM=1 -- --backend cuda --batch "$PATH_BATCHES" -p "$BATCH_P" -n "$BATCH_N" --reps 1
bench cuda-batch-matvec DLAB_CUDA_GEMM_FROM=1000000 -- --backend cuda --batch "$PATH_BATCHES" -p "$BATCH_P" -n "$BATCH_N" --reps 1
bench cuda-pp-matvec DLAB_CUDA_GEMM_FROM=1000000 -- --backend cuda -p "$PP" -n 0 --reps 1
# Decode after DEPTH cached tokens, attention's context split into ranges (flash-decoding) and whole.
bench cuda-tg-depth DLAB_CUDA_ATTENTION_SPLIT_FROM="$SPLIT_FROM" -- --backend cuda -d "$DEPTH" -p 0 -n "$TG" --reps "$REPS" --stats 32
bench cuda-tg-depth-whole DLAB_CUDA_ATTENTION_SPLIT_FROM=0 -- --backend cuda -d "$DEPTH" -p 0 -n "$TG" --reps "$REPS" --stats 32
bench cpu-tg-pp -- --backend cpu -p "$PP" -n "$((TG / 2))" --reps 1 --threads "$(nproc)"
bench cpu-batch -- --backend cpu --batch "$BATCHES" -p 32 -n 16 --reps 1 --threads "$(nproc)"

section "compute-sanitizer on the q8_0 KV path (an error it reports is a failed step)"
# Before the PyTorch baseline: the q8_0 defect's diagnosis must not be the step the time budget drops.
# memcheck (out-of-bounds and misaligned accesses), initcheck (reads of device memory never written:
# the emulator fills fresh allocations with 0xff, a GPU does not) and racecheck (shared-memory
# hazards between a block's threads, which the emulator's fibers order one way) on the default
# model's shape (2 layers: instrumented kernels run slowly) with a q8_0 cache: a 2-token prompt, the
# matvec path and its graphs, 2 steps.
SAN=""
if ((!EMULATED)); then
  SAN="$(command -v compute-sanitizer || true)"
  [[ -z "$SAN" && -x /usr/local/cuda/bin/compute-sanitizer ]] && SAN=/usr/local/cuda/bin/compute-sanitizer
  wheel="$(ls "$BUILD"/tools/nvidia_cuda_sanitizer_api-*.whl 2>/dev/null | head -n 1)"
  if [[ -z "$SAN" && -n "$wheel" ]] && python3 -m zipfile -e "$wheel" "$WORK/sanitizer"; then
    SAN="$WORK/sanitizer/nvidia/cu13/bin/compute-sanitizer"
    chmod +x "$SAN"
  fi
fi
# sanitize TOOL LABEL ARGS...: the CLI with ARGS under the tool; its error summary (and the first
# errors) into the report, an error counted as a failed step.
sanitize() {
  local tool="$1" label="$2"; shift 2
  local log="$OUTDIR/sanitizer-$tool-$label.log"
  inform "compute-sanitizer --tool $tool: $*" "$OUTDIR/sanitizer-$tool-$label.out" \
    "$SAN" --tool "$tool" --print-limit 20 --log-file "$log" "$CLI" "$@"
  local summary
  summary="$(grep -h "ERROR SUMMARY" "$log" 2>/dev/null | tail -n 1)"
  echo "    $tool: ${summary:-no summary in its log}" >>"$REPORT"
  if [[ "$summary" =~ SUMMARY:\ ([0-9]+) ]] && ((BASH_REMATCH[1] > 0)); then
    failures=$((failures + 1))
    grep -h "^=========" "$log" | grep -v "ERROR SUMMARY\|COMPUTE-SANITIZER" | head -n 12 | sed 's/^/    /' >>"$REPORT"
  fi
}
if [[ -n "$SAN" ]]; then
  echo "- $("$SAN" --version 2>&1 | grep -m1 Version)" >>"$REPORT"
  for tool in memcheck initcheck racecheck; do
    sanitize "$tool" parity-q8_0 parity --model "$MODEL2" --steps 2 --kv-type q8_0 --prompt Hi --json
  done
else
  echo "- compute-sanitizer is not here (nor its wheel in ${BUILD#$ROOT/}/tools), or this is the emulator" >>"$REPORT"
fi

section "PyTorch + transformers, same GPU and model shape"
if python3 -c "import torch, transformers" 2>/dev/null; then
  # --out: the file holds every measurement taken so far, also when the time budget stops the step.
  step "torch_baseline.py" "$OUTDIR/torch.out" python3 "$ROOT/scripts/torch_baseline.py" --tokens "$TG" --prefill "$PP" \
    --batches "$BATCHES" --out "$OUTDIR/torch.json" $( ((DRY)) && echo --no-compile)
else
  echo "- torch or transformers is not installed here: no baseline" >>"$REPORT"
fi

section "GPUs older than 9.0: the build's compute_75 PTX, compiled by the driver"
# Turing, Ampere and Ada GPUs (a T4, an RTX 3060 or 4090) find no SASS in the build and run its
# compute_75 PTX, which the driver compiles on first use and caches. decoding-lab-cli-ptx75 carries
# only that PTX, so this GPU runs the same code they do: the op and backend checks and a parity run
# on it, the first start's compile time (a fresh cache) against a start from the cache, and its
# decode speed. Dependent launches are asked for and must stay off (that code has no wait in it).
CLI75="$BUILD/tools/decoding-lab-cli-ptx75"
PTX75_ENV=(CUDA_CACHE_PATH="$WORK/nvcache")
if ((EMULATED)); then CLI75="$CLI"; PTX75_ENV+=(DLAB_CUDA_EMU_IMAGES=75-virtual); fi
# "${TIMED[@]}" CMD...: CMD, then its wall time in seconds to stderr, two decimals (a command, not a
# function, so that step's timeout can run it).
TIMED=(bash -c 't0=$(date +%s.%N); "$@"; rc=$?; awk -v a="$t0" -v b="$(date +%s.%N)" '"'"'BEGIN { printf "wall %.2f s\n", b - a }'"'"' >&2; exit $rc' timed)
if [[ -x "$CLI75" ]]; then
  for start in first cached; do
    inform "generate 1 token, compute_75 PTX, $start start" "$OUTDIR/ptx75-$start.txt" \
      "${TIMED[@]}" env "${PTX75_ENV[@]}" "$CLI75" generate --model "$MODEL" --backend cuda --prompt Hi --max-tokens 1 --quiet
    echo "    $(grep -h '^wall' "$OUTDIR/ptx75-$start.txt.err")" >>"$REPORT"
  done
  step "cuda-check --only ops, compute_75 PTX" "$OUTDIR/ptx75-ops.md" env "${PTX75_ENV[@]}" "$CLI75" cuda-check --only ops && true
  tail -n 1 "$OUTDIR/ptx75-ops.md" | sed 's/^/    /' >>"$REPORT"
  step "cuda-check --only backend, compute_75 PTX, DLAB_CUDA_PDL=1" "$OUTDIR/ptx75-backend.md" \
    env "${PTX75_ENV[@]}" DLAB_CUDA_PDL=1 "$CLI75" cuda-check --only backend && true
  tail -n 1 "$OUTDIR/ptx75-backend.md" | sed 's/^/    /' >>"$REPORT"
  n=$( ((DRY)) && echo "$STEPS" || echo 32)
  step "parity --steps $n --kv-type f16 --prefill-chunk 8, compute_75 PTX" "$OUTDIR/parity-ptx75.json" \
    env "${PTX75_ENV[@]}" "$CLI75" parity --model "$MODEL" --steps "$n" --kv-type f16 --prefill-chunk 8 --json
  parity_lines "$OUTDIR/parity-ptx75.json"
  step "bench cuda-tg-trace-ptx75" "$OUTDIR/bench-cuda-tg-trace-ptx75.json" \
    env "${PTX75_ENV[@]}" DLAB_CUDA_PDL=1 "$CLI75" bench --model "$MODEL" --json --backend cuda -p 0 -n "$TG" --reps "$REPS" --stats 32
else
  echo "- ${CLI75#$ROOT/} is missing (scripts/gpu_check.sh build makes it)" >>"$REPORT"
fi

section "Where a decode step's time goes (nsys, information)"
if command -v nsys >/dev/null 2>&1 && ((!EMULATED)); then
  inform "nsys profile of bench -n 64 --stats 32" "$OUTDIR/nsys.txt" \
    nsys profile -o "$WORK/prof" --force-overwrite true "$CLI" bench --model "$MODEL" --backend cuda -p 0 -n 64 --reps 1 --stats 32
  nsys stats -r cuda_gpu_kern_sum -f csv "$WORK/prof.nsys-rep" 2>/dev/null | head -25 >"$OUTDIR/nsys-kernels.csv"
  sed 's/^/    /' "$OUTDIR/nsys-kernels.csv" >>"$REPORT"
else
  echo "- nsys is not here (or this is the emulator): no profile" >>"$REPORT"
fi

if [[ -n "$SAN" ]]; then
  section "compute-sanitizer on the op checks (last: the slowest, stopped by the time budget if need be)"
  # Every kernel at every shape the op checks launch (attention up to 4,200 slots, split and not).
  sanitize memcheck ops cuda-check --only ops
  sanitize racecheck ops cuda-check --only ops
fi

section "Summary"
python3 "$ROOT/scripts/gpu_report.py" "$OUTDIR" "$MODEL" $( ((EMULATED)) && echo --emulated) >>"$REPORT" 2>>"$OUTDIR/summary.err" || echo "- summary failed: $(tail -n 2 "$OUTDIR/summary.err")" >>"$REPORT"
echo "- steps that failed: $failures" >>"$REPORT"
((skipped > 0)) && echo "- steps not run, the time budget ($BUDGET_S s) spent: $skipped" >>"$REPORT"
# Every raw file in one archive beside the report: the device tool brings back only a few files.
tar czf "$WORK/raw.tgz" -C "$OUTDIR" --exclude report.md --exclude raw.tgz . && mv "$WORK/raw.tgz" "$OUTDIR/raw.tgz"
if ((!DRY)); then
  find "$OUTDIR" -maxdepth 1 -type f \( -name '*.json' -o -name '*.err' -o -name 'ops.md' -o -name '*.txt' -o -name '*.csv' -o -name '*.log' -o -name '*.out' -o -name '*.md' ! -name report.md \) -delete
fi
echo "gpu_check: report in $REPORT ($failures failed steps), raw files in $OUTDIR/raw.tgz"
exit 0
