#!/usr/bin/env python3
"""Exact-math (float64) NumPy forward pass of a llama-architecture GGUF model.

Independent of llama.cpp's kernels: weights are dequantized with the `gguf`
package (pip install gguf), everything else is float64 NumPy. It is the
"mathematically exact" answer for the quantized weights, used to measure how far
llama.cpp itself is from exact math (llama.cpp quantizes activations to 8 bits
for quantized matmuls and keeps K/V in f16), which sets the natural tolerance for
comparing any other engine against llama.cpp.

Supports LLM_ARCH_LLAMA-style models (RMSNorm, GQA, rotary "normal" mode, SwiGLU,
optionally tied output) -- enough for SmolLM2.

  numpy_reference.py --model M.gguf --golden tests/data/golden/X.json
      compares the float64 logits with the golden file's llama.cpp logits
      (prompt positions, top-k entries, max logit, log-sum-exp) and prints the
      differences.
"""

import argparse
import json
import sys

import numpy as np

try:
    import gguf
    from gguf.quants import dequantize
except ImportError:  # pragma: no cover
    sys.exit("needs the gguf package: pip install gguf")


class LlamaRef:
    def __init__(self, path):
        r = gguf.GGUFReader(path)
        self.f = {k: v.contents() for k, v in r.fields.items() if not k.startswith("tokenizer.ggml.")}
        arch = self.f["general.architecture"]
        if arch != "llama":
            raise SystemExit(f"numpy_reference: only the llama architecture is implemented (got {arch})")
        g = lambda k: self.f[f"{arch}.{k}"]
        self.n_layer = g("block_count")
        self.n_embd = g("embedding_length")
        self.n_head = g("attention.head_count")
        self.n_head_kv = g("attention.head_count_kv")
        self.eps = float(g("attention.layer_norm_rms_epsilon"))
        self.head_dim = self.n_embd // self.n_head
        self.rope_base = float(self.f.get(f"{arch}.rope.freq_base", 10000.0))
        self.w = {}
        for t in r.tensors:
            a = dequantize(t.data, t.tensor_type).astype(np.float64)
            self.w[t.name] = a.reshape([int(x) for x in reversed(t.shape)]) if a.ndim > 1 or len(t.shape) > 1 else a
        if "output.weight" not in self.w:
            self.w["output.weight"] = self.w["token_embd.weight"]

    def rms(self, x, w):
        return x / np.sqrt((x * x).mean(-1, keepdims=True) + self.eps) * w

    def rope(self, x, pos):
        # x: [n, heads, d]; llama.cpp "normal" rope: rotate adjacent pairs (2i, 2i+1)
        d = x.shape[-1]
        inv = self.rope_base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
        ang = pos[:, None] * inv[None, :]                     # [n, d/2]
        c, s = np.cos(ang)[:, None, :], np.sin(ang)[:, None, :]
        x0, x1 = x[..., 0::2], x[..., 1::2]
        out = np.empty_like(x)
        out[..., 0::2] = x0 * c - x1 * s
        out[..., 1::2] = x0 * s + x1 * c
        return out

    def forward(self, tokens):
        n, hd = len(tokens), self.head_dim
        pos = np.arange(n, dtype=np.float64)
        x = self.w["token_embd.weight"][tokens]
        mask = np.triu(np.full((n, n), -np.inf), 1)
        grp = self.n_head // self.n_head_kv
        for il in range(self.n_layer):
            W = lambda name: self.w[f"blk.{il}.{name}.weight"]
            h = self.rms(x, W("attn_norm"))
            q = (h @ W("attn_q").T).reshape(n, self.n_head, hd)
            k = (h @ W("attn_k").T).reshape(n, self.n_head_kv, hd)
            v = (h @ W("attn_v").T).reshape(n, self.n_head_kv, hd)
            q, k = self.rope(q, pos), self.rope(k, pos)
            att = np.empty((n, self.n_head, hd))
            for hh in range(self.n_head):
                kv = hh // grp
                s = q[:, hh, :] @ k[:, kv, :].T / np.sqrt(hd) + mask
                s = np.exp(s - s.max(-1, keepdims=True))
                s /= s.sum(-1, keepdims=True)
                att[:, hh, :] = s @ v[:, kv, :]
            x = x + att.reshape(n, -1) @ W("attn_output").T
            h = self.rms(x, W("ffn_norm"))
            gte, up = h @ W("ffn_gate").T, h @ W("ffn_up").T
            x = x + (gte / (1 + np.exp(-gte)) * up) @ W("ffn_down").T
        x = self.rms(x, self.w["output_norm.weight"])
        return x @ self.w["output.weight"].T


def lse(a):
    m = a.max(-1, keepdims=True)
    return (m + np.log(np.exp(a - m).sum(-1, keepdims=True)))[..., 0]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--golden", required=True, help="golden JSON written by make_llamacpp_golden.py")
    args = ap.parse_args()
    ref = LlamaRef(args.model)
    gold = json.load(open(args.golden))
    worst = {"top_logit": 0.0, "top_logprob": 0.0, "max_logit": 0.0, "logsumexp": 0.0}
    mism, npos = 0, 0
    for p in gold["prompts"]:
        lg = ref.forward(p["tokens"])
        P = p["positions"]
        ids, vals = np.array(P["top_ids"]), np.array(P["top_logits"])
        ref_top = np.take_along_axis(lg, ids, 1)
        d_logit = np.abs(ref_top - vals).max()
        d_lp = np.abs((ref_top - lse(lg)[:, None]) - (vals - np.array(P["logsumexp"])[:, None])).max()
        d_max = np.abs(lg.max(-1) - np.array(P["max_logit"])).max()
        d_lse = np.abs(lse(lg) - np.array(P["logsumexp"])).max()
        m = int((lg.argmax(-1) != ids[:, 0]).sum())
        mism += m
        npos += len(ids)
        print(f"{p['name']:10s} top-k |dlogit|<={d_logit:.3g} |dlogprob|<={d_lp:.3g} "
              f"|dmax|<={d_max:.3g} |dlse|<={d_lse:.3g} argmax mismatches {m}/{len(ids)}")
        for k, v in zip(worst, (d_logit, d_lp, d_max, d_lse)):
            worst[k] = max(worst[k], float(v))
    print("overall max abs diff (float64 numpy vs llama.cpp):",
          {k: float("%.3g" % v) for k, v in worst.items()}, f"argmax mismatches {mism}/{npos}")


if __name__ == "__main__":
    main()
