#!/usr/bin/env python3
"""Constrained decoding, checked by programs nobody here wrote: 20 JSON Schemas x 10 sampled
answers = 200 outputs of the default model through `decoding-lab-cli serve` with the official
`openai` client (response_format json_schema), each parsed with Python's json module and validated
with the `jsonschema` package (both pinned in the venv scripts/setup.sh makes).

Every answer must end by itself (finish_reason "stop": the grammar allowed end-of-generation only
once the document was complete), parse, and validate. Also checked: JSON mode (json_object) gives
objects, and a schema the engine cannot express is refused with status 400 naming the keyword.

usage: test_schema_outputs.py --cli build/app/cli/decoding-lab-cli [--per-schema 10] [--report FILE]
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import threading
import time

import jsonschema
import openai
from openai import OpenAI

HERE = os.path.dirname(os.path.abspath(__file__))


def start_server(cli):
    proc = subprocess.Popen([cli, "serve", "--port", "0", "--threads", "2", "--max-batch", "8"],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    line = proc.stderr.readline()
    m = re.search(r" as '([^']+)' on http://127\.0\.0\.1:(\d+)/v1", line)
    if not m:
        proc.kill()
        raise RuntimeError("serve did not start: " + line + proc.stderr.read())
    threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
    return proc, m.group(1), int(m.group(2))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--per-schema", type=int, default=10)
    # The schemas bound what can grow, but not the whitespace between tokens (up to 21 characters a
    # gap, as in llama.cpp's grammar): a sampled family tree took 350 tokens in one run and ran past
    # a 400-token limit in a CI run whose concurrent requests were batched differently (the batch
    # changes the CPU's rounding, docs/serving.md, and so the sample). 1,024 leaves room.
    ap.add_argument("--max-tokens", type=int, default=1024)
    ap.add_argument("--report", help="write every output and verdict here (JSON Lines)")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(HERE, "schema_cases.json"), encoding="utf-8"))
    assert len(cases) == 20
    proc, model, port = start_server(args.cli)
    client = OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="unused", max_retries=0, timeout=600)
    failures = []
    results = []
    t0 = time.time()
    try:
        def one(case, k):
            r = client.chat.completions.create(
                model=model, messages=[{"role": "user", "content": case["prompt"]}], temperature=0.8, top_p=0.95,
                seed=1000 + k, max_tokens=args.max_tokens,
                response_format={"type": "json_schema", "json_schema": {"name": case["name"], "schema": case["schema"], "strict": True}})
            text = r.choices[0].message.content
            verdict = {"schema": case["name"], "seed": 1000 + k, "finish": r.choices[0].finish_reason, "text": text,
                       "tokens": r.usage.completion_tokens}
            try:
                doc = json.loads(text)
                jsonschema.validate(doc, case["schema"])
                verdict["valid"] = r.choices[0].finish_reason == "stop"
                if not verdict["valid"]:
                    verdict["error"] = "finish_reason " + r.choices[0].finish_reason
            except (json.JSONDecodeError, jsonschema.ValidationError) as e:
                verdict["valid"] = False
                verdict["error"] = str(e).splitlines()[0]
            return verdict

        with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
            futures = [pool.submit(one, c, k) for c in cases for k in range(args.per_schema)]
            for f in futures:
                v = f.result()
                results.append(v)
                if not v["valid"]:
                    failures.append(v)

        # JSON mode: any object. Unbounded strings can run past 400 tokens; a complete answer
        # (finish_reason "stop") must be an object, and at least one of the three must complete.
        complete = 0
        for k in range(3):
            r = client.chat.completions.create(model=model, messages=[{"role": "user", "content": "Give your name and age as JSON."}],
                                               temperature=0.8, seed=k, max_tokens=400,
                                               response_format={"type": "json_object"})
            if r.choices[0].finish_reason != "stop":
                continue
            complete += 1
            try:
                doc = json.loads(r.choices[0].message.content)
            except json.JSONDecodeError as e:
                doc = None
            if not isinstance(doc, dict):
                failures.append({"schema": "json_object", "seed": k, "text": r.choices[0].message.content})
        if complete == 0:
            failures.append({"schema": "json_object", "error": "no JSON-mode answer completed within 400 tokens"})

        # A keyword the engine cannot enforce is refused, not ignored.
        try:
            client.chat.completions.create(model=model, messages=[{"role": "user", "content": "x"}], max_tokens=4,
                                           response_format={"type": "json_schema", "json_schema": {
                                               "name": "p", "schema": {"type": "string", "pattern": "^a+$"}}})
            failures.append({"schema": "pattern", "error": "accepted a schema with 'pattern'"})
        except openai.BadRequestError as e:
            if e.status_code != 400 or "pattern" not in str(e):
                failures.append({"schema": "pattern", "error": str(e)})
    finally:
        proc.send_signal(2)
        proc.wait(timeout=30)

    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            for v in results:
                f.write(json.dumps(v, ensure_ascii=False) + "\n")
    tokens = sum(v["tokens"] for v in results)
    print(f"{len(results)} outputs across {len(cases)} schemas in {time.time() - t0:.0f} s ({tokens} tokens): "
          f"{sum(v['valid'] for v in results)} parse and validate with jsonschema {jsonschema.__version__ if hasattr(jsonschema, '__version__') else ''}")
    for v in failures[:10]:
        print("FAILED:", json.dumps(v, ensure_ascii=False)[:400])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
