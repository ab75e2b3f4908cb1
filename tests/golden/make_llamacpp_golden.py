#!/usr/bin/env python3
"""Produce llama.cpp reference ("golden") logits for Decoding Lab's engine tests.

Uses llama.cpp through llama-cpp-python's low-level ctypes API
(pip install llama-cpp-python==0.3.36), so every number here comes straight from
llama_decode() / llama_get_logits_ith(); no llama-cpp-python sampler is involved.

For each prompt the script records
  * the prompt token ids (llama.cpp tokenizer, add_bos per model metadata),
  * for EVERY prompt position (whole prompt evaluated as one batch): the top-k
    token ids with their raw logits, the max logit and log-sum-exp over the
    whole vocabulary,
  * a greedy continuation of N tokens (argmax of the logits, computed here with
    numpy; ties -> lowest id; EOS does NOT stop it), generated one token per
    llama_decode() call like llama-cli does, with the same per-step statistics.

Optionally (--noise-report) it also measures how much llama.cpp's own logits move
under changes that should not matter mathematically (batch vs one-token-at-a-time,
1 vs N threads, flash attention on/off, f16 vs f32 KV cache) and stores the
numbers in the file, so a test tolerance can be justified against them.

Examples:
  make_llamacpp_golden.py --model SmolLM2-135M-Instruct.Q4_1.gguf \
      --out tests/data/golden/smollm2-135m-instruct-q4_1.json --noise-report
  make_llamacpp_golden.py --model SmolLM2-135M-Instruct.Q4_1.gguf --dequant-f32 \
      --flash-attn off --kv-type f32 --noise-report \
      --out tests/data/golden/smollm2-135m-instruct-q4_1.dequant-f32.json
  make_llamacpp_golden.py --model tiny-llama.gguf --out tests/data/golden/tiny-llama.json \
      --token-prompts "1 2 3 4;5 6 7"
"""

import argparse
import ctypes
import hashlib
import json
import math
import os
import platform
import shlex
import subprocess
import sys
import tempfile

import numpy as np

try:
    import llama_cpp as L
except ImportError:  # pragma: no cover
    sys.exit("llama-cpp-python is required: pip install llama-cpp-python==0.3.36")

# llama-cpp-python does not expose the llama.cpp build commit at runtime; this is
# the commit of the vendor/llama.cpp submodule shipped in the corresponding sdist.
KNOWN_LLAMA_CPP_COMMITS = {
    "0.3.36": "0c1e57098bba43ac29e6e3b677cdceebdd22334f",
}

SCHEMA_VERSION = 1

# Default prompt set: (name, text, parse_special). Each is 10-40 tokens with the
# SmolLM2 tokenizer (no BOS is added for that model: add_bos_token=false).
DEFAULT_PROMPTS = [
    ("english",
     "The old lighthouse keeper climbed the spiral stairs every evening to light the lamp "
     "before the fishing boats came home.",
     False),
    ("code",
     "def fibonacci(n):\n    if n < 2:\n        return n\n    return",
     False),
    ("chatml",
     "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
     "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n"
     "<|im_start|>assistant\n",
     True),
    ("numbers",
     "Order #4521: 3 \u00d7 $19.99 = $59.97 (tax 8%)!",
     False),
    ("non_english",  # French, Russian, Chinese: multi-byte UTF-8 split across byte-level BPE tokens
     "Le petit chat dort sur le canap\u00e9. \u041a\u043e\u0448\u043a\u0430 \u0441\u043f\u0438\u0442. "
     "\u732b\u5728\u7761\u89c9\u3002",
     False),
]

_LOG_LINES = []


@L.llama_log_callback
def _log_cb(level, text, user_data):  # keep llama.cpp quiet, but remember what it said
    try:
        _LOG_LINES.append(text.decode("utf-8", "replace"))
    except Exception:
        pass


FA_MODES = {"auto": L.LLAMA_FLASH_ATTN_TYPE_AUTO,
            "on": L.LLAMA_FLASH_ATTN_TYPE_ENABLED,
            "off": L.LLAMA_FLASH_ATTN_TYPE_DISABLED}
