#!/usr/bin/env python3
"""llama.cpp's batched decoding speed, measured the way `decoding-lab-cli bench --batch` measures ours.

  bench_llamacpp_batched.py [--model M.gguf] [--batch 1,2,4,8,16,32] [--threads 2] [--reps 2]
                            [-p 32] [-n 32] [--ctx N] [--flash-attn auto] [--detail]

Uses llama.cpp through llama-cpp-python's low-level ctypes API (llama_batch_init, llama_decode),
the way llama.cpp's own llama-batched-bench does ("prompt not shared"):
  * one context with n_seq_max = the largest batch size and n_ctx = B_max * (P + N) rounded up
    to a multiple of 256 (what llama-batched-bench needs as -c); every other context setting
    (flash attention auto, f16 K/V, n_batch 2048, n_ubatch 512, non-unified KV) is llama.cpp's
    default; n_threads = n_threads_batch = --threads;
  * per batch size B and repetition: clear the memory, give each of B sequences (ids 0..B-1) its
    own P-token prompt, all in llama_decode calls of n_batch tokens (logits for each sequence's
    last token only; not timed),
    then time N decode steps, each ONE llama_decode of B tokens, one per sequence, all with
    logits;
  * one untimed warm-up repetition per batch size, then --reps timed ones.
Tokens are fixed pseudo-random ids (llama-batched-bench uses random ones too; the amount of work
does not depend on them). Decoding Lab's bench feeds back each sequence's argmax instead; that
argmax (B x 49,152 floats per step) is part of its timing and is well under 1% of a step.

Prints one JSON object {batch size: aggregate decode tokens/s (B * N / seconds, mean over
reps)}; with --detail, one object with the settings, every repetition, the standard deviation
and the Python overhead outside llama_decode.

Needs llama-cpp-python==0.3.36 (see tests/golden/README.md); e.g. PYTHON=/tmp/refvenv/bin/python.
"""

import argparse
import ctypes
import json
import os
import statistics
import subprocess
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


def default_model():
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "decoding-lab", "models", "SmolLM2-135M-Instruct.Q4_1.gguf")


def int_list(text):
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of integers: {text!r}")
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"batch sizes must be positive integers, got {text!r}")
    return values


def lcg_tokens(n, n_vocab, seed):
    out, x = [], seed & 0xFFFFFFFF
    for _ in range(n):
        x = (1103515245 * x + 12345) & 0x7FFFFFFF
        out.append(x % n_vocab)
    return out


