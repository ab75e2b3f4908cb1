#!/usr/bin/env python3
"""llama.cpp reference speed (llama-bench style pp/tg) via llama-cpp-python's low-level API.

  bench_reference.py --model M.gguf --threads 2 -p 512 -n 128 [--reps 3] [--json]

pp<P>: P prompt tokens evaluated in ONE llama_decode call (n_batch = n_ubatch = P),
       fresh (cleared) KV cache every rep, logits for the last token only
       (what llama-bench does).
tg<N>: after a short prompt (--tg-prompt tokens, not timed), N single-token
       llama_decode calls, each producing logits (what llama-bench does).
Token ids are pseudo-random (fixed seed) like llama-bench's. One untimed warm-up
rep of each test runs first; reported numbers are the median over --reps.

Python overhead is measured and reported: per generated token, the wall time
spent outside llama_decode() (batch filling, loop, timer calls), and the cost of
a bare ctypes call into libllama. Peak RSS is ru_maxrss of this process (includes
the mmap'd model pages that were touched).

Needs: pip install llama-cpp-python==0.3.36 numpy   (ideally built from the sdist
with CMAKE_ARGS="-DGGML_NATIVE=ON" so ggml is compiled for this CPU).
"""

import argparse
import ctypes
import json
import os
import platform
import resource
import statistics
import sys
import time

try:
    import llama_cpp as L
except ImportError:  # pragma: no cover
    sys.exit("llama-cpp-python is required: pip install llama-cpp-python==0.3.36")

_LOG = []


@L.llama_log_callback
def _log_cb(level, text, user_data):
    _LOG.append(text.decode("utf-8", "replace"))


FA = {"auto": L.LLAMA_FLASH_ATTN_TYPE_AUTO, "on": L.LLAMA_FLASH_ATTN_TYPE_ENABLED,
      "off": L.LLAMA_FLASH_ATTN_TYPE_DISABLED}