KV_TYPES = {"f16": L.GGML_TYPE_F16, "f32": L.GGML_TYPE_F32}


# --------------------------------------------------------------------------- model


class Model:
    def __init__(self, path):
        mp = L.llama_model_default_params()
        mp.n_gpu_layers = 0
        self.model = L.llama_model_load_from_file(path.encode(), mp)
        if not self.model:
            raise SystemExit(f"llama.cpp failed to load {path}:\n" + "".join(_LOG_LINES[-20:]))
        self.vocab = L.llama_model_get_vocab(self.model)
        self.n_vocab = L.llama_vocab_n_tokens(self.vocab)
        self.add_bos = bool(L.llama_vocab_get_add_bos(self.vocab))
        self.bos = int(L.llama_vocab_bos(self.vocab))
        self.eos = int(L.llama_vocab_eos(self.vocab))

    def meta(self, key):
        buf = ctypes.create_string_buffer(4096)
        n = L.llama_model_meta_val_str(self.model, key.encode(), buf, len(buf))
        return buf.value.decode("utf-8", "replace") if n >= 0 else None

    def desc(self):
        buf = ctypes.create_string_buffer(256)
        L.llama_model_desc(self.model, buf, len(buf))
        return buf.value.decode("utf-8", "replace")

    def tokenize(self, text, add_special, parse_special):
        data = text.encode("utf-8")
        cap = len(data) + 16
        arr = (L.llama_token * cap)()
        n = L.llama_tokenize(self.vocab, data, len(data), arr, cap, add_special, parse_special)
        if n < 0:
            raise RuntimeError("tokenize failed")
        return [int(arr[i]) for i in range(n)]

    def piece(self, tok):
        buf = ctypes.create_string_buffer(256)
        n = L.llama_token_to_piece(self.vocab, tok, buf, len(buf), 0, True)
        return buf.raw[:max(n, 0)]

    def detokenize(self, toks):
        return b"".join(self.piece(t) for t in toks).decode("utf-8", "replace")


class Context:
    """A llama.cpp context; evaluates token sequences in sequence 0."""

    def __init__(self, model, n_ctx, n_batch, n_threads, flash_attn, kv_type):
        cp = L.llama_context_default_params()
        cp.n_ctx = n_ctx
        cp.n_batch = n_batch
        cp.n_ubatch = n_batch
        cp.n_seq_max = 1
        cp.n_threads = n_threads
        cp.n_threads_batch = n_threads
        cp.flash_attn_type = FA_MODES[flash_attn]
        cp.type_k = KV_TYPES[kv_type]
        cp.type_v = KV_TYPES[kv_type]
        cp.no_perf = True
        start = len(_LOG_LINES)
        self.ctx = L.llama_init_from_model(model.model, cp)
        if not self.ctx:
            raise SystemExit("llama_init_from_model failed:\n" + "".join(_LOG_LINES[start:]))
        log = "".join(_LOG_LINES[start:])
        if flash_attn == "auto":
            if "Flash Attention enabled" in log:
                self.flash_attn_resolved = "on"
            elif "Flash Attention not supported" in log:
                self.flash_attn_resolved = "off"
            else:
                self.flash_attn_resolved = "unknown"
        else:
            self.flash_attn_resolved = flash_attn
        self.model = model
        self.n_vocab = model.n_vocab
        self.n_batch = n_batch
        self.mem = L.llama_get_memory(self.ctx)
        self.batch = L.llama_batch_init(n_batch, 0, 1)
        self.n_past = 0

    def set_threads(self, n):
        L.llama_set_n_threads(self.ctx, n, n)

    def clear(self):
        L.llama_memory_clear(self.mem, True)
        self.n_past = 0

    def eval(self, tokens, all_logits=True):
        """Append tokens (in chunks of n_batch); return logits [len(tokens) or 1, n_vocab]."""
        out = []
        for s in range(0, len(tokens), self.n_batch):
            chunk = tokens[s:s + self.n_batch]
            b = self.batch
            b.n_tokens = len(chunk)
            for i, t in enumerate(chunk):
                b.token[i] = t
                b.pos[i] = self.n_past + i
                b.n_seq_id[i] = 1
                b.seq_id[i][0] = 0
                b.logits[i] = 1 if (all_logits or (s + i == len(tokens) - 1)) else 0
            rc = L.llama_decode(self.ctx, b)
            if rc != 0:
                raise RuntimeError(f"llama_decode returned {rc}")
            self.n_past += len(chunk)
            rows = range(len(chunk)) if all_logits else ([len(chunk) - 1] if s + len(chunk) == len(tokens) else [])
            for i in rows:
                p = L.llama_get_logits_ith(self.ctx, i)
                out.append(np.ctypeslib.as_array(p, shape=(self.n_vocab,)).copy())
        return np.stack(out)

    def eval_one_by_one(self, tokens):
        return np.concatenate([self.eval([t]) for t in tokens])

    def free(self):
        L.llama_batch_free(self.batch)
        L.llama_free(self.ctx)


