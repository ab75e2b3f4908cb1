#!/usr/bin/env python3
"""Grammar-constrained decoding, the reference side: how fast llama.cpp's GBNF grammar sampler,
XGrammar and llguidance compile a grammar and compute one token mask over a real vocabulary.

One command (all 34 cases of tests/golden/grammar, 5 repetitions, about 3-6 minutes on 2 cores):

    /tmp/gramvenv/bin/python scripts/bench_grammar_reference.py > /tmp/bench-grammar-ref.jsonl

    options: --cases 'smollm2-json,llama-bpe-*'   (names as in tests/golden/grammar/cases-long.tar.xz,
             "<vocab>-<grammar>", fnmatch patterns, comma separated; default all)
             --engines llama.cpp,xgrammar,llguidance   --reps 5   --short (the short texts)
             --model PATH (SmolLM2 GGUF; default as tests/support/test_paths.cpp finds it)

The venv (tests/golden/README.md, "Grammar goldens"):
    python3 -m venv /tmp/gramvenv
    /tmp/gramvenv/bin/pip install xgrammar llguidance numpy     # pulls torch (CUDA build; runs on CPU)
    CMAKE_ARGS="-DGGML_NATIVE=ON" /tmp/gramvenv/bin/pip install --no-binary llama-cpp-python \
        llama-cpp-python==0.3.36                                # reuses pip's wheel cache if built once
An engine whose package is missing is skipped with a note on stderr, so /tmp/refvenv/bin/python
runs the llama.cpp part alone.

Each case is a (vocabulary, grammar, text) of tests/golden/grammar/make_grammar_goldens.py: the
vocabulary is SmolLM2's (49152 tokens) or Llama 3's (tests/data/tokenizer/ggml-vocab-llama-bpe.gguf,
128256), the text is tokenized once by llama.cpp and replayed token by token. Per repetition:
  llama.cpp   compile = llama_sampler_init_grammar(vocab, gbnf, "root");
              mask    = llama_sampler_apply on a llama_token_data_array of the whole vocabulary with
                        random finite logits (refilling the array is not timed);
              accept  = llama_sampler_accept(next token).
  xgrammar    compile = GrammarCompiler(TokenizerInfo, max_threads=1, cache_enabled=False)
                        .compile_grammar(gbnf) (TokenizerInfo is built once per vocabulary from
                        llama.cpp's token_to_piece(special=true) bytes, VocabType.RAW, stop tokens =
                        the vocab's EOG ids; its time is vocab_setup_ms);
              mask    = GrammarMatcher.fill_next_token_bitmask; accept = accept_token.
  llguidance  compile = grammar_from("gbnf", text) (GBNF -> Lark, Python) + LLMatcher(tokenizer, ...)
                        (tokenizer: llguidance.llamacpp.lltokenizer_from_vocab with the EOG ids,
                        built once per vocabulary: vocab_setup_ms);
              mask    = LLMatcher.unsafe_compute_mask_ptr into a numpy bitmask; accept = consume_token.
There are len(tokens) + 1 masks per repetition (the last one after the whole text). For every step
the median over the repetitions is taken; mask_us_median / mask_us_mean are the median / mean of
those over the steps (accept_* likewise, len(tokens) steps); compile_ms is the median over the
repetitions (compile_ms_min beside it). Every engine runs on one thread: llama.cpp's grammar sampler
has no threads, XGrammar gets max_threads=1, llguidance's LLMatcher computes on the calling thread.
XGrammar's compile also precomputes its per-state token-mask cache; llama.cpp's only parses the
grammar and does all the work in each mask.

mask_mismatch_steps counts the steps (first repetition) where an engine's allowed set differs from
llama.cpp's; first_mismatch gives the first one (ids allowed only by llama.cpp / only by the engine,
a few of each). llguidance's llama.cpp tokenizer marks control tokens as special (never text), while
llama.cpp and XGrammar (fed the same bytes) match a control token's text, so some differences are
expected there (see tests/golden/README.md).

Output: one JSON line per (engine, vocab, grammar) on stdout; progress on stderr.
"""
import argparse
import ctypes
import fnmatch
import importlib.metadata
import json
import os
import re
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "tests", "golden", "grammar")
sys.path.insert(0, GOLDEN)
sys.dont_write_bytecode = True  # no __pycache__ beside the goldens
import make_grammar_goldens as G  # noqa: E402  (CASES, vocabulary loading; needs llama_cpp)

