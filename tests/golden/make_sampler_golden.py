#!/usr/bin/env python3
"""Reference results of llama.cpp's own sampler stages for Decoding Lab's sampler-chain tests.

Uses llama.cpp through llama-cpp-python's low-level ctypes API
(pip install llama-cpp-python==0.3.36): each case builds llama.cpp samplers
(llama_sampler_init_typical / _top_n_sigma / _xtc / _min_p / _top_p / _top_k / _mirostat /
_penalties / _dry / _temp), feeds the history with llama_sampler_accept, applies
them with llama_sampler_apply to hand-made logits and records the surviving
tokens with their logits (tokens llama.cpp masks to -inf count as removed).

DRY needs a vocabulary object; the GPT-2 vocab-only GGUF from tests/data/tokenizer
serves (no sequence breakers are used, so its contents do not matter).

Mirostat 1 (llama_sampler_init_mirostat(n_vocab, seed, tau, eta, m), cases named
"mirostat-v1 ...") draws the token itself with its own std::mt19937, inside apply, and
updates mu there. Each such case is one chain (optionally llama_sampler_init_temp before
it) applied TWICE: to the case's logits, then to new logits. After each apply it records
cur_p as llama.cpp left it: the top-k survivors with their renormalised p (most probable
first), and the token llama.cpp selected (cur_p.selected) with its p. The second apply
runs with the mu that the first selection taught, so its survivors check the update
mu -= eta * (surprise - tau). The script also applies the second logits with a fresh
sampler (mu = 2 tau) and stores that survivor count as "kept_if_mu_unchanged"; the cases
are chosen so it differs, i.e. a stage that never learned would fail them. n_vocab is the
logit row length (64), as llama.cpp's common sampler passes the model's vocabulary size.

  make_sampler_golden.py --out tests/data/golden/sampler-llamacpp.json
"""
import argparse
import ctypes
import json
import math
import os
import random

import llama_cpp as l

HERE = os.path.dirname(os.path.abspath(__file__))
VOCAB_GGUF = os.path.join(HERE, "..", "data", "tokenizer", "ggml-vocab-gpt-2.gguf")
N = 64  # vocabulary of the hand-made cases


def logits_for(seed):
    rng = random.Random(seed)
    return [round(rng.gauss(0.0, 2.0), 4) for _ in range(N)]


def history_for(seed, length=40):
    # Repeats on purpose, so penalties and DRY have something to find.
    rng = random.Random(seed)
    base = [rng.randrange(N) for _ in range(8)]
    out = []
    while len(out) < length:
        out += base[: rng.randrange(3, 8)] + [rng.randrange(N)]
    return out[:length]


def run(samplers, logits, history):
    chain = l.llama_sampler_chain_init(l.llama_sampler_chain_default_params())
    for s in samplers:
        l.llama_sampler_chain_add(chain, s)
    for t in history:
        l.llama_sampler_accept(chain, t)
    arr = (l.llama_token_data * len(logits))()
    for i, x in enumerate(logits):
        arr[i].id, arr[i].logit, arr[i].p = i, x, 0.0
    cur = l.llama_token_data_array(data=arr, size=len(logits), selected=-1, sorted=False)
    l.llama_sampler_apply(chain, ctypes.byref(cur))
    kept = {}
    for i in range(cur.size):
        d = cur.data[i]
        if d.logit != -math.inf:
            kept[d.id] = d.logit
    l.llama_sampler_free(chain)
    ids = sorted(kept)
    return ids, [kept[i] for i in ids]


def apply_once(chain, logits):
    """llama_sampler_apply on a fresh array; returns cur_p as llama.cpp left it (order kept)."""
    arr = (l.llama_token_data * len(logits))()
    for i, x in enumerate(logits):
        arr[i].id, arr[i].logit, arr[i].p = i, x, 0.0
    cur = l.llama_token_data_array(data=arr, size=len(logits), selected=-1, sorted=False)
    l.llama_sampler_apply(chain, ctypes.byref(cur))
    data = [(cur.data[i].id, cur.data[i].logit, cur.data[i].p) for i in range(cur.size)]
    return data, cur.selected


def mirostat_chain(temperature, tau, eta, m, seed):
    chain = l.llama_sampler_chain_init(l.llama_sampler_chain_default_params())
    if temperature is not None:
        l.llama_sampler_chain_add(chain, l.llama_sampler_init_temp(temperature))
    l.llama_sampler_chain_add(chain, l.llama_sampler_init_mirostat(N, seed, tau, eta, m))
    return chain