# --------------------------------------------------------------------------- stats


def f32(x):
    """Shortest decimal that round-trips to the same float32 (exact, compact)."""
    return float(str(np.float32(x)))


def f64_9(x):
    return float("%.9g" % x)


def row_stats(logits, top_k):
    """logits: [n, V] float32 -> columnar dict of per-position statistics."""
    k = min(top_k, logits.shape[1])
    ids, vals, mx, lse = [], [], [], []
    for row in logits:
        # stable order: by logit descending, ties by lower id
        order = np.lexsort((np.arange(row.size), -row.astype(np.float64)))[:k]
        ids.append([int(i) for i in order])
        vals.append([f32(row[i]) for i in order])
        r64 = row.astype(np.float64)
        m = float(r64.max())
        mx.append(f32(m))
        lse.append(f64_9(m + math.log(np.exp(r64 - m).sum())))
    return {"top_ids": ids, "top_logits": vals, "max_logit": mx, "logsumexp": lse}


def argmax(row):
    return int(np.argmax(row))  # numpy: first (lowest id) maximum


def log_softmax(x):
    x = x.astype(np.float64)
    m = x.max(axis=-1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=-1, keepdims=True))


def compare(a, b):
    """Difference metrics between two logit matrices [n, V]."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    d = np.abs(a64 - b64)
    dl = np.abs(log_softmax(a) - log_softmax(b))
    pa, pb = np.exp(log_softmax(a)), np.exp(log_softmax(b))
    return {
        "max_abs_logit": float(d.max()),
        "mean_abs_logit": float(d.mean()),
        "max_abs_logprob": float(dl.max()),
        "max_abs_prob": float(np.abs(pa - pb).max()),
        "max_abs_max_logit": float(np.abs(a64.max(-1) - b64.max(-1)).max()),
        "argmax_mismatches": int((a.argmax(-1) != b.argmax(-1)).sum()),
        "positions": int(a.shape[0]),
    }


def merge(ms):
    out = {}
    for k in ms[0]:
        if k.startswith("max"):
            out[k] = max(m[k] for m in ms)
        elif k.startswith("mean"):
            out[k] = sum(m[k] * m["positions"] for m in ms) / sum(m["positions"] for m in ms)
        else:
            out[k] = sum(m[k] for m in ms)
    for k, v in out.items():
        if isinstance(v, float):
            out[k] = float("%.3g" % v)
    return out


# --------------------------------------------------------------------------- json


def dump(obj, indent=0):
    """JSON with lists of scalars kept on one line (compact but diffable)."""
    pad = " " * indent
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f'{pad} {json.dumps(k)}: {dump(v, indent + 1)}' for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list):
        if all(not isinstance(x, (dict, list)) for x in obj):
            return "[" + ",".join(json.dumps(x, ensure_ascii=False) for x in obj) + "]"
        items = [pad + " " + dump(x, indent + 1) for x in obj]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(obj, ensure_ascii=False)


# --------------------------------------------------------------------------- main


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for blk in iter(lambda: f.read(1 << 20), b""):
            h.update(blk)
    return h.hexdigest()


def llama_cpp_commit(override):
    if override:
        return override, "command line"
    src = os.environ.get("LLAMA_CPP_SRC")
    if src:
        try:
            c = subprocess.check_output(["git", "-C", src, "rev-parse", "HEAD"], text=True).strip()
            return c, f"git rev-parse in {src}"
        except Exception:
            pass
    c = KNOWN_LLAMA_CPP_COMMITS.get(L.__version__)
    if c:
        return c, f"vendor/llama.cpp submodule of the llama-cpp-python {L.__version__} sdist"
    return None, "unknown"


def load_prompts(path):
    """JSON: list of strings or {"name","text","parse_special"}; otherwise one prompt per
    line with backslash escapes (\\n, \\t, \\\\) decoded; parse_special is then always true."""
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    if path.endswith(".json"):
        out = []
        for i, p in enumerate(json.loads(raw)):
            if isinstance(p, str):
                p = {"text": p}
            out.append((p.get("name", f"p{i}"), p["text"], bool(p.get("parse_special", True))))
        return out
    out = []
    for i, line in enumerate(l for l in raw.splitlines() if l.strip()):
        text = line.encode("latin-1", "backslashreplace").decode("unicode_escape").encode("latin-1").decode("utf-8")
        out.append((f"p{i}", text, True))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--out", required=True)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--prompts", help="prompt file (.json list, or one prompt per line with \\n escapes)")
    g.add_argument("--token-prompts", help='token-id prompts, e.g. "1 2 3 4;5 6 7" (used verbatim, no BOS added)')
    ap.add_argument("--greedy-tokens", type=int, default=64)
    ap.add_argument("--top-k", type=int, default=20, help="top-k recorded per prompt position")
    ap.add_argument("--greedy-top-k", type=int, default=5, help="top-k recorded per greedy step")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--n-ctx", type=int, default=512)
    ap.add_argument("--n-batch", type=int, default=512)
    ap.add_argument("--flash-attn", choices=FA_MODES, default="auto",
                    help="llama.cpp default is auto (resolves to on for the CPU backend)")
    ap.add_argument("--kv-type", choices=KV_TYPES, default="f16", help="KV cache type (llama.cpp default f16)")
    ap.add_argument("--noise-report", action="store_true",
                    help="also measure llama.cpp's own logit noise (batch vs 1-by-1, threads, FA, KV type)")
    ap.add_argument("--dequant-f32", action="store_true",
                    help="first convert the model to all-F32 weights with llama.cpp's own quantizer "
                         "(llama_model_quantize, ftype ALL_F32; exact dequantization, into a temp dir) and "
                         "evaluate that: llama.cpp then runs f32 matmuls (no 8-bit activation quantization). "
                         "Use with --flash-attn off --kv-type f32 for a near-exact reference")
    ap.add_argument("--llama-cpp-commit", help="override the recorded llama.cpp commit")
    ap.add_argument("--verbose", action="store_true", help="show llama.cpp's log")
    args = ap.parse_args()

    if not args.verbose:
        L.llama_log_set(_log_cb, ctypes.c_void_p(0))
    L.llama_backend_init()
    model_path, tmpdir, converted = args.model, None, None
    if args.dequant_f32:
        tmpdir = tempfile.TemporaryDirectory(prefix="golden-f32-")
        model_path = os.path.join(tmpdir.name, "dequant-f32.gguf")
        qp = L.llama_model_quantize_default_params()
        qp.ftype = L.LLAMA_FTYPE_ALL_F32
        qp.allow_requantize = True
        qp.nthread = args.threads
        if L.llama_model_quantize(args.model.encode(), model_path.encode(), ctypes.byref(qp)) != 0:
            sys.exit("llama_model_quantize(ALL_F32) failed:\n" + "".join(_LOG_LINES[-20:]))
        converted = {"how": "llama_model_quantize(ftype=LLAMA_FTYPE_ALL_F32, allow_requantize=true): "
                            "every tensor dequantized exactly to F32",
                     "sha256": sha256(model_path)}
    model = Model(model_path)

    # ---- prompts
    prompts = []
    if args.token_prompts is not None:
        for i, part in enumerate(p for p in args.token_prompts.split(";") if p.strip()):
            toks = [int(x) for x in part.replace(",", " ").split()]
            bad = [t for t in toks if not 0 <= t < model.n_vocab]
            if bad:
                sys.exit(f"token ids {bad} out of range for n_vocab={model.n_vocab}")
            prompts.append({"name": f"t{i}", "text": None, "parse_special": None, "add_bos": False,
                            "tokens": toks})
    else:
        spec = load_prompts(args.prompts) if args.prompts else DEFAULT_PROMPTS
        for name, text, special in spec:
            toks = model.tokenize(text, model.add_bos, special)
            prompts.append({"name": name, "text": text, "parse_special": special,
                            "add_bos": model.add_bos, "tokens": toks})
    for p in prompts:
        if not p["tokens"]:
            sys.exit(f"prompt {p['name']} is empty")
        if len(p["tokens"]) + args.greedy_tokens > args.n_ctx:
            sys.exit(f"prompt {p['name']}: {len(p['tokens'])} + {args.greedy_tokens} tokens exceed n_ctx={args.n_ctx}")

    # ---- golden run
    ctx = Context(model, args.n_ctx, args.n_batch, args.threads, args.flash_attn, args.kv_type)
    results, batch_logits, greedy_seqs = [], [], []
    for p in prompts:
        ctx.clear()
        lg = ctx.eval(p["tokens"])                      # all prompt positions in one batch
        batch_logits.append(lg)
        stats = row_stats(lg, args.top_k)
        greedy, gl = [], [lg[-1]]
        for step in range(args.greedy_tokens):
            t = argmax(gl[-1])
            greedy.append(t)
            if step + 1 < args.greedy_tokens:
                gl.append(ctx.eval([t])[0])             # one token per llama_decode
        greedy_seqs.append(greedy)
        gstats = row_stats(np.stack(gl), args.greedy_top_k) if greedy else {}
        gaps = [row[0] - row[1] for row in gstats.get("top_logits", []) if len(row) > 1]
        rec = dict(p)
        rec["n_tokens"] = len(p["tokens"])
        rec["positions"] = stats
        rec["greedy"] = {
            "tokens": greedy,
            "text": model.detokenize(greedy),
            "eos_positions": [i for i, t in enumerate(greedy) if t == model.eos],
            "min_top1_top2_gap": f32(min(gaps)) if gaps else None,
            **gstats,
        }
        results.append(rec)

    # ---- noise floor
    noise = None
    if args.noise_report:
        noise = {}
        # 1. batch vs one-token-at-a-time (same context, same threads)
        ms = []
        for p, lg in zip(prompts, batch_logits):
            ctx.clear()
            ms.append(compare(lg, ctx.eval_one_by_one(p["tokens"])))
        noise["batch_vs_one_by_one"] = merge(ms)
        # 2. greedy path: one-by-one decode vs re-evaluating prompt+greedy as one batch
        ms = []
        for p, lg, gs in zip(prompts, batch_logits, greedy_seqs):
            seq = p["tokens"] + gs[:-1]
            ctx.clear()
            full = ctx.eval(seq)
            ctx.clear()
            inc = np.concatenate([ctx.eval(p["tokens"])] + [ctx.eval([t]) for t in gs[:-1]])
            ms.append(compare(full, inc))
        noise["greedy_path_batch_vs_incremental"] = merge(ms)
        # 3. threads 1 vs --threads, batch
        other = 1 if args.threads != 1 else 2
        ctx.set_threads(other)
        ms = []
        for p, lg in zip(prompts, batch_logits):
            ctx.clear()
            ms.append(compare(lg, ctx.eval(p["tokens"])))
        noise[f"threads_{args.threads}_vs_{other}"] = merge(ms)
        ctx.set_threads(args.threads)
        # 4. repeat in a fresh context: bitwise determinism
        ms = []
        c2 = Context(model, args.n_ctx, args.n_batch, args.threads, args.flash_attn, args.kv_type)
        for p, lg in zip(prompts, batch_logits):
            c2.clear()
            ms.append(compare(lg, c2.eval(p["tokens"])))
        c2.free()
        noise["rerun_fresh_context"] = merge(ms)
        # 5. flash attention / KV type variants vs the golden config
        for fa, kv in [("off", args.kv_type), ("on", args.kv_type), ("off", "f32"), ("on", "f32"), ("off", "f16")]:
            if (fa == ctx.flash_attn_resolved and kv == args.kv_type):
                continue
            key = f"vs_flash_attn_{fa}_kv_{kv}"
            if key in noise:
                continue
            c2 = Context(model, args.n_ctx, args.n_batch, args.threads, fa, kv)
            ms = []
            for p, lg in zip(prompts, batch_logits):
                c2.clear()
                ms.append(compare(lg, c2.eval(p["tokens"])))
            c2.free()
            noise[key] = merge(ms)

    commit, commit_src = llama_cpp_commit(args.llama_cpp_commit)
    sysinfo = L.llama_print_system_info().decode().strip()
    meta_keys = ["general.architecture", "general.name", "general.file_type", "tokenizer.ggml.model",
                 "tokenizer.ggml.pre", "tokenizer.ggml.add_bos_token"]
    out = {
        "schema_version": SCHEMA_VERSION,
        "generator": "tests/golden/make_llamacpp_golden.py",
        "command": " ".join(shlex.quote(a) for a in ["tests/golden/make_llamacpp_golden.py"] + sys.argv[1:]),
        "reference": {
            "llama_cpp_python_version": L.__version__,
            "llama_cpp_commit": commit,
            "llama_cpp_commit_source": commit_src,
            "ggml_system_info": sysinfo,
            "machine": platform.machine(),
        },
        "model": {
            "file": os.path.basename(args.model),
            "sha256": sha256(args.model),
            "converted": converted,
            "desc": model.desc(),
            "metadata": {k: model.meta(k) for k in meta_keys},
            "n_vocab": model.n_vocab,
            "n_layer": L.llama_model_n_layer(model.model),
            "add_bos": model.add_bos,
            "bos_id": model.bos,
            "eos_id": model.eos,
        },
        "settings": {
            "n_threads": args.threads,
            "n_ctx": args.n_ctx,
            "n_batch": args.n_batch,
            "n_ubatch": args.n_batch,
            "flash_attn": args.flash_attn,
            "flash_attn_resolved": ctx.flash_attn_resolved,
            "kv_type": args.kv_type,
            "top_k": args.top_k,
            "greedy_top_k": args.greedy_top_k,
            "greedy_tokens": args.greedy_tokens,
            "prompt_eval": "whole prompt in one llama_decode batch, logits for every position",
            "greedy_eval": "one token per llama_decode after the prompt; token = argmax (ties: lowest id); "
                           "greedy row 0 is the last prompt position; EOS does not stop generation",
            "logits": "raw logits (pre-softmax) as float32, shortest round-trip decimal; "
                      "logsumexp in float64 over the full vocab",
        },
        "prompts": results,
    }
    if noise is not None:
        out["noise_floor"] = noise
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(dump(out) + "\n")
    ctx.free()
    L.llama_model_free(model.model)
    if tmpdir is not None:
        tmpdir.cleanup()

    for r in results:
        print(f"{r['name']:10s} {r['n_tokens']:3d} tok  greedy: {r['greedy']['text'][:60]!r}")
    if noise:
        for k, v in noise.items():
            print(f"{k:32s} max|dlogit|={v['max_abs_logit']:.3g} max|dlogprob|={v['max_abs_logprob']:.3g} "
                  f"argmax_mismatch={v['argmax_mismatches']}/{v['positions']}")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