L = G.L


def version(pkg):
    try:
        return importlib.metadata.version(pkg)
    except importlib.metadata.PackageNotFoundError:
        return None


def stats_us(step_times):
    """step_times[step][rep] in seconds -> (median, mean) over steps of the per-step medians, in us."""
    if not step_times:
        return None, None
    med = [statistics.median(v) * 1e6 for v in step_times]
    return round(statistics.median(med), 2), round(statistics.fmean(med), 2)


def bits_to_mask(words, n):
    return np.unpackbits(np.ascontiguousarray(words).view(np.uint8), bitorder="little")[:n].astype(bool)


def compare(ref_masks, masks):
    bad, first = 0, None
    for i, (a, b) in enumerate(zip(ref_masks, masks)):
        if not np.array_equal(a, b):
            bad += 1
            if first is None:
                only_ref = np.flatnonzero(a & ~b)
                only_eng = np.flatnonzero(b & ~a)
                first = {"step": i, "only_llama_cpp": only_ref[:8].tolist(), "n_only_llama_cpp": int(only_ref.size),
                         "only_engine": only_eng[:8].tolist(), "n_only_engine": int(only_eng.size)}
    return bad, first


class Vocab:
    def __init__(self, name, path):
        self.name = name
        self.model, self.vocab = G.load_vocab(path)
        self.n = L.llama_vocab_n_tokens(self.vocab)
        self.eog = [t for t in range(self.n) if L.llama_vocab_is_eog(self.vocab, t)]
        self.pieces = [G.piece(self.vocab, t) for t in range(self.n)]
        self.setup_ms = {}
        self.xgr_info = None
        self.llg_tok = None


def run_llamacpp(v, gbnf, tokens, reps, rng):
    masker = G.Masker(v.n)
    compile_t, mask_t, accept_t, masks = [], [[] for _ in range(len(tokens) + 1)], [[] for _ in tokens], None
    for rep in range(reps):
        t0 = time.perf_counter()
        smpl = L.llama_sampler_init_grammar(v.vocab, gbnf.encode(), b"root")
        compile_t.append(time.perf_counter() - t0)
        if not smpl:
            return {"error": "llama_sampler_init_grammar failed"}, None
        rep_masks = []
        for i in range(len(tokens) + 1):
            masker.fill(rng.standard_normal(v.n, dtype=np.float32))
            t0 = time.perf_counter()
            L.llama_sampler_apply(smpl, ctypes.byref(masker.cur))
            mask_t[i].append(time.perf_counter() - t0)
            m = np.isfinite(masker.arr["logit"])
            if rep == 0:
                rep_masks.append(m.copy())
            if i < len(tokens):
                if not m[tokens[i]]:
                    L.llama_sampler_free(smpl)
                    return {"error": f"token {i} ({tokens[i]}) rejected"}, None
                t0 = time.perf_counter()
                L.llama_sampler_accept(smpl, tokens[i])
                accept_t[i].append(time.perf_counter() - t0)
        L.llama_sampler_free(smpl)
        if rep == 0:
            masks = rep_masks
    return timing(compile_t, mask_t, accept_t), masks


def timing(compile_t, mask_t, accept_t):
    mm, ma = stats_us(mask_t)
    am, aa = stats_us(accept_t)
    return {"compile_ms": round(statistics.median(compile_t) * 1e3, 3),
            "compile_ms_min": round(min(compile_t) * 1e3, 3),
            "mask_us_median": mm, "mask_us_mean": ma,
            "mask_us_max": round(max(statistics.median(s) for s in mask_t) * 1e6, 2),
            "accept_us_median": am, "accept_us_mean": aa}


