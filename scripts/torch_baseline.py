#!/usr/bin/env python3
"""PyTorch + transformers on the GPU machine, beside the CUDA backend: a Llama model of exactly the
default model's shape (SmolLM2-135M: 30 layers of 576, 9 query / 3 K/V heads, feed-forward 1536,
49152 tokens, tied embeddings, rope base 100000) with random weights in bf16.

Measures greedy decode tokens/s eager (dynamic cache) and with a static cache compiled in
mode "reduce-overhead" (CUDA graphs; the strong baseline: generate()'s own compile, else the
forward wrapped by hand, "compiled_by" says which), prefill tokens/s, batched decode, and the
device's copy bandwidth (for the ceiling). Prints one JSON object.

  python3 scripts/torch_baseline.py [--tokens 256] [--prefill 512] [--batches 1,4,16,64] [--no-compile]
                                   [--device cuda|cpu] [--out FILE]

Each measurement runs on its own: one that fails (a torch.compile graph break in another
transformers version, say) is recorded under "errors" and the others are still printed.
--device cpu checks the script on a machine without a GPU (its figures are CPU figures).
"""
import argparse
import json
import os
import time
import traceback

import torch
import transformers
from transformers import CompileConfig, LlamaConfig, LlamaForCausalLM


def sync():
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def timed(fn, reps=3):
    fn()  # warm-up
    sync()
    best = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        best.append(time.perf_counter() - t0)
    return sorted(best)[len(best) // 2]


def measure(out, name, fn, path=None):
    """Runs one measurement; a failure is recorded and the rest go on. With a path, everything
    measured so far is written there after each measurement, so a run stopped midway keeps it."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - any failure of one measurement is reported, not fatal
        where = "".join(traceback.format_exception(e)[-6:-1])[-1200:]
        out.setdefault("errors", {})[name] = f"{type(e).__name__}: {str(e)[:600]} | at: {where}"
    if path:
        with open(path + ".tmp", "w") as f:
            json.dump(out, f, indent=1)
        os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tokens", type=int, default=256)
    ap.add_argument("--prefill", type=int, default=512)
    ap.add_argument("--batches", default="1,4,16,64")
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--out", help="also write the JSON here after each measurement")
    a = ap.parse_args()
    dev = a.device
    cfg = LlamaConfig(vocab_size=49152, hidden_size=576, intermediate_size=1536, num_hidden_layers=30,
                      num_attention_heads=9, num_key_value_heads=3, max_position_embeddings=8192,
                      rope_theta=100000.0, tie_word_embeddings=True, rms_norm_eps=1e-5)
    torch.manual_seed(0)
    model = LlamaForCausalLM(cfg).to(dev, dtype=torch.bfloat16).eval()
    out = {"torch": torch.__version__, "transformers": transformers.__version__,
           "gpu": torch.cuda.get_device_name(0) if dev == "cuda" else dev, "dtype": "bfloat16",
           "parameters": sum(p.numel() for p in model.parameters())}

    def bandwidth():
        # Copy bandwidth: read + write of 1 GiB, the ceiling's denominator.
        x = torch.empty(1 << 28, dtype=torch.float32, device=dev)
        y = torch.empty_like(x)
        s = timed(lambda: y.copy_(x), reps=5)
        out["copy_bandwidth_GBps"] = 2 * x.numel() * 4 / s / 1e9

    prompt = torch.randint(0, cfg.vocab_size, (1, 32), device=dev)
    gen = dict(max_new_tokens=a.tokens, min_new_tokens=a.tokens, do_sample=False, pad_token_id=0)
    eager = min(a.tokens, 64)   # eager decode runs at ~10 tokens/s: 64 tokens tell its speed

    def decode_eager():
        s = timed(lambda: model.generate(prompt, **dict(gen, max_new_tokens=eager, min_new_tokens=eager)), reps=1)
        out["decode_eager_tokens_per_s"] = eager / s

    def prefill():
        pp = torch.randint(0, cfg.vocab_size, (1, a.prefill), device=dev)
        s = timed(lambda: model(pp), reps=3)
        out["prefill_tokens_per_s"] = a.prefill / s

    def batched():
        out["batched_eager_tokens_per_s"] = {}
        for b in [int(v) for v in a.batches.split(",")]:
            pb = torch.randint(0, cfg.vocab_size, (b, 32), device=dev)
            g = dict(gen, max_new_tokens=32, min_new_tokens=32)
            s = timed(lambda: model.generate(pb, **g), reps=1)
            out["batched_eager_tokens_per_s"][str(b)] = b * 32 / s

    def time_compiled(g, compiled_by):
        t0 = time.perf_counter()
        model.generate(prompt, **g)   # compiles
        sync()
        out["compile_s"] = time.perf_counter() - t0
        s = timed(lambda: model.generate(prompt, **g), reps=2)
        out["decode_static_compiled_tokens_per_s"] = a.tokens / s
        out["compiled_by"] = compiled_by

    def compiled_generate():
        # transformers' own path: with a static cache on a GPU, generate() compiles the model's
        # call itself (CompileConfig, mode "reduce-overhead": CUDA graphs); on the CPU it must be
        # told to (_compile_all_devices), which --device cpu does to check this script here.
        cc = CompileConfig(fullgraph=True, mode="reduce-overhead")
        if dev != "cuda":
            cc._compile_all_devices = True
        time_compiled(dict(gen, cache_implementation="static", compile_config=cc),
                      "generate(cache_implementation='static', compile_config=CompileConfig(fullgraph=True, mode='reduce-overhead'))")

    def compiled_forward():
        # The older recipe: the forward wrapped by hand, generate's own compile turned off (both
        # at once compile the call twice, one inside the other).
        model.forward = torch.compile(model.forward, mode="reduce-overhead", fullgraph=True)
        time_compiled(dict(gen, cache_implementation="static", disable_compile=True),
                      "torch.compile(model.forward, mode='reduce-overhead', fullgraph=True), "
                      "generate(cache_implementation='static', disable_compile=True)")

    measure(out, "copy_bandwidth", bandwidth, a.out)
    with torch.inference_mode():
        measure(out, "decode_eager", decode_eager, a.out)
        measure(out, "prefill", prefill, a.out)
        measure(out, "batched", batched, a.out)
    if not a.no_compile:
        # Under no_grad, not inference_mode: torch.compile and inference tensors are known not to
        # mix ("Inference tensors do not track version counter", pytorch/pytorch#101151, #124111),
        # and the first H200 run's compiled measurement failed where the eager ones ran.
        # The first H200 run's compiled measurement failed (transformers 5.17; its error did not
        # come back). Its recipe wrapped the forward by hand, and on a GPU generate() compiles the
        # call around it as well. Now transformers' own path first, the hand-wrapped forward (with
        # generate's compile off) only if that fails; each failure is recorded with its traceback's end.
        with torch.no_grad():
            measure(out, "decode_static_compiled_generate", compiled_generate, a.out)
            if "decode_static_compiled_tokens_per_s" not in out:
                torch._dynamo.reset()
                measure(out, "decode_static_compiled_forward", compiled_forward, a.out)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
