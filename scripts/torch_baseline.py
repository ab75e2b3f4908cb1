#!/usr/bin/env python3
"""PyTorch + transformers on the GPU machine, beside the CUDA backend: a Llama model of exactly the
default model's shape (SmolLM2-135M: 30 layers of 576, 9 query / 3 K/V heads, feed-forward 1536,
49152 tokens, tied embeddings, rope base 100000) with random weights in bf16.

Measures greedy decode tokens/s eager (dynamic cache) and with a static cache under
torch.compile(mode="reduce-overhead") (the strong baseline), prefill tokens/s, batched decode, and the
device's copy bandwidth (for the ceiling). Prints one JSON object.

  python3 scripts/torch_baseline.py [--tokens 256] [--prefill 512] [--batches 1,4,16,64] [--no-compile]
"""
import argparse
import json
import time

import torch
import transformers
from transformers import LlamaConfig, LlamaForCausalLM


def timed(fn, reps=3):
    fn()  # warm-up
    torch.cuda.synchronize()
    best = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        best.append(time.perf_counter() - t0)
    return sorted(best)[len(best) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tokens", type=int, default=256)
    ap.add_argument("--prefill", type=int, default=512)
    ap.add_argument("--batches", default="1,4,16,64")
    ap.add_argument("--no-compile", action="store_true")
    a = ap.parse_args()
    dev = "cuda"
    cfg = LlamaConfig(vocab_size=49152, hidden_size=576, intermediate_size=1536, num_hidden_layers=30,
                      num_attention_heads=9, num_key_value_heads=3, max_position_embeddings=8192,
                      rope_theta=100000.0, tie_word_embeddings=True, rms_norm_eps=1e-5)
    torch.manual_seed(0)
    model = LlamaForCausalLM(cfg).to(dev, dtype=torch.bfloat16).eval()
    out = {"torch": torch.__version__, "transformers": transformers.__version__,
           "gpu": torch.cuda.get_device_name(0), "dtype": "bfloat16",
           "parameters": sum(p.numel() for p in model.parameters())}

    # Copy bandwidth: read + write of 1 GiB, the ceiling's denominator.
    x = torch.empty(1 << 28, dtype=torch.float32, device=dev)
    y = torch.empty_like(x)
    s = timed(lambda: y.copy_(x), reps=5)
    out["copy_bandwidth_GBps"] = 2 * x.numel() * 4 / s / 1e9
    del x, y

    prompt = torch.randint(0, cfg.vocab_size, (1, 32), device=dev)
    gen = dict(max_new_tokens=a.tokens, min_new_tokens=a.tokens, do_sample=False, pad_token_id=0)
    eager = min(a.tokens, 64)   # eager decode runs at ~10 tokens/s: 64 tokens tell its speed
    with torch.inference_mode():
        s = timed(lambda: model.generate(prompt, **dict(gen, max_new_tokens=eager, min_new_tokens=eager)), reps=1)
        out["decode_eager_tokens_per_s"] = eager / s

        pp = torch.randint(0, cfg.vocab_size, (1, a.prefill), device=dev)
        s = timed(lambda: model(pp), reps=3)
        out["prefill_tokens_per_s"] = a.prefill / s

        out["batched_eager_tokens_per_s"] = {}
        for b in [int(v) for v in a.batches.split(",")]:
            pb = torch.randint(0, cfg.vocab_size, (b, 32), device=dev)
            g = dict(gen, max_new_tokens=32, min_new_tokens=32)
            s = timed(lambda: model.generate(pb, **g), reps=1)
            out["batched_eager_tokens_per_s"][str(b)] = b * 32 / s

        if not a.no_compile:
            model.generation_config.cache_implementation = "static"
            model.forward = torch.compile(model.forward, mode="reduce-overhead", fullgraph=True)
            t0 = time.perf_counter()
            model.generate(prompt, **gen)   # compiles
            torch.cuda.synchronize()
            out["compile_s"] = time.perf_counter() - t0
            s = timed(lambda: model.generate(prompt, **gen), reps=2)
            out["decode_static_compiled_tokens_per_s"] = a.tokens / s
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