def xgrammar_gbnf(gbnf):
    """XGrammar's parser rejects an empty alternative (json.gbnf: `ws ::= | " " | ...`); the same
    language with the empty string spelled out as ""."""
    out = re.sub(r'::=(\s*)\|', r'::=\1"" |', gbnf)
    out = re.sub(r'\|(\s*)\|', r'|\1"" |', out)
    return out


def run_xgrammar(v, gbnf, tokens, reps):
    import xgrammar as xgr
    rewritten = xgrammar_gbnf(gbnf)
    note = {"grammar_rewritten": "empty alternative written as \"\""} if rewritten != gbnf else {}
    gbnf = rewritten
    if v.xgr_info is None:
        t0 = time.perf_counter()
        v.xgr_info = xgr.TokenizerInfo(v.pieces, vocab_type=xgr.VocabType.RAW, vocab_size=v.n,
                                       stop_token_ids=v.eog)
        v.setup_ms["xgrammar"] = round((time.perf_counter() - t0) * 1e3, 1)
    bitmask = xgr.allocate_token_bitmask(1, v.n)
    compile_t, mask_t, accept_t, masks = [], [[] for _ in range(len(tokens) + 1)], [[] for _ in tokens], None
    for rep in range(reps):
        compiler = xgr.GrammarCompiler(v.xgr_info, max_threads=1, cache_enabled=False)
        t0 = time.perf_counter()
        try:
            compiled = compiler.compile_grammar(gbnf, root_rule_name="root")
        except Exception as e:  # noqa: BLE001
            return dict(note, error=f"compile: {type(e).__name__}: {str(e)[:300]}"), None
        compile_t.append(time.perf_counter() - t0)
        matcher = xgr.GrammarMatcher(compiled)
        rep_masks = []
        for i in range(len(tokens) + 1):
            t0 = time.perf_counter()
            matcher.fill_next_token_bitmask(bitmask, 0)
            mask_t[i].append(time.perf_counter() - t0)
            if rep == 0:
                rep_masks.append(bits_to_mask(bitmask[0].numpy(), v.n))
            if i < len(tokens):
                t0 = time.perf_counter()
                ok = matcher.accept_token(tokens[i])
                accept_t[i].append(time.perf_counter() - t0)
                if not ok:
                    return dict(note, error=f"token {i} ({tokens[i]}, {v.pieces[tokens[i]]!r}) rejected"), rep_masks
        if rep == 0:
            masks = rep_masks
    return dict(timing(compile_t, mask_t, accept_t), **note), masks


