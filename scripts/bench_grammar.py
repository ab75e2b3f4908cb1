#!/usr/bin/env python3
"""Grammar-constrained decoding, measured beside llama.cpp, XGrammar and llguidance in ONE run.

    python3 scripts/bench_grammar.py [--reps 5] [--cases 'smollm2-json,llama-bpe-*'] \
        [--ref-python /tmp/gramvenv/bin/python] [--decode-reps 5] > /tmp/bench-grammar.md

1. Mask time. For each case of tests/golden/grammar/cases-long.tar.xz (a vocabulary, a grammar and
   a text the grammar accepts, tokenized by llama.cpp; ours tokenizes the same ids), our engine
   (`decoding-lab-cli grammar bench`) and then scripts/bench_grammar_reference.py (llama.cpp's
   grammar sampler, XGrammar, llguidance) compile the grammar and compute the mask before every
   token. Ours is reported twice: "fresh" is the first pass over a freshly compiled grammar (what
   one request sees: transitions and masks are computed on first use), "warm" a second pass over
   the same automaton (what the next request with the same grammar sees, e.g. a server answering
   one schema). Per step the median over the repetitions, then median and mean over the steps.
2. End to end. Greedy chat answers on the default model with the JSON Schema person.json and
   without, alternated --decode-reps times in one process (`grammar bench --decode-prompt`).

The reference venv is described at the top of bench_grammar_reference.py. Without it, only our
figures are printed.
"""
import argparse
import fnmatch
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "tests", "golden", "grammar")
DEFAULT_CASES = ("smollm2-json,smollm2-json_arr,smollm2-person,smollm2-order,smollm2-c,smollm2-english,smollm2-chess,"
                 "llama-bpe-json,llama-bpe-person,llama-bpe-order,llama-bpe-c,llama-bpe-english,llama-bpe-chess")


def default_model():
    env = os.environ.get("DECODING_LAB_MODEL")
    if env:
        return env
    return os.path.expanduser("~/.local/share/decoding-lab/models/SmolLM2-135M-Instruct.Q4_1.gguf")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "cli", "decoding-lab-cli"))
    ap.add_argument("--cases", default=DEFAULT_CASES)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--ref-python", default="/tmp/gramvenv/bin/python")
    ap.add_argument("--decode-reps", type=int, default=5)
    args = ap.parse_args()
    vocab_path = {"smollm2": default_model(),
                  "llama-bpe": os.path.join(ROOT, "tests", "data", "tokenizer", "ggml-vocab-llama-bpe.gguf")}
    patterns = args.cases.split(",")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(os.path.join(GOLDEN, "cases-long.tar.xz")) as tar:
            tar.extractall(tmp)
        files = sorted(f for f in os.listdir(os.path.join(tmp, "cases-long")) if f.endswith(".json"))
        cases = [f[:-5] for f in files if any(fnmatch.fnmatch(f[:-5], p) for p in patterns)]
        for name in cases:
            case = json.load(open(os.path.join(tmp, "cases-long", name + ".json"), encoding="utf-8"))
            text_file = os.path.join(tmp, name + ".txt")
            with open(text_file, "w", encoding="utf-8") as f:
                f.write(case["text"])
            out = subprocess.run([args.cli, "grammar", "bench", os.path.join(GOLDEN, case["grammar_file"]), "--text-file", text_file,
                                  "--vocab", vocab_path[case["vocab"]], "--reps", str(args.reps), "--json-out"],
                                 capture_output=True, text=True, check=True)
            ours = json.loads(out.stdout)
            rows.append({"case": name, "engine": "decoding-lab (fresh)", "compile_ms": ours["compile_ms"], "vocab_ms": ours["vocab_setup_ms"],
                         "mask_us_median": ours["mask_us_median_cold"], "mask_us_mean": ours["mask_us_mean_cold"], "steps": ours["steps"]})
            rows.append({"case": name, "engine": "decoding-lab (warm)", "compile_ms": None,
                         "mask_us_median": ours["mask_us_median_warm"], "mask_us_mean": ours["mask_us_mean_warm"], "steps": ours["steps"]})
            print(f"ours: {name} done", file=sys.stderr)
        if os.path.exists(args.ref_python):
            ref = subprocess.run([args.ref_python, os.path.join(ROOT, "scripts", "bench_grammar_reference.py"), "--cases",
                                  ",".join(cases), "--reps", str(args.reps)], capture_output=True, text=True)
            if ref.returncode != 0:
                print(ref.stderr[-3000:], file=sys.stderr)
            for line in ref.stdout.splitlines():
                r = json.loads(line)
                if r.get("error"):
                    rows.append({"case": r["case"], "engine": r["engine"], "error": r["error"]})
                    continue
                rows.append({"case": r["case"], "engine": f"{r['engine']} {r.get('version', '')}".strip(),
                             "compile_ms": r["compile_ms"], "mask_us_median": r["mask_us_median"], "mask_us_mean": r["mask_us_mean"],
                             "steps": r["steps"]})
        else:
            print(f"{args.ref_python} not found: reference engines skipped", file=sys.stderr)

    print("| case | engine | compile ms | mask µs median | mask µs mean | mean vs ours (fresh) |")
    print("|---|---|---:|---:|---:|---:|")
    fresh = {r["case"]: r["mask_us_mean"] for r in rows if r["engine"] == "decoding-lab (fresh)"}
    for case in cases:
        for r in rows:
            if r["case"] != case:
                continue
            if "error" in r:
                print(f"| {case} | {r['engine']} | – | – | – | {r['error'][:60]} |")
                continue
            ratio = r["mask_us_mean"] / fresh[case] if fresh.get(case) else float("nan")
            comp = "–" if r["compile_ms"] is None else f"{r['compile_ms']:.2f}"
            print(f"| {case} | {r['engine']} | {comp} | {r['mask_us_median']:.1f} | {r['mask_us_mean']:.1f} | {ratio:.2f}× |")

    # End to end: greedy chat answers with and without the constraint on the default model,
    # alternated in one process (`grammar bench --decode-prompt`): the unconstrained run gets as many
    # tokens as the constrained answer, and each constrained run compiles the grammar afresh.
    schema = os.path.join(ROOT, "tests", "golden", "grammar", "schemas", "person.json")
    out = subprocess.run([args.cli, "grammar", "bench", schema, "--text", '{"name": "Ann", "age": 31}', "--reps", "1",
                          "--decode-prompt", "Describe a fictional person as JSON.", "--decode-reps", str(args.decode_reps),
                          "--threads", "2", "--json-out"], capture_output=True, text=True, check=True)
    d = json.loads(out.stdout)
    print()
    print(f"| decode, default model, greedy, 2 threads, {d['decode_tokens']} tokens | decode steps/s (median of {args.decode_reps}) |")
    print("|---|---:|")
    print(f"| unconstrained | {d['decode_tps_unconstrained']:.1f} |")
    print(f"| person.json (JSON Schema) | {d['decode_tps_constrained']:.1f} |")
    print(f"\nconstrained / unconstrained: {d['decode_ratio']:.3f}")


if __name__ == "__main__":
    main()