def lcg_tokens(n, n_vocab, seed):
    """Deterministic pseudo-random token ids (no numpy needed)."""
    out, x = [], seed & 0xFFFFFFFF
    for _ in range(n):
        x = (1103515245 * x + 12345) & 0x7FFFFFFF
        out.append(x % n_vocab)
    return out


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def loadavg():
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--threads", "-t", type=int, default=2)
    ap.add_argument("-p", "--n-prompt", type=int, default=512)
    ap.add_argument("-n", "--n-gen", type=int, default=128)
    ap.add_argument("--reps", "-r", type=int, default=3)
    ap.add_argument("--tg-prompt", type=int, default=16, help="untimed prompt length before the tg test")
    ap.add_argument("--flash-attn", choices=FA, default="auto", help="llama.cpp default: auto (on for CPU)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    if not args.verbose:
        L.llama_log_set(_log_cb, ctypes.c_void_p(0))
    L.llama_backend_init()

    load_before = loadavg()
    t0 = time.perf_counter()
    mp = L.llama_model_default_params()
    mp.n_gpu_layers = 0
    model = L.llama_model_load_from_file(args.model.encode(), mp)
    if not model:
        sys.exit("failed to load model:\n" + "".join(_LOG[-20:]))
    load_s = time.perf_counter() - t0
    vocab = L.llama_model_get_vocab(model)
    n_vocab = L.llama_vocab_n_tokens(vocab)
    desc = ctypes.create_string_buffer(256)
    L.llama_model_desc(model, desc, len(desc))

    n_ctx = max(args.n_prompt, args.tg_prompt + args.n_gen)
    cp = L.llama_context_default_params()
    cp.n_ctx = n_ctx
    cp.n_batch = max(args.n_prompt, args.tg_prompt)
    cp.n_ubatch = cp.n_batch
    cp.n_seq_max = 1
    cp.n_threads = args.threads
    cp.n_threads_batch = args.threads
    cp.flash_attn_type = FA[args.flash_attn]
    cp.no_perf = True
    ctx = L.llama_init_from_model(model, cp)
    if not ctx:
        sys.exit("failed to create context:\n" + "".join(_LOG[-20:]))
    mem = L.llama_get_memory(ctx)
    batch = L.llama_batch_init(cp.n_batch, 0, 1)
    tok, pos, nseq, seqid, logit = batch.token, batch.pos, batch.n_seq_id, batch.seq_id, batch.logits

    def fill(tokens, start_pos, last_only):
        n = len(tokens)
        for i, t in enumerate(tokens):
            tok[i] = t
            pos[i] = start_pos + i
            nseq[i] = 1
            seqid[i][0] = 0
            logit[i] = 0 if last_only else 1
        logit[n - 1] = 1
        batch.n_tokens = n

    decode, sync, clear = L.llama_decode, L.llama_synchronize, L.llama_memory_clear
    pc = time.perf_counter

    def run_pp(tokens):
        clear(mem, True)
        fill(tokens, 0, True)
        t = pc()
        if decode(ctx, batch) != 0:
            raise RuntimeError("llama_decode failed (pp)")
        sync(ctx)
        return pc() - t

    def run_tg(prompt, gen):
        clear(mem, True)
        fill(prompt, 0, True)
        if decode(ctx, batch) != 0:
            raise RuntimeError("llama_decode failed (tg prompt)")
        sync(ctx)
        p = len(prompt)
        in_decode = 0.0
        t = pc()
        for i, g in enumerate(gen):
            tok[0] = g            # batch of one token; n_seq_id/seq_id already set by fill()
            pos[0] = p + i
            logit[0] = 1
            batch.n_tokens = 1
            a = pc()
            if decode(ctx, batch) != 0:
                raise RuntimeError("llama_decode failed (tg)")
            sync(ctx)
            in_decode += pc() - a
        total = pc() - t
        return total, in_decode

    pp_tokens = lcg_tokens(args.n_prompt, n_vocab, 1)
    tg_prompt = lcg_tokens(args.tg_prompt, n_vocab, 2)
    tg_tokens = lcg_tokens(args.n_gen, n_vocab, 3)

    pp_times, tg_times, tg_overheads = [], [], []
    if args.n_prompt > 0:
        run_pp(pp_tokens)  # warm-up
        for _ in range(args.reps):
            pp_times.append(run_pp(pp_tokens))
    if args.n_gen > 0:
        run_tg(tg_prompt, tg_tokens[:min(8, args.n_gen)])  # warm-up
        for _ in range(args.reps):
            total, in_dec = run_tg(tg_prompt, tg_tokens)
            tg_times.append(total)
            tg_overheads.append((total - in_dec) / args.n_gen)

    # cost of one bare ctypes call into libllama (argument marshalling + call)
    k = 20000
    t = pc()
    for _ in range(k):
        L.llama_n_ctx(ctx)
    ctypes_call_us = (pc() - t) / k * 1e6

    peak_rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux

    res = {
        "engine": "llama.cpp via llama-cpp-python",
        "llama_cpp_python_version": L.__version__,
        "model": os.path.basename(args.model),
        "model_desc": desc.value.decode(),
        "model_size_mib": round(os.path.getsize(args.model) / 2**20, 1),
        "threads": args.threads,
        "flash_attn": args.flash_attn,
        "n_ctx": n_ctx,
        "n_batch": cp.n_batch,
        "reps": args.reps,
        "cpu": cpu_name(),
        "logical_cpus": os.cpu_count(),
        "loadavg_1m_before": load_before,
        "loadavg_1m_after": loadavg(),
        "ggml_system_info": L.llama_print_system_info().decode().strip(),
        "load_s": round(load_s, 3),
        "peak_rss_mib": round(peak_rss_kib / 1024, 1),
        "ctypes_call_us": round(ctypes_call_us, 3),
    }
    if pp_times:
        med = statistics.median(pp_times)
        res[f"pp{args.n_prompt}"] = {
            "tokens_per_s": round(args.n_prompt / med, 2),
            "best_tokens_per_s": round(args.n_prompt / min(pp_times), 2),
            "median_s": round(med, 5),
            "all_tokens_per_s": [round(args.n_prompt / x, 2) for x in pp_times],
        }
    if tg_times:
        med = statistics.median(tg_times)
        ovh = statistics.median(tg_overheads)
        res[f"tg{args.n_gen}"] = {
            "tokens_per_s": round(args.n_gen / med, 2),
            "best_tokens_per_s": round(args.n_gen / min(tg_times), 2),
            "median_s": round(med, 5),
            "ms_per_token": round(med / args.n_gen * 1e3, 3),
            "all_tokens_per_s": [round(args.n_gen / x, 2) for x in tg_times],
            "python_overhead_us_per_token": round(ovh * 1e6, 2),
            "python_overhead_pct": round(100 * ovh / (med / args.n_gen), 3),
            "tg_prompt_tokens": args.tg_prompt,
        }

    L.llama_batch_free(batch)
    L.llama_free(ctx)
    L.llama_model_free(model)

    if args.json:
        print(json.dumps(res))
        return
    print(f"llama.cpp (llama-cpp-python {res['llama_cpp_python_version']}), model {res['model']} "
          f"({res['model_desc']}, {res['model_size_mib']} MiB), threads {args.threads}, "
          f"flash_attn {args.flash_attn}, median of {args.reps}")
    print(f"| {'test':>6} | {'t/s (median)':>12} | {'t/s (best)':>10} | {'median s':>9} | {'runs t/s':<34} |")
    print(f"| {'-' * 6} | {'-' * 12} | {'-' * 10} | {'-' * 9} | {'-' * 34} |")
    for key in (f"pp{args.n_prompt}", f"tg{args.n_gen}"):
        if key in res:
            r = res[key]
            runs = ", ".join(f"{x:.1f}" for x in r["all_tokens_per_s"])
            print(f"| {key:>6} | {r['tokens_per_s']:12.2f} | {r['best_tokens_per_s']:10.2f} | "
                  f"{r['median_s']:9.4f} | {runs:<34} |")
    if tg_times:
        r = res[f"tg{args.n_gen}"]
        print(f"tg: {r['ms_per_token']:.3f} ms/token; Python overhead outside llama_decode "
              f"{r['python_overhead_us_per_token']:.1f} us/token ({r['python_overhead_pct']:.2f}%); "
              f"bare ctypes call {res['ctypes_call_us']:.2f} us")
    print(f"peak RSS {res['peak_rss_mib']} MiB; model load {res['load_s']} s; CPU {res['cpu']} "
          f"({res['logical_cpus']} logical); 1-min loadavg before/after {load_before}/{res['loadavg_1m_after']}")
    if load_before is not None and load_before > 0.5 * (os.cpu_count() or 1):
        print("WARNING: the machine was busy when the benchmark started; numbers are pessimistic",
              file=sys.stderr)


if __name__ == "__main__":
    main()