def run_llguidance(v, gbnf, tokens, reps):
    import llguidance as llg
    import llguidance.llamacpp
    if v.llg_tok is None:
        t0 = time.perf_counter()
        v.llg_tok = llguidance.llamacpp.lltokenizer_from_vocab(v.vocab, eos_token=v.eog)
        v.setup_ms["llguidance"] = round((time.perf_counter() - t0) * 1e3, 1)
    words = np.zeros((v.n + 31) // 32, dtype=np.int32)
    compile_t, mask_t, accept_t, masks = [], [[] for _ in range(len(tokens) + 1)], [[] for _ in tokens], None
    for rep in range(reps):
        t0 = time.perf_counter()
        try:
            grammar = llg.grammar_from("gbnf", gbnf)
        except Exception as e:  # noqa: BLE001
            return {"error": f"gbnf->lark: {type(e).__name__}: {str(e)[:300]}"}, None
        matcher = llg.LLMatcher(v.llg_tok, grammar, log_level=0)
        compile_t.append(time.perf_counter() - t0)
        if matcher.is_error():
            return {"error": f"LLMatcher: {matcher.get_error()[:300]}"}, None
        rep_masks = []
        for i in range(len(tokens) + 1):
            t0 = time.perf_counter()
            matcher.unsafe_compute_mask_ptr(words.ctypes.data, words.nbytes)
            mask_t[i].append(time.perf_counter() - t0)
            if rep == 0:
                rep_masks.append(bits_to_mask(words, v.n))
            if i < len(tokens):
                t0 = time.perf_counter()
                ok = matcher.consume_token(tokens[i])
                accept_t[i].append(time.perf_counter() - t0)
                if not ok or matcher.is_error():
                    return {"error": f"token {i} ({tokens[i]}, {v.pieces[tokens[i]]!r}) rejected: "
                                     f"{matcher.get_error()[:200]}"}, rep_masks
        if rep == 0:
            masks = rep_masks
    return timing(compile_t, mask_t, accept_t), masks


ENGINES = {"llama.cpp": ("llama_cpp_python", None), "xgrammar": ("xgrammar", run_xgrammar),
           "llguidance": ("llguidance", run_llguidance)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default="*", help="comma-separated fnmatch patterns of <vocab>-<grammar>")
    ap.add_argument("--engines", default="llama.cpp,xgrammar,llguidance")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--short", action="store_true", help="the short texts instead of the long ones")
    ap.add_argument("--model", default=G.default_model())
    ap.add_argument("--llama-bpe", default=G.LLAMA_BPE)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    for e in list(engines):
        if e not in ENGINES:
            sys.exit(f"unknown engine {e}")
        pkg = ENGINES[e][0]
        if e != "llama.cpp" and version(pkg) is None:
            print(f"# {e}: package {pkg} not installed here, skipped", file=sys.stderr)
            engines.remove(e)
    patterns = [p.strip() for p in args.cases.split(",") if p.strip()]
    L.llama_log_set(G._LOG_CB, None)
    L.llama_backend_init()
    rng = np.random.default_rng(args.seed)
    print(f"# {os.cpu_count()} cores, loadavg {os.getloadavg()}, engines {engines}, reps {args.reps}",
          file=sys.stderr)
    for vocab_name, path in (("smollm2", args.model), ("llama-bpe", args.llama_bpe)):
        selected = []
        for rel, long_text, short_text in G.CASES:
            stem = os.path.basename(rel)[: -len(".gbnf")].replace(".llamacpp", "")
            name = f"{vocab_name}-{stem}"
            if any(fnmatch.fnmatchcase(name, p) for p in patterns):
                selected.append((name, rel, short_text if args.short and short_text else long_text))
        if not selected:
            continue
        if not os.path.exists(path):
            print(f"# missing vocabulary {vocab_name}: {path}, skipped", file=sys.stderr)
            continue
        v = Vocab(vocab_name, path)
        for name, rel, text in selected:
            gbnf = G.read_grammar(rel).decode("utf-8")
            tokens = G.tokenize(v.vocab, text)
            ref_masks = None
            for e in engines:
                t0 = time.time()
                if e == "llama.cpp":
                    res, masks = run_llamacpp(v, gbnf, tokens, args.reps, rng)
                    ref_masks = masks
                else:
                    res, masks = ENGINES[e][1](v, gbnf, tokens, args.reps)
                line = {"engine": e, "version": version(ENGINES[e][0]), "vocab": vocab_name, "vocab_size": v.n,
                        "grammar": rel, "case": name, "steps": len(tokens) + 1, "reps": args.reps, "threads": 1}
                line.update(res)
                if e != "llama.cpp":
                    line["vocab_setup_ms"] = v.setup_ms.get(e)
                    if masks is not None and ref_masks is not None:
                        bad, first = compare(ref_masks, masks)
                        line["mask_mismatch_steps"] = bad
                        line["masks_compared"] = min(len(masks), len(ref_masks))
                        if first:
                            line["first_mismatch"] = first
                line["loadavg_1m"] = round(os.getloadavg()[0], 2)
                print(json.dumps(line), flush=True)
                print(f"# {name} {e}: {time.time() - t0:.1f} s", file=sys.stderr, flush=True)
        L.llama_model_free(v.model)


if __name__ == "__main__":
    main()