def mirostat_v1_case(name, temperature, tau, eta, m, seed, rng_seed):
    logits, logits2 = logits_for(seed), logits_for(seed + 500)
    chain = mirostat_chain(temperature, tau, eta, m, rng_seed)
    steps, first = [], None
    for x in (logits, logits2):
        data, sel = apply_once(chain, x)
        if first is None:
            first = sorted((d[0], d[1]) for d in data)  # ids with the logits after temperature
        assert 0 <= sel < len(data), (name, sel)
        steps.append({"logits": x, "kept": [d[0] for d in data], "kept_p": [d[2] for d in data],
                      "selected": data[sel][0], "selected_p": data[sel][2]})
    l.llama_sampler_free(chain)
    fresh = mirostat_chain(temperature, tau, eta, m, rng_seed)
    unchanged = len(apply_once(fresh, logits2)[0])
    l.llama_sampler_free(fresh)
    assert unchanged != len(steps[1]["kept"]), f"{name}: the second step does not depend on mu's update"
    params = {"order": "mirostat-v1", "mirostat_tau": tau, "mirostat_eta": eta, "mirostat_m": m}
    if temperature is not None:
        params["temperature"] = temperature
    return {"name": name, "params": params, "logits": logits, "history": [],
            "kept": [i for i, _ in first], "kept_logits": [x for _, x in first],
            "mirostat": {"n_vocab": N, "seed": rng_seed, "steps": steps[:1] + [dict(steps[1], kept_if_mu_unchanged=unchanged)]}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    l.llama_backend_init()
    mp = l.llama_model_default_params()
    mp.vocab_only = True
    model = l.llama_model_load_from_file(VOCAB_GGUF.encode(), mp)
    vocab = l.llama_model_get_vocab(model)

    cases = []

    def add(name, params, samplers, seed, with_history=False):
        logits = logits_for(seed)
        history = history_for(seed + 1000) if with_history else []
        ids, kept_logits = run(samplers, logits, history)
        cases.append({"name": name, "params": params, "logits": logits, "history": history,
                      "kept": ids, "kept_logits": kept_logits})

    for seed, p in [(1, 0.3), (2, 0.7), (3, 0.9), (4, 0.99)]:
        add(f"typical {p}", {"order": "typical", "typical_p": p}, [l.llama_sampler_init_typical(p, 1)], seed)
    for seed, n in [(5, 0.5), (6, 1.0), (7, 2.0)]:
        add(f"top-n-sigma {n}", {"order": "top-n-sigma", "top_n_sigma": n}, [l.llama_sampler_init_top_n_sigma(n)], seed)
    for seed, t in [(8, 0.02), (9, 0.05), (10, 0.1), (11, 0.3)]:
        add(f"xtc {t}", {"order": "xtc", "xtc_probability": 1.0, "xtc_threshold": t},
            [l.llama_sampler_init_xtc(1.0, t, 1, 1234)], seed)
    for seed, p in [(12, 0.05), (13, 0.3)]:
        add(f"min-p {p}", {"order": "min-p", "min_p": p}, [l.llama_sampler_init_min_p(p, 1)], seed)
    for seed, p in [(14, 0.5), (15, 0.9)]:
        add(f"top-p {p}", {"order": "top-p", "top_p": p}, [l.llama_sampler_init_top_p(p, 1)], seed)
    add("top-k 5", {"order": "top-k", "top_k": 5}, [l.llama_sampler_init_top_k(5)], 16)
    for seed, (last_n, rep, freq, pres) in [(17, (64, 1.3, 0.0, 0.0)), (18, (8, 1.0, 0.4, 0.7)), (19, (16, 1.2, 0.3, 0.5))]:
        add(f"penalties last {last_n} r {rep} f {freq} p {pres}",
            {"order": "penalties", "penalty_last_n": last_n, "repeat_penalty": rep, "frequency_penalty": freq,
             "presence_penalty": pres},
            [l.llama_sampler_init_penalties(N, last_n, rep, freq, pres)], seed, with_history=True)
    for seed, (mult, base, allowed, last_n) in [(20, (0.8, 1.75, 2, 64)), (21, (1.0, 2.0, 1, 24)), (22, (0.5, 3.0, 3, 40))]:
        empty = (ctypes.c_char_p * 1)()
        add(f"dry m {mult} b {base} allowed {allowed} last {last_n}",
            {"order": "dry", "dry_multiplier": mult, "dry_base": base, "dry_allowed_length": allowed,
             "dry_penalty_last_n": last_n},
            [l.llama_sampler_init_dry(vocab, mult, base, allowed, last_n, empty, 0)], seed, with_history=True)
    # llama.cpp's default chain order, temperature last.
    for seed in (23, 24):
        add("llama.cpp order", {"order": "llama.cpp", "penalty_last_n": 32, "repeat_penalty": 1.1, "top_k": 40,
                                "typical_p": 0.95, "top_p": 0.9, "min_p": 0.05, "temperature": 0.7},
            [l.llama_sampler_init_penalties(N, 32, 1.1, 0.0, 0.0), l.llama_sampler_init_top_k(40),
             l.llama_sampler_init_typical(0.95, 1), l.llama_sampler_init_top_p(0.9, 1),
             l.llama_sampler_init_min_p(0.05, 1), l.llama_sampler_init_temp(0.7)], seed, with_history=True)

    # Mirostat 1, one chain applied twice (see the docstring); (temperature, tau, eta, m).
    # Picked so that the second step keeps a different number of tokens than an unlearned mu would,
    # with mu moving up (surprise < tau) in some cases and down in others.
    for seed, (temp, tau, eta, m) in [(25, (None, 3.0, 0.1, 100)), (25, (None, 4.0, 0.3, 100)),
                                      (27, (None, 2.0, 0.5, 10)), (25, (None, 4.0, 0.3, 3)),
                                      (32, (None, 3.0, 0.3, 2)), (28, (0.7, 3.0, 0.2, 100)),
                                      (30, (1.5, 3.0, 0.2, 50)), (31, (1.3, 3.5, 0.3, 100))]:
        name = f"mirostat-v1 tau {tau} eta {eta} m {m}" + ("" if temp is None else f" after temperature {temp}")
        cases.append(mirostat_v1_case(name, temp, tau, eta, m, seed, 4321 + seed))

    l.llama_model_free(model)
    with open(args.out, "w") as f:
        json.dump({"source": "llama.cpp via llama-cpp-python " + l.__version__, "script": "tests/golden/make_sampler_golden.py",
                   "cases": cases}, f, indent=1)
    print(f"wrote {len(cases)} cases to {args.out}")


if __name__ == "__main__":
    main()