def probe(model_path):
    """Exit 0 if llama.cpp's default weight placement survives a 2-sequence batch (run as a child)."""
    L.llama_backend_init()
    mp = L.llama_model_default_params()
    mp.n_gpu_layers = 0
    model = L.llama_model_load_from_file(model_path.encode(), mp)
    if not model:
        sys.exit(2)
    cp = L.llama_context_default_params()
    cp.n_ctx, cp.n_seq_max, cp.n_threads, cp.n_threads_batch = 256, 2, 1, 1
    ctx = L.llama_init_from_model(model, cp)
    batch = L.llama_batch_init(8, 0, 1)
    for i in range(8):
        batch.token[i], batch.pos[i], batch.n_seq_id[i], batch.logits[i] = 100 + i, i // 2, 1, 1
        batch.seq_id[i][0] = i % 2
    batch.n_tokens = 8
    ok = L.llama_decode(ctx, batch) == 0
    batch.n_tokens = 2
    for i in range(2):
        batch.pos[i] = 4
    ok = ok and L.llama_decode(ctx, batch) == 0
    sys.exit(0 if ok else 3)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=default_model())
    ap.add_argument("--batch", type=int_list, default=[1, 2, 4, 8, 16, 32], help="batch sizes, e.g. 1,2,4")
    ap.add_argument("--threads", "-t", type=int, default=2)
    ap.add_argument("--reps", "-r", type=int, default=2)
    ap.add_argument("-p", "--n-prompt", type=int, default=32, help="prompt tokens per sequence")
    ap.add_argument("-n", "--n-gen", type=int, default=32, help="timed decode steps")
    ap.add_argument("--ctx", type=int, default=0, help="n_ctx (default: B_max * (P + N), rounded up to 256)")
    ap.add_argument("--flash-attn", choices=FA, default="auto", help="llama.cpp default: auto")
    ap.add_argument("--extra-bufts", choices=["auto", "on", "off"], default="auto",
                    help="llama.cpp's extra weight buffer types (AMX, repacked weights; on is llama.cpp's "
                         "default, off is its --no-repack); auto: on unless a probe decode crashes")
    ap.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--detail", action="store_true", help="print settings and every repetition too")
    ap.add_argument("--verbose", action="store_true", help="let llama.cpp log to stderr")
    args = ap.parse_args()
    if args.n_prompt < 1 or args.n_gen < 1 or args.reps < 1 or args.threads < 1:
        sys.exit("-p, -n, --reps and --threads must be positive")

    if not args.verbose:
        L.llama_log_set(_log_cb, ctypes.c_void_p(0))
    if args.probe:
        return probe(args.model)
    extra_note = None
    if args.extra_bufts == "auto":
        rc = subprocess.run([sys.executable, os.path.abspath(__file__), "--probe", "--model", args.model],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        args.extra_bufts = "on" if rc == 0 else "off"
        if rc != 0:
            extra_note = (f"a decode with llama.cpp's default extra buffer types died (exit {rc}; on a CPU with AMX "
                          "this is ggml's AMX matmul, llama.cpp issue 20824): measured with them off (--no-repack)")
            print("bench_llamacpp_batched: " + extra_note, file=sys.stderr)
    L.llama_backend_init()

    mp = L.llama_model_default_params()
    mp.n_gpu_layers = 0
    mp.use_extra_bufts = args.extra_bufts == "on"
    model = L.llama_model_load_from_file(args.model.encode(), mp)
    if not model:
        sys.exit(f"llama.cpp failed to load {args.model}:\n" + "".join(_LOG[-20:]))
    vocab = L.llama_model_get_vocab(model)
    n_vocab = L.llama_vocab_n_tokens(vocab)

    b_max = max(args.batch)
    if b_max > L.llama_max_parallel_sequences():
        sys.exit(f"llama.cpp runs at most {L.llama_max_parallel_sequences()} sequences in one context")
    per_seq = args.n_prompt + args.n_gen
    n_ctx = args.ctx or (b_max * per_seq + 255) // 256 * 256
    cp = L.llama_context_default_params()
    cp.n_ctx = n_ctx
    cp.n_seq_max = b_max
    cp.n_threads = args.threads
    cp.n_threads_batch = args.threads
    cp.flash_attn_type = FA[args.flash_attn]
    cp.no_perf = True
    log_start = len(_LOG)
    ctx = L.llama_init_from_model(model, cp)
    if not ctx:
        sys.exit("llama_init_from_model failed:\n" + "".join(_LOG[log_start:]))
    ctx_log = "".join(_LOG[log_start:])
    fa_resolved = args.flash_attn
    if args.flash_attn == "auto":
        fa_resolved = "on" if "Flash Attention enabled" in ctx_log else "off" if "not supported" in ctx_log else "unknown"
    if L.llama_n_ctx(ctx) < b_max * per_seq:
        sys.exit(f"n_ctx {L.llama_n_ctx(ctx)} is too small for {b_max} x {per_seq} tokens")

    mem = L.llama_get_memory(ctx)
    n_batch = cp.n_batch
    batch = L.llama_batch_init(max(n_batch, b_max), 0, 1)
    tok, pos, nseq, seqid, logit = batch.token, batch.pos, batch.n_seq_id, batch.seq_id, batch.logits
    decode, sync, pc = L.llama_decode, L.llama_synchronize, time.perf_counter

    def decode_all(items):  # (token, pos, seq, wants logits), n_batch tokens per llama_decode
        for i in range(0, len(items), n_batch):
            chunk = items[i:i + n_batch]
            for k, (t, p, sq, lg) in enumerate(chunk):
                tok[k], pos[k], nseq[k], logit[k] = t, p, 1, lg
                seqid[k][0] = sq
            batch.n_tokens = len(chunk)
            if decode(ctx, batch) != 0:
                raise RuntimeError("llama_decode failed (prompt)")
        sync(ctx)

    prompts = [lcg_tokens(args.n_prompt, n_vocab, 1000 + b) for b in range(b_max)]
    gen = [lcg_tokens(args.n_gen, n_vocab, 5000 + b) for b in range(b_max)]

    def run(B):
        L.llama_memory_clear(mem, True)
        decode_all([(t, i, b, int(i == args.n_prompt - 1))  # each sequence its own prompt
                    for b in range(B) for i, t in enumerate(prompts[b])])
        for b in range(B):  # decode steps: token b is sequence b's, slots keep n_seq_id and seq_id
            seqid[b][0] = b
            nseq[b] = 1
            logit[b] = 1
        batch.n_tokens = B
        in_decode = 0.0
        t0 = pc()
        for step in range(args.n_gen):
            p = args.n_prompt + step
            for b in range(B):
                tok[b] = gen[b][step]
                pos[b] = p
            a = pc()
            if decode(ctx, batch) != 0:
                raise RuntimeError("llama_decode failed (decode step)")
            sync(ctx)
            in_decode += pc() - a
        total = pc() - t0
        return total, total - in_decode

    results, detail = {}, []
    for B in args.batch:
        runs, overhead = [], []
        for r in range(args.reps + 1):  # r == 0: warm-up
            total, outside = run(B)
            if r > 0:
                runs.append(B * args.n_gen / total)
                overhead.append(outside / total)
        mean = statistics.mean(runs)
        results[str(B)] = round(mean, 2)
        detail.append({"batch": B, "tokens_per_s": round(mean, 2),
                       "sd": round(statistics.stdev(runs), 2) if len(runs) > 1 else 0.0,
                       "all_tokens_per_s": [round(x, 2) for x in runs],
                       "python_outside_decode_pct": round(100 * statistics.mean(overhead), 3)})

    n_ctx_real = L.llama_n_ctx(ctx)
    L.llama_batch_free(batch)
    L.llama_free(ctx)
    L.llama_model_free(model)

    if not args.detail:
        print(json.dumps(results))
        return
    print(json.dumps({
        "engine": "llama.cpp via llama-cpp-python " + L.__version__,
        "model": os.path.basename(args.model), "threads": args.threads, "n_prompt": args.n_prompt,
        "n_gen": args.n_gen, "reps": args.reps, "n_ctx": n_ctx_real,
        "n_seq_max": b_max, "n_batch": cp.n_batch, "n_ubatch": cp.n_ubatch, "flash_attn": args.flash_attn,
        "flash_attn_resolved": fa_resolved, "kv_unified": bool(cp.kv_unified), "extra_bufts": args.extra_bufts,
        "extra_bufts_note": extra_note,
        "ggml_system_info": L.llama_print_system_info().decode().strip(),
        "batches": detail}))


if __name__ == "__main__":
    main()
