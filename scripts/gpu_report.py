#!/usr/bin/env python3
"""The summary table of scripts/gpu_check.sh: our CUDA backend beside the CPU, PyTorch and the
bandwidth ceiling, from the JSON files of one run. Figures are only what the run measured.

  python3 scripts/gpu_report.py OUTDIR MODEL.gguf [--emulated]

--emulated: the CUDA column came from the CUDA emulator on the CPU; it is labelled so.
"""
import json
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def fmt(v):
    return "—" if v is None else f"{v:,.0f}"


def main():
    out, model = sys.argv[1], sys.argv[2]
    emulated = "--emulated" in sys.argv[3:]
    b = {n: load(os.path.join(out, f"bench-{n}.json")) for n in
         ["cuda-tg-trace", "cuda-tg-trace-pdl", "cuda-tg-trace-store-kernel", "cuda-tg-trace-ptx75", "cuda-tg-stats-only", "cuda-tg-no-graphs", "cuda-pp", "cuda-pp-matvec", "cpu-tg-pp", "cuda-tg-depth", "cuda-tg-depth-whole"]}
    torch = load(os.path.join(out, "torch.json")) or {}
    weights = os.path.getsize(model) if os.path.exists(model) else None
    bw = torch.get("copy_bandwidth_GBps")
    # Bytes a decode step reads: every weight once (the tied embedding as the output matrix; the
    # embedding lookup reads one row), plus the KV cache, small at these lengths.
    ceiling = bw * 1e9 / weights if bw and weights else None

    def tg(name):
        return (b.get(name) or {}).get("tg_tokens_per_s")

    def pp(name):
        return (b.get(name) or {}).get("pp_tokens_per_s")

    ours = "ours (CUDA emulator on the CPU, not a GPU figure)" if emulated else "ours (CUDA)"
    print(f"| measure | {ours} | ours (CPU) | PyTorch eager | PyTorch static + compile | ceiling |")
    print("|---|---|---|---|---|---|")
    print(f"| decode tokens/s, trace stats + full logits to host | {fmt(tg('cuda-tg-trace'))} | {fmt(tg('cpu-tg-pp'))} | "
          f"{fmt(torch.get('decode_eager_tokens_per_s'))} | {fmt(torch.get('decode_static_compiled_tokens_per_s'))} | {fmt(ceiling)} |")
    print(f"| decode tokens/s, trace stats only (logits stay on the GPU) | {fmt(tg('cuda-tg-stats-only'))} | | | | |")
    print(f"| decode tokens/s, trace as above, matvecs and attention as dependent launches (DLAB_CUDA_PDL=1) | {fmt(tg('cuda-tg-trace-pdl'))} | | | | |")
    print(f"| decode tokens/s, trace as above, the KV store a kernel of its own (DLAB_CUDA_FOLD_STORE=0) | {fmt(tg('cuda-tg-trace-store-kernel'))} | | | | |")
    print(f"| decode tokens/s, no CUDA graphs | {fmt(tg('cuda-tg-no-graphs'))} | | | | |")
    print(f"| decode tokens/s, trace as above, the compute_75 PTX that GPUs before 9.0 run | {fmt(tg('cuda-tg-trace-ptx75'))} | | | | |")
    print(f"| prefill tokens/s | {fmt(pp('cuda-pp'))} | {fmt(pp('cpu-tg-pp'))} | {fmt(torch.get('prefill_tokens_per_s'))} | | |")
    print(f"| prefill tokens/s, through the matvec (8 tokens a launch; DLAB_CUDA_GEMM_FROM=1000000) | {fmt(pp('cuda-pp-matvec'))} | | | | |")
    depth = (b.get("cuda-tg-depth") or {}).get("depth")
    if depth:
        print(f"| decode tokens/s after {depth} cached tokens, attention split into ranges | {fmt(tg('cuda-tg-depth'))} | | | | |")
        print(f"| decode tokens/s after {depth} cached tokens, attention whole | {fmt(tg('cuda-tg-depth-whole'))} | | | | |")
    def per_batch(name):
        rows = load(os.path.join(out, name)) or []
        return {r.get("batch"): r.get("batched_tokens_per_s") for r in rows}

    gpu_b, cpu_b = per_batch("bench-cuda-batch.json"), per_batch("bench-cpu-batch.json")
    gpu_plain = per_batch("bench-cuda-batch-no-graphs.json")
    tb = torch.get("batched_eager_tokens_per_s", {})
    for B in sorted(set(gpu_b) | set(cpu_b) | {int(k) for k in tb}):
        print(f"| batched decode, {B} sequences, tokens/s | {fmt(gpu_b.get(B))} | {fmt(cpu_b.get(B))} | {fmt(tb.get(str(B)))} | | |")
    for B in sorted(gpu_plain):
        print(f"| batched decode, {B} sequences, no CUDA graphs | {fmt(gpu_plain.get(B))} | | | | |")
    for name, label in [("bench-cuda-batch-gemm.json", "every pass through cuBLAS (DLAB_CUDA_GEMM_FROM=1)"),
                        ("bench-cuda-batch-matvec.json", "every pass through the matvec (DLAB_CUDA_GEMM_FROM=1000000)")]:
        rows = per_batch(name)
        for B in sorted(rows):
            print(f"| batched decode, {B} sequences, {label} | {fmt(rows.get(B))} | | | | |")
    print()
    for name in ["ops.md", "backend-checks.md"]:   # their "cuda-check: N checks, M failed" lines
        try:
            with open(os.path.join(out, name)) as f:
                for line in f:
                    if line.startswith("cuda-check:"):
                        print(f"- {line.strip()}")
        except OSError:
            pass
    # How each decode run went, as the backend says it (the code the driver loaded, graphs, whether
    # dependent launches went out; the CPU's kernel path and threads).
    for name in ["cuda-tg-trace", "cuda-tg-trace-pdl", "cuda-tg-trace-store-kernel", "cuda-tg-trace-ptx75", "cuda-tg-no-graphs", "cpu-tg-pp"]:
        settings = (b.get(name) or {}).get("backend_settings")
        if settings:
            print(f"- `bench {name}` ran with: {settings}")
    print(f"- ceiling = copy bandwidth {fmt(bw)} GB/s (measured by torch) / {weights} bytes of weights per token")
    plain = (load(os.path.join(out, "bench-cuda-tg-plain.json")) or {}).get("tg_tokens_per_s")
    if plain:
        print(f"- decode tokens/s without the trace's statistics (as the CPU column): {fmt(plain)}")
    if torch.get("compiled_by"):
        print(f"- PyTorch static + compile: {torch['compiled_by']}, compiled in {fmt(torch.get('compile_s'))} s")
    for name, err in (torch.get("errors") or {}).items():
        print(f"- PyTorch {name} failed: {' '.join(err.split())[:700]}")
    def parity(name, label, extra=lambda p: ""):
        p = load(os.path.join(out, name))
        if p:
            print(f"- parity ({label(p)}): {p['tokens_identical']} of {p['steps_run']} tokens identical, {extra(p)}worst NMSE "
                  f"{p['worst_nmse']:.3g} (bound {p['bound_nmse']:.3g}), {'pass' if p['pass'] else 'FAIL'}")

    for kv in ["f16", "f32", "q8_0"]:
        parity(f"parity-{kv}.json", lambda p, kv=kv: f"{kv} KV" + (f", prompt {p['prefill_chunk']} tokens a pass" if p.get("prefill_chunk") else ""))
    parity("parity-2-layers-q8_0.json", lambda p: "q8_0 KV, the shape with 2 layers")
    parity("parity-f16-split.json", lambda p: f"f16 KV, a {p.get('prompt_tokens', '?')}-token prompt, attention split into ranges from 64 slots")
    parity("parity-f16-gemm.json", lambda p: "f16 KV, prompt in one half-GEMM pass",
           lambda p: f"{p.get('mismatches_at_near_ties', 0)} of the others at near ties, ")
    p = load(os.path.join(out, "parity-q8_0-gemm.json"))
    if p:
        print(f"- information: q8_0 KV with the prompt in one GEMM pass: {p['tokens_identical']} of {p['steps_run']} tokens "
              f"identical, worst NMSE {p['worst_nmse']:.3g} (the half GEMM's rounding, amplified by q8_0's; not a check)")


if __name__ == "__main__":
    main()
